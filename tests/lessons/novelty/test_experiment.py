"""Novelty detection: the page's numbers against independent computations, and each
sentence where it could turn false (all errors zero, an indefinite kernel, equal
eigenvalues, a large training set)."""

from __future__ import annotations

import numpy as np
import pytest
from scipy import linalg
from sklearn.metrics import roc_auc_score

import datasets
from experiments.kpca_steps import rounding_floor
from kpca_core import center_kernel, compute_kernel
from lessons.novelty.experiment import (
    EXPLICIT_MAX_TRAIN,
    KPCA,
    REPEATED,
    comparison_sentence,
    novelty,
    rates,
    threshold,
    threshold_sentence,
)


def run(name="circles", normal=None, q=3, n=None, **kernel):
    data = datasets.load(name, **({} if n is None else {"n": n}))
    kernel = kernel or {"kernel": "rbf", "gamma": 5.0}
    name = kernel.pop("kernel")
    return data, novelty(data.X, data.y, kernel=name, kernel_params=kernel, q=q,
                         normal=normal, max_train=1000)


def test_the_aucs_are_roc_aucs_of_the_scores_and_the_check_passes():
    data, result = run()
    for name, (normal, outliers) in result.scores.items():
        labels = np.r_[np.zeros(len(normal)), np.ones(len(outliers))]
        assert result.aucs[name] == pytest.approx(roc_auc_score(labels, np.r_[normal, outliers]))
    assert result.check.gap is not None and result.check.gap < 1e-8
    assert result.check.sample == 0 and result.check.points == 100
    text = comparison_sentence(result)
    assert f"AUC: kernel PCA {result.aucs[KPCA]:.3f}" in text
    ours, svm = result.aucs[KPCA], result.aucs["One-class SVM"]
    assert (("does better than kernel PCA" in text) == (svm - ours >= 0.02))


def test_the_threshold_sentence_counts_what_lies_above_the_cut():
    _, result = run()
    for percent in (50, 90, 99.5):
        cut = threshold(result.train_errors, percent)
        within = int(np.sum(result.train_errors <= cut))
        assert within >= percent / 100 * 300 > within - 1  # the smallest such error
        false_alarm, found = rates(result, cut)
        flagged_normal = int(np.sum(result.held_errors > cut))
        flagged_outliers = int(np.sum(result.outlier_errors > cut))
        text = threshold_sentence(result, percent)
        assert f"{within} of the 300 training points" in text
        assert f"{flagged_normal} of the 100 held-out normal points" in text
        assert f"{flagged_outliers} of the 100 outliers" in text
        assert false_alarm == flagged_normal / 100 and found == flagged_outliers / 100


def test_keeping_every_dimension_leaves_nothing_to_score_and_the_page_says_so():
    # (γ xᵀy + 1)² on points in the plane: 6 monomials, 5 directions after centring.
    _, result = run(q=10, kernel="poly", gamma=1.0, degree=2, coef0=1.0)
    assert result.q == 5 and result.vanishing
    assert "Every error is 0 to within rounding" in comparison_sentence(result)
    assert result.check.gap is not None and result.check.gap < 1e-8


def test_an_indefinite_kernel_has_no_explicit_map_to_check_against():
    _, result = run(kernel="sigmoid", gamma=0.5, coef0=-1.0)
    assert result.check.gap is None and "negative eigenvalues" in result.check.why


def test_a_saturated_sigmoid_is_indefinite_beyond_rounding_and_not_checked():
    # K ≈ all ones (its largest eigenvalue ≈ n), K̃'s eigenvalues ~1e-8, and eigenvalues of
    # the training points' K far below minus the rounding of K: no real feature map.
    data, result = run("iris", kernel="sigmoid", gamma=0.3, coef0=0.0)
    K = compute_kernel(data.X[result.split.train], kernel="sigmoid", gamma=0.3, coef0=0.0)
    assert linalg.eigvalsh(K).min() < -1e3 * rounding_floor(len(K), np.abs(K).max())
    assert result.check.gap is None and "negative eigenvalues" in result.check.why


def test_a_kernel_of_one_value_has_no_component_and_every_error_is_zero():
    data, result = run("iris", kernel="sigmoid", gamma=3.0, coef0=0.0)
    K = compute_kernel(data.X[result.split.train], kernel="sigmoid", gamma=3.0, coef0=0.0)
    assert np.ptp(K) == 0  # tanh saturates to 1.0 for every training pair
    assert result.eigenvalues[0] == 0 and result.vanishing
    assert result.check.gap is None and "no eigenvalue of K̃" in result.check.why
    assert "sits at the training points' mean" in comparison_sentence(result)


@pytest.mark.parametrize("name", ["moons", "circles"])
def test_small_distinct_eigenvalues_at_a_tiny_gamma_are_checked(name):
    # μ₃ and μ₄ of the training points' K̃, computed here by LAPACK: within 1e-6 × μ₁ of
    # each other, yet over ten times the rounding of K apart. The page checks component 3.
    data, result = run(name, kernel="rbf", gamma=1e-6)
    K = compute_kernel(data.X[result.split.train], kernel="rbf", gamma=1e-6)
    mu = linalg.eigvalsh(center_kernel(K))[::-1]
    assert mu[2] - mu[3] < 1e-6 * mu[0]  # what the old test, relative to μ₁, called equal
    assert mu[2] - mu[3] > 10 * rounding_floor(len(K), np.abs(K).max())
    assert result.check.gap is not None and result.check.gap < 1e-8


def test_equal_eigenvalues_leave_the_subspace_ambiguous_and_the_check_says_why():
    # Points 1 apart and γ = 1e4: K = I exactly, K̃ = I − 1/n, every μ = 1.
    X = np.column_stack([np.arange(40.0), np.zeros(40)])
    result = novelty(X, None, kernel="rbf", kernel_params={"gamma": 1e4}, q=3, normal=None,
                     max_train=1000)
    assert result.check.gap is None and result.check.why == REPEATED
    assert result.check.why_text().startswith("μ3 and μ4 are equal to within the rounding")


def test_a_large_training_set_is_checked_on_a_sample_fit():
    _, result = run("moons", n=600)
    assert len(result.split.train) == 450 > EXPLICIT_MAX_TRAIN
    assert result.check.sample == EXPLICIT_MAX_TRAIN and result.check.of == 450
    assert result.check.gap < 1e-8


def test_a_normal_class_against_the_others_and_a_map_only_in_the_plane():
    data, result = run("iris", normal=0, kernel="rbf", gamma=0.5)
    assert result.grid is None and result.split.kind == "other classes"
    assert result.aucs[KPCA] > 0.9  # setosa is far from the other two
    _, result = run()
    xs, ys, values = result.grid
    assert values.shape == (len(ys), len(xs)) and len(xs) <= 100
