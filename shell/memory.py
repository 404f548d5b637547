"""The memory guard: one rule, consulted by every page before any n × n computation.

Kernel PCA holds an n × n matrix of float64: 8 n² bytes (425 MB for the 7,291 USPS
training digits, 3.2 GB for n = 20,000). On a shared host (Streamlit Community Cloud:
about 1–3 GB for every session together) one such request can take the app down for
the whole class, so a computation that would need more than the budget is refused
with a message saying what it needs and how to get under the limit.

The budget is a setting: the environment variable ``KPCA_MEMORY_BUDGET_MB`` (MiB per
computation), default :data:`DEFAULT_BUDGET_MB`, which leaves room for the server
itself and a few concurrent students on a 2–3 GB container.

:func:`memory_problem` is plain Python (tested directly); :func:`guard_memory` is the
one Streamlit call pages make.
"""

from __future__ import annotations

import math
import os

import streamlit as st

DEFAULT_BUDGET_MB = 1024
BUDGET_ENV = "KPCA_MEMORY_BUDGET_MB"
FLOAT_BYTES = 8


def megabytes_from_env(name: str, default_mb: float) -> int:
    """Bytes from a MiB setting in the environment; the default when unset or not > 0."""
    raw = os.environ.get(name, "").strip()
    try:
        megabytes = float(raw) if raw else default_mb
    except ValueError:
        megabytes = default_mb
    if not math.isfinite(megabytes) or megabytes <= 0:
        megabytes = default_mb
    return int(megabytes * 2**20)


def budget_bytes() -> int:
    """Bytes one computation may use: ``$KPCA_MEMORY_BUDGET_MB`` MiB, else the default."""
    return megabytes_from_env(BUDGET_ENV, DEFAULT_BUDGET_MB)


def matrix_bytes(rows: int, cols: int | None = None, *, copies: float = 1.0) -> int:
    """Bytes of ``copies`` float64 matrices of shape rows × cols (cols defaults to rows)."""
    cols = rows if cols is None else cols
    return int(math.ceil(copies * rows * cols * FLOAT_BYTES))


def format_bytes(n_bytes: float) -> str:
    """1536 → '1.5 KB', in powers of 1000 as students read them (GB, not GiB)."""
    for unit in ("bytes", "KB", "MB", "GB", "TB"):
        if n_bytes < 1000 or unit == "TB":
            return f"{n_bytes:,.0f} {unit}" if unit == "bytes" else f"{n_bytes:.1f} {unit}"
        n_bytes /= 1000
    raise AssertionError("unreachable")


def largest_square(copies: float = 1.0, budget: int | None = None) -> int:
    """The largest n whose ``copies`` n × n matrices fit in the budget."""
    budget = budget_bytes() if budget is None else budget
    return int(math.isqrt(int(budget / (copies * FLOAT_BYTES))))


def memory_problem(
    rows: int,
    cols: int | None = None,
    *,
    copies: float = 1.0,
    what: str = "the kernel matrix K",
    budget: int | None = None,
) -> str | None:
    """None when the computation fits the budget, else a plain-English refusal.

    Parameters
    ----------
    rows, cols : int
        Shape of the largest matrix the computation holds (cols defaults to rows: n × n).
    copies : float
        How many such matrices are alive at the peak (e.g. 2 when K and a working
        copy coexist).
    what : str
        What the matrix is, for the message.
    budget : int, optional
        Bytes allowed; defaults to :func:`budget_bytes`.
    """
    budget = budget_bytes() if budget is None else budget
    needed = matrix_bytes(rows, cols, copies=copies)
    if needed <= budget:
        return None
    square = cols is None or cols == rows
    shape = f"n = {rows:,}" if square else f"a {rows:,} × {cols:,} matrix"
    copies_text = "" if copies == 1 else f" ({copies:g} copies at once)"
    advice = (
        f"Use at most {largest_square(copies, budget):,} points"
        if square
        else "Use fewer points"
    )
    return (
        f"{shape} needs {format_bytes(needed)} for {what}{copies_text}; this server allows "
        f"{format_bytes(budget)} per computation. {advice}, or run kpca_core on your own "
        "machine for larger data."
    )


def guard_memory(
    rows: int,
    cols: int | None = None,
    *,
    copies: float = 1.0,
    what: str = "the kernel matrix K",
) -> None:
    """Refuse (``st.error`` + ``st.stop``) a computation that would exceed the budget."""
    problem = memory_problem(rows, cols, copies=copies, what=what)
    if problem is not None:
        st.error(problem, icon=":material/memory:")
        st.stop()
