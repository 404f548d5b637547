"""The one-eigenproblem page in the en-XA pseudo-locale and in zh-CN (issue 37): every
visible text wrapped, the Chinese page's numbers the English page's, for each method."""

from __future__ import annotations

import pytest

from tests.shell.test_language import ZH
from tests.support.apptest import assert_clean, open_app
from tests.support.page_language import (
    data_words,
    numbers,
    same_numbers,
    sentences,
    stray_spaces,
    unspaced,
    unwrapped,
)

SETTINGS = {
    "defaults": {},
    # Isomap on the rolled sheet with few neighbours: pieces and short-circuits, γ unused.
    "isomap": {"dataset": "swiss_roll", "method": "isomap", "neighbours": 4},
    # Laplacian eigenmaps: L⁺'s row sums checked, the library's normalised embedding.
    "laplacian": {"dataset": "circles", "method": "laplacian", "neighbours": 3},
    # Spectral clustering on moons: three clustering panels, edges between classes.
    "spectral": {"dataset": "moons", "method": "spectral", "neighbours": 10},
    # Classical MDS on iris (four features: the graph is drawn on our components).
    "mds": {"dataset": "iris", "method": "mds", "kernel": "rbf", "gamma": 10000},
}
# Names, not words: scikit-learn's classes and functions, the methods' own names.
NAMES = {"Isomap", "spectral_embedding", "scikit", "learn"}


def _with_numbers(at) -> int:
    """How many of the page's sentences (metrics, titles) state a number."""
    return sum(bool(numbers(text)) for _, text in sentences(at))


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_pseudo_locale_leaves_nothing_unwrapped(name):
    query = SETTINGS[name]
    at = open_app("one_eigenproblem", {**query, "lang": "en-XA"})
    assert_clean(at)
    names = NAMES | data_words(query.get("dataset", "circles"))
    assert unwrapped(at, names) == []
    columns = list(at.dataframe[0].value.columns)
    assert all(c.startswith("[") for c in columns), columns


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_chinese_page_shows_the_english_numbers(name):
    english = open_app("one_eigenproblem", SETTINGS[name])
    chinese = open_app("one_eigenproblem", {**SETTINGS[name], "lang": "zh-CN"})
    assert_clean(chinese)
    assert chinese.title[0].value == ZH["One eigenproblem"]
    same_numbers(english, chinese)
    assert _with_numbers(english) >= 2
    assert stray_spaces(chinese) == []
    assert unspaced(chinese) == []  # "Isomap的 K", "K 是k 近邻图" (issue 48)


def test_a_bad_link_warns_in_chinese():
    at = open_app("one_eigenproblem", {"method": "tsne", "neighbours": 999, "lang": "zh-CN"})
    warnings = [w.value for w in at.warning]
    assert any(w.startswith("链接参数 `method` 应为 kpca, mds, isomap") for w in warnings)
    assert any(w.startswith("链接参数 `neighbours` 应为") for w in warnings)
