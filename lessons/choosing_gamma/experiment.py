"""How a kernel parameter changes kernel PCA: a sweep over γ (or the polynomial's d, c₀).

For each value: one kernel PCA fit (:func:`experiments.kpca_steps.fit_kpca`), its 2-D
projection, the leading eigenvalues' share of trace(K̃) (the spectrum's shape), the
mean similarity between distinct points, how close components 1–2 are to linear PCA's
plane, and how well a linear classifier separates the classes on the first two and on
the first k components (:func:`experiments.separability.linear_separability`, 5-fold
cross-validation): the same score, on the same sample, as the γ guidance
(:mod:`experiments.gamma_guidance`), so a γ both try scores the same in both.

Neighbouring panels get consistent component signs (:func:`align_signs`): an
eigenvector's sign is arbitrary, and a picture that flips between γ = 3 and γ = 10
for no reason teaches the wrong thing.

The page (``app_pages/choosing_gamma.py``) and ``benchmarks/bench_gamma_sweep.py`` both
call :func:`sweep`.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from experiments.gamma_guidance import SAMPLE_SIZE
from experiments.kernel_diagnostics import (  # noqa: F401 - the page's grid, re-exported
    PANELS,
    SPECTRUM_TOP,
    format_gamma,
    gamma_grid,
    nearest_gamma_index,
    subspace_similarity,
)
from experiments.kpca_steps import fit_kpca
from experiments.separability import linear_separability
from kpca_core import explained_variance_ratio
from words.i18n import _, format_number
from words.kernel_params import SYMBOLS

DEGREES = tuple(range(1, 9))
# c₀ of the polynomial kernel (all in the sidebar's range, on its 0.1 steps; c₀ ≥ 0 keeps
# the kernel positive semi-definite).
COEF0_VALUES = (0.0, 0.1, 0.2, 0.5, 1.0, 2.0, 3.0, 5.0)
# Larger data are swept on a stratified sample of this size: the γ guidance's sample
# (the same rows, experiments.sampling.stratified_rows), so that both score a γ alike.
SWEEP_MAX_N = SAMPLE_SIZE
# BLAS threads during a sweep. Its matrices are small (n ≤ 1,000), where a second
# thread gains little, and on a busy 2-core host OpenBLAS threads that wait for each
# other cost far more: measured on circles n = 500 with the machine loaded, one sweep
# took 22–50 s with the default threads and 4.9–5.3 s with one.
SWEEP_BLAS_THREADS = 1
# A spectrum is flat when μ₁ is within this much of trace(K̃) / (n − 1), the value every
# eigenvalue takes when K̃ = c (I − 1/n) (an RBF K ≈ I): no direction stands out, and the
# projection is one arbitrary pair of many equal directions.
FLAT_WITHIN = 0.1

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class Evaluation:
    """Kernel PCA with one parameter value: its picture and its numbers."""

    projection: np.ndarray  # (n, 2) first two components
    eigenvalues: np.ndarray  # (≤ SPECTRUM_TOP,) leading eigenvalues μ of K̃, descending
    trace: float  # trace(K̃)
    mean_similarity: float
    linear_similarity: float  # components 1–2 against linear PCA's plane (1 = the same)
    score_two: float | None  # separability on components 1–2
    score_k: float | None  # separability on components 1–k
    n_negative: int  # genuinely negative eigenvalues among the leading ones
    # Why μ / trace(K̃) is no share of variance at this value (trace(K̃) ≤ 0), or None.
    share_problem: str | None = None

    @property
    def leading_share(self) -> np.ndarray:
        """μ / trace(K̃) of the leading eigenvalues (the spectrum's shape); NaN where that
        is no share (:attr:`share_problem`): never a made-up 0 %."""
        if self.share_problem is not None:
            return np.full(self.eigenvalues.shape, np.nan)
        return explained_variance_ratio(self.eigenvalues, self.trace)


def evaluate(
    X: np.ndarray, y: np.ndarray | None, *, kernel: str, kernel_params: dict, n_components: int,
    linear_plane: np.ndarray | None = None,
) -> Evaluation:
    """Fit kernel PCA with these parameters and score its first 2 and first k components.

    ``linear_plane``: linear PCA's first two components of X (computed here if not given),
    for :func:`experiments.kernel_diagnostics.subspace_similarity`."""
    n = X.shape[0]
    k = max(2, min(n_components, n - 1))
    fit = fit_kpca(X, kernel=kernel, kernel_params=kernel_params,
                   n_components=min(n - 1, max(k, SPECTRUM_TOP)))
    Z = fit.projection
    if linear_plane is None:
        linear_plane = PCA(n_components=min(2, X.shape[1])).fit_transform(X)
    return Evaluation(
        projection=Z[:, :2].copy(),
        eigenvalues=fit.eigenvalues,
        trace=fit.trace,
        mean_similarity=fit.mean_similarity,
        linear_similarity=subspace_similarity(Z[:, :2], linear_plane),
        score_two=(two := linear_separability(Z[:, :2], y)),
        score_k=two if k == 2 else linear_separability(Z[:, :k], y),
        n_negative=int(fit.negative.sum()),
        share_problem=fit.share_problem,
    )


@dataclass(frozen=True)
class Sweep:
    """Kernel PCA across values of one parameter (γ, the degree or c₀).

    Attributes
    ----------
    param : {"gamma", "degree", "coef0"}
    values : (m,) float
    evaluations : tuple of Evaluation, one per value
    k : int
        Components used by ``score_k``.
    linear_two, linear_k : float or None
        Linear PCA's separability on its first 2 and first min(k, d) components.
    linear_share_two : float
        Share of the input variance in linear PCA's first two components.
    n : int
        Points swept (a subsample when the data have more than ``SWEEP_MAX_N``).
    reference : float or None
        The kernel's reference γ for the data, given by the caller (γ sweeps).
    """

    param: str
    values: np.ndarray
    evaluations: tuple[Evaluation, ...]
    k: int
    linear_two: float | None
    linear_k: float | None
    linear_share_two: float
    n: int
    reference: float | None = None

    @property
    def score_two(self) -> np.ndarray | None:
        return _scores(self.evaluations, "score_two")

    @property
    def score_k(self) -> np.ndarray | None:
        return _scores(self.evaluations, "score_k")

    @property
    def projections(self) -> np.ndarray:
        """(m, n, 2), in the signs each fit chose (see :func:`align_signs`)."""
        return np.stack([e.projection for e in self.evaluations])

    @property
    def top_share(self) -> np.ndarray:
        """μ₁ / trace(K̃) for each value."""
        return np.array([e.leading_share[0] for e in self.evaluations])

    @property
    def flat_share(self) -> float:
        """μ₁ / trace(K̃) when K̃ = c (I − 1/n) (K = I): every direction alike, 1 / (n − 1)."""
        return 1.0 / (self.n - 1)

    @property
    def flat(self) -> np.ndarray:
        """Which values give a flat spectrum: μ₁ / trace(K̃) within ``FLAT_WITHIN`` of
        1 / (n − 1) (bool per value; False where μ₁ / trace(K̃) is no share)."""
        with np.errstate(invalid="ignore"):
            return self.top_share <= (1.0 + FLAT_WITHIN) * self.flat_share

    @property
    def no_share(self) -> np.ndarray:
        """Which values have no share of variance (trace(K̃) ≤ 0: bool per value)."""
        return np.array([e.share_problem is not None for e in self.evaluations])

    def best_index(self, scores: np.ndarray | None = None) -> int | None:
        """Index of the best score (first 2 components by default); ties → smallest value.

        The smallest value on a tie is the smoothest kernel that does as well.
        """
        scores = self.score_two if scores is None else scores
        if scores is None:
            return None
        return int(np.flatnonzero(scores >= scores.max() - 1e-12)[0])


def _scores(evaluations, name: str) -> np.ndarray | None:
    values = [getattr(e, name) for e in evaluations]
    return None if any(v is None for v in values) else np.array(values, dtype=float)


def sweep(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel: str,
    kernel_params: dict,
    param: str,
    values: Sequence[float],
    n_components: int,
    on_progress: Progress | None = None,
    reference: float | None = None,
) -> Sweep:
    """Evaluate kernel PCA for each value of ``param`` (the other parameters fixed).

    ``X`` and ``y`` are used as given: the caller subsamples large data
    (``experiments.sampling.stratified_rows``) and says so. ``reference``: the kernel's
    reference γ (kept for the page's marker).
    """
    report = on_progress or (lambda fraction, text: None)
    X = np.asarray(X, dtype=np.float64)
    n, d = X.shape
    k = max(2, min(n_components, n - 1))
    evaluations = []
    symbol = SYMBOLS[param]
    two = min(2, d)
    with threadpool_limits(limits=SWEEP_BLAS_THREADS, user_api="blas"):
        pca = PCA(svd_solver="full").fit(X)
        linear = pca.transform(X)
        for i, value in enumerate(values):
            shown = format_gamma(value) if param == "gamma" else format_number(value, "g")
            report(i / len(values),
                   _("Kernel PCA with {symbol} = {value} ({done} of {total})").format(
                       symbol=symbol, value=shown, done=format_number(i + 1),
                       total=format_number(len(values))))
            params = {**kernel_params, param: int(value) if param == "degree" else float(value)}
            evaluations.append(
                evaluate(X, y, kernel=kernel, kernel_params=params, n_components=k,
                         linear_plane=linear[:, :two])
            )
        report(1.0, _("Done"))
    result = Sweep(
        param=param,
        values=np.asarray(values, dtype=float),
        evaluations=tuple(evaluations),
        k=k,
        linear_two=linear_separability(linear[:, :two], y),
        linear_k=linear_separability(linear[:, : min(k, d)], y),
        linear_share_two=float(np.sum(pca.explained_variance_ratio_[:two])),
        n=n,
        reference=reference,
    )
    return result


def align_signs(projections: np.ndarray, anchor: int) -> np.ndarray:
    """Flip components so that each panel agrees in sign with its neighbour.

    Starting from panel ``anchor`` (kept as it is), each panel to its right is compared
    with the one before it and each to its left with the one after it: component c is
    negated when its correlation with the neighbour's component c is negative.

    Parameters
    ----------
    projections : (m, n, c) array
    anchor : int

    Returns
    -------
    aligned : (m, n, c) array, a new array
    """
    aligned = np.array(projections, dtype=float)
    m = aligned.shape[0]
    order = [*range(anchor + 1, m), *range(anchor - 1, -1, -1)]
    for i in order:
        neighbour = i - 1 if i > anchor else i + 1
        dots = np.einsum("nc,nc->c", aligned[i], aligned[neighbour])
        aligned[i] *= np.where(dots < 0, -1.0, 1.0)
    return aligned


def nearest_index(values: np.ndarray, value: float, *, log: bool = True) -> int:
    """The panel whose value is nearest to ``value`` (on a log scale for γ: ``log``)."""
    values = np.asarray(values, dtype=float)
    if log:
        return nearest_gamma_index(values, value)
    return int(np.argmin(np.abs(values - value)))


def rescaling_gap(X: np.ndarray, *, degree: int, gamma: float, factor: float = 10.0) -> float:
    """The polynomial kernel with c₀ = 0: how far γ → factor·γ is from a pure rescaling.

    (factor·γ xᵀy)ᵈ = factorᵈ (γ xᵀy)ᵈ, so K̃ scales by factorᵈ, its eigenvectors stay and
    the projections √μ v scale by factor^(d/2). Returns the largest difference between
    the rescaled components 1–2 at γ and those at factor·γ (up to each component's sign),
    relative to their largest entry: 0 up to rounding.
    """
    params = {"degree": int(degree), "coef0": 0.0}
    with threadpool_limits(limits=SWEEP_BLAS_THREADS, user_api="blas"):
        low = fit_kpca(X, kernel="poly", kernel_params={**params, "gamma": gamma},
                       n_components=2).projection
        high = fit_kpca(X, kernel="poly", kernel_params={**params, "gamma": factor * gamma},
                        n_components=2).projection
    scaled = low * factor ** (degree / 2)
    gap = np.minimum(np.abs(high - scaled).max(axis=0), np.abs(high + scaled).max(axis=0))
    return float(gap.max() / max(np.abs(high).max(), np.finfo(float).tiny))
