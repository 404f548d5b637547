"""Input checks shared by the step functions and the estimator.

Every check raises a ``ValueError`` that names the offending parameter and the
allowed range, so that the UI can show the message to a student unchanged.
"""

from __future__ import annotations

from numbers import Integral, Real

import numpy as np


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
    try:
        array = np.array(X, dtype=np.float64, copy=copy or None, order="C")
    except (TypeError, ValueError) as exc:
        raise ValueError(f"{name} must be a numeric matrix; {exc}") from None
    if array.ndim != 2:
        raise ValueError(
            f"{name} must be 2-D (n_samples, n_features); got an array with "
            f"{array.ndim} dimension(s). Reshape a single sample with x.reshape(1, -1) "
            "or a single feature with x.reshape(-1, 1)."
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
