"""Each toy data set has the geometry its description promises, and the suggested
kernel shows what the description says to look for."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import spearmanr
from sklearn.datasets import make_swiss_roll
from sklearn.decomposition import PCA, KernelPCA
from sklearn.linear_model import LogisticRegression
from sklearn.manifold import Isomap
from sklearn.model_selection import cross_val_score

import datasets
from datasets.synthetic import FOUR_CLASSES_RADII, SCHOLKOPF_CENTRES


def linear_accuracy(Z: np.ndarray, y: np.ndarray) -> float:
    """Cross-validated accuracy of a linear classifier: are the classes linearly separable?"""
    return cross_val_score(LogisticRegression(max_iter=5000), Z, y, cv=5).mean()


def kpca_scores(name: str, n_components: int, **options) -> tuple[np.ndarray, np.ndarray]:
    data = datasets.load(name, **options)
    kernel = datasets.available()[name].suggested_kernel
    return KernelPCA(n_components, **kernel).fit_transform(data.X), data.y


def test_circles_without_noise_lie_on_radius_one_and_factor():
    data = datasets.load("circles", noise=0.0, factor=0.4)
    radius = np.hypot(*data.X.T)
    np.testing.assert_allclose(radius[data.y == 0], 1.0)
    np.testing.assert_allclose(radius[data.y == 1], 0.4)
    assert np.bincount(data.y).tolist() == [200, 200]


def test_circles_the_first_rbf_component_separates_what_linear_pca_cannot():
    data = datasets.load("circles")
    assert linear_accuracy(PCA(1).fit_transform(data.X), data.y) < 0.7
    Z, y = kpca_scores("circles", 1)
    assert linear_accuracy(Z, y) > 0.95


def test_moons_without_noise_are_two_unit_half_circles():
    data = datasets.load("moons", noise=0.0)
    upper, lower = data.X[data.y == 0], data.X[data.y == 1]
    np.testing.assert_allclose(np.hypot(*upper.T), 1.0)
    np.testing.assert_allclose(np.hypot(lower[:, 0] - 1, lower[:, 1] - 0.5), 1.0)
    assert (upper[:, 1] >= 0).all() and (lower[:, 1] <= 0.5).all()


def test_swiss_roll_segments_follow_the_distance_from_the_roll_axis():
    data = datasets.load("swiss_roll", noise=0.0)
    # Without noise, x1 = t cos t and x3 = t sin t, so the distance from the axis is t.
    t = np.hypot(data.X[:, 0], data.X[:, 2])
    assert data.X.shape == (600, 3)
    for k in range(len(data.target_names) - 1):
        assert t[data.y == k].max() <= t[data.y == k + 1].min()


@pytest.mark.parametrize("gamma", [0.001, 0.005, 0.02, 0.1])
def test_swiss_roll_is_not_unrolled_by_rbf_kpca_but_is_by_isomap(gamma):
    data = datasets.load("swiss_roll", noise=0.0)
    t = np.hypot(data.X[:, 0], data.X[:, 2])  # position along the sheet

    def best_rank_correlation(Z):
        return max(abs(spearmanr(z, t)[0]) for z in Z.T)

    kpca = KernelPCA(2, kernel="rbf", gamma=gamma).fit_transform(data.X)
    isomap = Isomap(n_neighbors=10, n_components=2).fit_transform(data.X)
    assert best_rank_correlation(kpca) < 0.5
    assert best_rank_correlation(isomap) > 0.8


@pytest.mark.parametrize("noise", [0.0, 0.3])
def test_the_swiss_roll_knows_where_each_point_lies_on_the_unrolled_sheet(noise):
    data = datasets.load("swiss_roll", noise=noise, n=300, seed=5)
    _, t = make_swiss_roll(n_samples=300, noise=noise, random_state=5)
    # The distance along the spiral (t cos t, t sin t) from t = 1.5π, by quadrature.
    grid = np.linspace(1.5 * np.pi, 4.5 * np.pi, 200_001)
    speed = np.sqrt(1 + grid**2)
    length = np.concatenate([[0], np.cumsum((speed[1:] + speed[:-1]) / 2 * np.diff(grid))])
    np.testing.assert_allclose(data.unrolled[:, 0], np.interp(t, grid, length), atol=1e-6)
    np.testing.assert_array_equal(data.unrolled[:, 1], data.X[:, 1])
    assert not data.unrolled.flags.writeable


def test_s_curve_is_three_unit_half_circles_with_its_distance_along_the_sheet():
    data = datasets.load("s_curve", noise=0.0)
    assert data.X.shape == (600, 3) and data.unrolled.shape == (600, 2)
    s = data.unrolled[:, 0]
    t = s - 1.5 * np.pi
    np.testing.assert_allclose(data.X[:, 0], np.sin(t), atol=1e-12)
    np.testing.assert_allclose(data.X[:, 2], np.sign(t) * (np.cos(t) - 1), atol=1e-12)
    # Unit speed: neighbours along the curve are as far apart on the sheet as in space.
    order = np.argsort(s)
    steps = np.linalg.norm(np.diff(data.X[order][:, [0, 2]], axis=0), axis=1)
    np.testing.assert_allclose(steps, np.diff(s[order]), rtol=1e-3, atol=1e-6)
    for k in range(len(data.target_names) - 1):
        assert s[data.y == k].max() <= s[data.y == k + 1].min()


def test_only_the_rolled_sheets_know_their_unrolled_coordinates():
    rolled = {name for name in datasets.available() if name != "usps"
              and datasets.load(name).unrolled is not None}
    assert rolled == {"swiss_roll", "s_curve"}


def test_s_curve_is_not_flattened_by_rbf_kpca_but_is_by_isomap():
    data = datasets.load("s_curve")
    s = data.unrolled[:, 0]
    kpca = KernelPCA(2, **datasets.available()["s_curve"].suggested_kernel).fit_transform(data.X)
    isomap = Isomap(n_neighbors=6, n_components=2).fit_transform(data.X)
    assert abs(spearmanr(kpca[:, 0], s)[0]) < 0.95
    assert abs(spearmanr(isomap[:, 0], s)[0]) > 0.99


def test_moons_rbf_helps_with_a_suitable_gamma_and_hurts_with_a_huge_one():
    data = datasets.load("moons")
    linear = linear_accuracy(PCA(2).fit_transform(data.X), data.y)
    Z, y = kpca_scores("moons", 2)
    huge = KernelPCA(2, kernel="rbf", gamma=200.0).fit_transform(data.X)
    assert linear_accuracy(Z, y) > linear + 0.05
    assert linear_accuracy(huge, y) < linear - 0.1


def test_scholkopf_toy_matches_the_paper():
    data = datasets.load("scholkopf_toy", n=3000, seed=1)
    assert np.bincount(data.y).tolist() == [1000, 1000, 1000]
    for k, centre in enumerate(SCHOLKOPF_CENTRES):
        cluster = data.X[data.y == k]
        np.testing.assert_allclose(cluster.mean(axis=0), centre, atol=0.01)
        np.testing.assert_allclose(cluster.std(axis=0), 0.1, rtol=0.1)
    assert datasets.available()["scholkopf_toy"].suggested_kernel == {
        "kernel": "rbf", "gamma": 10.0,
    }


@pytest.mark.parametrize(("n", "sizes"), [(90, [30, 30, 30]), (91, [31, 30, 30]), (3, [1, 1, 1])])
def test_scholkopf_toy_splits_n_evenly(n, sizes):
    assert np.bincount(datasets.load("scholkopf_toy", n=n).y).tolist() == sizes


def test_scholkopf_toy_first_two_rbf_components_separate_the_clusters():
    Z, y = kpca_scores("scholkopf_toy", 2)
    assert linear_accuracy(Z, y) == 1.0


def test_parabola_without_noise_is_y_equals_x_squared():
    data = datasets.load("parabola", noise=0.0, n=500)
    x, y = data.X.T
    assert data.y is None and data.target_names == ()
    assert x.min() >= -1 and x.max() <= 1
    np.testing.assert_allclose(y, x**2)


def test_parabola_noise_has_the_requested_standard_deviation():
    x, y = datasets.load("parabola", noise=0.2, n=5000, seed=2).X.T
    assert abs(np.std(y - x**2) - 0.2) < 0.01


def test_four_classes_are_rings_of_the_stated_radii():
    data = datasets.load("four_classes", noise=0.0, n=401)
    radius = np.hypot(*data.X.T)
    np.testing.assert_allclose(radius, np.asarray(FOUR_CLASSES_RADII)[data.y])
    assert np.bincount(data.y).tolist() == [101, 100, 100, 100]


def test_four_classes_need_the_kernel():
    data = datasets.load("four_classes")
    # Four balanced classes: 0.25 is chance.
    assert linear_accuracy(PCA(2).fit_transform(data.X), data.y) < 0.4
    Z, y = kpca_scores("four_classes", 3)
    assert linear_accuracy(Z, y) > 0.85


def test_iris_is_fishers_150_flowers():
    data = datasets.load("iris")
    assert data.X.shape == (150, 4)
    assert np.bincount(data.y).tolist() == [50, 50, 50]
    assert data.target_names == ("setosa", "versicolor", "virginica")
    assert data.feature_names[0] == "sepal length (cm)"
    assert "Fisher" in data.citation
