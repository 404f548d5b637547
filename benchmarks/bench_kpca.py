"""Time and memory of kpca_core.KernelPCA.fit against scikit-learn, in the same run.

For every (data, n, k) the script alternates three contenders, `repeats` times each:

* ours     kpca_core.KernelPCA(eigen_solver="auto").fit
* sklearn  sklearn.decomposition.KernelPCA(eigen_solver="auto").fit
* floor    build K + centre in place + the faster of LAPACK (in place) and ARPACK,
           each timed separately: the least an exact fit can cost here.

Both estimators get random_state=0: ARPACK's iteration count depends on its random
start vector, so equal seeds give both the same Lanczos run and the ratio measures
only what differs around it. The order of the three rotates between repeats.

With --isolate every contender runs in its own fresh Python process (one per
contender and case, `repeats` timed fits each), so none inherits another's warm
caches or freed pages: the honest comparison for the short k = 2 fits, where the
in-process order effect is as large as the difference being measured. The load
average is printed with every row: on a shared machine the timings mean little.

It prints medians, the ratios ours/sklearn and ours/floor, the solver "auto" chose,
the largest difference between our and scikit-learn's projections (up to sign) and
the peak traced memory of one fit in units of one n x n float64 matrix.

    python benchmarks/bench_kpca.py                     # the full grid (~15 min)
    python benchmarks/bench_kpca.py --isolate           # the same, fresh process each
    python benchmarks/bench_kpca.py --sizes 1000 2000 --components 2 10 --repeats 3
"""

from __future__ import annotations

import argparse
import gc
import json
import os
import statistics
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import eigsh
from sklearn.decomposition import KernelPCA as SklearnKernelPCA

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kpca_core import KernelPCA, center_kernel, compute_kernel  # noqa: E402


def random_data(n: int, d: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d))


def usps_data(n: int) -> np.ndarray | None:
    """The first n USPS training digits (all 7291 for n = 7291), or None if unavailable."""
    path = os.environ.get("KPCA_USPS_PATH")
    if not path or not Path(path).is_file():
        return None
    with np.load(path) as z:
        X = z["X_train"][:n] / float(z["divisor"])
    return np.ascontiguousarray(X, dtype=np.float64)


def toy_data(n: int) -> np.ndarray:
    from sklearn.datasets import make_circles

    return make_circles(n_samples=n, factor=0.3, noise=0.05, random_state=0)[0]


def timed(func) -> float:
    gc.collect()
    start = time.perf_counter()
    func()
    return time.perf_counter() - start


def floor_times(X: np.ndarray, k: int, gamma: float) -> tuple[float, float, float]:
    """(build + centre, dense eigensolver, ARPACK) in seconds, on the same K."""
    n = X.shape[0]
    start = time.perf_counter()
    K = compute_kernel(X, kernel="rbf", gamma=gamma)
    center_kernel(K, copy=False)
    t_build = time.perf_counter() - start
    t_arpack = float("inf")
    if k < n - 1:
        v0 = np.random.RandomState(0).uniform(-1, 1, n)
        t_arpack = timed(lambda: eigsh(K, k, which="LA", v0=v0))
    t_dense = timed(lambda: linalg.eigh(K.T, subset_by_index=(n - k, n - 1),
                                        overwrite_a=True, check_finite=False))
    return t_build, t_dense, t_arpack


def peak_memory(func) -> int:
    gc.collect()
    tracemalloc.start()
    func()
    peak = tracemalloc.get_traced_memory()[1]
    tracemalloc.stop()
    return peak


def max_sign_free_difference(A: np.ndarray, B: np.ndarray) -> float:
    signs = np.sign((A * B).sum(axis=0))
    signs[signs == 0] = 1.0
    return float(np.abs(A - B * signs).max())


def load_data(data: str, n: int) -> np.ndarray | None:
    if data == "random":
        return random_data(n, 256)
    if data == "usps":
        return usps_data(n)
    return toy_data(n)


def contender_times(name: str, X: np.ndarray, k: int, repeats: int) -> list[float]:
    """`repeats` timed fits of one contender, in this process."""
    gamma = 1.0 / X.shape[1]
    times = []
    for _ in range(repeats):
        if name == "ours":
            model = KernelPCA(n_components=k, kernel="rbf", gamma=gamma, random_state=0)
            times.append(timed(lambda model=model: model.fit(X)))
        elif name == "sklearn":
            model = SklearnKernelPCA(n_components=k, kernel="rbf", gamma=gamma, random_state=0)
            times.append(timed(lambda model=model: model.fit(X)))
        else:
            t_build, t_dense, t_arpack = floor_times(X, k, gamma)
            times.append(t_build + min(t_dense, t_arpack))
    return times


def isolated_times(name: str, data: str, n: int, k: int, repeats: int) -> list[float]:
    """The same, in a fresh Python process (see --isolate)."""
    command = [sys.executable, str(Path(__file__).resolve()), "--worker", name, data,
               str(n), str(k), str(repeats)]
    result = subprocess.run(command, capture_output=True, text=True, check=True)
    return json.loads(result.stdout.strip().splitlines()[-1])


def run_case(label: str, X: np.ndarray, k: int, repeats: int, memory: bool,
             isolate: bool = False) -> dict:
    n, d = X.shape
    gamma = 1.0 / d
    names = ["ours", "sklearn", "floor"]
    times: dict[str, list[float]] = {name: [] for name in names}
    if isolate:
        for name in names:
            times[name] = isolated_times(name, label, n, k, repeats)
    else:
        # Rotate who goes first: the first run after a round pays for fresh pages
        # and a cold cache, which otherwise always lands on the same contender.
        for repeat in range(repeats):
            for name in names[repeat % 3:] + names[: repeat % 3]:
                times[name] += contender_times(name, X, k, 1)
    # Untimed fits for the solver chosen and the agreement of the projections.
    ours = KernelPCA(n_components=k, kernel="rbf", gamma=gamma, random_state=0).fit(X)
    sk = SklearnKernelPCA(n_components=k, kernel="rbf", gamma=gamma, random_state=0).fit(X)
    diff = max_sign_free_difference(
        ours.eigenvectors_ * np.sqrt(ours.eigenvalues_),
        sk.eigenvectors_ * np.sqrt(sk.eigenvalues_),
    )
    row = {
        "data": label, "n": n, "d": d, "k": k, "solver": ours.eigen_solver_,
        "ours": statistics.median(times["ours"]),
        "sklearn": statistics.median(times["sklearn"]),
        "floor": statistics.median(times["floor"]), "diff": diff,
        "load": os.getloadavg()[0],
    }
    if memory:
        nn = n * n * 8
        row["mem_ours"] = peak_memory(
            lambda: KernelPCA(n_components=k, kernel="rbf", gamma=gamma).fit(X)) / nn
        row["mem_sklearn"] = peak_memory(
            lambda: SklearnKernelPCA(n_components=k, kernel="rbf", gamma=gamma).fit(X)) / nn
    return row


def print_row(row: dict) -> None:
    mem = ""
    if "mem_ours" in row:
        mem = f" {row['mem_ours']:7.2f} {row['mem_sklearn']:7.2f}"
    print(
        f"{row['data']:>7} {row['n']:5d} {row['d']:3d} {row['k']:4d} {row['solver']:>7} "
        f"{row['ours']:8.3f} {row['sklearn']:8.3f} {row['floor']:8.3f} "
        f"{row['sklearn'] / row['ours']:8.2f} {row['ours'] / row['floor']:8.2f} "
        f"{row['diff']:9.1e} {row['load']:5.1f}{mem}",
        flush=True,
    )


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[1000, 2000, 4000, 7291])
    parser.add_argument("--components", type=int, nargs="+", default=[2, 10, 100])
    parser.add_argument("--data", nargs="+", default=["random", "usps", "toy"],
                        choices=["random", "usps", "toy"])
    parser.add_argument("--repeats", type=int, default=3,
                        help="timed runs per contender (n >= 4000 uses at most 2)")
    parser.add_argument("--no-memory", action="store_true", help="skip the tracemalloc pass")
    parser.add_argument("--isolate", action="store_true",
                        help="time every contender in its own fresh process")
    parser.add_argument("--worker", nargs=5, metavar=("NAME", "DATA", "N", "K", "REPEATS"),
                        help=argparse.SUPPRESS)  # internal: one contender, used by --isolate
    args = parser.parse_args(argv)
    if args.worker:
        name, data, n, k, repeats = args.worker
        X = load_data(data, int(n))
        print(json.dumps(contender_times(name, X, int(k), int(repeats))))
        return []

    print("peak memory in units of one n x n float64 matrix (tracemalloc)")
    print(f"{'data':>7} {'n':>5} {'d':>3} {'k':>4} {'solver':>7} {'ours_s':>8} "
          f"{'sklrn_s':>8} {'floor_s':>8} {'skl/ours':>8} {'ours/flr':>8} {'max_diff':>9} "
          f"{'load':>5}"
          + ("" if args.no_memory else f" {'mem_our':>7} {'mem_skl':>7}"))
    rows = []
    for data in args.data:
        for n in args.sizes:
            X = load_data(data, n)
            if X is None:
                print("   usps  skipped: set KPCA_USPS_PATH to the .npz file")
                break
            for k in args.components:
                if k >= n:
                    continue
                repeats = min(args.repeats, 2) if n >= 4000 else args.repeats
                row = run_case(data, X, k, repeats, memory=not args.no_memory,
                               isolate=args.isolate)
                print_row(row)
                rows.append(row)
    return rows


if __name__ == "__main__":
    main()
