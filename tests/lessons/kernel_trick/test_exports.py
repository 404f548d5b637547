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

import datasets
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import find_chart, scatter_points

N = 60


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


# --------------------------------------------------------------------------- choosing γ


# --------------------------------------------------------------------------- component maps
