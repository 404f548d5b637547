"""Classification in another language (AppTest, issue 37): under ``en-XA`` nothing English is
left unbracketed (headers, labels, helps, options, the sentences on the split, the errors and
the curve, the table's captions and its expander, the charts' titles, axes and hovers); in
zh-CN every sentence, metric and chart title holds the English page's numbers. At the
defaults (circles, RBF), on iris with the Laplacian kernel, on circles with the sigmoid
kernel (negative eigenvalues: kpca_core's warning said in the page's language), on iris with
the linear kernel (fewer components than asked for; a tie), and on a small USPS subset (the
misclassified digits' mosaic, the published split's sentence)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kpca_core import KernelPCA
from lessons.classification.sections import fit_warning
from tests.lessons.classification.test_page import upload_classes
from tests.support.apptest import needs_usps
from tests.support.page_language import numbers, open_in, same_numbers, unwrapped
from words.i18n import use_language

SETTINGS = {
    "defaults": {},
    "iris, Laplacian": {"dataset": "iris", "kernel": "laplacian", "gamma": 1},
    "circles, sigmoid": {"dataset": "circles", "n": 200, "kernel": "sigmoid", "gamma": 1,
                         "coef0": 1},
    # Only 4 components exist (the info on k), and kernel and linear PCA tie.
    "iris, linear": {"dataset": "iris", "kernel": "linear"},
}
USPS = {"dataset": "usps", "n": 300, "kernel": "poly", "gamma": 1, "degree": 3, "coef0": 0}


def check_page(query: dict, open_page):
    """The page at ``query`` in en-XA, English and zh-CN, opened with ``open_page``
    (shared_page, or open_app), checked; the English and the Chinese."""
    pseudo = open_in("classification", query, "en-XA", open_page=open_page)
    assert unwrapped(pseudo) == []
    english, chinese = (open_in("classification", query, language, open_page=open_page)
                        for language in ("en", "zh-CN"))
    same_numbers(english, chinese)
    return english, chinese


@pytest.mark.parametrize("query", SETTINGS.values(), ids=SETTINGS.keys())
def test_nothing_unwrapped_and_the_chinese_numbers_are_the_english(query, shared_page):
    english, chinese = check_page(query, shared_page)
    assert any("测试误差" in m.value for m in chinese.markdown)
    assert any(c.value.startswith("对角线以外") for c in chinese.caption)
    # The same warnings, each said in Chinese (kpca_core's on negative eigenvalues among them).
    assert len(chinese.warning) == len(english.warning)
    assert all("中心化核矩阵" in w.value for w in chinese.warning)


def test_the_sigmoid_kernels_negative_eigenvalues_are_said_in_chinese(shared_page):
    _, chinese = check_page(SETTINGS["circles, sigmoid"], shared_page)
    assert any("个明显为负" in w.value for w in chinese.warning)


def test_the_missing_components_and_the_tie_are_said_in_chinese(shared_page):
    english, chinese = check_page(SETTINGS["iris, linear"], shared_page)
    assert any("gives only 4 with a non-zero eigenvalue" in i.value for i in english.info)
    assert any("只有 4 个特征值不为零的主成分" in i.value for i in chinese.info)
    assert any("make the same number of test errors" in c.value for c in english.caption)
    assert any("的测试错误数相同" in c.value for c in chinese.caption)


@needs_usps
@pytest.mark.slow
def test_usps_nothing_unwrapped_and_the_chinese_numbers_are_the_english(shared_page):
    _, chinese = check_page(USPS, shared_page)
    assert any("USPS 自带的划分" in m.value for m in chinese.markdown)


def test_the_split_error_is_said_in_the_language_that_shows_it():
    at = upload_classes(open_in("classification", {"kernel": "rbf", "gamma": 1}, "zh-CN"), 2)
    (error,) = [e.value for e in at.main.error]
    assert error == ("在这些设置下无法分类：10 个点划分后有 7 个用于训练、"
                     "3 个用于测试（留出 30%），但两边都需要 5 个类别中每个类别至少一个点。"
                     "请至少使用 14 个点：上传一个行数更多的文件。")


def test_kpca_cores_warning_is_read_back_word_for_word():
    """The warning the fit raises is recognised: English unchanged, Chinese with its numbers."""
    X = np.random.default_rng(0).normal(size=(60, 2))
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        KernelPCA(n_components=59, kernel="sigmoid", gamma=1.0, coef0=1.0,
                  negative_eigenvalues="warn").fit(X)
    (message,) = {str(w.message) for w in caught if "negative eigenvalue" in str(w.message)}
    assert fit_warning(message) == message
    with use_language("zh-CN"):
        chinese = fit_warning(message)
    assert chinese.startswith("在计算出的 59 个特征值中") and "'sigmoid' 核" in chinese
    assert numbers(chinese) == numbers(message)


@pytest.mark.slow  # two kernel PCA curves up to k = 139, in each language: ~8 s
def test_the_offline_packs_sentences_hold_the_english_numbers():
    """The lecture pack's Classification step (circles at the app's defaults), built in
    Chinese: the same sentences' numbers as in English, and no English sentence left."""
    from lessons.classification import pack
    from shell.state import default_settings

    def sentences(language: str) -> list[str]:
        with use_language(language):
            (frame,) = pack.frames(None, None, None, [default_settings("circles")])
            return [*frame.sentences, pack.slider([0] * 140, None, None).note]

    english, chinese = sentences("en"), sentences("zh-CN")
    assert [numbers(text) for text in chinese] == [numbers(text) for text in english]
    assert chinese[0].startswith("同一个线性 SVM（C = 1）的测试误差")
    assert all(text != english_text for text, english_text in zip(chinese, english, strict=True))
