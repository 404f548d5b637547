"""Links (AppTest): a bad or stale parameter warns and falls back; settings travel between pages."""

from __future__ import annotations

from shell import state
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import N, small_query
from tests.support.plotly_json import find_chart


def test_bad_link_warns_and_falls_back_to_defaults():
    at = open_app("explorer", {"dataset": "mnist", "gamma": "-1", "kernel": "rbf", "zzz": "1"})
    assert_clean(at)
    text = " ".join(w.value for w in at.warning)
    assert "mnist" in text and "γ must be between" in text and "zzz" in text
    assert at.query_params == state.settings_to_query(state.default_settings())
    find_chart(at, "Kernel PCA")


def test_bad_link_warning_goes_once_the_user_changes_something():
    at = open_app("explorer", {"gamma": "0"})
    assert at.warning
    at.select_slider(key="w_gamma").set_value(2.0).run()
    assert_clean(at)
    assert not at.warning
    assert at.query_params["gamma"] == "2"


def test_settings_survive_moving_between_pages_and_kernels():
    at = open_app("explorer", small_query("moons", "rbf"))
    at.select_slider(key="w_gamma").set_value(0.3).run()
    at.selectbox(key="w_kernel").set_value("linear").run()  # γ not drawn now
    at.switch_page("app_pages/home.py").run()
    assert_clean(at)
    assert at.query_params["kernel"] == "linear" and at.query_params["dataset"] == "moons"
    at.switch_page("app_pages/explorer.py").run()
    at.selectbox(key="w_kernel").set_value("rbf").run()
    assert_clean(at)
    assert at.select_slider(key="w_gamma").value == 0.3
    assert at.query_params["gamma"] == "0.3" and at.query_params["n"] == str(N)


def test_a_link_to_an_upload_explains_itself():
    at = open_app("explorer", {"dataset": state.CSV, "kernel": "rbf"})
    assert_clean(at)
    assert any("uploaded CSV" in w.value for w in at.warning)
    assert at.query_params["dataset"] == state.DEFAULT_DATASET
