"""Common mistakes in another language (AppTest, issue 37): under ``en-XA`` nothing English is
left unbracketed (the mistakes' titles, descriptions, sources, damage lines, checks,
captions, the lucky-γ card, the charts' words); in zh-CN every sentence holds the English
page's numbers, at the defaults and off them (the sigmoid kernel; γ at the top of its range
on the moons; the polynomial kernel of degree 1, where centring the inputs is harmless for
its own reason)."""

from __future__ import annotations

import numpy as np
import pytest

from lessons.mistakes.experiment import MISTAKES, Damage, Picture
from lessons.mistakes.sections import damage_words
from shell.i18n import use_language
from tests.support.page_language import open_in, same_numbers, unwrapped

PAGE = "mistakes"
SETTINGS = {
    "defaults": {},
    "sigmoid": {"kernel": "sigmoid"},
    "moons at the largest γ": {"dataset": "moons", "kernel": "rbf", "gamma": 1e4},
    "polynomial of degree 1": {"kernel": "poly", "degree": 1},
}


@pytest.mark.parametrize("query", list(SETTINGS.values())[:3], ids=list(SETTINGS)[:3])
def test_the_pseudo_locale_leaves_nothing_unwrapped(query):
    at = open_in(PAGE, query, "en-XA")
    assert len(at.main.get("subheader")) == len(MISTAKES) + 1  # every card, the lucky γ's too
    assert unwrapped(at) == []


@pytest.mark.parametrize("query", SETTINGS.values(), ids=SETTINGS.keys())
def test_chinese_sentences_hold_the_english_numbers(query):
    english, chinese = open_in(PAGE, query, "en"), open_in(PAGE, query, "zh-CN")
    same_numbers(english, chinese)
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
    assert damage_words(damage) == ("Damage", " · largest difference of the coordinates, "
                                    "relative to their size: **0.5**")
    with use_language("zh-CN"):
        assert picture.shown_title() == "投影 75 个留出点（模型在其余 225 个点上拟合）"
        assert damage_words(damage) == ("有损害", " · 坐标的最大差异，相对其大小：**0.5**")
