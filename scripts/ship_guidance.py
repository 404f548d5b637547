"""Compute what a first view of built-in data needs and only the data and the code decide,
into ``experiments/shipped.json`` (issue 50; ``experiments/shipped.py`` says what and why).

    python scripts/ship_guidance.py                      # every built-in data set
    python scripts/ship_guidance.py --datasets circles   # only these; the others are kept

The settings: every built-in data set at its default options (the USPS digits when
``$KPCA_USPS_PATH`` or the download finds them; without them the file's USPS entry is
kept), unstandardised, with each kernel at the sidebar's defaults for its other
parameters (the lab's settings: ``lessons.explorer.prepare.lab_settings``) and with the
data set's own suggested kernel (the parabola's polynomial of degree 2), at every γ of the
sidebar's grid. Run it again after changing the code these numbers come from (the γ
guidance, the separability score, the analysis, kpca_core, the data sets):
``tests/experiments/test_shipped.py`` fails until then. About 20–40 min of one core, most
of it the 164 analyses of USPS-2000.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import datasets  # noqa: E402
from experiments import gamma_guidance, shipped  # noqa: E402
from experiments.kernel_diagnostics import GAMMA_KERNELS, reference_gamma  # noqa: E402
from shell.state import Settings, default_options, default_settings  # noqa: E402
from words.kernel_params import GAMMA_GRID  # noqa: E402

KERNELS = ("linear", *sorted(GAMMA_KERNELS))
ABOUT = ("Written by scripts/ship_guidance.py from the code and the built-in data: do not "
         "edit. experiments/shipped.py says what it holds and when the app uses it.")
# A container wider than this (as compact JSON) is spread over lines: one line per view
# and per trial keeps the file readable and its diffs small.
INLINE_WIDTH = 400


def kernel_families(dataset: str) -> list[tuple[str, dict]]:
    """(kernel, its parameters other than γ): the sidebar's defaults for every kernel, and
    the data set's own suggestion where it differs."""
    base = Settings(dataset=dataset, dataset_options=default_options(dataset))
    families = []
    for settings in (*(dataclasses.replace(base, kernel=k) for k in KERNELS),
                     default_settings(dataset)):
        family = (settings.kernel, {k: v for k, v in settings.kernel_params().items()
                                    if k != "gamma"})
        if family not in families:
            families.append(family)
    return families


def data_entry(dataset: str, *, log) -> dict:
    """Everything shipped for one data set at its default options (see experiments/shipped.py)."""
    options = default_options(dataset)
    data = datasets.load(dataset, **dict(options))
    X, y = data.X, data.y
    n_components = min(Settings().n_components, len(X) - 1)  # as with_valid_components
    entry = {"dataset": dataset, "options": [list(item) for item in options],
             "standardize": False, "fingerprint": shipped.data_fingerprint(X, y),
             "references": {k: reference_gamma(X, k) for k in sorted(GAMMA_KERNELS)},
             "linear": None, "kernels": []}
    for kernel, fixed in kernel_families(dataset):
        started = time.process_time()
        found = (gamma_guidance.search(X, y, kernel=kernel, kernel_params=fixed)
                 if kernel in GAMMA_KERNELS else None)
        views = []
        for gamma in (GAMMA_GRID if kernel in GAMMA_KERNELS else (None,)):
            params = dict(fixed) if gamma is None else {"gamma": gamma, **fixed}
            try:
                view, pca_projection = shipped.view_entry(
                    X, y, kernel=kernel, kernel_params=params, found=found,
                    n_components=n_components)
            except (ValueError, FloatingPointError) as error:  # the page says why
                log(f"    γ = {gamma}: not shipped ({type(error).__name__}: {error})")
                continue
            views.append(view)
            if entry["linear"] is None:
                entry["linear"] = shipped.linear_entry(pca_projection, y)
        entry["kernels"].append({"kernel": kernel, "params": fixed,
                                 "search": shipped.search_entry(found), "views": views})
        log(f"  {dataset} {kernel} {fixed}: {len(views)} views, "
            f"{time.process_time() - started:.1f} CPU s")
    return entry


def dumps(value, indent: str = "") -> str:
    """JSON with the containers wider than INLINE_WIDTH spread over lines."""
    compact = json.dumps(value, ensure_ascii=False, allow_nan=False)
    if len(compact) <= INLINE_WIDTH or not isinstance(value, dict | list):
        return compact
    inner = indent + " "
    if isinstance(value, dict):
        items = [f"{inner}{json.dumps(k, ensure_ascii=False)}: {dumps(v, inner)}"
                 for k, v in value.items()]
        return "{\n" + ",\n".join(items) + "\n" + indent + "}"
    return "[\n" + ",\n".join(inner + dumps(v, inner) for v in value) + "\n" + indent + "]"


def loadable(dataset: str) -> bool:
    try:
        datasets.load(dataset, **dict(default_options(dataset)))
    except datasets.UspsUnavailableError:
        return False
    return True


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--datasets", nargs="+", choices=sorted(datasets.available()),
                        help="recompute only these (the file keeps the others)")
    parser.add_argument("--out", type=Path, default=shipped.PATH)
    args = parser.parse_args(argv)

    def log(text: str) -> None:
        print(text, flush=True)

    kept = {}
    if args.out.exists():
        kept = {entry["dataset"]: entry
                for entry in json.loads(args.out.read_text(encoding="utf-8"))["data"]}
    started, cpu = time.monotonic(), time.process_time()
    entries = []
    for dataset in datasets.available():
        if (args.datasets and dataset not in args.datasets) or not loadable(dataset):
            if dataset in kept:
                log(f"{dataset}: kept as it is in {args.out.name}")
                entries.append(kept[dataset])
            else:
                log(f"{dataset}: skipped (not loadable here, and not in {args.out.name})")
            continue
        log(f"{dataset}:")
        entries.append(data_entry(dataset, log=log))
    document = {"about": ABOUT, "trial_fields": list(shipped.TRIAL_FIELDS),
                "gamma_grid": list(GAMMA_GRID), "data": entries}
    args.out.write_text(dumps(document) + "\n", encoding="utf-8")
    log(f"written {args.out} ({args.out.stat().st_size / 1024:.0f} kB): "
        f"{time.monotonic() - started:.0f} s, {time.process_time() - cpu:.0f} CPU s, load "
        f"average {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
