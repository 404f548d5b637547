"""One kernel PCA fit written as kpca_core's steps, keeping what later projections need.

The geometry lessons project points that are not in the training set (a grid over the
plane, a point the student places), so they need the training kernel's centring
statistics and the expansion coefficients α, not only the training coordinates.
:class:`~kpca_core.KernelPCA` keeps those privately; this fit keeps them in the open,
step by step as the paper writes them (Schölkopf, Smola & Müller 1998: the eigenproblem
nλα = K̃α, its normalisation and the centring of K).
Tests check it against ``KernelPCA`` itself.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from kpca_core import (
    KernelCentering,
    center_kernel,
    center_test_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
    explained_variance_ratio,
    project_training_points,
    scale_eigenvectors,
)


@dataclass(frozen=True)
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
        Leading eigenvalues of K̃, descending, rounding noise set to 0
        (``kpca_core.clean_eigenvalues``).
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

    @property
    def explained_ratio(self) -> np.ndarray:
        """μ / trace(K̃) for each component held."""
        return explained_variance_ratio(self.eigenvalues, self.trace)

    def project(self, points: np.ndarray) -> np.ndarray:
        """yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) for each row x of ``points``.

        One test-kernel matrix (m × n, one GEMM inside ``compute_kernel``), centred with
        the *training* statistics, times α (another GEMM): no loop over points.
        """
        K_test = compute_kernel(points, self.X, kernel=self.kernel, **self.kernel_params)
        K_test = center_test_kernel(K_test, self.centering, copy=False)
        return K_test @ self.alphas


def fit_kpca(
    X: np.ndarray, *, kernel: str, kernel_params: dict, n_components: int
) -> KpcaFit:
    """Fit kernel PCA on X with ``n_components`` leading components.

    Holds K (centred in place) plus the eigensolver's working copy: two n × n
    matrices at the peak. ``n_components`` must be ≤ n.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    mean_similarity = float((K.sum() - np.trace(K)) / (n * (n - 1))) if n > 1 else 1.0
    centering = KernelCentering.fit(K)
    Kc = center_kernel(K, copy=False, centering=centering)  # refuses NaN/inf (overflow)
    trace = float(np.trace(Kc))
    # Same solver rule and seed as KernelPCA(random_state=0), so the two agree.
    eig = eigendecompose(Kc, n_components, random_state=0, check_finite=False)
    values, negative = clean_eigenvalues(eig.eigenvalues)
    del K, Kc
    return KpcaFit(
        X=X,
        kernel=kernel,
        kernel_params=dict(kernel_params),
        centering=centering,
        eigenvalues=values,
        negative=negative,
        eigenvectors=eig.eigenvectors,
        alphas=scale_eigenvectors(eig.eigenvectors, values),
        projection=project_training_points(eig.eigenvectors, values),
        trace=trace,
        mean_similarity=mean_similarity,
    )
