r"""DELIBERATELY WRONG versions of kernel PCA's formulas, for the common-mistakes lesson.

Six of the ``wrong_*`` functions below reproduce an error found in the public notes and
code the project grew from (each mistake of :mod:`lessons.mistakes.experiment` names its
``source``); the seventh, an unsorted general eigensolver, is a slip of NumPy's API that
none of them makes. None of them may be used to compute anything but the damage it does:
each docstring names the correct ``kpca_core`` function.
The mistakes of :mod:`lessons.mistakes.experiment` say in words and LaTeX what each one
gets wrong, and measure it next to the right computation.
"""

from __future__ import annotations

import numpy as np

from kpca_core import center_kernel, compute_kernel

__all__ = [
    "wrong_center_kernel_last_sign",
    "wrong_center_kernel_none",
    "wrong_center_test_kernel_own_means",
    "wrong_eigendecompose_unsorted",
    "wrong_kernel_of_centred_inputs",
    "wrong_project_uncentred",
    "wrong_scale_one_over_mu_n",
    "wrong_scale_unnormalised",
]


# --------------------------------------------------------------------------- the mistakes


def wrong_center_kernel_none(K: np.ndarray) -> np.ndarray:
    """WRONG: no centring at all (returns a copy of K).

    Correct: :func:`kpca_core.center_kernel`.
    """
    return np.array(K, dtype=np.float64)


def wrong_center_kernel_last_sign(K: np.ndarray) -> np.ndarray:
    """WRONG: K − 1ₙK − K1ₙ − 1ₙK1ₙ (the last sign flipped).

    Correct: :func:`kpca_core.center_kernel` (… + 1ₙK1ₙ).
    """
    K = np.asarray(K, dtype=np.float64)
    column_means = K.mean(axis=0)
    row_means = K.mean(axis=1)
    grand_mean = float(column_means.mean())
    return K - column_means[None, :] - row_means[:, None] - grand_mean


def wrong_kernel_of_centred_inputs(
    X: np.ndarray, *, kernel: str, kernel_params: dict
) -> np.ndarray:
    """WRONG: centre the input columns, build the kernel of X − x̄, then centre K.

    Centring the inputs is not centring in feature space; it changes every kernel that
    is not translation-invariant (polynomial, sigmoid, cosine).
    Correct: ``kpca_core.center_kernel(kpca_core.compute_kernel(X, ...))`` on the raw
    (or explicitly standardised) inputs.
    """
    X = np.asarray(X, dtype=np.float64)
    return center_kernel(compute_kernel(X - X.mean(axis=0), kernel=kernel, **kernel_params))


def wrong_center_test_kernel_own_means(K_test: np.ndarray) -> np.ndarray:
    """WRONG: centre a test kernel (m × n) with its own column means and grand mean.

    Correct: :func:`kpca_core.center_test_kernel` with the *training* statistics
    (``KernelCentering.fit(K_train)``).
    """
    K_test = np.asarray(K_test, dtype=np.float64)
    column_means = K_test.mean(axis=0)  # over the m test points: the mistake
    row_means = K_test.mean(axis=1)
    return K_test - column_means[None, :] - row_means[:, None] + float(column_means.mean())


def wrong_scale_unnormalised(eigenvectors: np.ndarray, eigenvalues: np.ndarray) -> np.ndarray:
    """WRONG: α = v, the unit eigenvector, not normalised in feature space (αᵀK̃α = μ).

    Correct: :func:`kpca_core.scale_eigenvectors` (α = v / √μ, so αᵀK̃α = 1).
    """
    return np.array(eigenvectors, dtype=np.float64)


def wrong_scale_one_over_mu_n(eigenvectors: np.ndarray, eigenvalues: np.ndarray) -> np.ndarray:
    """WRONG: α = v / (μ n) (αᵀK̃α = 1 / (μ n²)).

    Correct: :func:`kpca_core.scale_eigenvectors` (α = v / √μ).
    """
    n = eigenvectors.shape[0]
    return np.asarray(eigenvectors, dtype=np.float64) / (np.asarray(eigenvalues) * n)


def wrong_project_uncentred(K_rows: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """WRONG: project with the uncentred kernel rows, K α (or K_t α).

    Correct: centre first (:func:`kpca_core.center_kernel` for the training points,
    :func:`kpca_core.center_test_kernel` for new ones), then
    :func:`kpca_core.project_new_points`.
    """
    return np.asarray(K_rows, dtype=np.float64) @ alphas


def wrong_eigendecompose_unsorted(
    K_centered: np.ndarray, n_components: int
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """WRONG: ``np.linalg.eig`` (a general, non-symmetric solver), first k pairs as returned.

    ``eig`` does not sort its eigenvalues, may return complex numbers with rounding-noise
    imaginary parts for a symmetric matrix, and does not orthogonalise eigenvectors of
    repeated eigenvalues. This keeps the real parts of the first ``n_components``, as
    copied code usually does.
    Correct: :func:`kpca_core.eigendecompose` (a symmetric solver, sorted descending).

    Returns
    -------
    eigenvalues, eigenvectors : the first k as returned by ``eig`` (real parts).
    all_eigenvalues : every eigenvalue in ``eig``'s order (complex), to show that order.
    """
    values, vectors = np.linalg.eig(K_centered)
    return values[:n_components].real.copy(), vectors[:, :n_components].real.copy(), values
