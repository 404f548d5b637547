"""Time and memory to refuse an over-limit CSV upload (issue 27), and to read the largest
valid one.

    python benchmarks/bench_csv_limits.py [--repeats 3] [--repo PATH] [--call load_csv]

Writes four files of at most 20 MB (the app's upload limit, ``datasets.MAX_BYTES``) into
a temporary directory:

* **tiny rows**: a header and 6,660,000 rows of ``12`` (over the 5,000-row limit);
* **many columns**: 100 rows of 66,600 values (over the 1,000-column limit);
* **one huge line**: a single line of 6,660,000 values;
* **valid max**: 5,000 rows × 1,000 columns of one-decimal numbers, no header row
  (accepted: exactly 20 MB).

Each file is read by ``--call`` (``load_csv``, or ``check_csv`` where it exists) in a
fresh Python process that has already read the bytes, ``--repeats`` times, and the
script prints the medians of:

* **seconds**: wall time of the call (the refusal, or the parse of the valid file);
* **peak RSS Δ**: the process's peak resident memory during the call above its level
  just before (``VmHWM``, reset through ``/proc/self/clear_refs`` before the call);
* **traced peak**: tracemalloc's peak during the call (a separate run: tracing is slow).

``--repo`` imports ``datasets`` from another checkout, e.g. ``git archive main`` unpacked
into a directory, to get the figures before a change from the same script and machine.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MiB = 2**20
LIMIT = 20 * 10**6  # the app's upload limit, datasets.MAX_BYTES


def write_files(directory: Path) -> dict[str, Path]:
    import numpy as np

    files = {
        "tiny rows": directory / "tiny_rows.csv",
        "many columns": directory / "many_columns.csv",
        "one huge line": directory / "one_huge_line.csv",
        "valid max": directory / "valid_max.csv",
    }
    files["tiny rows"].write_bytes(b"v\n" + b"12\n" * 6_660_000)
    files["many columns"].write_bytes((b"12," * 66_599 + b"12\n") * 100)
    files["one huge line"].write_bytes(b"12," * 6_659_999 + b"12\n")
    digits = np.random.default_rng(0).integers(0, 10, size=(5000, 1000, 2)) + ord("0")
    cells = np.empty((5000, 1000, 4), dtype=np.uint8)
    cells[..., 0], cells[..., 1], cells[..., 2], cells[..., 3] = (
        digits[..., 0], ord("."), digits[..., 1], ord(","))
    cells[:, -1, 3] = ord("\n")
    files["valid max"].write_bytes(cells.tobytes())
    for path in files.values():
        assert path.stat().st_size <= LIMIT, path
    return files


def _status_kib(field: str) -> int:
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith(field + ":"):
            return int(line.split()[1])
    raise RuntimeError(field)


def child(path: str, call: str, trace: bool) -> None:
    """One measurement in this fresh process; prints a JSON line."""
    import datasets

    function = getattr(datasets, call)
    data = Path(path).read_bytes()
    if trace:
        tracemalloc.start()
    Path("/proc/self/clear_refs").write_text("5")  # VmHWM := current RSS
    before = _status_kib("VmRSS")
    start = time.perf_counter()
    try:
        result = function(data)
        outcome = getattr(result, "error", None) or "accepted"
    except datasets.CSVError as error:
        outcome = str(error)
    seconds = time.perf_counter() - start
    peak = _status_kib("VmHWM")
    traced = tracemalloc.get_traced_memory()[1] if trace else None
    print(json.dumps({"seconds": seconds, "rss_delta": (peak - before) * 1024,
                      "traced": traced, "outcome": outcome}))


def measure(path: Path, call: str, repo: Path, trace: bool) -> dict:
    env = dict(os.environ, PYTHONPATH=str(repo))
    out = subprocess.run(
        [sys.executable, __file__, "--child", str(path), "--call", call]
        + (["--trace"] if trace else []),
        capture_output=True, text=True, env=env, cwd=repo, check=True,
    )
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--repo", type=Path, default=ROOT,
                        help="checkout whose datasets package is measured")
    parser.add_argument("--call", default="load_csv", help="load_csv or check_csv")
    parser.add_argument("--only", help="measure only the file with this name")
    parser.add_argument("--child", help=argparse.SUPPRESS)
    parser.add_argument("--trace", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.child:
        child(args.child, args.call, args.trace)
        return

    print(f"datasets.{args.call} from {args.repo.resolve()}; medians of {args.repeats}; "
          f"load average {os.getloadavg()[0]:.2f}")
    print(f"{'file':<14} {'MiB':>5} {'seconds':>8} {'peak RSS Δ':>11} {'traced peak':>12}  "
          "outcome")
    with tempfile.TemporaryDirectory() as tmp:
        for name, path in write_files(Path(tmp)).items():
            if args.only and name != args.only:
                continue
            runs = [measure(path, args.call, args.repo, trace=False)
                    for _ in range(args.repeats)]
            traced = measure(path, args.call, args.repo, trace=True)["traced"]
            seconds = statistics.median(run["seconds"] for run in runs)
            rss = statistics.median(run["rss_delta"] for run in runs)
            outcome = runs[0]["outcome"]
            print(f"{name:<14} {path.stat().st_size / MiB:5.1f} {seconds:8.3f} "
                  f"{rss / MiB:8.0f} MiB {traced / MiB:8.0f} MiB  {outcome[:70]}")


if __name__ == "__main__":
    main()
