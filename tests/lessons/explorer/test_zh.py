"""The Explorer in zh-CN and in the en-XA pseudo-locale (AppTest), every step-by-step tab
open in turn: under en-XA no English word is left unwrapped; under zh-CN every sentence
states the English page's numbers, at the defaults and at settings off them (γ at both
ends of its range, the sigmoid's negative eigenvalues, another dataset)."""

from __future__ import annotations

import re

import pytest

import datasets
from lessons.explorer.steps import SECTION_KEY, SECTIONS
from tests.support.apptest import assert_clean, open_app
from tests.support.page_language import (
    all_texts,
    link_data_words,
    same_numbers,
    stray_spaces,
    unspaced,
    unwrapped,
)
from words.i18n import _, use_language

CASES = {
    "defaults": {},
    "iris, RBF γ = 1e4": {"dataset": "iris", "kernel": "rbf", "gamma": "1e4"},
    "moons, sigmoid": {"dataset": "moons", "n": "80", "kernel": "sigmoid", "gamma": "0.5",
                       "coef0": "-1"},
    "circles, Laplacian γ = 1e-6": {"dataset": "circles", "n": "60", "kernel": "laplacian",
                                    "gamma": "1e-6"},
}
# Names, not English: methods, libraries, symbols, the data's own class and feature names.
NAMES = {"PCA", "KPCA", "CSV", "PNG", "RBF", "scikit", "learn", "kpca_core", "eigenvalues_",
         "trace", "Sigmoid", "median", "px", "size", "font", "span", "style"}



def explorer_texts(query: dict, language: str, *, motion: bool = False):
    """The Explorer at ``query`` in ``language``, each tab opened in turn (and γ in motion
    switched on, if asked): the app and every text it showed."""
    at = open_app("explorer", {**query, "lang": language})
    assert_clean(at)
    if motion:
        at.toggle(key="explorer_motion_on").set_value(True).run()
        assert_clean(at)
    texts = all_texts(at)
    for number in range(2, len(SECTIONS) + 1):
        with use_language(language):
            at.session_state[SECTION_KEY] = _(SECTIONS[number - 1])
        at.run()
        assert_clean(at)
        texts += all_texts(at)
    return at, texts


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_the_pseudo_locale_leaves_no_english_unwrapped(query):
    motion = query.get("kernel") == "laplacian"  # γ in motion too, on 60 points
    _at, texts = explorer_texts(query, "en-XA", motion=motion)
    assert len(texts) > 40
    assert unwrapped(texts, NAMES | link_data_words(query)) == []


@pytest.mark.parametrize("query", CASES.values(), ids=CASES.keys())
def test_zh_cn_states_the_english_numbers(query):
    english = open_app("explorer", query)
    chinese = open_app("explorer", {**query, "lang": "zh-CN"})
    assert_clean(chinese)
    same_numbers(english, chinese)
    assert stray_spaces(chinese) == []
    assert unspaced(chinese) == []  # "核函数是RBF（高斯）核" (issue 48)
    for number in range(2, len(SECTIONS) + 1):
        english.session_state[SECTION_KEY] = SECTIONS[number - 1]
        with use_language("zh-CN"):
            chinese.session_state[SECTION_KEY] = _(SECTIONS[number - 1])
        english.run()
        chinese.run()
        assert_clean(chinese)
        same_numbers(english, chinese)
        assert stray_spaces(chinese) == []
        assert unspaced(chinese) == []


def test_the_open_tab_survives_a_switch_of_language():
    at = open_app("explorer", {"section": "3"})
    at.session_state[SECTION_KEY] = SECTIONS[1]  # a click on "2 · K and K̃"
    at.query_params["section"] = "2"  # as the tab's on_change writes it
    at.run()
    at.selectbox(key="language_choice").set_value("zh-CN").run()
    assert_clean(at)
    with use_language("zh-CN"):
        assert at.session_state[SECTION_KEY] == _(SECTIONS[1]) == "2 · K 与 K̃"
    assert any(title.startswith("核矩阵 K") for kind, title in all_texts(at)
               if kind == "chart.title")


def test_a_bad_section_in_a_link_is_refused_in_the_sessions_language():
    from lessons.explorer.steps import parse_section
    with use_language("zh-CN"):
        number, problem = parse_section("9")
        assert number == 1 and "9" in problem and "4" in problem
        assert not re.search(r"[A-Za-z]{3,}", problem.replace("section", "")), problem
        number, problem = parse_section("a")
        assert number == 1 and "`section=`“a”" in problem and "is not" not in problem


def test_an_uploads_and_a_drawings_descriptions_are_said_in_the_sessions_language():
    from datasets import drawn
    from lessons.explorer.view import description_text
    from tests.support.page_language import numbers

    upload = datasets.load_csv(b"a;b;kind\n1;2;x\n3;4;y\n;5;x\n6;7;y\n", label_column="kind",
                               drop_nonfinite=True)
    X, y = drawn.snap([[0.1, 0.2, 0], [0.3, 0.4, 2]])
    drawing = drawn.drawn_dataset(X, y)
    for data in (upload, drawing):
        english = description_text(data)
        assert english == data.description
        with use_language("zh-CN"):
            chinese = description_text(data)
        assert re.search(r"[\u4e00-\u9fff]", chinese) and "。 " not in chinese
        assert not re.search(r"\b(?:rows|columns|drawn|points|class)\b", chinese), chinese
        assert numbers(chinese) == numbers(english), (english, chinese)
    assert "'kind'" in description_text(upload) and "1 rows with missing" in upload.description
