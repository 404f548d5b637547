"""Where a fresh Explorer view's CPU goes at the lab's settings (issue 36).

    python benchmarks/profile_lab_view.py [--repeats 3]

For each choice of the lab mix (``loadtest.class_plan.LAB``: circles, moons, iris,
USPS-2000, ...) at its link's γ, the pure parts of the Explorer's first view
(``lessons/explorer/prepare.py`` lists what it computes), each cold, on one thread of
this process: the analysis (kernel, centring, eigenpairs, linear PCA:
``experiments.analysis.analyse``), the separability scores under the projections (three
cross-validated logistic regressions: kernel PCA's components 1–2, linear PCA's, and
component 1 alone), the γ search (once per dataset × kernel, every γ) and the verdict on
the γ on screen (one more kernel PCA of the sample), and the two projection figures
(Plotly, built and turned to JSON as ``st.plotly_chart`` does). CPU seconds
(``time.process_time``: every thread of the process, BLAS's included), median of
``--repeats``. A γ change recomputes the analysis, the kernel PCA scores (the linear
PCA's score is cached: it does not depend on γ) and the verdict; the search is cached.

What Streamlit itself costs per run (the script's other elements, protobuf, the
websocket) is the server's CPU for the view (``loadtest/load_students.py --cpu-by-page
--mix lab``) minus these parts.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path
from urllib.parse import parse_qsl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import datasets  # noqa: E402
from experiments import gamma_guidance  # noqa: E402
from experiments.analysis import analyse  # noqa: E402
from experiments.separability import linear_separability  # noqa: E402
from loadtest.class_plan import LAB  # noqa: E402
from shell import figures  # noqa: E402

PARTS = ("analysis", "separability ×3", "γ search (per dataset × kernel)", "γ verdict",
         "figures ×2")


def cpu(fn) -> tuple[float, object]:
    started = time.process_time()
    value = fn()
    return time.process_time() - started, value


def profile(link, repeats: int) -> dict[str, float]:
    params = dict(parse_qsl(link.query))
    name, kernel = params.pop("dataset"), params.pop("kernel")
    kernel_params = {k: float(params.pop(k)) for k in ("gamma", "coef0") if k in params}
    if "degree" in params:
        kernel_params["degree"] = int(params.pop("degree"))
    options = {k: int(v) if v.isdigit() else v for k, v in params.items()}
    data = datasets.load(name, **options)
    X, y = data.X, data.y
    times = {part: [] for part in PARTS}
    for _ in range(repeats):
        seconds, result = cpu(lambda: analyse(X, y, kernel=kernel, kernel_params=kernel_params,
                                              n_components=3))
        times["analysis"].append(seconds)
        times["separability ×3"].append(cpu(lambda result=result: (
            linear_separability(result.projection[:, [0, 1]], y),
            linear_separability(result.pca_projection[:, [0, 1]], y),
            linear_separability(result.projection[:, [0]], y)))[0])
        seconds, found = cpu(lambda: gamma_guidance.search(X, y, kernel=kernel,
                                                           kernel_params=kernel_params))
        times["γ search (per dataset × kernel)"].append(seconds)
        times["γ verdict"].append(cpu(lambda found=found: gamma_guidance.advise(
            found, X, y, kernel_params=kernel_params))[0])
        times["figures ×2"].append(cpu(lambda result=result: [figures.point_scatter(
            Z[:, :2], y, data.target_names, title="t", axis_titles=["a", "b"],
            webgl=len(Z) > 1000, height=400).to_json()
            for Z in (result.projection, result.pca_projection)])[0])
    return {part: statistics.median(values) for part, values in times.items()}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    args = parser.parse_args(argv)
    profile(LAB[0], 1)  # imports, BLAS's threads, first-call costs: not a view's
    print("| lab choice | n | " + " | ".join(PARTS) + " | first view (sum) | γ change |")
    print("|---|---|" + "---|" * (len(PARTS) + 2))
    for link in LAB:
        row = profile(link, args.repeats)
        n = datasets.load(**{"name": dict(parse_qsl(link.query))["dataset"],
                             **({"n": 2000} if "usps" in link.query else {})}).X.shape[0]
        first = sum(row.values())
        change = row["analysis"] + row["γ verdict"] + row["figures ×2"] + (
            2 / 3 * row["separability ×3"])
        print(f"| {link.name} | {n} | " + " | ".join(f"{row[p]:.3f}" for p in PARTS)
              + f" | {first:.2f} | {change:.2f} |", flush=True)
    print("CPU s per part (process time, BLAS threads included), median of "
          f"{args.repeats}; load average {time.strftime('%H:%M')}: "
          + " ".join(f"{x:.1f}" for x in __import__("os").getloadavg()))


if __name__ == "__main__":
    main()
