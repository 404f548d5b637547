"""The kernel trick, made explicit, in zh-CN and in the en-XA pseudo-locale (AppTest): under
en-XA no English word is left unwrapped; under zh-CN every sentence states the English
page's numbers, at the defaults and off them (γ at both ends of its range, a negative c₀
that the explicit map cannot take, a dataset with four features and three classes)."""

from __future__ import annotations

import re

import pytest

from tests.support.apptest import assert_clean, open_app
from tests.support.page_language import (
    all_texts,
    link_data_words,
    same_numbers,
    stray_spaces,
    unwrapped,
)

CASES = {
    "defaults": {},
    "moons, sigmoid c₀ < 0, γ = 1e4": {"dataset": "moons", "n": "80", "kernel": "sigmoid",
                                         "gamma": "1e4", "coef0": "-1"},
    "iris, RBF γ = 1e-6": {"dataset": "iris", "kernel": "rbf", "gamma": "1e-6"},
    "circles, polynomial degree 2": {"dataset": "circles", "n": "60", "kernel": "poly",
                                     "gamma": "1", "degree": "2", "coef0": "1"},
}
# Names and code, not English: methods, libraries, monomials' names (x1·x2), units.
NAMES = {"PCA", "KPCA", "CSV", "RBF", "scikit", "learn", "const", "exp", "px", "size", "font",
         "span", "style"}


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_the_pseudo_locale_leaves_no_english_unwrapped(query):
    at = open_app("kernel_trick", {**query, "lang": "en-XA"})
    assert_clean(at)
    texts = all_texts(at)
    assert len(texts) > 25
    # The monomials' names in the φ table's header (x1·x2, x1^2): symbols, not words.
    texts = [(kind, text) for kind, text in texts
             if not (kind == "dataframe.header" and re.fullmatch(r"[x\d·^1 ]+", text))]
    assert unwrapped(texts, NAMES | link_data_words(query)) == []


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_zh_cn_states_the_english_numbers(query):
    english = open_app("kernel_trick", query)
    chinese = open_app("kernel_trick", {**query, "lang": "zh-CN"})
    assert_clean(chinese)
    same_numbers(english, chinese)
    assert stray_spaces(chinese) == []
