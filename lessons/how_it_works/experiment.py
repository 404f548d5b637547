r"""Kernel PCA one step at a time, each step timed and checked (no Streamlit).

The steps are kpca_core's own functions, called in the order of the algorithm
(Schölkopf, Smola & Müller 1998); what this module adds is the evidence that each
formula holds on the data at hand:

1. K[i, j] = k(x_i, x_j)             — against the kernel formula evaluated pair by pair;
2. K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ         — rows/columns sum to 0; the textbook form with
                                        explicit 1ₙ matrices gives the same matrix;
3. n λ α = K̃ α                        — μ = nλ are the eigenvalues of K̃ (scikit-learn's
                                        ``eigenvalues_``), residual ‖K̃v − μv‖;
4. α = v/√μ                           — αᵀK̃α = 1 ⇔ ‖α‖² = 1/μ (unit-length axes);
5. y(x) = Σᵢ αᵢ k̃(xᵢ, x)             — for training points (= √μ v) and for new points
                                        centred with the training statistics, against
                                        ``KernelPCA.transform``.

Convention used everywhere here: μ is an eigenvalue of K̃ itself; the paper's λ = μ / n.
"""

from __future__ import annotations

import time
import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import PCA

from experiments.feature_maps import sign_aligned_difference
from experiments.kpca_steps import KpcaFit, mean_off_diagonal
from kpca_core import (
    KernelCentering,
    KernelPCA,
    center_kernel,
    center_kernel_textbook,
    compute_kernel,
    eigendecompose,
)

__all__ = ["StepByStep", "kernel_value", "new_points", "step_by_step"]

TEXTBOOK_MAX_N = 200  # the textbook centring makes two n³ products: checked on a corner
PAIRS_CHECKED = 200
N_NEW_POINTS = 5


def kernel_value(x: np.ndarray, y: np.ndarray, kernel: str, params: dict) -> float:
    """k(x, y) for one pair, written literally from the formula (an independent check)."""
    gamma = params.get("gamma")
    if kernel == "linear":
        return float(np.dot(x, y))
    if kernel == "poly":
        return float((gamma * np.dot(x, y) + params["coef0"]) ** params["degree"])
    if kernel == "rbf":
        return float(np.exp(-gamma * np.sum((x - y) ** 2)))
    if kernel == "sigmoid":
        return float(np.tanh(gamma * np.dot(x, y) + params["coef0"]))
    if kernel == "laplacian":
        return float(np.exp(-gamma * np.sum(np.abs(x - y))))
    if kernel == "cosine":
        nx, ny = np.linalg.norm(x), np.linalg.norm(y)
        return 0.0 if nx == 0 or ny == 0 else float(np.dot(x, y) / (nx * ny))
    raise ValueError(f"unknown kernel {kernel!r}")


def new_points(X: np.ndarray, count: int = N_NEW_POINTS, seed: int = 0) -> np.ndarray:
    """Points that are not in the training set: midpoints of random pairs of rows."""
    rng = np.random.default_rng(seed)
    n = X.shape[0]
    first = rng.integers(0, n, count)
    second = (first + rng.integers(1, max(n, 2), count)) % n
    return 0.5 * (X[first] + X[second])


@dataclass(frozen=True)
class StepByStep:
    """Every number the step-by-step lesson shows (arrays are small: n × k at most).

    Attributes
    ----------
    n, d, k : sizes (k: components computed).
    fit : the fit the steps built (:class:`experiments.kpca_steps.KpcaFit`): μ (its
        eigenvalues, rounding noise set to 0), α, the centring statistics, the solver.
    kernel_table : (n, n) K itself when n ≤ 12, else None.
    pair_gap : max |K[i, j] − k(x_i, x_j)| over sampled pairs (formula evaluated literally).
    symmetry_gap : max |K − Kᵀ|.
    row_sum, column_sum : max |row sum| and |column sum| of K̃.
    textbook_gap : max |textbook K̃ − efficient K̃| on the first ``textbook_n`` points.
    textbook_n : points used for that check.
    trace : trace(K̃) = sum of all n eigenvalues.
    residual : max_k ‖K̃v − μv‖ / μ₁.
    paper_residual : max_k ‖K̃α − nλα‖ / (nλ₁‖α‖) with λ = μ/n.
    v_norm_gap : max |‖v‖ − 1|.
    alpha_sq_norm : (k,) ‖α‖²; expected 1/μ.
    axis_length_gap : max |αᵀK̃α − 1| over the components with μ > 0.
    alpha_norm_gap : max |μ‖α‖² − 1| over the components with μ > 0.
    train_projection : (n, k) K̃α.
    train_gap : max |K̃α − √μ v| (the shortcut for training points).
    estimator_train_gap : max |K̃α − KernelPCA.fit_transform| up to sign.
    new_X : (m, d) the new points; new_projection : (m, k) K̃_t α (training statistics).
    estimator_new_gap : max |K̃_t α − KernelPCA.transform| up to sign.
    estimator_mu_gap : max |μ − KernelPCA.eigenvalues_| (scikit-learn's convention).
    projection_scale : max |train projection| (tolerances are relative to it).
    times : dict step → seconds, measured in this fit.
    """

    n: int
    d: int
    k: int
    fit: KpcaFit
    kernel_table: np.ndarray | None
    pair_gap: float
    symmetry_gap: float
    row_sum: float
    column_sum: float
    textbook_gap: float
    textbook_n: int
    kernel_scale: float
    trace: float
    residual: float
    paper_residual: float
    v_norm_gap: float
    alpha_sq_norm: np.ndarray
    axis_length_gap: float
    alpha_norm_gap: float
    train_projection: np.ndarray
    train_gap: float
    estimator_train_gap: float
    new_X: np.ndarray
    new_projection: np.ndarray
    estimator_new_gap: float
    estimator_mu_gap: float
    projection_scale: float
    times: dict

    @property
    def mu(self) -> np.ndarray:
        """(k,) eigenvalues μ of K̃ (scikit-learn's ``eigenvalues_``)."""
        return self.fit.eigenvalues

    @property
    def positive(self) -> np.ndarray:
        """(k,) bool, μ > 0 (only those have a real axis)."""
        return self.fit.eigenvalues > 0

    @property
    def solver(self) -> str:
        return self.fit.solver


def step_by_step(
    X: np.ndarray, *, kernel: str, kernel_params: dict, n_components: int, seed: int = 0
) -> StepByStep:
    """Run kernel PCA step by step on X, timing and checking every step.

    Parameters
    ----------
    X : (n, d) inputs as the kernel sees them.
    kernel, kernel_params : as for :func:`kpca_core.compute_kernel`.
    n_components : k ≤ n − 1.
    seed : picks the pairs checked and the new points.
    """
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    k = min(n_components, n - 1)
    times: dict[str, float] = {}
    rng = np.random.default_rng(seed)

    start = time.perf_counter()
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    times["kernel"] = time.perf_counter() - start
    rows = rng.integers(0, n, PAIRS_CHECKED)
    cols = rng.integers(0, n, PAIRS_CHECKED)
    literal = np.array(
        [kernel_value(X[i], X[j], kernel, kernel_params) for i, j in zip(rows, cols, strict=True)]
    )
    pair_gap = float(np.abs(K[rows, cols] - literal).max())
    symmetry_gap = float(np.abs(K - K.T).max())
    kernel_scale = max(float(np.abs(K).max()), 1e-300)

    start = time.perf_counter()
    centering = KernelCentering.fit(K)
    Kc = center_kernel(K, centering=centering)
    times["centre"] = time.perf_counter() - start
    row_sum = float(np.abs(Kc.sum(axis=1)).max())
    column_sum = float(np.abs(Kc.sum(axis=0)).max())
    m = min(n, TEXTBOOK_MAX_N)
    textbook_gap = float(
        np.abs(center_kernel_textbook(K[:m, :m]) - center_kernel(K[:m, :m])).max()
    )
    kernel_table = K.copy() if n <= 12 else None
    mean_similarity = mean_off_diagonal(K)
    del K

    start = time.perf_counter()
    eig = eigendecompose(Kc, k, random_state=0)
    times["eigen"] = time.perf_counter() - start

    start = time.perf_counter()
    # Rounding-noise eigenvalues (|μ| ≤ 1e-12 μ₁) count as 0, as in KernelPCA: they
    # have no axis, and 1/√μ of noise would blow up. The fit cleans them, then α = v/√μ.
    fit = KpcaFit.from_eigenpairs(X, eig, kernel=kernel, kernel_params=kernel_params,
                                  centering=centering, trace=np.trace(Kc),
                                  mean_similarity=mean_similarity)
    alphas = fit.alphas
    train_projection = Kc @ alphas
    times["project"] = time.perf_counter() - start
    mu, V = fit.eigenvalues, fit.eigenvectors
    positive = mu > 0
    top = max(float(np.abs(mu).max()), 1e-300)
    residual = float(np.linalg.norm(Kc @ V - V * eig.eigenvalues, axis=0).max()) / top
    lam = mu / n  # the paper's eigenvalue
    alpha_norms = np.linalg.norm(alphas, axis=0)
    with np.errstate(invalid="ignore", divide="ignore"):
        paper = np.linalg.norm(Kc @ alphas - n * lam * alphas, axis=0) / (
            n * abs(lam[0]) * np.where(alpha_norms > 0, alpha_norms, 1.0)
        )
    axis_lengths = np.einsum("ik,ik->k", alphas, Kc @ alphas)
    alpha_sq = alpha_norms**2
    projection_scale = max(float(np.abs(train_projection).max()), 1e-300)
    del Kc

    X_new = new_points(X, seed=seed)
    new_projection = fit.project(X_new)

    model = KernelPCA(k, kernel=kernel, **kernel_params, negative_eigenvalues="warn",
                      random_state=0)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # indefinite kernels: the page says so itself
        estimator_train = model.fit_transform(X)
    estimator_new = model.transform(X_new)
    estimator_mu_gap = float(np.abs(model.eigenvalues_ - mu[: len(model.eigenvalues_)]).max())

    start = time.perf_counter()
    PCA(min(k, d, n), svd_solver="full").fit(X)
    times["linear_pca"] = time.perf_counter() - start

    return StepByStep(
        n=n, d=d, k=k,
        fit=fit,
        kernel_table=kernel_table,
        pair_gap=pair_gap,
        symmetry_gap=symmetry_gap,
        row_sum=row_sum,
        column_sum=column_sum,
        textbook_gap=textbook_gap,
        textbook_n=m,
        kernel_scale=kernel_scale,
        trace=fit.trace,
        residual=residual,
        paper_residual=float(np.nanmax(paper[positive])) if positive.any() else 0.0,
        v_norm_gap=float(np.abs(np.linalg.norm(V, axis=0) - 1.0).max()),
        alpha_sq_norm=alpha_sq,
        axis_length_gap=float(np.abs(axis_lengths[positive] - 1.0).max()) if positive.any()
        else 0.0,
        alpha_norm_gap=float(np.abs(mu[positive] * alpha_sq[positive] - 1.0).max())
        if positive.any() else 0.0,
        train_projection=train_projection,
        train_gap=float(np.abs(train_projection - fit.projection).max()),
        estimator_train_gap=sign_aligned_difference(train_projection, estimator_train),
        new_X=X_new,
        new_projection=new_projection,
        estimator_new_gap=sign_aligned_difference(new_projection, estimator_new),
        estimator_mu_gap=estimator_mu_gap,
        projection_scale=projection_scale,
        times=times,
    )
