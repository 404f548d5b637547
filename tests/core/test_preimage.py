import os
import warnings

import numpy as np
import pytest
from sklearn.exceptions import ConvergenceWarning

from kpca_core import (
    KernelPCA,
    compute_kernel,
    feature_space_coefficients,
    feature_space_sq_distances,
    fixed_point_preimage,
    scale_eigenvectors,
)


def noisy_circle(rng, n, noise):
    t = rng.uniform(0, 2 * np.pi, n)
    clean = np.column_stack([np.cos(t), np.sin(t)])
    return clean, clean + noise * rng.normal(size=clean.shape)


@pytest.fixture
def circle_model(rng):
    _, X_train = noisy_circle(rng, 300, 0.1)
    clean, noisy = noisy_circle(rng, 100, 0.25)
    return X_train, clean, noisy


@pytest.mark.parametrize("method", ["learned", "fixed_point", "kwok_tsang"])
def test_preimages_denoise_a_noisy_circle(method, circle_model):
    X_train, clean, noisy = circle_model
    kpca = KernelPCA(n_components=8, kernel="rbf", gamma=2.0, preimage=method, alpha=0.1,
                     fit_inverse_transform=method == "learned").fit(X_train)
    projections = kpca.transform(noisy)
    if method == "fixed_point":
        denoised = kpca.inverse_transform(projections, init=noisy)
    else:
        denoised = kpca.inverse_transform(projections)
    error_before = np.mean(np.sum((noisy - clean) ** 2, axis=1))
    error_after = np.mean(np.sum((denoised - clean) ** 2, axis=1))
    assert error_after < 0.75 * error_before


def test_expansion_coefficients_reproduce_the_projection(rng):
    # P phi(x) = sum_i c_i phi(x_i): its coordinates on the axes must be beta again.
    X = rng.normal(size=(50, 2))
    kpca = KernelPCA(n_components=4, kernel="rbf", gamma=0.5).fit(X)
    beta = kpca.transform(rng.normal(size=(5, 2)))
    alphas = scale_eigenvectors(kpca.eigenvectors_, kpca.eigenvalues_)
    coefs = feature_space_coefficients(beta, alphas)
    K = compute_kernel(X, kernel="rbf", gamma=0.5)
    # <P phi(x), V^k> with V^k = sum_j alpha_jk (phi(x_j) - mean) = c^T K~-style sums.
    ones = np.full((50, 50), 1 / 50)
    coords = coefs @ (K - ones @ K) @ alphas
    np.testing.assert_allclose(coords, beta, atol=1e-10)


def test_feature_distances_match_the_kernel_formula(rng):
    X = rng.normal(size=(40, 2))
    kpca = KernelPCA(n_components=40, kernel="rbf", gamma=0.8, eigen_solver="dense").fit(X)
    # With every component kept, P phi(x_a) = phi(x_a) for a training point, so its
    # feature distance to x_i is k(a,a) + k(i,i) - 2 k(a,i) = 2 - 2 K[a, i].
    K = compute_kernel(X, kernel="rbf", gamma=0.8)
    proj = kpca.transform(X[:5])
    train_proj = kpca.fit_transform(X)
    sq_norms = 1 - 2 * K.mean(axis=0) + K.mean()
    d = feature_space_sq_distances(proj, train_proj, sq_norms)
    np.testing.assert_allclose(d, 2 - 2 * K[:5], atol=1e-8)


@pytest.mark.parametrize("method", ["fixed_point", "kwok_tsang"])
def test_exact_projection_of_a_training_point_recovers_it(method, rng):
    X = rng.normal(size=(40, 2))
    kpca = KernelPCA(n_components=39, kernel="rbf", gamma=0.8, eigen_solver="dense",
                     preimage=method).fit(X)
    Z = kpca.inverse_transform(kpca.transform(X[:5]))
    np.testing.assert_allclose(Z, X[:5], atol=1e-5)


def test_preimage_input_checks(rng):
    X = rng.normal(size=(30, 2))
    kpca = KernelPCA(n_components=3, kernel="rbf", preimage="fixed_point").fit(X)
    with pytest.raises(ValueError, match="has 3 components"):
        kpca.inverse_transform(np.zeros((2, 2)))
    with pytest.raises(ValueError, match=r"init must have shape \(2, 2\)"):
        kpca.inverse_transform(np.zeros((2, 3)), init=np.zeros((3, 2)))


def kwok_tsang_for_every_n_neighbors(X_train, X_noisy, gamma, n_components, grid):
    kpca = KernelPCA(n_components=n_components, kernel="rbf", gamma=gamma,
                     preimage="kwok_tsang").fit(X_train)
    projections = kpca.transform(X_noisy)
    for n_neighbors in grid:
        kpca.set_params(preimage_params={"n_neighbors": n_neighbors})
        yield n_neighbors, kpca.inverse_transform(projections)


def test_kwok_tsang_stays_in_range_for_every_n_neighbors_on_a_toy(circle_model):
    # Issue 7, item 4: near-singular directions of many neighbours blew the
    # pre-images up. On the unit circle every pre-image must stay near it.
    X_train, clean, noisy = circle_model
    grid = [2, 3, 5, 10, 30, 100, 299, 300]
    for n_neighbors, Z in kwok_tsang_for_every_n_neighbors(X_train, noisy, 2.0, 8, grid):
        radius = np.linalg.norm(Z, axis=1)
        assert radius.max() < 1.5, n_neighbors
        assert np.mean(np.sum((Z - clean) ** 2, axis=1)) < 1.0, n_neighbors


@pytest.mark.slow
@pytest.mark.skipif(not os.environ.get("KPCA_USPS_PATH"), reason="needs KPCA_USPS_PATH")
def test_kwok_tsang_stays_in_range_for_every_n_neighbors_on_usps():
    # The review's case: 300 neighbours gave pixel values of 1e7 and an MSE of 2e10.
    with np.load(os.environ["KPCA_USPS_PATH"]) as z:
        X_train = z["X_train"][:400] / float(z["divisor"])
        clean = z["X_test"][:20] / float(z["divisor"])
    noisy = clean + 0.5 * np.random.default_rng(0).normal(size=clean.shape)
    noisy_mse = np.mean((noisy - clean) ** 2)
    grid = [2, 10, 50, 100, 200, 300, 400]
    for n_neighbors, Z in kwok_tsang_for_every_n_neighbors(X_train, noisy, 1 / 256, 16, grid):
        assert np.abs(Z).max() < 1.5, n_neighbors  # pixels live in [-1, 1]
        assert np.mean((Z - clean) ** 2) < 2 * noisy_mse, n_neighbors


def test_kwok_tsang_with_more_neighbours_than_training_points_is_a_clear_error(rng):
    X = rng.normal(size=(30, 2))
    kpca = KernelPCA(n_components=3, kernel="rbf", preimage="kwok_tsang",
                     preimage_params={"n_neighbors": 31})
    with pytest.raises(ValueError, match=r"n_neighbors'\] = 31 is larger than the number "
                                         r"of training points \(30\)"):
        kpca.fit(X)
    kpca.set_params(preimage_params={"n_neighbors": 30}).fit(X)
    kpca.set_params(preimage_params={"n_neighbors": 31})
    with pytest.raises(ValueError, match="larger than the number of training points"):
        kpca.inverse_transform(kpca.transform(X[:2]))


def test_fixed_point_non_convergence_warns_with_the_fraction_and_reports_each_point(
    circle_model,
):
    # Issue 7, item 5: the converged flags used to be dropped silently.
    X_train, _, noisy = circle_model
    kpca = KernelPCA(n_components=8, kernel="rbf", gamma=2.0, preimage="fixed_point",
                     preimage_params={"max_iter": 2, "tol": 1e-12}).fit(X_train)
    projections = kpca.transform(noisy)
    with pytest.warns(ConvergenceWarning, match=r"did not converge for 100 of 100 points "
                                                r"\(100.0%\)"):
        Z, converged = kpca.inverse_transform(projections, init=noisy, return_converged=True)
    assert converged.shape == (100,) and not converged.any()
    # The estimator's answer is the function's answer (whose signature is unchanged).
    alphas = scale_eigenvectors(kpca.eigenvectors_, kpca.eigenvalues_)
    Z_direct, converged_direct = fixed_point_preimage(
        feature_space_coefficients(projections, alphas), X_train, 2.0, noisy,
        max_iter=2, tol=1e-12)
    np.testing.assert_array_equal(Z, Z_direct)
    np.testing.assert_array_equal(converged, converged_direct)
    # Given enough iterations every point converges and nothing is said.
    kpca.set_params(preimage_params={"max_iter": 500, "tol": 1e-6})
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConvergenceWarning)
        _, converged = kpca.inverse_transform(projections, init=noisy, return_converged=True)
    assert converged.all()


@pytest.mark.parametrize("method", ["learned", "kwok_tsang"])
def test_closed_form_preimages_report_every_point_converged(method, rng):
    X = rng.normal(size=(30, 2))
    kpca = KernelPCA(n_components=3, kernel="rbf", preimage=method,
                     fit_inverse_transform=method == "learned").fit(X)
    Z, converged = kpca.inverse_transform(kpca.transform(X[:4]), return_converged=True)
    assert Z.shape == (4, 2) and converged.tolist() == [True] * 4


@pytest.mark.parametrize(
    ("change", "message"),
    [
        ({"preimage": "magic"}, "preimage must be one of"),
        ({"preimage_params": {"n_neighbours": 5}}, "Unknown preimage_params key.*'n_neighbours'"),
        ({"preimage_params": {"max_iter": 0}}, r"preimage_params\['max_iter'\] must be"),
        ({"preimage_params": {"tol": -1.0}}, r"preimage_params\['tol'\] must be >= 0"),
    ],
)
def test_preimage_settings_are_validated_at_fit_and_at_inverse_time(change, message, rng):
    # Issue 7, item 12: set_params between fit and inverse_transform must not slip
    # past validation, nor may a misspelt key be ignored.
    X = rng.normal(size=(30, 2))
    with pytest.raises(ValueError, match=message):
        KernelPCA(n_components=3, kernel="rbf", **{"preimage": "fixed_point", **change}).fit(X)
    kpca = KernelPCA(n_components=3, kernel="rbf", preimage="fixed_point").fit(X)
    kpca.set_params(**change)
    with pytest.raises(ValueError, match=message):
        kpca.inverse_transform(kpca.transform(X[:2]))
