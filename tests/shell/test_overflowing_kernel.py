"""A polynomial kernel that overflows on an upload's huge values (γ = 10⁴, d = 10, entries
near 10²⁰⁰ squared): every page that computes a kernel refuses with the core's one
sentence, in the reader's language, and none shows a traceback (the Scale page's
comparison and the One eigenproblem page did before: scikit-learn worded it there)."""

from __future__ import annotations

import re

import pytest

from kpca_core.centering import NON_FINITE_KERNEL
from shell import state
from shell.registry import LESSONS
from tests.support.apptest import open_app

# Pages that compute a kernel on the sidebar's data (the tour and the tally have none,
# De-noising reads only the digits, Draw only its drawing).
PAGES = [lesson.url_path for lesson in LESSONS
         if lesson.work is not None and lesson.url_path not in ("denoising", "draw")]
HUGE = ("a,b,label\n" + "".join(f"{(i + 1) * 1e100},{(i % 7) * 1e100},{i % 2}\n"
                                for i in range(40))).encode()
LINK = {"kernel": "poly", "gamma": 10000, "degree": 10, "standardize": 0}
CHINESE = ("核矩阵含有 NaN 或无穷值：它的元素溢出了。使用多项式核时，请减小 γ 或次数；"
           "否则请重新缩放数据（例如将其标准化）。")


def refusals(page: str, language: str) -> list[str]:
    at = open_app(page, {**LINK, "lang": language})
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value(("huge.csv", HUGE, "text/csv")).run()
    assert not at.exception, [e.value for e in at.exception]
    return [e.value for e in at.main.error]


def test_the_pages_are_the_ones_that_compute_a_kernel():
    assert {"explorer", "scale", "one_eigenproblem", "classification"} <= set(PAGES)


@pytest.mark.parametrize("page", PAGES)
def test_an_overflowing_kernel_is_refused_in_chinese_on_every_page(page):
    (shown,) = refusals(page, "zh-CN")
    assert shown.endswith("：" + CHINESE), shown
    assert not re.search(r"[A-Za-z]{3,} [a-z]{3,}", shown), shown  # no English sentence left


@pytest.mark.parametrize("page", ["scale", "one_eigenproblem"])
def test_an_overflowing_kernel_is_refused_in_english_as_the_core_says_it(page):
    (shown,) = refusals(page, "en")
    assert shown == f"The kernel cannot be computed with these settings: {NON_FINITE_KERNEL}"
