"""The memory guard: one rule, consulted by every page before any n × n computation.

Kernel PCA holds an n × n matrix of float64: 8 n² bytes (425 MB for the 7,291 USPS
training digits, 3.2 GB for n = 20,000). On a shared host (Streamlit Community Cloud:
about 1–3 GB for every session together) one such request can take the app down for
the whole class, so a computation that would need more than the budget is refused
with a message saying what it needs and how to get under the limit.

The budget is a setting: the environment variable ``KPCA_MEMORY_BUDGET_MB`` (MiB per
computation), default :data:`DEFAULT_BUDGET_MB`, which leaves room for the server
itself and a few concurrent students on a 2–3 GB container.

:func:`memory_problem` is plain Python (in :mod:`server.budget`, tested directly);
:func:`guard_memory` is the one Streamlit call pages make.
"""

from __future__ import annotations

import os

import streamlit as st

from server.budget import (  # noqa: F401
    BUDGET_ENV,
    DEFAULT_BUDGET_MB,
    FLOAT_BYTES,
    budget_bytes,
    format_bytes,
    largest_square,
    matrix_bytes,
    megabytes_from_env,
    memory_problem,
)

# The budget's numbers and words live in the pure server.budget (the offline lecture needs
# them without Streamlit); the guard's callers read them through this module as before.
from words.i18n import N_


def guard_memory(
    rows: int,
    cols: int | None = None,
    *,
    copies: float = 1.0,
    what: str = N_("the kernel matrix K"),
    extra: tuple[int, str] | None = None,
) -> None:
    """Refuse (``st.error`` + ``st.stop``) a computation that would exceed the budget."""
    problem = memory_problem(rows, cols, copies=copies, what=what, extra=extra)
    if problem is not None:
        st.error(problem, icon=":material/memory:")
        st.stop()


# --------------------------------------------------------------- the allocator
#
# Memory Python frees goes back to glibc's malloc, which keeps it for reuse. Three of its
# habits make a long-running Streamlit server look like it leaks (measured with
# benchmarks/bench_upload_memory.py: four students uploading a 5,000 × 1,000 CSV took the
# settled RSS from 259 to 501 MiB while the bytes malloc had in use stayed flat):
# * a block of at least the mmap threshold gets its own mapping, returned to the system
#   when freed; but freeing one raises the threshold to its size (up to 32 MiB), so the
#   next parse's megabytes come from the heap instead, and stay there. A fixed threshold
#   keeps every large array (a parse's text and cells, a kernel matrix) in a mapping of
#   its own, given back on free;
# * every thread that allocates under contention may get its own arena (up to 8 per
#   core), each keeping its own free memory. Two are plenty for Python, whose threads
#   allocate one at a time under the GIL (the usual MALLOC_ARENA_MAX=2 advice); glibc
#   fixes this limit early, though, so scripts/run_app.sh sets the variable as well;
# * free memory inside an arena goes back to the system only when it sits at its top;
#   malloc_trim(0) hands back every free page, wherever it is.
M_MMAP_THRESHOLD, M_ARENA_MAX = -3, -8  # mallopt's parameter numbers (malloc.h)
MMAP_THRESHOLD = 2**20  # 1 MiB: a page fault per 4 KiB of a new big array, ~1 ms per 40 MB
ARENA_MAX = 2
_allocator_tuned = False


def _glibc():
    import ctypes
    import ctypes.util

    name = ctypes.util.find_library("c")
    try:
        libc = ctypes.CDLL(name) if name else None
    except OSError:
        return None
    return libc if libc is not None and hasattr(libc, "malloc_trim") else None


def tune_allocator() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` and cap its arenas at
    :data:`ARENA_MAX`, once per process; what the environment sets (``MALLOC_ARENA_MAX``,
    ``MALLOC_MMAP_THRESHOLD_``) is left alone. Returns whether anything was applied.

    Called as the app's first run starts. No-op where malloc is not glibc's.
    """
    global _allocator_tuned
    if _allocator_tuned:
        return False
    _allocator_tuned = True
    libc = _glibc()
    if libc is None:
        return False
    applied = False
    if not os.environ.get("MALLOC_MMAP_THRESHOLD_"):
        applied |= bool(libc.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))
    if not os.environ.get("MALLOC_ARENA_MAX"):
        applied |= bool(libc.mallopt(M_ARENA_MAX, ARENA_MAX))
    return applied


def return_freed_memory() -> None:
    """Hand the memory malloc holds free back to the system (glibc's ``malloc_trim(0)``).

    Costs a walk over the free lists (milliseconds): for after a big release, such as a
    session's upload, not for every rerun. No-op where malloc is not glibc's.
    """
    libc = _glibc()
    if libc is not None:
        libc.malloc_trim(0)
