"""The novelty page in the en-XA pseudo-locale and in zh-CN (issue 37): every visible text
wrapped, the Chinese page's numbers the English page's, the cached check holding English
phrases that the page translates."""

from __future__ import annotations

import pytest

from datasets import drawn
from tests.shell.test_language import ZH
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.page_language import (
    data_words,
    numbers,
    same_numbers,
    sentences,
    stray_spaces,
    unwrapped,
)

SETTINGS = {
    "defaults": {},
    # An indefinite kernel: no explicit check, and why; the threshold at its top end.
    "sigmoid": {"dataset": "moons", "kernel": "sigmoid", "gamma": 0.5, "coef0": -1,
                "threshold": 100},
    # γ at its bottom end: eigenvalues of 1e-10, still told apart and checked; the threshold low.
    "tiny-gamma": {"dataset": "circles", "kernel": "rbf", "gamma": "1e-06", "threshold": 50},
    # Another dataset, one class normal (the others are the outliers).
    "iris-class": {"dataset": "iris", "kernel": "rbf", "gamma": 0.5, "normal": 1},
}
USPS = {"dataset": "usps", "n": 300, "kernel": "rbf", "gamma": 0.004}
CASES = [*SETTINGS.values(), pytest.param(USPS, marks=needs_usps)]
IDS = [*SETTINGS, "usps"]


def _with_numbers(at) -> int:
    """How many of the page's sentences (metrics, titles) state a number."""
    return sum(bool(numbers(text)) for _, text in sentences(at))


@pytest.mark.parametrize("query", CASES, ids=IDS)
def test_the_pseudo_locale_leaves_nothing_unwrapped(query):
    at = open_app("novelty", {**query, "lang": "en-XA"})
    assert_clean(at)
    options = {"n": 20} if query.get("dataset") == "usps" else {}
    assert unwrapped(at, data_words(query.get("dataset", "circles"), **options)) == []
    columns = list(at.dataframe[0].value.columns)
    assert columns[0].startswith("[") and columns[2].startswith("[")


@pytest.mark.parametrize("query", CASES, ids=IDS)
def test_the_chinese_page_shows_the_english_numbers(shared_page, query):
    english = shared_page("novelty", query)
    chinese = shared_page("novelty", {**query, "lang": "zh-CN"})
    assert_clean(chinese)
    assert chinese.title[0].value == ZH["Novelty detection"]
    same_numbers(english, chinese)
    assert _with_numbers(english) >= 4
    assert stray_spaces(chinese) == []


def test_why_there_is_no_check_is_said_in_chinese(shared_page):
    # The Laplacian kernel at γ = 1e4 on a drawing: K = I, μ₃ = μ₄, no single subspace.
    X, y = drawn.preset("moons", 120, seed=0)
    chinese = shared_page("novelty", {"dataset": "drawn", "points": drawn.encode(X, y),
                                   "kernel": "laplacian", "gamma": "10000", "lang": "zh-CN"})
    said = " ".join(c.value for c in chinese.caption) + " ".join(
        m.value for m in chinese.markdown)
    assert "这里没有与显式计算对照" in said and "不构成唯一的子空间" in said
    chinese = shared_page("novelty", {**SETTINGS["sigmoid"], "lang": "zh-CN"})
    said = " ".join(c.value for c in chinese.caption) + " ".join(
        m.value for m in chinese.markdown)
    assert ZH["this kernel has negative eigenvalues: no real feature map exists"] in said


def test_a_bad_link_warns_in_chinese():
    at = open_app("novelty", {"normal": 9, "threshold": 20, "lang": "zh-CN"})
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("链接参数 `threshold` 应为 50 到 100 之间的百分数") for w in warnings)
    assert any(w.startswith("链接参数 `normal` 应为 all") for w in warnings)
