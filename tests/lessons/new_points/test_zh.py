"""The new-points page in the en-XA pseudo-locale and in zh-CN (issue 37): every visible text
wrapped, the Chinese page's numbers the English page's; kpca_core's indefinite-kernel
warning said from the fit's numbers, word for word in English."""

from __future__ import annotations

import pytest

import datasets
from lessons.new_points.experiment import fit_new_points
from lessons.new_points.view import indefinite_warning
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
from words import i18n

SETTINGS = {
    "defaults": {},
    # γ at its top end: the centring constant is most of y1; standardised inputs.
    "huge-gamma": {"dataset": "circles", "kernel": "rbf", "gamma": 10000, "std": 1},
    # Another dataset and kernel: moons with a cubic polynomial, the second component.
    "moons-poly": {"dataset": "moons", "kernel": "poly", "gamma": 1, "degree": 3, "coef0": 1},
}
USPS = {"dataset": "usps", "n": 300, "kernel": "rbf", "gamma": 0.004}
CASES = [*SETTINGS.values(), pytest.param(USPS, marks=needs_usps)]
IDS = [*SETTINGS, "usps"]


def _with_numbers(at) -> int:
    """How many of the page's sentences (metrics, titles) state a number."""
    return sum(bool(numbers(text)) for _, text in sentences(at))


@pytest.mark.parametrize("query", CASES, ids=IDS)
def test_the_pseudo_locale_leaves_nothing_unwrapped(query):
    at = open_app("new_points", {**query, "lang": "en-XA"})
    assert_clean(at)
    names = data_words(query.get("dataset", "circles"), **({"n": 20} if "usps" in str(query)
                                                           else {}))
    assert unwrapped(at, names) == []
    columns = list(at.dataframe[0].value.columns)
    assert columns[0].startswith("[") and columns[1].startswith("[")


@pytest.mark.parametrize("query", CASES, ids=IDS)
def test_the_chinese_page_shows_the_english_numbers(query):
    english = open_app("new_points", query)
    chinese = open_app("new_points", {**query, "lang": "zh-CN"})
    assert_clean(chinese)
    assert chinese.title[0].value == ZH["Projecting new points"]
    same_numbers(english, chinese)
    assert _with_numbers(english) >= 4
    assert stray_spaces(chinese) == []


def test_the_second_component_in_chinese_has_the_english_numbers():
    english = open_app("new_points", SETTINGS["moons-poly"])
    chinese = open_app("new_points", {**SETTINGS["moons-poly"], "lang": "zh-CN"})
    for at in (english, chinese):
        at.segmented_control(key="np_component").set_value(2).run()
        assert_clean(at)
    same_numbers(english, chinese)
    assert any("y2(x)" in m.value for m in chinese.markdown)


def test_the_indefinite_kernel_warning_is_kpca_cores_in_english_and_its_numbers_in_chinese():
    data = datasets.load("moons", n=120)
    fit = fit_new_points(data.X, kernel="sigmoid", kernel_params={"gamma": 2.0, "coef0": -1.0},
                         n_components=119)
    assert fit.warning is not None
    assert indefinite_warning(fit.model) == fit.warning
    with i18n.use_language("zh-CN"):
        chinese = indefinite_warning(fit.model)
    assert chinese.startswith("在计算出的 119 个特征值中，中心化核矩阵有 ")
    assert numbers(chinese) == numbers(fit.warning)


