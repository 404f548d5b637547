"""lessons.scale.approximations: Nyström and random Fourier features against exact KPCA.

Toys where exact kernel PCA is cheap; every random choice is seeded.
"""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest
from scipy.stats import ortho_group
from sklearn.datasets import make_circles

from kpca_core import KERNELS, KernelPCA
from lessons.scale import approximations as approx

RBF = {"gamma": 2.0}


@pytest.fixture(scope="module")
def circles():
    return make_circles(300, factor=0.4, noise=0.08, random_state=0)[0]


@pytest.fixture(scope="module")
def exact(circles):
    # k = 3: l_3 = 32.8 is well separated from l_4 = 20.0, so the subspace is well defined.
    return approx.exact_kpca(circles, 3, kernel="rbf", kernel_params=RBF)


def test_exact_matches_kpca_cores_estimator(circles, exact):
    reference = KernelPCA(n_components=3, kernel="rbf", gamma=2.0).fit(circles)
    np.testing.assert_allclose(exact.eigenvalues, reference.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(np.abs(exact.projection),
                               np.abs(reference.transform(circles)), atol=1e-8)
    assert exact.next_eigenvalue < exact.eigenvalues[-1]
    assert exact.relative_gap == pytest.approx(
        (exact.eigenvalues[-1] - exact.next_eigenvalue) / exact.eigenvalues[-1])


def test_nystroem_with_every_point_as_landmark_is_exact(circles, exact):
    """m = n: ΦΦᵀ = K, so (n − 1) × PCA's variances are K̃'s eigenvalues up to rounding."""
    n = len(circles)
    result = approx.approximate_and_compare(circles, exact, "nystroem", n, kernel="rbf",
                                            kernel_params=RBF)
    np.testing.assert_allclose(result.eigenvalues, exact.eigenvalues, rtol=1e-7)
    assert result.largest_angle_degrees < 1e-4
    assert result.procrustes_error < 1e-6


def test_the_eigenvalue_scale_is_squared_singular_values(circles):
    values, scores, _ = approx.approximate_kpca(circles, "nystroem", 50, 3, kernel="rbf",
                                                kernel_params=RBF)
    pipeline = approx.approximation_pipeline("nystroem", 50, 3, kernel="rbf",
                                             kernel_params=RBF, n_samples=len(circles))
    pipeline.fit(circles)
    np.testing.assert_allclose(values, pipeline[-1].singular_values_ ** 2, rtol=1e-10)
    np.testing.assert_allclose(values, (scores**2).sum(axis=0), rtol=1e-8)


@pytest.mark.parametrize(("method", "sizes"), [("nystroem", (10, 40, 160)),
                                               ("rff", (20, 200, 2000))])
def test_error_decreases_as_m_or_D_grows(circles, exact, method, sizes):
    results = approx.sweep(circles, exact, method, sizes, kernel="rbf", kernel_params=RBF)
    errors = [r.max_relative_error for r in results]
    angles = [r.largest_angle_degrees for r in results]
    residuals = [r.procrustes_error for r in results]
    for series in (errors, angles, residuals):
        assert all(a > b for a, b in zip(series, series[1:], strict=False)), series
    assert errors[-1] < 0.06 and angles[-1] < 5


@pytest.mark.parametrize("kernel", [k for k in KERNELS if KERNELS[k].positive_definite])
def test_nystroem_takes_every_positive_definite_kernel_of_the_app(kernel):
    X = np.random.default_rng(0).normal(size=(80, 4))
    params = {"gamma": 0.3, "degree": 2, "coef0": 1.0}
    used = {p: params[p] for p in KERNELS[kernel].params}
    exact = approx.exact_kpca(X, 3, kernel=kernel, kernel_params=used)
    result = approx.approximate_and_compare(X, exact, "nystroem", 80, kernel=kernel,
                                            kernel_params=used)
    assert result.max_relative_error < 1e-6, kernel


def test_random_fourier_features_are_rbf_only():
    assert approx.supports("nystroem", "sigmoid") and approx.supports("rff", "rbf")
    assert [k for k in KERNELS if approx.supports("rff", k)] == ["rbf"]
    with pytest.raises(ValueError, match="RBF"):
        approx.approximation_pipeline("rff", 50, 2, kernel="poly",
                                      kernel_params={"gamma": 1, "degree": 2, "coef0": 1})


def test_sizes_outside_k_to_n_are_refused(circles):
    with pytest.raises(ValueError, match="between"):
        approx.approximate_kpca(circles, "nystroem", 301, 3, kernel="rbf", kernel_params=RBF)
    with pytest.raises(ValueError, match="between"):
        approx.approximate_kpca(circles, "rff", 2, 3, kernel="rbf", kernel_params=RBF)
    assert approx.usable_sizes((2, 10, 100, 1000), 3, 300) == [10, 100]


def test_compare_undoes_any_rotation(exact):
    """Scores rotated by an orthogonal matrix align back exactly; angles are zero."""
    rotation = ortho_group.rvs(3, random_state=0)
    errors, angles, aligned, residual = approx.compare(
        exact, exact.eigenvalues, exact.projection @ rotation)
    assert np.nanmax(errors) == 0
    assert np.degrees(angles).max() < 1e-6
    assert residual < 1e-12
    np.testing.assert_allclose(aligned, exact.projection, atol=1e-10)


def test_a_zero_eigenvalue_has_no_relative_error():
    X = np.random.default_rng(1).normal(size=(50, 2))  # linear kernel: rank 2
    exact = approx.exact_kpca(X, 3, kernel="linear", kernel_params={})
    result = approx.approximate_and_compare(X, exact, "nystroem", 50, kernel="linear",
                                            kernel_params={})
    assert np.isnan(result.relative_errors[2]) and result.max_relative_error < 1e-8
    assert result.angles.shape == (2,)


@pytest.mark.parametrize(("method", "size"), [("nystroem", 200), ("nystroem", 800),
                                              ("rff", 300), ("rff", 1500)])
def test_memory_model_matches_tracemalloc(method, size):
    X = np.random.default_rng(3).normal(size=(1000, 16))
    k = 5
    tracemalloc.start()
    try:
        approx.approximate_kpca(X, method, size, k, kernel="rbf", kernel_params={"gamma": 0.1})
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    model = approx.approximation_bytes(method, 1000, 16, size, k)
    assert abs(model - peak) <= 0.2 * peak, (model, peak)
