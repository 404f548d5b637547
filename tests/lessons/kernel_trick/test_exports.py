"""The lesson pages' CSV downloads hold exactly what the page shows, named after the view.

Each test opens a page, takes the file a download button would send, parses it back and
compares it with the chart's data in the figure (or a table on the page), and with a
recomputation from the same settings. The charts' PNG names are checked too.
"""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from sklearn.decomposition import PCA

import datasets
from kpca_core import KernelPCA, center_kernel, compute_kernel, kernel_spectrum
from lessons.choosing_gamma.experiment import SWEEP_MAX_N, subsample
from lessons.new_points.experiment import split_indices
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import decode, find_chart, scatter_points

N = 60
CIRCLES = {"dataset": "circles", "n": N, "kernel": "rbf", "gamma": 5}


def _signs(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    """A with each column's sign matched to B's (an eigenvector's sign is arbitrary)."""
    return A * np.where((A * B).sum(axis=0) < 0, -1.0, 1.0)


def _columns(table: pd.DataFrame, prefix: str) -> np.ndarray:
    names = [c for c in table.columns if c.startswith(prefix)]
    assert names == [f"{prefix}{j + 1}" for j in range(len(names))], table.columns
    return table[names].to_numpy(dtype=float)


def _png_names(at) -> list[str]:
    return [json.loads(c.proto.config)["toImageButtonOptions"]["filename"]
            for c in at.get("plotly_chart")]


def _classes(data, rows) -> list[str]:
    return [data.target_names[int(c)] for c in data.y[rows]]


# --------------------------------------------------------------------------- kernel trick


@pytest.mark.parametrize("query", [
    {"dataset": "circles", "n": N, "kernel": "rbf", "gamma": 2, "coef0": 1},
    # c₀ < 0 has no real map: the page uses c₀ = 0, and so must the file name.
    {"dataset": "moons", "n": N, "kernel": "sigmoid", "gamma": 0.5, "coef0": -1},
], ids=["circles", "negative-coef0"])
def test_kernel_trick_projections_are_the_two_charts(downloads, query):
    at = open_app("kernel_trick", query)
    assert_clean(at)
    coef0 = max(query["coef0"], 0)
    stem = f"kpca-lab-{query['dataset']}-poly-gamma{query['gamma']}-degree2-coef0{coef0}"
    name, table = downloads.csv(at, "Projections (CSV)")
    assert name == f"{stem}-kernel-trick-projections.csv"
    assert list(table.columns) == ["point", "class", "kpca_1", "kpca_2", "pca_phi_1",
                                   "pca_phi_2"]
    data = datasets.load(query["dataset"], n=N)
    assert table["point"].tolist() == list(range(N))
    assert table["class"].tolist() == _classes(data, np.arange(N))
    for chart, prefix in (("Kernel PCA with", "kpca_"), ("Linear PCA on φ(X)", "pca_phi_")):
        rows, shown = scatter_points(find_chart(at, chart))
        # The chart carries float32: the file's float64 rounds to exactly what is drawn.
        np.testing.assert_array_equal(_columns(table, prefix)[rows].astype(np.float32), shown)
    # Recomputed: kernel PCA with (γ xᵀy + c₀)², scikit-learn's, up to sign.
    from sklearn.decomposition import KernelPCA as SkKernelPCA

    expected = SkKernelPCA(2, kernel="poly", degree=2, gamma=query["gamma"],
                           coef0=coef0).fit_transform(data.X)
    Z = _columns(table, "kpca_")
    np.testing.assert_allclose(_signs(Z, expected), expected, atol=1e-9 * np.abs(Z).max())
    assert all(png.startswith(f"kpca-lab-{query['dataset']}-") for png in _png_names(at))
    assert f"{stem}-kernel-trick-kpca" in _png_names(at)


@needs_usps
@pytest.mark.slow  # φ(X) of 150 digits has 33,153 columns
def test_kernel_trick_sample_keeps_the_data_rows(downloads):
    # 256 pixels: φ has 33,153 coordinates, so the page uses a sample of 150 digits.
    at = open_app("kernel_trick", {"dataset": "usps", "n": 170, "kernel": "poly",
                                   "gamma": 0.01, "degree": 2, "coef0": 1})
    assert_clean(at)
    _, table = downloads.csv(at, "Projections (CSV)")
    rows, shown = scatter_points(find_chart(at, "Kernel PCA with"))
    assert len(table) == 150 and sorted(rows) == sorted(table["point"])
    assert table["point"].max() > 150  # rows of the data, not positions in the sample
    by_row = table.set_index("point")
    np.testing.assert_array_equal(
        by_row.loc[rows, ["kpca_1", "kpca_2"]].to_numpy().astype(np.float32), shown)
    data = datasets.load("usps", n=170)
    assert by_row.loc[rows, "class"].tolist() == _classes(data, rows)


# --------------------------------------------------------------------------- new points


def _heldout_chart(spec: dict) -> dict[str, dict[int, tuple[float, float]]]:
    """{'training' | 'held out' | the new point's name: {row: (x, y)}} from the chart."""
    points: dict[str, dict] = {}
    for trace in spec["data"]:
        x, y = decode(trace["x"]), decode(trace["y"])
        if "customdata" in trace:
            role = "held out" if trace["name"].endswith(" · held out") else "training"
            for r, a, b in zip(decode(trace["customdata"]), x, y, strict=True):
                points.setdefault(role, {})[int(r)] = (a, b)
        elif x[0] is not None:  # not one of the legend's symbol keys
            points[trace["name"]] = {-1: (x[0], y[0])}
    return points


def test_new_points_projections_hold_training_heldout_and_the_typed_point(downloads):
    at = open_app("new_points", CIRCLES)
    at.number_input[0].set_value(0.5)
    at.number_input[1].set_value(-0.25).run()
    assert_clean(at)
    name, table = downloads.csv(at, "Projections (CSV)")
    assert name == "kpca-lab-circles-rbf-gamma5-new-points-projections.csv"
    data = datasets.load("circles", n=N)
    train, held = split_indices(N, data.y)
    assert table["set"].tolist() == ["training"] * len(train) + ["held out"] * len(held) + [
        "your point"]
    assert table["point"][:-1].astype(int).tolist() == [*train, *held]
    assert np.isnan(table["point"].iloc[-1])  # not a row of the data
    assert table["class"].tolist()[:-1] == _classes(data, np.r_[train, held])
    assert pd.isna(table["class"].iloc[-1])  # typed in: no class

    Z, P = _columns(table, "kpca_"), _columns(table, "pca_")
    assert Z.shape[1] == 3 and P.shape[1] == 2
    for chart, coords in (("Kernel PCA", Z), ("Linear PCA", P)):
        shown = _heldout_chart(find_chart(at, chart))
        rows = [int(r) for r in table["point"][:-1]]
        drawn = [shown[role][r] for role, r in zip(table["set"][:-1], rows, strict=True)]
        np.testing.assert_array_equal(coords[:-1, :2], drawn)
        np.testing.assert_array_equal(coords[-1, :2], shown["your point"][-1])
    # Recomputed from the same settings: KernelPCA fitted on the training rows.
    model = KernelPCA(3, kernel="rbf", gamma=5.0, random_state=0).fit(data.X[train])
    expected = model.transform(np.vstack([data.X[train], data.X[held], [[0.5, -0.25]]]))
    np.testing.assert_allclose(Z, expected, atol=1e-10)
    pca = PCA(2, svd_solver="full").fit(data.X[train])
    np.testing.assert_allclose(
        P, pca.transform(np.vstack([data.X[train], data.X[held], [[0.5, -0.25]]])), atol=1e-12)
    assert {"kpca-lab-circles-rbf-gamma5-new-points-kpca",
            "kpca-lab-circles-rbf-gamma5-new-points-pca",
            "kpca-lab-circles-rbf-gamma5-new-points-terms"} == set(_png_names(at))


@needs_usps
def test_new_points_usps_test_digit_has_its_class_but_no_row(downloads):
    at = open_app("new_points", {"dataset": "usps", "n": 120, "kernel": "rbf", "gamma": 0.004})
    at.selectbox(key="np_usps_digit").set_value(7).run()
    assert_clean(at)
    _, table = downloads.csv(at, "Projections (CSV)")
    last = table.iloc[-1]
    test = datasets.load("usps", split="test", n=2007, seed=0)
    row = int(np.flatnonzero(test.y == 7)[0])
    assert last["set"] == f"test digit {row}" and str(last["class"]) == "7"
    star = next(t for t in find_chart(at, "Kernel PCA")["data"] if t["name"] == last["set"])
    np.testing.assert_array_equal(_columns(table, "kpca_")[-1, :2],
                                  [star["x"][0], star["y"][0]])


# --------------------------------------------------------------------------- choosing γ


def test_choosing_gamma_projection_is_the_red_panel_and_the_spectra_the_lines(downloads):
    at = open_app("choosing_gamma", CIRCLES)
    assert_clean(at)
    spec = find_chart(at, "Components 1 and 2 of kernel PCA")
    titles = [a["text"] for a in spec["layout"]["annotations"]]
    current = next(i for i, t in enumerate(titles) if "yours" in t)
    panel_gamma = float(titles[current].split("γ = ")[1].split(" ")[0])
    label = next(b.proto.label for b in at.get("download_button")
                 if b.proto.label.startswith("Projection at"))
    assert label == f"Projection at γ = {panel_gamma:g}, the red panel (CSV)"
    name, table = downloads.csv(at, label)
    assert name == f"kpca-lab-circles-rbf-gamma{panel_gamma:g}-choosing-gamma-projection.csv"
    data = datasets.load("circles", n=N)
    rows = subsample(N, data.y, SWEEP_MAX_N)
    assert table["point"].tolist() == rows.tolist()
    assert table["class"].tolist() == _classes(data, rows)
    Z = _columns(table, "kpca_")
    assert Z.shape[1] == 2
    # The red panel's traces (one per class, points in row order within each class).
    axis = "x" if current == 0 else f"x{current + 1}"
    traces = [t for t in spec["data"] if t.get("xaxis", "x") == axis]
    drawn = np.vstack([np.column_stack([decode(t["x"]), decode(t["y"])]) for t in traces])
    by_class = np.concatenate([np.flatnonzero(data.y[rows] == c) for c in np.unique(data.y)])
    np.testing.assert_array_equal(Z[by_class].astype(np.float32), drawn)
    expected = KernelPCA(2, kernel="rbf", gamma=panel_gamma).fit_transform(data.X[rows])
    np.testing.assert_allclose(_signs(Z, expected), expected, atol=1e-9)

    name, spectra = downloads.csv(at, "Eigenvalues at every γ (CSV)")
    assert name == "kpca-lab-circles-rbf-gamma-sweep-eigenvalues.csv"
    assert list(spectra.columns) == ["gamma", "rank", "eigenvalue", "share_of_trace"]
    lines = [t for t in find_chart(at, "The spectrum flattens")["data"] if t["mode"] == "lines"]
    gammas = spectra["gamma"].unique()
    assert len(gammas) == len(lines) == 12 and panel_gamma in gammas
    for gamma, line in zip(gammas, lines, strict=True):
        one = spectra[spectra["gamma"] == gamma]
        assert one["rank"].tolist() == list(range(1, len(one) + 1))
        np.testing.assert_allclose(100 * np.clip(one["share_of_trace"], 1e-12, None),
                                   decode(line["y"]), rtol=1e-12)
    Kc = center_kernel(compute_kernel(data.X[rows], kernel="rbf", gamma=panel_gamma))
    one = spectra[spectra["gamma"] == panel_gamma]
    np.testing.assert_allclose(one["eigenvalue"], kernel_spectrum(Kc)[: len(one)], atol=1e-10)
    np.testing.assert_allclose(one["share_of_trace"], one["eigenvalue"] / np.trace(Kc),
                               rtol=1e-12)
    assert all(png.startswith("kpca-lab-circles-rbf-gamma-sweep-") for png in _png_names(at))


def test_choosing_the_degree_offers_the_degree_panel(downloads):
    at = open_app("choosing_gamma", {**CIRCLES, "kernel": "poly", "gamma": 1, "degree": 2,
                                     "coef0": 1})
    assert_clean(at)
    name, table = downloads.csv(at, "Projection at degree d = 2, the red panel (CSV)")
    assert name == "kpca-lab-circles-poly-gamma1-degree2-coef01-choosing-gamma-projection.csv"
    data = datasets.load("circles", n=N)
    expected = KernelPCA(2, kernel="poly", gamma=1.0, degree=2, coef0=1.0).fit_transform(data.X)
    Z = _columns(table, "kpca_")
    np.testing.assert_allclose(_signs(Z, expected), expected, atol=1e-9 * np.abs(Z).max())
    assert "kpca-lab-circles-poly-gamma1-coef01-degree-sweep-panels" in _png_names(at)


# --------------------------------------------------------------------------- component maps


def test_component_maps_projections_and_eigenvalues_are_the_table_and_the_maps(downloads):
    query = {"dataset": "scholkopf_toy", "n": N, "kernel": "rbf", "gamma": 10}
    at = open_app("component_maps", query)
    assert_clean(at)
    stem = "kpca-lab-scholkopf-toy-rbf-gamma10-component-maps"
    name, values = downloads.csv(at, "Eigenvalues (CSV)")
    assert name == f"{stem}-eigenvalues.csv"
    shown = next(d.value for d in at.dataframe if "λ" in d.value.columns)
    assert values["rank"].tolist() == shown["component"].tolist()
    np.testing.assert_array_equal(values["eigenvalue"], shown["λ"])
    np.testing.assert_allclose(100 * values["share_of_trace"], shown["% of trace(K̃)"],
                               rtol=1e-12)
    name, table = downloads.csv(at, "Projections: each map at the data points (CSV)")
    assert name == f"{stem}-projections.csv"
    data = datasets.load("scholkopf_toy", n=N)
    assert table["class"].tolist() == _classes(data, np.arange(N))
    Z = _columns(table, "kpca_")
    assert Z.shape[1] == len(values)
    model = KernelPCA(Z.shape[1], kernel="rbf", gamma=10.0, random_state=0).fit(data.X)
    np.testing.assert_allclose(values["eigenvalue"], model.eigenvalues_, rtol=1e-9)
    expected = model.transform(data.X)
    np.testing.assert_allclose(_signs(Z, expected), expected, atol=1e-9)
    assert _png_names(at) == [stem]


def test_component_maps_by_degree_offer_each_degrees_eigenvalues(downloads):
    query = {"dataset": "parabola", "n": N, "kernel": "poly", "gamma": 1, "degree": 2,
             "coef0": 0}
    at = open_app("component_maps", query)
    assert_clean(at)
    name, spectra = downloads.csv(at, "Eigenvalues at every degree (CSV)")
    stem = "kpca-lab-parabola-poly-gamma1-coef00-component-maps-by-degree"
    assert name == f"{stem}-eigenvalues.csv"
    titles = [a["text"] for a in find_chart(at, "Polynomial kernel")["layout"]["annotations"]]
    assert len(titles) == len(spectra) == 12
    for title, row in zip(titles, spectra.itertuples(), strict=True):
        assert title == (f"d = {row.degree} · y{row.rank}<br>λ = {row.eigenvalue:.3g}"
                         f" · {100 * row.share_of_trace:.1f} %")
    data = datasets.load("parabola", n=N)
    Kc = center_kernel(compute_kernel(data.X, kernel="poly", gamma=1.0, degree=3, coef0=0.0))
    three = spectra[spectra["degree"] == 3]["eigenvalue"].to_numpy()
    np.testing.assert_allclose(three, kernel_spectrum(Kc)[:3], rtol=1e-9)
    assert f"{stem}" in _png_names(at)
