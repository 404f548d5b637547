"""De-noising in another language (AppTest, issue 37): under ``en-XA`` nothing English is left
unbracketed (labels, helps, options, sentences, the stored run's table, the charts' words);
in zh-CN every sentence holds the English page's numbers. At the small settings the other
tests use, at the defaults of the rest, and off them: speckle noise learned from noisy
digits with the measured width; the widest γ the page offers (1/8) with Kwok–Tsang and
many neighbours. Each setting computes USPS curves: slow."""

from __future__ import annotations

import pytest

from lessons.denoising import view
from tests.support.apptest import needs_usps
from tests.support.page_language import open_in, same_numbers, unspaced, unwrapped

pytestmark = [needs_usps, pytest.mark.slow]

SMALL = {view.K_N: 300, view.K_TEST: 2, view.K_M: 16, view.K_SEED: 0}
SETTINGS = {
    "defaults": {},
    "speckle, noisy fit, measured width": {view.K_NOISE: "speckle", view.K_NOISY_FIT: True,
                                           view.K_WIDTH: "variance"},
    "γ = 1/8, Kwok–Tsang, k = 50": {view.K_WIDTH: "other", view.K_GAMMA: 1 / 8,
                                    view.K_METHOD: "kwok_tsang", view.K_K: 50},
}


@pytest.mark.parametrize("state", SETTINGS.values(), ids=SETTINGS.keys())
def test_nothing_unwrapped_and_the_chinese_numbers_are_the_english(state):
    state = {**SMALL, **state}
    pseudo = open_in("denoising", {}, "en-XA", state)
    assert unwrapped(pseudo) == []
    english, chinese = (open_in("denoising", {}, language, state) for language in ("en", "zh-CN"))
    same_numbers(english, chinese)
    assert unspaced(chinese) == []  # "为什么KPCA · 不动点法", "线性 PCA的最佳 m" (issue 48)
    assert any("在各自最佳的 m 下" in m.value for m in chinese.markdown)
