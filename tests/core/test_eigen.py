import os

import numpy as np
import pytest

from kpca_core import (
    center_kernel,
    choose_eigen_solver,
    clean_eigenvalues,
    compute_kernel,
    describe_spectrum,
    eigendecompose,
    explained_variance_ratio,
    flip_signs,
    kernel_spectrum,
    scale_eigenvectors,
)

from .conftest import match_signs


@pytest.fixture
def Kc(rng):
    X = rng.normal(size=(250, 3))
    return center_kernel(compute_kernel(X, kernel="rbf", gamma=0.5))


@pytest.mark.parametrize("solver", ["arpack", "randomized"])
def test_solvers_agree_with_dense(Kc, solver):
    dense = eigendecompose(Kc, 5, solver="dense")
    other = eigendecompose(Kc, 5, solver=solver, random_state=0, iterated_power=30)
    np.testing.assert_allclose(other.eigenvalues, dense.eigenvalues, rtol=1e-8)
    np.testing.assert_allclose(other.eigenvectors, dense.eigenvectors, atol=1e-8)
    assert other.solver == solver


def test_eigenpairs_are_sorted_descending_and_satisfy_the_eigen_equation(Kc):
    eig = eigendecompose(Kc, 8, solver="dense")
    assert np.all(np.diff(eig.eigenvalues) <= 0)
    np.testing.assert_allclose(Kc @ eig.eigenvectors, eig.eigenvectors * eig.eigenvalues,
                               atol=1e-10)
    np.testing.assert_allclose(eig.eigenvectors.T @ eig.eigenvectors, np.eye(8), atol=1e-12)


def test_all_eigenpairs_with_dense_equal_the_full_spectrum(Kc):
    eig = eigendecompose(Kc, Kc.shape[0], solver="auto")
    np.testing.assert_allclose(eig.eigenvalues, kernel_spectrum(Kc), atol=1e-10)


def test_signs_are_deterministic_largest_entry_positive(Kc):
    V = eigendecompose(Kc, 4, solver="dense").eigenvectors
    rows = np.argmax(np.abs(V), axis=0)
    assert np.all(V[rows, np.arange(4)] > 0)
    np.testing.assert_array_equal(flip_signs(-V), V)


def test_scaled_axes_have_unit_length_in_feature_space(Kc):
    eig = eigendecompose(Kc, 6, solver="dense")
    alphas = scale_eigenvectors(eig.eigenvectors, eig.eigenvalues)
    # ||V^k||^2 = alpha_k^T K~ alpha_k = 1 and the axes are orthogonal.
    np.testing.assert_allclose(alphas.T @ Kc @ alphas, np.eye(6), atol=1e-10)


def test_scaling_zeroes_null_and_negative_components():
    V = np.eye(3)
    alphas = scale_eigenvectors(V, np.array([4.0, 0.0, -1.0]))
    np.testing.assert_array_equal(alphas[:, 0], [0.5, 0, 0])
    assert not alphas[:, 1:].any()


def test_explained_variance_of_all_components_sums_to_one(Kc):
    eig = eigendecompose(Kc, Kc.shape[0])
    ratio = explained_variance_ratio(eig.eigenvalues, np.trace(Kc))
    assert ratio.sum() == pytest.approx(1.0, abs=1e-10)
    assert np.all(np.diff(ratio) <= 1e-15)


def test_sigmoid_kernel_reports_negative_eigenvalues(rng):
    X = rng.normal(size=(120, 2))
    Kc = center_kernel(compute_kernel(X, kernel="sigmoid", gamma=2.0, coef0=-1.0))
    report = describe_spectrum(kernel_spectrum(Kc))
    assert report.n_negative > 0
    assert not report.is_positive_semidefinite
    assert report.most_negative < 0 and 0 < report.negative_share < 1


def test_rbf_kernel_is_positive_semidefinite_up_to_rounding(Kc):
    report = describe_spectrum(kernel_spectrum(Kc))
    assert report.is_positive_semidefinite
    # Centring removes one direction: the constant vector is in the null space.
    assert report.n_zero >= 1


def test_clean_eigenvalues_separates_rounding_noise_from_negative_values():
    cleaned, negative = clean_eigenvalues(np.array([10.0, 1e-13, -1e-12, -1.0]))
    np.testing.assert_array_equal(cleaned, [10.0, 0.0, 0.0, -1.0])
    np.testing.assert_array_equal(negative, [False, False, False, True])


def test_randomized_solver_is_exact_on_a_low_rank_kernel(rng):
    X = rng.normal(size=(400, 3))
    Kc = center_kernel(compute_kernel(X, kernel="linear"))  # rank 3
    dense = eigendecompose(Kc, 3, solver="dense")
    rand = eigendecompose(Kc, 3, solver="randomized", random_state=1)
    np.testing.assert_allclose(rand.eigenvalues, dense.eigenvalues, rtol=1e-10)
    np.testing.assert_allclose(rand.eigenvectors, match_signs(rand.eigenvectors,
                                                              dense.eigenvectors), atol=1e-9)


def test_auto_rule_prefers_arpack_only_for_few_components_of_large_matrices():
    assert choose_eigen_solver(100, 2) == "dense"
    assert choose_eigen_solver(7291, 10) == "arpack"
    assert choose_eigen_solver(7291, 2000) == "dense"
    assert choose_eigen_solver(500, 499) == "dense"


def test_dense_solver_can_work_in_place_on_the_caller_matrix(Kc):
    expected = eigendecompose(Kc, 3, solver="dense")
    work = Kc.copy()
    got = eigendecompose(work, 3, solver="dense", overwrite=True)
    np.testing.assert_allclose(got.eigenvalues, expected.eigenvalues)
    assert not np.allclose(work, Kc)  # LAPACK used the caller's buffer


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"n_components": 0}, r"n_components must be in \[1, 250\]"),
        ({"n_components": 251}, r"n_components must be in \[1, 250\]"),
        ({"n_components": 2.5}, "n_components must be a whole number"),
        ({"n_components": 2, "solver": "lobpcg"}, "eigen_solver must be one of"),
        ({"n_components": 2, "solver": "randomized", "iterated_power": -1},
         "iterated_power must be"),
    ],
)
def test_bad_eigen_parameters(Kc, kwargs, message):
    with pytest.raises(ValueError, match=message):
        eigendecompose(Kc, **kwargs)


def test_projection_steps_agree_on_training_points(Kc):
    from kpca_core import project_new_points, project_training_points

    eig = eigendecompose(Kc, 4)
    np.testing.assert_allclose(
        project_new_points(Kc, eig.eigenvectors, eig.eigenvalues),
        project_training_points(eig.eigenvectors, eig.eigenvalues), atol=1e-10)


def test_repeated_leading_eigenvalue_still_gives_all_requested_pairs():
    # K = I (a huge RBF gamma) centres to I - 1/n: eigenvalue 1 repeated n - 1 times.
    # LAPACK's index-range solver returns too few pairs here; we must not.
    from kpca_core import DegenerateSpectrumError

    Kc = center_kernel(np.eye(100))
    for solver in ["dense", "arpack"]:
        eig = eigendecompose(Kc, 3, solver=solver, random_state=0)
        np.testing.assert_allclose(eig.eigenvalues, [1, 1, 1], atol=1e-12)
        np.testing.assert_allclose(Kc @ eig.eigenvectors, eig.eigenvectors, atol=1e-12)
        np.testing.assert_allclose(eig.eigenvectors.T @ eig.eigenvectors, np.eye(3),
                                   atol=1e-12)
    with pytest.raises(DegenerateSpectrumError, match="overwrite=False"):
        eigendecompose(Kc.copy(), 3, solver="dense", overwrite=True)


def test_arpack_failure_falls_back_to_the_exact_dense_solver_and_says_so(Kc, monkeypatch):
    # ARPACK gives up on some exactly repeated spectra (e.g. I - 1/n, depending on
    # rounding). It leaves the matrix untouched, so LAPACK answers instead, with a
    # warning, and the result says so.
    from scipy.sparse.linalg import ArpackError

    import kpca_core.eigen
    from kpca_core import SolverFallbackWarning

    def failing_eigsh(*args, **kwargs):
        raise ArpackError(3)

    expected = eigendecompose(Kc, 3, solver="dense")
    monkeypatch.setattr(kpca_core.eigen, "eigsh", failing_eigsh)
    with pytest.warns(SolverFallbackWarning, match="LAPACK"):
        got = eigendecompose(Kc, 3, solver="arpack", random_state=0)
    assert got.solver == "dense"
    np.testing.assert_allclose(got.eigenvalues, expected.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(got.eigenvectors, expected.eigenvectors, atol=1e-12)


def test_arpack_reaching_max_iter_raises_as_sklearn_does(Kc):
    # Issue 7, item 10: no silent switch to another solver when the budget is spent.
    from scipy.sparse.linalg import ArpackNoConvergence

    with pytest.raises(ArpackNoConvergence):
        eigendecompose(Kc, 5, solver="arpack", max_iter=1, random_state=0)


def test_auto_hands_over_to_lapack_when_arpack_spends_its_budget(Kc, monkeypatch):
    # Issue 23: nearly equal leading eigenvalues (K ≈ I) keep ARPACK iterating for minutes
    # and then fail. "auto" chose ARPACK for speed, so once ARPACK has spent about two dense
    # solves' work it hands over to LAPACK: the exact answer, with a warning, never a failure.
    from scipy.sparse.linalg import ArpackNoConvergence

    import kpca_core.eigen
    from kpca_core import SolverFallbackWarning
    from kpca_core.eigen import auto_arpack_budget

    assert choose_eigen_solver(250, 3) == "arpack"
    budgets = []

    def not_converging(*args, maxiter=None, **kwargs):
        budgets.append(maxiter)
        raise ArpackNoConvergence("no convergence", np.zeros(0), np.zeros((250, 0)))

    expected = eigendecompose(Kc, 3, solver="dense")
    monkeypatch.setattr(kpca_core.eigen, "eigsh", not_converging)
    with pytest.warns(SolverFallbackWarning, match="did not converge within"):
        got = eigendecompose(Kc, 3, random_state=0)
    assert budgets == [auto_arpack_budget(250, 3)]
    assert got.solver == "dense"
    np.testing.assert_allclose(got.eigenvalues, expected.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(got.eigenvectors, expected.eigenvectors, atol=1e-12)
    # ARPACK asked for by name, or a budget of the caller's, still raises (as scikit-learn).
    with pytest.raises(ArpackNoConvergence):
        eigendecompose(Kc, 3, solver="arpack", random_state=0)
    with pytest.raises(ArpackNoConvergence):
        eigendecompose(Kc, 3, max_iter=50, random_state=0)


def test_auto_arpack_budget_is_about_two_dense_solves_of_work():
    from kpca_core.eigen import AUTO_ARPACK_MIN_RESTARTS, auto_arpack_budget

    # n = 1,000, k = 20: ncv = 41, 21 products of 2 n² flops per restart, (4/3) n³ dense.
    assert auto_arpack_budget(1000, 20) == int(np.ceil(2 * (4 / 3) * 1000 / (2 * 21)))
    assert auto_arpack_budget(201, 4) == AUTO_ARPACK_MIN_RESTARTS
    assert auto_arpack_budget(7291, 100) > auto_arpack_budget(4000, 88)


def sigmoid_kernel_400(rng):
    # The review's example: sigmoid, gamma = 5, c0 = -1, 400 x 10 normal data.
    X = rng.normal(size=(400, 10))
    return center_kernel(compute_kernel(X, kernel="sigmoid", gamma=5.0, coef0=-1.0))


def test_randomized_solver_returns_the_leading_eigenpairs_of_an_indefinite_kernel(rng):
    # Issue 7, item 2: large negative eigenvalues must not be returned as "leading"
    # (the old solver returned 37 negative ones where all 60 leading are positive).
    Kc = sigmoid_kernel_400(rng)
    dense = eigendecompose(Kc, 60, solver="dense")
    assert dense.eigenvalues.min() > 0 and kernel_spectrum(Kc).min() < -dense.eigenvalues[-1]
    rand = eigendecompose(Kc, 60, solver="randomized", random_state=0)
    np.testing.assert_allclose(rand.eigenvalues, dense.eigenvalues, rtol=1e-4)
    residual = Kc @ rand.eigenvectors - rand.eigenvectors * rand.eigenvalues
    assert np.linalg.norm(residual, axis=0).max() < 1e-2 * dense.eigenvalues[0]


def test_randomized_solver_refuses_rather_than_guess(rng, monkeypatch):
    # With no room to enlarge its subspace it must raise, not return negative
    # Ritz values as the leading eigenpairs.
    import kpca_core.eigen

    monkeypatch.setattr(kpca_core.eigen, "RANDOMIZED_MAX_ENLARGEMENTS", 0)
    with pytest.raises(ValueError, match="randomized solver cannot find the 60 largest"):
        eigendecompose(sigmoid_kernel_400(rng), 60, solver="randomized", random_state=0)


def test_randomized_solver_is_as_accurate_as_sklearn_at_the_same_iterated_power(rng):
    # Issue 7, item 3: the same iterated_power must mean the same work (two products
    # with K per power iteration) and give at least scikit-learn's accuracy.
    from sklearn.datasets import make_circles
    from sklearn.decomposition import KernelPCA as SklearnKernelPCA

    X = make_circles(n_samples=600, factor=0.3, noise=0.1, random_state=0)[0]
    Kc = center_kernel(compute_kernel(X, kernel="rbf", gamma=2.0))
    exact = eigendecompose(Kc, 10, solver="dense").eigenvalues
    for power in [1, 2, 3]:
        ours = eigendecompose(Kc, 10, solver="randomized", iterated_power=power,
                              random_state=0).eigenvalues
        theirs = SklearnKernelPCA(10, kernel="rbf", gamma=2.0, eigen_solver="randomized",
                                  iterated_power=power, random_state=0).fit(X).eigenvalues_
        error_ours = np.abs(ours - exact).max() / exact[0]
        error_theirs = np.abs(theirs - exact).max() / exact[0]
        assert error_ours <= max(2 * error_theirs, 1e-13), (power, error_ours, error_theirs)


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("KPCA_USPS_PATH"), reason="needs KPCA_USPS_PATH")
def test_randomized_solver_on_usps_matches_sklearn_accuracy():
    # The review's measurement: USPS-2000, gamma = 1/256, k = 10 (4e-7 before, 1e-12
    # for scikit-learn).

    X = _usps(2000)
    Kc = center_kernel(compute_kernel(X, kernel="rbf", gamma=1 / 256))
    exact = eigendecompose(Kc, 10, solver="dense").eigenvalues
    rand = eigendecompose(Kc, 10, solver="randomized", random_state=0).eigenvalues
    assert np.abs(rand - exact).max() / exact[0] < 1e-11


def _usps(n):
    with np.load(os.environ["KPCA_USPS_PATH"]) as z:
        return z["X_train"][:n] / float(z["divisor"])


def test_random_state_none_uses_numpys_global_generator(Kc):
    # Issue 7, item 11: as sklearn.utils.check_random_state(None).
    for solver in ["arpack", "randomized"]:
        np.random.seed(3)  # noqa: NPY002 (the global generator is the point)
        first = eigendecompose(Kc, 4, solver=solver, iterated_power=1, random_state=None)
        np.random.seed(3)  # noqa: NPY002 (the global generator is the point)
        second = eigendecompose(Kc, 4, solver=solver, iterated_power=1, random_state=None)
        np.testing.assert_array_equal(first.eigenvectors, second.eigenvectors)
        seeded = eigendecompose(Kc, 4, solver=solver, iterated_power=1,
                                random_state=np.random.RandomState(3))
        np.testing.assert_array_equal(first.eigenvectors, seeded.eigenvectors)


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_asymmetric_matrix_is_refused_by_every_solver(Kc, solver):
    # Issue 7, item 7: LAPACK reads one triangle, ARPACK the whole matrix; a matrix
    # that is not symmetric would give solver-dependent answers, so it is refused.
    tilted = Kc.copy()
    tilted[0, 1] += 1e-3 * np.abs(Kc).max()
    with pytest.raises(ValueError, match=r"not symmetric.*\(K \+ K.T\) / 2"):
        eigendecompose(tilted, 3, solver=solver, random_state=0)
    # Rounding-level asymmetry is accepted and every solver answers alike.
    rounded = Kc.copy()
    rounded[0, 1] += 1e-14 * np.abs(Kc).max()
    dense = eigendecompose(Kc, 3, solver="dense")
    got = eigendecompose(rounded, 3, solver=solver, random_state=0, iterated_power=20)
    np.testing.assert_allclose(got.eigenvalues, dense.eigenvalues, rtol=1e-9)


def test_step_functions_keep_reporting_negative_eigenvalues(rng):
    # KernelPCA raises on them by default (issue 7, item 9); the steps the pages
    # show must still return and flag them.
    Kc = sigmoid_kernel_400(rng)
    eig = eigendecompose(Kc, 400, solver="dense")
    _, negative = clean_eigenvalues(eig.eigenvalues)
    assert negative.any() and eig.eigenvalues.min() < 0
    assert describe_spectrum(kernel_spectrum(Kc)).n_negative >= negative.sum()


# -- issue 22, item 1: the symmetry check is scale-aware --------------------------------


def _iris_sigmoid():
    import datasets

    return compute_kernel(datasets.load("iris").X, kernel="sigmoid", gamma=0.3, coef0=0.0)


@pytest.mark.parametrize("solver", ["dense", "arpack", "randomized"])
def test_nearly_vanishing_centred_kernel_is_decomposed(solver):
    # Iris + sigmoid γ = 0.3, c₀ = 0: K ≈ all ones, K~ ≈ 1e-7. Refused as "not symmetric"
    # before; centred by kpca_core, or by scikit-learn (asymmetric by ~1e-15, rounding
    # of K's entries of order 1), every solver now answers, and the answers agree.
    from sklearn.preprocessing import KernelCenterer

    K = _iris_sigmoid()
    reference = np.linalg.eigvalsh(center_kernel(K))[::-1][:3]
    assert 1e-9 < reference[0] < 1e-6
    for Kc in (center_kernel(K), KernelCenterer().fit_transform(K)):
        got = eigendecompose(Kc, 3, solver=solver, random_state=0, iterated_power=20)
        np.testing.assert_allclose(got.eigenvalues, reference, rtol=1e-6)


def test_genuinely_asymmetric_matrix_is_refused_at_any_scale(Kc):
    for scale in (1.0, 1e-7):
        tilted = scale * Kc
        tilted[0, 1] += 1e-3 * np.abs(tilted).max()
        with pytest.raises(ValueError, match="not symmetric"):
            eigendecompose(tilted, 3)
    # A vanishing matrix that is asymmetric relative to itself *and* beyond rounding
    # (1e-9 per entry) is refused too.
    noise = 1e-9 * np.random.default_rng(1).standard_normal(Kc.shape)
    with pytest.raises(ValueError, match="not symmetric"):
        eigendecompose(1e-7 * Kc + noise, 3)
