r"""How the cost of exact kernel PCA grows with n: timings, memory and fitted exponents.

One measurement at size n runs the steps of an exact fit on the same matrix, in the
order a fit does them, and times each one:

==============  =====================================================  ================
step            what it does                                           time, theory
==============  =====================================================  ================
build K         :func:`kpca_core.compute_kernel`                        O(n² d)
centre          :func:`kpca_core.center_kernel` in place                O(n²)
dense           LAPACK ``dsyevr`` for the top k (:func:`eigendecompose`) O(n³)
arpack          Lanczos iteration (ARPACK)                             O(n²) per sweep
randomized      Halko et al.'s randomized range finder                 O(n² (k + 10))
==============  =====================================================  ================

Each exponent is fitted by least squares on log t = a log n + b, the slope of the
curve on log-log axes. ARPACK's exponent is 2 *per matrix-vector sweep*; the number
of sweeps depends on the spectrum (flat spectra need more), so its measured slope
can exceed 2. At small n fixed overheads (Python calls, thread start-up) dominate
and every measured slope is below its theoretical value.

Timings run with BLAS/LAPACK limited to ``threads`` threads (default 1, through
``threadpoolctl``): on a machine whose cores are shared with other work, OpenBLAS's
threads wait for each other and a dense eigensolve can take ten times longer than
on one thread (measured here: 15.7 s against 1.6 s at n = 2000 under load), which
would hide the algorithm's growth behind the machine's. That limit is process-wide
(OpenBLAS has one thread count per process), so on the app's server the timed work
runs in the server's worker process (``run``: :mod:`server.worker`, whose BLAS is on one
thread): the other sessions' BLAS keeps its threads. Each n is handed out on its own
(``turn``), so a server's queue can give every size its own turn.

Memory per step is *modelled* from the arrays each step allocates
(:func:`step_memory_bytes`), not traced live: Python's ``tracemalloc`` is
process-wide, so on a server shared by many sessions it would count their
allocations too. The tests and ``benchmarks/bench_scale.py`` compare the model with
``tracemalloc`` on a quiet process.
"""

from __future__ import annotations

import math
import time
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager, nullcontext
from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from kpca_core import center_kernel, choose_eigen_solver, compute_kernel, eigendecompose
from words.i18n import N_  # pure, and imports Babel only to translate: the worker needs none

STEPS: tuple[str, ...] = ("build", "centre", "dense", "arpack", "randomized")
SOLVERS: tuple[str, ...] = ("dense", "arpack", "randomized")
STEP_TITLES = {
    "build": N_("build K"),
    "centre": N_("centre K (in place)"),
    "dense": N_("dense LAPACK (top k)"),
    "arpack": N_("ARPACK (Lanczos)"),
    "randomized": N_("randomized (Halko)"),
}
# The exponent of n in each step's cost (d and k held fixed).
THEORY_EXPONENT = {"build": 2, "centre": 2, "dense": 3, "arpack": 2, "randomized": 2}
THEORY_COST = {
    "build": "n² d",
    "centre": "n²",
    "dense": "n³",
    "arpack": N_("n² per sweep"),
    "randomized": N_("n² (k + 10) per pass"),
}
FLOAT_BYTES = 8
# The Scale page's default measurement (also timed by benchmarks/bench_scale.py):
# n from 250 to 2,000, two sizes per doubling, each timed twice (the faster kept).
DEFAULT_RANGE = (250, 2000)
POINTS_PER_DOUBLING = 2
DEFAULT_REPEATS = 2
REDUCTION_BUFFER = 8192  # doubles: NumPy's buffer for reductions such as mean(axis=...)

ProgressCallback = Callable[[float, str], None]
# A context for each n (e.g. a turn in a server's queue), entered around its timing.
TurnFactory = Callable[[int], AbstractContextManager]
# Where a timed call runs: run(func, *args, **kwargs) → func's result (e.g. a worker process).
Runner = Callable[..., object]


@dataclass(frozen=True)
class ScalingRun:
    """Timings of every step at every n.

    Attributes
    ----------
    sizes : ndarray of int, shape (s,)
        The n measured, increasing.
    seconds : dict step -> ndarray of shape (s,)
        Wall-clock seconds of each step (the minimum over repeats).
    auto_solver : tuple of str
        The solver ``eigen_solver="auto"`` picks at each n (``choose_eigen_solver``).
    n_components : int
        k, the number of eigenpairs asked of each solver.
    n_features : int
        d, the input dimension.
    """

    sizes: np.ndarray
    seconds: dict[str, np.ndarray]
    auto_solver: tuple[str, ...]
    n_components: int
    n_features: int

    def exponent(self, step: str) -> float:
        """Fitted slope of log(seconds) against log(n) for ``step``."""
        return fitted_exponent(self.sizes, self.seconds[step])

    def memory_bytes(self, step: str) -> np.ndarray:
        """Modelled extra bytes of ``step`` at each measured n."""
        return np.array([step_memory_bytes(step, int(n), self.n_features, self.n_components)
                         for n in self.sizes])


def fitted_line(sizes, seconds) -> tuple[float, float]:
    """Least-squares (slope a, intercept b) of log t = a log n + b (natural logs).

    Non-positive or non-finite timings are left out. Returns (nan, nan) when fewer
    than two distinct n remain.
    """
    n = np.asarray(sizes, dtype=float)
    t = np.asarray(seconds, dtype=float)
    keep = np.isfinite(t) & (t > 0) & (n > 0)
    if np.unique(n[keep]).size < 2:
        return math.nan, math.nan
    slope, intercept = np.polyfit(np.log(n[keep]), np.log(t[keep]), 1)
    return float(slope), float(intercept)


def fitted_exponent(sizes, seconds) -> float:
    """The slope a of :func:`fitted_line`: time grows like n^a over the measured range."""
    return fitted_line(sizes, seconds)[0]


def arpack_ncv(n: int, k: int) -> int:
    """Lanczos vectors ARPACK keeps (``scipy.sparse.linalg.eigsh``'s default)."""
    return min(n, max(2 * k + 1, 20))


def step_memory_bytes(step: str, n: int, d: int, k: int) -> int:
    """Bytes a step allocates beyond its input, from the arrays it creates.

    * build: K itself (n²) plus the row norms (n).
    * centre: in place, one row at a time (kpca_core.center_kernel); the column
      means, h = means − grand mean / 2 and one row of h[i] + h (3n).
    * build also uses NumPy's 64 KB reduction buffer (8,192 doubles).
    * dense: ``scipy.linalg.eigh`` copies K̃ for LAPACK unless told it may overwrite
      it (n²), plus the k eigenvectors (n k) and the ``dsyevr`` workspace (26 n
      doubles + 10 n integers ≈ 36 n).
    * arpack: the Lanczos basis (n × ncv, ncv = max(2k + 1, 20)) and a second
      n × ncv block when the eigenvectors are extracted, 6 work vectors of length
      n, the eigenvectors (n k) and ncv (ncv + 8) of tridiagonal workspace.
    * randomized: r = k + 10 random vectors; the sketch K Ω, its QR factor and the
      projected block (about 4 n r) plus the small r × r eigenproblem.
    """
    if step == "build":
        entries = n * n + n + REDUCTION_BUFFER
    elif step == "centre":
        entries = 3 * n
    elif step == "dense":
        entries = n * n + n * k + 36 * n
    elif step == "arpack":
        ncv = arpack_ncv(n, k)
        entries = 2 * n * ncv + 6 * n + n * k + ncv * (ncv + 8)
    elif step == "randomized":
        r = min(n, k + 10)
        entries = 4 * n * r + 3 * r * r
    else:
        raise ValueError(f"unknown step {step!r}; expected one of {STEPS}")
    return int(entries * FLOAT_BYTES)


def peak_bytes(n: int, d: int, k: int) -> int:
    """Largest memory alive at once in one measurement: K̃ plus the largest solver's extra."""
    return step_memory_bytes("build", n, d, k) + max(
        step_memory_bytes(s, n, d, k) for s in SOLVERS
    )


def nested_subsets(n_available: int, sizes, seed: int = 0) -> list[np.ndarray]:
    """Row indices for each n: the first n of one seeded permutation (each set holds the
    smaller ones), so the curves differ only in n, not in which points were drawn."""
    sizes = [int(s) for s in sizes]
    if not sizes or min(sizes) < 2 or max(sizes) > n_available:
        raise ValueError(f"sizes must lie between 2 and {n_available}; got {sizes}")
    order = np.random.default_rng(seed).permutation(n_available)
    return [np.sort(order[:s]) for s in sizes]


def measure_once(
    X: np.ndarray, n_components: int, *, kernel: str, kernel_params: dict, seed: int = 0
) -> dict[str, float]:
    """Seconds of each step on the rows of X (one K, centred in place, three solvers).

    The dense solver works on a copy (``overwrite=False``) so the same K̃ serves the
    others; ``kpca_core.KernelPCA`` lets LAPACK overwrite K̃ and saves that copy.
    """
    n = X.shape[0]
    k = int(n_components)
    if not 1 <= k < n - 1:
        raise ValueError(f"k = {k} eigenpairs need at least k + 2 = {k + 2} points; got {n}")
    seconds: dict[str, float] = {}
    start = time.perf_counter()
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    seconds["build"] = time.perf_counter() - start

    start = time.perf_counter()
    Kc = center_kernel(K, copy=False)
    seconds["centre"] = time.perf_counter() - start
    del K

    for solver in ("arpack", "randomized", "dense"):
        start = time.perf_counter()
        eigendecompose(Kc, k, solver=solver, random_state=seed, check_finite=False)
        seconds[solver] = time.perf_counter() - start
    return seconds


def measure_size(
    X: np.ndarray, n_components: int, *, kernel: str, kernel_params: dict, repeats: int = 1,
    seed: int = 0, warm_up: bool = False,
) -> dict[str, float]:
    """The fastest of ``repeats`` :func:`measure_once` of every step on the rows of X.

    ``warm_up``: one untimed run first, because the first LAPACK/BLAS call of a process
    starts threads and allocates workspaces, which would inflate the timings.
    """
    if warm_up:
        measure_once(X, n_components, kernel=kernel, kernel_params=kernel_params, seed=seed)
    best = dict.fromkeys(STEPS, math.inf)
    for _ in range(max(1, int(repeats))):
        for step, t in measure_once(
            X, n_components, kernel=kernel, kernel_params=kernel_params, seed=seed
        ).items():
            best[step] = min(best[step], t)
    return best


@contextmanager
def blas_threads(threads: int | None = 1) -> Iterator[Runner]:
    """Run timed work here, with BLAS on ``threads`` threads for the block: yields
    ``run(func, *args, **kwargs)``. threadpoolctl's limit is process-wide, which is right
    for a process that does nothing else (a benchmark, a test, the server's worker); the
    app's server passes its worker instead (:mod:`server.worker`)."""
    with threadpool_limits(limits=threads):
        yield lambda func, *args, **kwargs: func(*args, **kwargs)


def measure_scaling(
    X: np.ndarray,
    sizes,
    n_components: int,
    *,
    kernel: str,
    kernel_params: dict,
    repeats: int = 1,
    seed: int = 0,
    threads: int | None = 1,
    on_progress: ProgressCallback | None = None,
    turn: TurnFactory | None = None,
    run: Runner | None = None,
) -> ScalingRun:
    """Time every step for each n in ``sizes`` on nested random subsets of X.

    Parameters
    ----------
    X : ndarray of shape (n_available, d)
        The pool of points; each n uses the first n of one seeded permutation.
    sizes : sequence of int
        Increasing n, each between k + 2 and n_available.
    n_components : int
        k, the eigenpairs asked of each solver.
    repeats : int
        Measurements per n; the minimum is kept (the least disturbed by other work on
        the machine).
    threads : int or None
        BLAS threads while timing here (None: leave the library's setting); not used
        with ``run``.
    on_progress : callable(fraction, text), optional
        Called before each n, with the share of the expected work (∝ n³) done.
    turn : callable(n) -> context manager, optional
        Entered around each n's timing (e.g. a turn in the server's queue).
    run : callable(func, *args, **kwargs), optional
        Where each n is timed (the server's worker process, inside its turn); by default
        here, with BLAS on ``threads`` threads (:func:`blas_threads`).
    """
    sizes = np.asarray(sorted({int(s) for s in sizes}), dtype=int)
    subsets = nested_subsets(X.shape[0], sizes, seed)
    report = on_progress or (lambda fraction, text: None)
    turn = turn or (lambda n: nullcontext())
    weights = sizes.astype(float) ** 3
    done = np.concatenate([[0.0], np.cumsum(weights)]) / weights.sum()
    best = {step: np.full(len(sizes), np.inf) for step in STEPS}
    with nullcontext(run) if run is not None else blas_threads(threads) as run:
        for i, (n, rows) in enumerate(zip(sizes, subsets, strict=True)):
            report(float(done[i]), f"n = {n:,}: build K, centre, three eigensolvers")
            with turn(int(n)):
                seconds = run(measure_size, X[rows], n_components, kernel=kernel,
                              kernel_params=kernel_params, repeats=repeats, seed=seed,
                              warm_up=i == 0)
            for step, t in seconds.items():
                best[step][i] = t
    report(1.0, "Done")
    return ScalingRun(
        sizes=sizes,
        seconds=best,
        auto_solver=tuple(choose_eigen_solver(int(n), n_components) for n in sizes),
        n_components=int(n_components),
        n_features=int(X.shape[1]),
    )


def predicted_seconds(run: ScalingRun, step: str, n: int) -> float:
    """Extrapolate the fitted power law of ``step`` to n: exp(b) n^a (nan without a fit)."""
    slope, intercept = fitted_line(run.sizes, run.seconds[step])
    return float(math.exp(intercept) * n**slope) if math.isfinite(slope) else math.nan


def size_ladder(low: int, high: int, *, points_per_doubling: int = 1) -> list[int]:
    """Roughly geometric n from ``low`` to ``high`` (both included), rounded to tidy values."""
    if low > high:
        raise ValueError(f"low ({low}) must not exceed high ({high})")
    count = max(2, int(round(math.log2(high / low) * points_per_doubling)) + 1)
    raw = np.geomspace(low, high, count)
    tidy = sorted({_tidy(v) for v in raw[1:-1]} | {int(low), int(high)})
    return [v for v in tidy if low <= v <= high]


def _tidy(value: float) -> int:
    """Round to two significant digits (1,234 → 1,200)."""
    digits = max(0, int(math.floor(math.log10(value))) - 1)
    return int(round(value / 10**digits) * 10**digits)
