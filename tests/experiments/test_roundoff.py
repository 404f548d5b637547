"""Tolerances that follow the problem (experiments/roundoff.py): bounds that hold, groups of
repeated eigenvalues, and comparisons that forgive what two correct computations may differ
by (a sign, a rotation within a repeated eigenvalue) and nothing else."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import special_ortho_group

from experiments import roundoff
from kpca_core import KERNELS, compute_kernel

PARAMS = {"rbf": {"gamma": 0.7}, "sigmoid": {"gamma": 0.1, "coef0": -0.5}, "linear": {},
          "poly": {"gamma": 0.5, "degree": 3, "coef0": -1.5}, "laplacian": {"gamma": 0.3},
          "cosine": {}}


def test_every_kernel_of_the_app_has_a_bound():
    assert set(PARAMS) == set(KERNELS)


@pytest.mark.parametrize("kernel", list(PARAMS))
def test_the_kernel_bound_bounds_every_entry(kernel):
    X = np.random.default_rng(3).normal(size=(60, 4)) * [1, 3, 0.2, 5]
    K = compute_kernel(X, kernel=kernel, **PARAMS[kernel])
    bound = roundoff.kernel_bound(X, kernel, PARAMS[kernel])
    assert np.abs(K).max() <= bound * (1 + 1e-12)  # cosine's 1 rounds to 1 + 4e-16
    if kernel in ("linear", "poly"):  # reached on the diagonal by the largest ‖x‖
        assert bound < 10 * np.abs(K).max()


def test_the_polynomial_bound_takes_the_default_gamma_as_the_kernel_does():
    X = np.random.default_rng(4).normal(size=(30, 4)) * 3
    K = compute_kernel(X, kernel="poly", degree=3, coef0=1.0)  # γ = 1/4
    bound = roundoff.kernel_bound(X, "poly", {"gamma": None, "degree": 3, "coef0": 1.0})
    assert np.abs(K).max() <= bound < 10 * np.abs(K).max()


def test_rounding_tolerance_keeps_its_floor_and_grows_with_conditioning():
    rounding = roundoff.kernel_rounding(400, 1.0)
    assert rounding == pytest.approx(400 * 400 * np.finfo(float).eps)
    assert roundoff.tolerance(1e-8, rounding, 1.0) == 1e-8  # well conditioned: the floor
    assert roundoff.tolerance(1e-8, rounding, 1e-6) == pytest.approx(100 * rounding / 1e-6)
    assert roundoff.tolerance(1e-8, rounding, 0.0) == np.inf


def test_groups_join_coinciding_eigenvalues_only():
    values = np.array([5.0, 5.0 * (1 + 1e-9), 3.0, 1.0, 1.0, 1.0, 0.5])
    groups = [list(g) for g in roundoff.eigenvalue_groups(values)]
    assert groups == [[0, 1], [2], [3, 4, 5], [6]]
    assert roundoff.group_end(values, 1) == 2  # component 2 shares component 1's value
    assert roundoff.group_end(values, 3) == 3
    assert roundoff.group_end(values, 4) == 6


def coordinates(rng, spread):
    """n × k principal coordinates with these variances (orthogonal columns)."""
    Q, _ = np.linalg.qr(rng.normal(size=(50, len(spread))))
    return Q * np.sqrt(spread)


def test_a_rotation_within_a_repeated_eigenvalue_is_forgiven_and_nothing_else():
    rng = np.random.default_rng(0)
    eigenvalues = np.array([4.0, 4.0, 1.0])
    A = coordinates(rng, eigenvalues)
    B = A.copy()
    B[:, :2] = A[:, :2] @ special_ortho_group.rvs(2, random_state=1)  # another basis
    B[:, 2] *= -1  # and a sign
    assert roundoff.aligned_difference(A, B, eigenvalues) < 1e-12
    # Component by component the two disagree: the old check saw a false failure.
    assert np.abs(np.abs(A[:, :2]) - np.abs(B[:, :2])).max() > 0.1
    # A rotation between *different* eigenvalues is a real error, and so is a wrong value.
    distinct = np.array([4.0, 2.0, 1.0])
    C = coordinates(rng, distinct)
    D = C.copy()
    D[:, :2] = C[:, :2] @ special_ortho_group.rvs(2, random_state=2)
    assert roundoff.aligned_difference(C, D, distinct) > 0.1
    wrong = B.copy()
    wrong[7, 0] += 1e-6
    assert roundoff.aligned_difference(A, wrong, eigenvalues) > 5e-7
