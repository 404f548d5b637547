"""Common mistakes in another language (AppTest, issue 37): under ``en-XA`` nothing English is
left unbracketed (the mistakes' titles, descriptions, sources, damage lines, checks,
captions, the lucky-γ card, the charts' words); in zh-CN every sentence holds the English
page's numbers, at the defaults and off them (the sigmoid kernel; γ at the top of its range
on the moons; the polynomial kernel of degree 1, where centring the inputs is harmless for
its own reason)."""

from __future__ import annotations

import re

import numpy as np
import pytest

from lessons.mistakes.experiment import MISTAKES, Damage, Picture
from lessons.mistakes.sections import damage_line, uncoloured
from tests.support.page_language import data_words, open_in, same_numbers, unspaced, unwrapped
from words.i18n import use_language

PAGE = "mistakes"
CJK = re.compile(r"[\u4e00-\u9fff]")
SETTINGS = {
    "defaults": {},
    "sigmoid": {"kernel": "sigmoid"},
    "moons at the largest γ": {"dataset": "moons", "kernel": "rbf", "gamma": 1e4},
    "polynomial of degree 1": {"kernel": "poly", "degree": 1},
}


@pytest.mark.parametrize("query", list(SETTINGS.values())[:3], ids=list(SETTINGS)[:3])
def test_the_pseudo_locale_leaves_nothing_unwrapped(query, shared_page):
    at = open_in(PAGE, query, "en-XA", open_page=shared_page)
    assert len(at.main.get("subheader")) == len(MISTAKES) + 1  # every card, the lucky γ's too
    # The data's class names are the data's (a legend's entries), not the app's words.
    assert unwrapped(at, data_words(query.get("dataset", "circles"))) == []


@pytest.mark.parametrize("query", SETTINGS.values(), ids=SETTINGS.keys())
def test_chinese_sentences_hold_the_english_numbers(query, shared_page):
    english, chinese = (open_in(PAGE, query, language, open_page=shared_page)
                        for language in ("en", "zh-CN"))
    same_numbers(english, chinese)
    assert unspaced(chinese) == []  # "在C. de Souza" (issue 48)
    assert [s.value.split(" · ")[0] for s in chinese.main.get("subheader")] == [
        s.value.split(" · ")[0] for s in english.main.get("subheader")]


def test_the_cached_mistakes_hold_no_sentence_of_one_language():
    """A Mistake is cached for every session: its picture's title and its damage label are
    English messages, said in the language of the run that shows them."""
    picture = Picture("{n_test} held-out points projected (model fitted on the other "
                      "{n_train})", right=np.zeros((2, 2)),
                      wrong=np.zeros((2, 2)),
                      counts=(("n_test", 75), ("n_train", 225)))
    damage = Damage("largest difference of the coordinates, relative to their size", 0.5, 1e-9)
    assert picture.shown_title() == "75 held-out points projected (model fitted on the other 225)"
    assert damage_line(damage) == (":red[**Damage**] · largest difference of the coordinates, "
                                   "relative to their size: **0.5**")
    with use_language("zh-CN"):
        assert picture.shown_title() == "投影 75 个留出点（模型在其余 225 个点上拟合）"
        assert damage_line(damage) == ":red[**有损害**] · 坐标的最大差异，相对其大小：**0.5**"
        assert uncoloured(damage_line(damage)) == "**有损害** · 坐标的最大差异，相对其大小：**0.5**"


def _balanced(latex: str) -> bool:
    depth = 0
    for char in latex.replace(r"\{", "").replace(r"\}", ""):
        depth += {"{": 1, "}": -1}.get(char, 0)
        if depth < 0:
            return False
    return depth == 0


def test_the_formulas_words_are_said_in_the_language_and_the_formulas_kept(shared_page):
    english, chinese = (open_in(PAGE, {}, language, open_page=shared_page)
                        for language in ("en", "zh-CN"))
    pseudo = open_in(PAGE, {}, "en-XA", open_page=shared_page)
    shown = {code: [element.value.removeprefix("$$\n").removesuffix("\n$$")
                     for element in at.main.get("latex")]
             for code, at in (("en", english), ("zh-CN", chinese), ("en-XA", pseudo))}
    # The English page's formulas are the mistakes' own, unchanged.
    assert shown["en"] == [latex for m in MISTAKES for latex in (m.wrong_latex, m.right_latex)]
    words = [re.findall(r"\\text\{([^{}]*)\}", latex) for latex in shown["en"]]
    assert sum(map(len, words)) == 9  # (K not centred), wrong ×4, centred afterwards, …
    for en, zh, xa, en_words in zip(shown["en"], shown["zh-CN"], shown["en-XA"], words,
                                    strict=True):
        assert _balanced(zh) and _balanced(xa), zh
        zh_words = re.findall(r"\\text\{([^{}]*)\}", zh)
        assert len(zh_words) == len(en_words)
        # Every word is Chinese (names, symbols and the maths in $…$ aside: "K", "$\alpha =
        # v$"); nothing outside \text{} is.
        for word in zh_words:
            assert CJK.search(word), (en, zh)
            assert not re.search(r"[A-Za-z]{2,}", re.sub(r"\$[^$]*\$", "", word)), (en, zh)
        assert not CJK.search(re.sub(r"\\text\{[^{}]*\}", "", zh)), zh
        # The formula around the words is the English one.
        assert re.sub(r"\\text\{[^{}]*\}", "#", zh) == re.sub(r"\\text\{[^{}]*\}", "#", en)
        assert all(word.strip().startswith("[") for word in re.findall(
            r"\\text\{([^{}]*)\}", xa)), xa
    assert r"\quad\text{（K 未中心化）}" in shown["zh-CN"][0]
    assert any(r"\text{在特征空间中中心化： } \tilde K" in latex for latex in shown["zh-CN"])
