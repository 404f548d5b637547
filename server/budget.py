"""The memory budget's numbers, without Streamlit: the budget one computation may use, the
bytes of a float64 matrix, the largest n that fits, how bytes are written for students, and
the guard's refusal in words. :mod:`server.memory` (the guard pages call) and the offline
lecture (:mod:`lessons.scale.pack`) read them from here.
"""

from __future__ import annotations

import math
import os

from words.i18n import N_, _, format_number

DEFAULT_BUDGET_MB = 1024
BUDGET_ENV = "KPCA_MEMORY_BUDGET_MB"
FLOAT_BYTES = 8
# Memory of Scale's timing worker (server.worker) with its imports (NumPy, SciPy,
# scikit-learn, kpca_core), beside its jobs' (counted by their tickets), as the server's
# budget counts it (PSS: its shared libraries' pages split with the server): measured
# 163 MB (230 MB resident) after one run of Scale's work on the development host
# (tests/server/test_worker.py checks it).
WORKER_BYTES = 192 * 2**20


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
            if unit == "bytes":
                return _("{n} bytes").format(n=format_number(n_bytes, ",.0f"))
            return f"{format_number(n_bytes, '.1f')} {unit}"
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
    what: str = N_("the kernel matrix K"),
    budget: int | None = None,
    extra: tuple[int, str] | None = None,
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
        What the matrix is, for the message: an English noun phrase marked with ``N_``
        (translated here).
    budget : int, optional
        Bytes allowed; defaults to :func:`budget_bytes`.
    extra : (int, str), optional
        Bytes the computation holds besides the matrices, and what holds them (the worker
        process that timed work runs in, ``server.worker``).
    """
    budget = budget_bytes() if budget is None else budget
    extra_bytes, extra_what = extra if extra is not None else (0, "")
    needed = matrix_bytes(rows, cols, copies=copies)
    if needed + extra_bytes <= budget:
        return None
    square = cols is None or cols == rows
    shape = (_("n = {n}").format(n=format_number(rows, ",")) if square else
             _("a {rows} × {cols} matrix").format(rows=format_number(rows, ","),
                                                   cols=format_number(cols, ",")))
    refusal = _REFUSALS[square, copies != 1, extra_bytes > 0]
    return _(refusal).format(
        shape=shape, needed=format_bytes(needed), what=_(what),
        copies=format_number(copies, "g"), size=format_bytes(extra_bytes),
        extra=_(extra_what), budget=format_bytes(budget),
        largest=format_number(largest_square(copies, max(budget - extra_bytes, 0)), ","))


# The guard's refusal, one whole sentence per case: (n × n?, several copies at once?,
# memory held besides the matrices?) → the sentence.
_REFUSALS = {
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (True, False, False): N_(
        "{shape} needs {needed} for {what}; this server allows {budget} per computation. Use "
        "at most {largest} points, or run kpca_core on your own machine for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (True, True, False): N_(
        "{shape} needs {needed} for {what} ({copies} copies at once); this server allows "
        "{budget} per computation. Use at most {largest} points, or run kpca_core on your own "
        "machine for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (True, False, True): N_(
        "{shape} needs {needed} for {what}, plus {size} for {extra}; this server allows "
        "{budget} per computation. Use at most {largest} points, or run kpca_core on your own "
        "machine for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (True, True, True): N_(
        "{shape} needs {needed} for {what} ({copies} copies at once), plus {size} for "
        "{extra}; this server allows {budget} per computation. Use at most {largest} points, "
        "or run kpca_core on your own machine for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (False, False, False): N_(
        "{shape} needs {needed} for {what}; this server allows {budget} per computation. Use "
        "fewer points, or run kpca_core on your own machine for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (False, True, False): N_(
        "{shape} needs {needed} for {what} ({copies} copies at once); this server allows "
        "{budget} per computation. Use fewer points, or run kpca_core on your own machine "
        "for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (False, False, True): N_(
        "{shape} needs {needed} for {what}, plus {size} for {extra}; this server allows "
        "{budget} per computation. Use fewer points, or run kpca_core on your own machine "
        "for larger data."),
    # Translators: {shape} is "n = 5,000" or "a 5,000 × 300 matrix".
    (False, True, True): N_(
        "{shape} needs {needed} for {what} ({copies} copies at once), plus {size} for "
        "{extra}; this server allows {budget} per computation. Use fewer points, or run "
        "kpca_core on your own machine for larger data."),
}
