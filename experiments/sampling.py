"""Which rows a page computes on when the data are larger than it can afford.

Every page that samples uses these, so that the same data and limit always give the same,
sorted rows (a sorted sample keeps the classes in their order in K and K̃).
"""

from __future__ import annotations

import numpy as np


def sample_rows(n: int, limit: int, seed: int = 0) -> np.ndarray:
    """All ``n`` row indices when n ≤ limit, else a sorted seeded sample of ``limit`` of them."""
    if n <= limit:
        return np.arange(n)
    return np.sort(np.random.default_rng(seed).choice(n, limit, replace=False))


def stratified_rows(n: int, y: np.ndarray | None, limit: int, seed: int = 0) -> np.ndarray:
    """Like :func:`sample_rows`, keeping each class's share of the rows (at least one each)."""
    if n <= limit or y is None:
        return sample_rows(n, limit, seed)
    rng = np.random.default_rng(seed)
    labels, counts = np.unique(y, return_counts=True)
    quota = np.maximum(1, np.round(counts * limit / n).astype(int))
    picks = [
        rng.choice(np.flatnonzero(y == label), min(q, c), replace=False)
        for label, q, c in zip(labels, quota, counts, strict=True)
    ]
    return np.sort(np.concatenate(picks))
