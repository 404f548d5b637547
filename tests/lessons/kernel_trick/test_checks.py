"""The kernel trick's live checks pass where the maths holds (repeated eigenvalues, γ = 1e-6)
and fail on a wrong value (experiments.roundoff sets their tolerances)."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import pytest

import datasets
from experiments.feature_maps import explicit_pca
from lessons.kernel_trick.view import components_check, variances_check

DATA = {
    "noise-free circles (repeated eigenvalues)": lambda: datasets.load(
        "circles", n=20, noise=0.0).X,
    "moons": lambda: datasets.load("moons", n=200).X,
}


@pytest.mark.parametrize("gamma", [1e-6, 1.0])
@pytest.mark.parametrize("data", list(DATA))
def test_the_checks_pass_where_the_maths_holds_and_fail_on_a_wrong_value(data, gamma):
    result = explicit_pca(DATA[data](), gamma=gamma, coef0=1.0, n_components=2)
    check = components_check(result)
    assert check.passed, check
    assert variances_check(result).passed, variances_check(result)
    scale = float(np.abs(result.kpca).max())
    # At γ = 1e-6, K̃ is known to ~1e-10 of its size (K ≈ 1 + tiny): the tolerance grows,
    # but an error of 0.1 % of the picture (1e-6 at the defaults) still fails.
    wrong = (1e-3 if gamma < 1e-3 else 1e-6) * scale
    assert check.tolerance < wrong
    assert not components_check(replace(result, max_difference=wrong)).passed
    variances = result.pca_variances.copy()
    variances[0] *= 1 + 1e-5
    assert not variances_check(replace(result, pca_variances=variances)).passed


def test_noise_free_circles_compare_a_repeated_eigenvalue_as_one_subspace():
    result = explicit_pca(DATA["noise-free circles (repeated eigenvalues)"](), gamma=1.0,
                          coef0=1.0, n_components=2)
    # The rings' symmetry pairs the eigenvalues: component 2's partner is compared too.
    assert result.compared > 2 or np.isclose(*result.eigenvalues, rtol=1e-6)
    assert "rotation" in components_check(result).label
    assert result.max_difference < 1e-10  # was 0.05 ✗ (and 4.92 ✗ in the report)
