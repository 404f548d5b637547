"""Time the γ sweep the "Choosing γ" page computes: 12 kernel PCA fits with their scores.

    python benchmarks/bench_gamma_sweep.py [--n 500] [--repeats 3]

Target (issue "Three lesson pages on geometry"): 12 fits at n = 500 in < 3 s. Each fit
is one kernel PCA (20 leading eigenpairs, for the spectrum) plus two 5-fold
cross-validated logistic regressions (components 1–2 and 1–k). The sweep is
``lessons.choosing_gamma.experiment.sweep``, the very function the page caches, on the circles
(n points, RBF kernel, γ from ``gamma_grid``). For comparison the script also times the
12 kernel PCA fits alone with scikit-learn's ``KernelPCA`` (same γ, 20 components,
default BLAS threads; the sweep runs with ``SWEEP_BLAS_THREADS``).
Timings on a shared machine are noisy: the median of ``--repeats`` runs is reported, in
wall time and in this process's CPU time (what the sweep costs when it has a core).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import datasets  # noqa: E402
from experiments.kernel_diagnostics import reference_gamma  # noqa: E402
from lessons.choosing_gamma.experiment import SPECTRUM_TOP, gamma_grid, sweep  # noqa: E402

TARGET_S = 3.0


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=500)
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--components", type=int, default=3)
    args = parser.parse_args()

    data = datasets.load("circles", n=args.n, seed=0)
    values = gamma_grid(reference_gamma(data.X, "rbf"))
    times, cpu_times, result = [], [], None
    for _ in range(args.repeats):
        start, cpu = time.perf_counter(), time.process_time()
        result = sweep(data.X, data.y, kernel="rbf", kernel_params={}, param="gamma",
                       values=values, n_components=args.components)
        times.append(time.perf_counter() - start)
        cpu_times.append(time.process_time() - cpu)
    sweep_s = statistics.median(times)

    from sklearn.decomposition import KernelPCA

    sk_times = []
    for _ in range(args.repeats):
        start = time.perf_counter()
        for gamma in values:
            KernelPCA(SPECTRUM_TOP, kernel="rbf", gamma=gamma).fit_transform(data.X)
        sk_times.append(time.perf_counter() - start)

    best = result.best_index()
    print(f"γ sweep, circles n = {args.n}, {len(values)} values "
          f"{values[0]:g} … {values[-1]:g}, k = {result.k}")
    print(f"  sweep (fits + 2 × 5-fold CV each): {sweep_s:6.2f} s wall, "
          f"{statistics.median(cpu_times):.2f} s CPU   target < {TARGET_S:g} s  "
          f"{'OK' if sweep_s < TARGET_S else 'MISSED on wall time'}")
    print(f"  scikit-learn KernelPCA, 12 fits only: {statistics.median(sk_times):6.2f} s")
    print(f"  best γ = {values[best]:g} (components 1–2: {100 * result.score_two[best]:.0f} %; "
          f"linear PCA {100 * result.linear_two:.0f} %)")
    print(f"  runs: {', '.join(f'{t:.2f}' for t in times)} s (fastest {min(times):.2f} s); "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")


if __name__ == "__main__":
    main()
