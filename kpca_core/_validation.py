"""Input checks shared by the step functions and the estimator.

Every check raises a ``ValueError`` that names the offending parameter and the
allowed range, so that the UI can show the message to a student unchanged.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np
from scipy import sparse


def check_data(X, *, name: str = "X", copy: bool = False) -> np.ndarray:
    """Return ``X`` as a finite, non-empty, C-contiguous float64 matrix.

    Parameters
    ----------
    X : array-like of shape (n_samples, n_features)
    name : str
        How the argument is called in error messages.
    copy : bool
        Force a copy even when ``X`` is already a float64 C-contiguous array.
    """
    if sparse.issparse(X):
        raise TypeError(
            f"{name} is a sparse matrix, but dense data is required here. Use "
            f"{name}.toarray() to convert it."
        )
    if np.iscomplexobj(X):
        # Casting would silently drop the imaginary part.
        raise ValueError(f"Complex data not supported: {name} must be real.")
    try:
        array = np.array(X, dtype=np.float64, copy=copy or None, order="C")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric matrix; {exc}") from None
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features); got an array with "
            f"{array.ndim} dimension(s). Reshape your data: x.reshape(1, -1) for a "
            "single sample, x.reshape(-1, 1) for a single feature."
        )
    if array.shape[0] == 0 or array.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {array.shape}); it needs at least one "
                         "sample and one feature.")
    if not np.isfinite(array).all():
        bad_rows = np.flatnonzero(~np.isfinite(array).all(axis=1))
        raise ValueError(
            f"{name} contains NaN or infinite values in {bad_rows.size} row(s) "
            f"(first: row {bad_rows[0]}); remove or impute them first."
        )
    return array


def check_sparse_or_dense(X, *, name: str = "X"):
    """A dense matrix as :func:`check_data` gives it, or a sparse one as finite CSR float64."""
    if not sparse.issparse(X):
        return check_data(X, name=name)
    if np.iscomplexobj(X.data):
        raise ValueError(f"Complex data not supported: {name} must be real.")
    X = sparse.csr_matrix(X, dtype=np.float64)
    if X.shape[0] == 0 or X.shape[1] == 0:
        raise ValueError(f"{name} is empty (shape {X.shape}); it needs at least one "
                         "sample and one feature.")
    if not np.isfinite(X.data).all():
        raise ValueError(f"{name} contains NaN or infinite values; remove or impute them first.")
    return X


def check_positive_real(value, name: str) -> float:
    """A finite real number strictly greater than 0."""
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number > 0; got {value!r}.")
    if value <= 0:
        raise ValueError(f"{name} must be > 0; got {value!r}.")
    return float(value)


def check_finite_real(value, name: str) -> float:
    """Any finite real number."""
    if isinstance(value, bool) or not isinstance(value, Real) or not np.isfinite(value):
        raise ValueError(f"{name} must be a finite number; got {value!r}.")
    return float(value)


def check_degree(value) -> int:
    """A whole number >= 1: fractional powers of negative inner products are undefined."""
    if isinstance(value, bool) or not isinstance(value, Real):
        raise ValueError(f"degree must be a whole number >= 1; got {value!r}.")
    if value != int(value) or value < 1:
        raise ValueError(f"degree must be a whole number >= 1; got {value!r}.")
    return int(value)


def check_n_components(value, n_samples: int) -> int:
    """A whole number in [1, n_samples]."""
    if isinstance(value, bool) or not isinstance(value, Integral):
        raise ValueError(
            f"n_components must be a whole number in [1, {n_samples}] (the number of "
            f"samples); got {value!r}."
        )
    if not 1 <= value <= n_samples:
        raise ValueError(
            f"n_components must be in [1, {n_samples}] (the number of samples); "
            f"got {value}."
        )
    return int(value)


def check_choice(value, name: str, choices) -> str:
    if value not in choices:
        allowed = ", ".join(repr(c) for c in choices)
        raise ValueError(f"{name} must be one of {allowed}; got {value!r}.")
    return value


def check_square(K, *, name: str = "K", check_finite: bool = True) -> np.ndarray:
    """A square float64 matrix (a kernel matrix), finite unless told not to check."""
    K = np.asarray(K, dtype=np.float64)
    if K.ndim != 2 or K.shape[0] != K.shape[1] or K.shape[0] == 0:
        raise ValueError(
            f"{name} must be a non-empty square kernel matrix (n_samples, n_samples); "
            f"got shape {K.shape}."
        )
    # The sum is NaN or inf whenever an entry is, and unlike np.isfinite(K).all()
    # it allocates no n x n temporary.
    if check_finite and not np.isfinite(K.sum()):
        raise ValueError(f"{name} contains NaN or infinite values.")
    return K


# A kernel matrix computed in floating point is symmetric to about 1e-16 relative;
# anything beyond this is a different matrix, not rounding.
SYMMETRY_RTOL = 1e-8
# ... relative to the matrix itself, unless the asymmetry is below this per entry
# (root mean square). A centred kernel can nearly vanish while its rounding does not:
# with K ≈ all ones (a saturated sigmoid, a tiny RBF γ) K̃ = K − means is ~1e-7 while
# the rounding of K's entries of order 1, ~1e-16 each, stays: relative to K̃ that is
# ~1e-9…1e-4, yet it moves no eigenvalue by more than ~1e-14 (n = 150). 1e-13 is ~500
# times that rounding (scikit-learn's KernelCenterer leaves ~1e-15) and far below any
# asymmetry made on purpose; a single entry off by more than ~n · 1e-13 is refused.
SYMMETRY_ATOL = 1e-13
_BLOCK_ROWS = 256


def asymmetry(K: np.ndarray) -> tuple[float, float]:
    """(max |K - K^T|, max |K|) of a square matrix, without an n x n temporary.

    Compares one block of rows with the matching block of columns at a time, so
    the extra memory is 256 x n whatever n is.
    """
    n = K.shape[0]
    worst, largest = 0.0, 0.0
    for start in range(0, n, _BLOCK_ROWS):
        rows = slice(start, min(start + _BLOCK_ROWS, n))
        upper = K[rows, start:]  # the block's rows, from its diagonal block on
        lower = K[start:, rows].T  # the same entries mirrored
        worst = max(worst, float(np.abs(upper - lower).max()))
        largest = max(largest, float(np.abs(upper).max()), float(np.abs(lower).max()))
    return worst, largest


def check_symmetric(K: np.ndarray, *, name: str = "K", n_probes: int = 4) -> None:
    """Refuse a matrix that is not symmetric beyond rounding.

    Measured through products, as the iterative solvers see the matrix: with a few
    seeded random vectors Y (n × p, standard normal), the matrix is accepted when

        ||(K − Kᵀ) Y|| ≤ 1e-8 ||K Y||  +  1e-13 · n · sqrt(p),

    i.e. when its asymmetry is below 1e-8 of the matrix itself (scale-aware), or below
    a floor of about 1e-13 per entry (root mean square: an n × n matrix of entries ±e
    gives ||(K − Kᵀ) Y|| ≈ e n sqrt(p)). The floor is what lets a centred kernel that
    nearly vanishes (K ≈ all ones, K̃ ≈ 1e-7) through with the rounding it inherited
    from K; see ``SYMMETRY_ATOL``. In exact arithmetic K Y = Kᵀ Y for all Y exactly when
    K is symmetric. Two BLAS products with n_probes columns cost about two passes over
    K, several times less than reading K against its transpose entry by entry.
    """
    n = K.shape[0]
    Y = np.random.default_rng(0).standard_normal((n, n_probes))
    KY, KtY = K @ Y, K.T @ Y
    gap = float(np.linalg.norm(KY - KtY))
    scale = float(np.linalg.norm(KY) + np.linalg.norm(KtY)) / 2
    floor = SYMMETRY_ATOL * n * np.sqrt(n_probes)
    if gap > SYMMETRY_RTOL * scale + floor:
        raise ValueError(
            f"{name} is not symmetric: ||(K - K^T) y|| / ||K y|| = {gap / scale:.3g} on "
            "random vectors y. A kernel matrix is symmetric; if the difference is "
            "rounding, pass (K + K.T) / 2."
        )


def subtract_pairwise_sums(K: np.ndarray, h: np.ndarray) -> None:
    """K[i, j] -= h[i] + h[j] in place, one row at a time.

    h[i] + h[j] and h[j] + h[i] are the same floating-point number, so a symmetric K
    stays *exactly* symmetric. (Subtracting h[:, None] and then h[None, :] in two
    passes does not: (K_ij − h_i) − h_j and (K_ji − h_j) − h_i round differently.)
    Row by row, the extra memory is one row: a broadcast over a block of rows makes
    NumPy allocate iterator buffers twice the block's size. Not slower for the loop:
    centring a 7,291² kernel in place took 0.05–0.08 s (medians of 3, 2 cores), the
    former two-pass form 0.16 s.
    """
    for i in range(K.shape[0]):
        K[i] -= h[i] + h


def symmetrize_in_place(K: np.ndarray) -> None:
    """K <- (K + K^T) / 2, the nearest symmetric matrix, one block at a time."""
    n = K.shape[0]
    for start in range(0, n, _BLOCK_ROWS):
        rows = slice(start, min(start + _BLOCK_ROWS, n))
        mean = K[rows, start:] + K[start:, rows].T
        mean *= 0.5
        K[rows, start:] = mean
        K[start:, rows] = mean.T
