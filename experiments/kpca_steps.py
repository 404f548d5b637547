"""One kernel PCA fit written as kpca_core's steps, keeping what later projections need.

Several lessons take kernel PCA apart: they project points that are not in the training
set (a grid over the plane, a point the student places, noisy digits), check a step's
formula on the matrices it produced, or time the steps. They need the training kernel's
centring statistics and the expansion coefficients α, not only the training coordinates.
:class:`~kpca_core.KernelPCA` keeps those privately; :class:`KpcaFit` keeps them in the
open, step by step as the paper writes them (Schölkopf, Smola & Müller 1998, eqs. 14–16,
49). :func:`fit_kpca` runs every step; a lesson that inspects or times the matrices in
between runs the steps itself and hands the eigenpairs to :meth:`KpcaFit.from_eigenpairs`.
Tests check both against ``KernelPCA`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_core import (
    DegenerateSpectrumError,
    Eigendecomposition,
    KernelCentering,
    center_kernel,
    center_test_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
    project_training_points,
    scale_eigenvectors,
)
from words.i18n import N_

# Eigenvalues of K̃ carry the rounding of K's entries, about eps · max|K| each: up to
# n · eps · max|K| in all. When K ≈ all ones (a tiny RBF γ) that floor is far above
# μ₁ · 1e-12, the relative cut kpca_core.clean_eigenvalues makes, and eigenvalues of
# ~1e-14 next to μ₁ ~ 1e-3 are rounding noise whose α = v / √μ magnify it into
# structure. Below this many times that floor an eigenvalue counts as 0.
ROUNDING_FLOOR = 10.0


def rounding_floor(n: int, kernel_scale: float) -> float:
    """The size below which an eigenvalue of an n × n centred K is rounding:
    10 · n · eps · max|K| (``kernel_scale`` = max|K|)."""
    return ROUNDING_FLOOR * n * np.finfo(np.float64).eps * float(kernel_scale)


def genuinely_negative(eigenvalues: np.ndarray, n: int, kernel_scale: float) -> np.ndarray:
    """Which eigenvalues of an n × n K̃ are negative beyond the rounding of K's entries
    (below −:func:`rounding_floor`): the kernel is indefinite on these data. A cut
    relative to μ₁ misses them where K̃ ≪ K (a saturated sigmoid, K ≈ all ones)."""
    return np.asarray(eigenvalues, dtype=float) < -rounding_floor(n, kernel_scale)


def variance_share_problem(trace: float, floor: float = 0.0) -> str | None:
    """Why μ / trace(K̃) is no share of variance here, or None when it is one.

    trace(K̃) = Σμ is the variance in feature space (times n) only when it is positive:
    an indefinite kernel (the sigmoid) can have negative eigenvalues that outweigh the
    positive ones, and when K̃ is within rounding of 0 (``floor``, :func:`rounding_floor`:
    a saturated sigmoid, K ≈ all ones) there is no variance to share. Every page that
    would show a share says this sentence instead: in English (a page compares it), marked
    for the catalog, shown as ``_(sentence)``.
    """
    if abs(trace) <= floor or trace == 0:
        return N_("trace(K̃) is 0 to within the rounding of K, so 'share of variance' means "
                  "nothing here: every point sits at the centre of feature space.")
    if trace < 0:
        return N_("trace(K̃) is negative, so 'share of variance' means nothing here: negative "
                  "eigenvalues outweigh the positive ones.")
    return None


def variance_shares(eigenvalues: np.ndarray, trace: float, floor: float = 0.0) -> np.ndarray:
    """μ / trace(K̃) for each eigenvalue μ, or NaN for all of them where that is no share
    (:func:`variance_share_problem`): never a made-up 0 %."""
    values = np.asarray(eigenvalues, dtype=np.float64)
    if variance_share_problem(trace, floor) is not None:
        return np.full(values.shape, np.nan)
    return values / trace


@dataclass(frozen=True, eq=False)
class KpcaFit:
    """A fitted kernel PCA, with everything needed to project new points.

    Attributes
    ----------
    X : (n, d) float
        The training inputs (as the kernel sees them).
    kernel : str
    kernel_params : dict
    centering : KernelCentering
        Column means and grand mean of the training kernel K.
    eigenvalues : (k,) float
        Leading eigenvalues of K̃, descending, rounding noise set to 0: relative to μ₁
        (``kpca_core.clean_eigenvalues``) and below the rounding of K's entries
        (:func:`rounding_floor`).
    negative : (k,) bool
        Which of them are genuinely negative (indefinite kernel).
    eigenvectors : (n, k) float
        Unit eigenvectors v of K̃ (signs fixed by ``kpca_core.flip_signs``).
    alphas : (n, k) float
        α = v / sqrt(μ), μ the eigenvalue of K̃ (so that αᵀK̃α = 1); 0 for components
        with μ ≤ 0.
    projection : (n, k) float
        Training coordinates K̃ α = sqrt(μ) v.
    trace : float
        trace(K̃), the total variance in feature space (times n).
    mean_similarity : float
        Mean of k(xᵢ, xⱼ) over pairs i ≠ j: near the kernel's maximum when every point
        looks like every other, near 0 (RBF) when each point only resembles itself.
    solver : str
        The eigensolver that answered ("dense", "arpack").
    kernel_scale : float or None
        max |k(xᵢ, xⱼ)|: the size of K's entries, whose rounding every later number
        carries (see :func:`rounding_floor`); None when the caller did not measure it
        (then no eigenvalue is cut as rounding beyond ``clean_eigenvalues``).
    """

    X: np.ndarray
    kernel: str
    kernel_params: dict
    centering: KernelCentering
    eigenvalues: np.ndarray
    negative: np.ndarray
    eigenvectors: np.ndarray
    alphas: np.ndarray
    projection: np.ndarray
    trace: float
    mean_similarity: float
    solver: str
    kernel_scale: float | None = None

    @classmethod
    def from_eigenpairs(
        cls, X: np.ndarray, eig: Eigendecomposition, *, kernel: str, kernel_params: dict,
        centering: KernelCentering, trace: float, mean_similarity: float,
        kernel_scale: float | None = None,
    ) -> KpcaFit:
        """The fit from the steps' results: K's statistics, trace(K̃) and K̃'s eigenpairs.

        Cleans the eigenvalues (as ``KernelPCA`` does) and scales the eigenvectors into
        α; for a lesson that builds and inspects K and K̃ itself. Given ``kernel_scale``
        (max|K|), eigenvalues at or below :func:`rounding_floor` count as 0 too.
        """
        values, negative = clean_eigenvalues(eig.eigenvalues)
        if kernel_scale is not None:
            values[(values > 0) & (values <= rounding_floor(len(X), kernel_scale))] = 0.0
            negative = genuinely_negative(eig.eigenvalues, len(X), kernel_scale)
            values[negative] = eig.eigenvalues[negative]
            values[(values < 0) & ~negative] = 0.0
        return cls(
            X=X,
            kernel=kernel,
            kernel_params=dict(kernel_params),
            centering=centering,
            eigenvalues=values,
            negative=negative,
            eigenvectors=eig.eigenvectors,
            alphas=scale_eigenvectors(eig.eigenvectors, values),
            projection=project_training_points(eig.eigenvectors, values),
            trace=float(trace),
            mean_similarity=float(mean_similarity),
            solver=eig.solver,
            kernel_scale=None if kernel_scale is None else float(kernel_scale),
        )

    @property
    def eigenvalue_floor(self) -> float:
        """Eigenvalues at or below this were set to 0 as rounding (:func:`rounding_floor`;
        0 when ``kernel_scale`` is unknown)."""
        if self.kernel_scale is None:
            return 0.0
        return rounding_floor(self.X.shape[0], self.kernel_scale)

    @property
    def explained_ratio(self) -> np.ndarray:
        """μ / trace(K̃) for each component held; NaN where that is no share of variance
        (:func:`variance_share_problem`)."""
        return variance_shares(self.eigenvalues, self.trace, self.eigenvalue_floor)

    @property
    def share_problem(self) -> str | None:
        """Why this fit's μ / trace(K̃) are no shares of variance (None: they are)."""
        return variance_share_problem(self.trace, self.eigenvalue_floor)

    def kernel_rows(self, points: np.ndarray) -> np.ndarray:
        """k(x, xᵢ) for every training point xᵢ: one row per point x of ``points``."""
        return compute_kernel(points, self.X, kernel=self.kernel, **self.kernel_params)

    def project(self, points: np.ndarray) -> np.ndarray:
        """yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) for each row x of ``points``.

        One test-kernel matrix (m × n, one GEMM inside ``compute_kernel``), centred with
        the *training* statistics, times α (another GEMM): no loop over points.
        """
        return self.project_kernel_rows(self.kernel_rows(points), copy=False)

    def project_kernel_rows(self, K_rows: np.ndarray, *, copy: bool = True) -> np.ndarray:
        """The projection of points given their kernel rows k(x, xᵢ) (m × n): K̃_t α,
        centred with the training statistics (in place when ``copy`` is False)."""
        return center_test_kernel(K_rows, self.centering, copy=copy) @ self.alphas


def mean_off_diagonal(K: np.ndarray) -> float:
    """Mean of K[i, j] over i ≠ j (1 for a single point)."""
    n = K.shape[0]
    return float((K.sum() - np.trace(K)) / (n * (n - 1))) if n > 1 else 1.0


def fit_kpca(
    X: np.ndarray, *, kernel: str, kernel_params: dict, n_components: int,
    overwrite: bool = False, random_state: int = 0,
) -> KpcaFit:
    """Fit kernel PCA on X with ``n_components`` leading components.

    Holds K (centred in place) plus the eigensolver's working copy: two n × n
    matrices at the peak; with ``overwrite`` the dense solver works in K itself and the
    peak is one n × n matrix. ``n_components`` must be ≤ n. The solver rule and the
    seed are KernelPCA's (``random_state=0``), so the two agree.
    """
    X = np.asarray(X, dtype=np.float64)

    def decompose(overwrite: bool) -> KpcaFit:
        K = compute_kernel(X, kernel=kernel, **kernel_params)
        mean_similarity = mean_off_diagonal(K)
        kernel_scale = max(float(K.max()), -float(K.min()))  # max|K|, without an n × n |K|
        centering = KernelCentering.fit(K)
        K = center_kernel(K, copy=False, centering=centering)  # refuses NaN/inf (overflow)
        trace = float(np.trace(K))
        eig = eigendecompose(K, n_components, random_state=random_state, overwrite=overwrite,
                             check_finite=False)
        del K
        return KpcaFit.from_eigenpairs(X, eig, kernel=kernel, kernel_params=kernel_params,
                                       centering=centering, trace=trace,
                                       mean_similarity=mean_similarity,
                                       kernel_scale=kernel_scale)

    try:
        return decompose(overwrite)
    except DegenerateSpectrumError:  # repeated leading eigenvalues: rebuild K, keep it
        return decompose(overwrite=False)
