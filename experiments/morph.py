"""γ in motion: kernel PCA's plane of components 1–2 as frames of an animation over γ.

Shared by the Explorer and Choosing γ. For each value of the swept parameter (γ, or the
degree of a polynomial kernel) one kernel PCA fit gives the points' coordinates on
components 1 and 2. Played one after the other, naive frames jump: two components swap
order when their eigenvalues cross, an eigenvector's sign is arbitrary, and when μ₁ ≈ μ₂
the solver may return any rotation of the plane. Both are undone:

* order: :func:`track_components` follows the two components of the current γ from frame
  to frame by their eigenvectors' overlap (|vᵢ · vⱼ|, the same n points), so a frame may
  show components 1 and 3 where component 2 of its neighbour became the third (the frame
  says which);
* sign and rotation: :func:`align_frames` turns each frame onto its neighbour by an
  orthogonal Procrustes fit (a rotation or reflection of the 2-D coordinates,
  ``scipy.linalg.orthogonal_procrustes``), which keeps every distance of the frame.

What moves is then what γ changes.

Each frame is also scaled to a common spread (root mean square distance from the
centre = 1): as γ → 0 an RBF kernel's K̃ shrinks towards 0 with its coordinates, and
at a fixed scale the small-γ frames would be a dot. The scale removed is kept
(``Motion.spread``).

Pure functions of arrays: no Streamlit. The pages cache :func:`gamma_motion`
(``lessons.common.motion``).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
from scipy.linalg import orthogonal_procrustes
from scipy.optimize import linear_sum_assignment
from threadpoolctl import threadpool_limits

from experiments.analysis import block_average, class_order
from experiments.kpca_steps import fit_kpca
from experiments.separability import linear_separability
from kpca_core import center_kernel, compute_kernel

FRAMES = 21  # γ frames: two decades around the current γ, ×10^0.1 (≈ 1.26) a step
DECADES = 2.0
DEGREES = tuple(range(1, 9))  # the polynomial kernel's frames
TRACKED = 6  # components fitted per frame, among which the drawn pair is followed
# Points a motion computes on: 21 fits of n × n, and 21 × n × 2 coordinates sent to
# the browser (≈ 0.1 MB at 600 points). Larger data are subsampled (stratified).
MOTION_MAX_N = 600
# K̃ is drawn beside the frames up to this many points, as at most HEATMAP_SIDE² cells.
HEATMAP_MAX_N = 400
HEATMAP_SIDE = 30
# As in the choosing-γ sweep: one BLAS thread for many small fits on a shared 2-core host.
BLAS_THREADS = 1
# A drawn component whose eigenvalue is below this many times the rounding of K's entries
# (experiments.kpca_steps.rounding_floor) is drawn as 0: its eigenvector moves by up to
# floor / gap under rounding alone (a saturated sigmoid: two valid float64 computations
# differed by 25 %), so scaled up to the common size it would draw rounding noise as
# structure. At 1,000 × the floor the picture is stable to about 0.1 %.
MEANINGFUL = 1000.0
# K̃'s cells of a frame whose largest entry is below this many times ε · max|K| are
# rounding (K ≈ all ones): drawn blank rather than stretched to the colour scale.
MEANINGFUL_CELLS = 1e4


def motion_values(current: float, *, low: float, high: float, frames: int = FRAMES,
                  decades: float = DECADES) -> np.ndarray:
    """``frames`` values of γ, evenly spaced on a log scale over ``decades`` decades with
    ``current`` in the middle (one of them, exactly), shifted to stay within [low, high]."""
    half = decades / 2
    start = math.log10(current) - half
    start = min(max(start, math.log10(low)), math.log10(high) - decades)
    exponents = start + np.linspace(0.0, decades, frames)
    values = 10.0 ** exponents
    values[int(np.argmin(np.abs(exponents - math.log10(current))))] = current
    return values


def normalise(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """The frame centred and scaled to root mean square distance 1 from its centre, and
    that distance (0 for a frame whose points all coincide: returned centred, unscaled)."""
    centred = frame - frame.mean(axis=0)
    spread = float(np.sqrt(np.mean(np.sum(centred**2, axis=1))))
    return (centred / spread if spread > 0 else centred), spread


def track_components(previous: np.ndarray, current: np.ndarray) -> np.ndarray:
    """Which columns of ``current`` continue the columns of ``previous`` (unit eigenvectors
    of the same points at neighbouring parameter values): the assignment with the largest
    total overlap |vᵢ · vⱼ| (``scipy.optimize.linear_sum_assignment``), in the order of
    ``previous``'s columns."""
    overlap = np.abs(previous.T @ current)
    chosen_rows, chosen = linear_sum_assignment(overlap, maximize=True)
    return chosen[np.argsort(chosen_rows)]


def align_frames(frames: np.ndarray, anchor: int) -> np.ndarray:
    """Turn each frame onto its neighbour, outwards from ``anchor`` (kept as it is).

    Parameters
    ----------
    frames : (m, n, c) array
        The same n points in m frames (centred: see :func:`normalise`).
    anchor : int
        The frame left untouched (the current γ: it matches the page's projection).

    Returns
    -------
    aligned : (m, n, c) array, a new array
        Frame i times the orthogonal matrix R that minimises ‖frame_i R − frame_j‖,
        j its already aligned neighbour towards the anchor: component order, signs and
        any rotation within the plane matched; every distance within a frame kept.
    """
    aligned = np.array(frames, dtype=float)
    m = aligned.shape[0]
    for i in [*range(anchor + 1, m), *range(anchor - 1, -1, -1)]:
        neighbour = i - 1 if i > anchor else i + 1
        rotation, _ = orthogonal_procrustes(aligned[i], aligned[neighbour])
        aligned[i] = aligned[i] @ rotation
    return aligned


@dataclass(frozen=True)
class Motion:
    """Frames of kernel PCA's components 1–2 across one parameter.

    Attributes
    ----------
    param : {"gamma", "degree"}
    values : (m,) float
    frames : (m, n, 2) float32
        Aligned (:func:`align_frames`) and scaled to a common spread.
    components : (m, 2) int
        The components (1-based) each frame draws: 1 and 2 at the anchor, then followed
        (:func:`track_components`).
    spread : (m,) float
        Each frame's root mean square distance from its centre before scaling (the
        frame's true size: the page shows it).
    silent : (m, 2) bool
        Which drawn components are below the meaningful scale (:data:`MEANINGFUL` × the
        rounding of K): drawn as 0, their picture would be rounding noise.
    extent : (m,) float
        The largest |coordinate| on the drawn components before any was silenced: how
        near the origin every point is in a silent frame.
    separability : (m,) float or None
        Cross-validated accuracy of a linear classifier on the drawn components (None
        without two classes).
    explained : (m,) float
        Their eigenvalues' share of trace(K̃): the share of the variance in feature
        space drawn; NaN where that is no share (trace(K̃) ≤ 0,
        ``experiments.kpca_steps.variance_share_problem``).
    centered : (m, s, s) float32 or None
        K̃ in class order, block-averaged to at most HEATMAP_SIDE (None above
        HEATMAP_MAX_N points).
    block_size : int
        Points per heatmap cell along each side.
    rows : (n,) int
        The data's rows the frames hold (all of them, or a stratified sample).
    anchor : int
        The frame of the current value.
    """

    param: str
    values: np.ndarray
    frames: np.ndarray
    components: np.ndarray
    spread: np.ndarray
    silent: np.ndarray
    extent: np.ndarray
    separability: np.ndarray | None
    explained: np.ndarray
    centered: np.ndarray | None
    block_size: int
    rows: np.ndarray
    anchor: int


def gamma_motion(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel: str,
    kernel_params: dict,
    param: str,
    values: Sequence[float],
    anchor: int,
    rows: np.ndarray | None = None,
) -> Motion:
    """Fit kernel PCA at each value of ``param`` and align the frames (see the module).

    ``X`` and ``y`` are the rows to draw (the caller samples large data and says so);
    ``rows`` are their indices in the data (default: all).
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    order, _ = class_order(y, n)
    fits, heatmaps = [], []
    block = 1
    with threadpool_limits(limits=BLAS_THREADS, user_api="blas"):
        for value in values:
            params = {**kernel_params, param: int(value) if param == "degree" else float(value)}
            fits.append(fit_kpca(X, kernel=kernel, kernel_params=params,
                                 n_components=min(TRACKED, n - 1)))
            if n <= HEATMAP_MAX_N:
                K = compute_kernel(X, kernel=kernel, **params)
                scale = max(float(K.max()), -float(K.min()))
                Kc = center_kernel(K, copy=False)
                cells, block = block_average(Kc, order, HEATMAP_SIDE)
                if np.abs(cells).max() <= MEANINGFUL_CELLS * np.finfo(float).eps * scale:
                    cells = np.zeros_like(cells)  # rounding only: nothing to colour
                heatmaps.append(cells.astype(np.float32))
        m = len(fits)
        components = np.zeros((m, 2), dtype=int)
        components[anchor] = (0, 1)
        for i in [*range(anchor + 1, m), *range(anchor - 1, -1, -1)]:
            neighbour = i - 1 if i > anchor else i + 1
            previous = fits[neighbour].eigenvectors[:, components[neighbour]]
            components[i] = track_components(previous, fits[i].eigenvectors)
        raw, spreads, scores, explained, silent, extents = [], [], [], [], [], []
        for fit, drawn in zip(fits, components, strict=True):
            Z = fit.projection[:, drawn].copy()
            extents.append(float(np.abs(Z).max(initial=0.0)))
            quiet = fit.eigenvalues[drawn] <= MEANINGFUL * fit.eigenvalue_floor
            Z[:, quiet] = 0.0
            silent.append(quiet)
            scores.append(linear_separability(Z, y))
            explained.append(float(np.sum(fit.explained_ratio[drawn])))
            frame, spread = normalise(Z)
            raw.append(frame)
            spreads.append(spread)
    aligned = align_frames(np.stack(raw), anchor)
    return Motion(
        param=param,
        values=np.asarray(values, dtype=float),
        frames=aligned.astype(np.float32),
        components=components + 1,
        spread=np.array(spreads),
        silent=np.array(silent, dtype=bool),
        extent=np.array(extents),
        separability=None if any(s is None for s in scores) else np.array(scores, dtype=float),
        explained=np.array(explained),
        centered=np.stack(heatmaps) if heatmaps else None,
        block_size=block,
        rows=np.arange(n) if rows is None else np.asarray(rows),
        anchor=int(anchor),
    )
