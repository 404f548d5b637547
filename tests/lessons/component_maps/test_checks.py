"""Component maps' check (map at a data point = its projection) at the defaults and at
γ = 1e-6, where components with μ within rounding of 0 are left out, and its failure on a
wrong map value."""

from __future__ import annotations

from dataclasses import replace

import pytest

import datasets
from lessons.component_maps.experiment import component_maps
from lessons.component_maps.view import map_agreement


@pytest.mark.parametrize(("kernel", "params"), [
    ("rbf", {"gamma": 5.0}), ("rbf", {"gamma": 1e-6}), ("sigmoid", {"gamma": 1e-6, "coef0": 1.0}),
    ("poly", {"gamma": 1e-6, "degree": 10, "coef0": 1.0}),
])
def test_the_map_check_passes_where_the_maths_holds_and_fails_on_a_wrong_value(kernel, params):
    X = datasets.load("circles", n=120).X
    result = component_maps(X, kernel=kernel, kernel_params=params, n_components=4, side=20)
    check = map_agreement(result)
    assert check.passed, check
    if kernel == "rbf" and params["gamma"] == 1e-6:  # failed: 5e-8 against 1.6e-11
        assert "components 3, 4: μ within rounding of 0" in check.label
    # Near all ones at γ = 1e-6, K̃ is known to ~1e-10 of its size: the tolerance grows,
    # but a map value off by 0.1 % of the picture (1e-6 at the defaults) still fails.
    # Each component has its own tolerance: a tiny μ does not loosen component 1's.
    error = (1e-3 if params["gamma"] < 1e-3 else 1e-6) * result.scale
    wrong = result.at_data.copy()
    wrong[3, 0] += error  # component 1 is always checked
    failed = map_agreement(replace(result, at_data=wrong))
    assert not failed.passed and failed.tolerance < error, failed
