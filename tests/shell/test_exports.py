"""Exports parse back to what is shown."""

from __future__ import annotations

import io

import numpy as np
import pandas as pd

from experiments import analysis
from shell import charts, exports, state


def test_projection_and_eigenvalue_csvs_parse_back_exactly():
    rng = np.random.default_rng(0)
    X = rng.normal(size=(40, 3))
    y = np.repeat([0, 1], 20)
    result = analysis.analyse(X, y, kernel="rbf", kernel_params={"gamma": 0.5}, n_components=3)
    table = pd.read_csv(io.StringIO(
        exports.projections_csv(result.projection, result.pca_projection, y, ("a", "b"))
    ))
    assert table["point"].tolist() == list(range(40))
    assert table["class"].tolist() == ["a"] * 20 + ["b"] * 20
    np.testing.assert_array_equal(table[["kpca_1", "kpca_2", "kpca_3"]].to_numpy(),
                                  result.projection)
    np.testing.assert_array_equal(table[["pca_1", "pca_2", "pca_3"]].to_numpy(),
                                  result.pca_projection)
    values = pd.read_csv(io.StringIO(
        exports.eigenvalues_csv(result.eigenvalues, result.eigenvalue_ranks, result.trace)
    ))
    np.testing.assert_array_equal(values["eigenvalue"].to_numpy(), result.eigenvalues)
    np.testing.assert_allclose(values["share_of_trace"].to_numpy(), result.explained_ratio)


def test_view_name_is_file_safe():
    settings = state.Settings(dataset="circles", kernel="poly", gamma=0.5, degree=2, coef0=1.0)
    assert exports.view_name(settings) == "circles-poly-gamma0.5-degree2-coef01"
    toy = state.Settings(dataset="scholkopf_toy", kernel="rbf", gamma=10.0)
    assert exports.view_name(toy, "new-points") == "scholkopf-toy-rbf-gamma10-new-points"
    assert exports.view_name(toy, "gamma-sweep", swept="gamma") == "scholkopf-toy-rbf-gamma-sweep"
    # A chart's PNG of the view is named with the same stem.
    assert charts.export_name(exports.view_name(settings)) == (
        f"kpca-lab-{exports.view_name(settings)}")
