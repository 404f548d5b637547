r"""DELIBERATELY WRONG versions of kernel PCA's formulas, for the common-mistakes lesson.

Every ``wrong_*`` function below reproduces an error found in published notes and code
(see the project's reference documents). None of them may be used to compute anything
but the damage it does: each docstring names the correct ``kpca_core`` function.
:data:`MISTAKES` says in words and LaTeX what each one gets wrong; the comparison with
the right computation lives in :mod:`lessons.mistakes.experiment`.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_core import center_kernel, compute_kernel

__all__ = [
    "MISTAKES",
    "Mistake",
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


@dataclass(frozen=True)
class Mistake:
    """What the page says about one mistake: a title, one line, the wrong and right formula."""

    key: str
    title: str
    description: str
    wrong_latex: str
    right_latex: str
    correct_function: str


MISTAKES: tuple[Mistake, ...] = (
    Mistake(
        "no_centering", "No centring at all",
        "Eigenvectors of K itself: the first axis points at the data's mean in feature "
        "space instead of along its spread.",
        r"K\,v = \mu\, v \quad\text{(K not centred)}",
        r"\tilde K\, v = \mu\, v,\qquad \tilde K = K - 1_n K - K 1_n + 1_n K 1_n",
        "kpca_core.center_kernel",
    ),
    Mistake(
        "last_sign", "Wrong sign on the last centring term",
        "−1ₙK1ₙ instead of +1ₙK1ₙ: the rows no longer sum to 0 and a spurious eigenvalue "
        "−2n·mean(K) appears.",
        r"\tilde K_{\text{wrong}} = K - 1_n K - K 1_n - 1_n K 1_n",
        r"\tilde K = K - 1_n K - K 1_n + 1_n K 1_n",
        "kpca_core.center_kernel",
    ),
    Mistake(
        "centred_inputs", "Centring the inputs instead of the feature space",
        "Subtracting the input mean before the kernel: harmless for kernels of x − y only "
        "(RBF, Laplacian) and for the linear kernel (its feature space is the input space), "
        "wrong for polynomial, sigmoid and cosine kernels.",
        r"K_{\text{wrong}} = k(x_i - \bar x,\; x_j - \bar x),\ \text{then centred}",
        r"K = k(x_i, x_j),\ \text{centred in feature space: } \tilde K",
        "kpca_core.compute_kernel + kpca_core.center_kernel",
    ),
    Mistake(
        "test_own_means", "Test kernel centred with its own means",
        "New points must be centred with the training statistics (1ₜ: m × n, entries 1/n), "
        "not their own (1ₘ: m × m, entries 1/m): the origin of feature space was fixed by "
        "the training set.",
        r"\tilde K_t^{\text{wrong}} = K_t - 1_m K_t - K_t 1_n + 1_m K_t 1_n",
        r"\tilde K_t = K_t - 1_t K - K_t 1_n + 1_t K 1_n",
        "kpca_core.center_test_kernel",
    ),
    Mistake(
        "scaling", "Eigenvectors not normalised in feature space",
        "The unit eigenvector v (or v/(μn)) used as α: the axes V = Σαᵢφ̃(xᵢ) are not unit "
        "length, so every component is stretched by its own factor.",
        r"\alpha = v \quad\text{or}\quad \alpha = \frac{v}{\mu\, n}",
        r"\alpha = \frac{v}{\sqrt{\mu}} \iff \alpha^\top \tilde K \alpha = 1",
        "kpca_core.scale_eigenvectors",
    ),
    Mistake(
        "uncentred_projection", "Projecting with the uncentred K",
        "Eigenvectors from K̃ but coordinates from K: every point moves by the same vector.",
        r"y_{\text{wrong}} = K\,\alpha",
        r"y = \tilde K\,\alpha",
        "kpca_core.project_new_points (with a centred kernel)",
    ),
    Mistake(
        "unsorted_eig", "A non-symmetric eigensolver, eigenvalues unsorted",
        "np.linalg.eig returns eigenvalues in no particular order; taking its first k "
        "columns picks arbitrary components.",
        r"\texttt{np.linalg.eig}(\tilde K)[\,:k\,]\ \text{(as returned)}",
        r"\texttt{eigh}(\tilde K),\ \mu_1 \ge \mu_2 \ge \dots",
        "kpca_core.eigendecompose",
    ),
)
