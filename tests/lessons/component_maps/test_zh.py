"""Component maps in another language (AppTest, issue 37): under ``en-XA`` nothing English is
left unbracketed (texts, labels, the table's columns, the charts' words); in zh-CN the
sentences hold the English page's numbers, at the defaults and off them (γ at the top of
its range on Fig. 4's data, where the summary says which of the paper's claims fail; the
polynomial kernel, which draws Fig. 3's grid)."""

from __future__ import annotations

import pytest

from tests.support.page_language import chart_texts, data_words, open_in, same_numbers, unwrapped

PAGE = "component_maps"
SETTINGS = {
    "defaults": {},
    "fig4 at the largest γ": {"dataset": "scholkopf_toy", "kernel": "rbf", "gamma": 1e4},
    "fig3's polynomial grid": {"dataset": "parabola", "kernel": "poly", "gamma": 1,
                               "coef0": 0, "degree": 2},
}


@pytest.mark.parametrize("query", SETTINGS.values(), ids=SETTINGS.keys())
def test_the_pseudo_locale_leaves_nothing_unwrapped(query):
    at = open_in(PAGE, query, "en-XA")
    assert len(list(chart_texts(at))) > 3  # the charts' words are among the texts checked
    # The data's class names are the data's (a legend's entries), not the app's words.
    assert unwrapped(at, data_words(query.get("dataset", "circles"))) == []


@pytest.mark.parametrize("query", SETTINGS.values(), ids=SETTINGS.keys())
def test_chinese_sentences_hold_the_english_numbers(query, shared_page):
    english, chinese = (open_in(PAGE, query, language, open_page=shared_page)
                        for language in ("en", "zh-CN"))
    same_numbers(english, chinese)
    captions = " ".join(c.value for c in chinese.caption)
    assert "成分" in captions and "Component" not in captions


def test_the_summary_is_chinese_with_the_paper_claims_that_fail(shared_page):
    """Fig. 4's data at γ = 10⁴: the English says which claim fails; so does the Chinese,
    with the same components named."""
    query = SETTINGS["fig4 at the largest γ"]
    english, chinese = (open_in(PAGE, query, language, open_page=shared_page)
                        for language in ("en", "zh-CN"))
    en = next(c.value for c in english.caption if "Fig. 4" in c.value)
    zh = next(c.value for c in chinese.caption if "图 4" in c.value)
    assert "Unlike Fig. 4" in en and "与图 4 不同" in zh
    assert "components 3–8 cut no cluster in two" in en and "主成分 3–8 没有把任何簇一分为二" in zh
