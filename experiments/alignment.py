r"""Centred kernel–target alignment: how much the kernel matrix looks like the labels'.

Cortes, Mohri & Rostamizadeh (2012, "Algorithms for learning kernels based on centered
alignment", JMLR 13, 795–828; after Cristianini et al., NIPS 2001) score a kernel by the
cosine between its centred matrix and the centred Gram matrix of the labels:

    A(K, Y) = ⟨K̃, Ỹ⟩_F / (‖K̃‖_F ‖Ỹ‖_F),   K̃ = J K J,  Ỹ = J Y J,  J = I − 11ᵀ/n,

with Y_ij = 1 when points i and j have the same class, 0 otherwise (Y = Z Zᵀ for the
one-hot label matrix Z). It needs no classifier and no eigendecomposition: it asks whether
points of a class are more alike under the kernel than points of different classes, once
the kernel's constant part is removed.

Computed without forming Y or Ỹ: ⟨K̃, Ỹ⟩ = ⟨K̃, Y⟩ = Σ_c (sum of K̃ over the block of class
c) because J is symmetric and idempotent and K̃ = J K̃ J; and ‖Ỹ‖_F = ‖(JZ)ᵀ(JZ)‖_F, a
c × c matrix. Plain NumPy: the Choosing γ page and the classroom's question use it.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from scipy.stats import spearmanr

from experiments.kernel_diagnostics import format_gamma
from kpca_core import center_kernel, compute_kernel
from words.i18n import N_, _, format_number, join_sentences


def one_hot(y: np.ndarray) -> np.ndarray:
    """Z: one column per class, Z[i, c] = 1 when point i is of class c."""
    _, inverse = np.unique(np.asarray(y), return_inverse=True)
    return np.eye(int(inverse.max()) + 1)[inverse]


def centred_alignment(K: np.ndarray, y: np.ndarray, *, centred: bool = False) -> float:
    """A(K, Y) for a kernel matrix K (centred in a copy unless ``centred``) and labels y.

    Returns 0 for a constant kernel (K̃ = 0) and NaN with a single class (Ỹ = 0).
    """
    Kc = np.asarray(K, dtype=np.float64) if centred else center_kernel(K)
    Z = one_hot(y)
    Zc = Z - Z.mean(axis=0)
    label_norm = float(np.linalg.norm(Zc.T @ Zc))
    if label_norm == 0:
        return float("nan")
    inner = float(np.sum(Z * (Kc @ Z)))  # Σ_c 1_cᵀ K̃ 1_c
    kernel_norm = float(np.linalg.norm(Kc))
    return inner / (kernel_norm * label_norm) if kernel_norm > 0 else 0.0


def alignment_curve(X: np.ndarray, y: np.ndarray, *, kernel: str, kernel_params: dict,
                    param: str, values) -> np.ndarray:
    """A(K, Y) for each value of ``param`` (γ, the degree or c₀), the others fixed."""
    curve = []
    for value in values:
        params = {**kernel_params, param: int(value) if param == "degree" else float(value)}
        K = compute_kernel(np.asarray(X, dtype=np.float64), kernel=kernel, **params)
        curve.append(centred_alignment(center_kernel(K, copy=False), y, centred=True))
    return np.array(curve)


# --------------------------------------------------------------------------- beside separability


@dataclass(frozen=True)
class Agreement:
    """Where the alignment curve and the separability curve of one sweep agree.

    Attributes
    ----------
    best_alignment : int
        The value with the highest alignment.
    best_separability : tuple of int
        The values where separability is highest (ties included).
    rank_correlation : float
        Spearman's ρ between the two curves over the sweep (NaN if either is constant).
    """

    best_alignment: int
    best_separability: tuple[int, ...]
    rank_correlation: float

    @property
    def agree(self) -> bool:
        """The most aligned value is one of the best separating ones."""
        return self.best_alignment in self.best_separability


def compare_curves(alignment: np.ndarray, separability: np.ndarray) -> Agreement:
    alignment = np.asarray(alignment, dtype=float)
    separability = np.asarray(separability, dtype=float)
    best = np.flatnonzero(separability >= separability.max() - 1e-12)
    constant = np.ptp(alignment) == 0 or np.ptp(separability) == 0
    rho = float("nan") if constant else float(spearmanr(alignment, separability).statistic)
    return Agreement(int(np.argmax(alignment)), tuple(int(i) for i in best), rho)


# Where the two curves agree: one whole sentence per case (Chinese orders the clauses its
# own way); the trend of the two over the sweep, one per strength of Spearman's ρ.
_AGREE = N_("Alignment is highest at {gamma} (A = {a}), where components 1–2 separate {share} % "
            "of the points, the best of the sweep: here the two scores pick the same width.")
_AGREE_TIE = N_("Alignment is highest at {gamma} (A = {a}), where components 1–2 separate "
                "{share} % of the points, the best of the sweep (a tie): here the two scores "
                "pick the same width.")
_DISAGREE = N_("Alignment is highest at {gamma} (A = {a}), where components 1–2 separate "
               "{share} % of the points; they separate best at {best} ({best_share} %), where "
               "A = {best_a}: here the two disagree, by {gap} points of separability.")
_DISAGREE_TIE = N_("Alignment is highest at {gamma} (A = {a}), where components 1–2 separate "
                   "{share} % of the points; they separate best at {best} and {more} more "
                   "({best_share} %), where A = {best_a}: here the two disagree, by {gap} "
                   "points of separability.")
_TREND = {
    "together": N_("Over the {count} values the two curves rise and fall together "
                   "(Spearman's ρ = {rho})."),
    "opposite": N_("Over the {count} values the two curves move in opposite directions "
                   "(Spearman's ρ = {rho})."),
    "loose": N_("Over the {count} values the two curves are only loosely related "
                "(Spearman's ρ = {rho})."),
}


def agreement_sentence(values: np.ndarray, alignment: np.ndarray,
                       separability: np.ndarray) -> str:
    """Where the two curves of a γ sweep agree and where they do not, in its numbers, in
    this run's language."""
    found = compare_curves(alignment, separability)
    a, s = found.best_alignment, found.best_separability

    def at(i: int) -> str:
        return f"γ = {format_gamma(values[i])}"

    # Whole points of separability, or as many decimals as a gap under one point needs not
    # to read 0 (1 of 300 points: 0.33 → "0.3"), the shares beside it with as many.
    gap = 0.0 if found.agree else 100 * (separability[s[0]] - separability[a])
    decimals = 0 if gap >= 1 or gap <= 0 else min(3, math.ceil(-math.log10(gap)))

    def percent(value: float) -> str:
        return format_number(100 * value, f".{decimals}f")

    said = dict(gamma=at(a), a=format_number(alignment[a], ".3f"),
                share=percent(separability[a]))
    if found.agree:
        text = _(_AGREE_TIE if len(s) > 1 else _AGREE).format(**said)
    else:
        best = s[0]
        text = _(_DISAGREE_TIE if len(s) > 1 else _DISAGREE).format(
            **said, best=at(best), more=format_number(len(s) - 1),
            best_share=percent(separability[best]), best_a=format_number(alignment[best], ".3f"),
            gap=format_number(gap, f".{decimals}f"))
    if not np.isfinite(found.rank_correlation):
        return text
    rho = found.rank_correlation
    trend = "together" if rho >= 0.7 else "opposite" if rho <= -0.3 else "loose"
    return join_sentences((text, _(_TREND[trend]).format(
        count=format_number(len(values)), rho=format_number(rho, ".2f"))))
