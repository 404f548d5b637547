"""The kernel trick: the CSV download holds the two charts' projections, named after the view.

Each test opens the page, takes the file a download button would send, parses it back and
compares it with the charts' data in the figure and with a recomputation from the same
settings (each lesson's own test_exports.py does the same for its downloads). The charts'
PNG names are checked too.
"""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.downloads import class_names, numbered_columns, png_names
from tests.support.lessons import N, assert_up_to_sign
from tests.support.plotly_json import find_chart, scatter_points


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
    assert table["class"].tolist() == class_names(data, np.arange(N))
    for chart, prefix in (("Kernel PCA with", "kpca_"), ("Linear PCA on φ(X)", "pca_phi_")):
        rows, shown = scatter_points(find_chart(at, chart))
        # The chart carries float32: the file's float64 rounds to exactly what is drawn.
        drawn = numbered_columns(table, prefix)[rows].astype(np.float32)
        np.testing.assert_array_equal(drawn, shown)
    # Recomputed: kernel PCA with (γ xᵀy + c₀)², scikit-learn's, up to sign.
    from sklearn.decomposition import KernelPCA as SkKernelPCA

    expected = SkKernelPCA(2, kernel="poly", degree=2, gamma=query["gamma"],
                           coef0=coef0).fit_transform(data.X)
    Z = numbered_columns(table, "kpca_")
    assert_up_to_sign(Z, expected, 1e-9 * np.abs(Z).max())
    assert all(png.startswith(f"kpca-lab-{query['dataset']}-") for png in png_names(at))
    assert f"{stem}-kernel-trick-kpca" in png_names(at)


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
    assert by_row.loc[rows, "class"].tolist() == class_names(data, rows)
