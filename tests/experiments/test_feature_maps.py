"""The explicit feature maps reproduce their kernels (the kernel trick, checked by hand)."""

from __future__ import annotations

import math

import numpy as np
import pytest

import datasets
from experiments import feature_maps as fm
from kpca_core import KernelPCA, compute_kernel


@pytest.fixture(scope="module")
def circles():
    data = datasets.load("circles", n=120)
    return data.X, data.y


def test_monomial_counts_and_names():
    for d in (1, 2, 3, 5):
        for p in range(5):
            exponents = fm.monomial_exponents(d, p)
            assert exponents.shape == (math.comb(d + p - 1, p), d) == (fm.n_monomials(d, p), d)
            assert (exponents.sum(axis=1) == p).all()
            assert len({tuple(r) for r in exponents}) == len(exponents)  # no duplicates
    assert fm.monomial_names(fm.monomial_exponents(2, 2)) == ["x1²", "x1·x2", "x2²"]


def test_degree_two_map_in_the_plane_has_the_derived_weights(circles):
    X, _ = circles
    gamma, c0 = 0.7, 1.3
    features, exponents = fm.poly_feature_map(X, degree=2, gamma=gamma, coef0=c0)
    x1, x2 = X[:, 0], X[:, 1]
    by_hand = np.column_stack([
        np.full(len(X), c0),
        math.sqrt(2 * gamma * c0) * x1,
        math.sqrt(2 * gamma * c0) * x2,
        gamma * x1**2,
        math.sqrt(2) * gamma * x1 * x2,
        gamma * x2**2,
    ])
    assert fm.monomial_names(exponents) == ["1", "x1", "x2", "x1²", "x1·x2", "x2²"]
    np.testing.assert_allclose(features, by_hand, rtol=1e-13, atol=1e-15)


@pytest.mark.parametrize(("d", "degree", "gamma", "c0"),
                         [(2, 2, 10.0, 1.0), (2, 2, 0.3, 0.0), (3, 2, 1.0, 2.5), (4, 3, 0.5, 1.0),
                          (1, 4, 2.0, 0.5)])
def test_polynomial_map_inner_products_equal_the_kernel(d, degree, gamma, c0):
    X = np.random.default_rng(d).normal(size=(40, d))
    Phi, _ = fm.poly_feature_map(X, degree=degree, gamma=gamma, coef0=c0)
    K = compute_kernel(X, kernel="poly", degree=degree, gamma=gamma, coef0=c0)
    assert Phi.shape[1] == math.comb(d + degree, degree)
    np.testing.assert_allclose(Phi @ Phi.T, K, rtol=1e-11, atol=1e-11 * np.abs(K).max())


def test_negative_offset_has_no_real_map():
    with pytest.raises(ValueError, match="imaginary"):
        fm.poly_feature_map(np.ones((3, 2)), gamma=1.0, coef0=-1.0)


def test_rbf_taylor_map_matches_its_closed_form_even_with_zero_inputs():
    X = np.array([[0.0, 1.0], [0.5, 0.0], [0.0, 0.0], [-1.0, 0.3], [2.0, -1.5]])
    for order in (0, 1, 5, 20):
        Phi, _ = fm.rbf_taylor_feature_map(X, gamma=0.8, order=order)
        assert np.isfinite(Phi).all()
        np.testing.assert_allclose(Phi @ Phi.T, fm.rbf_taylor_kernel(X, gamma=0.8, order=order),
                                   rtol=1e-12, atol=1e-14)


def test_rbf_taylor_series_converges_to_the_kernel(circles):
    X, _ = circles
    conv = fm.rbf_taylor_convergence(X, gamma=2.0)
    assert conv.max_error[0] > 0.5  # order 0 is nowhere near
    assert conv.max_error[-1] < 1e-12  # converged before the size limit
    assert not conv.stopped_by_size
    assert conv.closed_form_gap < 1e-12
    # Once the terms shrink (p > 2γ max|xᵀy| ≈ 4.4), every order improves the fit.
    assert np.all(np.diff(conv.max_error[6:]) < 0)
    np.testing.assert_array_equal(conv.n_features,
                                  [math.comb(2 + p, p) for p in conv.orders])


def test_rbf_taylor_stops_where_the_map_gets_too_big():
    X = np.random.default_rng(0).normal(size=(30, 40))
    conv = fm.rbf_taylor_convergence(X, gamma=0.05, max_features=2000)
    # 1 + 40 + 820 = 861 coordinates up to order 2; order 3 adds C(42, 3) = 11,480.
    assert conv.stopped_by_size and conv.orders[-1] == 2
    assert conv.next_n_features == 861 + math.comb(42, 3)
    assert conv.max_error[-1] > 1e-3  # far from converged: φ cannot be written down


def test_kernel_pca_equals_linear_pca_on_the_feature_map(circles):
    X, _ = circles
    result = fm.explicit_pca(X, gamma=3.0, coef0=1.0, n_components=2)
    assert result.n_features == 6
    assert result.max_difference < 1e-9 * np.abs(result.kpca).max()
    assert result.kernel_gap < 1e-10
    np.testing.assert_allclose(result.eigenvalues / (len(X) - 1), result.pca_variances,
                               rtol=1e-9)
    reference = KernelPCA(2, kernel="poly", degree=2, gamma=3.0, coef0=1.0).fit_transform(X)
    assert fm.sign_aligned_difference(result.kpca, reference) < 1e-9


def test_sign_aligned_difference_ignores_flips_only():
    A = np.array([[1.0, 2.0], [3.0, -1.0]])
    assert fm.sign_aligned_difference(A, A * [-1, 1]) == 0.0
    assert fm.sign_aligned_difference(A, A + [[0.5, 0.0], [0.0, 0.0]]) == 0.5


def test_quadratic_lift_is_the_c0_zero_map_and_a_plane_splits_the_circles(circles):
    X, y = circles
    Z = fm.quadratic_lift(X, gamma=4.0)
    np.testing.assert_allclose(Z @ Z.T, compute_kernel(X, kernel="poly", degree=2, gamma=4.0,
                                                        coef0=0.0), atol=1e-12)
    plane = fm.separating_plane(Z, y)
    assert plane.accuracy == 1.0
    sides = np.sign(Z @ plane.normal + plane.offset)
    assert len(np.unique(sides[y == 0])) == 1 and len(np.unique(sides[y == 1])) == 1
    with pytest.raises(ValueError, match="2-D"):
        fm.quadratic_lift(np.ones((3, 3)), gamma=1.0)
