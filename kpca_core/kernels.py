"""Kernel functions k(x, y) = <phi(x), phi(y)> and the matrices they build.

Each kernel is written once, vectorised over all pairs of rows, with the same
parameter meanings as :func:`sklearn.metrics.pairwise.pairwise_kernels` so that
results agree with scikit-learn to rounding error.

Memory note: the Gram matrix is the only n x n allocation. Every elementwise step
after the matrix product works in place, so building an RBF kernel for the full
USPS training set (n = 7291, 425 MB) never holds two such matrices at once.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
from scipy import sparse
from scipy.spatial.distance import cdist
from sklearn.metrics.pairwise import pairwise_kernels

from ._validation import (
    check_choice,
    check_data,
    check_degree,
    check_finite_real,
    check_positive_real,
    check_sparse_or_dense,
    subtract_pairwise_sums,
)

__all__ = [
    "KERNELS",
    "KernelInfo",
    "compute_kernel",
    "default_gamma",
    "median_heuristic_gamma",
]


@dataclass(frozen=True)
class KernelInfo:
    """What a kernel is called, its formula, and the parameters it reads."""

    name: str
    title: str
    formula: str  # LaTeX, for st.latex
    params: tuple[str, ...]
    positive_definite: bool
    note: str = ""


KERNELS: dict[str, KernelInfo] = {
    "linear": KernelInfo(
        "linear", "Linear", r"k(x, y) = x^\top y", (), True,
        "Kernel PCA with this kernel is ordinary PCA.",
    ),
    "poly": KernelInfo(
        "poly", "Polynomial", r"k(x, y) = (\gamma\, x^\top y + c_0)^{d}",
        ("gamma", "degree", "coef0"), True,
        "Positive semi-definite for c₀ ≥ 0. Features: the monomials of degree up to d "
        "when c₀ > 0, of degree exactly d when c₀ = 0 (then γ only rescales K by γᵈ).",
    ),
    "rbf": KernelInfo(
        "rbf", "RBF (Gaussian)", r"k(x, y) = \exp(-\gamma\, \lVert x - y \rVert^2)",
        ("gamma",), True,
        "Large γ: only close neighbours look similar. Small γ: close to a linear kernel.",
    ),
    "sigmoid": KernelInfo(
        "sigmoid", "Sigmoid", r"k(x, y) = \tanh(\gamma\, x^\top y + c_0)",
        ("gamma", "coef0"), False,
        "Not positive semi-definite in general: K̃ can have negative eigenvalues, "
        "which no real feature space can produce.",
    ),
    "laplacian": KernelInfo(
        "laplacian", "Laplacian", r"k(x, y) = \exp(-\gamma\, \lVert x - y \rVert_1)",
        ("gamma",), True,
        "Like the RBF kernel but with the city-block distance: rougher, heavier tails.",
    ),
    "cosine": KernelInfo(
        "cosine", "Cosine", r"k(x, y) = \frac{x^\top y}{\lVert x \rVert\, \lVert y \rVert}",
        (), True,
        "A linear kernel on inputs scaled to unit length: only directions matter.",
    ),
}


def default_gamma(X: np.ndarray) -> float:
    """scikit-learn's default width, 1 / n_features."""
    return 1.0 / np.shape(X)[1]


def median_heuristic_gamma(
    X: np.ndarray, *, max_samples: int = 1000, random_state: int | None = 0
) -> float:
    """RBF width from the median pairwise squared distance: gamma = 1 / median(||x - y||^2).

    With this choice a typical pair of points has k(x, y) = exp(-1), so the kernel
    matrix is neither all ones (gamma too small) nor the identity (gamma too large).
    Large inputs are subsampled to ``max_samples`` rows (seeded), which changes the
    median by a few per cent at most and keeps the cost O(max_samples^2 d).
    """
    X = check_data(X)
    if X.shape[0] > max_samples:
        rng = np.random.default_rng(random_state)
        X = X[rng.choice(X.shape[0], max_samples, replace=False)]
    if X.shape[0] < 2:
        raise ValueError("The median heuristic needs at least 2 samples.")
    sq = cdist(X, X, "sqeuclidean")[np.triu_indices(X.shape[0], k=1)]
    median = float(np.median(sq))
    if median <= 0:
        raise ValueError("All samples are identical; no distance scale to set gamma from.")
    return 1.0 / median


def compute_kernel(
    X: np.ndarray,
    Y: np.ndarray | None = None,
    *,
    kernel: str | Callable = "rbf",
    gamma: float | None = None,
    degree: int = 3,
    coef0: float = 1.0,
    kernel_params: dict | None = None,
) -> np.ndarray:
    """Kernel matrix K[i, j] = k(X[i], Y[j]): the dot products in feature space that kernel PCA
    works from (Schölkopf et al. 1998).

    Parameters
    ----------
    X : array or sparse matrix (CSR/CSC) of shape (n_samples_X, n_features)
    Y : array or sparse matrix of shape (n_samples_Y, n_features), optional
        Defaults to ``X``, giving the symmetric Gram matrix.
    kernel : {"linear", "poly", "rbf", "sigmoid", "laplacian", "cosine"} or callable
        A callable is evaluated as ``kernel(x, y, **kernel_params)`` on every pair of
        rows, exactly as scikit-learn does.
    gamma : float > 0, optional
        Width/scale for poly, rbf, sigmoid and laplacian. ``None`` means 1 / n_features.
    degree : int >= 1
        Degree of the polynomial kernel.
    coef0 : float
        Offset c0 for the polynomial and sigmoid kernels.
    kernel_params : dict, optional
        Extra keyword arguments for a callable kernel (ignored for named kernels, as in
        scikit-learn).

    Returns
    -------
    K : ndarray of shape (n_samples_X, n_samples_Y), float64, C-contiguous
    """
    if sparse.issparse(X) or sparse.issparse(Y):
        return _sparse_kernel(X, Y, kernel, gamma, degree, coef0, kernel_params)
    X = check_data(X, name="X")
    symmetric = Y is None
    Y = X if symmetric else check_data(Y, name="Y")
    if Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"Y has {Y.shape[1]} features but X has {X.shape[1]}; both must describe "
            "points in the same input space."
        )
    if callable(kernel):
        return _callable_kernel(kernel, X, Y, symmetric, kernel_params or {})
    gamma, degree, coef0 = _kernel_params(kernel, X, gamma, degree, coef0)

    if kernel == "linear":
        return X @ Y.T
    if kernel == "poly":
        K = X @ Y.T
        K *= gamma
        K += coef0
        # Integer powers stay exact for negative bases. Overflow to inf is not
        # warned about here: center_kernel refuses it with a message saying the fix.
        with np.errstate(over="ignore"):
            return np.power(K, degree, out=K)
    if kernel == "sigmoid":
        K = X @ Y.T
        with np.errstate(over="ignore"):  # tanh(+-inf) = +-1 is the right value
            K *= gamma
        K += coef0
        return np.tanh(K, out=K)
    if kernel == "rbf":
        # exp(-gamma ||x - y||^2), with the distance formed before gamma touches it
        # (as scikit-learn does): scaling x.y by gamma first overflows for a huge
        # gamma and leaves inf - inf = NaN where sklearn gives K = I. In place on the
        # Gram matrix: -||x - y||^2 / 2 = x.y - ||x||^2 / 2 - ||y||^2 / 2.
        K = X @ Y.T
        x_half_sq = 0.5 * np.einsum("ij,ij->i", X, X)
        if symmetric:
            # One formula for (i, j) and (j, i), so K is exactly symmetric (X @ X.T
            # is: NumPy computes one triangle and mirrors it).
            subtract_pairwise_sums(K, x_half_sq)
        else:
            K -= x_half_sq[:, None]
            K -= 0.5 * np.einsum("ij,ij->i", Y, Y)[None, :]
        np.minimum(K, 0.0, out=K)  # rounding can make a distance slightly negative
        # A huge gamma sends far pairs to -inf, and exp(-inf) = 0 is the right value.
        with np.errstate(over="ignore"):
            if np.isfinite(2.0 * gamma):
                K *= 2.0 * gamma
            else:  # gamma within a factor 2 of the largest float: 0 * inf would be NaN
                K *= gamma
                K *= 2.0
        np.exp(K, out=K)
        if symmetric:
            np.fill_diagonal(K, 1.0)
        return K
    if kernel == "laplacian":
        K = cdist(X, Y, "cityblock")
        with np.errstate(over="ignore"):  # exp(-inf) = 0 is the right value
            K *= -gamma
        return np.exp(K, out=K)
    # cosine: a linear kernel on rows scaled to unit length (zero rows stay zero,
    # as in scikit-learn's cosine_similarity).
    Xn = _unit_rows(X)
    Yn = Xn if symmetric else _unit_rows(Y)
    return Xn @ Yn.T


def _kernel_params(kernel, X, gamma, degree, coef0) -> tuple:
    """Check the parameters a named kernel uses (only those: a stale slider value of
    an unused one must not break it) and fill in gamma's default."""
    check_choice(kernel, "kernel", tuple(KERNELS))
    uses = KERNELS[kernel].params
    if "gamma" in uses:
        gamma = default_gamma(X) if gamma is None else check_positive_real(gamma, "gamma")
    if "degree" in uses:
        degree = check_degree(degree)
    if "coef0" in uses:
        coef0 = check_finite_real(coef0, "coef0")
    return gamma, degree, coef0


def _sparse_kernel(X, Y, kernel, gamma, degree, coef0, kernel_params) -> np.ndarray:
    """Sparse input (CSR/CSC): scikit-learn's pairwise_kernels, a dense float64 result.

    The formulas are the same; scikit-learn already handles sparse products and
    distances, so it is used rather than rewritten.
    """
    X = check_sparse_or_dense(X, name="X")
    Y = None if Y is None else check_sparse_or_dense(Y, name="Y")
    if Y is not None and Y.shape[1] != X.shape[1]:
        raise ValueError(
            f"Y has {Y.shape[1]} features but X has {X.shape[1]}; both must describe "
            "points in the same input space."
        )
    if callable(kernel):
        K = pairwise_kernels(X, Y, metric=kernel, **(kernel_params or {}))
    else:
        gamma, degree, coef0 = _kernel_params(kernel, X, gamma, degree, coef0)
        with np.errstate(over="ignore"):  # as for dense input: overflow is refused later
            K = pairwise_kernels(X, Y, metric=kernel, filter_params=True, gamma=gamma,
                                 degree=degree, coef0=coef0)
    K = K.toarray() if sparse.issparse(K) else K
    return np.ascontiguousarray(K, dtype=np.float64)


def squared_euclidean_distances(X: np.ndarray, Y: np.ndarray | None = None) -> np.ndarray:
    """||x - y||^2 for all pairs, as ||x||^2 + ||y||^2 - 2 x.y with one matrix product.

    The expansion turns the O(n^2 d) work into a BLAS product; it loses a little
    precision for nearly coincident points, so results are clipped at 0 and the
    diagonal of the symmetric case is set to exactly 0.
    """
    symmetric = Y is None
    Y = X if symmetric else Y
    x_sq = np.einsum("ij,ij->i", X, X)
    y_sq = x_sq if symmetric else np.einsum("ij,ij->i", Y, Y)
    D = X @ Y.T  # the one n x m allocation
    D *= -2.0
    D += x_sq[:, None]
    D += y_sq[None, :]
    np.maximum(D, 0.0, out=D)
    if symmetric:
        np.fill_diagonal(D, 0.0)
    return D


def _unit_rows(X: np.ndarray) -> np.ndarray:
    norms = np.linalg.norm(X, axis=1)
    norms[norms == 0] = 1.0
    return X / norms[:, None]


def _callable_kernel(
    func: Callable, X: np.ndarray, Y: np.ndarray, symmetric: bool, params: dict
) -> np.ndarray:
    K = np.empty((X.shape[0], Y.shape[0]))
    for i, x in enumerate(X):
        start = i if symmetric else 0
        for j in range(start, Y.shape[0]):
            K[i, j] = func(x, Y[j], **params)
            if symmetric:
                K[j, i] = K[i, j]
    return K
