"""Drawn points from a link on every page (AppTest): a drawing kernel PCA cannot run on is
refused with a message and a way to the Draw page, never a traceback or a library's own
error (issue 34: ``/explorer?dataset=drawn&points=1iGQwmWh0`` crashed the Explorer; 0-3
points or 300 identical ones crashed Scale; near-empty drawings showed raw errors).
"""

from __future__ import annotations

import numpy as np
import pytest

from datasets import drawn
from shell.registry import LESSONS
from tests.support.apptest import open_app

PAGES = [lesson.url_path for lesson in LESSONS]
# Pages that do not take the sidebar's data (a lecture plan, the tally, the USPS digits).
OWN_DATA = {"tour", "class_tally", "denoising"}


def code(points, classes) -> str:
    return drawn.encode(np.asarray(points, dtype=float).reshape(-1, 2), np.asarray(classes))


REFUSED = {
    "two points (the issue's link)": "1iGQwmWh0",
    "300 points at one place": code(np.zeros((300, 2)), np.arange(300) % 3),
}
# Drawings kernel PCA runs on, at the edge: K̃ of rank 1, a single class.
DEGENERATE = {
    "300 points at two places": code(np.repeat([[0.5, 0.5], [-0.5, -0.5]], 150, axis=0),
                                     np.repeat([0, 1], 150)),
    "four points of one class": code([[0.1, 0.2], [0.3, 0.4], [0.5, 0.1], [0.7, -0.2]],
                                     [0, 0, 0, 0]),
}


def shown(at, kind: str) -> list[str]:
    return [e.value for e in getattr(at, kind)]


def no_traceback_nor_raw_error(at, page: str) -> None:
    assert not at.exception, (page, [e.value for e in at.exception])
    for error in shown(at, "error"):  # only the app's own refusals, which say what to do
        assert not any(raw in error for raw in ("zero-size array", "out of bounds",
                                                "index", "X is empty", "n_components must")), (
            page, error)


@pytest.mark.parametrize("points", REFUSED.values(), ids=REFUSED.keys())
@pytest.mark.parametrize("page", PAGES)
def test_a_drawing_too_small_for_kernel_pca_is_refused_on_every_page(page, points):
    at = open_app(page, {"dataset": "drawn", "points": points})
    no_traceback_nor_raw_error(at, page)
    if page == "draw":  # the editor shows them, and says what kernel PCA needs
        assert any(i.startswith("So far ") and "kernel PCA needs" in i
                   for i in shown(at, "info"))
    elif page not in OWN_DATA:
        assert any(i.startswith("Too few points for this page: ") for i in shown(at, "info"))
        assert not at.get("plotly_chart"), page


@pytest.mark.slow
@pytest.mark.parametrize("points", DEGENERATE.values(), ids=DEGENERATE.keys())
@pytest.mark.parametrize("page", PAGES)
def test_a_degenerate_drawing_computes_or_says_why_on_every_page(page, points):
    at = open_app(page, {"dataset": "drawn", "points": points})
    no_traceback_nor_raw_error(at, page)


@pytest.mark.parametrize("points", REFUSED.values(), ids=REFUSED.keys())
def test_the_refusal_of_a_drawing_is_said_in_the_readers_language(points):
    english = " ".join(shown(open_app("explorer", {"dataset": "drawn", "points": points}),
                             "info"))
    chinese = " ".join(shown(open_app("explorer", {"dataset": "drawn", "points": points,
                                                  "lang": "zh-CN"}), "info"))
    if "same place" in english:
        assert "Too few points for this page: all 300 points drawn are at the same place" \
            in english
        assert "数据点太少，无法用于本页面：所画的 300 个点全在同一位置" in chinese
    else:
        assert "Too few points for this page: 2 points drawn: kernel PCA needs at least 3." \
            in english
        assert "数据点太少，无法用于本页面：只画了 2 个点：核 PCA 至少需要 3 个点。" in chinese
    assert "points drawn" not in chinese and "kernel PCA needs" not in chinese
