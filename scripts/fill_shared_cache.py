"""Fill the machine's shared cache (server/shared_cache.py: its prefill) with every lab
setting's first view, in this process, and say how long it took and what it holds on disk.

    python scripts/fill_shared_cache.py                  # the whole grid (~1,500 settings)
    python scripts/fill_shared_cache.py --limit 100      # the 100 nearest the defaults
    KPCA_SHARED_CACHE=/srv/kpca-cache python scripts/fill_shared_cache.py

The servers fill the same cache themselves in the background when they start
(``lessons.explorer.prepare.start_lab``); this is the same work done up front, e.g. before
a lab or before a load test, and the measure of the cache's size and build time. Settings
already in the cache are skipped, so a second run only reports.
"""

from __future__ import annotations

import argparse
import json
import logging
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from lessons.explorer.prepare import FILL_UP_TO, fill_one, lab_settings, label  # noqa: E402
from server import shared_cache  # noqa: E402

# Streamlit warns on every call outside a server ("No runtime found", "missing
# ScriptRunContext"): noise here.
for name in ("streamlit.runtime.scriptrunner_utils.script_run_context",
             "streamlit.runtime.caching.cache_data_api"):
    logging.getLogger(name).setLevel(logging.ERROR)


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--limit", type=int, help="only the first N settings (nearest first)")
    args = parser.parse_args(argv)
    cache = shared_cache.prefill_cache()
    if cache is None:
        sys.exit(f"No shared cache: ${shared_cache.ENV} is {os.environ.get(shared_cache.ENV)!r}")
    for stale in shared_cache.drop_stale_prefills():
        print(f"Removed {stale} (another code version's)", flush=True)
    settings = lab_settings()[: args.limit]
    print(f"Filling {cache.directory} (bound {shared_cache.size_limit() / 2**20:.0f} "
          f"MiB) with {len(settings)} settings", flush=True)
    started, cpu_started = time.monotonic(), time.process_time()
    computed = failed = 0
    for i, one in enumerate(settings, 1):
        try:
            computed += fill_one(one)
        except Exception as error:  # noqa: BLE001 - counted; the page says why when opened
            failed += 1
            print(f"  {label(one)}: {type(error).__name__}: {str(error)[:120]}", flush=True)
        if i % 100 == 0 or i == len(settings):
            print(f"  {i}/{len(settings)}: {time.monotonic() - started:.0f} s, "
                  f"{cache.volume() / 2**20:.0f} MiB", flush=True)
        if shared_cache.fullness() >= FILL_UP_TO:
            print(f"  stopped at {i}: the cache is {FILL_UP_TO:.0%} full (raise "
                  f"${shared_cache.SIZE_ENV})")
            break
    on_disk = sum(f.stat().st_size for f in Path(cache.directory).rglob("*") if f.is_file())
    report = {"settings": len(settings), "computed": computed, "failed": failed,
              "seconds": round(time.monotonic() - started, 1),
              "cpu_seconds": round(time.process_time() - cpu_started, 1),
              "entries": len(cache), "volume_mib": round(cache.volume() / 2**20, 1),
              "bytes_on_disk_mib": round(on_disk / 2**20, 1),
              "load_average": [round(x, 1) for x in os.getloadavg()]}
    print(json.dumps(report))
    return report


if __name__ == "__main__":
    main()
