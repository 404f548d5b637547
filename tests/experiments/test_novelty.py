"""Hoffmann's reconstruction error against explicit feature vectors and scikit-learn's PCA,
the split, and the baselines against scikit-learn's estimators called directly."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.decomposition import PCA
from sklearn.ensemble import IsolationForest
from sklearn.metrics import roc_auc_score
from sklearn.svm import OneClassSVM

import datasets
from experiments.kpca_steps import fit_kpca
from experiments.novelty import (
    OFF_SHAPE,
    auc,
    baseline_scores,
    errors_and_spread,
    kernel_diagonal,
    novelty_split,
    reconstruction_errors,
    svm_kernel,
)
from kpca_core import compute_kernel
from tests.support.lessons import KERNEL_PARAMS


def explicit_error(F_train: np.ndarray, F_test: np.ndarray, q: int) -> np.ndarray:
    pca = PCA(n_components=q, svd_solver="full").fit(F_train)
    residual = F_test - pca.inverse_transform(pca.transform(F_test))
    return np.sum(residual**2, axis=1)


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_the_diagonal_is_the_kernel_matrixs(kernel):
    X = np.random.default_rng(0).normal(size=(30, 4))
    X[3] = 0.0  # a zero row: the cosine kernel's k(x, x) is 0 there
    K = compute_kernel(X, kernel=kernel, **KERNEL_PARAMS[kernel])
    np.testing.assert_allclose(kernel_diagonal(X, kernel, KERNEL_PARAMS[kernel]), np.diag(K),
                               rtol=1e-12, atol=1e-15)


def test_linear_kernel_errors_are_pcas_reconstruction_errors():
    data = datasets.load("iris")
    X = data.X
    train, test = X[::2], X[1::2]
    fit = fit_kpca(train, kernel="linear", kernel_params={}, n_components=2)
    np.testing.assert_allclose(reconstruction_errors(fit, test), explicit_error(train, test, 2),
                               atol=1e-10)


def test_degree_two_polynomial_errors_are_those_of_its_six_monomials():
    X = datasets.load("moons", n=200).X
    gamma, c0 = 0.7, 1.3

    def phi(Z):  # (γ xᵀy + c₀)² written out for points in the plane
        x1, x2 = Z.T
        r = np.sqrt(2 * gamma * c0)
        return np.column_stack([np.full(len(Z), c0), r * x1, r * x2, gamma * x1**2,
                                np.sqrt(2) * gamma * x1 * x2, gamma * x2**2])

    train, test = X[:150], X[150:]
    params = {"gamma": gamma, "degree": 2, "coef0": c0}
    for q in (1, 3):
        fit = fit_kpca(train, kernel="poly", kernel_params=params, n_components=q)
        errors, spread = errors_and_spread(fit, test)
        np.testing.assert_allclose(errors, explicit_error(phi(train), phi(test), q), atol=1e-9)
        centred = phi(test) - phi(train).mean(axis=0)
        np.testing.assert_allclose(spread, np.sum(centred**2, axis=1), rtol=1e-10)


def test_rbf_errors_against_a_finite_feature_map_of_these_points():
    X = datasets.load("circles", n=160).X
    train, test = X[:120], X[120:]
    G = compute_kernel(X, kernel="rbf", gamma=5.0)
    values, vectors = np.linalg.eigh(G)
    F = vectors * np.sqrt(np.clip(values, 0, None))  # F Fᵀ = G
    fit = fit_kpca(train, kernel="rbf", kernel_params={"gamma": 5.0}, n_components=4)
    np.testing.assert_allclose(reconstruction_errors(fit, test),
                               explicit_error(F[:120], F[120:], 4), atol=1e-9)


def test_errors_are_computed_in_blocks_as_if_at_once():
    X = datasets.load("moons", n=60).X
    fit = fit_kpca(X[:20], kernel="rbf", kernel_params={"gamma": 3.0}, n_components=3)
    many = np.random.default_rng(1).normal(size=(95, 2))  # more than 4 blocks of 20
    one_by_one = np.array([reconstruction_errors(fit, p[None])[0] for p in many])
    np.testing.assert_allclose(reconstruction_errors(fit, many), one_by_one, atol=1e-13)


def test_all_components_leave_no_error_on_the_training_points():
    X = datasets.load("moons", n=40).X
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 2.0}, n_components=39)
    assert np.abs(reconstruction_errors(fit, X)).max() < 1e-9


def test_the_split_holds_out_a_quarter_and_draws_outliers_off_the_shape():
    data = datasets.load("circles")
    split = novelty_split(data.X, data.y, None, max_train=1000)
    assert len(split.held_out) == 100 and len(split.train) == 300
    assert not set(split.train) & set(split.held_out)
    assert split.kind == "off the shape" and split.outlier_rows is None
    assert len(split.outliers) == 100
    # Each outlier is farther from every point than OFF_SHAPE median neighbour spacings.
    D = np.linalg.norm(data.X[:, None] - data.X[None], axis=-1)
    np.fill_diagonal(D, np.inf)
    spacing = np.median(D.min(axis=1))
    nearest = np.linalg.norm(split.outliers[:, None] - data.X[None], axis=-1).min(axis=1)
    assert nearest.min() > OFF_SHAPE * spacing


def test_a_normal_class_is_scored_against_the_other_classes():
    data = datasets.load("iris")
    split = novelty_split(data.X, data.y, 1, max_train=1000)
    assert (data.y[split.train] == 1).all() and (data.y[split.held_out] == 1).all()
    assert (data.y[split.outlier_rows] != 1).all()
    assert len(split.outlier_rows) == len(split.held_out) == 13
    np.testing.assert_array_equal(split.outliers, data.X[split.outlier_rows])


def test_the_training_part_is_capped():
    data = datasets.load("moons", n=1000)
    split = novelty_split(data.X, data.y, None, max_train=300)
    assert len(split.train) == 300 and len(split.held_out) == 250


def test_baselines_are_scikit_learns_estimators():
    X = datasets.load("moons").X
    train, test = X[:300], X[300:]
    scores = baseline_scores(train, test, kernel="rbf", kernel_params={"gamma": 15.0})
    svm = OneClassSVM(kernel="rbf", gamma=15.0, nu=0.1).fit(train)
    np.testing.assert_allclose(scores["One-class SVM"], -svm.decision_function(test),
                               atol=1e-8)
    forest = IsolationForest(random_state=0).fit(train)
    np.testing.assert_allclose(scores["Isolation forest"], -forest.score_samples(test))


def test_the_svm_keeps_a_kernel_of_x_minus_y_and_gets_an_rbf_one_for_the_others():
    X = datasets.load("moons").X
    train, test = X[:300], X[300:]
    scores = baseline_scores(train, test, kernel="laplacian", kernel_params={"gamma": 2.0})
    K = compute_kernel(train, kernel="laplacian", gamma=2.0)
    svm = OneClassSVM(kernel="precomputed", nu=0.1).fit(K)
    np.testing.assert_allclose(
        scores["One-class SVM"],
        -svm.decision_function(compute_kernel(test, train, kernel="laplacian", gamma=2.0)),
        atol=1e-8)
    # The polynomial kernel: an RBF kernel with γ = 1 / median ‖x − y‖² instead.
    poly = {"gamma": 1.0, "degree": 3, "coef0": 1.0}
    assert svm_kernel(train, "poly", poly) == (
        "rbf", {"gamma": pytest.approx(1 / np.median(pdist(train, "sqeuclidean")))})
    scores = baseline_scores(train, test, kernel="poly", kernel_params=poly)
    rbf = OneClassSVM(kernel="rbf", gamma=1 / np.median(pdist(train, "sqeuclidean")),
                      nu=0.1).fit(train)
    np.testing.assert_allclose(scores["One-class SVM"], -rbf.decision_function(test),
                               atol=1e-8)


def test_auc_is_scikit_learns():
    rng = np.random.default_rng(3)
    a, b = rng.normal(size=40), rng.normal(0.5, size=30)
    assert auc(a, b) == pytest.approx(roc_auc_score(np.r_[np.zeros(40), np.ones(30)],
                                                    np.r_[a, b]))
