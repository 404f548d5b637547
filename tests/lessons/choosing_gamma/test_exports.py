"""Choosing γ: the CSV downloads are the highlighted panel and the spectra as charted."""

from __future__ import annotations

import numpy as np

import datasets
from experiments.sampling import stratified_rows
from kpca_core import KernelPCA, center_kernel, compute_kernel, kernel_spectrum
from lessons.choosing_gamma.experiment import SWEEP_MAX_N
from lessons.choosing_gamma.figures import format_swept_value
from tests.support.apptest import assert_clean, open_app
from tests.support.downloads import class_names, numbered_columns, png_names
from tests.support.lessons import N, assert_up_to_sign
from tests.support.plotly_json import decode, find_chart

CIRCLES = {"dataset": "circles", "n": N, "kernel": "rbf", "gamma": 5}


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
    rows = stratified_rows(N, data.y, SWEEP_MAX_N)
    assert table["point"].tolist() == rows.tolist()
    assert table["class"].tolist() == class_names(data, rows)
    Z = numbered_columns(table, "kpca_")
    assert Z.shape[1] == 2
    # The red panel's traces (one per class, points in row order within each class).
    axis = "x" if current == 0 else f"x{current + 1}"
    traces = [t for t in spec["data"] if t.get("xaxis", "x") == axis]
    drawn = np.vstack([np.column_stack([decode(t["x"]), decode(t["y"])]) for t in traces])
    by_class = np.concatenate([np.flatnonzero(data.y[rows] == c) for c in np.unique(data.y)])
    np.testing.assert_array_equal(Z[by_class].astype(np.float32), drawn)
    expected = KernelPCA(2, kernel="rbf", gamma=panel_gamma).fit_transform(data.X[rows])
    assert_up_to_sign(Z, expected, 1e-9)

    name, spectra = downloads.csv(at, "Eigenvalues at every γ (CSV)")
    assert name == "kpca-lab-circles-rbf-gamma-sweep-eigenvalues.csv"
    assert list(spectra.columns) == ["gamma", "rank", "eigenvalue", "share_of_trace"]
    # One line per γ, named by it; the red panel's γ drawn last, on top of the others.
    lines = {t["name"]: t for t in find_chart(at, "The spectrum flattens")["data"]
             if "lines" in t["mode"]}
    gammas = spectra["gamma"].unique()
    assert len(gammas) == len(lines) == 12 and panel_gamma in gammas
    assert list(lines)[-1] == format_swept_value("gamma", panel_gamma)
    for gamma in gammas:
        line = lines[format_swept_value("gamma", gamma)]
        one = spectra[spectra["gamma"] == gamma]
        assert one["rank"].tolist() == list(range(1, len(one) + 1))
        np.testing.assert_allclose(100 * np.clip(one["share_of_trace"], 1e-12, None),
                                   decode(line["y"]), rtol=1e-12)
    Kc = center_kernel(compute_kernel(data.X[rows], kernel="rbf", gamma=panel_gamma))
    one = spectra[spectra["gamma"] == panel_gamma]
    np.testing.assert_allclose(one["eigenvalue"], kernel_spectrum(Kc)[: len(one)], atol=1e-10)
    np.testing.assert_allclose(one["share_of_trace"], one["eigenvalue"] / np.trace(Kc),
                               rtol=1e-12)
    assert all(png.startswith("kpca-lab-circles-rbf-gamma-sweep-") for png in png_names(at))


def test_choosing_the_degree_offers_the_degree_panel(downloads):
    at = open_app("choosing_gamma", {**CIRCLES, "kernel": "poly", "gamma": 1, "degree": 2,
                                     "coef0": 1})
    assert_clean(at)
    name, table = downloads.csv(at, "Projection at degree d = 2, the red panel (CSV)")
    assert name == "kpca-lab-circles-poly-gamma1-degree2-coef01-choosing-gamma-projection.csv"
    data = datasets.load("circles", n=N)
    expected = KernelPCA(2, kernel="poly", gamma=1.0, degree=2, coef0=1.0).fit_transform(data.X)
    Z = numbered_columns(table, "kpca_")
    assert_up_to_sign(Z, expected, 1e-9 * np.abs(Z).max())
    assert "kpca-lab-circles-poly-gamma1-coef01-degree-sweep-panels" in png_names(at)
