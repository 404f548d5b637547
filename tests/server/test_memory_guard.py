"""The memory guard is consulted before the n × n work of every page (AppTest).

With a budget of half a MiB (``KPCA_MEMORY_BUDGET_MB``) the 400 points of the circles
need more than the server allows on every page: each page must show the guard's
refusal, naming its n, instead of computing. The n each page must name is the side of its
n × n work stated in its registry entry (``Lesson.work``), so a new lesson is checked as soon
as it is registered; one that states no work fails :func:`test_every_page_with_a_kernel_is_checked`
unless it computes no kernel.
"""

from __future__ import annotations

import pytest

from lessons.denoising import view as denoising_view
from server import memory
from shell.registry import LESSONS
from tests.support.apptest import open_app, usps_available

BUDGET_MB = "0.5"
N = 400


def points_for(work) -> int:
    """The circles' n a page is opened with: above the work's cap when it has one, so that a
    wrong cap in the registry makes the guard's refusal name another n."""
    return N if work.cap is None else work.cap + 50


# page → (the circles' n, the n the guard refuses: the registry's side of its work there).
OPENED = {lesson.url_path: points_for(lesson.work) for lesson in LESSONS if lesson.work}
GUARDED = {lesson.url_path: lesson.work.side_for(OPENED[lesson.url_path])
           for lesson in LESSONS if lesson.work}
# Charts a page may draw without any n × n work (a model of memory against n).
NOT_COMPUTED = {"scale": ("scale_memory",)}


def test_every_page_with_a_kernel_is_checked():
    no_kernel = {lesson.url_path for lesson in LESSONS if lesson.work is None}
    # A lecture plan and the class tally: no data, no kernel.
    assert no_kernel == {"tour", "class_tally"}
    assert len(GUARDED) == len(LESSONS) - len(no_kernel)


@pytest.mark.parametrize("page", list(GUARDED))
def test_each_page_shows_the_guards_refusal_instead_of_computing(page, monkeypatch):
    monkeypatch.setenv(memory.BUDGET_ENV, BUDGET_MB)
    if page == "denoising":
        if not usps_available():
            pytest.skip("USPS digits not available")
        from tests.lessons.denoising.test_page import open_denoising

        at = open_denoising(**{denoising_view.K_N: GUARDED[page]})
    else:
        at = open_app(page, {"dataset": "circles", "n": OPENED[page], "kernel": "rbf",
                             "gamma": 5})
    assert not at.exception, [e.value for e in at.exception]
    allowed = f"this server allows {memory.format_bytes(memory.budget_bytes())} per computation"
    refusals = [e.value for e in at.error if allowed in e.value]
    assert refusals, [e.value for e in at.error]
    assert refusals[0].startswith(f"n = {GUARDED[page]:,} needs")
    charts = [e.proto.id for e in at.get("plotly_chart")]
    assert [c for c in charts if not any(k in c for k in NOT_COMPUTED.get(page, ()))] == []
