"""Choosing γ in another language (AppTest, issue 37): under ``en-XA`` nothing English is left
unbracketed (headers, sentences, verdicts, checks, the charts' titles, axes, subplot titles
and hovers); in zh-CN every sentence and chart title holds the English page's numbers. At the
defaults and off them: iris with the sigmoid kernel at γ = 0.3, c₀ = 0 (panels without a
share of variance, an indefinite kernel, the share problems' sentences), and the polynomial
kernel with c₀ = 0 (γ only rescales K: the rescaling note, its check, the degree and c₀
sweeps)."""

from __future__ import annotations

import re

import pytest

from tests.support.page_language import data_words, open_in, same_numbers, unwrapped

SETTINGS = {
    "defaults": {},
    "iris, sigmoid, γ = 0.3, c₀ = 0": {"dataset": "iris", "kernel": "sigmoid", "gamma": 0.3,
                                       "coef0": 0},
    "circles, polynomial d = 3, c₀ = 0": {"dataset": "circles", "n": 120, "kernel": "poly",
                                          "gamma": 2, "degree": 3, "coef0": 0},
}
# Quick pages of their own: γ at the top of its range with the Laplacian kernel, data with
# no labels (no scores, no alignment), and a kernel without γ (the offer of RBF).
MORE = {
    "moons, Laplacian, γ = 1e4": {"dataset": "moons", "n": 80, "kernel": "laplacian",
                                  "gamma": 1e4},
    "parabola (no labels)": {"dataset": "parabola", "n": 80, "kernel": "rbf", "gamma": 1},
    "moons, linear kernel": {"dataset": "moons", "n": 60, "kernel": "linear"},
}

@pytest.mark.parametrize("query", [*SETTINGS.values(), *MORE.values()],
                         ids=[*SETTINGS.keys(), *MORE.keys()])
def test_nothing_unwrapped_and_the_chinese_numbers_are_the_english(query):
    pseudo = open_in("choosing_gamma", query, "en-XA")
    # The data's own names (iris's species) are shown as they are.
    assert unwrapped(pseudo, data_words(query.get("dataset", "circles"))) == []
    english, chinese = (open_in("choosing_gamma", query, language)
                        for language in ("en", "zh-CN"))
    same_numbers(english, chinese)
    assert chinese.title[0].value == "选择 γ"


def test_the_sigmoids_verdicts_are_chinese_sentences():
    """The sentences computed for the sigmoid's odd sweep are the catalog's Chinese ones,
    side by side without a space after a full stop."""
    at = open_in("choosing_gamma", SETTINGS["iris, sigmoid, γ = 0.3, c₀ = 0"], "zh-CN")
    texts = [m.value for m in [*at.markdown, *at.caption] if not m.value.startswith("<style")]
    text = "\n".join(texts)
    assert "标有“trace(K̃) < 0”或“≈ 0”的面板没有方差占比：在 γ = 0.03、" in text
    assert "在最小的 γ = 0.0001 处（那里 γ |xᵀy| 的典型值为 " in text
    assert "在最大的 γ = 30 处：" in text
    assert "差不多：在这份数据上核函数没有胜过线性 PCA。在你的 γ = 0.3 处：" in text
    assert not [t for t in texts if "。 " in t]


def test_the_offline_lectures_step_says_the_pages_sentences_in_chinese():
    """The lesson's pack (its slider's words, each frame's sentences) in the language it is
    built in, with the English frames' numbers."""
    from classroom.tour import STEPS
    from lecture_pack.build import build_lesson_step
    from lecture_pack.pages import PAGES
    from words.i18n import use_language

    number = next(i for i, step in enumerate(STEPS, start=1)
                  if step.page == "app_pages/choosing_gamma.py" and not step.part)
    step = STEPS[number - 1]
    built = {}
    for code in ("en", "zh-CN"):
        with use_language(code):
            built[code] = build_lesson_step(number, step, PAGES[step.lesson].pack,
                                            max_frames=3)
    english, chinese = built["en"], built["zh-CN"]
    assert english["values"] == chinese["values"]
    assert chinese["slider_note"].startswith("滑块就是你的 γ")
    for en, zh in zip(english["frames"], chinese["frames"], strict=True):
        assert len(zh["sentences"]) == len(en["sentences"])
        for en_text, zh_text in zip(en["sentences"], zh["sentences"], strict=True):
            assert re.search(r"[\u4e00-\u9fff]", zh_text), zh_text
            assert sorted(re.findall(r"\d+(?:[.,]\d+)*", zh_text)) == sorted(
                re.findall(r"\d+(?:[.,]\d+)*", en_text)), (en_text, zh_text)
