"""Helpers for the data set tests: fake USPS files and the invariants of a Dataset."""

from __future__ import annotations

import gzip
import socket
from pathlib import Path

import numpy as np

from datasets import Dataset


def closed_port() -> int:
    """A local port with nothing listening on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def write_esl_gz(
    path: Path, X: np.ndarray, y: np.ndarray, extra_number_on_row: int | None = None
) -> None:
    """Write images in the ESL text format: ``label v1 ... v256`` per line, gzipped.

    ``X`` must hold multiples of 0.001 in [-1, 1], as the real data does; formatting
    through a table of the 2001 possible strings keeps the full data set quick to write.
    """
    levels = np.array([f"{k / 1000:.3f}" for k in range(-1000, 1001)])
    codes = np.rint(np.asarray(X) * 1000).astype(int) + 1000
    lines = []
    for i, (label, row) in enumerate(zip(y, codes, strict=True)):
        line = f"{label:.4f} " + " ".join(levels[row])
        if i == extra_number_on_row:
            line += " -0.796"
        lines.append(line + "\n")
    with gzip.open(path, "wt", encoding="ascii", compresslevel=1) as out:
        out.writelines(lines)


def small_usps(per_digit: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A few random 256-pixel images per digit, values multiples of 0.001 in [-1, 1]."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(10), per_digit)
    rng.shuffle(y)
    X = rng.integers(-1000, 1001, size=(len(y), 256)) / 1000
    return X, y


def check_invariants(data: Dataset, name: str) -> None:
    """What every loaded data set promises the app."""
    assert data.name == name
    assert data.X.dtype == np.float64 and data.X.ndim == 2 and data.X.flags.c_contiguous
    assert np.isfinite(data.X).all()
    assert len(data.feature_names) == data.X.shape[1]
    assert not data.X.flags.writeable
    if data.y is not None:
        assert data.y.shape == (data.X.shape[0],) and np.issubdtype(data.y.dtype, np.integer)
        assert not data.y.flags.writeable
        # Every class named is present in the default sample.
        assert set(np.unique(data.y)) == set(range(len(data.target_names)))
    if data.image_shape is not None:
        assert np.prod(data.image_shape) == data.X.shape[1]
    assert len(data.description) > 100 and "\n" not in data.description
    assert data.citation
