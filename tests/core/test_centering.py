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
