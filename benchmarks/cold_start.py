"""Cold start: the first student of a fresh container (Community Cloud after a sleep).

    python benchmarks/cold_start.py                 # 3 fresh starts, Chromium
    python benchmarks/cold_start.py --repeats 1 --importtime
    python benchmarks/cold_start.py --one-core      # the server pinned to core 0

Each start is a new ``streamlit run app.py`` with an empty home directory (so no USPS
cache), no ``KPCA_USPS_PATH``, and ``KPCA_USPS_URL`` pointing at a local HTTP server
that serves the ESL files (``zip.train.gz``, ``zip.test.gz``, written from the digits
in ``$KPCA_USPS_PATH``), as the book's site would. Measured, from the moment the
server process is started:

* health: ``/_stcore/health`` answers 200;
* first page drawn: Chromium opens the home page and it is fully drawn (script
  finished, no skeleton, every chart laid out);
* first USPS use: the Explorer on USPS-2000 run to the end over the websocket protocol
  (``loadtest/st_client.py``: download, validation, cache, kernel PCA), right after;
* the same USPS view drawn in Chromium (the server's result is cached by then: this is
  the browser's share);
* a second start on the same home directory: the same, with the USPS cache.

``--importtime`` also runs ``python -X importtime`` over what the first script run
imports (``app.py`` calls ``server.warmup.import_app_modules()``) and prints the largest
imports, next to what the home page alone needs.
"""

from __future__ import annotations

import argparse
import functools
import http.server
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

import numpy as np
import psutil

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from datasets.usps import write_esl_gz  # noqa: E402
from deploy.replicas import Replica, free_port  # noqa: E402
from loadtest.browser import CHROMIUM, CHROMIUM_ARGS, DRAWN_JS  # noqa: E402
from loadtest.st_client import StreamlitSession  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
USPS_VIEW = "explorer?dataset=usps&split=train&n=2000&kernel=rbf&gamma=0.0078125"
# What the home page itself imports (app.py's router and app_pages/home.py), to compare
# with everything the warm-up imports before the first page can run.
HOME_IMPORTS = "import shell.display, shell.registry, shell.sidebar, lessons.home.presets"


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, *args) -> None:
        pass


def esl_site(directory: Path) -> tuple[str, http.server.ThreadingHTTPServer]:
    """Serve the ESL files written from ``$KPCA_USPS_PATH`` on a local port."""
    with np.load(os.environ["KPCA_USPS_PATH"]) as z:
        arrays = {key: z[key] for key in z.files}
    for split in ("train", "test"):
        write_esl_gz(directory / f"zip.{split}.gz",
                     arrays[f"X_{split}"] / arrays["divisor"], arrays[f"y_{split}"])
    handler = functools.partial(_Quiet, directory=str(directory))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", free_port()), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    return f"http://127.0.0.1:{httpd.server_address[1]}/", httpd


def fresh_env(home: Path, site: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if k not in ("KPCA_USPS_PATH",
                                                            "KPCA_CACHE_DIR")}
    return {**env, "HOME": str(home), "KPCA_USPS_URL": site}


def drawn(page, url: str) -> float:
    started = time.perf_counter()
    page.goto(url, wait_until="commit")
    page.wait_for_timeout(200)
    page.wait_for_function(DRAWN_JS, timeout=300_000, polling=50)
    return time.perf_counter() - started


def _cpu(process: psutil.Process) -> float:
    times = process.cpu_times()
    return round(times.user + times.system, 2)


def one_start(browser, home: Path, site: str, log: Path, cpus: str | None = None) -> dict:
    # The clock starts when the process is started, as a container's would. CPU
    # seconds of the server are read too: on a shared machine they say what the
    # wall-clock times cannot (how much work the server itself did).
    replica = Replica(free_port(), log, fresh_env(home, site), wait=False, cpus=cpus)
    server = psutil.Process(replica.pid)
    try:
        health = replica.wait()
        cpu_health = _cpu(server)
        page = browser.new_context(viewport={"width": 1280, "height": 800}).new_page()
        page.goto(replica.url, wait_until="commit")
        page.wait_for_function(DRAWN_JS, timeout=300_000, polling=50)
        home_drawn = time.monotonic() - replica.started
        cpu_home = _cpu(server)
        path, _, query = USPS_VIEW.partition("?")
        student = StreamlitSession(replica.url, timeout=300)
        usps = student.open(path, query)
        if not usps.finished or usps.exceptions or usps.error_boxes:
            raise RuntimeError(f"the USPS view failed: {usps}")
        student.close()
        cpu_usps = _cpu(server)
        usps_drawn = drawn(page, f"{replica.url}/{USPS_VIEW}")
        page.context.close()
        return {"health_s": round(health, 2), "home_drawn_s": round(home_drawn, 2),
                "first_usps_run_s": round(usps.seconds, 2),
                "usps_drawn_when_computed_s": round(usps_drawn, 2),
                "cpu_s_to_health": cpu_health, "cpu_s_to_home_drawn": cpu_home,
                "cpu_s_first_usps_run": round(cpu_usps - cpu_home, 2)}
    finally:
        replica.stop()


def importtime(code: str) -> tuple[float, dict[str, float]]:
    """Seconds ``code`` spends importing, and the seconds each package's modules take."""
    done = subprocess.run([sys.executable, "-X", "importtime", "-c", code], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    by_package: dict[str, float] = {}
    for line in done.stderr.splitlines():
        match = re.match(r"import time:\s+(\d+) \|\s+\d+ \| \s*(\S+)", line)
        if match:  # a module's own time, added to its top-level package
            package = match.group(2).split(".")[0]
            by_package[package] = by_package.get(package, 0.0) + int(match.group(1)) / 1e6
    return sum(by_package.values()), by_package


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeats", type=int, default=3)
    parser.add_argument("--importtime", action="store_true")
    parser.add_argument("--one-core", action="store_true",
                        help="the server pinned to core 0 (taskset -c 0): a one-core container")
    args = parser.parse_args(argv)
    if not os.environ.get("KPCA_USPS_PATH"):
        parser.error("set KPCA_USPS_PATH: the local download site serves those digits")
    from playwright.sync_api import sync_playwright

    RESULTS.mkdir(parents=True, exist_ok=True)
    result: dict = {"load_average": os.getloadavg(), "one_core": args.one_core}
    with tempfile.TemporaryDirectory(prefix="kpca-cold-") as tmp:
        site, httpd = esl_site(Path(tmp))
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
                fresh, cached = [], []
                for i in range(args.repeats):
                    home = Path(tmp) / f"home{i}"
                    home.mkdir()
                    cpus = "0" if args.one_core else None
                    fresh.append(one_start(browser, home, site, Path(tmp) / f"s{i}.log", cpus))
                    # The same container restarted: the USPS cache is there now.
                    cached.append(one_start(browser, home, site, Path(tmp) / f"c{i}.log",
                                            cpus))
                    print(f"start {i + 1}: fresh {fresh[-1]}, with cache {cached[-1]}",
                          flush=True)
                browser.close()
        finally:
            httpd.shutdown()
    for name, runs in (("fresh", fresh), ("with_usps_cache", cached)):
        result[name] = {key: statistics.median(r[key] for r in runs) for key in runs[0]}
    print(json.dumps(result, indent=1))
    if args.importtime:
        base, before = importtime("import streamlit")
        everything, packages = importtime("import streamlit; from shell import warmup; "
                                          "warmup.import_app_modules()")
        home_only, _ = importtime(f"import streamlit; {HOME_IMPORTS}")
        added = {name: t - before.get(name, 0.0) for name, t in packages.items()}
        result["imports"] = {"streamlit_s": round(base, 2),
                             "warmup_all_app_modules_s": round(everything - base, 2),
                             "home_page_needs_s": round(home_only - base, 2),
                             "by_package_s": {name: round(t, 3) for name, t in sorted(
                                 added.items(), key=lambda kv: -kv[1])[:15]}}
        print(json.dumps(result["imports"], indent=1))
    (RESULTS / "cold_start.json").write_text(json.dumps(result, indent=1))
    return result


if __name__ == "__main__":
    main()
