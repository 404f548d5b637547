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
