"""Every dataset × kernel × γ as a link: is the γ hint silent where the view is poor? hurtful?

    KPCA_USPS_PATH=... python benchmarks/gamma_grid.py [--quick] [--no-cache] [--jobs 2]

A *view* is what the Explorer shows when a link opens it: one built-in dataset at its
default options (USPS at n = 1,000), not standardised, one kernel, one γ from the
half-decades 1e-4, 3.16e-4, …, 1e4 (17 values), 3 components, components 1–2 on the
axes. Its *score* is the page's own separability: 5-fold cross-validated logistic
regression on kernel PCA's components 1–2 (``experiments.separability``), computed on
exactly what the page draws (the Explorer's ``analyse``). Kernels: RBF, Laplacian,
polynomial (degree 3; c₀ = 1, the sidebar's default, and c₀ = 0) and sigmoid (c₀ = 1
and c₀ = 0). The linear and cosine kernels have no γ.

Per view:

* **poor**: the score is ≥ 0.15 below the best score of the same dataset and kernel
  over the 17 values of γ;
* **silent**: poor, and no hint about γ is shown;
* **hurtful**: a hint names a γ (or a degree) whose own view scores lower than this one.

The hint is the Explorer's own (``lessons.common.gamma_hint``, without its caches): the search of
the dataset and kernel (``gamma_guidance.search`` of the inputs and labels, every
parameter but γ) and the verdict on the view (``gamma_guidance.advise``), given the
score the page shows for components 1–2. For comparison on the same labelled views,
the spectral diagnostics the Explorer uses for unlabelled data
(``gamma_guidance.diagnose_unlabelled``) are run as if the labels were missing.

*Before* this hint the Explorer used threshold rules (``kernel_diagnostics.diagnose``,
removed); the figures it gave on this grid are kept in :data:`BEFORE`.

Scores are cached in ``benchmarks/results/gamma_grid_cache.json`` (git-ignored), so a
second run takes seconds; the summary is written to
``benchmarks/results_store/gamma_grid.json``. ``--quick`` runs the subset the test suite
runs (tests/experiments/test_gamma_guidance.py).
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
import warnings
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import datasets  # noqa: E402
from experiments import gamma_guidance  # noqa: E402

# The Explorer's pure parts (shell/lesson modules after the layout move: one line each).
from experiments.analysis import analyse  # noqa: E402
from experiments.kernel_diagnostics import reference_gamma  # noqa: E402
from experiments.separability import linear_separability  # noqa: E402
from shell.state import Settings  # noqa: E402

GAMMAS = tuple(float(f"{10 ** (e / 2):.4g}") for e in range(-8, 9))  # 1e-4 … 1e4
POOR_GAP = 0.15
N_COMPONENTS = Settings().n_components  # a link's default: 3
USPS_N = 1000
CACHE = ROOT / "benchmarks" / "results" / "gamma_grid_cache.json"
SUMMARY = ROOT / "benchmarks" / "results_store" / "gamma_grid.json"
# The threshold rules the Explorer used before the γ guidance (kernel_diagnostics.diagnose
# as lessons/explorer/projections.gamma_hints called it), on this grid, measured with this
# script at commit ab7da54 (RBF, Laplacian, polynomial and sigmoid kernels, 7 data sets).
BEFORE = {"views": 714, "poor": 210, "silent": 52, "hurtful": 114, "hurtful_2pt": 51}


@dataclass(frozen=True)
class Family:
    """A kernel with its parameters other than γ."""

    name: str
    kernel: str
    fixed: tuple[tuple[str, float], ...] = ()

    def params(self, gamma: float) -> dict:
        return {"gamma": float(gamma), **dict(self.fixed)}


FAMILIES = (
    Family("rbf", "rbf"),
    Family("laplacian", "laplacian"),
    Family("poly d=3 c0=1", "poly", (("degree", 3), ("coef0", 1.0))),
    Family("poly d=3 c0=0", "poly", (("degree", 3), ("coef0", 0.0))),
    Family("sigmoid c0=1", "sigmoid", (("coef0", 1.0),)),
    Family("sigmoid c0=0", "sigmoid", (("coef0", 0.0),)),
)


def grid_datasets(quick: bool = False, only: tuple[str, ...] = ()) -> dict[str, dict]:
    """Dataset name → options of the views (defaults; USPS at n = 1,000 when available):
    every data set, the quick grid's three, or ``only`` these."""
    names = list(datasets.available())
    if quick:
        names = ["circles", "iris", "swiss_roll"]
    if only:
        names = list(only)
    chosen = {}
    for name in names:
        options = {"n": USPS_N} if name == "usps" else {}
        try:
            datasets.load(name, **options)
        except datasets.UspsUnavailableError:
            continue
        chosen[name] = options
    return chosen


def _key(*parts) -> str:
    return json.dumps(parts, sort_keys=True, default=str)


class ScoreCache:
    """The page's score for (dataset, kernel, params), kept on disk between runs."""

    def __init__(self, path: Path | None) -> None:
        self.path = path
        self.values: dict[str, dict] = {}
        if path is not None and path.exists():
            self.values = json.loads(path.read_text())

    def save(self) -> None:
        if self.path is not None:
            self.path.parent.mkdir(parents=True, exist_ok=True)
            self.path.write_text(json.dumps(self.values))

    def view(self, dataset: str, options: dict, kernel: str, params: dict) -> dict:
        """What the Explorer shows for this link: the score of components 1–2."""
        key = _key("score", dataset, options, kernel, params)
        if key not in self.values:
            self.values[key] = page_view(dataset, options, kernel, params)
        return self.values[key]


def page_view(dataset: str, options: dict, kernel: str, params: dict) -> dict:
    """The score the Explorer shows for one view: its analysis (``experiments.analysis``, as
    ``lessons.common.analysis.explorer_analysis`` runs it), components 1–2, its separability."""
    data = datasets.load(dataset, **options)
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            result = analyse(data.X, data.y, kernel=kernel, kernel_params=params,
                             n_components=N_COMPONENTS)
    except (ValueError, np.linalg.LinAlgError) as error:  # the page shows the message
        return {"error": str(error)[:200]}
    return {"score": linear_separability(result.projection[:, [0, 1]], data.y)}


# --------------------------------------------------------------------------- the advice


def after_advice(search, data, family: Family, gamma: float, shown_score) -> dict | None:
    """``gamma_guidance.advise`` for this view, as ``lessons.common.gamma_hint.guidance`` calls it:
    the parameters its hint names, or None."""
    if search is None:
        return None
    params = family.params(gamma)
    guidance = gamma_guidance.advise(search, data.X, data.y, kernel_params=params,
                                     shown_score=shown_score)
    hint = guidance.hint
    if hint is None:
        return None
    named = dict(params, gamma=hint.gamma)
    if hint.degree is not None:
        named["degree"] = hint.degree
    return {"kind": hint.kind, "params": named}


def grid(
    quick: bool = False,
    cache: ScoreCache | None = None,
    log=print,
    *,
    families: tuple[Family, ...] = FAMILIES,
    gammas: tuple[float, ...] = GAMMAS,
    sample: int = gamma_guidance.SAMPLE_SIZE,
    jobs: int = 1,
    only: tuple[str, ...] = (),
) -> dict:
    """Every view of the grid with its score and the hint (with and without labels).

    ``quick`` (circles, iris, Swiss roll) or ``only`` (these data sets), ``families``,
    ``gammas`` and ``sample`` (the guidance's sample size) make the smaller grids the tests
    run. ``jobs`` > 1 spreads the data sets over that many processes (one BLAS thread
    each): the same views, the same numbers, in about 1/jobs of the time on an idle machine.
    """
    cache = cache or ScoreCache(None)
    chosen = list(grid_datasets(quick, only).items())
    # The largest first, so the processes finish together.
    chosen.sort(key=lambda item: -len(datasets.load(item[0], **item[1]).X))
    tasks = [(name, options, families, gammas, sample, cache.values) for name, options in chosen]
    views = []
    if jobs > 1:
        from concurrent.futures import ProcessPoolExecutor

        with ProcessPoolExecutor(max_workers=jobs, initializer=_one_blas_thread) as pool:
            results = list(pool.map(_dataset_views, *zip(*tasks, strict=True)))
    else:
        results = [_dataset_views(*task) for task in tasks]
    for (name, _), (dataset_views, new_scores, seconds) in zip(chosen, results, strict=True):
        views += dataset_views
        cache.values.update(new_scores)
        log(f"  {name}: {seconds:.0f} s")
    cache.save()
    return summarise(views)


def _one_blas_thread() -> None:
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1, user_api="blas")  # for the life of the worker


def _dataset_views(name: str, options: dict, families, gammas, sample: int,
                   known: dict) -> tuple[list[dict], dict, float]:
    """One data set's views (every family × γ); the scores it computed; its seconds."""
    cache = ScoreCache(None)
    cache.values = dict(known)
    data = datasets.load(name, **options)
    start = time.perf_counter()
    views = []
    for family in families:
        base = family.params(1.0)
        labelled = gamma_guidance.search(data.X, data.y, kernel=family.kernel,
                                         kernel_params=base, sample_size=sample)
        blind = gamma_guidance.search(data.X, None, kernel=family.kernel,
                                      kernel_params=base, sample_size=sample)
        for gamma in gammas:
            params = family.params(gamma)
            shown = cache.view(name, options, family.kernel, params)
            view = {"dataset": name, "family": family.name, "gamma": gamma,
                    "score": shown.get("score"), "error": shown.get("error")}
            score = view["score"]
            after = after_advice(labelled, data, family, gamma, score)
            view["after"] = [after] if after else []
            spectral = after_advice(blind, data, family, gamma, None)
            view["unlabelled"] = [spectral] if spectral else []
            for mode in ("after", "unlabelled"):
                for advice in view[mode]:
                    if advice["params"] is not None:
                        named = cache.view(name, options, family.kernel, advice["params"])
                        advice["score"] = named.get("score")
            views.append(view)
    new = {k: v for k, v in cache.values.items() if k not in known}
    return views, new, time.perf_counter() - start


def summarise(views: list[dict]) -> dict:
    """Views, poor, silent and hurtful, with and without labels (labelled views only)."""
    best: dict[tuple, float] = {}
    for v in views:
        if v["score"] is not None:
            key = (v["dataset"], v["family"])
            best[key] = max(best.get(key, -1.0), v["score"])
    counts = {mode: {"views": 0, "poor": 0, "silent": 0, "hurtful": 0, "hurtful_2pt": 0,
                     "hinted": 0, "hinted_not_poor": 0, "gains": []}
              for mode in ("after", "unlabelled")}
    cases: dict[str, list] = {mode: [] for mode in counts}
    for v in views:
        if v["score"] is None:
            continue
        poor = v["score"] <= best[(v["dataset"], v["family"])] - POOR_GAP
        v["poor"] = poor
        for mode, c in counts.items():
            advice = v[mode]
            c["views"] += 1
            c["poor"] += poor
            c["hinted"] += bool(advice)
            c["hinted_not_poor"] += bool(advice) and not poor
            silent = poor and not advice
            hurtful = any(a.get("score") is not None and a["score"] < v["score"] for a in advice)
            c["silent"] += silent
            c["hurtful"] += hurtful
            c["hurtful_2pt"] += any(
                a.get("score") is not None and a["score"] < v["score"] - 0.02 for a in advice
            )
            c["gains"] += [a["score"] - v["score"] for a in advice if a.get("score") is not None]
            if silent or hurtful:
                cases[mode].append({
                    "dataset": v["dataset"], "family": v["family"], "gamma": v["gamma"],
                    "score": round(v["score"], 3),
                    "best": round(best[(v["dataset"], v["family"])], 3),
                    "problem": "silent" if silent else "hurtful",
                    "advice": [{k: a.get(k) for k in ("kind", "params", "score")} for a in advice],
                })
    for c in counts.values():
        gains = c.pop("gains")
        c["gain_min"] = round(min(gains), 3) if gains else None
        c["gain_median"] = round(float(np.median(gains)), 3) if gains else None
    unlabelled_views = [v for v in views if v["score"] is None and v["error"] is None]
    return {"counts": counts, "cases": cases,
            "unlabelled_data_views": len(unlabelled_views),
            "unlabelled_data_hints": {
                mode: sum(bool(v[mode]) for v in unlabelled_views)
                for mode in ("unlabelled",)},
            "errors": sum(v["error"] is not None for v in views),
            "views_detail": views}


def print_summary(summary: dict, log=print) -> None:
    log(f"{'':10}{'views':>6}{'poor':>6}{'silent':>8}{'hurtful':>9}{'(by >.02)':>10}"
        f"{'hinted':>8}{'not poor':>10}{'gain: min':>11}{'median':>8}")
    names = {"after": "hint", "unlabelled": "spectral"}
    b = BEFORE
    log(f"{'before':10}{b['views']:>6}{b['poor']:>6}{b['silent']:>8}{b['hurtful']:>9}"
        f"{b['hurtful_2pt']:>10}   (the threshold rules, measured at commit ab7da54)")
    for mode, c in summary["counts"].items():
        log(f"{names[mode]:10}{c['views']:>6}{c['poor']:>6}{c['silent']:>8}{c['hurtful']:>9}"
            f"{c['hurtful_2pt']:>10}{c['hinted']:>8}{c['hinted_not_poor']:>10}"
            f"{c['gain_min']!s:>11}{c['gain_median']!s:>8}")
    log("  hurtful: a hint names a γ whose view scores lower (by > 0.02: beyond "
        "cross-validation noise); gain: score of the named γ − score shown, on all points.")
    log("  hint = the Explorer's γ hint (gamma_guidance.search + advise, labels); spectral = "
        "its diagnostics for unlabelled data, run as if the labels were missing.")
    log(f"  views that cannot be computed (the page shows the error): {summary['errors']}; "
        f"views of unlabelled data (parabola): {summary['unlabelled_data_views']}, "
        f"hinted {summary['unlabelled_data_hints']['unlabelled']}")
    for mode, cases in summary["cases"].items():
        for case in cases[:40]:
            advice = "; ".join(
                f"{a['kind']} → {a['params']} scores {a['score']}" for a in case["advice"]
            ) or "no hint"
            log(f"  {names[mode]:>8} {case['problem']:>7}: {case['dataset']} {case['family']} "
                f"γ = {case['gamma']:g} scores {case['score']} (best {case['best']}): {advice}")


# --------------------------------------------------------------------------- cost


def measure_cost(repeats: int = 3, log=print) -> list[dict]:
    """Wall and CPU seconds of search + advise: circles n = 400, USPS n = 1,000 and 2,000."""
    cases = [("circles", {})]
    try:
        datasets.load("usps", n=USPS_N)
        cases += [("usps", {"n": 1000}), ("usps", {"n": 2000})]
    except datasets.UspsUnavailableError:
        log("  (USPS unavailable: set KPCA_USPS_PATH)")
    rows = []
    for name, options in cases:
        data = datasets.load(name, **options)
        reference = reference_gamma(data.X, "rbf")
        walls, cpus, counts = [], [], []
        for _ in range(repeats):
            wall, cpu = time.perf_counter(), time.process_time()
            found = gamma_guidance.search(data.X, data.y, kernel="rbf",
                                          kernel_params={"gamma": reference})
            gamma_guidance.advise(found, data.X, data.y, kernel_params={"gamma": 3 * reference})
            walls.append(time.perf_counter() - wall)
            cpus.append(time.process_time() - cpu)
            counts.append(len(found.trials) + 1)
        row = {"dataset": name, "n": len(data.X), "sample": found.n_sample,
               "kernel_pcas": int(np.median(counts)),
               "wall_s": float(np.median(walls)), "cpu_s": float(np.median(cpus))}
        rows.append(row)
        log(f"  {name:8} n = {row['n']:>5} (sample {row['sample']}): {row['kernel_pcas']} "
            f"kernel PCAs, {row['wall_s']:.2f} s wall, {row['cpu_s']:.2f} s CPU (medians of "
            f"{repeats}); target 2 s: {row['wall_s'] / 2:.2f}× (wall), "
            f"{row['cpu_s'] / 2:.2f}× (CPU)")
    return rows


# --------------------------------------------------------------------------- calibration


def calibrate(log=print) -> None:
    """How often each spectral symptom fires on poor and on near-best views.

    Every γ of the grid on each labelled data set's search sample: the trial's score
    against the best over the grid (poor: ≥ POOR_GAP below; near best: within 0.05).
    This is how the thresholds in ``experiments.gamma_guidance`` were chosen.
    """
    rows = []
    for name, options in grid_datasets().items():
        data = datasets.load(name, **options)
        if data.y is None:
            continue
        for family in FAMILIES:
            found = gamma_guidance.search(data.X, data.y, kernel=family.kernel,
                                          kernel_params=family.params(1.0))
            if not found.gamma_matters:
                continue
            Xs, ys = data.X[found.rows], data.y[found.rows]
            trials = [gamma_guidance.trial(Xs, ys, kernel=family.kernel,
                                           params=family.params(g),
                                           linear_plane=found.linear_plane)
                      for g in GAMMAS]
            trials = [t for t in trials if t.score is not None]
            best = max(t.score for t in trials)
            rows += [(family.kernel, t, t.score <= best - POOR_GAP, t.score >= best - 0.05,
                      gamma_guidance.symptom(found, t)) for t in trials]
    poor = sum(r[2] for r in rows)
    good = sum(r[3] for r in rows)
    log(f"  {len(rows)} views on samples: {poor} poor, {good} near best (within 0.05)")
    for kind in ("too_large", "saturated", "linear"):
        fired = [r for r in rows if r[4] == kind]
        log(f"  {kind:10} fires on {sum(r[2] for r in fired):>4} poor views, "
            f"{sum(r[3] for r in fired):>4} near-best views, "
            f"{sum(not r[2] and not r[3] for r in fired):>4} others")
    missed = sum(r[2] and r[4] is None for r in rows)
    log(f"  poor views with no symptom: {missed} of {poor}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="the test suite's subset")
    parser.add_argument("--no-cache", action="store_true", help="recompute every score")
    parser.add_argument("--cost", action="store_true", help="only time the guidance")
    parser.add_argument("--calibrate", action="store_true",
                        help="only the spectral symptoms against the labelled scores")
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--jobs", type=int, default=min(2, os.cpu_count() or 1),
                        help="processes (data sets in parallel); default: up to 2")
    args = parser.parse_args()
    from threadpoolctl import threadpool_limits

    if args.cost:
        measure_cost(args.repeats)
        return
    if args.calibrate:
        with threadpool_limits(limits=1, user_api="blas"):
            calibrate()
        return
    start = time.perf_counter()
    with threadpool_limits(limits=1, user_api="blas"):  # see gamma_guidance.BLAS_THREADS
        summary = grid(args.quick, ScoreCache(None if args.no_cache else CACHE),
                       jobs=args.jobs)
    print(f"γ grid: {len(GAMMAS)} values of γ (1e-4 … 1e4), kernels: "
          f"{', '.join(f.name for f in FAMILIES)}; poor = ≥ {POOR_GAP} below the kernel's "
          f"best; {time.perf_counter() - start:.0f} s")
    print_summary(summary)
    if not args.quick:
        SUMMARY.write_text(json.dumps(record(summary), indent=1, ensure_ascii=False) + "\n")
        print(f"  written to {SUMMARY.relative_to(ROOT)}")


def record(summary: dict) -> dict:
    """The figures and every silent or hurtful view, one line each, for the results store."""
    def line(case: dict) -> str:
        advice = "; ".join(
            f"{a['kind']} → γ = {a['params']['gamma']:g}"
            + (f", degree {a['params']['degree']}" if "degree" in a["params"] else "")
            + (f" scores {a['score']:.3f}" if a.get("score") is not None else "")
            for a in case["advice"] if a.get("params")
        ) or "no hint"
        return (f"{case['dataset']} {case['family']} γ = {case['gamma']:g}: {case['problem']}, "
                f"scores {case['score']} (best {case['best']}); {advice}")

    return {
        "grid": {"gammas": list(GAMMAS), "families": [f.name for f in FAMILIES],
                 "poor_gap": POOR_GAP, "usps_n": USPS_N,
                 "sample": gamma_guidance.SAMPLE_SIZE},
        "before": BEFORE,
        "counts": summary["counts"],
        "errors": summary["errors"],
        "unlabelled_data_views": summary["unlabelled_data_views"],
        "unlabelled_data_hints": summary["unlabelled_data_hints"],
        "cases": {mode: [line(c) for c in cases] for mode, cases in summary["cases"].items()},
    }


if __name__ == "__main__":
    main()
