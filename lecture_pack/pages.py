"""The lessons' own code for each page a step of the lecture opens: a fact of the page, not
of a step, so a step on a page already here is added to ``classroom.tour.STEPS`` alone.

The tour's steps (``classroom.tour``) cannot name this code: the classroom imports no
lesson. A step names its page and how the offline file draws it (``TourStep.offline``);
this table gives, by page, the function that computes the page's first view ahead on the
server (its lesson's ``prepare``: :mod:`lecture_pack.ahead`) and the lesson's ``pack``
module that makes its first screen for the file (:mod:`lecture_pack.build`).
``tests/lecture_pack/test_pages.py`` holds every step of the lecture to it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from types import ModuleType

from lessons.choosing_gamma import pack as choosing_gamma_pack
from lessons.choosing_gamma import prepare as choosing_gamma
from lessons.classification import pack as classification_pack
from lessons.classification import prepare as classification
from lessons.component_maps import pack as component_maps_pack
from lessons.component_maps import prepare as component_maps
from lessons.denoising import pack as denoising_pack
from lessons.denoising import prepare as denoising
from lessons.explorer import pack as explorer_pack
from lessons.explorer import prepare as explorer
from lessons.how_it_works import pack as how_it_works_pack
from lessons.how_it_works import prepare as how_it_works
from lessons.kernel_trick import pack as kernel_trick_pack
from lessons.kernel_trick import prepare as kernel_trick
from lessons.mistakes import pack as mistakes_pack
from lessons.mistakes import prepare as mistakes
from lessons.scale import pack as scale_pack
from lessons.scale import prepare as scale
from shell.registry import Lesson, page_named
from shell.state import Settings


@dataclass(frozen=True)
class LecturePage:
    """A page of the lecture, as the lecture computes it.

    Attributes
    ----------
    prepare : callable
        Its first view at a step's settings, computed ahead into the caches the page reads
        (``lessons/<lesson>/prepare.py``).
    pack : module
        Its first screen for the offline file (``lessons/<lesson>/pack.py``,
        :mod:`lessons.common.pack`).
    """

    prepare: Callable[[Settings], None]
    pack: ModuleType


PAGES: dict[Lesson, LecturePage] = {
    page_named("explorer"): LecturePage(explorer.prepare, explorer_pack),
    page_named("how_it_works"): LecturePage(how_it_works.prepare, how_it_works_pack),
    page_named("kernel_trick"): LecturePage(kernel_trick.prepare, kernel_trick_pack),
    page_named("choosing_gamma"): LecturePage(choosing_gamma.prepare, choosing_gamma_pack),
    page_named("component_maps"): LecturePage(component_maps.prepare, component_maps_pack),
    page_named("mistakes"): LecturePage(mistakes.prepare, mistakes_pack),
    page_named("denoising"): LecturePage(denoising.prepare, denoising_pack),
    page_named("classification"): LecturePage(classification.prepare, classification_pack),
    page_named("scale"): LecturePage(scale.prepare, scale_pack),
}
