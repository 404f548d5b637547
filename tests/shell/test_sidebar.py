"""The shared sidebar (AppTest): datasets and their options, γ following the data, CSV uploads."""

from __future__ import annotations

import numpy as np
from streamlit.testing.v1 import AppTest

import datasets
from experiments import analysis, kernel_diagnostics
from kpca_core import KERNELS, center_kernel, compute_kernel, kernel_spectrum
from loadtest.browser import SIDEBAR_DRAWN
from shell import state
from shell.sidebar import SETTINGS_WAIT_KEY
from tests.lessons.explorer.sections import DATA_TAB, SPECTRUM_TAB, open_section
from tests.support.apptest import CSV_DIR, assert_clean, needs_usps, open_app
from tests.support.lessons import N, small_query
from tests.support.markdown import as_read
from tests.support.plotly_json import decode, find_chart, scatter_points
from tests.support.plotly_json import title as plotly_title


def sidebar_notes(at: AppTest) -> str:
    return " ".join(i.value for i in at.sidebar.info)


def gamma_hints(at: AppTest) -> list[str]:
    """The γ hint (lessons.common.gamma_hint), by its bold title."""
    return [w.value for w in at.warning if w.value.startswith(("**γ = ", "**Degree "))]


def upload(at: AppTest, name: str, content: bytes) -> AppTest:
    return at.file_uploader(key="upload_csv").set_value((name, content, "text/csv")).run()


def csv_app() -> AppTest:
    at = open_app("explorer")
    return at.selectbox(key="w_dataset").set_value(state.CSV).run()


def test_usps_unavailable_is_an_error_message_not_a_traceback(monkeypatch):
    def unavailable(name, **options):
        raise datasets.UspsUnavailableError("The USPS digits are not available (test).")

    monkeypatch.setattr(datasets, "load", unavailable)
    at = open_app("explorer", {"dataset": "usps", "seed": 987})  # a key no cache holds
    assert not at.exception
    assert "not available (test)" in at.error[0].value
    assert at.selectbox(key="w_dataset").value == "usps"  # the sidebar still works


def test_suggested_kernel_button_applies_the_dataset_suggestion():
    at = open_app("explorer", small_query("parabola", "rbf", gamma=50))
    button = next(b for b in at.button if b.label == "Use this dataset's suggested kernel")
    button.click().run()
    assert_clean(at)
    suggested = datasets.available()["parabola"].suggested_kernel
    assert at.query_params["kernel"] == suggested["kernel"]
    for name in ("gamma", "degree", "coef0"):
        if name in suggested and name in KERNELS[suggested["kernel"]].params:
            assert float(at.query_params[name]) == float(suggested[name])


def test_switching_dataset_uses_its_own_options():
    at = open_app("explorer", small_query("circles", "rbf"))
    at.selectbox(key="w_dataset").set_value("iris").run()
    assert_clean(at)
    assert at.query_params["dataset"] == "iris" and "n" not in at.query_params
    find_chart(at, "Input space: 150 points (first 3 of 4 features)")
    at.selectbox(key="w_dataset").set_value("circles").run()
    assert at.query_params["n"] == str(N)  # remembered from before


def test_csv_upload_explores_the_file_and_a_bad_upload_keeps_it():
    at = open_app("explorer")
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    assert_clean(at)
    assert any("Upload a CSV file" in i.value for i in at.info)

    good = (CSV_DIR / "good_labels.csv").read_bytes()
    at.file_uploader(key="upload_csv").set_value(("flowers.csv", good, "text/csv")).run()
    at.selectbox(key="w_csv_label").set_value("species").run()
    assert_clean(at)
    expected = datasets.load_csv(good, label_column="species")
    n = len(expected.X)
    find_chart(at, f"Input space: {n} points")
    # γ followed the upload: the median heuristic of the file, and the sidebar says so.
    gamma = kernel_diagnostics.round_gamma(kernel_diagnostics.reference_gamma(expected.X, "rbf"))
    assert at.select_slider(key="w_gamma").value == gamma
    assert float(at.query_params["gamma"]) == gamma
    assert any("γ changed from 5 to" in i.value for i in at.sidebar.info)
    # Issue 33: not "to suit the file" above a hint that says γ is too small for it.
    note = next(i.value for i in at.sidebar.info if "γ changed from 5 to" in i.value)
    assert "to suit" not in note and "not a tuned value" in note
    open_section(at, SPECTRUM_TAB)
    shown = decode(find_chart(at, "Eigenvalues μ of K̃")["data"][0]["y"])
    K = compute_kernel(expected.X, kernel="rbf", gamma=gamma)
    spectrum = kernel_spectrum(center_kernel(K))
    np.testing.assert_allclose(shown[: min(n, 30)], spectrum[: min(n, 30)], atol=1e-9 * n)
    assert at.query_params["dataset"] == state.CSV and "file" not in at.query_params

    bad = b"a,b\n1,2\nthree,4\n5,6\n"
    at.file_uploader(key="upload_csv").set_value(("typo.csv", bad, "text/csv")).run()
    assert not at.exception
    error = as_read(at.sidebar.error[0].value)
    assert "typo.csv" in error and "previous upload" in error
    open_section(at, DATA_TAB)
    find_chart(at, f"Input space: {n} points")  # the good data is still on screen


def test_gamma_follows_a_dataset_change_and_says_so_unless_kept():
    at = open_app("explorer", {"dataset": "circles", "n": 100, "kernel": "rbf", "gamma": 10})
    at.selectbox(key="w_dataset").set_value("swiss_roll").run()
    assert_clean(at)
    suggested = datasets.available()["swiss_roll"].suggested_kernel["gamma"]
    assert at.select_slider(key="w_gamma").value == suggested
    assert at.query_params["gamma"] == f"{suggested:g}"
    assert f"γ changed from 10 to {suggested:g}" in sidebar_notes(at)
    assert not gamma_hints(at)  # the carried γ = 10 would have been "too large"

    at.checkbox(key="w_keep_gamma").check().run()
    at.select_slider(key="w_gamma").set_value(0.3).run()
    at.selectbox(key="w_dataset").set_value("moons").run()
    assert_clean(at)
    assert at.select_slider(key="w_gamma").value == 0.3  # kept, as asked
    assert "γ changed" not in sidebar_notes(at)


def test_gamma_keeps_its_multiple_of_the_data_scale_when_standardising():
    at = open_app("explorer", {"dataset": "iris", "kernel": "rbf", "gamma": 0.2})
    at.checkbox(key="w_standardize").check().run()
    assert_clean(at)
    X = datasets.load("iris").X
    raw = kernel_diagnostics.reference_gamma(X, "rbf")
    scaled = kernel_diagnostics.reference_gamma(analysis.standardized(X), "rbf")
    expected = kernel_diagnostics.round_gamma(0.2 * scaled / raw)
    assert at.select_slider(key="w_gamma").value == expected
    assert "standardising the inputs" in sidebar_notes(at)
    caption = " ".join(c.value for c in at.sidebar.caption)
    assert f"= {state.format_multiple(expected / scaled)} × median heuristic" in caption


@needs_usps
def test_usps_subset_slider_stops_at_the_split_size():
    at = open_app("explorer", {"dataset": "usps", "n": 50, "kernel": "rbf", "gamma": 0.004})
    assert at.slider(key="w_opt_usps_n").max == datasets.usps_split_sizes()["train"] == 7291
    at.selectbox(key="w_opt_usps_split").set_value("test").run()
    assert at.slider(key="w_opt_usps_n").max == 2007


def test_csv_obvious_label_column_is_chosen_and_numeric_target_offered():
    at = upload(csv_app(), "flowers.csv", (CSV_DIR / "good_labels.csv").read_bytes())
    assert_clean(at)
    assert at.selectbox(key="w_csv_label").value == "species"
    find_chart(at, "Kernel PCA")
    numeric = b"a,b,target\n" + b"\n".join(
        f"{i % 7},{(i * 3) % 11},{i % 2}".encode() for i in range(30)
    )
    at = upload(at, "numeric.csv", numeric)
    assert_clean(at)
    assert at.selectbox(key="w_csv_label").value == "target"
    assert "target" in at.selectbox(key="w_csv_label").options
    assert "Input space: 30 points" in plotly_title(find_chart(at, "Input space"))


def test_csv_semicolon_decimal_commas_parse_and_binary_files_are_named():
    at = upload(csv_app(), "euro.csv", b"a;b;c\n" + b"\n".join(
        f"{i},5;{i * 2},25;{i % 3},0".encode() for i in range(12)))
    assert_clean(at)
    rows, shown = scatter_points(find_chart(at, "Input space"))
    np.testing.assert_allclose(shown[rows == 1][0], [1.5, 2.25, 1.0], rtol=1e-6)
    assert "On screen: **euro.csv**" in as_read(" ".join(c.value for c in at.sidebar.caption))

    at = upload(at, "book.csv", (CSV_DIR / "workbook_xlsx.csv").read_bytes())
    assert not at.exception
    error = as_read(at.sidebar.error[0].value)
    assert "book.csv" in error and "Excel" in error and "euro.csv" in error
    # Refused whatever its label column: no label choice is offered (no bytes as names).
    assert not [box for box in at.sidebar.selectbox if box.key == "w_csv_label"]


def test_csv_drop_rows_with_missing_values_is_a_real_choice():
    content = (CSV_DIR / "nan_values.csv").read_bytes()
    at = upload(csv_app(), "gaps.csv", content)
    assert "drop these 2 rows" in as_read(at.sidebar.error[0].value)
    at.checkbox(key="w_csv_drop").check().run()
    assert_clean(at)
    expected = datasets.load_csv(content, drop_nonfinite=True)
    find_chart(at, f"Input space: {len(expected.X)} points")


def test_polynomial_help_says_exactly_degree_d_when_c0_is_zero():
    # Issue 22, item 4: with c₀ = 0 the features are the monomials of degree exactly d.
    at = open_app("explorer", small_query("parabola", "poly", gamma=1, degree=2, coef0=0))
    assert_clean(at)
    help_text = at.slider(key="w_degree").help
    assert "degree exactly d when c₀ = 0" in help_text and "up to d when c₀ > 0" in help_text
    assert "c₀ = 0: none" in at.slider(key="w_coef0").help


def _sidebar_alone() -> None:
    """A page of only the sidebar, whose view waits while ``_test_waits`` is set."""
    import streamlit as st

    from shell.sidebar import Wing, apply_settings, settings_sidebar

    if (seed := st.session_state.pop("_test_seed", None)) is not None:
        apply_settings(seed)
    settings_sidebar("explorer", Wing(view_waits=lambda page: st.session_state["_test_waits"]))


def _every_setting_a_waiting_view_can_have() -> list[state.Settings]:
    """Each tour step's, and each built-in dataset's defaults under every kernel, raw and
    standardised, with the USPS digits' other split."""
    from dataclasses import replace

    from classroom.tour import STEPS

    found = [step.settings() for step in STEPS]
    for name in datasets.available():
        base = state.default_settings(name)
        for kernel in KERNELS:
            for standardize in (False, True):
                found.append(replace(base, kernel=kernel, standardize=standardize,
                                     gamma=0.37, degree=2, coef0=-0.5, n_components=5))
    usps = state.default_settings("usps")
    found.append(replace(usps, dataset_options=tuple(sorted(usps.options.items()))))
    return found


@needs_usps
def test_a_waiting_view_keeps_the_settings_its_controls_would_give():
    """While a view waits (a phone's question before its class is shown the view) the
    sidebar draws no settings' controls, and the settings it reads from their keys are
    the ones the controls give, at every setting a waiting view can have; the controls
    come back with those values."""
    at = AppTest.from_function(_sidebar_alone, default_timeout=60)
    at.session_state["_test_waits"] = False
    at.run()  # the session's first run: the link's settings
    for settings in _every_setting_a_waiting_view_can_have():
        at.session_state["_test_seed"] = settings
        at.session_state["_test_waits"] = False
        at.run()
        assert_clean(at)
        drawn = at.session_state["_kpca_settings"]
        at.session_state["_test_seed"] = settings
        at.session_state["_test_waits"] = True
        at.run()
        assert_clean(at)
        assert at.session_state["_kpca_settings"] == drawn, settings
        assert not at.sidebar.slider and not at.sidebar.checkbox
        assert [box.key for box in at.sidebar.selectbox] == ["language_choice"]
        assert any("settings appear here with the view" in c.value for c in at.sidebar.caption)
        assert f".st-key-{SETTINGS_WAIT_KEY}" in SIDEBAR_DRAWN  # what browser tests wait for
        at.session_state["_test_waits"] = False
        at.run()
        assert at.session_state["_kpca_settings"] == drawn, settings
        assert at.sidebar.selectbox(key="w_dataset").value == settings.dataset
