"""Kernel principal components as functions over the input plane.

A kernel principal component is a function of the input, yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x)
(Schölkopf, Smola & Müller 1998: the projection onto the k-th axis, with k̃ centred by
the training statistics). Evaluated on a
grid over the plane it becomes a map whose contour lines show what the component
measures; Figs. 3 and 4 of the paper are such maps.

The whole grid is projected at once: one test-kernel matrix between the grid points
(plus the training points themselves, for the check) and the training points, centred
with the training statistics, times α. No Python loop over points.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from experiments.kpca_steps import KpcaFit, fit_kpca

MAPPED = 8  # components mapped in section 1 (Fig. 4 shows eight)
# Grid cells sent to the browser per figure, all panels together: 100 × 100 for eight
# panels, 81 × 81 for the twelve of Fig. 3 — about two screen pixels per grid step in a
# panel a quarter of the page wide, which the contours interpolate smoothly. (160,000
# cells sent 1.03 MB, the most of any page, and drew slowest.)
MAX_CELLS = 80_000

MAX_SIDE = 200  # never more than 200 × 200 grid points
MIN_SIDE = 40
# Grid points × training points in the one test-kernel matrix: 64 MB of float64, and a
# redraw well under 1 s for n ≤ 1000 (89 × 89 grid at n = 1000, 200 × 200 up to n = 200).
CELL_BUDGET = 8_000_000
MARGIN = 0.15  # share of the data's range added on each side of the grid
# BLAS threads for a map. The test kernel's product has an inner dimension of 2 (memory
# bound, nothing for a second thread to do) and the fits are small; on a busy 2-core
# host a second OpenBLAS thread only waits. Measured (circles n = 500, 8 components,
# machine loaded): 0.60-0.97 s per map with one thread, 0.80-1.29 s with two.
MAP_BLAS_THREADS = 1

# The paper's figures (Schölkopf, Smola & Müller 1998).
FIG4 = dict(dataset="scholkopf_toy", kernel="rbf", gamma=10.0, n_components=8)
FIG3_DEGREES = (1, 2, 3, 4)
FIG3 = dict(dataset="parabola", kernel="poly", gamma=1.0, coef0=0.0, n_components=3)


def grid_side(n_points: int, *, budget: int = CELL_BUDGET) -> int:
    """Grid points per axis for n training points: side² · n ≤ budget, within [40, 200]."""
    side = math.isqrt(budget // max(n_points, 1))
    return int(min(MAX_SIDE, max(MIN_SIDE, side)))


def plane_grid(X: np.ndarray, side: int, margin: float = MARGIN) -> tuple[np.ndarray, np.ndarray]:
    """Axis values of a side × side grid covering the points of X (2 columns) with a margin."""
    low, high = X.min(axis=0), X.max(axis=0)
    span = np.where(high > low, high - low, 1.0)
    low, high = low - margin * span, high + margin * span
    return np.linspace(low[0], high[0], side), np.linspace(low[1], high[1], side)


@dataclass(frozen=True)
class ComponentMaps:
    """The first k components of one fit, evaluated over a grid and at the data.

    Attributes
    ----------
    xs, ys : (side,) float
        Grid axes.
    values : (k, side, side) float
        values[c, j, i] = y_c at (xs[i], ys[j]) (rows follow y, as a heatmap's z).
    at_data : (n, k) float
        The same map function evaluated at the training points.
    fit : KpcaFit
        The fit (eigenvalues μ of K̃, explained ratio, training projection sqrt(μ) v).
    """

    xs: np.ndarray
    ys: np.ndarray
    values: np.ndarray
    at_data: np.ndarray
    fit: KpcaFit

    @property
    def max_difference(self) -> float:
        """max |map(xᵢ) − projection of xᵢ| over points and components: 0 up to rounding."""
        return float(np.max(np.abs(self.at_data - self.fit.projection)))

    @property
    def scale(self) -> float:
        """Largest |projection| (for a relative tolerance)."""
        return float(np.max(np.abs(self.fit.projection))) or 1.0


def component_maps(
    X: np.ndarray,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int,
    side: int | None = None,
) -> ComponentMaps:
    """Fit kernel PCA on X (2 columns) and evaluate its first components over the plane.

    Parameters
    ----------
    X : (n, 2) array
    kernel, kernel_params : as for ``kpca_core.compute_kernel``
    n_components : int
        Components to map (at most n − 1 are meaningful; capped at n).
    side : int, optional
        Grid points per axis; default :func:`grid_side` (n).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"Component maps need points in the plane (2 columns); got {X.shape}.")
    n = X.shape[0]
    k = min(n_components, n)
    side = grid_side(n) if side is None else side
    xs, ys = plane_grid(X, side)
    gx, gy = np.meshgrid(xs, ys)
    points = np.vstack([np.column_stack([gx.ravel(), gy.ravel()]), X])
    with threadpool_limits(limits=MAP_BLAS_THREADS, user_api="blas"):
        fit = fit_kpca(X, kernel=kernel, kernel_params=kernel_params, n_components=k)
        projected = fit.project(points)  # (side² + n, k): one test kernel, one product
    values = projected[: side * side].T.reshape(k, side, side)
    return ComponentMaps(xs=xs, ys=ys, values=values, at_data=projected[side * side :], fit=fit)


def degree_maps(
    X: np.ndarray,
    *,
    degrees=FIG3_DEGREES,
    gamma: float,
    coef0: float,
    n_components: int = 3,
    side: int | None = None,
) -> list[ComponentMaps]:
    """Component maps of polynomial kernels (γ xᵀy + c₀)ᵈ for several degrees d (Fig. 3)."""
    return [
        component_maps(
            X,
            kernel="poly",
            kernel_params=dict(gamma=gamma, degree=int(d), coef0=coef0),
            n_components=n_components,
            side=side,
        )
        for d in degrees
    ]


# --------------------------------------------------------------------------- the captions


@dataclass(frozen=True)
class ClusterRoles:
    """What each component does to labelled clusters, measured on the training points.

    Attributes
    ----------
    between_share : (k,) float
        Share of the component's variance that lies between the class means (η², the
        correlation ratio): near 1 when the component separates the classes, near 0
        when it varies inside them.
    within_share : (k, c) float
        Share of the component's variance inside each class.
    splits : tuple of tuples of int
        For each component, the classes it cuts in two: the class holds at least a
        third of the component's variance and at least 20 % of its points lie on each
        side of the class mean.
    """

    between_share: np.ndarray
    within_share: np.ndarray
    splits: tuple[tuple[int, ...], ...]


SPLIT_VARIANCE = 1 / 3
SPLIT_MINORITY = 0.2


def cluster_roles(Z: np.ndarray, y: np.ndarray) -> ClusterRoles:
    """Between- and within-class shares of variance of each column of Z (η² per column)."""
    Z = np.asarray(Z, dtype=float)
    labels = np.unique(y)
    centred = Z - Z.mean(axis=0)
    total = np.sum(centred**2, axis=0)
    total = np.where(total > 0, total, np.inf)  # a constant component separates nothing
    between = np.zeros(Z.shape[1])
    within = np.zeros((Z.shape[1], len(labels)))
    splits = []
    for j, label in enumerate(labels):
        members = Z[y == label]
        mean = members.mean(axis=0)
        between += len(members) * (mean - Z.mean(axis=0)) ** 2
        within[:, j] = np.sum((members - mean) ** 2, axis=0)
    between_share = between / total
    within_share = within / total[:, None]
    for c in range(Z.shape[1]):
        cut = []
        for j, label in enumerate(labels):
            members = Z[y == label, c]
            above = float(np.mean(members > members.mean()))
            if within_share[c, j] >= SPLIT_VARIANCE and min(above, 1 - above) >= SPLIT_MINORITY:
                cut.append(int(label))
        splits.append(tuple(cut))
    return ClusterRoles(between_share=between_share, within_share=within_share,
                        splits=tuple(splits))


MIN_EXPLAINED = 0.01  # a component with less of the variance is too weak to count


def fig4_claims(roles: ClusterRoles, explained: np.ndarray, n_classes: int) -> dict:
    """Which of the paper's two claims about Fig. 4 hold for these numbers.

    ``separate``: components 1 and 2 each have ≥ 90 % of their variance between the
    clusters. ``split_each``: every later component carries ≥ 1 % of the variance in
    feature space, has ≤ 10 % of its own variance between the clusters and cuts at
    least one cluster, and together components 3.. cut every cluster.
    """
    share = roles.between_share
    separate = len(share) >= 2 and bool(np.all(share[:2] >= 0.9))
    later = range(2, len(share))
    cut = {label for c in later for label in roles.splits[c]}
    split_each = (
        len(share) > 2
        and all(
            share[c] <= 0.1 and roles.splits[c] and explained[c] >= MIN_EXPLAINED
            for c in later
        )
        and len(cut) == n_classes
    )
    return {"separate": separate, "split_each": bool(split_each)}
