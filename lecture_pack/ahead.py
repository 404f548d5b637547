"""The tour's views computed ahead on the server, so that no step is dead air.

When the tour is opened or a class starts (``app_pages/tour.py``, the lecturer's page),
every step's question and view is computed in the background at the step's settings, one
after the other in the server's queue (:mod:`server.ahead`), into the caches the pages
read. The step's question comes from the classroom (:func:`classroom.predict.live_question`,
cached); the view from its lesson's ``prepare(settings)``, which calls the same cached
functions as the page, with the page's own first values of its controls, so that the
view's first run is a read (``tests/lecture_pack/test_ahead.py`` runs each page after its
preparation and counts what it had to compute).

The optional second part's views (:data:`classroom.tour.BEYOND`) open with controls from
their links and are quick; only their questions are prepared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from classroom import predict
from classroom.tour import STEPS, TourStep
from lecture_pack.download import job_title
from lessons.choosing_gamma.prepare import prepare as choosing_gamma
from lessons.classification.prepare import prepare as classification
from lessons.component_maps.prepare import prepare as component_maps
from lessons.denoising.prepare import prepare as denoising
from lessons.explorer.prepare import prepare as explorer
from lessons.how_it_works.prepare import prepare as how_it_works
from lessons.kernel_trick.prepare import prepare as kernel_trick
from lessons.mistakes.prepare import prepare as mistakes
from lessons.scale.prepare import prepare as scale
from server import ahead, shared_cache
from shell.state import Settings
from words.i18n import LANGUAGES, _, format_number

PLAN = "tour"
# Each page of the tour and what its first view computes.
VIEWS: dict[str, Callable[[Settings], None]] = {
    "app_pages/explorer.py": explorer,
    "app_pages/how_it_works.py": how_it_works,
    "app_pages/kernel_trick.py": kernel_trick,
    "app_pages/choosing_gamma.py": choosing_gamma,
    "app_pages/component_maps.py": component_maps,
    "app_pages/mistakes.py": mistakes,
    "app_pages/denoising.py": denoising,
    "app_pages/classification.py": classification,
    "app_pages/scale.py": scale,
}


def prepare_step(step: TourStep) -> None:
    """Step ``step``'s question (in each language: its sentences are cached by language)
    and, for a step of the lecture, its view."""
    settings = step.settings()
    # What is prepared for the lecture goes to the shared cache's prefill, where no
    # student's on-demand work can evict it.
    with shared_cache.prefilling():
        if step.check:
            for language in LANGUAGES:
                predict.live_question(step.check, settings, language)
        if not step.part and (view := VIEWS.get(step.page)):
            view(settings)


def start() -> ahead.Plan | None:
    """Prepare every step, in the tour's order (once per server process)."""
    return ahead.prepare(PLAN, [(f"step {number}", partial(prepare_step, step))
                                for number, step in enumerate(STEPS, 1)])


def readiness(plan: ahead.Plan) -> str:
    """The tour page's line about the plan, from its progress."""
    if not plan.finished:
        return _("Preparing the tour's views ahead: {done} of {total} views ready…").format(
            done=plan.done, total=plan.total)
    ready = plan.total - len(plan.failed)
    seconds = format_number(plan.seconds, ".0f")
    if not plan.failed:
        return _("{ready} of {total} views ready: every step opens without a wait (prepared "
                 "in {seconds} s).").format(ready=ready, total=plan.total, seconds=seconds)
    return _("{ready} of {total} views ready (prepared in {seconds} s); not prepared: "
             "{failed} (the view says why when it is opened).").format(
        ready=ready, total=plan.total, seconds=seconds,
        failed=", ".join(job_title(label) for label in plan.failed))
