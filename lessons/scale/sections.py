"""The Scale page's memory chart (section 2) as a figure and its caption, without Streamlit:
the page (:mod:`lessons.scale.view`) shows them, and the offline lecture
(:mod:`lessons.scale.pack`) carries them. Also the limits both read: the range of n the
page times, and the largest n of the memory budget.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

import datasets
from lessons.scale import experiment as scaling
from lessons.scale import figures
from server import budget as memory
from server.budget import WORKER_BYTES
from words.i18n import N_, _, format_number

# The measurement holds K̃ and, while LAPACK runs, its working copy.
MEASURE_COPIES = 2
# Nothing above LIVE_MAX_N is timed live: each n takes its own turn in the server's queue,
# and the dense solver's n³ at the full USPS (7,291) held the server for 85-92 s on a busy
# 2-core host; the page's extrapolation (and benchmarks/bench_scale.py) covers larger n.
LIVE_MAX_N = 2000
SMALLEST_N = 100
# The two limits the page shows, named the same wherever they appear (metrics, chart).
LARGEST_ALONE = N_("Largest n for K alone")
LARGEST_MEASURED = N_("Largest n for K̃ + a copy")
MEMORY_STEPS = {"build": N_("K (build; centring works in place, adds nothing)"),
                "dense": N_("dense solver: a copy of K̃ + workspace (dashed: same size as K)"),
                "arpack": N_("ARPACK: Lanczos vectors"),
                "randomized": N_("randomized: n × (k + 10) blocks")}

def n_option(dataset: str) -> datasets.Option | None:
    """The dataset's "n" option (how many points it generates), None if it has none."""
    info = datasets.available().get(dataset)
    if info is None:
        return None
    return next((opt for opt in info.options if opt.name == "n"), None)


def pool_size(dataset: str, n: int, budget: int | None = None) -> int:
    """How many points the page draws its subsets from: a dataset with an "n" option is
    generated with as many as it offers (and the budget allows); the others (iris, an
    upload) are used as they are (``n`` points)."""
    option = n_option(dataset)
    if option is None:
        return n
    return int(min(option.high, memory.largest_square(MEASURE_COPIES, budget)))


def largest_timed(budget: int | None = None) -> int:
    """The largest n the guard lets the timing hold: K̃ and a copy, in the worker process."""
    budget = memory.budget_bytes() if budget is None else budget
    return memory.largest_square(MEASURE_COPIES, max(budget - WORKER_BYTES, 0))


def largest_live(pool_n: int, budget: int | None = None) -> int:
    """The largest n the page times: the pool's, the guard's and the live limit's least."""
    return min(pool_n, largest_timed(budget), LIVE_MAX_N)


def memory_chart(sizes: np.ndarray, d: int, k: int,
                 budget: int | None = None) -> tuple[go.Figure, str]:
    """The memory model of each step from the smallest n shown to past the budget, and the
    caption on its numbers at the largest n in ``sizes``."""
    budget = memory.budget_bytes() if budget is None else budget
    largest = memory.largest_square(MEASURE_COPIES, budget)
    top = max(int(sizes[-1]), 3 * largest)
    grid = np.unique(np.geomspace(sizes[0], top, 60).astype(int))
    shown = {s: np.array([scaling.step_memory_bytes(s, int(n), d, k) for n in grid])
             for s in MEMORY_STEPS}
    fig = figures.memory_figure(grid, shown, labels={s: _(label) for s, label in
                                                     MEMORY_STEPS.items()}, budget=budget,
                                budget_text=memory.format_bytes(budget), largest_n=largest,
                                largest_label=_(LARGEST_MEASURED),
                                title=_("Memory each step adds, against n (model, k = {k})")
                                .format(k=format_number(k)))
    n = int(sizes[-1])
    k_bytes = memory.format_bytes(scaling.step_memory_bytes("build", n, d, k))
    arpack_bytes = memory.format_bytes(scaling.step_memory_bytes("arpack", n, d, k))
    caption = _(
        "Computed from the arrays each step allocates (checked against Python's tracemalloc "
        "in the tests), not traced live: tracing is process-wide and this server is shared. "
        "At n = {n}: K takes {k_bytes}, ARPACK's vectors {arpack_bytes}. The iterative "
        "solvers need only O(n k) beyond K̃; the dense one needs a second n × n matrix "
        "unless it may overwrite K̃ (kpca_core's KernelPCA lets it)."
    ).format(n=format_number(n, ","), k_bytes=k_bytes, arpack_bytes=arpack_bytes)
    return fig, caption
