"""How much rounding a live check must allow: tolerances that follow the problem.

A lesson page checks each formula on the current data ("largest |αᵀK̃α − 1|: 3e-15 ✓").
A fixed tolerance such as 1e-8 is right at the defaults and wrong at a tiny γ: with the
RBF kernel and γ = 1e-6, K is nearly all ones, K̃ is K minus its row and column means, and
every entry of K̃ is a difference of nearly equal numbers known only to about ε·max|K|
(ε = 2.2e-16, double precision). As a matrix, K̃ is then known to about

    rounding = n · ε · ‖K‖₂ ≤ n² · ε · max|Kᵢⱼ|        (:func:`kernel_rounding`)

and so is every eigenvalue μ of K̃ (eigensolvers are backward stable: they solve a problem
that close to the one given). That is the rounding between two routes that each build
their own kernel matrix; an identity checked on the one K̃ in memory (K̃v = μv, αᵀK̃α = 1)
sees only the eigensolver's n · ε · |μ₁| (:func:`solver_rounding`). What a check may then
see:

* an eigenvalue's relative error: rounding / μ; an eigenvector's: rounding / (the gap to
  the next eigenvalue). Quantities built with 1/μ or 1/√μ (α = v/√μ, αᵀK̃α, K̃α) grow the
  same way; an eigenvalue within rounding of 0 has no meaningful direction at all;
* eigenvalues that coincide (the two rings of noise-free circles give pairs) have no
  individual eigenvectors: any rotation within their eigenspace is as right, so two correct
  methods are compared up to that rotation (:func:`aligned_difference`), not component by
  component.

Each check keeps its own fixed tolerance as a floor and takes :data:`SAFETY` times the
rounding these bounds predict when that is larger (:func:`tolerance`), so the checks
pass wherever the maths holds and still fail on a genuine error (tests inject one).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.linalg import orthogonal_procrustes

EPS = float(np.finfo(np.float64).eps)
# How far above the predicted rounding a measurement may land: the bounds hold up to
# modest constants (pairwise summation, the eigensolver's own backward error).
SAFETY = 100.0
# Eigenvalues closer than this, relative to the largest, are treated as one (repeated)
# eigenvalue: their eigenvectors are not individually determined.
COINCIDE = 1e-6


def kernel_bound(X: np.ndarray, kernel: str, kernel_params: dict) -> float:
    """An upper bound on max |k(xᵢ, xⱼ)| over the rows of X, in O(n d) (no n × n matrix).

    RBF, Laplacian, sigmoid (tanh) and cosine: 1; linear: max ‖x‖²; polynomial:
    (|γ| max ‖x‖² + |c₀|)ᵈ (Cauchy–Schwarz: |xᵀy| ≤ ‖x‖‖y‖), γ = 1/d when not given, as
    :func:`kpca_core.compute_kernel` takes it.
    """
    if kernel in ("rbf", "laplacian", "sigmoid", "cosine"):
        return 1.0
    X = np.asarray(X, dtype=np.float64)
    squared = float(np.max(np.einsum("ij,ij->i", X, X))) if X.size else 0.0
    if kernel == "linear":
        return squared
    if kernel == "poly":
        gamma = kernel_params.get("gamma")
        gamma = 1.0 / X.shape[1] if gamma is None else float(gamma)
        coef0 = abs(float(kernel_params.get("coef0", 1.0)))
        return (abs(gamma) * squared + coef0) ** int(kernel_params.get("degree", 3))
    raise ValueError(f"no bound for kernel {kernel!r}")


def kernel_rounding(n: int, kernel_max: float) -> float:
    """How far rounding can move the eigenvalues of an n × n centred kernel matrix whose
    uncentred entries reach ``kernel_max``: n · ε · ‖K‖₂, with ‖K‖₂ ≤ n · max|Kᵢⱼ|."""
    return n * EPS * n * abs(kernel_max)


def solver_rounding(n: int, top: float) -> float:
    """How far rounding moves the eigenpairs of the K̃ in memory, for identities checked on
    that same matrix (K̃v = μv, αᵀK̃α = 1): the eigensolver's backward error, n · ε · |μ₁|."""
    return n * EPS * abs(top)


def coordinate_tolerance(floor: float, eigenvalues: np.ndarray, rounding: float) -> float:
    """Tolerance for coordinates √μ·v computed two ways: each component's is
    :data:`SAFETY` × ``rounding`` / √μ, but never more than 2√μ (two unit vectors differ by
    at most 2), so a component with μ near 0 cannot swamp the check; ``floor`` at least."""
    values = np.asarray(eigenvalues, dtype=np.float64)
    values = values[values > 0]
    if values.size == 0:
        return floor
    root = np.sqrt(values)
    return max(floor, float(np.max(np.minimum(2 * root, SAFETY * rounding / root))))


def tolerance(floor: float, rounding: float, size: float = 1.0) -> float:
    """``floor``, or :data:`SAFETY` × ``rounding`` / ``size`` when the rounding is larger.

    ``size`` says how the checked quantity meets the rounding: 1 for an absolute
    difference of eigenvalues, the smallest μ for a relative one or for αᵀK̃α (α = v/√μ),
    √μ for a coordinate K̃α.
    """
    if size <= 0:
        return math.inf
    return max(floor, SAFETY * rounding / size)


def above_rounding(eigenvalues: np.ndarray, rounding: float) -> np.ndarray:
    """Which eigenvalues stand clear of the rounding (> :data:`SAFETY` × ``rounding``):
    only those have a direction a check can compare."""
    return np.asarray(eigenvalues, dtype=np.float64) > SAFETY * rounding


def eigenvalue_groups(eigenvalues: np.ndarray, rounding: float = 0.0) -> list[np.ndarray]:
    """Runs of (descending) eigenvalues that coincide: neighbours closer than
    :data:`COINCIDE` × the largest |μ|, or than :data:`SAFETY` × ``rounding``."""
    values = np.asarray(eigenvalues, dtype=np.float64)
    if values.size == 0:
        return []
    close = max(COINCIDE * float(np.max(np.abs(values))), SAFETY * rounding)
    breaks = np.flatnonzero(np.abs(np.diff(values)) > close) + 1
    return np.split(np.arange(values.size), breaks)


def group_end(eigenvalues: np.ndarray, k: int, rounding: float = 0.0) -> int:
    """How many leading components hold every eigenvalue that coincides with one of the
    first k (≥ k): the columns a comparison of k components must include."""
    for group in eigenvalue_groups(eigenvalues, rounding):
        if group[0] < k <= group[-1]:
            return int(group[-1]) + 1
    return k


def aligned_difference(A: np.ndarray, B: np.ndarray, eigenvalues: np.ndarray,
                       rounding: float = 0.0) -> float:
    """max |A − B R| over the columns: two computations of the same principal components.

    R is what two correct computations may differ by: each component's sign, and, for
    components whose eigenvalues coincide (:func:`eigenvalue_groups`), any rotation
    within their eigenspace (the orthogonal Procrustes solution; the difference is 0
    exactly when both span the same subspace with the same spread). A group cut off by
    the last column cannot be compared: pass columns up to :func:`group_end`.
    """
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if A.shape != B.shape:
        raise ValueError(f"shapes differ: {A.shape} vs {B.shape}")
    worst = 0.0
    for group in eigenvalue_groups(np.asarray(eigenvalues)[: A.shape[1]], rounding):
        a, b = A[:, group], B[:, group]
        if a.size == 0:
            continue
        if len(group) == 1:
            gap = min(np.abs(a - b).max(), np.abs(a + b).max())
        else:
            rotation, _ = orthogonal_procrustes(b, a)
            gap = np.abs(a - b @ rotation).max()
        worst = max(worst, float(gap))
    return worst
