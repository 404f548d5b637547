"""A grid over the input plane, to draw a function of the inputs as a map.

Component maps draw each kernel principal component over the plane; novelty detection
draws the reconstruction error there. Both evaluate their function on the same kind of
grid: the data's bounding box with a margin, as many points a side as the test-kernel
matrix between the grid and the n training points can afford.
"""

from __future__ import annotations

import math

import numpy as np

MAX_SIDE = 200  # never more than 200 × 200 grid points
MIN_SIDE = 40
# Grid points × training points in the one test-kernel matrix: 64 MB of float64, and a
# redraw well under 1 s for n ≤ 1000 (89 × 89 grid at n = 1000, 200 × 200 up to n = 200).
CELL_BUDGET = 8_000_000
MARGIN = 0.15  # share of the data's range added on each side of the grid


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


def grid_points(xs: np.ndarray, ys: np.ndarray) -> np.ndarray:
    """The grid's points, row by row (y outer, x inner: a heatmap's z order), as (side², 2)."""
    gx, gy = np.meshgrid(xs, ys)
    return np.column_stack([gx.ravel(), gy.ravel()])
