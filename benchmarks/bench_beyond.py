"""What the "Beyond kernel PCA" pages cost, beside the Explorer's in the same run.

    python benchmarks/bench_beyond.py [--repeats 3] [--no-pages]

Two parts:

* **pages** (AppTest: script run and figure serialisation, no network, as
  ``bench_app.py --pages``): each page's first view and a change, against the Explorer's
  first view and γ change on the same data in the same process, so that a busy machine
  slows both alike. One eigenproblem: Isomap on the swiss roll, then a step of k (a new
  graph), then spectral clustering (a new method). Novelty detection: the circles, then
  the threshold (no new fit), then another normal class (a new fit). Choosing γ with its
  alignment section: the circles, then γ (a highlight, no new sweep). Common mistakes with
  the lucky-γ card: the moons (the card's data are fixed: computed once per server).
* **experiments** (the lessons' own functions): ``eigenproblem`` for each method at the
  swiss roll's 600 points and at the page's cap, 1,000; ``novelty`` at 300 and 1,000
  training points; the alignment curve of a 12-value sweep; the lucky-γ card.

Each figure is the median of ``--repeats`` runs (a new data seed each, so that nothing is
cached). Targets: a change on a page < 0.5 s like every lesson page (issue "Speed on a
shared host"), a first view < 3 s. Results go to benchmarks/results/bench_beyond.json.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from streamlit.testing.v1 import AppTest  # noqa: E402

import datasets  # noqa: E402
from experiments.alignment import alignment_curve  # noqa: E402
from experiments.graph_kernels import METHODS  # noqa: E402
from experiments.kernel_diagnostics import reference_gamma  # noqa: E402
from lessons.choosing_gamma.experiment import gamma_grid  # noqa: E402
from lessons.mistakes.lucky_gamma import lucky_gamma  # noqa: E402
from lessons.novelty.experiment import novelty  # noqa: E402
from lessons.one_eigenproblem.experiment import eigenproblem  # noqa: E402

APP = str(ROOT / "app.py")
FIRST_VIEW_TARGET, CHANGE_TARGET = 3.0, 0.5


def timed(run) -> float:
    start = time.perf_counter()
    run()
    return time.perf_counter() - start


def run_app(at: AppTest) -> float:
    elapsed = timed(at.run)
    if at.exception or at.error:
        raise RuntimeError([e.value for e in [*at.exception, *at.error]])
    return elapsed


def open_page(page: str, query: dict) -> AppTest:
    at = AppTest.from_file(APP, default_timeout=600)
    at.query_params = {k: str(v) for k, v in query.items()}
    at.switch_page(f"app_pages/{page}.py")
    return at


def page_rows(seed: int) -> list[tuple[str, float, str, float]]:
    """(view, first view s, change, change s) for each page, one data seed."""
    rows = []
    at = open_page("explorer", {"dataset": "circles", "kernel": "rbf", "gamma": 5,
                                "seed": seed})
    first = run_app(at)
    at.select_slider(key="w_gamma").set_value(10.0)
    rows.append(("Explorer, circles", first, "γ 5 → 10", run_app(at)))

    at = open_page("one_eigenproblem", {"dataset": "swiss_roll", "method": "isomap",
                                        "neighbours": 6, "seed": seed})
    first = run_app(at)
    at.session_state["w_eigen_k"] = 7
    change = run_app(at)
    at.session_state["w_eigen_method"] = "spectral"
    rows.append(("One eigenproblem, Isomap, swiss roll", first, "k 6 → 7", change))
    rows.append(("One eigenproblem, swiss roll", float("nan"), "Isomap → spectral",
                 run_app(at)))

    at = open_page("novelty", {"dataset": "circles", "kernel": "rbf", "gamma": 5,
                               "seed": seed})
    first = run_app(at)
    at.session_state["w_novelty_threshold"] = 90.0
    change = run_app(at)
    at.session_state["w_novelty_normal"] = "2"
    rows.append(("Novelty detection, circles", first, "threshold 95 → 90 %", change))
    rows.append(("Novelty detection, circles", float("nan"), "normal: all → inner circle",
                 run_app(at)))

    at = open_page("choosing_gamma", {"dataset": "circles", "kernel": "rbf", "gamma": 5,
                                      "seed": seed})
    first = run_app(at)
    at.select_slider(key="w_gamma").set_value(10.0)
    rows.append(("Choosing γ with alignment, circles", first, "γ 5 → 10", run_app(at)))

    at = open_page("mistakes", {"dataset": "moons", "kernel": "rbf", "gamma": 15,
                                "seed": seed})
    first = run_app(at)
    at.select_slider(key="w_gamma").set_value(10.0)
    rows.append(("Common mistakes with the lucky-γ card, moons", first, "γ 15 → 10",
                 run_app(at)))
    return rows


def bench_pages(repeats: int) -> list[dict]:
    # The first script run of a process pays the imports (streamlit, scipy, sklearn,
    # plotly): paid here, on the home page, so that every view below times its own work.
    run_app(AppTest.from_file(APP, default_timeout=600))
    runs = [page_rows(seed) for seed in range(101, 101 + repeats)]
    table = []
    for i, (view, _, change, _) in enumerate(runs[0]):
        firsts = [run[i][1] for run in runs]
        changes = [run[i][3] for run in runs]
        first = statistics.median(firsts) if firsts[0] == firsts[0] else float("nan")
        table.append({"view": view, "first_view_s": first, "change": change,
                      "change_s": statistics.median(changes)})
        shown = "   —   " if first != first else f"{first:6.2f} s"
        print(f"{view:48s} first {shown} (target < {FIRST_VIEW_TARGET:g} s)   {change:28s} "
              f"{statistics.median(changes):5.2f} s (target < {CHANGE_TARGET:g} s)")
    return table


def bench_experiments(repeats: int) -> dict:
    results = {}
    for n in (600, 1000):
        for method in METHODS:
            times = []
            for seed in range(repeats):
                data = datasets.load("swiss_roll", n=n, seed=200 + seed)
                times.append(timed(lambda data=data, method=method: eigenproblem(
                    data.X, data.y, method=method, kernel="rbf",
                    kernel_params={"gamma": 0.005}, k=6, n_components=3,
                    unrolled=data.unrolled)))
            results[f"eigenproblem {method} n={n}"] = statistics.median(times)
    for n in (400, 1334):  # 300 and 1,000 training points
        times = []
        for seed in range(repeats):
            data = datasets.load("circles", n=n, seed=300 + seed)
            times.append(timed(lambda data=data: novelty(
                data.X, data.y, kernel="rbf", kernel_params={"gamma": 5.0}, q=3,
                normal=None, max_train=1000)))
        results[f"novelty {n - math.ceil(n / 4)} training points"] = statistics.median(times)
    times = []
    for seed in range(repeats):
        data = datasets.load("circles", seed=400 + seed)
        values = gamma_grid(reference_gamma(data.X, "rbf"))
        times.append(timed(lambda data=data, values=values: alignment_curve(
            data.X, data.y, kernel="rbf", kernel_params={}, param="gamma", values=values)))
    results["alignment curve, 12 γ, 400 points"] = statistics.median(times)
    results["lucky-γ card (once per server)"] = timed(lucky_gamma)
    for name, seconds in results.items():
        print(f"{name:48s} {seconds:6.2f} s")
    return results


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--no-pages", action="store_true", help="only the experiments")
    args = parser.parse_args()
    os.chdir(ROOT)
    load = os.getloadavg()
    print(f"load average {load[0]:.1f} {load[1]:.1f} {load[2]:.1f}, {os.cpu_count()} cores")
    results = {"load_average": load}
    if not args.no_pages:
        results["pages"] = bench_pages(args.repeats)
    results["experiments"] = bench_experiments(args.repeats)
    out = ROOT / "benchmarks" / "results"
    out.mkdir(parents=True, exist_ok=True)
    (out / "bench_beyond.json").write_text(json.dumps(results, indent=2) + "\n")


if __name__ == "__main__":
    main()
