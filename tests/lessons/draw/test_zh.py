"""The Draw page in the en-XA pseudo-locale and in zh-CN (issue 37): every visible text
wrapped (the editor's words too, which its JavaScript gets from Python), the Chinese page's
numbers the English page's."""

from __future__ import annotations

import re

import numpy as np
import pytest

from datasets import drawn
from datasets._types import english as english_of
from lessons.draw import editor
from lessons.draw.view import not_yet
from tests.lessons.draw.test_page import LINK
from tests.shell.test_language import ZH
from tests.support.apptest import assert_clean, open_app
from tests.support.page_language import numbers, same_numbers, sentences, unwrapped, words
from words import i18n

SETTINGS = {
    # The page as a student first opens it: the default drawing.
    "defaults": {"dataset": "drawn"},
    # A drawing from a link: three classes, the RBF kernel at γ = 2.
    "link": LINK,
    # The same drawing, locked by the link, with the sigmoid at γ's top end.
    "locked-sigmoid": {**LINK, "kernel": "sigmoid", "gamma": 10000, "lock": "dataset"},
}


def _with_numbers(at) -> int:
    """How many of the page's sentences (metrics, titles) state a number."""
    return sum(bool(numbers(text)) for _, text in sentences(at))


def _words(values) -> list[str]:
    return [w for v in values for w in (v if isinstance(v, list) else [v])]


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_pseudo_locale_leaves_nothing_unwrapped(name):
    at = open_app("draw", {**SETTINGS[name], "lang": "en-XA"})
    assert_clean(at)
    assert unwrapped(at, words(*drawn.CLASS_NAMES)) == []


def test_the_editors_words_come_from_python_in_the_sessions_language():
    english = editor.words()
    assert english["buttons"] == ["Class A", "Class B", "Class C"]
    assert english["names"] == list(drawn.CLASS_NAMES)  # "60 in class A", as before
    assert english["erase"] == "Erase"  # the browser test finds the button by it
    with i18n.use_language("en-XA"):
        pseudo = editor.words()
    # The counts' separator is the language's list punctuation, not a message.
    assert english["separator"] == pseudo.pop("separator") == ", "
    assert all(w.startswith("[") and w.endswith("]") for w in _words(pseudo.values()))
    with i18n.use_language("zh-CN"):
        chinese = editor.words()
    assert chinese["separator"] == "、"
    for key, text in english.items():
        if key not in ("buttons", "names", "separator"):
            assert chinese[key] == ZH[text]
            # The JavaScript fills these placeholders: each translation keeps them.
            assert sorted(set(placeholders(chinese[key]))) == sorted(set(placeholders(text)))


def placeholders(template: str) -> list[str]:
    return re.findall(r"\{(\w+)\}", template)


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_chinese_page_shows_the_english_numbers(name):
    english = open_app("draw", SETTINGS[name])
    chinese = open_app("draw", {**SETTINGS[name], "lang": "zh-CN"})
    assert_clean(chinese)
    assert chinese.title[0].value == ZH["Draw your own data"]
    same_numbers(english, chinese)
    assert _with_numbers(english) >= 2


def test_too_few_points_are_said_with_the_same_numbers():
    for X in (np.zeros((0, 2)), np.zeros((1, 2)), np.ones((6, 2))):
        english = not_yet(X)
        assert english == (f"So far {english_of((drawn.analysis_problem(X),))}. Click the "
                           "plane to add some, or start from a shape above.")
        with i18n.use_language("zh-CN"):
            chinese = not_yet(X)
        assert chinese.startswith("目前")
        # "two different points" is written 两个 in Chinese: the counts are the same.
        assert set(numbers(chinese)) <= set(numbers(english)) and numbers(chinese)
