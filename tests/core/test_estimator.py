import warnings

import numpy as np
import pytest
from sklearn.datasets import make_circles
from sklearn.decomposition import PCA
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.exceptions import NotFittedError
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import GridSearchCV
from sklearn.pipeline import Pipeline

from kpca_core import IndefiniteKernelWarning, KernelPCA, SolverFallbackWarning, compute_kernel

from .conftest import match_signs

SHARED_KERNELS = ["linear", "poly", "rbf", "sigmoid", "cosine"]


def assert_same_up_to_sign(ours, theirs, atol=1e-8):
    np.testing.assert_allclose(ours, match_signs(ours, theirs), atol=atol, rtol=0)


@pytest.mark.parametrize("kernel", SHARED_KERNELS)
@pytest.mark.parametrize("solver", ["dense", "arpack", "auto"])
def test_agrees_with_sklearn(kernel, solver, X, X_new):
    params = dict(n_components=4, kernel=kernel, gamma=0.2, degree=3, coef0=0.5,
                  eigen_solver=solver, random_state=0, fit_inverse_transform=True)
    ours, theirs = KernelPCA(**params), SklearnKernelPCA(**params)
    Z_ours, Z_theirs = ours.fit_transform(X), theirs.fit_transform(X)
    assert_same_up_to_sign(Z_ours, Z_theirs)
    np.testing.assert_allclose(ours.eigenvalues_, theirs.eigenvalues_, rtol=1e-10)
    assert_same_up_to_sign(ours.transform(X_new), theirs.transform(X_new))
    # The learned pre-image map is fitted on the projections, whose signs agree.
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(X_new)),
                               theirs.inverse_transform(theirs.transform(X_new)), atol=1e-8)
    assert ours.gamma_ == theirs.gamma_
    assert ours.n_features_in_ == theirs.n_features_in_
    np.testing.assert_array_equal(ours.X_fit_, theirs.X_fit_)


@pytest.mark.parametrize("kernel", ["linear", "poly"])
def test_randomized_solver_agrees_with_sklearn_on_low_rank_kernels(kernel, rng):
    # Polynomial degree 2 on 2-D data has a feature space of dimension 6, so the
    # randomized range finder captures it exactly and both libraries must agree.
    X, X_new = rng.normal(size=(300, 2)), rng.normal(size=(20, 2))
    params = dict(n_components=3, kernel=kernel, degree=2, eigen_solver="randomized",
                  random_state=0, fit_inverse_transform=True)
    ours, theirs = KernelPCA(**params), SklearnKernelPCA(**params)
    assert_same_up_to_sign(ours.fit_transform(X), theirs.fit_transform(X))
    assert_same_up_to_sign(ours.transform(X_new), theirs.transform(X_new))
    # Each map was learned on its own projections, so each gets its own; the
    # reconstructions in input space have no sign ambiguity.
    np.testing.assert_allclose(ours.inverse_transform(ours.transform(X_new)),
                               theirs.inverse_transform(theirs.transform(X_new)), atol=1e-8)


def test_default_n_components_keeps_positive_eigenvalues_like_sklearn(X):
    ours = KernelPCA(kernel="rbf").fit(X)
    theirs = SklearnKernelPCA(kernel="rbf").fit(X)
    assert ours.eigenvalues_.shape == theirs.eigenvalues_.shape
    assert np.all(ours.eigenvalues_ > 0)
    assert ours.explained_variance_ratio_.sum() == pytest.approx(1.0, abs=1e-10)


def test_linear_kernel_equals_pca(X, X_new):
    kpca = KernelPCA(n_components=3, kernel="linear").fit(X)
    pca = PCA(n_components=3).fit(X)
    assert_same_up_to_sign(kpca.transform(X_new), pca.transform(X_new), atol=1e-10)
    # Eigenvalues of K~ are n times the variances PCA reports (with 1/(n-1)).
    np.testing.assert_allclose(kpca.eigenvalues_ / (len(X) - 1), pca.explained_variance_)
    np.testing.assert_allclose(kpca.explained_variance_ratio_, pca.explained_variance_ratio_)


def test_degree_two_kernel_equals_pca_on_the_explicit_feature_map(rng):
    # (x.y)^2 = <phi(x), phi(y)> with phi(x) = (x1^2, sqrt(2) x1 x2, x2^2).
    X = rng.normal(size=(80, 2))
    phi = np.column_stack([X[:, 0] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1] ** 2])
    kpca = KernelPCA(n_components=3, kernel="poly", degree=2, gamma=1.0, coef0=0.0)
    assert_same_up_to_sign(kpca.fit_transform(X), PCA(n_components=3).fit_transform(phi),
                           atol=1e-10)


def test_precomputed_kernel_equals_computed(X, X_new):
    computed = KernelPCA(n_components=3, kernel="rbf", gamma=0.3).fit(X)
    K = compute_kernel(X, kernel="rbf", gamma=0.3)
    precomputed = KernelPCA(n_components=3, kernel="precomputed").fit(K)
    np.testing.assert_allclose(precomputed.eigenvalues_, computed.eigenvalues_)
    K_new = compute_kernel(X_new, X, kernel="rbf", gamma=0.3)
    np.testing.assert_allclose(precomputed.transform(K_new), computed.transform(X_new),
                               atol=1e-12)


def test_precomputed_kernel_is_not_modified_when_copy_x(X):
    K = compute_kernel(X, kernel="rbf")
    original = K.copy()
    KernelPCA(n_components=2, kernel="precomputed").fit(K)
    np.testing.assert_array_equal(K, original)


def test_transform_of_training_points_equals_fit_transform(X):
    kpca = KernelPCA(n_components=5, kernel="rbf", gamma=0.5)
    np.testing.assert_allclose(kpca.fit_transform(X), kpca.transform(X), atol=1e-10)


def test_laplacian_kernel_by_name_matches_sklearn_callable_free_path(X, X_new):
    from sklearn.metrics.pairwise import laplacian_kernel

    ours = KernelPCA(n_components=3, kernel="laplacian", gamma=0.4).fit(X)
    theirs = SklearnKernelPCA(n_components=3, kernel="precomputed").fit(
        laplacian_kernel(X, gamma=0.4))
    assert_same_up_to_sign(ours.transform(X_new),
                           theirs.transform(laplacian_kernel(X_new, X, gamma=0.4)))


def test_callable_kernel_matches_named_kernel(X):
    def rbf(x, y, gamma):
        return np.exp(-gamma * np.sum((x - y) ** 2))

    named = KernelPCA(n_components=2, kernel="rbf", gamma=0.7).fit_transform(X)
    by_callable = KernelPCA(n_components=2, kernel=rbf,
                            kernel_params={"gamma": 0.7}).fit_transform(X)
    np.testing.assert_allclose(by_callable, named, atol=1e-12)


def test_nested_circles_become_linearly_separable():
    X, y = make_circles(n_samples=400, factor=0.3, noise=0.05, random_state=0)
    Z = KernelPCA(n_components=2, kernel="rbf", gamma=10).fit_transform(X)
    linear = LogisticRegression().fit(X, y).score(X, y)
    kernel = LogisticRegression().fit(Z, y).score(Z, y)
    assert linear < 0.7 and kernel == 1.0


def test_works_in_pipeline_and_grid_search_like_sklearn():
    X, y = make_circles(n_samples=200, factor=0.3, noise=0.05, random_state=1)
    grid = {"kpca__gamma": [0.01, 1.0, 10.0]}
    scores = {}
    for name, estimator in [("ours", KernelPCA), ("sklearn", SklearnKernelPCA)]:
        pipe = Pipeline([("kpca", estimator(n_components=2, kernel="rbf")),
                         ("clf", LogisticRegression())])
        search = GridSearchCV(pipe, grid, cv=3).fit(X, y)
        scores[name] = search.cv_results_["mean_test_score"]
        assert search.best_params_ == {"kpca__gamma": 10.0}
    np.testing.assert_allclose(scores["ours"], scores["sklearn"], atol=1e-12)
    pipe = Pipeline([("kpca", KernelPCA(n_components=2, kernel="rbf")),
                     ("clf", LogisticRegression())]).fit(X, y)
    assert list(pipe.named_steps["kpca"].get_feature_names_out()) == [
        "kernelpca0", "kernelpca1"]


def test_indefinite_kernel_raises_by_default_as_scikit_learn_does(rng):
    X = rng.normal(size=(100, 2))
    params = dict(n_components=100, kernel="sigmoid", gamma=2.0, coef0=-1.0,
                  eigen_solver="dense")
    with pytest.raises(ValueError, match="significant negative eigenvalues"):
        SklearnKernelPCA(**params).fit(X)
    with pytest.raises(ValueError, match="significant negative eigenvalues"):
        KernelPCA(**params).fit(X)


def test_indefinite_kernel_warns_and_reports_negative_eigenvalues_when_asked(rng):
    X = rng.normal(size=(100, 2))
    kpca = KernelPCA(n_components=100, kernel="sigmoid", gamma=2.0, coef0=-1.0,
                     eigen_solver="dense", negative_eigenvalues="warn")
    with pytest.warns(IndefiniteKernelWarning, match="not positive semi-definite"):
        Z = kpca.fit_transform(X)
    negative = kpca.eigenvalues_ < 0
    assert negative.any()
    assert np.all(Z[:, negative] == 0)
    assert np.all(np.isfinite(kpca.transform(X)))


@pytest.mark.parametrize(
    ("params", "message"),
    [
        ({"kernel": "rbf", "gamma": 0.0}, "gamma must be > 0"),
        ({"kernel": "rbf", "gamma": -2}, "gamma must be > 0"),
        ({"kernel": "poly", "degree": -1}, "degree must be a whole number >= 1"),
        ({"kernel": "poly", "degree": 1.5}, "degree must be a whole number >= 1"),
        ({"n_components": 0}, "n_components must be None or a whole number >= 1"),
        ({"n_components": 61}, r"n_components must be in \[1, 60\]"),
        ({"kernel": "rbf", "eigen_solver": "svd"}, "eigen_solver must be one of"),
        ({"kernel": "poly", "preimage": "kwok_tsang"}, "RBF kernel only"),
        ({"kernel": "nope"}, "kernel must be one of"),
        ({"alpha": -1.0}, "alpha must be >= 0"),
    ],
)
def test_bad_parameters_raise_value_errors_naming_them(params, message, X):
    with pytest.raises(ValueError, match=message):
        KernelPCA(**params).fit(X)


@pytest.mark.parametrize(
    ("data", "message"),
    [
        (np.array([[1.0, np.nan], [2.0, 3.0], [0.0, 1.0]]), "Input X contains NaN"),
        (np.array([[1.0, np.inf], [2.0, 3.0], [0.0, 1.0]]), "Input X contains infinity"),
        (np.arange(5.0), "Reshape your data"),
        (np.empty((0, 2)), r"0 sample\(s\)"),
        (np.empty((3, 0)), r"0 feature\(s\)"),
        (np.array([[1 + 1j, 2.0], [0.0, 1.0]]), "Complex data not supported"),
    ],
)
def test_bad_data_raises_what_sklearn_raises(data, message):
    # The estimator validates its input with scikit-learn's own validate_data, so
    # a user who swaps the import gets the same messages.
    with pytest.raises(ValueError, match=message):
        SklearnKernelPCA(n_components=1).fit(data)
    with pytest.raises(ValueError, match=message):
        KernelPCA(n_components=1).fit(data)


def test_test_matrix_with_wrong_feature_count(X):
    kpca = KernelPCA(n_components=2, kernel="rbf").fit(X)
    with pytest.raises(ValueError, match="X has 3 features, but KernelPCA is expecting 4"):
        kpca.transform(X[:, :3])


def test_non_square_precomputed_kernel_is_refused(X):
    with pytest.raises(ValueError, match="square kernel matrix"):
        KernelPCA(kernel="precomputed").fit(X)


def test_transform_before_fit_raises_not_fitted(X):
    with pytest.raises(NotFittedError):
        KernelPCA().transform(X)


def test_learned_inverse_needs_fit_inverse_transform(X):
    kpca = KernelPCA(n_components=2, kernel="rbf").fit(X)
    with pytest.raises(NotFittedError, match="fit_inverse_transform"):
        kpca.inverse_transform(kpca.transform(X))


def test_fit_does_not_modify_input_and_copy_x_false_shares_it(X):
    original = X.copy()
    kpca = KernelPCA(n_components=2, kernel="rbf", copy_X=False).fit(X)
    np.testing.assert_array_equal(X, original)
    assert kpca.X_fit_ is X


@pytest.mark.parametrize("solver", ["dense", "arpack", "auto"])
def test_kernel_close_to_identity_still_gives_n_components(solver, rng):
    # gamma so large that K is the identity to machine precision.
    X = rng.normal(size=(250, 3))
    kpca = KernelPCA(n_components=4, kernel="rbf", gamma=1e6, eigen_solver=solver,
                     random_state=0)
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        Z = kpca.fit_transform(X)
    # ARPACK may give up on this degenerate spectrum; LAPACK then answers, never silently.
    # (Whether it gives up depends on rounding, e.g. BLAS's thread count; after a
    # degenerate-spectrum retry ARPACK may also succeed, with the warning already given.)
    fell_back = any(issubclass(w.category, SolverFallbackWarning) for w in caught)
    # ("auto" picks ARPACK at n = 250, k = 4.)
    if solver != "dense" and kpca.eigen_solver_ == "dense":
        assert fell_back
    assert Z.shape == (250, 4)
    np.testing.assert_allclose(kpca.eigenvalues_, np.ones(4), atol=1e-12)


def test_precomputed_x_fit_holds_the_centred_kernel_like_sklearn(X):
    K = compute_kernel(X, kernel="rbf", gamma=0.3)
    ours = KernelPCA(n_components=3, kernel="precomputed", eigen_solver="dense").fit(K)
    theirs = SklearnKernelPCA(n_components=3, kernel="precomputed").fit(K)
    np.testing.assert_allclose(ours.X_fit_, theirs.X_fit_, atol=1e-12)


def test_overflowing_polynomial_kernel_gets_a_clear_message(X):
    with pytest.raises(ValueError, match="lower gamma or the degree"):
        KernelPCA(n_components=2, kernel="poly", gamma=1e30, degree=20).fit(X)
