"""The Explorer (AppTest): it runs for every data set × kernel and shows the expected charts
with the right numbers; its link (sections, the 3-D view, the axes), selections and uploads.

The data set × kernel matrix uses small n (60 points) so the whole file stays fast.
Numbers are read back from the Plotly JSON the browser would receive.
"""

from __future__ import annotations

import re

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.decomposition import PCA
from streamlit.testing.v1 import AppTest

import datasets
from experiments import analysis
from kpca_core import KERNELS, KernelPCA, center_kernel, compute_kernel, kernel_spectrum
from lessons.common.kernel_figures import SPECTRUM_SHOWN
from lessons.explorer.steps import parse_section
from lessons.home.presets import presets
from shell import state
from shell.figures import NEGATIVE_COLOUR
from tests.lessons.explorer.sections import KERNEL_TAB, SPECTRUM_TAB, open_section
from tests.support.apptest import assert_clean, needs_usps, open_app, usps_available
from tests.support.lessons import N, small_query
from tests.support.plotly_json import chart_specs, decode, find_chart, scatter_points
from tests.support.plotly_json import title as plotly_title


def sklearn_cv_score(Z: np.ndarray, y: np.ndarray) -> float:
    """5-fold stratified CV accuracy of a standardised logistic regression, from scratch."""
    from sklearn.linear_model import LogisticRegression
    from sklearn.model_selection import StratifiedKFold, cross_val_score
    from sklearn.pipeline import make_pipeline
    from sklearn.preprocessing import StandardScaler

    model = make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=2000))
    folds = StratifiedKFold(n_splits=5, shuffle=True, random_state=0)
    return float(np.mean(cross_val_score(model, Z.astype(float), y, cv=folds)))


def expected_inputs(settings: state.Settings) -> datasets.Dataset:
    return datasets.load(settings.dataset, **settings.options)


# --------------------------------------------------------------------------- home


# --------------------------------------------------------------------------- explorer


def block_means(M: np.ndarray, order: np.ndarray) -> np.ndarray:
    """M in class order, averaged over b × b blocks as the heatmaps draw it (explicit loops)."""
    n = len(order)
    side = analysis.DISPLAY_HEATMAP_SIDE
    b = 1 if n <= side else -(-n // side)
    P = M[np.ix_(order, order)]
    starts = range(0, n, b)
    return np.array([[P[i : i + b, j : j + b].mean() for j in starts] for i in starts])


def check_explorer_numbers(at: AppTest, settings: state.Settings) -> None:
    """What the Explorer shows equals what kpca_core / scikit-learn compute."""
    data = expected_inputs(settings)
    X = analysis.standardized(data.X) if settings.standardize else data.X
    params = settings.kernel_params()
    K = compute_kernel(X, kernel=settings.kernel, **params)
    Kc = center_kernel(K)
    spectrum = kernel_spectrum(Kc)
    order = np.argsort(data.y, kind="stable") if data.y is not None else np.arange(len(X))
    scale = max(1.0, np.abs(spectrum).max())

    # Spectrum: the bars are kpca_core's eigenvalues (leading 30, then flagged negatives).
    open_section(at, SPECTRUM_TAB)
    bars = find_chart(at, "Eigenvalues μ of K̃")["data"][0]
    shown = decode(bars["y"])
    leading = min(len(spectrum), SPECTRUM_SHOWN)
    np.testing.assert_allclose(shown[:leading], spectrum[:leading], atol=1e-9 * scale)
    ranks = [int(label[1:]) for label in bars["x"]]
    np.testing.assert_allclose(shown, spectrum[np.array(ranks) - 1], atol=1e-9 * scale)

    # Heatmaps: K and K̃ in class order, block means beyond DISPLAY_HEATMAP_SIDE cells.
    # (Sent as float32: equal to ~7 significant digits.)
    open_section(at, KERNEL_TAB)
    K_shown = decode(find_chart(at, "Kernel matrix K")["data"][0]["z"])
    K_scale = max(1e-300, np.abs(K).max())
    np.testing.assert_allclose(K_shown, block_means(K, order), rtol=0, atol=1e-6 * K_scale)
    Kc_shown = decode(find_chart(at, "Centred K̃")["data"][0]["z"])
    Kc_scale = max(1e-300, np.abs(Kc).max())
    np.testing.assert_allclose(Kc_shown, block_means(Kc, order), rtol=0, atol=1e-6 * Kc_scale)

    # Projections: KernelPCA.fit_transform (up to sign) and linear PCA.
    rows, kpca_shown = scatter_points(find_chart(at, "Kernel PCA"))
    assert rows.tolist() == list(range(len(X)))
    gaps = -np.diff(spectrum[:4])
    separated = gaps > 1e-6 * scale
    unique = [
        spectrum[j] > 1e-9 * scale and separated[j] and (j == 0 or separated[j - 1])
        for j in range(2)
    ]
    if any(unique):
        reference = KernelPCA(n_components=2, kernel=settings.kernel, **params).fit_transform(X)
    for j in range(2):
        if not unique[j]:
            continue  # a repeated or null eigenvalue: the axis is not unique (e.g. K = I)
        error = min(
            np.abs(kpca_shown[:, j] - reference[:, j]).max(),
            np.abs(kpca_shown[:, j] + reference[:, j]).max(),
        )
        assert error <= 1e-6 * max(1.0, np.abs(reference[:, j]).max()), f"component {j + 1}"
    _, pca_shown = scatter_points(find_chart(at, "Linear PCA"))
    linear = PCA(min(2, X.shape[1])).fit_transform(X)
    np.testing.assert_allclose(np.abs(pca_shown), np.abs(linear), atol=1e-8)


# Each kernel once, on data sets that take the page down different paths: 2-D points,
# a fixed-size data set with 4 features (iris), 3-D inputs (swiss roll), no labels
# (parabola), digit images (USPS). The numbers of every data set × kernel are checked
# without the page, in tests/shell/test_caches.py; what only a render can show is that
# the link's settings reach the computation and its numbers reach the charts.
PAGE_CASES = [("circles", "rbf"), ("iris", "linear"), ("moons", "sigmoid"),
              ("swiss_roll", "poly"), ("parabola", "laplacian"), ("usps", "cosine")]
assert sorted(kernel for _, kernel in PAGE_CASES) == sorted(KERNELS)


@pytest.mark.parametrize(("dataset", "kernel"), PAGE_CASES)
def test_explorer_for_each_kernel(dataset, kernel):
    if dataset == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    query = small_query(dataset, kernel)
    at = open_app("explorer", query)
    assert_clean(at)
    # γ = 5 (the circles' suggestion) does not suit every dataset and kernel, so the γ
    # hint may speak (when it fires: test_gamma_hint.py); nothing else may warn.
    hints = ("**γ = ", "**Degree ", "**With γ = ")
    unexpected = [
        w.value
        for w in at.warning
        if "negative eigenvalue" not in w.value and not w.value.startswith(hints)
    ]
    assert not unexpected
    settings, _ = state.settings_from_query(query)
    first = "Sample digits" if dataset == "usps" else "Input space"
    find_chart(at, first)
    check_explorer_numbers(at, settings)


@pytest.mark.parametrize(
    ("raw", "number", "problem"),
    [("2", 2, None), (" 4 ", 4, None), ("0", 1, "1 to 4, not 0"), ("K", 1, "not a section")],
)
def test_parse_section(raw, number, problem):
    got, message = parse_section(raw)
    assert got == number
    assert (message is None) if problem is None else (problem in message)


def test_a_link_opens_one_step_by_step_section_and_a_bad_one_warns():
    def titles(at):
        return [plotly_title(spec) for spec in chart_specs(at)]

    at = open_app("explorer", {**small_query("circles", "rbf"), "section": SPECTRUM_TAB})
    assert_clean(at)
    shown = titles(at)
    assert any(t.startswith("Eigenvalues μ of K̃") for t in shown), shown
    assert not any(t.startswith(("Kernel matrix K", "Input space")) for t in shown), shown
    assert at.query_params["section"] == str(SPECTRUM_TAB)  # the link keeps it

    at = open_app("explorer", {**small_query("circles", "rbf"), "section": "9"})
    assert not at.exception
    assert any("numbered 1 to 4, not 9" in w.value for w in at.warning)
    assert any(t.startswith("Input space") for t in titles(at))


def test_explorer_at_defaults_cold_deep_link():
    at = open_app("explorer")
    assert_clean(at)
    assert not at.warning
    settings = state.default_settings()
    assert at.query_params == state.settings_to_query(settings)
    check_explorer_numbers(at, settings)
    # The caption's separability is scikit-learn's cross-validated score of the drawn axes.
    data = expected_inputs(settings)
    caption = " ".join(c.value for c in at.caption)
    rows, kpca = scatter_points(find_chart(at, "Kernel PCA"))
    _, linear = scatter_points(find_chart(at, "Linear PCA"))
    kpca_score = sklearn_cv_score(kpca, data.y[rows])
    linear_score = sklearn_cv_score(linear, data.y[rows])
    assert f"kernel PCA {100 * kpca_score:.0f}%" in caption
    assert f"linear PCA {100 * linear_score:.0f}%" in caption
    assert kpca_score == 1.0 and linear_score < 0.7  # γ = 5 separates the circles
    assert "Component 1 alone already separates 100%" in caption
    assert "logistic regression" in caption


def test_standardised_inputs_change_what_the_kernel_sees():
    query = small_query("iris", "rbf", gamma=0.5, std=1)
    at = open_app("explorer", query)
    assert_clean(at)
    assert at.checkbox(key="w_standardize").value is True
    check_explorer_numbers(at, state.settings_from_query(query)[0])


def test_sigmoid_flags_negative_eigenvalues_in_red():
    preset = next(p for p in presets() if p.key == "sigmoid")
    at = open_app("explorer", state.settings_to_query(preset.settings))
    assert_clean(at)
    assert any("negative eigenvalue" in w.value for w in at.warning)  # on the first screen
    open_section(at, SPECTRUM_TAB)
    bars = find_chart(at, "Eigenvalues μ of K̃")["data"][0]
    values, colours = decode(bars["y"]), bars["marker"]["color"]
    assert NEGATIVE_COLOUR in colours
    for value, colour in zip(values, colours, strict=True):
        if abs(value) > 1e-6:
            assert (colour == NEGATIVE_COLOUR) == (value < 0)


def test_too_many_components_for_the_points_is_clamped_with_a_warning():
    at = open_app("explorer", {"dataset": "scholkopf_toy", "n": 6, "components": 12})
    assert_clean(at)
    assert any("Using 5" in w.value for w in at.warning)
    find_chart(at, "Kernel PCA")


def test_slider_change_updates_the_charts_and_the_link():
    at = open_app("explorer", small_query("circles", "rbf"))
    open_section(at, SPECTRUM_TAB)
    before = decode(find_chart(at, "Eigenvalues μ of K̃")["data"][0]["y"])
    at.select_slider(key="w_gamma").set_value(0.5).run()
    assert_clean(at)
    after = decode(find_chart(at, "Eigenvalues μ of K̃")["data"][0]["y"])
    assert not np.allclose(before, after)
    assert at.query_params["gamma"] == "0.5"
    check_explorer_numbers(at, state.settings_from_query(at.query_params)[0])


def test_three_d_toggle_draws_3d_projections():
    at = open_app("explorer", small_query("swiss_roll", "rbf", gamma=0.05))
    at.segmented_control(key="w_view_dims").set_value("3-D").run()
    assert_clean(at)
    assert at.query_params["view"] == "3d"  # the link carries the view
    kpca = find_chart(at, "Kernel PCA")
    assert {t["type"] for t in kpca["data"]} == {"scatter3d"}
    _, shown = scatter_points(kpca)
    assert shown.shape == (N, 3)


def test_three_d_needs_three_components():
    at = open_app("explorer", small_query("circles", "rbf", components=2))
    at.segmented_control(key="w_view_dims").set_value("3-D").run()
    assert_clean(at)
    assert any("3-D needs at least 3 components" in c.value for c in at.caption)
    assert {t["type"] for t in find_chart(at, "Kernel PCA")["data"]} == {"scatter"}


def test_selection_highlights_the_same_points_in_every_chart():
    query = small_query("circles", "rbf")
    at = open_app("explorer", query)
    settings = state.settings_from_query(query)[0]
    picked = [1, 5, 7]
    at.session_state["explorer_selection"] = ((settings.dataset, settings.dataset_options), picked)
    at.run()
    assert_clean(at)
    assert any("3 point(s) selected" in m.value for m in at.markdown)
    for title in ("Kernel PCA", "Linear PCA", "Input space"):
        for trace in find_chart(at, title)["data"]:
            colours = trace["marker"]["color"]
            rows = np.atleast_1d(decode(trace["customdata"]))
            bright = [row for row, c in zip(rows, colours, strict=True) if not c.startswith("rgba")]
            assert sorted(bright) == sorted(set(rows) & set(picked))


def test_selection_survives_a_gamma_change_not_a_new_dataset():
    query = small_query("circles", "rbf", gamma=5)
    at = open_app("explorer", query)
    settings = state.settings_from_query(query)[0]
    at.session_state["explorer_selection"] = ((settings.dataset, settings.dataset_options), [2, 9])
    at.run()
    at.sidebar.select_slider(key="w_gamma").set_value(10.0).run()
    assert_clean(at)
    assert any("2 point(s) selected" in m.value for m in at.markdown)  # same points, new γ
    bright = [row for trace in find_chart(at, "Kernel PCA")["data"]
              for row, c in zip(np.atleast_1d(decode(trace["customdata"])),
                                trace["marker"]["color"], strict=True)
              if not c.startswith("rgba")]
    assert sorted(bright) == [2, 9]
    at.sidebar.selectbox(key="w_dataset").set_value("moons").run()
    assert_clean(at)
    assert not any("point(s) selected" in m.value for m in at.markdown)
    for trace in find_chart(at, "Kernel PCA")["data"]:
        assert isinstance(trace["marker"]["color"], str)  # one colour: nothing faded


def test_selection_marks_its_rows_and_columns_in_k_and_k_tilde():
    query = small_query("circles", "rbf")
    at = open_app("explorer", query)
    settings = state.settings_from_query(query)[0]
    picked = [0, 1, 2, 30]
    at.session_state["explorer_selection"] = ((settings.dataset, settings.dataset_options), picked)
    open_section(at, KERNEL_TAB)
    assert_clean(at)
    y = expected_inputs(settings).y
    place = np.empty(len(y), dtype=int)
    place[np.argsort(y, kind="stable")] = np.arange(len(y))  # rows in class order
    for name in ("Kernel matrix K", "Centred K̃"):
        (band,) = [s for s in find_chart(at, name)["layout"]["shapes"] if s["type"] == "path"]
        # Per run of consecutive places, a rectangle of columns ("M a,-0.5 H b V end H a Z",
        # the axis's whole height) and one of rows (across its whole width): each set
        # covers exactly the picked points' places.
        rectangles = [tuple(map(float, r)) for r in re.findall(
            r"M(-?[\d.]+),(-?[\d.]+)H(-?[\d.]+)V(-?[\d.]+)H-?[\d.]+Z", band["path"])]
        end = max(max(r) for r in rectangles)
        columns, rows = set(), set()
        for x0, y0, x1, y1 in rectangles:
            if (y0, y1) == (-0.5, end):
                columns |= set(range(round(x0 + 0.5), round(x1 + 0.5)))
            if (x0, x1) == (-0.5, end):
                rows |= set(range(round(y0 + 0.5), round(y1 + 0.5)))
        assert columns == rows == set(place[picked].tolist())
    assert any("Amber bands" in c.value and "4 selected" in c.value for c in at.caption)


@needs_usps
def test_usps_selection_shows_the_selected_digits():
    query = {"dataset": "usps", "n": 100, "kernel": "poly", "gamma": 1 / 256}
    at = open_app("explorer", query)
    settings = state.settings_from_query(query)[0]
    at.session_state["explorer_selection"] = ((settings.dataset, settings.dataset_options), [3, 4])
    at.run()
    assert_clean(at)
    mosaic = find_chart(at, "Selected digits (all 2)")
    z = decode(mosaic["data"][0]["z"])
    data = expected_inputs(settings)
    np.testing.assert_allclose(z[:16, :16], data.X[3].reshape(16, 16), atol=1e-6)


@pytest.mark.slow
def test_large_n_blocks_the_heatmaps_and_uses_the_iterative_spectrum():
    n = analysis.DENSE_MAX_N + 100
    at = open_app("explorer", {"dataset": "circles", "n": n, "kernel": "rbf", "gamma": 10})
    assert_clean(at)
    open_section(at, KERNEL_TAB)
    heat = decode(find_chart(at, "Kernel matrix K")["data"][0]["z"])
    assert heat.shape[0] <= analysis.MAX_HEATMAP_SIDE
    assert any("block of points" in i.value for i in at.info)
    open_section(at, SPECTRUM_TAB)
    captions = " ".join(c.value for c in at.caption)
    assert f"only the {analysis.ITERATIVE_TOP} leading eigenvalues" in captions
    rows, _ = scatter_points(find_chart(at, "Kernel PCA"))
    assert len(rows) == n


# --------------------------------------------------------------------------- CSV upload


def test_single_feature_upload_is_drawn_on_a_line():
    at = open_app("explorer")
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    content = b"x\n" + b"\n".join(str(v).encode() for v in np.linspace(-1, 1, 25))
    at.file_uploader(key="upload_csv").set_value(("one.csv", content, "text/csv")).run()
    assert_clean(at)
    _, shown = scatter_points(find_chart(at, "Input space: 25 points (one feature)"))
    np.testing.assert_array_equal(shown[:, 1], 0.0)
    find_chart(at, "Linear PCA")


# --------------------------------------------------------------------------- γ follows the data
# (The γ hint's own tests: test_gamma_hint.py.)


def test_wide_scale_upload_gets_a_reachable_gamma_and_a_standardise_hint():
    from sklearn.datasets import load_wine

    wine = load_wine()
    rows = [",".join(f"{v:g}" for v in row) for row in wine.data]
    content = ("\n".join([",".join(wine.feature_names), *rows]) + "\n").encode()
    at = open_app("explorer")
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value(("wine.csv", content, "text/csv")).run()
    assert_clean(at)
    gamma = at.select_slider(key="w_gamma").value
    # The file's median heuristic, 1 / median ‖x − y‖², to two significant digits.
    assert gamma == float(f"{1 / np.median(pdist(wine.data, 'sqeuclidean')):.2g}")
    # Reachable by the slider (its options are shown formatted).
    assert state.format_gamma(gamma) in at.select_slider(key="w_gamma").options
    assert any("spreads differ by a factor of" in i.value for i in at.info)
    next(b for b in at.button if b.label == "Standardise").click().run()
    assert_clean(at)
    assert at.checkbox(key="w_standardize").value is True
    assert not any("spreads differ" in i.value for i in at.info)


# --------------------------------------------------------------------------- captions


@needs_usps
def test_no_server_path_in_any_text():
    at = open_app("explorer", {"dataset": "usps", "n": 100, "kernel": "rbf", "gamma": 0.004})
    assert_clean(at)
    texts = [e.value for kind in ("markdown", "caption", "info", "warning", "text")
             for e in getattr(at, kind)]
    path = datasets.usps_source_description()
    for text in texts:
        assert "/work/" not in text and "KPCA_USPS_PATH" not in text and ".npz" not in text
        assert path not in text


def test_indefinite_spectrum_shares_add_up_to_at_most_100_percent():
    preset = next(p for p in presets() if p.key == "sigmoid")
    at = open_app("explorer", state.settings_to_query(preset.settings))
    open_section(at, SPECTRUM_TAB)
    spectrum_chart = find_chart(at, "Eigenvalues μ of K̃")
    kpca_line = next(t for t in spectrum_chart["data"] if t.get("name") == "kernel PCA")
    cumulative = decode(kpca_line["y"])
    assert cumulative.max() <= 100 + 1e-9
    yaxis = spectrum_chart["layout"]["yaxis2"]
    assert yaxis["range"][0] == 0
    captions = " ".join(c.value for c in at.caption)
    assert "sum of the positive μ" in captions


# --------------------------------------------------------------------------- smaller defects


def test_a_selection_shows_a_sample_spread_over_it():
    from lessons.explorer.charts import spread_sample

    picked = list(range(0, 1000, 5))  # 200 rows
    shown = spread_sample(picked, 60)
    assert len(shown) == 60 and shown[0] == 0 and shown[-1] == 995
    assert len(set(shown)) == 60 and shown == sorted(shown)


def test_heatmap_hover_names_points_as_the_scatter_does():
    at = open_app("explorer", small_query("moons", "rbf"))
    open_section(at, KERNEL_TAB)
    heat = find_chart(at, "Kernel matrix K")["data"][0]
    data = expected_inputs(state.settings_from_query(small_query("moons", "rbf"))[0])
    order = np.argsort(data.y, kind="stable")
    assert [int(v) for v in heat["x"]] == order.tolist() == [int(v) for v in heat["y"]]
    assert "point %{y}" in heat["hovertemplate"] and "point %{x}" in heat["hovertemplate"]
    scatter = find_chart(at, "Kernel PCA")["data"][0]
    assert "point %{customdata}" in scatter["hovertemplate"]


def test_view_and_axes_travel_in_the_link():
    at = open_app("explorer", small_query("scholkopf_toy", "rbf", view="3d", axes="2,3,4",
                                          components=4))
    assert_clean(at)
    kpca = find_chart(at, "Kernel PCA")
    assert {t["type"] for t in kpca["data"]} == {"scatter3d"}
    assert kpca["layout"]["scene"]["xaxis"]["title"]["text"] == "component 2"
    assert at.query_params["view"] == "3d" and at.query_params["axes"] == "2,3,4"

    at.segmented_control(key="w_view_dims").set_value("2-D").run()
    at.selectbox(key="w_view_axes").set_value((2, 4)).run()
    assert_clean(at)
    assert "view" not in at.query_params and at.query_params["axes"] == "2,4"
    rows, shown = scatter_points(find_chart(at, "Kernel PCA"))
    settings = state.settings_from_query(at.query_params)[0]
    data = expected_inputs(settings)
    scores = KernelPCA(n_components=4, kernel="rbf", gamma=settings.gamma).fit_transform(data.X)
    for axis, component in enumerate((1, 3)):
        error = min(np.abs(shown[:, axis] - scores[rows, component]).max(),
                    np.abs(shown[:, axis] + scores[rows, component]).max())
        assert error < 1e-5


# --------------------------------------------------------------------------- CSV details
