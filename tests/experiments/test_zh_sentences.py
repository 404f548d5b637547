"""The sentences experiments/ makes for the pages, in zh-CN (issue 37): the English as it
was, the Chinese with the same numbers; the analysis's steps said in the run's language."""

from __future__ import annotations

import numpy as np

import datasets
from experiments.analysis import analyse
from experiments.kernel_diagnostics import scales_differ_message
from tests.support.page_language import numbers
from words import i18n


def test_the_hint_to_standardise_keeps_its_english_and_numbers_in_chinese():
    english = scales_differ_message(12_345.6, False)
    assert english == ("The input features' spreads differ by a factor of 12,346: the kernel "
                       "sees almost only the widest ones. Consider 'Standardise inputs' (γ "
                       "then follows the new scale).")
    with i18n.use_language("zh-CN"):
        chinese = scales_differ_message(12_345.6, False)
    assert numbers(chinese) == numbers(english) and "“标准化输入”" in chinese
    assert scales_differ_message(12_345.6, True) is None


def test_the_analysis_reports_its_steps_in_the_runs_language():
    X = datasets.load("circles", n=60).X
    said: dict[str, list[str]] = {}
    for code in ("en", "zh-CN"):
        with i18n.use_language(code):
            steps = said.setdefault(code, [])
            analyse(X, None, kernel="rbf", kernel_params={"gamma": 2.0}, n_components=2,
                    on_progress=lambda fraction, text, steps=steps: steps.append(text))
    assert said["en"][0] == "Kernel matrix K (60 × 60)"
    assert said["zh-CN"][0] == "核矩阵 K（60 × 60）"
    assert len(said["en"]) == len(said["zh-CN"]) >= 4
    assert [numbers(t) for t in said["zh-CN"]] == [numbers(t) for t in said["en"]]
    assert np.all([t != e for t, e in zip(said["zh-CN"], said["en"], strict=True)])
