"""Which of the app's linear-algebra calls stall every other student on the server.

    python benchmarks/bench_gil.py [--n 2000] [--repeats 3]

Streamlit runs every session's script in a thread of one Python process, so a call that
keeps Python's GIL while it computes stops all other sessions' reruns for as long as it
takes, even with a core free. This runs each call the app makes on an n x n kernel
matrix while another thread counts as fast as it can, and reports how fast that thread
counted during the call, as a share of how fast it counts alone: about 100 % means the
call released the GIL (other students' reruns go on), a few % means it held it.

scipy.linalg's LAPACK wrappers (f2py) keep the GIL; NumPy's linalg releases it for the
same LAPACK routine. This is why ``kpca_core.kernel_spectrum`` and the full dense
``eigendecompose`` use NumPy (the Explorer computes the whole spectrum on every new γ).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import threading
import time
from pathlib import Path

import numpy as np
from scipy import linalg

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from kpca_core import center_kernel, compute_kernel, eigendecompose, kernel_spectrum  # noqa: E402


def counting_rate(seconds: float | None = None, work=None) -> tuple[float, float]:
    """(counts per second of a spinning thread, seconds) while ``work()`` runs (or idles)."""
    stop = threading.Event()
    counted = []

    def spin() -> None:
        count = 0
        while not stop.is_set():
            count += 1
        counted.append(count)

    # A daemon, stopped in ``finally``: a call that raises must not leave it spinning.
    thread = threading.Thread(target=spin, daemon=True)
    start = time.perf_counter()
    thread.start()
    try:
        if work is None:
            time.sleep(seconds)
        else:
            work()
    finally:
        elapsed = time.perf_counter() - start
        stop.set()
        thread.join()
    return counted[0] / elapsed, elapsed


def calls(K: np.ndarray) -> dict:
    """The calls compared: the app's own (kpca_core) and scipy's for the same job."""
    n = K.shape[0]
    return {
        "kpca_core.kernel_spectrum (NumPy eigvalsh)": lambda: kernel_spectrum(K),
        "scipy.linalg.eigvalsh (what it used)": lambda: linalg.eigvalsh(K, check_finite=False),
        "kpca_core.eigendecompose, all n pairs (NumPy eigh)":
            lambda: eigendecompose(K, n, solver="dense"),
        "scipy.linalg.eigh, all n pairs (what it used)":
            lambda: linalg.eigh(K, check_finite=False, driver="evd"),
        "kpca_core.eigendecompose, 10 pairs (ARPACK)":
            lambda: eigendecompose(K, 10, solver="arpack"),
        "kpca_core.eigendecompose, 10 pairs dense (scipy evr: keeps the GIL)":
            lambda: eigendecompose(K, 10, solver="dense"),
    }


def main(argv=None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--n", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)

    X = np.random.default_rng(0).standard_normal((args.n, 20))
    K = center_kernel(compute_kernel(X, kernel="rbf", gamma=0.05))
    idle = statistics.median(counting_rate(0.3)[0] for _ in range(args.repeats))
    print(f"n = {args.n}; a spinning thread alone: {idle / 1e6:.1f} M counts/s\n")
    print(f"{'call':70s} {'seconds':>8s} {'others run':>11s}")
    rows = []
    for name, work in calls(K).items():
        runs = [counting_rate(work=work) for _ in range(args.repeats)]
        share = statistics.median(rate for rate, _ in runs) / idle
        seconds = statistics.median(elapsed for _, elapsed in runs)
        rows.append({"call": name, "seconds": seconds, "others_run": share})
        print(f"{name:70s} {seconds:8.2f} {100 * share:10.0f} %")
    return rows


if __name__ == "__main__":
    main()
