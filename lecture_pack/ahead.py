"""The tour's views computed ahead on the server, so that no step is dead air.

When the tour is opened or a class starts (``app_pages/tour.py``, the lecturer's page),
every step's question and view is computed in the background at the step's settings, one
after the other in the server's queue (:mod:`server.ahead`), into the caches the pages
read. The step's question comes from the classroom (:func:`classroom.predict.live_question`,
cached); the view from its page's ``prepare(settings)`` (:data:`lecture_pack.pages.PAGES`),
which calls the same cached functions as the page, with the page's own first values of its
controls, so that the view's first run is a read (``tests/lecture_pack/test_ahead.py``
runs each page after its preparation and counts what it had to compute).

The optional second part's views (:data:`classroom.tour.BEYOND`) open with controls from
their links and are quick; only their questions are prepared.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial

from classroom import predict
from classroom.tour import STEPS, TourStep
from lecture_pack.download import job_title
from lecture_pack.pages import PAGES
from server import ahead, shared_cache
from shell.state import Settings
from words.i18n import LANGUAGES, _, format_number

PLAN = "tour"


def view_prepared(step: TourStep) -> Callable[[Settings], None] | None:
    """What computes the step's view ahead: its page's ``prepare`` for a step of the
    lecture, nothing for one of the optional part (quick, opened with controls from its
    link)."""
    return None if step.part else PAGES[step.lesson].prepare


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
        if view := view_prepared(step):
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
