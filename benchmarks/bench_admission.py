"""Fair sharing on one server: the experiments of issue 28's "side doors", over websockets.

Each experiment starts its own server (``streamlit run app.py``), drives it with
:class:`st_client.StreamlitSession` clients in threads (one session per simulated tab),
samples the server's resident memory (its process and children, every 0.1 s) and prints
one line of figures; ``--repeats`` runs it again on a fresh server, ``--out`` keeps every
run as JSON. The machine's load average is printed with each run: timings on a shared
machine are noisy, compare medians.

``flood``
    ``--sessions`` tabs open ``/explorer?dataset=circles&n=2500&gamma=<different each>`` at
    the same moment, while a bystander opens small views (``/explorer?dataset=moons&n=200``,
    a new γ each time) one after another. Figures: the server's RSS before and at its
    peak, the bystander's view time idle (before the flood) and during it, and the flood's
    own times.
``scale``
    One tab asks Scale for its largest live timing (USPS, the whole range offered; before
    issue 28 that was 100 to 7,291 with the opt-in ticked); two seconds later another asks
    for the full USPS kernel PCA (``/explorer?dataset=usps&n=7291``) and a bystander opens
    small views. Figures: the full-USPS request's wait, the wait it was told, the
    bystander's view times, the Scale run's time.
``denoise``
    As ``scale``, with De-noising at its largest settings (7,291 training digits, 50 test
    digits per class, 500 fixed-point steps) instead of Scale.
``uploads``
    Issue 27's experiment: ``--sessions`` students (2 by default here) upload a CSV of
    tiny rows just under the 20 MB limit at the same moment, while a bystander opens small
    views. Figures: the server's RSS before and at its peak, each upload's time to the
    page's answer (a refusal naming the limit), the bystander's view times.

    KPCA_USPS_PATH=/path/to/usps.npz python benchmarks/bench_admission.py flood --repeats 3
    python benchmarks/bench_admission.py scale --repeats 3 --out scale.json
"""

from __future__ import annotations

import argparse
import json
import os
import re
import statistics
import sys
import threading
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.replicas import Replica, free_port  # noqa: E402
from loadtest.browser import RssSampler  # noqa: E402
from loadtest.st_client import Run, StreamlitSession, widget_state  # noqa: E402

MB = 2**20
FLOOD_LINK = "dataset=circles&n=2500&kernel=rbf&gamma={gamma}"
SMALL_LINK = "dataset=moons&n=200&kernel=rbf&gamma={gamma}"
FULL_USPS_LINK = "dataset=usps&n=7291&kernel=rbf&gamma=0.0078125"
WAIT_TEXT = re.compile(r"(?:Expected wait|wait)[^.]*?(at least|about) (\d+(?:\.\d+)?) s")


class Server:
    def __init__(self, workdir: Path) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.replica = Replica(free_port(), workdir / f"server-{os.getpid()}.log")
        self.url = self.replica.url
        self.watch = RssSampler(self.replica.pid)
        self.watch.start()

    def rss(self) -> int:
        return self.watch.current()

    def stop(self) -> int:
        peak = self.watch.stop()
        self.replica.stop()
        return peak


def view(url: str, page: str, query: str, timeout: float = 600) -> Run:
    """One tab: open the link, wait for the run to finish, close."""
    session = StreamlitSession(url, timeout=timeout)
    try:
        return session.open(page, query)
    finally:
        session.close()


def told_wait(run: Run) -> str:
    """The first expected wait the page showed ("about 5 s"), or "" if it never waited."""
    for text in run.texts:
        found = WAIT_TEXT.search(text)
        if found:
            return f"{found.group(1)} {found.group(2)} s"
    return ""


class Bystander(threading.Thread):
    """Small views one after another (a new γ each: never a cached result) until stopped."""

    def __init__(self, url: str, first_gamma: float) -> None:
        super().__init__(daemon=True)
        self.url, self.gamma = url, first_gamma
        self.seconds: list[float] = []
        self.problems: list[str] = []
        self.running = True

    def one(self) -> float:
        self.gamma *= 1.01
        run = view(self.url, "explorer", SMALL_LINK.format(gamma=f"{self.gamma:.6g}"))
        if run.problem or run.exceptions:
            self.problems.append(run.problem or run.exceptions[0])
        return run.seconds

    def run(self) -> None:
        while self.running:
            self.seconds.append(self.one())
            time.sleep(0.5)

    def stop(self) -> list[float]:
        self.running = False
        self.join(timeout=600)
        return self.seconds


def idle_baseline(url: str, count: int = 3) -> list[float]:
    bystander = Bystander(url, 3.0)
    bystander.one()  # the first view of a fresh server imports and draws everything once
    return [bystander.one() for _ in range(count)]


def _summary(values: list[float]) -> dict:
    if not values:
        return {"n": 0}
    return {"n": len(values), "median": statistics.median(values), "worst": max(values)}


# ------------------------------------------------------------------------ experiments


def flood(args, workdir: Path) -> dict:
    server = Server(workdir)
    try:
        view(server.url, "explorer", FLOOD_LINK.format(gamma="0.5"))  # warm the code path
        idle = idle_baseline(server.url)
        time.sleep(2)
        before = server.rss()
        server.watch.peak = before
        barrier = threading.Barrier(args.sessions + 1)
        runs: list[Run] = []

        def tab(i: int) -> None:
            session = StreamlitSession(server.url, timeout=600)
            barrier.wait()
            try:
                runs.append(session.open("explorer", FLOOD_LINK.format(gamma=f"{1 + i / 10:g}")))
            finally:
                session.close()

        tabs = [threading.Thread(target=tab, args=(i,), daemon=True)
                for i in range(args.sessions)]
        for thread in tabs:
            thread.start()
        barrier.wait()
        started = time.monotonic()
        bystander = Bystander(server.url, 7.0)
        bystander.start()
        for thread in tabs:
            thread.join(timeout=900)
        flood_s = time.monotonic() - started
        during = bystander.stop()
        peak = server.watch.peak
    finally:
        server.stop()
    problems = [r.problem or r.exceptions[0] for r in runs if r.problem or r.exceptions]
    return {
        "experiment": "flood", "sessions": args.sessions,
        "rss_before_mb": before / MB, "rss_peak_mb": peak / MB,
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "bystander_ratio": (statistics.median(during) / statistics.median(idle)
                            if during else None),
        "flood_s": _summary([r.seconds for r in runs]), "flood_all_done_s": flood_s,
        "problems": problems + bystander.problems,
    }


def _largest_scale_run(session: StreamlitSession) -> Run:
    """Ask Scale for the whole range it offers (ticking the opt-in where there is one)."""
    session.open("scale", "dataset=usps&kernel=rbf")
    widgets = session.widgets
    changes = {}
    slider = widgets["Range of n"]
    changes[slider.id] = [slider.options[0], slider.options[-1]]
    for label, widget in widgets.items():
        if widget.kind == "checkbox" and label.startswith("Allow n above"):
            changes[widget.id] = True
    states = session._states(changes)
    states.append(widget_state(widgets["Measure"], True))
    return session._rerun(states, page_hash=session.page_hash)


def _largest_denoising_run(session: StreamlitSession) -> Run:
    session.open("denoising")
    widgets = session.widgets
    changes = {
        widgets["Training digits"].id: ["7291"],
        widgets["Test digits per class"].id: [50],
        widgets["Fixed point: steps per start"].id: ["500"],
    }
    return session._rerun(session._states(changes), page_hash=session.page_hash)


def against_full_usps(args, workdir: Path, heavy) -> dict:
    """A heavy run in one tab; two seconds in, the full USPS in another; a bystander."""
    server = Server(workdir)
    try:
        idle = idle_baseline(server.url)
        heavy_run: list[Run] = []
        heavy_session = StreamlitSession(server.url, timeout=900)
        thread = threading.Thread(target=lambda: heavy_run.append(heavy(heavy_session)),
                                  daemon=True)
        thread.start()
        time.sleep(args.head_start)
        bystander = Bystander(server.url, 11.0)
        bystander.start()
        full = view(server.url, "explorer", FULL_USPS_LINK, timeout=900)
        thread.join(timeout=900)
        heavy_session.close()
        during = bystander.stop()
        peak = server.watch.peak
    finally:
        server.stop()
    run = heavy_run[0] if heavy_run else Run(problem="no result")
    return {
        "experiment": args.experiment,
        "heavy_s": run.seconds, "heavy_problem": run.problem or (run.exceptions or [""])[0],
        "full_usps_s": full.seconds, "full_usps_told": told_wait(full),
        "full_usps_problem": full.problem or (full.exceptions or [""])[0],
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "rss_peak_mb": peak / MB, "problems": bystander.problems,
    }


# Issue 27: "a 20 MB CSV of tiny rows (6.7 million rows)"; 4 bytes a row, under 20 MB.
TINY_ROWS_CSV = b"a,b\n" + b"1,2\n" * 4_900_000


def uploads(args, workdir: Path) -> dict:
    server = Server(workdir)
    try:
        idle = idle_baseline(server.url)
        time.sleep(2)
        before = server.rss()
        server.watch.peak = before
        students = args.sessions
        barrier = threading.Barrier(students + 1)
        runs: list[Run] = []

        def student(i: int) -> None:
            session = StreamlitSession(server.url, timeout=600)
            try:
                session.open("explorer", "dataset=circles")
                session.set_widget("Dataset", "Your own CSV")
                barrier.wait()
                runs.append(session.upload("CSV file", f"tiny-rows-{i}.csv", TINY_ROWS_CSV))
            finally:
                session.close()

        threads = [threading.Thread(target=student, args=(i,), daemon=True)
                   for i in range(students)]
        for thread in threads:
            thread.start()
        barrier.wait()
        bystander = Bystander(server.url, 5.0)
        bystander.start()
        for thread in threads:
            thread.join(timeout=900)
        during = bystander.stop()
        time.sleep(2)
        settled = server.rss()
        peak = server.watch.peak
    finally:
        server.stop()
    refused = [any("limit" in text for text in r.texts + r.error_boxes)
               for r in runs]
    return {
        "experiment": "uploads", "students": students,
        "rss_before_mb": before / MB, "rss_peak_mb": peak / MB, "rss_settled_mb": settled / MB,
        "upload_answer_s": _summary([r.seconds for r in runs]), "refused_naming_the_limit":
        refused, "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "problems": [r.problem or r.exceptions[0] for r in runs if r.problem or r.exceptions]
        + bystander.problems,
    }


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("experiment", choices=("flood", "scale", "denoise", "uploads"))
    parser.add_argument("--sessions", type=int, default=None,
                        help="flood: tabs at once (24); uploads: students (2)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--head-start", type=float, default=2.0,
                        help="scale/denoise: seconds before the full-USPS request")
    parser.add_argument("--workdir", default=str(ROOT / "benchmarks" / "results" / "servers"))
    parser.add_argument("--out", help="write every run as JSON here")
    args = parser.parse_args(argv)
    if args.sessions is None:
        args.sessions = 24 if args.experiment == "flood" else 2
    if args.experiment in ("scale", "denoise") and not os.environ.get("KPCA_USPS_PATH"):
        parser.error("scale and denoise need KPCA_USPS_PATH (the USPS digits)")
    results = []
    for repeat in range(args.repeats):
        load = os.getloadavg()[0]
        if args.experiment == "flood":
            result = flood(args, Path(args.workdir))
        elif args.experiment == "uploads":
            result = uploads(args, Path(args.workdir))
        else:
            heavy = _largest_scale_run if args.experiment == "scale" else _largest_denoising_run
            result = against_full_usps(args, Path(args.workdir), heavy)
        result["load_average"] = load
        results.append(result)
        print(f"[{repeat + 1}/{args.repeats}] load {load:.1f}: "
              + json.dumps({k: v for k, v in result.items() if k != "experiment"}), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"runs": results}, indent=1))
    return results


if __name__ == "__main__":
    main()
