"""KernelPCA as a drop-in for scikit-learn's: the gaps found in review (issue 7)."""

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.linalg import ArpackNoConvergence
from sklearn.decomposition import KernelPCA as SklearnKernelPCA

from kpca_core import KernelPCA, compute_kernel

from .conftest import match_signs


def assert_same_up_to_sign(ours, theirs, atol=1e-8):
    np.testing.assert_allclose(ours, match_signs(ours, theirs), atol=atol, rtol=0)


# -- 1. never write into the caller's array -----------------------------------------

def test_transform_of_a_precomputed_kernel_leaves_it_unchanged(X, X_new):
    K = compute_kernel(X, kernel="rbf", gamma=0.3)
    K_new = compute_kernel(X_new, X, kernel="rbf", gamma=0.3)
    original = K_new.copy()
    kpca = KernelPCA(n_components=3, kernel="precomputed").fit(K)
    first, second = kpca.transform(K_new), kpca.transform(K_new)
    np.testing.assert_array_equal(K_new, original)
    np.testing.assert_array_equal(first, second)
    theirs = SklearnKernelPCA(n_components=3, kernel="precomputed").fit(K)
    assert_same_up_to_sign(first, theirs.transform(original))


def test_precomputed_fit_with_copy_x_false_leaves_the_callers_kernel_alone(X):
    # scikit-learn centres the caller's matrix in place here; we never write into
    # it: X_fit_ is then a reference to the caller's (uncentred) matrix.
    K = compute_kernel(X, kernel="rbf", gamma=0.3)
    original = K.copy()
    ours = KernelPCA(n_components=3, kernel="precomputed", copy_X=False).fit(K)
    np.testing.assert_array_equal(K, original)
    assert ours.X_fit_ is K
    theirs = SklearnKernelPCA(n_components=3, kernel="precomputed").fit(original)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-10)


@pytest.mark.parametrize("copy_X", [True, False])
def test_precomputed_identity_kernel_gives_every_requested_component(copy_X):
    # K = I (a huge RBF gamma): LAPACK's index-range solver returns too few pairs of
    # the repeated eigenvalue; the fit must recover whether or not K may be overwritten.
    K = np.eye(100)
    kpca = KernelPCA(n_components=3, kernel="precomputed", eigen_solver="dense",
                     copy_X=copy_X).fit(K)
    np.testing.assert_allclose(kpca.eigenvalues_, [1, 1, 1], atol=1e-12)
    np.testing.assert_array_equal(K, np.eye(100))


@pytest.mark.parametrize("kernel", ["rbf", "precomputed"])
def test_read_only_inputs_are_accepted_and_untouched(kernel, X, X_new):
    # Datasets hand out read-only arrays: any write would raise.
    train = compute_kernel(X, kernel="rbf") if kernel == "precomputed" else X.copy()
    test = compute_kernel(X_new, X, kernel="rbf") if kernel == "precomputed" else X_new.copy()
    train.flags.writeable = False
    test.flags.writeable = False
    for copy_X in [True, False]:
        kpca = KernelPCA(n_components=2, kernel=kernel, copy_X=copy_X)
        kpca.fit_transform(train)
        assert np.all(np.isfinite(kpca.transform(test)))


# -- 7. asymmetric precomputed kernels ----------------------------------------------

@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_asymmetric_precomputed_kernel_is_symmetrised_for_every_solver(solver, rng):
    # Every solver decomposes the same matrix, (K + K^T) / 2; LAPACK alone used to
    # read one triangle and ARPACK the whole matrix.
    X = rng.normal(size=(250, 3))
    K = compute_kernel(X, kernel="rbf", gamma=0.5)
    noise = 1e-12 * rng.normal(size=K.shape)
    K_tilted = K + noise
    params = dict(n_components=4, kernel="precomputed", eigen_solver=solver, random_state=0,
                  iterated_power=30)
    symmetric = KernelPCA(**params).fit(K_tilted.T / 2 + K_tilted / 2)
    tilted = KernelPCA(**params).fit(K_tilted)
    np.testing.assert_allclose(tilted.eigenvalues_, symmetric.eigenvalues_, rtol=1e-12)
    assert_same_up_to_sign(tilted.eigenvectors_, symmetric.eigenvectors_, atol=1e-9)
    # Beyond rounding the matrix is not a kernel: the same answer, with a warning.
    K_bad = K.copy()
    K_bad[0, 1] += 0.1
    with pytest.warns(UserWarning, match=r"not symmetric: max \|K - K\^T\| = 0.1"):
        bad = KernelPCA(**params).fit(K_bad)
    np.testing.assert_allclose(
        bad.eigenvalues_, KernelPCA(**params).fit((K_bad + K_bad.T) / 2).eigenvalues_,
        rtol=1e-12)


# -- 8. sparse input ----------------------------------------------------------------

@pytest.mark.parametrize("fmt", ["csr", "csc"])
@pytest.mark.parametrize("kernel", ["linear", "rbf", "poly", "cosine"])
def test_sparse_input_like_sklearn(fmt, kernel, rng):
    dense = rng.normal(size=(60, 8)) * (rng.uniform(size=(60, 8)) < 0.3)
    dense_new = rng.normal(size=(10, 8)) * (rng.uniform(size=(10, 8)) < 0.3)
    to_sparse = sparse.csr_matrix if fmt == "csr" else sparse.csc_matrix
    params = dict(n_components=3, kernel=kernel, gamma=0.2, eigen_solver="dense")
    ours = KernelPCA(**params).fit(to_sparse(dense))
    theirs = SklearnKernelPCA(**params).fit(to_sparse(dense))
    assert sparse.issparse(ours.X_fit_)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-10)
    assert_same_up_to_sign(ours.transform(to_sparse(dense_new)),
                           theirs.transform(to_sparse(dense_new)))
    assert_same_up_to_sign(ours.transform(dense_new),
                           KernelPCA(**params).fit(dense).transform(dense_new))


def test_sparse_input_and_inverse_transform_raise_what_sklearn_raises(rng):
    X = sparse.csr_matrix(rng.normal(size=(30, 4)))
    message = "Inverse transform not implemented for sparse matrices!"
    for estimator in [KernelPCA, SklearnKernelPCA]:
        with pytest.raises(NotImplementedError, match=message):
            estimator(n_components=2, kernel="rbf", fit_inverse_transform=True).fit(X)
    kpca = KernelPCA(n_components=2, kernel="rbf", preimage="kwok_tsang").fit(X)
    with pytest.raises(NotImplementedError, match=message):
        kpca.inverse_transform(kpca.transform(X))
    # A sparse precomputed kernel is refused, as scikit-learn's centerer refuses it.
    K = sparse.csr_matrix(compute_kernel(X.toarray(), kernel="rbf"))
    for estimator in [KernelPCA, SklearnKernelPCA]:
        with pytest.raises(TypeError, match="dense data is required"):
            estimator(n_components=2, kernel="precomputed").fit(K)


# -- 10. ARPACK's iteration limit ---------------------------------------------------

def test_arpack_max_iter_raises_like_sklearn(X):
    params = dict(n_components=3, kernel="rbf", eigen_solver="arpack", max_iter=1,
                  random_state=0)
    for estimator in [KernelPCA, SklearnKernelPCA]:
        with pytest.raises(ArpackNoConvergence):
            estimator(**params).fit(X)


# -- 11. random_state=None ----------------------------------------------------------

def test_random_state_none_draws_from_numpys_global_generator(X):
    params = dict(n_components=3, kernel="rbf", eigen_solver="randomized", iterated_power=0)
    np.random.seed(5)  # noqa: NPY002 (the global generator is the point)
    first = KernelPCA(**params).fit_transform(X)
    np.random.seed(5)  # noqa: NPY002
    second = KernelPCA(**params).fit_transform(X)
    np.testing.assert_array_equal(first, second)


# -- 12. dtypes, shapes and parameters as scikit-learn checks them -------------------

@pytest.mark.parametrize("preimage", ["learned", "fixed_point", "kwok_tsang"])
def test_float32_in_float32_out(preimage, X, X_new):
    kpca = KernelPCA(n_components=3, kernel="rbf", preimage=preimage,
                     fit_inverse_transform=preimage == "learned")
    Z = kpca.fit_transform(X.astype(np.float32))
    assert Z.dtype == np.float32
    Z_new = kpca.transform(X_new.astype(np.float32))
    assert Z_new.dtype == np.float32
    assert kpca.inverse_transform(Z_new).dtype == np.float32
    reference = KernelPCA(n_components=3, kernel="rbf").fit(X.astype(np.float32))
    assert reference.transform(X_new).dtype == np.float32  # the fitted dtype decides
    assert KernelPCA(n_components=3, kernel="rbf").fit_transform(X).dtype == np.float64


def test_one_dimensional_input_gets_sklearns_reshape_message(X):
    kpca = KernelPCA(n_components=2, kernel="rbf").fit(X)
    for call in [lambda: KernelPCA().fit(X[:, 0]), lambda: kpca.transform(X[0])]:
        with pytest.raises(ValueError, match="Reshape your data"):
            call()


def test_complex_input_is_rejected(X):
    with pytest.raises(ValueError, match="Complex data not supported"):
        KernelPCA(n_components=2).fit(X + 1j)


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"kernel": "linear", "gamma": -1.0}, "gamma must be >= 0"),
        ({"kernel": "linear", "degree": -1}, "degree must be >= 0"),
        ({"kernel": "rbf", "coef0": float("nan")}, "coef0 must be a finite number"),
    ],
)
def test_unused_parameters_are_still_validated_as_sklearn_does(params, message, X):
    with pytest.raises(ValueError):
        SklearnKernelPCA(n_components=2, **params).fit(X)
    with pytest.raises(ValueError, match=message):
        KernelPCA(n_components=2, **params).fit(X)
    # Values scikit-learn accepts for an unused parameter are accepted here too.
    KernelPCA(n_components=2, kernel="linear", gamma=0.0, degree=0.5).fit(X)
