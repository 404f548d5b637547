"""The tour's views computed ahead on the server, so that no step is dead air.

When the tour is opened or a class starts (``app_pages/tour.py``, the lecturer's page),
every step's question and view is computed in the background at the step's settings, one
after the other in the server's queue (:mod:`shell.ahead`), into the caches the pages
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
from lessons.choosing_gamma.prepare import prepare as choosing_gamma
from lessons.classification.prepare import prepare as classification
from lessons.component_maps.prepare import prepare as component_maps
from lessons.denoising.prepare import prepare as denoising
from lessons.explorer.prepare import prepare as explorer
from lessons.how_it_works.prepare import prepare as how_it_works
from lessons.kernel_trick.prepare import prepare as kernel_trick
from lessons.mistakes.prepare import prepare as mistakes
from lessons.scale.prepare import prepare as scale
from shell import ahead
from shell.state import Settings

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
    """Step ``step``'s question and, for a step of the lecture, its view."""
    settings = step.settings()
    if step.check:
        predict.live_question(step.check, settings)
    if not step.part and (view := VIEWS.get(step.page)):
        view(settings)


def start() -> ahead.Plan | None:
    """Prepare every step, in the tour's order (once per server process)."""
    return ahead.prepare(PLAN, [(f"step {number}", partial(prepare_step, step))
                                for number, step in enumerate(STEPS, 1)])


def readiness(plan: ahead.Plan) -> str:
    """The tour page's line about the plan, from its progress."""
    if not plan.finished:
        return (f"Preparing the tour's views ahead: {plan.done} of {plan.total} views "
                "ready…")
    ready = plan.total - len(plan.failed)
    took = f"prepared in {plan.seconds:.0f} s"
    if not plan.failed:
        return f"{ready} of {plan.total} views ready: every step opens without a wait ({took})."
    return (f"{ready} of {plan.total} views ready ({took}); not prepared: "
            f"{', '.join(plan.failed)} (the view says why when it is opened).")
