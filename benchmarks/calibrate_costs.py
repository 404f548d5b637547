"""Measure the coefficients of the queue's cost model (server.costs) on this machine.

Times each operation of the model at a few sizes (``--repeats`` times, medians), prints
the coefficient each size gives and their median, then checks the models of whole pieces
of work against the real thing: the Explorer's kernel PCA (``experiments.analysis.analyse``)
at several n, Scale's timing of one n, and De-noising's fit and fixed-point curve, each as
measured / estimated. BLAS runs with the library's own threads, as on the app's server
(the pages that cap their own threads do so inside the work).

    python benchmarks/calibrate_costs.py                 # ~3-6 min on a busy 2-core host
    python benchmarks/calibrate_costs.py --quick         # smaller sizes, one repeat
    KPCA_USPS_PATH=... python benchmarks/calibrate_costs.py   # + the full USPS and De-noising

Copy the printed medians into server/costs.py with the load average they were measured at.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scipy import linalg  # noqa: E402

from experiments.analysis import DENSE_MAX_N, ITERATIVE_TOP, analyse  # noqa: E402
from kpca_core import center_kernel, compute_kernel, eigendecompose  # noqa: E402
from server import costs  # noqa: E402


def timed(func, repeats: int) -> float:
    """Median seconds of ``func()`` over ``repeats`` calls."""
    seconds = []
    for _ in range(repeats):
        start = time.perf_counter()
        func()
        seconds.append(time.perf_counter() - start)
    return statistics.median(seconds)


def points(n: int, d: int, seed: int = 0) -> np.ndarray:
    return np.random.default_rng(seed).normal(size=(n, d)) / np.sqrt(d)


def centred(n: int) -> np.ndarray:
    return center_kernel(compute_kernel(points(n, 8), kernel="rbf", gamma=1.0))


def coefficients(sizes: list[int], repeats: int) -> dict[str, float]:
    """Each operation's seconds per unit of work, the median over ``sizes``."""
    found: dict[str, list[float]] = {}

    def note(name: str, value: float, n: int, unit: str) -> None:
        found.setdefault(name, []).append(value)
        print(f"  {name:<18} n = {n:>5}: {value:.3e} s per {unit}")

    for n in sizes:
        X2, X256 = points(n, 2), points(n, 256)
        entry = timed(lambda X2=X2: compute_kernel(X2, kernel="rbf", gamma=1.0), repeats) / n**2
        wide = timed(lambda X256=X256: compute_kernel(X256, kernel="rbf", gamma=1.0),
                     repeats) / n**2
        per_flop = max(wide - entry, 0.0) / 254  # the extra 254 dimensions' products
        note("KERNEL_PER_ENTRY", entry - 2 * per_flop, n, "entry")
        note("KERNEL_PER_FLOP", per_flop, n, "rows·cols·d")
        K = centred(n)
        note("PASS_PER_ENTRY",
             timed(lambda K=K: center_kernel(K.copy(), copy=False), repeats) / n**2
             - timed(K.copy, repeats) / n**2, n, "entry")
        note("EIGVALS_PER_N3", timed(lambda K=K: linalg.eigvalsh(K), repeats) / n**3, n, "n³")
        note("LEADING_PER_N3",
             timed(lambda K=K: eigendecompose(K, 5, solver="dense", check_symmetry=False),
                   repeats) / n**3, n, "n³")
        v = np.ones(n)
        products = timed(lambda K=K, v=v: [K @ v for _ in range(20)], repeats)
        note("MATVEC_PER_ENTRY", products / 20 / n**2, n, "entry")
    frame_a, frame_b = motion_coefficients(repeats)
    note("MOTION_FRAME_SECONDS", frame_a, 0, "frame")
    note("MOTION_FRAME_PER_ENTRY", frame_b, 0, "n² of a frame")
    note("MOTION_PER_CLASS", separability_per_class(repeats), 600, "class beyond two")
    csv_bytes = _csv(5_000, 200)  # the row limit, 200 columns: ~10 MB
    import datasets

    note("PARSE_PER_BYTE",
         timed(lambda: datasets.load_csv(csv_bytes), repeats) / len(csv_bytes), 5_000, "byte")
    return {name: statistics.median(values) for name, values in found.items()}


MOTION_SIZES = (200, 600)  # the motion's own range: up to experiments.morph.MOTION_MAX_N


def motion_run(n: int):
    """γ in motion as a page computes it: two circles of n points, 21 frames around γ = 1."""
    import datasets
    from experiments.morph import gamma_motion, motion_values

    data = datasets.load("circles", n=n)
    values = motion_values(1.0, low=1e-6, high=1e4)
    return lambda: gamma_motion(data.X, data.y, kernel="rbf", kernel_params={},
                                param="gamma", values=values, anchor=len(values) // 2)


def motion_coefficients(repeats: int) -> tuple[float, float]:
    """(a, b) of a + b n² seconds a frame, through the motion's time at its two sizes."""
    from experiments.morph import FRAMES

    small, large = MOTION_SIZES
    t_small = timed(motion_run(small), max(1, repeats // 2)) / FRAMES
    t_large = timed(motion_run(large), max(1, repeats // 2)) / FRAMES
    per_entry = max(t_large - t_small, 0.0) / (large**2 - small**2)
    return t_small - per_entry * small**2, per_entry


def separability_per_class(repeats: int, n: int = 600) -> float:
    """What each class beyond two adds to a frame's logistic regression (2 against 10)."""
    from experiments.separability import linear_separability

    Z = points(n, 2)
    two = timed(lambda: linear_separability(Z, np.arange(n) % 2), repeats)
    ten = timed(lambda: linear_separability(Z, np.arange(n) % 10), repeats)
    return max(ten - two, 0.0) / 8


def _csv(rows: int, cols: int) -> bytes:
    values = np.random.default_rng(1).normal(size=(rows, cols))
    header = ",".join(f"x{j}" for j in range(cols))
    body = "\n".join(",".join(f"{v:.6g}" for v in row) for row in values)
    return (header + "\n" + body + "\n").encode()


def check(name: str, estimate: costs.Estimate, func, repeats: int) -> float:
    measured = timed(func, repeats)
    bound = "≥ " if estimate.at_least else ""
    print(f"  {name:<42} estimated {bound}{estimate.seconds:7.2f} s, measured "
          f"{measured:7.2f} s: ratio {measured / max(estimate.seconds, 1e-9):5.2f}")
    return measured / max(estimate.seconds, 1e-9)


def check_work(sizes: list[int], repeats: int) -> None:
    """The models of whole pieces of work against the real computations."""
    for n in sizes:
        X = points(n, 2)
        k = 5
        dense = n <= DENSE_MAX_N
        estimate = costs.kernel_pca(n, 2, max(k, ITERATIVE_TOP) if not dense else k,
                                    solver="dense" if dense else "arpack", spectrum=dense)
        check(f"Explorer analyse, n = {n:,}, d = 2", estimate,
              lambda X=X, k=k: analyse(X, None, kernel="rbf", kernel_params={"gamma": 1.0},
                                       n_components=k), repeats)
    from experiments.morph import FRAMES

    for n in MOTION_SIZES:
        check(f"γ in motion, n = {n:,}, d = 2", costs.gamma_motion(n, 2, FRAMES),
              motion_run(n), repeats)
    path = os.environ.get("KPCA_USPS_PATH")
    if path and Path(path).is_file():
        import datasets

        X = datasets.load("usps", split="train", n=7291).X
        estimate = costs.kernel_pca(7291, 256, ITERATIVE_TOP, solver="arpack")
        check("Explorer analyse, full USPS (7,291)", estimate,
              lambda: analyse(X, None, kernel="rbf", kernel_params={"gamma": 1 / 128},
                              n_components=5), 1)
        from experiments.morph import FRAMES, MOTION_MAX_N, gamma_motion, motion_values

        data = datasets.load("usps", split="train", n=MOTION_MAX_N)
        values = motion_values(1 / 128, low=1e-6, high=1e4)
        check(f"γ in motion, USPS ({MOTION_MAX_N} digits)",
              costs.gamma_motion(MOTION_MAX_N, 256, FRAMES, classes=10),
              lambda: gamma_motion(data.X, data.y, kernel="rbf", kernel_params={},
                                   param="gamma", values=values, anchor=FRAMES // 2), 1)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--repeats", type=int, default=5)
    args = parser.parse_args(argv)
    sizes = [300, 600] if args.quick else [1000, 1500, 2500]
    repeats = 1 if args.quick else args.repeats
    print(f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores")
    found = coefficients(sizes, repeats)
    print("\nmedians (for server/costs.py):")
    for name, value in found.items():
        print(f"{name} = {value:.2e}  # was {getattr(costs, name):.2e}")
        setattr(costs, name, value)  # the checks below use the new values
    print("\nmodels against the real work:")
    check_work([400, 1000] if args.quick else [400, 1000, 2500, 3000], repeats)
    print(f"load average {os.getloadavg()[0]:.1f} at the end")


if __name__ == "__main__":
    main()
