"""The Scale page's curves, offline and larger: exact cost against n, and the approximations.

Two tables, from the same functions the page calls (lessons.scale.experiment and
lessons.scale.approximations), with BLAS on one thread as on the page:

1. Exact kernel PCA against n (USPS training digits and a synthetic set, n up to
   7,291): seconds of build K / centre / dense LAPACK / ARPACK / randomized at each n,
   the solver eigen_solver="auto" picks, the modelled peak memory (K̃ + the dense
   solver's copy), and the fitted log-log slope of each step next to its theory.
2. Nyström (m landmarks) and random Fourier features (D features) followed by PCA,
   against exact kernel PCA where exact fits (n = 7,291), up to n = 50,000 on the
   synthetic set (RBF, d = 256): seconds, peak memory traced by tracemalloc in the
   same run, the largest relative error of the top-k eigenvalues, the largest
   principal angle and the Procrustes residual.

The synthetic set is a noisy 5-dimensional curved manifold in 256 dimensions:
x = tanh(z A) + 0.1 ε with z ~ N(0, I_5), A a fixed 5 × 256 Gaussian matrix, so its
kernel spectrum decays like real data's rather than being flat. γ is the median
heuristic on both data sets (USPS: about 1/(2 × 256 × variance)).

    python benchmarks/bench_scale.py                     # everything (~10-15 min)
    python benchmarks/bench_scale.py --quick             # a smoke test in seconds
    python benchmarks/bench_scale.py --skip-scaling --approx-sizes 7291 50000
"""

from __future__ import annotations

import argparse
import gc
import os
import sys
import time
import tracemalloc
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from kpca_core import median_heuristic_gamma  # noqa: E402
from lessons.scale import approximations as approx  # noqa: E402
from lessons.scale import experiment as scaling  # noqa: E402

MB = 1e6
TARGET_M, TARGET_N = 500, 50_000


def usps(n: int) -> np.ndarray | None:
    """The first n USPS training digits scaled to [-1, 1], or None without the file."""
    path = os.environ.get("KPCA_USPS_PATH")
    if not path or not Path(path).is_file():
        return None
    with np.load(path) as z:
        X = z["X_train"][:n] / float(z["divisor"])
    return np.ascontiguousarray(X, dtype=np.float64)


def manifold(n: int, d: int = 256, seed: int = 0) -> np.ndarray:
    """A noisy 5-D curved manifold in d dimensions (see the module docstring)."""
    rng = np.random.default_rng(seed)
    A = np.random.default_rng(1234).normal(size=(5, d)) / np.sqrt(5)
    return np.tanh(rng.normal(size=(n, 5)) @ A) + 0.1 * rng.normal(size=(n, d))


def traced(func):
    """(result, seconds, peak bytes traced while func ran)."""
    gc.collect()
    tracemalloc.start()
    start = time.perf_counter()
    try:
        result = func()
        seconds = time.perf_counter() - start
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    return result, seconds, peak


def scaling_table(name: str, X: np.ndarray, sizes, k: int, gamma: float, repeats: int) -> dict:
    print(f"\n== exact kernel PCA against n: {name} (d = {X.shape[1]}, RBF γ = {gamma:.3g}, "
          f"k = {k}, best of {repeats}, BLAS on 1 thread)")
    run = scaling.measure_scaling(X, sizes, k, kernel="rbf", kernel_params={"gamma": gamma},
                                  repeats=repeats)
    header = f"{'n':>6} " + " ".join(f"{s:>11}" for s in scaling.STEPS) + \
        f" {'auto':>8} {'peak MB':>9}"
    print(header)
    for i, n in enumerate(run.sizes):
        cells = " ".join(f"{run.seconds[s][i]:>10.4f}s" for s in scaling.STEPS)
        peak = scaling.peak_bytes(int(n), X.shape[1], k) / MB
        print(f"{n:>6} {cells} {run.auto_solver[i]:>8} {peak:>9.1f}")
    slopes = {s: run.exponent(s) for s in scaling.STEPS}
    print(f"{'slope':>6} " + " ".join(f"{slopes[s]:>11.2f}" for s in scaling.STEPS))
    print(f"{'theory':>6} " + " ".join(f"{scaling.THEORY_EXPONENT[s]:>11}"
                                       for s in scaling.STEPS))
    print("(peak MB: modelled K̃ + the dense solver's copy, the page's guard; the model is "
          "checked against tracemalloc in tests/lessons/scale/test_experiment.py)")
    return {"name": name, "run": run, "slopes": slopes}


def page_default(name: str, X: np.ndarray, gamma: float, k: int = 3) -> float:
    """Seconds of the Scale page's default measurement (same sizes, repeats, threads)."""
    low, high = scaling.DEFAULT_RANGE
    sizes = scaling.size_ladder(low, high, points_per_doubling=scaling.POINTS_PER_DOUBLING)
    start = time.perf_counter()
    scaling.measure_scaling(X, sizes, k, kernel="rbf", kernel_params={"gamma": gamma},
                            repeats=scaling.DEFAULT_REPEATS)
    seconds = time.perf_counter() - start
    print(f"target: the page's default measurement ({name}, n = {low:,} to {high:,}, "
          f"{len(sizes)} sizes × {scaling.DEFAULT_REPEATS} repeats, k = {k}) under 10 s "
          f"→ {seconds:.1f} s")
    return seconds


def approximation_rows(name: str, X: np.ndarray, k: int, gamma: float, landmarks, features,
                       exact_max_n: int) -> list[dict]:
    n, d = X.shape
    params = {"gamma": gamma}
    rows = []
    exact = None
    if n <= exact_max_n:
        exact, seconds, peak = traced(lambda: approx.exact_kpca(X, k, kernel="rbf",
                                                                kernel_params=params))
        rows.append(dict(data=name, n=n, method="exact", size=0, seconds=seconds,
                         peak=peak, error=0.0, angle=0.0, residual=0.0, solver=exact.solver))
    for method, sizes in (("nystroem", landmarks), ("rff", features)):
        for size in sizes:
            if method == "nystroem" and size > n:
                continue
            (values, scores, seconds), _, peak = traced(lambda m=method, s=size: (
                approx.approximate_kpca(X, m, s, k, kernel="rbf", kernel_params=params)))
            row = dict(data=name, n=n, method=method, size=size, seconds=seconds, peak=peak,
                       error=float("nan"), angle=float("nan"), residual=float("nan"),
                       solver="")
            if exact is not None:
                errors, angles, _, residual = approx.compare(exact, values, scores)
                row.update(error=float(np.nanmax(errors)),
                           angle=float(np.degrees(angles.max())), residual=residual)
            rows.append(row)
            del values, scores
    return rows


def print_rows(rows: list[dict], k: int) -> None:
    print(f"{'data':>9} {'n':>6} {'method':>9} {'m or D':>7} {'seconds':>8} {'peak MB':>8} "
          f"{f'top-{k} err':>10} {'angle °':>8} {'Procr.':>8}")
    for r in rows:
        size = "" if r["method"] == "exact" else f"{r['size']:,}"
        method = f"exact/{r['solver']}" if r["method"] == "exact" else r["method"]
        err = "—" if np.isnan(r["error"]) else f"{100 * r['error']:.2f} %"
        angle = "—" if np.isnan(r["angle"]) else f"{r['angle']:.2f}"
        resid = "—" if np.isnan(r["residual"]) else f"{r['residual']:.3g}"
        print(f"{r['data']:>9} {r['n']:>6} {method:>9} {size:>7} {r['seconds']:>8.3f} "
              f"{r['peak'] / MB:>8.1f} {err:>10} {angle:>8} {resid:>8}")


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="small sizes: a smoke test")
    parser.add_argument("--skip-scaling", action="store_true")
    parser.add_argument("--skip-approx", action="store_true")
    parser.add_argument("--scaling-sizes", type=int, nargs="+",
                        default=[500, 1000, 2000, 4000, 7291])
    parser.add_argument("--approx-sizes", type=int, nargs="+", default=[7291, 20_000, 50_000])
    parser.add_argument("--landmarks", type=int, nargs="+", default=[100, 200, 500, 1000, 2000])
    parser.add_argument("--features", type=int, nargs="+", default=[500, 1000, 2000])
    parser.add_argument("--components", type=int, default=10)
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--exact-max-n", type=int, default=7291,
                        help="largest n compared with exact kernel PCA (K is 8 n² bytes)")
    args = parser.parse_args(argv)
    if args.quick:
        args.scaling_sizes, args.approx_sizes = [200, 400, 800], [600, 1500]
        args.landmarks, args.features, args.exact_max_n = [50, 200], [100, 400], 600
    k = args.components
    result: dict = {"scaling": [], "approx": []}
    # Timings mean little without the machine's load next to them.
    print("load average (1, 5, 15 min) at start: "
          + ", ".join(f"{v:.1f}" for v in os.getloadavg()) + f" on {os.cpu_count()} cores")

    if not args.skip_scaling:
        top = max(args.scaling_sizes)
        for name, X in (("usps", usps(top)), ("manifold", manifold(top))):
            if X is None:
                print(f"\n(skipping {name}: set KPCA_USPS_PATH to the USPS file)")
                continue
            sizes = [s for s in args.scaling_sizes if s <= len(X)]
            gamma = median_heuristic_gamma(X)
            result["scaling"].append(scaling_table(name, X, sizes, k, gamma, args.repeats))
            if len(X) >= scaling.DEFAULT_RANGE[1] and not args.quick:
                page_default(name, X, gamma)

    if not args.skip_approx:
        print(f"\n== approximations against exact kernel PCA (RBF, k = {k}; peak memory traced "
              "by tracemalloc; BLAS on 1 thread)")
        rows: list[dict] = []
        X = usps(min(args.approx_sizes))
        if X is not None:
            rows += approximation_rows("usps", X, k, median_heuristic_gamma(X), args.landmarks,
                                       args.features, args.exact_max_n)
        for n in args.approx_sizes:
            X = manifold(n)
            features = [D for D in args.features if n * D * 8 <= 1.6e9]  # keep RFF < 1.6 GB
            rows += approximation_rows("manifold", X, k, median_heuristic_gamma(X),
                                       args.landmarks, features, args.exact_max_n)
            del X
        print_rows(rows, k)
        result["approx"] = rows
        target = [r for r in rows if r["method"] == "nystroem" and r["size"] == TARGET_M
                  and r["n"] == TARGET_N]
        if target:
            print(f"\ntarget: Nyström m = {TARGET_M} at n = {TARGET_N:,} (RBF, d = 256) in "
                  f"seconds → {target[0]['seconds']:.2f} s, peak {target[0]['peak'] / MB:.0f} MB")
        usps_rows = [r for r in rows if r["data"] == "usps" and r["method"] == "nystroem"
                     and r["size"] == TARGET_M]
        if usps_rows:
            print(f"target: top-{k} eigenvalues within a few percent of exact at n = "
                  f"{usps_rows[0]['n']:,} on USPS → Nyström m = {TARGET_M}: "
                  f"{100 * usps_rows[0]['error']:.2f} %")
    print("load average at end: " + ", ".join(f"{v:.1f}" for v in os.getloadavg()))
    return result


if __name__ == "__main__":
    main()
