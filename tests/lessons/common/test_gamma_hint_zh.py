"""The γ hint is cached for every session (the shared disk cache too): it holds numbers,
and its words are written when it is read, in the reader's language."""

from __future__ import annotations

import pickle

import datasets
from experiments.gamma_guidance import guide
from lessons.common.gamma_hint import no_hint_text
from shell.state import format_gamma
from tests.support.page_language import numbers
from words.i18n import use_language


def _verdict(gamma: float):
    data = datasets.load("circles", n=120)
    return guide(data.X, data.y, kernel="rbf", kernel_params={"gamma": gamma})


def test_a_cached_hint_holds_no_words_and_speaks_the_readers_language():
    verdict = _verdict(1e4)
    hint = verdict.hint
    assert hint is not None and hint.kind == "too_large"
    stored = pickle.dumps(verdict)
    for words in (hint.title, hint.why, hint.button, "too large", "Why"):
        assert words.encode() not in stored  # the cache's bytes hold no sentence
    english = hint.text
    assert english.startswith(f"**γ = {format_gamma(1e4)} is too large for these data.**")
    with use_language("zh-CN"):
        chinese, button = hint.text, hint.button
    assert "对这些数据来说太大了" in chinese and "原因：" in chinese
    assert button.startswith("使用 γ = ")
    assert numbers(chinese) == numbers(english)
    assert hint.text == english  # back in English: nothing kept from the other language


def test_the_no_hint_line_states_the_same_numbers_in_chinese():
    verdict = _verdict(5.0)
    assert verdict.hint is None and verdict.from_labels
    english = no_hint_text(verdict, 0.9)
    with use_language("zh-CN"):
        chinese = no_hint_text(verdict, 0.9)
    assert english.startswith("γ check: ") and chinese.startswith("γ 检查：")
    assert numbers(chinese) == numbers(english)
