"""The three lessons' computations, timed, and the mistakes' damage for every kernel.

    python benchmarks/bench_lessons_howto.py

Prints, for circles (n = 500, the app benchmark's γ-change case), the median time of each
cached computation a γ change triggers on the How it works, Kernel trick and Common
mistakes pages (the page target is < 0.5 s for the whole rerun, figures included; measure
that with ``bench_app.py --pages``), and the damage table the mistakes page shows, from
the same functions (experiments.*), for every kernel.
"""

from __future__ import annotations

import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import datasets  # noqa: E402
from experiments.analysis import analyse  # noqa: E402
from experiments.feature_maps import (  # noqa: E402
    TAYLOR_MAX_N,
    explicit_pca,
    rbf_taylor_convergence,
)
from lessons.how_it_works.experiment import step_by_step  # noqa: E402
from lessons.mistakes.experiment import (  # noqa: E402
    EIG_MAX_N,
    compare_mistakes,
)
from shell.registry import MISTAKES_MAX_N  # noqa: E402

KERNELS = {
    "rbf": {"gamma": 10.0},
    "laplacian": {"gamma": 2.0},
    "linear": {},
    "poly": {"gamma": 1.0, "degree": 3, "coef0": 1.0},
    "sigmoid": {"gamma": 0.5, "coef0": -1.0},
    "cosine": {},
}


def median_time(function, gammas=(2.0, 3.0, 5.0, 20.0, 30.0)) -> float:
    times = []
    for gamma in gammas:  # each a new computation, as after a γ change
        start = time.perf_counter()
        function(gamma)
        times.append(time.perf_counter() - start)
    return statistics.median(times)


def main() -> None:
    data = datasets.load("circles", n=500)
    X, y = data.X, data.y
    rows = {
        "Explorer fit reused by How it works (experiments.analysis.analyse)":
            lambda g: analyse(X, y, kernel="rbf", kernel_params={"gamma": g}, n_components=3),
        "How it works: step_by_step (checks + timings)":
            lambda g: step_by_step(X, kernel="rbf", kernel_params={"gamma": g}, n_components=3),
        "Kernel trick: explicit_pca (φ(X), KPCA, PCA)":
            lambda g: explicit_pca(X, gamma=g, coef0=1.0),
        f"Kernel trick: rbf_taylor_convergence ({TAYLOR_MAX_N} points)":
            lambda g: rbf_taylor_convergence(X[:TAYLOR_MAX_N], gamma=g),
        f"Common mistakes: compare_mistakes ({MISTAKES_MAX_N} points, eig on {EIG_MAX_N})":
            lambda g: compare_mistakes(X[:MISTAKES_MAX_N], kernel="rbf",
                                       kernel_params={"gamma": g}, eig_max_n=EIG_MAX_N),
    }
    print("circles, n = 500, RBF: median seconds per γ change (computation only)")
    for name, function in rows.items():
        function(10.0)  # warm up (imports, caches of monomial exponents)
        print(f"  {name:75s} {median_time(function):6.3f} s")

    print(f"\nDamage on circles ({MISTAKES_MAX_N} points) — "
          "the numbers the mistakes page shows ('ok' = no damage on these data)")
    for row, (kernel, params) in enumerate(KERNELS.items()):
        mistakes = compare_mistakes(X[:MISTAKES_MAX_N], kernel=kernel, kernel_params=params,
                                    eig_max_n=EIG_MAX_N)
        if row == 0:  # a column per damage number: Scaling has two (α = v, α = v/(μn))
            names = [m.key + (f"_{i + 1}" if i else "") for m in mistakes
                     for i in range(len(m.damages))]
            print(f"  {'kernel':10s}" + "".join(f"{name[:14]:>16s}" for name in names))
        cells = "".join(f"{('ok ' if d.harmless else '') + f'{d.value:.2e}':>16s}"
                        for m in mistakes for d in m.damages)
        print(f"  {kernel:10s}{cells}")


if __name__ == "__main__":
    main()
