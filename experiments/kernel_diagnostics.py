"""Does the kernel's scale suit the data? Pure diagnostics, per kernel, in both directions.

Kernel PCA degenerates in three ways when γ does not match the scale of the data:

* **γ too large** (RBF, Laplacian): every point is similar only to itself, K ≈ I, so
  K̃ ≈ a multiple of the centring projector and its spectrum is flat: no direction stands
  out. Measured by the *effective rank* of K̃, (tr K̃)² / ‖K̃‖²_F (the participation ratio
  of its eigenvalues): it equals n − 1 exactly for a scaled projector.
* **γ too small** (every kernel with a γ): k(x, y) becomes an affine function of xᵀy or
  of ‖x − y‖² (first-order Taylor expansion), so K̃ ≈ c · X̃X̃ᵀ and kernel PCA is linear
  PCA. Measured by the subspace similarity of the kernel and linear PCA scores.
* **sigmoid saturated**: tanh(γ xᵀy + c₀) = ±1 for most pairs. On data with xᵀy > 0
  (iris, raw pixel intensities) K ≈ all ones and K̃ ≈ 0: every point sits at the origin.
  This is the opposite of "K ≈ I", and the RBF median heuristic does not apply to it.

Everything here is a pure function of arrays (no Streamlit); the Explorer and the tests
call the same code.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.spatial.distance import pdist

from experiments.sampling import sample_rows

GAMMA_KERNELS = ("rbf", "laplacian", "poly", "sigmoid")
DISTANCE_KERNELS = ("rbf", "laplacian")

# Thresholds, calibrated on the cases of the issue (see tests/experiments):
# K̃ is "close to a scaled identity" when its variance is spread over more than this
# share of its n − 1 possible directions (USPS with γ = 10: 1.00; Swiss roll with γ = 10:
# 0.94, γ = 1: 0.64; circles with γ = 10: 0.04; moons with γ = 15: 0.07).
FLAT_EFFECTIVE_RANK_SHARE = 0.5
# "Kernel PCA ≈ linear PCA" when the shown kernel components span the same subspace as
# the linear ones up to this mean squared canonical correlation.
LINEAR_SIMILARITY = 0.98
# |k(x, y)| ≥ SATURATED_VALUE counts as saturated (tanh(2.65) = 0.99);
# more than SATURATED_SHARE of the pairs saturated is a saturated kernel.
SATURATED_VALUE = 0.99
SATURATED_SHARE = 0.5
# Feature standard deviations differing by more than this factor: suggest standardising.
SCALE_RATIO = 100.0

REFERENCE_NAMES = {
    "rbf": "the median heuristic 1/median ‖x−y‖²",
    "laplacian": "1/median ‖x−y‖₁",
    "poly": "1/median |xᵀy|",
    "sigmoid": "1/median |xᵀy|",
}
REFERENCE_SHORT = {
    "rbf": "median heuristic",
    "laplacian": "1/median ‖x−y‖₁",
    "poly": "1/median |xᵀy|",
    "sigmoid": "1/median |xᵀy|",
}


def reference_gamma(
    X: np.ndarray, kernel: str, *, max_samples: int = 1000, seed: int = 0
) -> float | None:
    """The γ that puts a typical pair of points at the kernel's natural scale.

    * RBF: 1 / median ‖x − y‖² (the median heuristic: a typical k(x, y) = e⁻¹).
    * Laplacian: 1 / median ‖x − y‖₁ (same idea with its own distance).
    * polynomial, sigmoid: 1 / median |xᵀy| over pairs, so γ xᵀy is of order 1 and
      tanh is neither linear nor saturated.

    Rows beyond ``max_samples`` are subsampled (seeded). None for kernels without γ,
    fewer than 2 points, or data with no scale (all identical / all zero).
    """
    if kernel not in GAMMA_KERNELS:
        return None
    X = np.asarray(X, dtype=float)
    if X.shape[0] < 2:
        return None
    if X.shape[0] > max_samples:
        X = X[sample_rows(X.shape[0], max_samples, seed)]
    if kernel == "rbf":
        typical = float(np.median(pdist(X, "sqeuclidean")))
    elif kernel == "laplacian":
        typical = float(np.median(pdist(X, "cityblock")))
    else:
        inner = X @ X.T
        typical = float(np.median(np.abs(inner[np.triu_indices(len(X), k=1)])))
    if not typical > 0 or not math.isfinite(typical):
        return None
    return 1.0 / typical


def round_gamma(gamma: float) -> float:
    """Two significant digits: a γ a person can read, say and type."""
    if gamma <= 0 or not math.isfinite(gamma):
        return gamma
    return float(f"{gamma:.2g}")


def format_ratio(ratio: float) -> str:
    """A multiple as people say it: 0.25, 4.1, 230, 5,500; scientific only beyond that."""
    if 0.01 <= ratio < 100:
        return f"{ratio:.2g}"
    if 100 <= ratio < 1e5:
        return f"{ratio:,.0f}"
    return f"{ratio:.1e}"


def feature_scale_ratio(X: np.ndarray) -> float:
    """Largest / smallest non-zero feature standard deviation (1 for a single feature)."""
    std = np.asarray(X, dtype=float).std(axis=0)
    std = std[std > 0]
    if len(std) < 2:
        return 1.0
    return float(std.max() / std.min())


def saturated_share(K: np.ndarray, *, value: float = SATURATED_VALUE, chunk: int = 512) -> float:
    """Share of off-diagonal entries with |K_ij| ≥ ``value`` (row chunks: no n × n temporary)."""
    n = K.shape[0]
    if n < 2:
        return 0.0
    count = 0
    for start in range(0, n, chunk):
        block = np.abs(K[start : start + chunk])
        count += int(np.count_nonzero(block >= value))
    diagonal = int(np.count_nonzero(np.abs(np.diagonal(K)) >= value))
    return (count - diagonal) / (n * (n - 1))


def effective_rank(trace: float, frobenius: float) -> float:
    """Participation ratio (Σλ)² / Σλ² = (tr K̃)² / ‖K̃‖²_F: how many directions share the variance.

    1 when a single eigenvalue holds everything; n − 1 for a scaled centring projector
    (K̃ of K = I). Needs no eigendecomposition, so it is exact for any n.
    """
    if not frobenius > 0:
        return 0.0
    return float(trace**2 / frobenius**2)


def subspace_similarity(A: np.ndarray, B: np.ndarray) -> float:
    """Mean squared canonical correlation between the column spaces of A and B (centred).

    1 when every column of A is a linear combination of the columns of B and vice versa
    (the same picture up to rotation and scaling), 0 when they are uncorrelated.
    Columns with no variance are ignored.
    """
    def basis(M):
        M = np.asarray(M, dtype=float)
        M = M - M.mean(axis=0)
        keep = M.std(axis=0) > 1e-12 * max(1.0, float(np.abs(M).max(initial=0.0)))
        if not keep.any():
            return None
        q, _ = np.linalg.qr(M[:, keep])
        return q

    qa, qb = basis(A), basis(B)
    if qa is None or qb is None:
        return 0.0
    cosines = np.linalg.svd(qa.T @ qb, compute_uv=False)
    return float(np.sum(np.clip(cosines, 0.0, 1.0) ** 2) / max(qa.shape[1], qb.shape[1]))


@dataclass(frozen=True)
class KernelStats:
    """Cheap summaries of K and K̃ the diagnostics need (computed once per fit).

    Attributes
    ----------
    n : int
    effective_rank : float
        (tr K̃)² / ‖K̃‖²_F, see :func:`effective_rank`.
    centred_share : float
        ‖K̃‖_F / ‖K‖_F: near 0 when K is close to a constant matrix.
    saturated_share : float
        Share of off-diagonal |K_ij| ≥ ``SATURATED_VALUE`` (relevant for the sigmoid).
    linear_similarity : float
        :func:`subspace_similarity` of the shown kernel and linear PCA scores.
    """

    n: int
    effective_rank: float
    centred_share: float
    saturated_share: float
    linear_similarity: float


@dataclass(frozen=True)
class Finding:
    """One diagnosis: what is wrong (``kind``), in words, and a γ that fixes it."""

    kind: str  # "too_large" | "too_small" | "saturated" | "scales_differ"
    message: str
    suggested_gamma: float | None = None


def diagnose(
    kernel: str,
    gamma: float,
    stats: KernelStats,
    *,
    reference: float | None,
    suggestion: float | None = None,
    scale_ratio: float = 1.0,
    standardized: bool = False,
) -> list[Finding]:
    """What, if anything, is wrong with γ for these data, with a reachable fix.

    Parameters
    ----------
    kernel, gamma : the kernel and its γ.
    stats : :class:`KernelStats` of the fit.
    reference : :func:`reference_gamma` of the inputs for this kernel.
    suggestion : the γ to offer (e.g. the data set's own suggestion); defaults to
        ``reference`` rounded to two digits.
    scale_ratio : :func:`feature_scale_ratio` of the raw inputs.
    standardized : whether the inputs are already standardised.
    """
    if kernel not in GAMMA_KERNELS:
        return []
    findings: list[Finding] = []
    relative = (
        f" ({format_ratio(gamma / reference)} × {REFERENCE_SHORT[kernel]})" if reference else ""
    )

    def offer(lower: bool) -> float | None:
        """The suggestion if it moves γ the right way (by at least 1.5×), else the reference."""
        if suggestion is not None and (
            suggestion < gamma / 1.5 if lower else suggestion > 1.5 * gamma
        ):
            return suggestion
        return round_gamma(reference) if reference else None

    def fix(value: float | None) -> str:
        return f" Try γ ≈ {value:.2g}." if value else ""

    if kernel == "sigmoid" and stats.saturated_share > SATURATED_SHARE:
        lower = offer(lower=True)
        where = (
            "K ≈ a matrix of ±1, K̃ ≈ 0 and every point is projected close to the origin"
            if stats.centred_share < 0.05
            else "most entries of K are ±1, so the kernel only sees the sign of γ xᵀy + c₀"
        )
        findings.append(Finding(
            "saturated",
            f"The sigmoid is saturated: with γ = {gamma:.3g}{relative}, tanh(γ xᵀy + c₀) is "
            f"±1 for {100 * stats.saturated_share:.0f}% of the pairs, so {where}. "
            "Lower γ until γ xᵀy is of order 1 (the median heuristic is for distance "
            f"kernels such as RBF and does not apply to the sigmoid).{fix(lower)}",
            lower,
        ))
    elif (
        kernel in DISTANCE_KERNELS
        and stats.n > 2
        and stats.effective_rank > FLAT_EFFECTIVE_RANK_SHARE * (stats.n - 1)
        and (reference is None or gamma > 2 * reference)
    ):
        lower = offer(lower=True)
        findings.append(Finding(
            "too_large",
            f"γ = {gamma:.3g}{relative} is too large for these data: each point is similar "
            "only to itself and its nearest neighbours, so K ≈ I and K̃ ≈ a scaled identity. "
            f"The variance is spread over about {stats.effective_rank:.0f} of the "
            f"{stats.n - 1} possible directions (a flat spectrum): no direction stands "
            f"out and the projections show little structure. Lower γ.{fix(lower)}",
            lower,
        ))
    elif stats.linear_similarity >= LINEAR_SIMILARITY and (
        reference is None or gamma < reference / 2
    ):
        higher = offer(lower=False)
        findings.append(Finding(
            "too_small",
            f"γ = {gamma:.3g}{relative} is so small that the kernel is nearly linear in the "
            "inputs: the kernel PCA picture spans the same subspace as linear PCA "
            f"(subspace similarity {stats.linear_similarity:.3f}; 1 = identical), so it "
            f"shows nothing linear PCA does not. Raise γ.{fix(higher)}",
            higher,
        ))
    if scale_ratio > SCALE_RATIO and not standardized:
        findings.append(Finding(
            "scales_differ",
            f"The input features' spreads differ by a factor of {scale_ratio:,.0f}: the "
            "kernel sees almost only the widest ones. Consider 'Standardise inputs' "
            "(γ then follows the new scale).",
        ))
    return findings
