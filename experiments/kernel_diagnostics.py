"""The kernel's scale for some data, and the measures of how kernel PCA degenerates.

Each kernel's reference γ (:func:`reference_gamma`, the sidebar's "× median heuristic")
and the spectral measures :mod:`experiments.gamma_guidance` words its hints from. Kernel
PCA degenerates in three ways when γ does not match the scale of the data:

* **γ too large** (RBF, Laplacian): every point is similar only to itself, K ≈ I, so
  K̃ ≈ a multiple of the centring projector and its spectrum is flat: no direction stands
  out. Measured by the *effective rank* of K̃, (tr K̃)² / ‖K̃‖²_F (the participation ratio
  of its eigenvalues): it equals n − 1 exactly for a scaled projector.
* **γ too small**: k(x, y) becomes an affine function of xᵀy (polynomial, sigmoid) or
  of ‖x − y‖² (RBF) by a first-order Taylor expansion, so K̃ ≈ c · X̃X̃ᵀ and kernel PCA is
  linear PCA. Measured by the subspace similarity of the kernel and linear PCA scores.
  Not so for the Laplacian kernel: 1 − γ‖x − y‖₁ centres to the double-centred L1
  distances, which is not X̃X̃ᵀ, so a tiny γ gives a fixed picture that is not linear PCA.
* **sigmoid saturated**: tanh(γ xᵀy + c₀) = ±1 for most pairs. On data with xᵀy > 0
  (iris, raw pixel intensities) K ≈ all ones and K̃ ≈ 0: every point sits at the origin.
  This is the opposite of "K ≈ I", and the RBF median heuristic does not apply to it.

Everything here is a pure function of arrays (no Streamlit).
"""

from __future__ import annotations

import math

import numpy as np
from scipy.spatial.distance import pdist

from experiments.sampling import sample_rows
from words.i18n import N_, _, format_number
from words.kernel_params import GAMMA

GAMMA_KERNELS = ("rbf", "laplacian", "poly", "sigmoid")
DISTANCE_KERNELS = ("rbf", "laplacian")

# |k(x, y)| ≥ SATURATED_VALUE counts as saturated (tanh(2.65) = 0.99).
SATURATED_VALUE = 0.99
# Feature standard deviations differing by more than this factor: suggest standardising.
SCALE_RATIO = 100.0

REFERENCE_NAMES = {
    "rbf": N_("the median heuristic 1/median ‖x−y‖²"),  # translated where shown
    "laplacian": "1/median ‖x−y‖₁",
    "poly": "1/median |xᵀy|",
    "sigmoid": "1/median |xᵀy|",
}
REFERENCE_SHORT = {
    "rbf": N_("median heuristic"),
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


# The choosing-γ page's panels: PANELS values of γ around the kernel's reference
# (:func:`gamma_grid`), each fitted with SPECTRUM_TOP leading components (the spectrum's
# shape). The predict-then-reveal question on γ (``classroom.questions``) offers and
# scores the same panels, so a class can check its verdict on the page.
PANELS = 12
SPECTRUM_TOP = 20


def gamma_grid(reference: float, *, low: float = GAMMA.low, high: float = GAMMA.high,
               panels: int = PANELS) -> np.ndarray:
    """``panels`` values of γ, two per decade (1 and 3 × 10ᵉ), around the kernel's reference.

    ``reference`` is the kernel's own scale for the data (:func:`reference_gamma`: the
    median heuristic for RBF, 1 / median ‖x − y‖₁ for the Laplacian kernel, 1 / median
    |xᵀy| for the polynomial and sigmoid kernels). The grid starts two decades below its
    decade, so that the sweep shows both ends of the kernel's behaviour, and stays inside
    [``low``, ``high``], the sidebar's range by default (``words.kernel_params.GAMMA``).
    The values are round numbers fixed by the data alone, so the sweep does not change
    when the user moves γ.
    """
    start = math.floor(math.log10(reference)) - 2
    decades = math.ceil(panels / 2)
    highest_start = math.floor(math.log10(high / 3)) - decades + 1
    start = min(max(start, math.ceil(math.log10(low) - 1e-9)), highest_start)
    values = [m * 10.0**e for e in range(start, start + decades) for m in (1, 3)][:panels]
    return np.array([float(f"{v:.1g}") for v in values])


def nearest_gamma_index(values: np.ndarray, gamma: float) -> int:
    """The value of ``values`` nearest ``gamma`` on a log scale (the panel it falls in)."""
    return int(np.argmin(np.abs(np.log(np.asarray(values, dtype=float)) - math.log(gamma))))


def round_gamma(gamma: float) -> float:
    """Two significant digits: a γ a person can read, say and type."""
    if gamma <= 0 or not math.isfinite(gamma):
        return gamma
    return float(f"{gamma:.2g}")


def format_gamma(gamma: float) -> str:
    """γ as people write it, to three significant digits: 1000, 31.6, 5, 0.004, 0.00781;
    a power of ten only below 1e-4 or from 1e5 on, written short (1.26e-5, not 1.26e-05).

    The one γ formatter of the app (``shell.state.format_gamma`` is this function).
    """
    value = float(f"{gamma:.3g}")
    if value == 0 or 1e-4 <= abs(value) < 1e5:
        return f"{value:f}".rstrip("0").rstrip(".")
    mantissa, exponent = f"{value:.2e}".split("e")
    mantissa = mantissa.rstrip("0").rstrip(".")
    return f"{mantissa}e{int(exponent)}"


def signed(value: float, spec: str = ".3g") -> str:
    """A number as the pages print it: ``format(value, spec)`` with a true minus sign
    (−0.5, 2.2e−16), never a hyphen, and no "−0"."""
    return format(value + 0.0, spec).replace("-", "−")


def format_ratio(ratio: float) -> str:
    """A multiple as people say it: 0.25, 4.1, 230, 5,500; scientific only beyond that."""
    if 0.01 <= ratio < 100:
        return f"{ratio:.2g}"
    if 100 <= ratio < 1e5:
        return f"{ratio:,.0f}"
    return f"{ratio:.1e}"


def scales_differ_message(scale_ratio: float, standardized: bool) -> str | None:
    """The hint to standardise, when the features' spreads differ by more than SCALE_RATIO."""
    if scale_ratio <= SCALE_RATIO or standardized:
        return None
    return _("The input features' spreads differ by a factor of {ratio}: the kernel sees "
             "almost only the widest ones. Consider '{control}' (γ then follows the new "
             "scale).").format(ratio=format_number(scale_ratio, ",.0f"),
                               control=_("Standardise inputs"))


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
