"""The memory guard is consulted before the n × n work of every page (AppTest).

With a budget of half a MiB (``KPCA_MEMORY_BUDGET_MB``) the 400 points of the circles
need more than the server allows on every page: each page must show the guard's
refusal, naming its n, instead of computing. A new page in ``LESSONS`` fails
:func:`test_every_page_is_checked` until it is added here.
"""

from __future__ import annotations

import pytest

from lessons.denoising import view as denoising_view
from shell import memory
from shell.registry import LESSONS
from tests.support.apptest import open_app, usps_available

BUDGET_MB = "0.5"
N = 400
# page → the n the guard refuses (the page's own sample or training part of the 400).
GUARDED = {
    "explorer": N,
    "how_it_works": N,
    "kernel_trick": N,  # all 400 points fit its explicit-map sample
    "mistakes": 300,  # its sample (MISTAKES_MAX_N)
    "component_maps": N,
    "new_points": N - round(0.25 * N),  # the training part
    "choosing_gamma": N,
    "denoising": 300,  # its own smallest training set
    "classification": N - 120,  # the training split (30 % held out)
    "scale": N,  # exact kernel PCA for the comparison
}
NO_KERNEL = {"tour": "a lecture plan: no data, no kernel"}
# Charts a page may draw without any n × n work (a model of memory against n).
NOT_COMPUTED = {"scale": ("scale_memory",)}


def test_every_page_is_checked():
    assert {lesson.url_path for lesson in LESSONS} == set(GUARDED) | set(NO_KERNEL)


@pytest.mark.parametrize("page", list(GUARDED))
def test_each_page_shows_the_guards_refusal_instead_of_computing(page, monkeypatch):
    monkeypatch.setenv(memory.BUDGET_ENV, BUDGET_MB)
    if page == "denoising":
        if not usps_available():
            pytest.skip("USPS digits not available")
        from tests.lessons.denoising.test_page import open_denoising

        at = open_denoising(**{denoising_view.K_N: GUARDED[page]})
    else:
        at = open_app(page, {"dataset": "circles", "n": N, "kernel": "rbf", "gamma": 5})
    assert not at.exception, [e.value for e in at.exception]
    allowed = f"this server allows {memory.format_bytes(memory.budget_bytes())} per computation"
    refusals = [e.value for e in at.error if allowed in e.value]
    assert refusals, [e.value for e in at.error]
    assert refusals[0].startswith(f"n = {GUARDED[page]:,} needs")
    charts = [e.proto.id for e in at.get("plotly_chart")]
    assert [c for c in charts if not any(k in c for k in NOT_COMPUTED.get(page, ()))] == []
