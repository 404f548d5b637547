"""Component maps: the map is the projection, the grid is bounded, the paper's claims hold."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from kpca_core import KernelPCA
from lessons.component_maps.experiment import (
    CELL_BUDGET,
    MAX_SIDE,
    cluster_roles,
    component_maps,
    degree_maps,
    fig4_claims,
    grid_side,
    plane_grid,
)


def test_grid_side_is_bounded_and_shrinks_with_n():
    assert grid_side(10) == MAX_SIDE
    assert grid_side(1000) ** 2 * 1000 <= CELL_BUDGET
    assert grid_side(1000) < grid_side(500) < MAX_SIDE
    assert grid_side(10**6) == 40


def test_grid_covers_the_data_with_a_margin():
    X = np.array([[0.0, -1.0], [2.0, 1.0]])
    xs, ys = plane_grid(X, 11)
    assert xs[0] < 0 and xs[-1] > 2 and ys[0] < -1 and ys[-1] > 1
    assert len(xs) == len(ys) == 11


@pytest.mark.parametrize(
    ("kernel", "params"),
    [("rbf", {"gamma": 10.0}), ("poly", {"gamma": 1.0, "degree": 3, "coef0": 1.0}),
     ("laplacian", {"gamma": 2.0}), ("linear", {})],
)
def test_map_at_the_data_equals_kernelpca_projection(kernel, params):
    X = datasets.load("moons", n=80).X
    maps = component_maps(X, kernel=kernel, kernel_params=params, n_components=4, side=30)
    expected = KernelPCA(4, kernel=kernel, random_state=0, **params).fit_transform(X)
    assert maps.values.shape == (4, 30, 30)
    np.testing.assert_allclose(maps.at_data, expected, atol=1e-9 * np.abs(expected).max())
    assert maps.max_difference < 1e-9 * maps.scale


def test_grid_values_are_the_projection_of_the_grid_points():
    X = datasets.load("circles", n=60).X
    maps = component_maps(X, kernel="rbf", kernel_params={"gamma": 5.0}, n_components=3, side=7)
    model = KernelPCA(3, kernel="rbf", gamma=5.0, random_state=0).fit(X)
    j, i = 2, 5  # row j follows ys, column i follows xs
    point = np.array([[maps.xs[i], maps.ys[j]]])
    np.testing.assert_allclose(maps.values[:, j, i], model.transform(point)[0], atol=1e-12)


def test_sigmoid_components_with_negative_eigenvalues_map_to_zero():
    X = datasets.load("moons", n=60).X
    maps = component_maps(X, kernel="sigmoid", kernel_params={"gamma": 2.0, "coef0": -1.0},
                          n_components=59, side=10)
    negative = maps.fit.negative
    assert negative.any()
    assert np.all(maps.values[negative] == 0)
    assert maps.max_difference < 1e-9 * maps.scale


def test_rejects_points_not_in_the_plane():
    with pytest.raises(ValueError, match="2 columns"):
        component_maps(np.zeros((10, 3)), kernel="linear", kernel_params={}, n_components=2)


def test_fig4_first_two_separate_the_clusters_and_the_next_six_split_them():
    data = datasets.load("scholkopf_toy", n=90, seed=0)
    maps = component_maps(data.X, kernel="rbf", kernel_params={"gamma": 10.0}, n_components=8)
    roles = cluster_roles(maps.fit.projection, data.y)
    assert np.all(roles.between_share[:2] > 0.9)
    assert np.all(roles.between_share[2:] < 0.1)
    assert set().union(*roles.splits[2:5]) == {0, 1, 2}
    assert fig4_claims(roles, maps.fit.explained_ratio, 3) == {"separate": True, "split_each": True}


def test_fig4_claims_when_the_kernel_is_too_wide():
    # γ = 0.01: nearly linear. Components 1-2 are linear PCA's (which does separate
    # these clusters); the later ones carry almost nothing and must not be described.
    data = datasets.load("scholkopf_toy", n=90, seed=0)
    maps = component_maps(data.X, kernel="rbf", kernel_params={"gamma": 0.01}, n_components=8)
    roles = cluster_roles(maps.fit.projection, data.y)
    assert fig4_claims(roles, maps.fit.explained_ratio, 3) == {
        "separate": True, "split_each": False}


def test_fig4_claims_fail_when_the_kernel_is_too_narrow():
    # γ = 1000: every point is nearly its own cluster; nothing separates the clusters.
    data = datasets.load("scholkopf_toy", n=90, seed=0)
    maps = component_maps(data.X, kernel="rbf", kernel_params={"gamma": 1000.0},
                          n_components=8)
    roles = cluster_roles(maps.fit.projection, data.y)
    assert fig4_claims(roles, maps.fit.explained_ratio, 3) == {
        "separate": False, "split_each": False}


def test_cluster_roles_on_a_hand_made_example():
    y = np.array([0, 0, 1, 1])
    Z = np.array([[-1.0, -1.0], [-1.0, 1.0], [1.0, -1.0], [1.0, 1.0]])
    roles = cluster_roles(Z, y)
    np.testing.assert_allclose(roles.between_share, [1.0, 0.0])
    np.testing.assert_allclose(roles.within_share, [[0.0, 0.0], [0.5, 0.5]])
    assert roles.splits == ((), (0, 1))


def test_fig3_degree_maps_have_as_many_components_as_monomials():
    # (x·y)^d on 2-D inputs: the feature space holds the d + 1 monomials of degree d.
    X = datasets.load("parabola", n=100, seed=0).X
    maps = degree_maps(X, gamma=1.0, coef0=0.0, n_components=3, side=20)
    positive = [int(np.sum(m.fit.eigenvalues > 0)) for m in maps]
    assert positive == [2, 3, 3, 3]
    assert np.all(maps[0].values[2] == 0)  # degree 1: no third component
    for m in maps:
        assert m.max_difference < 1e-8 * m.scale
