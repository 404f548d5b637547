r"""Centring in feature space, without ever forming phi(x).

PCA needs centred data. In feature space the centred points are
phi~(x_i) = phi(x_i) - (1/n) sum_j phi(x_j), and their inner products are

    K~ = K - 1_n K - K 1_n + 1_n K 1_n       (Schölkopf et al. 1998, centring in feature space)

where 1_n is the n x n matrix with every entry 1/n. Multiplying by 1_n only takes
means, and for a symmetric K the row means are the column means m, so

    K~[i, j] = K[i, j] - (h[i] + h[j]),   h = m - grandmean / 2:

two O(n^2) passes and no extra n x n matrix. Written this way the (i, j) and (j, i)
entries go through the very same floating-point operations, so K~ is exactly
symmetric whenever K is; subtracting row and column means in separate passes leaves
K~ asymmetric by rounding, which matters when K~ nearly vanishes (K ~ all ones).
The textbook form with explicit 1_n matrices is kept for teaching; it costs two n x n
matrix products and four extra n x n arrays.

A new point x is centred with the *training* statistics, because the origin of
feature space was fixed by the training set:

    K~_t = K_t - 1_t K - K_t 1_n + 1_t K 1_n                 (K_t: m x n, 1_t: m x n of 1/n)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from ._validation import check_square, subtract_pairwise_sums

__all__ = [
    "KernelCentering",
    "center_kernel",
    "center_kernel_textbook",
    "center_test_kernel",
]

# The refusal of an overflowed kernel matrix, declared once so that a caller can tell it
# from other refusals (and say it in its reader's language).
NON_FINITE_KERNEL = (
    "The kernel matrix contains NaN or infinite values: its entries overflowed. With a "
    "polynomial kernel lower gamma or the degree; otherwise rescale the data (e.g. "
    "standardise it)."
)


@dataclass(frozen=True)
class KernelCentering:
    """Training statistics needed to centre kernels of new points.

    Attributes
    ----------
    column_means : ndarray of shape (n_samples,)
        Mean of each column of the training kernel, (1/n) sum_i k(x_i, x_j).
    grand_mean : float
        Mean of all entries of the training kernel.
    """

    column_means: np.ndarray
    grand_mean: float

    @classmethod
    def fit(cls, K: np.ndarray) -> KernelCentering:
        column_means = K.mean(axis=0)
        return cls(column_means=column_means, grand_mean=float(column_means.mean()))


def center_kernel(
    K: np.ndarray, *, copy: bool = True, centering: KernelCentering | None = None
) -> np.ndarray:
    """Centre a training kernel matrix: K~ = K - 1_n K - K 1_n + 1_n K 1_n.

    Parameters
    ----------
    K : ndarray of shape (n_samples, n_samples)
        Kernel matrix of the training points (symmetric). Only its column means are
        read, as for new points (:func:`center_test_kernel`); any asymmetry of K is
        passed on to K~ unchanged (K~ - K~^T = K - K^T), not hidden, so that
        :func:`~kpca_core.eigendecompose` can still refuse a matrix that is no kernel.
    copy : bool, default True
        With ``copy=False`` ``K`` is overwritten (it must be a writeable float64
        array), which saves one n x n matrix.
    centering : KernelCentering, optional
        ``KernelCentering.fit(K)`` if the caller already has it (saves a pass over K).

    Returns
    -------
    K_centered : ndarray of shape (n_samples, n_samples)
        Every row and every column sums to zero; exactly symmetric when K is.
    """
    K = check_square(K, check_finite=False)
    if centering is None:
        centering = KernelCentering.fit(K)
    # A NaN or inf anywhere makes its column mean non-finite: a free check.
    if not np.isfinite(centering.column_means).all():
        raise ValueError(NON_FINITE_KERNEL)
    if not copy and not K.flags.writeable:
        raise ValueError("center_kernel(copy=False) needs a writeable array.")
    # K~[i, j] = K[i, j] - (h[i] + h[j]): one symmetric formula for both triangles.
    h = centering.column_means - 0.5 * centering.grand_mean
    if copy:
        # The result's own memory holds h[i] + h[j] first, then K minus it: one n x n
        # allocation, the result itself, and the caller's K is only read.
        K_centered = np.add.outer(h, h)
        np.subtract(K, K_centered, out=K_centered)
        return K_centered
    subtract_pairwise_sums(K, h)
    return K


def center_kernel_textbook(K: np.ndarray) -> np.ndarray:
    """The same centring written literally with the matrix 1_n (every entry 1/n).

    Slow (two extra matrix products) and memory hungry; it exists so a student can
    see that the formula and :func:`center_kernel` give the same matrix.
    """
    K = check_square(K)
    n = K.shape[0]
    ones_n = np.full((n, n), 1.0 / n)
    return K - ones_n @ K - K @ ones_n + ones_n @ K @ ones_n


def center_test_kernel(
    K_test: np.ndarray, centering: KernelCentering, *, copy: bool = True
) -> np.ndarray:
    """Centre the kernel between new points and the training points.

    K~_t[a, j] = K_t[a, j] - colmean_train[j] - rowmean_t[a] + grandmean_train, where
    rowmean_t[a] = (1/n) sum_i k(x_a, x_i) is the mean over the *training* points,
    i.e. K_t 1_n.

    Parameters
    ----------
    K_test : ndarray of shape (n_test, n_train)
        k(new point, training point).
    centering : KernelCentering
        Statistics of the training kernel, from ``KernelCentering.fit(K_train)``.
    """
    K_test = np.asarray(K_test, dtype=np.float64)
    n_train = centering.column_means.shape[0]
    if K_test.ndim != 2 or K_test.shape[1] != n_train:
        raise ValueError(
            f"The test kernel must have one column per training point ({n_train}); "
            f"got shape {K_test.shape}."
        )
    if copy:
        K_test = K_test.copy()
    row_means = K_test.mean(axis=1)
    K_test -= centering.column_means[None, :]
    K_test -= row_means[:, None]
    K_test += centering.grand_mean
    return K_test
