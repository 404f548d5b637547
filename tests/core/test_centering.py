import numpy as np
import pytest
from sklearn.preprocessing import KernelCenterer

from kpca_core import (
    KernelCentering,
    center_kernel,
    center_kernel_textbook,
    center_test_kernel,
    compute_kernel,
)


@pytest.fixture
def K(X):
    return compute_kernel(X, kernel="rbf", gamma=0.5)


def test_rows_and_columns_of_centred_kernel_sum_to_zero(K):
    Kc = center_kernel(K)
    np.testing.assert_allclose(Kc.sum(axis=0), 0, atol=1e-12)
    np.testing.assert_allclose(Kc.sum(axis=1), 0, atol=1e-12)


def test_textbook_centring_equals_efficient_centring(K):
    np.testing.assert_allclose(center_kernel_textbook(K), center_kernel(K), atol=1e-12, rtol=0)


def test_centring_matches_sklearn_kernel_centerer(K):
    np.testing.assert_allclose(center_kernel(K), KernelCenterer().fit_transform(K), atol=1e-13)


def test_linear_kernel_centring_equals_centring_the_data(X):
    # For k(x, y) = x.y the feature map is the identity: centring K must equal
    # building K from centred data.
    Xc = X - X.mean(axis=0)
    np.testing.assert_allclose(center_kernel(X @ X.T), Xc @ Xc.T, atol=1e-12)


def test_test_kernel_is_centred_with_training_statistics(X, X_new):
    # Explicit feature map phi = identity (linear kernel): the centred test kernel
    # is <x_new - mean_train, x_i - mean_train>.
    centering = KernelCentering.fit(X @ X.T)
    K_test = center_test_kernel(X_new @ X.T, centering)
    mean = X.mean(axis=0)
    np.testing.assert_allclose(K_test, (X_new - mean) @ (X - mean).T, atol=1e-12)
    sk = KernelCenterer().fit(X @ X.T).transform(X_new @ X.T)
    np.testing.assert_allclose(K_test, sk, atol=1e-12)


def test_centring_the_test_kernel_with_its_own_means_is_wrong(X, X_new):
    # The mistake in reference 002: centring K_test with its own row/column means
    # gives a different (wrong) matrix than centring with the training statistics.
    K_test = X_new @ X.T
    right = center_test_kernel(K_test, KernelCentering.fit(X @ X.T))
    wrong = K_test - K_test.mean(axis=0) - K_test.mean(axis=1)[:, None] + K_test.mean()
    assert np.abs(wrong - right).max() > 0.1


def test_in_place_centring_overwrites_and_copy_does_not(K):
    original = K.copy()
    Kc = center_kernel(K, copy=True)
    np.testing.assert_array_equal(K, original)
    same = center_kernel(K, copy=False)
    assert same is K
    np.testing.assert_allclose(K, Kc)


def test_centring_rejects_non_square_and_read_only(K):
    with pytest.raises(ValueError, match="square kernel matrix"):
        center_kernel(K[:, :-1])
    K.flags.writeable = False
    with pytest.raises(ValueError, match="writeable"):
        center_kernel(K, copy=False)


def test_test_kernel_with_wrong_column_count_is_refused(K):
    with pytest.raises(ValueError, match="one column per training point"):
        center_test_kernel(K[:3, :-1], KernelCentering.fit(K))


def test_non_finite_kernel_is_refused_with_a_fix(K):
    K[3, 5] = np.inf
    with pytest.raises(ValueError, match="NaN or infinite values"):
        center_kernel(K)


def test_given_centering_statistics_give_the_same_result(K):
    np.testing.assert_array_equal(center_kernel(K, centering=KernelCentering.fit(K)),
                                  center_kernel(K))


# -- issue 22, item 1: K~ exactly symmetric, also when it nearly vanishes ---------------

KERNEL_CASES = [
    ("linear", {}),
    ("poly", {"gamma": 0.3, "degree": 3, "coef0": 1.0}),
    ("rbf", {"gamma": 0.3}),
    ("rbf", {"gamma": 1e-6}),  # K ~ all ones
    ("sigmoid", {"gamma": 0.3, "coef0": 0.0}),  # the refused case on iris
    ("laplacian", {"gamma": 0.3}),
    ("cosine", {}),
]


@pytest.fixture(scope="module")
def iris_X():
    import datasets

    return datasets.load("iris").X  # the app's iris: raw centimetres, not standardised


@pytest.mark.parametrize(("kernel", "params"), KERNEL_CASES)
def test_kernel_and_centred_kernel_are_exactly_symmetric(kernel, params, iris_X):
    K = compute_kernel(iris_X, kernel=kernel, **params)
    np.testing.assert_array_equal(K, K.T)
    Kc = center_kernel(K)
    np.testing.assert_array_equal(Kc, Kc.T)
    in_place = center_kernel(K.copy(), copy=False)
    np.testing.assert_array_equal(in_place, Kc)  # both paths: the same numbers
    # ... and the same matrix as scikit-learn's KernelCenterer, to rounding of K.
    np.testing.assert_allclose(Kc, KernelCenterer().fit_transform(K), rtol=0,
                               atol=1e-14 * np.abs(K).max())


def test_saturated_sigmoid_on_iris_centres_to_a_nearly_vanishing_symmetric_matrix(iris_X):
    # tanh(0.3 xᵀy) ≈ 1 for every pair of iris flowers: K ≈ all ones, K~ ≈ 1e-7.
    K = compute_kernel(iris_X, kernel="sigmoid", gamma=0.3, coef0=0.0)
    Kc = center_kernel(K)
    assert 1e-8 < np.abs(Kc).max() < 1e-6
    np.testing.assert_array_equal(Kc, Kc.T)
    np.testing.assert_allclose(Kc.sum(axis=0), 0, atol=len(K) * 1e-14)  # n rounding errors


def test_asymmetry_of_the_input_is_passed_on_not_hidden(K):
    tilted = K.copy()
    tilted[0, 1] += 1e-3
    Kc = center_kernel(tilted)
    np.testing.assert_allclose(Kc - Kc.T, tilted - tilted.T, atol=1e-15)


def test_centring_allocates_at_most_the_result(rng):
    import tracemalloc

    n = 600
    K = compute_kernel(rng.normal(size=(n, 3)), kernel="rbf", gamma=0.5)
    matrix_bytes = K.nbytes
    tracemalloc.start()
    center_kernel(K)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.reset_peak()
    center_kernel(K, copy=False)
    _, peak_in_place = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    assert peak < 1.1 * matrix_bytes  # the result, plus O(n) and one row block
    assert peak_in_place < 0.05 * matrix_bytes  # O(n): one row at a time
