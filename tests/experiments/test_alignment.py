"""Centred kernel–target alignment against its definition written out with J and Y, and the
sentence comparing it with separability on crafted curves."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.metrics.pairwise import rbf_kernel

import datasets
from experiments.alignment import (
    agreement_sentence,
    alignment_curve,
    centred_alignment,
    compare_curves,
)


def by_definition(K: np.ndarray, y: np.ndarray) -> float:
    n = len(y)
    J = np.eye(n) - np.ones((n, n)) / n
    Y = (y[:, None] == y[None, :]).astype(float)
    Kc, Yc = J @ K @ J, J @ Y @ J
    return float(np.sum(Kc * Yc) / (np.linalg.norm(Kc) * np.linalg.norm(Yc)))


@pytest.mark.parametrize("name", ["circles", "iris", "moons"])
def test_alignment_is_the_cosine_of_the_centred_matrices(name):
    data = datasets.load(name)
    X, y = data.X[::3], data.y[::3]
    for gamma in (0.01, 1.0, 30.0):
        K = rbf_kernel(X, gamma=gamma)
        assert centred_alignment(K, y) == pytest.approx(by_definition(K, y), rel=1e-10)


def test_the_labels_own_matrix_is_perfectly_aligned_and_scale_does_not_matter():
    y = np.array([0, 0, 1, 2, 2, 2, 1])
    Y = (y[:, None] == y[None, :]).astype(float)
    assert centred_alignment(Y, y) == pytest.approx(1.0)
    K = rbf_kernel(np.random.default_rng(0).normal(size=(7, 2)))
    assert centred_alignment(5 * K + 3, y) == pytest.approx(centred_alignment(K, y))


def test_a_constant_kernel_aligns_with_nothing_and_one_class_has_no_alignment():
    y = np.array([0, 1, 0, 1])
    assert centred_alignment(np.ones((4, 4)), y) == 0.0
    assert np.isnan(centred_alignment(np.eye(4), np.zeros(4)))


def test_the_curve_is_the_alignment_at_each_gamma():
    data = datasets.load("circles", n=120)
    values = [0.1, 3.0, 300.0]
    curve = alignment_curve(data.X, data.y, kernel="rbf", kernel_params={}, param="gamma",
                            values=values)
    expected = [by_definition(rbf_kernel(data.X, gamma=g), data.y) for g in values]
    np.testing.assert_allclose(curve, expected, rtol=1e-10)


def test_the_sentence_says_agree_when_the_peaks_coincide():
    values = np.array([0.1, 1.0, 10.0, 100.0])
    text = agreement_sentence(values, np.array([0.2, 0.6, 0.4, 0.1]),
                              np.array([0.5, 1.0, 1.0, 0.6]))
    assert "Alignment is highest at γ = 1 (A = 0.600)" in text
    assert "the best of the sweep (a tie): here the two scores pick the same width" in text
    assert "rise and fall together (Spearman's ρ = 0.74)" in text


def test_the_sentence_says_disagree_with_the_gap_in_points():
    values = np.array([0.1, 1.0, 10.0, 100.0])
    alignment, separability = np.array([0.5, 0.4, 0.3, 0.1]), np.array([0.8, 0.7, 0.98, 0.6])
    found = compare_curves(alignment, separability)
    assert not found.agree and found.best_separability == (2,)
    text = agreement_sentence(values, alignment, separability)
    assert "they separate best at γ = 10 (98 %), where A = 0.300" in text
    assert "disagree, by 18 points of separability" in text


def test_a_gap_under_one_point_never_reads_zero():
    # One point of 300 apart (263 and 264 separated): a gap of 0.33 points, which whole
    # points wrote as "disagree, by 0 points"; the shares it separates get its decimal too.
    values = np.array([0.1, 1.0, 10.0, 100.0])
    alignment, separability = np.array([0.5, 0.4, 0.3, 0.1]), np.array([263, 250, 264, 200]) / 300
    text = agreement_sentence(values, alignment, separability)
    assert "where components 1–2 separate 87.7 % of the points" in text
    assert "they separate best at γ = 10 (88.0 %)" in text
    assert "disagree, by 0.3 points of separability" in text
