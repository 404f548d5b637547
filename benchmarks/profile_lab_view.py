"""Where a fresh Explorer view's CPU goes at the lab's settings (issues 36 and 50).

    python benchmarks/profile_lab_view.py [--repeats 3] [--blas-threads rule|N]

For each choice of the lab mix (``loadtest.class_plan.LAB``: circles, moons, iris,
USPS-2000, ...) at its link's γ, the pure parts of the Explorer's first view
(``lessons/explorer/prepare.py`` lists what it computes), each cold, on one thread of
this process: the analysis (kernel, centring, all eigenvalues, the leading eigenpairs,
linear PCA: ``experiments.analysis.analyse``), the separability scores under the
projections (three cross-validated logistic regressions: kernel PCA's components 1–2,
linear PCA's, and component 1 alone), the γ search (once per dataset × kernel, every γ)
and the verdict on the γ on screen (one more kernel PCA of the sample), and the two
projection figures (Plotly, built and turned to JSON as ``st.plotly_chart`` does). CPU
seconds (``time.process_time``: every thread of the process, BLAS's included), median of
``--repeats``. A γ change recomputes the analysis, the kernel PCA scores (the linear
PCA's score is cached: it does not depend on γ) and the verdict; the search is cached.

Since issue 50 the γ search, the verdict's trial and the three scores of built-in data at
the grid's γ ship with the code (``experiments/shipped.py``): "shipped reads" is what a
first view pays for them now (the data's fingerprint checked, the search restored, the
scores and the trial looked up, the verdict compared); and from
``SPECTRUM_ON_REQUEST_FROM`` points the first screen leaves all n eigenvalues until a tab
shows them ("first-screen analysis"). "First view before" is the sum of the computed
parts, "first view now" the first-screen analysis, the shipped reads and the figures. The
irreducible work of a first view is the kernel, its centring, the leading eigenpairs of
the components the page offers (its default 3, ARPACK or LAPACK as ``kpca_core`` chooses)
and the figures' JSON: everything else a first view computes (all n eigenvalues for the
spectrum, the heatmaps' block averages, linear PCA) is the analysis's share above it.

``--blas-threads``: BLAS's and OpenMP's threads for the run, ``rule`` for what the app
sets at start-up (``server.cpu``: the cores the process may use, cgroup quotas included)
or a number; by default the libraries' own (one per core the process sees).

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
from experiments import gamma_guidance, shipped  # noqa: E402
from experiments.analysis import analyse, spectrum_at_once  # noqa: E402
from experiments.separability import linear_separability  # noqa: E402
from kpca_core import center_kernel, compute_kernel, eigendecompose  # noqa: E402
from loadtest.class_plan import LAB  # noqa: E402
from server import cpu as server_cpu  # noqa: E402
from shell import figures  # noqa: E402
from shell.state import settings_from_query  # noqa: E402

PARTS = ("analysis", "separability ×3", "γ search (per dataset × kernel)", "γ verdict",
         "figures ×2", "first-screen analysis", "shipped reads", "irreducible")
COMPUTED = PARTS[:5]  # a first view before issue 50
N_COMPONENTS = 3  # the page's default


def cpu(fn) -> tuple[float, object]:
    started = time.process_time()
    value = fn()
    return time.process_time() - started, value


def profile(link, repeats: int) -> dict[str, float]:
    # The link as the page reads it: the data set's other options and the kernel's other
    # parameters at their defaults.
    settings, _warnings = settings_from_query(dict(parse_qsl(link.query)))
    name, kernel, kernel_params = settings.dataset, settings.kernel, settings.kernel_params()
    options = settings.options
    data = datasets.load(name, **options)
    X, y = data.X, data.y
    times = {part: [] for part in PARTS}
    for _ in range(repeats):
        seconds, result = cpu(lambda: analyse(X, y, kernel=kernel, kernel_params=kernel_params,
                                              n_components=N_COMPONENTS))
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
        times["figures ×2"].append(cpu(lambda result=result: figures_json(result, data))[0])
        times["first-screen analysis"].append(cpu(lambda: analyse(
            X, y, kernel=kernel, kernel_params=kernel_params, n_components=N_COMPONENTS,
            spectrum=spectrum_at_once(len(X), kernel, kernel_params)))[0])
        times["shipped reads"].append(cpu(lambda result=result: shipped_reads(
            name, options, data, kernel, kernel_params, result))[0])
        times["irreducible"].append(cpu(lambda: irreducible(X, kernel, kernel_params))[0]
                                    + times["figures ×2"][-1])
    return {part: statistics.median(values) for part, values in times.items()}


def figures_json(result, data) -> list[str]:
    return [figures.point_scatter(Z[:, :2], data.y, data.target_names, title="t",
                                  axis_titles=["a", "b"], webgl=len(Z) > 1000,
                                  height=400).to_json()
            for Z in (result.projection, result.pca_projection)]


def irreducible(X, kernel: str, kernel_params: dict):
    """The kernel, centred, and the leading eigenpairs of the components the page offers."""
    Kc = center_kernel(compute_kernel(X, kernel=kernel, **kernel_params), copy=False)
    return eigendecompose(Kc, N_COMPONENTS, random_state=0, check_symmetry=False)


def shipped_reads(name, options, data, kernel, kernel_params, result):
    """What a first view does with the shipped file, from a cold process's state: the
    data's fingerprint, the search restored, the scores and the trial read, the verdict."""
    shipped._checked.clear()
    found = shipped.for_data(name, options, False, data.X, data.y)
    if found is None:
        raise SystemExit(f"{name} {options}: not in {shipped.PATH} (run "
                         "scripts/ship_guidance.py)")
    search = found.search(kernel, kernel_params)
    scores = [found.score(kernel, kernel_params, (0, 1), result.projection[:, :2]),
              found.score(kernel, kernel_params, (0,), result.projection[:, :1]),
              found.score(None, {}, (0, 1), result.pca_projection[:, :2])]
    if None in scores:
        raise SystemExit(f"{name} {kernel} {kernel_params}: a score is not shipped")
    current = (gamma_guidance.tried_at(search, kernel_params)
               or found.trial(kernel, kernel_params))
    return gamma_guidance.verdict(search, current, shown_score=scores[0])


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--blas-threads", default=None,
                        help="'rule' (what the app sets: server/cpu.py) or a number")
    args = parser.parse_args(argv)
    if args.blas_threads is not None:
        from threadpoolctl import threadpool_limits

        threads = (server_cpu.process_cores() if args.blas_threads == "rule"
                   else int(args.blas_threads))
        threadpool_limits(limits=threads)
        print(f"BLAS and OpenMP threads: {threads} ({args.blas_threads})")
    profile(LAB[0], 1)  # imports, BLAS's threads, first-call costs: not a view's
    print("| lab choice | n | " + " | ".join(PARTS) + " | first view before | first view "
          "now | γ change before | γ change now |")
    print("|---|---|" + "---|" * (len(PARTS) + 4))
    for link in LAB:
        row = profile(link, args.repeats)
        n = datasets.load(**{"name": dict(parse_qsl(link.query))["dataset"],
                             **({"n": 2000} if "usps" in link.query else {})}).X.shape[0]
        before = sum(row[part] for part in COMPUTED)
        now = row["first-screen analysis"] + row["shipped reads"] + row["figures ×2"]
        change = row["analysis"] + row["γ verdict"] + row["figures ×2"] + (
            2 / 3 * row["separability ×3"])
        print(f"| {link.name} | {n} | " + " | ".join(f"{row[p]:.3f}" for p in PARTS)
              + f" | {before:.2f} | {now:.2f} | {change:.2f} | {now:.2f} |", flush=True)
    print("CPU s per part (process time, BLAS threads included), median of "
          f"{args.repeats}; load average {time.strftime('%H:%M')}: "
          + " ".join(f"{x:.1f}" for x in __import__("os").getloadavg()))


if __name__ == "__main__":
    main()
