"""The Scale page in the en-XA pseudo-locale and in zh-CN (issue 37): every visible text
wrapped, the Chinese page's numbers the English page's, the worker's process free of Babel."""

from __future__ import annotations

import re
import subprocess
import sys

import pytest

from server.worker import WORKER_WHAT
from tests.shell.test_language import ZH
from tests.support.apptest import ROOT, assert_clean, open_app
from tests.support.page_language import (
    english_left,
    numbers,
    same_numbers,
    sentences,
    stray_spaces,
    unspaced,
    unwrapped,
)

SMALL = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}
SETTINGS = {
    "defaults": {},
    # No random Fourier features: the info and the button to switch kernel.
    "laplacian": {**SMALL, "kernel": "laplacian", "gamma": 1},
    # Indefinite: m = n is not exact, said in a caption; γ at its top end.
    "sigmoid": {**SMALL, "kernel": "sigmoid", "gamma": 10000, "coef0": -1},
}
CJK = re.compile(r"[\u4e00-\u9fff]")
# Names, not words (the same in every language).
NAMES = {"Nyström"}
# The markdown that says "53 million" cells as 5300 万 (a number written the Chinese way).
EXPLORER_AT_LARGE_N = "What the Explorer does at large n"


def _measure(at, low: int = 100, high: int = 400):
    slider = next(s for s in at.select_slider if s.key.startswith("scale_range_"))
    slider.set_value((low, high))
    next(b for b in at.button if b.proto.is_form_submitter).click()
    return at.run()


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_pseudo_locale_leaves_nothing_unwrapped(name):
    at = open_app("scale", {**SETTINGS[name], "lang": "en-XA"})
    assert_clean(at)
    assert unwrapped(at, NAMES) == []


def test_the_pseudo_locale_wraps_the_measurement_too():
    at = _measure(open_app("scale", {**SMALL, "lang": "en-XA"}))
    assert_clean(at)
    assert unwrapped(at, NAMES) == []
    headers = list(at.dataframe[0].value.columns)
    assert all(h.startswith("[") for h in headers), headers


@pytest.mark.parametrize("name", list(SETTINGS))
def test_the_chinese_page_shows_the_english_numbers(name):
    english = open_app("scale", SETTINGS[name])
    chinese = open_app("scale", {**SETTINGS[name], "lang": "zh-CN"})
    assert_clean(chinese)
    assert chinese.title[0].value == ZH["Scale"]

    same_numbers(english, chinese,
                 skip=lambda text: EXPLORER_AT_LARGE_N in text or "5300 万" in text)
    assert sum(bool(numbers(text)) for _, text in sentences(english)) > 5
    assert stray_spaces(chinese) == []
    assert unspaced(chinese) == []  # "核矩阵 K需要 3.2 GB" (issue 48)


def test_the_chinese_measurement_has_chinese_headers_and_the_same_sizes():
    at = _measure(open_app("scale", {**SMALL, "lang": "zh-CN"}))
    assert_clean(at)
    table = at.dataframe[0].value
    assert list(table.columns) == [ZH[c] for c in ("step", "fitted slope", "theory", "cost")]
    assert table[ZH["step"]].tolist()[0] == ZH["build K"]
    caption = next(c.value for c in at.caption if c.value.startswith("在 n = "))
    assert numbers(caption)[:1] and "400" in numbers(caption)


def test_the_workers_words_are_the_catalogs_and_its_process_needs_no_babel():
    assert ZH[WORKER_WHAT]
    # What the worker process imports to time the steps (python -m server.worker unpickles
    # functions of these modules): no Babel (words.i18n imports it only to translate).
    code = ("import sys, server.worker, lessons.scale.experiment, lessons.scale.approximations;"
            "print(sorted(m for m in sys.modules if m.startswith('babel')))")
    out = subprocess.run([sys.executable, "-c", code], cwd=ROOT, capture_output=True,
                         text=True, check=True)
    assert out.stdout.strip() == "[]"


def _pack(language: str):
    """The offline lecture's Scale step (its slider note and frame) built in ``language``."""
    from classroom.tour import STEPS
    from lecture_pack.build import build_lesson_step
    from lecture_pack.pages import PAGES
    from words.i18n import use_language

    number, step = next((i, s) for i, s in enumerate(STEPS, start=1)
                        if s.page == "app_pages/scale.py" and not s.part)
    with use_language(language):
        return build_lesson_step(number, step, PAGES[step.lesson].pack)


def test_the_offline_packs_scale_step_speaks_the_language_with_the_english_numbers():
    english, chinese, pseudo = _pack("en"), _pack("zh-CN"), _pack("en-XA")
    assert english["slider_note"].startswith("No slider: K holds n² numbers")
    assert chinese["slider_note"] == ZH[english["slider_note"]]
    assert pseudo["slider_note"].startswith("[")
    (en,), (zh,), (xa,) = english["frames"], chinese["frames"], pseudo["frames"]
    assert zh["numbers"] == en["numbers"]
    assert "K holds n² numbers of 8 bytes: at this step's n = " in en["sentences"][0]
    for en_text, zh_text, xa_text in zip(en["sentences"], zh["sentences"], xa["sentences"],
                                         strict=True):
        assert CJK.search(zh_text), zh_text
        assert numbers(zh_text) == numbers(en_text), (en_text, zh_text)
        # Units and names are not words: the memory chart's caption names them.
        assert english_left(xa_text, {"MB", "KB", "ARPACK", "tracemalloc", "kpca_core",
                                      "KernelPCA", "Python"}) == [], xa_text
