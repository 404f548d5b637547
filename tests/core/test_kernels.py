import numpy as np
import pytest
from sklearn.metrics.pairwise import pairwise_kernels

from kpca_core import KERNELS, compute_kernel, default_gamma, median_heuristic_gamma

SKLEARN_NAME = {"linear": "linear", "poly": "poly", "rbf": "rbf", "sigmoid": "sigmoid",
                "laplacian": "laplacian", "cosine": "cosine"}


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("with_Y", [False, True])
def test_named_kernels_match_sklearn(kernel, with_Y, X, X_new):
    params = {"gamma": 0.3, "degree": 3, "coef0": 0.5}
    Y = X_new if with_Y else None
    ours = compute_kernel(X, Y, kernel=kernel, **params)
    theirs = pairwise_kernels(X, Y, metric=SKLEARN_NAME[kernel], filter_params=True, **params)
    np.testing.assert_allclose(ours, theirs, rtol=1e-12, atol=1e-12)


def test_gamma_defaults_to_one_over_n_features(X):
    np.testing.assert_allclose(
        compute_kernel(X, kernel="rbf"), compute_kernel(X, kernel="rbf", gamma=1 / X.shape[1])
    )
    assert default_gamma(X) == 1 / X.shape[1]


def test_callable_kernel_is_evaluated_on_pairs_of_rows(X, X_new):
    def shifted_dot(x, y, shift):
        return x @ y + shift

    K = compute_kernel(X, X_new, kernel=shifted_dot, kernel_params={"shift": 2.0})
    np.testing.assert_allclose(K, X @ X_new.T + 2.0)
    K_sym = compute_kernel(X, kernel=shifted_dot, kernel_params={"shift": 2.0})
    np.testing.assert_allclose(K_sym, X @ X.T + 2.0)


def test_rbf_diagonal_is_exactly_one_and_entries_in_unit_interval(X):
    K = compute_kernel(X * 1e3, kernel="rbf", gamma=1e-6)
    assert np.all(np.diag(K) == 1.0)
    assert K.min() >= 0 and K.max() <= 1


def test_poly_kernel_keeps_sign_for_odd_degree():
    X = np.array([[1.0], [-1.0]])
    K = compute_kernel(X, kernel="poly", gamma=1.0, degree=3, coef0=0.0)
    np.testing.assert_array_equal(K, [[1.0, -1.0], [-1.0, 1.0]])


def test_median_heuristic_gives_typical_kernel_value_exp_minus_one(rng):
    X = rng.normal(size=(200, 3))
    gamma = median_heuristic_gamma(X)
    K = compute_kernel(X, kernel="rbf", gamma=gamma)
    off_diagonal = K[np.triu_indices(len(X), k=1)]
    assert np.median(off_diagonal) == pytest.approx(np.exp(-1), rel=1e-6)


def test_median_heuristic_subsamples_large_inputs_deterministically(rng):
    X = rng.normal(size=(3000, 2))
    assert median_heuristic_gamma(X, max_samples=500) == median_heuristic_gamma(
        X, max_samples=500
    )


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kernel": "rbf", "gamma": 0}, "gamma must be > 0"),
        ({"kernel": "rbf", "gamma": -1.0}, "gamma must be > 0"),
        ({"kernel": "laplacian", "gamma": float("nan")}, "gamma must be a finite number"),
        ({"kernel": "poly", "degree": 0}, "degree must be a whole number >= 1"),
        ({"kernel": "poly", "degree": -2}, "degree must be a whole number >= 1"),
        ({"kernel": "poly", "degree": 2.5}, "degree must be a whole number >= 1"),
        ({"kernel": "sigmoid", "coef0": float("inf")}, "coef0 must be a finite number"),
        ({"kernel": "gaussian"}, "kernel must be one of"),
    ],
)
def test_bad_kernel_parameters_name_the_parameter(kwargs, message, X):
    with pytest.raises(ValueError, match=message):
        compute_kernel(X, **kwargs)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (np.array([1.0, 2.0, 3.0]), "must be 2-D"),
        (np.empty((0, 3)), "is empty"),
        (np.array([[1.0, np.nan], [0.0, 1.0]]), "NaN or infinite values in 1 row"),
        (np.array([[1.0, np.inf], [0.0, 1.0]]), "NaN or infinite"),
        ([["a", "b"]], "must be a numeric matrix"),
    ],
)
def test_bad_data_is_refused_with_a_clear_message(data, message):
    with pytest.raises(ValueError, match=message):
        compute_kernel(data, kernel="linear")


def test_feature_count_mismatch_is_refused(X):
    with pytest.raises(ValueError, match="Y has 3 features but X has 4"):
        compute_kernel(X, X[:, :3], kernel="rbf")


def test_unused_parameters_are_not_validated(X):
    # A linear kernel has no gamma; a stale slider value must not break it.
    np.testing.assert_allclose(compute_kernel(X, kernel="linear", gamma=-1), X @ X.T)


def test_every_kernel_documents_formula_and_parameters():
    for name, info in KERNELS.items():
        assert info.name == name
        assert info.formula.startswith("k(x, y)")
        assert set(info.params) <= {"gamma", "degree", "coef0"}
    assert not KERNELS["sigmoid"].positive_definite


@pytest.mark.filterwarnings("ignore:overflow encountered:RuntimeWarning:sklearn")
@pytest.mark.parametrize("gamma", [1e308, np.finfo(float).max])
def test_huge_rbf_gamma_gives_the_identity_like_sklearn(gamma, X, X_new):
    # Issue 7, item 6: scaling x.y by gamma first overflowed to inf - inf = NaN.
    from sklearn.metrics.pairwise import rbf_kernel

    Xd = np.vstack([X, X[:2]])  # duplicated rows: distance 0 off the diagonal
    np.testing.assert_array_equal(compute_kernel(Xd, kernel="rbf", gamma=gamma),
                                  rbf_kernel(Xd, gamma=gamma))
    np.testing.assert_array_equal(compute_kernel(X, kernel="rbf", gamma=gamma), np.eye(len(X)))
    np.testing.assert_array_equal(compute_kernel(X_new, X, kernel="rbf", gamma=gamma),
                                  np.zeros((len(X_new), len(X))))
    assert np.array_equal(compute_kernel(X, kernel="laplacian", gamma=gamma), np.eye(len(X)))


@pytest.mark.parametrize("kernel", list(KERNELS))
@pytest.mark.parametrize("fmt", ["csr", "csc"])
def test_sparse_input_gives_the_dense_kernel(kernel, fmt, X, X_new):
    from scipy import sparse

    params = {"gamma": 0.3, "degree": 3, "coef0": 0.5}
    to_sparse = sparse.csr_matrix if fmt == "csr" else sparse.csc_matrix
    K = compute_kernel(to_sparse(X), to_sparse(X_new), kernel=kernel, **params)
    assert isinstance(K, np.ndarray) and K.dtype == np.float64
    np.testing.assert_allclose(K, compute_kernel(X, X_new, kernel=kernel, **params),
                               rtol=1e-12, atol=1e-12)


def test_polynomial_kernel_with_c0_zero_only_rescales_with_gamma(X):
    # Issue 22, item 4: (γ xᵀy)ᵈ = γᵈ (xᵀy)ᵈ, so every γ gives the same kernel PCA picture.
    from kpca_core import KernelPCA

    K1 = compute_kernel(X, kernel="poly", gamma=0.1, degree=3, coef0=0.0)
    K2 = compute_kernel(X, kernel="poly", gamma=10.0, degree=3, coef0=0.0)
    np.testing.assert_allclose(K2, 100.0**3 * K1, rtol=1e-12)
    Z1 = KernelPCA(2, kernel="poly", gamma=0.1, degree=3, coef0=0.0).fit_transform(X)
    Z2 = KernelPCA(2, kernel="poly", gamma=10.0, degree=3, coef0=0.0).fit_transform(X)
    np.testing.assert_allclose(Z2, 100.0**1.5 * Z1, rtol=1e-8, atol=1e-8 * np.abs(Z2).max())
    assert "exactly d when c₀ = 0" in KERNELS["poly"].note
