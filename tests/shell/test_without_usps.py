"""Every page with the USPS digits unavailable (no KPCA_USPS_PATH, no cache, no network):
a page that needs them says so in an error message; none shows a traceback."""

from __future__ import annotations

import pytest
import streamlit as st

import datasets
from shell.registry import LESSONS
from tests.support.apptest import open_app

# The link a student arrives with: the digits asked for on the pages that take a dataset.
USPS_LINK = {"dataset": "usps", "n": 500, "seed": 911}


@pytest.fixture
def no_usps(monkeypatch):
    real_load = datasets.load

    def load(name, **options):
        if name == "usps":
            raise datasets.UspsUnavailableError("The USPS digits are not available (test).")
        return real_load(name, **options)

    monkeypatch.setattr(datasets, "load", load)
    st.cache_resource.clear()  # no digits left from an earlier test
    yield
    st.cache_resource.clear()  # nor a refusal for a later one


@pytest.mark.parametrize("lesson", LESSONS, ids=lambda lesson: lesson.url_path)
def test_a_page_without_the_digits_explains_instead_of_a_traceback(no_usps, lesson):
    at = open_app(lesson.url_path, USPS_LINK)
    assert not at.exception, [e.value for e in at.exception][:1]
    shown = " ".join(e.value for e in at.error)
    # No data (the tour, the class tally), or always the drawing (Draw): nothing to refuse.
    if lesson.work is None or lesson.url_path == "draw":
        assert not shown
    else:  # every other page draws the link's data (De-noising: always the digits)
        assert "not available (test)" in shown


@pytest.mark.parametrize("page", ["explorer", "denoising"])
def test_why_the_digits_are_missing_is_said_in_the_readers_language(page, monkeypatch,
                                                                   tmp_path):
    """A real refusal (KPCA_USPS_PATH names no file), not a stand-in: the English page shows
    the refusal as datasets words it; the Chinese page shows it in Chinese, path and all,
    with the page's own advice after it."""
    missing = str(tmp_path / "nowhere" / "usps.npz")
    monkeypatch.setenv("KPCA_USPS_PATH", missing)
    # Nothing an earlier test of this process read: the data sets' own cache too (the
    # De-noising page asks for the digits it always shows, which another test may have read).
    datasets.clear_cache()
    st.cache_resource.clear()
    st.cache_data.clear()
    try:
        english = " ".join(e.value for e in open_app(page, USPS_LINK).error)
        chinese = " ".join(e.value for e in open_app(page, {**USPS_LINK, "lang": "zh-CN"}).error)
    finally:
        datasets.clear_cache()
        st.cache_resource.clear()
        st.cache_data.clear()
    assert english.startswith(f"KPCA_USPS_PATH is set to {missing!r}, but there is no file "
                              "there. Correct the path, or unset KPCA_USPS_PATH")
    assert chinese.startswith(f"KPCA_USPS_PATH 被设为 {missing!r}，但那里没有文件。请更正路径，"
                              "或取消设置 KPCA_USPS_PATH")
    assert "is set to" not in chinese and "Correct the path" not in chinese
    advice = {"explorer": ("Pick another dataset in the sidebar", "侧边栏"),
              "denoising": ("The other pages work without the USPS digits", "其他页面")}[page]
    assert advice[0] in english and advice[1] in chinese
