"""Reproduce Table 1 of Schölkopf, Smola & Müller (1998): linear SVMs on kernel PCA of USPS.

Usage (from the repository root, with the USPS digits available, see docs/data.md)::

    python benchmarks/reproduce_table1.py                      # the whole table (7 × 7)
    python benchmarks/reproduce_table1.py --degrees 3 4 --components 32 2048
    python benchmarks/reproduce_table1.py --measure-reuse 3    # refit per k vs one fit
    python benchmarks/reproduce_table1.py --tiny --out /tmp/t.json   # seconds, for tests

Each degree is decomposed ONCE with the largest k (every smaller k takes the first k
columns); its projections are cached on disk in ``$KPCA_CACHE_DIR/table1`` (default
``~/.cache/kpca-lab/table1``), so a re-run is quick. The cells are written to the
results file (default ``lessons/classification/results/table1.json``, kept in the
repository and shown on the Classification page) after every cell, so an interrupted
run keeps what it finished and a later run only computes the missing cells.

The experiment and the SVM setup (LinearSVC, one global scale, C chosen on a
validation split of the training set) are documented in ``lessons/classification/paper_table.py``.
"""

from __future__ import annotations

import argparse
import datetime as dt
import json
import resource
import sys
import time
from dataclasses import asdict, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
if str(ROOT) not in sys.path:  # run as a script from anywhere
    sys.path.insert(0, str(ROOT))

from lessons.classification import paper_table as pt  # noqa: E402

DEFAULT_OUT = ROOT / "lessons" / "classification" / "results" / "table1.json"
TINY = pt.TableConfig(degrees=(1, 3), components=(8, 16, 32), n_fit=150, n_train=400,
                      n_test=200, C_grid=(1.0, 10.0), C_select_k=16)


def parse_args(argv: list[str] | None) -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--degrees", type=int, nargs="+", default=list(pt.DEGREES))
    parser.add_argument("--components", type=int, nargs="+", default=list(pt.COMPONENTS))
    parser.add_argument("--n-fit", type=int, default=pt.N_FIT)
    parser.add_argument("--n-train", type=int, default=None, help="default: all 7,291")
    parser.add_argument("--n-test", type=int, default=None, help="default: all 2,007")
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--c-grid", type=float, nargs="+", default=list(pt.C_GRID))
    parser.add_argument("--c-select-k", type=int, default=pt.C_SELECT_COMPONENTS,
                        help="choose C once per degree on this many components; 0: per cell")
    parser.add_argument("--multiclass", choices=["ovr", "ovo"], default="ovr",
                        help="one-vs-rest (default) or one-vs-one linear SVMs")
    parser.add_argument("--tiny", action="store_true",
                        help="a seconds-long configuration for tests (overrides the sizes)")
    parser.add_argument("--cache-dir", type=Path, default=None,
                        help="default: $KPCA_CACHE_DIR/table1 or ~/.cache/kpca-lab/table1")
    parser.add_argument("--no-cache", action="store_true", help="do not read or write it")
    parser.add_argument("--out", type=Path, default=DEFAULT_OUT)
    parser.add_argument("--rerun", action="store_true",
                        help="recompute cells already in the results file")
    parser.add_argument("--measure-reuse", type=int, nargs="*", metavar="DEGREE",
                        help="time refitting per k against one fit for these degrees")
    return parser.parse_args(argv)


def config_from(args: argparse.Namespace) -> pt.TableConfig:
    if args.tiny:
        return replace(TINY, multiclass=args.multiclass)
    return pt.TableConfig(
        degrees=tuple(args.degrees), components=tuple(sorted(args.components)),
        n_fit=args.n_fit, n_train=args.n_train, n_test=args.n_test, seed=args.seed,
        C_grid=tuple(args.c_grid), C_select_k=args.c_select_k or None,
        multiclass=args.multiclass,
    )


def peak_memory_mb() -> float:
    """Peak resident memory of this process (Linux reports ru_maxrss in KiB)."""
    return round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)


def load_store(path: Path, config: pt.TableConfig) -> dict:
    """The results file, if it holds the same experiment (else a fresh one)."""
    fresh = {"paper": paper_section(), "settings": config.describe(), "cells": [],
             "raw_pixels": None, "decompositions": {}, "C_by_degree": {}, "reuse_timing": [],
             "run": {}}
    if not path.is_file():
        return fresh
    stored = json.loads(path.read_text())
    settings = dict(stored.get("settings", {}))
    try:
        previous = pt.TableConfig(
            degrees=tuple(settings["degrees"]), components=tuple(settings["components"]),
            n_fit=settings["n_fit"], n_train=settings["n_train"], n_test=settings["n_test"],
            seed=settings["seed"], C_grid=tuple(settings["C_grid"]),
            C_select_k=settings["C_select_k"],
            multiclass=settings.get("multiclass", "ovr"),
        )
    except (KeyError, TypeError):
        return fresh
    if not previous.same_experiment(config):
        return fresh
    stored["paper"] = paper_section()
    # Keep the union of the cells asked for, so the file says what it covers.
    union = pt.TableConfig(
        degrees=tuple(sorted(set(previous.degrees) | set(config.degrees))),
        components=tuple(sorted(set(previous.components) | set(config.components))),
        n_fit=config.n_fit, n_train=config.n_train, n_test=config.n_test,
        seed=config.seed, C_grid=config.C_grid, C_select_k=config.C_select_k,
        multiclass=config.multiclass,
    )
    stored["settings"] = union.describe()
    return stored


def paper_section() -> dict:
    return {
        "citation": pt.PAPER_CITATION,
        "errors_pct": {str(d): {str(k): v for k, v in row.items()}
                       for d, row in pt.PAPER_ERRORS.items()},
        "raw_pixels_pct": pt.PAPER_RAW_PIXELS,
    }


def save_store(path: Path, store: dict) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    partial = path.with_suffix(".json.tmp")
    partial.write_text(json.dumps(store, indent=1, sort_keys=False) + "\n")
    partial.replace(path)


def format_table(store: dict) -> str:
    """Ours / paper / difference, one line per degree."""
    ours = pt.cell_errors(store["cells"])
    settings = store["settings"]
    ks = settings["components"]
    lines = ["test error (%): ours | paper | ours − paper  (· = not run, – = not applicable)",
             "d   " + "".join(f"{k:>20}" for k in ks)]
    for d in settings["degrees"]:
        row = []
        for k in ks:
            mine = ours.get((d, k), "run")
            paper = pt.PAPER_ERRORS.get(d, {}).get(k)
            mine_text = "·" if mine == "run" else "–" if mine is None else f"{mine:.1f}"
            paper_text = "–" if paper is None else f"{paper:.1f}"
            diff = ""
            if isinstance(mine, float) and paper is not None:
                flag = "" if abs(mine - paper) <= pt.TOLERANCE else "!"
                diff = f" {mine - paper:+.1f}{flag}"
            row.append(f"{mine_text}|{paper_text}{diff}".rjust(20))
        lines.append(f"{d:<4}" + "".join(row))
    raw = store.get("raw_pixels")
    if raw:
        lines.append(f"raw pixels: {raw['error_pct']:.1f} | paper {pt.PAPER_RAW_PIXELS:.1f} "
                     f"({raw['error_pct'] - pt.PAPER_RAW_PIXELS:+.1f}), C = {raw['C']:g}")
    diffs = pt.difference_table(pt.cell_errors(store["cells"]))
    if diffs:
        worst = max(diffs, key=lambda key: abs(diffs[key]))
        outside = [key for key, v in diffs.items() if abs(v) > pt.TOLERANCE]
        lines.append(f"{len(diffs)} cells compared with the paper; largest |difference| "
                     f"{abs(diffs[worst]):.2f} points at d = {worst[0]}, k = {worst[1]}; "
                     f"{len(outside)} outside ±{pt.TOLERANCE} ('!').")
    return "\n".join(lines)


def main(argv: list[str] | None = None) -> dict:
    args = parse_args(argv)
    config = config_from(args)
    cache = None if args.no_cache else (args.cache_dir or pt.table_cache_dir())
    started = time.perf_counter()
    store = load_store(args.out, config)
    done = {pt.cell_key(c) for c in store["cells"]}
    if args.rerun:
        store["cells"], done, store["raw_pixels"] = [], set(), None

    print(f"Table 1 reproduction: {config.describe()}", flush=True)
    print(f"cache: {cache or 'off'}; results: {args.out}", flush=True)
    splits = pt.load_splits(config)
    print(f"images: fit {len(splits.X_fit)}, train {len(splits.y_train)}, "
          f"test {len(splits.y_test)}", flush=True)

    if store.get("raw_pixels") is None:
        store["raw_pixels"] = asdict(pt.raw_pixel_error(splits, config.C_grid, config.seed,
                                                        config.multiclass))
        save_store(args.out, store)
    print(f"raw pixels: {store['raw_pixels']['error_pct']:.2f} % (paper "
          f"{pt.PAPER_RAW_PIXELS} %)", flush=True)

    planned = [(d, k) for d in config.degrees for k in config.components]
    todo = [cell for cell in planned if cell not in done]
    for degree in config.degrees:
        ks = [k for k in config.components if (degree, k) not in done]
        if not ks:
            continue
        t0 = time.perf_counter()
        decomposition = pt.decompose(splits, degree, max(config.components), cache)
        store["decompositions"][str(degree)] = {
            "k": int(decomposition.Z_train.shape[1]), "usable": decomposition.usable,
            "seconds": round(decomposition.seconds, 2),
            "from_cache": decomposition.from_cache,
        }
        source = "cache" if decomposition.from_cache else "computed"
        print(f"d = {degree}: {decomposition.Z_train.shape[1]} components ({source}, "
              f"{time.perf_counter() - t0:.1f} s)", flush=True)
        C = None
        if config.C_select_k is not None:
            chosen = store.setdefault("C_by_degree", {}).get(str(degree))
            if chosen is None:
                C, validation = pt.degree_C(decomposition, splits, config.C_select_k,
                                            config.C_grid, config.seed, config.multiclass)
                chosen = {"C": C, "validation_error_pct": validation}
                store["C_by_degree"][str(degree)] = chosen
                save_store(args.out, store)
            C = chosen["C"]
            print(f"  C = {C:g} (validation errors % by C: {chosen['validation_error_pct']})",
                  flush=True)
        for k in ks:
            cell = pt.run_cell(decomposition, splits, k, config.C_grid, config.seed, C,
                               config.multiclass)
            store["cells"].append(asdict(cell))
            done.add((degree, k))
            position = sum(1 for c in planned if c in done)
            shown = "–" if cell.error_pct is None else f"{cell.error_pct:.2f} %"
            paper = pt.PAPER_ERRORS.get(degree, {}).get(k)
            paper_text = "" if paper is None else f" (paper {paper} %)"
            print(f"  [{position}/{len(planned)}] d = {degree}, k = {k}: {shown}{paper_text}"
                  f", C = {cell.C}, {cell.seconds:.1f} s; "
                  f"elapsed {time.perf_counter() - started:.0f} s", flush=True)
            store["cells"].sort(key=pt.cell_key)
            save_store(args.out, store)
        del decomposition

    for degree in args.measure_reuse or ():
        timing = pt.time_refit_vs_reuse(splits, degree, config.components)
        store["reuse_timing"].append(timing)
        print(f"d = {degree}, k in {timing['ks']}: refit per k {timing['refit']:.1f} s, "
              f"one fit {timing['reuse']:.1f} s, speed-up {timing['speedup']:.1f}×", flush=True)

    all_cells = [(d, k) for d in store["settings"]["degrees"]
                 for k in store["settings"]["components"]]
    have = {pt.cell_key(c) for c in store["cells"]}
    store["run"] = {
        "updated": dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC"),
        "cells_in_file": len(have),
        "cells_missing": [list(c) for c in all_cells if c not in have],
        "complete": all(c in have for c in all_cells),
        "this_run_seconds": round(time.perf_counter() - started, 1),
        "this_run_cells": len(todo),
        "this_run_peak_memory_mb": peak_memory_mb(),
    }
    save_store(args.out, store)
    print(format_table(store))
    print(f"time {store['run']['this_run_seconds']:.0f} s for {len(todo)} cells; "
          f"peak memory {store['run']['this_run_peak_memory_mb']:.0f} MB", flush=True)
    return store


if __name__ == "__main__":
    main()
