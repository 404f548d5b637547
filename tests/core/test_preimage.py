import numpy as np
import pytest

from kpca_core import (
    KernelPCA,
    compute_kernel,
    feature_space_coefficients,
    feature_space_sq_distances,
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
