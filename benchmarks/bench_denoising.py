"""Time the de-noising page at its default size against the issue's targets.

    KPCA_USPS_PATH=/path/to/usps.npz python benchmarks/bench_denoising.py

Prints the first view (a fresh AppTest session: fit, four curves, clean reconstruction,
figures) and a cached rerun next to the targets (< 5 s and < 0.5 s), plus the pure
computation split by step, and the machine's load (a shared machine slows everything).
"""

from __future__ import annotations

import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import datasets  # noqa: E402
from lessons.denoising import experiment as dn  # noqa: E402


def pure_steps() -> list[tuple[str, float]]:
    """The page's default computation without Streamlit, step by step (wall seconds)."""
    steps = []
    start = time.perf_counter()
    X_train = datasets.load("usps", split="train", n=1000, seed=0).X
    test = datasets.load("usps", split="test", n=2007, seed=0)
    X_clean = test.X[dn.per_class_indices(test.y, 5, 0)]
    X_noisy = dn.add_noise(X_clean, "gaussian", dn.PAPER_SIGMA, 0)
    steps.append(("load digits", time.perf_counter() - start))
    start = time.perf_counter()
    fit = dn.fit_denoisers(X_train, dn.PAPER_GAMMA, 256)
    steps.append(("fit PCA + kernel PCA (256 components)", time.perf_counter() - start))
    grid = dn.m_grid(fit.max_components)
    for method in dn.METHODS:
        curve = dn.method_curve(fit, method, X_clean, X_noisy, grid)
        steps.append((f"curve: {dn.METHOD_TITLES[method]}", curve.seconds))
    return steps


def page_runs() -> tuple[float, float]:
    from streamlit.testing.v1 import AppTest

    at = AppTest.from_file(str(ROOT / "app.py"), default_timeout=600)
    at.switch_page("app_pages/denoising.py")
    start = time.perf_counter()
    at.run()
    first = time.perf_counter() - start
    assert not at.exception, [e.value for e in at.exception]
    start = time.perf_counter()
    at.run()
    return first, time.perf_counter() - start


def main() -> int:
    load = os.getloadavg()
    print(f"load average before: {load[0]:.1f} on {os.cpu_count()} cores")
    for name, seconds in pure_steps():
        print(f"  {name:45s} {seconds:6.2f} s")
    first, cached = page_runs()
    print(f"page, first view (default: 1,000 digits)  {first:6.2f} s   target < 5 s")
    print(f"page, cached rerun                         {cached:6.2f} s   target < 0.5 s")
    print(f"load average after: {os.getloadavg()[0]:.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
