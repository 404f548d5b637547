"""New points: the CSV download holds the training, held-out and typed points as charted."""

from __future__ import annotations

import numpy as np
import pandas as pd
from sklearn.decomposition import PCA

import datasets
from kpca_core import KernelPCA
from lessons.new_points.experiment import split_indices
from shell.registry import NEW_POINTS_HELD_OUT
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.downloads import class_names, numbered_columns, png_names
from tests.support.lessons import N
from tests.support.plotly_json import decode, find_chart

CIRCLES = {"dataset": "circles", "n": N, "kernel": "rbf", "gamma": 5}


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
    train, held = split_indices(N, data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    assert table["set"].tolist() == ["training"] * len(train) + ["held out"] * len(held) + [
        "your point"]
    assert table["point"][:-1].astype(int).tolist() == [*train, *held]
    assert np.isnan(table["point"].iloc[-1])  # not a row of the data
    assert table["class"].tolist()[:-1] == class_names(data, np.r_[train, held])
    assert pd.isna(table["class"].iloc[-1])  # typed in: no class

    Z, P = numbered_columns(table, "kpca_"), numbered_columns(table, "pca_")
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
            "kpca-lab-circles-rbf-gamma5-new-points-terms"} == set(png_names(at))


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
    np.testing.assert_array_equal(numbered_columns(table, "kpca_")[-1, :2],
                                  [star["x"][0], star["y"][0]])
