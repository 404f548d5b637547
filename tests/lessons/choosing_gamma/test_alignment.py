"""Choosing γ's alignment section (AppTest): the curve drawn is the centred alignment of
scikit-learn's RBF kernel on the sweep's own sample, and the sentence follows the numbers on
three data sets (the circles agree, the moons disagree), for another kernel, without labels."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import laplacian_kernel, rbf_kernel

import datasets
from experiments.sampling import stratified_rows
from lessons.choosing_gamma.experiment import SWEEP_MAX_N
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import chart_specs, decode

PAGE = "choosing_gamma"


def by_definition(K: np.ndarray, y: np.ndarray) -> float:
    n = len(y)
    J = np.eye(n) - 1.0 / n
    Y = (y[:, None] == y[None, :]).astype(float)
    Kc, Yc = J @ K @ J, J @ Y @ J
    return float(np.sum(Kc * Yc) / (np.linalg.norm(Kc) * np.linalg.norm(Yc)))


def curves(at) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    spec = next(s for s in chart_specs(at)
                if s["layout"]["title"]["text"].startswith("Centred kernel–target alignment"))
    separability, alignment = spec["data"][0], spec["data"][1]
    return (decode(alignment["x"]).astype(float), decode(alignment["y"]).astype(float),
            decode(separability["y"]).astype(float) / 100)


def caption(at) -> str:
    return next(c.value for c in [*at.caption, *at.markdown] if "Alignment is highest" in c.value)


@pytest.mark.parametrize(("name", "agree"), [("circles", True), ("moons", False),
                                             ("iris", False)])
def test_the_alignment_curve_and_where_it_agrees_with_separability(name, agree):
    at = open_app(PAGE, {"dataset": name, "kernel": "rbf"})
    assert_clean(at)
    values, alignment, separability = curves(at)
    data = datasets.load(name)
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    X, y = data.X[rows], data.y[rows]
    expected = [by_definition(rbf_kernel(X, gamma=g), y) for g in values]
    np.testing.assert_allclose(alignment, expected, rtol=1e-9)
    best = int(np.argmax(expected))
    text = caption(at)
    assert f"(A = {expected[best]:.3f})" in text
    assert ("pick the same width" in text) == agree
    tied = separability >= separability.max() - 1e-6
    assert bool(tied[best]) == agree


def test_another_kernel_is_aligned_with_its_own_matrix():
    at = open_app(PAGE, {"dataset": "circles", "kernel": "laplacian", "gamma": 1})
    assert_clean(at)
    values, alignment, _ = curves(at)
    data = datasets.load("circles")
    expected = [by_definition(laplacian_kernel(data.X, gamma=g), data.y) for g in values]
    np.testing.assert_allclose(alignment, expected, rtol=1e-9)


def test_without_labels_there_is_nothing_to_align_with():
    at = open_app(PAGE, {"dataset": "parabola", "kernel": "rbf", "gamma": 1})
    assert_clean(at)
    assert any("no classes to compare with" in i.value for i in at.info)
