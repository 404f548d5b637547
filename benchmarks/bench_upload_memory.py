"""Does the server's memory come back after students upload, work and leave? (issue 27)

    python benchmarks/bench_upload_memory.py [--cycles 4] [--ttl 5] [--repo PATH]
        [--env MALLOC_ARENA_MAX=2] [--pages Explorer,"New points"]

Starts ``streamlit run app.py`` on a free local port with
``--server.disconnectedSessionTTL`` set to ``--ttl`` seconds (Streamlit keeps a closed
tab's session that long, for a reconnect; 120 s by default), then, in Chromium:

0. **warm-up**: one session opens the pages on built-in data and closes its tab;
1. **each cycle**: a new session opens the Explorer, chooses "Your own CSV", uploads a
   valid 5,000 × 1,000 CSV (15 MB of two-digit numbers), waits for the charts, opens
   the other ``--pages`` from the menu, and closes its tab.

After the warm-up and after each cycle it waits past the TTL (the session has ended)
and until the server's RSS stops falling, and prints the **peak** RSS during the cycle
and the **settled** RSS, with what the server still holds (read inside the server by a
probe thread): sessions kept for a reconnect, uploaded bytes in Streamlit's uploaded
file manager, download buttons' bytes in its media file manager, and glibc's heap
(bytes in use vs. held: freed memory the allocator keeps is fragmentation, not a leak).

``--repo`` runs another checkout's app (e.g. ``git worktree add /tmp/before main``), so
the before and after figures come from the same script on the same machine.
"""

from __future__ import annotations

import argparse
import json
import os
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
MiB = 2**20
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = ["--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                 "--disable-background-networking", "--disable-component-update",
                 "--disable-sync"]


# ----------------------------------------------------------------- inside the server


def serve(port: int, ttl: int, probe_path: str) -> None:
    """Run the app in this process with a probe thread writing what the server holds."""
    threading.Thread(target=_probe, args=(Path(probe_path),), daemon=True).start()
    from streamlit.web import cli

    sys.argv = ["streamlit", "run", "app.py", "--server.port", str(port),
                "--server.address", "127.0.0.1", "--server.headless", "true",
                "--browser.gatherUsageStats", "false", "--server.fileWatcherType", "none",
                "--server.disconnectedSessionTTL", str(ttl)]
    cli.main()


def _probe(path: Path) -> None:
    import ctypes

    libc = ctypes.CDLL("libc.so.6")

    class Mallinfo2(ctypes.Structure):
        _fields_ = [(name, ctypes.c_size_t) for name in (
            "arena", "ordblks", "smblks", "hblks", "hblkhd", "usmblks", "fsmblks",
            "uordblks", "fordblks", "keepcost")]

    libc.mallinfo2.restype = Mallinfo2
    while True:
        time.sleep(0.5)
        try:
            from streamlit.runtime import Runtime

            if not Runtime.exists():
                continue
            runtime = Runtime.instance()
            manager = runtime._session_mgr
            uploads = runtime.uploaded_file_mgr
            media = runtime.media_file_mgr
            info = libc.mallinfo2()
            record = {
                "active": len(manager.list_active_sessions()),
                # Every stored session, expired or not (what the storage still references).
                "stored": len(manager._session_storage._cache._data),
                "upload_bytes": sum(len(f.data) for files in list(uploads.file_storage.values())
                                    for f in list(files.values())),
                "media_bytes": sum(len(getattr(f, "content", b"") or b"")
                                   for f in list(media._storage._files_by_id.values())),
                "heap_in_use": info.uordblks + info.hblkhd,
                "heap_held": info.arena + info.hblkhd,
            }
            path.write_text(json.dumps(record))
        except Exception as error:  # a probe must never take the server down
            path.write_text(json.dumps({"probe_error": repr(error)}))


# ----------------------------------------------------------------- outside: the driver


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Sampler(threading.Thread):
    """The server's RSS every 50 ms; ``peak`` since the last :meth:`reset`."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        import psutil

        self.process = psutil.Process(pid)
        self.peak = self.last = 0
        self.running = True

    def reset(self) -> None:
        self.peak = self.last

    def run(self) -> None:
        while self.running:
            try:
                self.last = self.process.memory_info().rss
            except Exception:
                return
            self.peak = max(self.peak, self.last)
            time.sleep(0.05)


def write_csv(path: Path, rows: int = 5000, columns: int = 1000) -> None:
    """A valid upload at the app's limits: two-digit numbers, a header (15 MB)."""
    import numpy as np

    digits = np.random.default_rng(0).integers(10, 100, size=(rows, columns))
    header = ",".join(f"c{j}" for j in range(columns))
    body = "\n".join(",".join(map(str, row)) for row in digits.tolist())
    path.write_text(header + "\n" + body + "\n")


def _idle(page, timeout_ms: int = 300_000) -> None:
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSlider"]',
                           timeout=timeout_ms)
    page.wait_for_timeout(300)
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=\"stStatusWidget\"]');"
        " return !s || !s.innerText.includes('Running'); }", timeout=timeout_ms)
    page.wait_for_timeout(500)


def _open_from_menu(page, title: str) -> None:
    sys.path.insert(0, str(ROOT))
    from shell.registry import HOME, LESSONS

    section = next(item.section for item in (HOME, *LESSONS) if item.title == title)
    nav = page.locator('[data-testid="stTopNav"]')
    if not section:
        nav.locator('[data-testid="stTopNavLink"]').filter(has_text=title).first.click()
    else:
        nav.locator('[data-testid="stTopNavSection"]').filter(has_text=section).first.click()
        page.locator('[data-testid="stTopNavDropdownLink"]').filter(
            has_text=title).first.click()
    _idle(page)


def session(browser, url: str, pages: list[str], csv: Path | None) -> None:
    """One student: open the Explorer, upload (if ``csv``), visit ``pages``, close the tab."""
    context = browser.new_context(viewport={"width": 1280, "height": 800})
    page = context.new_page()
    page.set_default_timeout(300_000)
    page.goto(f"{url}/explorer")
    _idle(page)
    if csv is not None:
        sidebar = page.locator('[data-testid="stSidebar"]')
        sidebar.get_by_role("combobox", name="Dataset", exact=True).click()
        page.get_by_role("option", name="Your own CSV", exact=True).click()
        _idle(page)
        page.locator('[data-testid="stFileUploaderDropzoneInput"]').set_input_files(str(csv))
        page.wait_for_function(
            "() => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
            ".some(c => c.innerText.includes('On screen'))")
        _idle(page)
        errors = page.locator('[data-testid="stException"]')
        if errors.count():
            raise RuntimeError(errors.first.inner_text())
    for title in pages:
        _open_from_menu(page, title)
    context.close()


def settle(sampler: Sampler, probe: Path, ttl: int, quiet: float = 10.0,
           limit: float = 120.0) -> tuple[int, dict]:
    """Wait past the TTL, then until the RSS has not fallen for ``quiet`` seconds."""
    time.sleep(ttl + 2)
    start = lowest_at = time.monotonic()
    lowest = sampler.last
    while time.monotonic() - lowest_at < quiet and time.monotonic() - start < limit:
        time.sleep(0.5)
        if sampler.last < lowest - MiB:
            lowest, lowest_at = sampler.last, time.monotonic()
    window = []
    for _ in range(6):
        window.append(sampler.last)
        time.sleep(0.5)
    try:
        held = json.loads(probe.read_text())
    except (OSError, ValueError):
        held = {}
    return int(statistics.median(window)), held


def _start(repo: Path, ttl: int, env: dict, probe: Path) -> tuple[subprocess.Popen, str]:
    port = _free_port()
    log = open(Path(tempfile.gettempdir()) / f"bench-upload-memory-{port}.log", "w")  # noqa: SIM115
    process = subprocess.Popen(
        [sys.executable, str(Path(__file__).resolve()), "--serve", str(port), "--ttl",
         str(ttl), "--probe", str(probe)],
        cwd=repo, env=dict(os.environ, PYTHONPATH=str(repo), **env),
        stdout=log, stderr=subprocess.STDOUT)
    url = f"http://127.0.0.1:{port}"
    deadline = time.monotonic() + 90
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"the server exited; see {log.name}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2):
                return process, url
        except OSError:
            time.sleep(0.3)
    process.kill()
    raise RuntimeError(f"the server did not start; see {log.name}")


def _row(label: str, peak: int, settled: int, held: dict) -> str:
    return (f"{label:<9} {peak / MiB:7.0f} {settled / MiB:8.0f} "
            f"{held.get('stored', '?'):>6} {held.get('upload_bytes', 0) / MiB:8.1f} "
            f"{held.get('media_bytes', 0) / MiB:7.1f} {held.get('heap_in_use', 0) / MiB:7.0f} "
            f"{held.get('heap_held', 0) / MiB:7.0f}")


def run(repo: Path, cycles: int, ttl: int, env: dict, pages: list[str], *,
        quiet: float = 10.0) -> dict:
    """The experiment; returns {"before": settled bytes, "cycles": [(peak, settled, held)]}."""
    from playwright.sync_api import sync_playwright

    with tempfile.TemporaryDirectory() as tmp:
        csv, probe = Path(tmp) / "students.csv", Path(tmp) / "probe.json"
        write_csv(csv)
        process, url = _start(repo, ttl, env, probe)
        sampler = Sampler(process.pid)
        sampler.start()
        result: dict = {"cycles": []}
        try:
            with sync_playwright() as p:
                browser = p.chromium.launch(executable_path=CHROMIUM, headless=True,
                                            args=CHROMIUM_ARGS)
                print(f"{'':<9} {'peak':>7} {'settled':>8} {'stored':>6} {'uploads':>8} "
                      f"{'media':>7} {'heap':>7} {'held':>7}   (MiB; stored: sessions kept "
                      "for a reconnect; heap: glibc in use / held)", flush=True)
                session(browser, url, pages, None)
                settled, held = settle(sampler, probe, ttl, quiet)
                result["before"] = settled
                print(_row("warm-up", sampler.peak, settled, held), flush=True)
                for cycle in range(1, cycles + 1):
                    sampler.reset()
                    started = time.monotonic()
                    session(browser, url, pages, csv)
                    seconds = time.monotonic() - started
                    peak = sampler.peak
                    settled, held = settle(sampler, probe, ttl, quiet)
                    result["cycles"].append((peak, settled, held))
                    print(_row(f"cycle {cycle}", peak, settled, held)
                          + f"   ({seconds:.0f} s in the browser)", flush=True)
                browser.close()
        finally:
            sampler.running = False
            process.terminate()
            try:
                process.wait(timeout=15)
            except subprocess.TimeoutExpired:
                process.kill()
    return result


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cycles", type=int, default=4)
    parser.add_argument("--ttl", type=int, default=5,
                        help="server.disconnectedSessionTTL in seconds (Streamlit: 120)")
    parser.add_argument("--repo", type=Path, default=ROOT, help="checkout whose app runs")
    parser.add_argument("--env", action="append", default=[],
                        help="NAME=VALUE for the server's environment, e.g. MALLOC_ARENA_MAX=2")
    parser.add_argument("--pages", default="New points",
                        help="comma-separated page titles each student opens after the upload")
    parser.add_argument("--serve", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--probe", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.ttl, args.probe)
        return
    env = dict(item.split("=", 1) for item in args.env)
    pages = [title.strip() for title in args.pages.split(",") if title.strip()]
    print(f"app from {args.repo.resolve()}; {args.cycles} cycles; TTL {args.ttl} s; "
          f"pages: Explorer, {', '.join(pages)}; env {env or '-'}; "
          f"load average {os.getloadavg()[0]:.2f}", flush=True)
    result = run(args.repo.resolve(), args.cycles, args.ttl, env, pages)
    before = result["before"]
    last = result["cycles"][-1][1] if result["cycles"] else before
    print(f"settled after {args.cycles} cycles: {last / MiB:.0f} MiB, "
          f"{(last - before) / MiB:+.0f} MiB ({last / before:.2f}×) vs. after the warm-up")


if __name__ == "__main__":
    main()
