"""Every check of the step-by-step lesson holds for every kernel (and fails when it should)."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import datasets
from kpca_core import KernelPCA, compute_kernel
from lessons.how_it_works.experiment import kernel_value, new_points, step_by_step
from tests.support.lessons import KERNEL_PARAMS


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_literal_kernel_formula_equals_compute_kernel(kernel):
    X = np.random.default_rng(1).normal(size=(12, 3))
    params = KERNEL_PARAMS[kernel]
    K = compute_kernel(X, kernel=kernel, **params)
    literal = np.array([[kernel_value(x, y, kernel, params) for y in X] for x in X])
    np.testing.assert_allclose(literal, K, rtol=1e-12, atol=1e-12)


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_every_check_holds(kernel):
    X = datasets.load("moons", n=80).X
    s = step_by_step(X, kernel=kernel, kernel_params=KERNEL_PARAMS[kernel], n_components=3)
    scale = s.kernel_scale
    assert s.pair_gap < 1e-10 * scale and s.symmetry_gap < 1e-12 * scale
    assert s.row_sum < 1e-9 * s.n * scale and s.column_sum < 1e-9 * s.n * scale
    assert s.textbook_gap < 1e-10 * scale
    assert s.residual < 1e-8 and s.paper_residual < 1e-8
    assert s.axis_length_gap < 1e-8 and s.alpha_norm_gap < 1e-8
    np.testing.assert_allclose(s.alpha_sq_norm[s.positive] * s.mu[s.positive], 1.0, rtol=1e-8)
    assert s.train_gap < 1e-8 * s.projection_scale
    assert s.estimator_train_gap < 1e-7 * s.projection_scale
    assert s.estimator_new_gap < 1e-7 * s.projection_scale
    assert set(s.times) == {"kernel", "centre", "eigen", "project", "linear_pca"}
    reference = KernelPCA(3, kernel=kernel, **KERNEL_PARAMS[kernel], negative_eigenvalues="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # sigmoid: indefinite, warned about by design
        reference.fit(X)
    np.testing.assert_allclose(s.mu[: len(reference.eigenvalues_)], reference.eigenvalues_,
                               atol=1e-8 * max(1.0, abs(s.mu[0])))


def test_small_n_keeps_the_kernel_table_and_new_points_are_new():
    X = datasets.load("scholkopf_toy", n=9).X
    s = step_by_step(X, kernel="rbf", kernel_params={"gamma": 10.0}, n_components=3)
    np.testing.assert_array_equal(s.kernel_table, compute_kernel(X, kernel="rbf", gamma=10.0))
    fresh = new_points(X)
    distances = np.linalg.norm(fresh[:, None, :] - X[None, :, :], axis=2)
    assert distances.min() > 0


def test_rounding_noise_eigenvalues_get_no_axis():
    # Linear kernel on 2-D data: K̃ has rank 2, so the third eigenvalue is rounding noise.
    X = datasets.load("circles", n=60).X
    s = step_by_step(X, kernel="linear", kernel_params={}, n_components=3)
    assert s.positive.tolist() == [True, True, False]
    assert s.alpha_sq_norm[2] == 0.0
    assert np.abs(s.train_projection[:, 2]).max() == 0.0
    assert s.axis_length_gap < 1e-8
