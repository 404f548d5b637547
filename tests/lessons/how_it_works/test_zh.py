"""How kernel PCA works in zh-CN and in the en-XA pseudo-locale (AppTest): under en-XA no
English word is left unwrapped (the checks, the tables' headers, the charts); under zh-CN
every sentence states the English page's numbers, at the defaults and off them (γ at both
ends of its range, the sigmoid's negative eigenvalues, a dataset above the checks' sample
size)."""

from __future__ import annotations

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
    "moons, sigmoid": {"dataset": "moons", "n": "80", "kernel": "sigmoid", "gamma": "0.5",
                       "coef0": "-1"},
    "iris, RBF γ = 1e4": {"dataset": "iris", "kernel": "rbf", "gamma": "1e4"},
    "circles, Laplacian γ = 1e-6": {"dataset": "circles", "n": "60", "kernel": "laplacian",
                                    "gamma": "1e-6"},
}
# Names and code, not English: methods, libraries, functions and attributes of kpca_core
# and scikit-learn, the solver's name, units.
NAMES = {"PCA", "KPCA", "CSV", "RBF", "scikit", "learn", "kpca_core", "eigenvalues_", "trace",
         "KernelPCA", "fit_transform", "transform", "compute_kernel", "center_kernel",
         "center_kernel_textbook", "eigendecompose", "scale_eigenvectors",
         "center_test_kernel", "project_new_points", "dense", "arpack", "ms", "Krylov",
         "Lanczos", "Sigmoid", "Sch", "lkopf", "et", "al", "mean", "px", "size", "font", "span",
         "style"}


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_the_pseudo_locale_leaves_no_english_unwrapped(query):
    at = open_app("how_it_works", {**query, "lang": "en-XA"})
    assert_clean(at)
    texts = all_texts(at)
    assert len(texts) > 60
    assert unwrapped(texts, NAMES | link_data_words(query)) == []


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_zh_cn_states_the_english_numbers(query):
    english = open_app("how_it_works", query)
    chinese = open_app("how_it_works", {**query, "lang": "zh-CN"})
    assert_clean(chinese)
    same_numbers(english, chinese)
    assert stray_spaces(chinese) == []
    # The tables: the same numbers under translated headers.
    for en_table, zh_table in zip(english.dataframe, chinese.dataframe, strict=True):
        assert en_table.value.to_numpy().tolist() == zh_table.value.to_numpy().tolist()
    en_cost, zh_cost = english.table[0].value, chinese.table[0].value
    assert en_cost.shape == zh_cost.shape
    assert list(zh_cost.columns) == ["步骤", "代价", "此 n、d、k 下的运算次数", "实测（ms）"]
    assert zh_cost.iloc[:, 2].tolist() == en_cost.iloc[:, 2].tolist()  # the operation counts
