"""The fit in steps is kpca_core's KernelPCA, taken apart: same eigenpairs, same projections."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import datasets
import experiments.kpca_steps as steps
from experiments.kpca_steps import KpcaFit, fit_kpca, mean_off_diagonal
from kpca_core import (
    DegenerateSpectrumError,
    IndefiniteKernelWarning,
    KernelCentering,
    KernelPCA,
    center_kernel,
    compute_kernel,
    eigendecompose,
)


def test_steps_fit_matches_kernelpca_eigenvalues_and_ratio():
    X = datasets.load("moons", n=100).X
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 2.0}, n_components=5)
    model = KernelPCA(5, kernel="rbf", gamma=2.0, random_state=0).fit(X)
    np.testing.assert_allclose(fit.eigenvalues, model.eigenvalues_, rtol=1e-10)
    np.testing.assert_allclose(fit.explained_ratio, model.explained_variance_ratio_, rtol=1e-10)


@pytest.mark.parametrize(("kernel", "params"), [
    ("rbf", {"gamma": 2.0}),
    ("poly", {"gamma": 1.0, "degree": 3, "coef0": 1.0}),
    ("sigmoid", {"gamma": 0.5, "coef0": -1.0}),  # indefinite: components with λ < 0 give 0
])
def test_projections_are_kernelpca_transform(kernel, params):
    data = datasets.load("circles", n=120)
    X, new = data.X[:90], data.X[90:]
    fit = fit_kpca(X, kernel=kernel, kernel_params=params, n_components=4)
    model = KernelPCA(4, kernel=kernel, negative_eigenvalues="warn", random_state=0, **params)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndefiniteKernelWarning)  # the sigmoid's, expected
        train = model.fit_transform(X)
    np.testing.assert_allclose(fit.projection, train, atol=1e-10)
    np.testing.assert_allclose(fit.project(new), model.transform(new), atol=1e-10)
    rows = fit.kernel_rows(new)
    rows.setflags(write=False)  # centred on a copy: the caller's rows stay as they are
    np.testing.assert_allclose(fit.project_kernel_rows(rows), model.transform(new), atol=1e-10)
    np.testing.assert_array_equal(fit.negative, fit.eigenvalues < 0)


def test_alphas_give_unit_length_axes_and_the_statistics_are_ks():
    X = datasets.load("moons", n=80).X
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 3.0}, n_components=3)
    K = compute_kernel(X, kernel="rbf", gamma=3.0)
    Kc = center_kernel(K)
    # αᵀK̃α = 1 for every component (eq. 16), and K̃α is the training projection.
    np.testing.assert_allclose(np.einsum("ik,ik->k", fit.alphas, Kc @ fit.alphas), 1.0,
                               rtol=1e-9)
    np.testing.assert_allclose(Kc @ fit.alphas, fit.projection, atol=1e-10)
    np.testing.assert_allclose(fit.centering.column_means, K.mean(axis=0), rtol=1e-12)
    assert fit.trace == pytest.approx(np.trace(Kc), rel=1e-12)
    off_diagonal = K[~np.eye(len(K), dtype=bool)]
    assert fit.mean_similarity == pytest.approx(off_diagonal.mean(), rel=1e-12)
    assert mean_off_diagonal(np.ones((1, 1))) == 1.0
    np.testing.assert_allclose(fit.kernel_rows(X[:3]), K[:3], rtol=1e-12)


def test_from_eigenpairs_is_the_same_fit():
    X = datasets.load("circles", n=70).X
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 5.0}, n_components=3)
    K = compute_kernel(X, kernel="rbf", gamma=5.0)
    centering = KernelCentering.fit(K)
    Kc = center_kernel(K, centering=centering)
    built = KpcaFit.from_eigenpairs(X, eigendecompose(Kc, 3, random_state=0), kernel="rbf",
                                    kernel_params={"gamma": 5.0}, centering=centering,
                                    trace=np.trace(Kc), mean_similarity=mean_off_diagonal(K))
    for name in ("eigenvalues", "eigenvectors", "alphas", "projection"):
        np.testing.assert_allclose(getattr(built, name), getattr(fit, name), atol=1e-12)
    assert built.solver == fit.solver == "dense"


def test_overwrite_gives_the_same_fit_and_retries_a_degenerate_spectrum(monkeypatch):
    X = datasets.load("moons", n=60).X
    kept = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 1.0}, n_components=4)
    overwritten = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 1.0}, n_components=4,
                           overwrite=True)
    np.testing.assert_allclose(overwritten.eigenvalues, kept.eigenvalues, rtol=1e-12)
    np.testing.assert_allclose(overwritten.projection, kept.projection, atol=1e-12)

    calls = []

    def refuses_to_overwrite(K, k, **options):
        calls.append(options["overwrite"])
        if options["overwrite"]:
            raise DegenerateSpectrumError("too few eigenpairs")
        return eigendecompose(K, k, **options)

    monkeypatch.setattr(steps, "eigendecompose", refuses_to_overwrite)
    retried = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 1.0}, n_components=4,
                       overwrite=True)
    assert calls == [True, False]  # K rebuilt, then decomposed on a copy
    np.testing.assert_allclose(retried.eigenvalues, kept.eigenvalues, rtol=1e-12)


def test_eigenvalues_below_the_rounding_of_k_are_zero_and_the_others_kept():
    # γ = 1e-5 on the circles: K ≈ all ones, so K̃'s eigenvalues carry ~n·eps of rounding,
    # while μ₁ is only ~2e-3: μ ≈ 3e-14 is noise that a cut relative to μ₁ keeps.
    X = datasets.load("circles").X
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 1e-5}, n_components=8)
    floor = 10 * len(X) * np.finfo(float).eps * 1.0  # max |K| = 1 for the RBF kernel
    assert fit.eigenvalue_floor == floor
    exact = np.linalg.eigvalsh(center_kernel(compute_kernel(X, kernel="rbf", gamma=1e-5)))
    exact = exact[::-1][:8]
    kept = exact > floor
    assert kept.tolist() == [True] * 5 + [False] * 3
    np.testing.assert_allclose(fit.eigenvalues[kept], exact[kept], rtol=1e-6)
    assert np.all(fit.eigenvalues[~kept] == 0) and np.all(fit.alphas[:, ~kept] == 0)
    # A kernel of ordinary scale keeps every eigenvalue above its own rounding.
    wide = fit_kpca(X, kernel="rbf", kernel_params={"gamma": 5.0}, n_components=8)
    assert np.all(wide.eigenvalues > 1.0)
