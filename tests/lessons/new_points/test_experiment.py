"""New points: training-statistics centring, the sum of terms, the held-out split."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import KernelPCA as SkKernelPCA

import datasets
from lessons.new_points.experiment import contributions, fit_new_points, nearest_rows, split_indices
from shell.registry import NEW_POINTS_HELD_OUT


@pytest.fixture(scope="module")
def moons():
    data = datasets.load("moons", n=200, seed=0)
    train, held = split_indices(len(data.X), data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    fit = fit_new_points(data.X[train], kernel="rbf", kernel_params={"gamma": 2.0},
                         n_components=3)
    return data, train, held, fit


def test_split_is_disjoint_stratified_and_complete(moons):
    data, train, held, _ = moons
    assert len(np.intersect1d(train, held)) == 0
    assert len(train) + len(held) == len(data.X) and len(held) == 50
    assert np.bincount(data.y[held]).tolist() == [25, 25]


def test_split_without_labels():
    train, held = split_indices(40, None, heldout_fraction=NEW_POINTS_HELD_OUT)
    assert len(train) == 30 and len(held) == 10


def test_sum_of_terms_is_kernelpca_transform_and_sklearns(moons):
    data, train, held, fit = moons
    x = data.X[held[0]]
    parts = contributions(fit, x)
    np.testing.assert_allclose(parts.coordinates, parts.transform, atol=1e-12)
    assert parts.max_difference < 1e-12
    # scikit-learn agrees up to each component's sign
    sk = SkKernelPCA(3, kernel="rbf", gamma=2.0).fit(data.X[train]).transform(x[None, :])[0]
    np.testing.assert_allclose(np.abs(parts.coordinates), np.abs(sk), atol=1e-8)
    # the terms: alpha_i^k times the centred kernel, one per training point
    np.testing.assert_allclose(parts.terms[:, 1], fit.alphas[:, 1] * parts.centered)


def test_training_point_projects_onto_its_fitted_coordinates(moons):
    data, train, _, fit = moons
    parts = contributions(fit, data.X[train[7]])
    np.testing.assert_allclose(parts.coordinates, fit.train_projection[7], atol=1e-10)


def test_centring_with_the_new_points_own_means_is_wrong(moons):
    data, _, held, fit = moons
    right = fit.model.transform(data.X[held])
    wrong = fit.project_with_own_centering(data.X[held])
    assert np.max(np.abs(wrong - right)) > 0.01 * np.max(np.abs(right))
    # and with its own means, a single point always lands at the origin
    np.testing.assert_allclose(fit.project_with_own_centering(data.X[held[:1]]), 0, atol=1e-12)


def test_top_contributors_are_sorted_by_magnitude(moons):
    data, _, held, fit = moons
    parts = contributions(fit, data.X[held[3]])
    top = parts.top(0, 10)
    sizes = np.abs(parts.terms[top, 0])
    assert np.all(np.diff(sizes) <= 0) and sizes[0] == np.abs(parts.terms[:, 0]).max()


def test_sigmoid_fit_reports_the_indefinite_kernel():
    data = datasets.load("moons", n=120)
    fit = fit_new_points(data.X, kernel="sigmoid", kernel_params={"gamma": 2.0, "coef0": -1.0},
                         n_components=119)  # all of them: the negative ones come last
    assert fit.warning is not None and "negative" in fit.warning
    parts = contributions(fit, data.X[0])
    assert parts.max_difference < 1e-10


def test_nearest_rows():
    Z = np.array([[0.0, 0.0], [1.0, 0.0], [5.0, 5.0]])
    assert nearest_rows(Z, np.array([0.9, 0.1]), 2).tolist() == [1, 0]
