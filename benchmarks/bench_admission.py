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

Issue 34's floods, each printed beside its targets (at most 1.5 GB for the server and its
children, PSS; a bystander's small views at most 1 s at the median and 3 s at worst on a
quiet machine):

``scale-tabs``
    ``--sessions`` (10) tabs open Scale at once, each at its own γ (so each computes its
    own comparison of the approximations), while a bystander opens small views.
``measure``
    ``--sessions`` (10) tabs open Scale on the same link and press **Measure** at once.
``widgets``
    ``--sessions`` (8) tabs send the Draw editor a 24 MB edit at once; then a fresh tab
    sends a 300-point edit, which must still work. Figures: memory, how many sockets the
    server closed, the time to the answer, the 300-point edit's points on screen.
``motion``
    ``--sessions`` (8) tabs switch γ in motion on in the Explorer at once (each its own γ)
    while a bystander opens small views; the wait each bystander view was told against the
    time it took.
``flood`` (above) also prints how the flood's requests finished over time (a lane that
serves its requests first come, first served per session finishes them one after
another, not all together at the end) and the time of one mid-sized view asked for after
the flood started.
``tally``
    One script against the class tally: classes it can open (and whether a lecturer can
    still open one), a class's life after its lecturer's tab closes, and the seats it fills
    in a class in ``--seconds`` (10).

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

import numpy as np  # noqa: E402
import requests  # noqa: E402

from deploy.replicas import Replica, free_port  # noqa: E402
from loadtest.browser import RssSampler  # noqa: E402
from loadtest.st_client import Disconnected, Run, StreamlitSession, widget_state  # noqa: E402

MB = 2**20
FLOOD_LINK = "dataset=circles&n=2500&kernel=rbf&gamma={gamma}"
SMALL_LINK = "dataset=moons&n=200&kernel=rbf&gamma={gamma}"
FULL_USPS_LINK = "dataset=usps&n=7291&kernel=rbf&gamma=0.0078125"
WAIT_TEXT = re.compile(r"(?:Expected wait|wait)[^.]*?(at least|about) (\d+(?:\.\d+)?) (s|min)")
# Issue 34's targets for every flood here.
TARGET_PEAK_MB = 1536  # 1.5 GB (MiB, as the server's budget is written)
TARGET_MEDIAN_S, TARGET_WORST_S = 1.0, 3.0


class PssSampler(threading.Thread):
    """The proportional set size (shared pages split between the processes that map them) of
    a process and all its children, and how many children it had at most, every 0.1 s."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        import psutil

        self.process = psutil.Process(pid)
        self.peak = 0
        self.most_children = 0
        self.running = True

    def current(self) -> tuple[int, int]:
        import psutil

        children = self.process.children(recursive=True)
        total = 0
        for process in (self.process, *children):
            try:
                total += process.memory_full_info().pss
            except psutil.Error:  # ended between the listing and the read
                pass
        return total, len(children)

    def run(self) -> None:
        while self.running:
            pss, children = self.current()
            self.peak = max(self.peak, pss)
            self.most_children = max(self.most_children, children)
            time.sleep(0.1)

    def reset(self) -> int:
        """Start a new peak from now; returns the PSS now."""
        now, children = self.current()
        self.peak, self.most_children = now, children
        return now

    def stop(self) -> int:
        self.running = False
        self.join(timeout=2)
        return self.peak


class Server:
    def __init__(self, workdir: Path, env: dict[str, str] | None = None) -> None:
        workdir.mkdir(parents=True, exist_ok=True)
        self.replica = Replica(free_port(), workdir / f"server-{os.getpid()}.log", env=env)
        self.url = self.replica.url
        self.watch = RssSampler(self.replica.pid)
        self.watch.start()
        self.pss = PssSampler(self.replica.pid)
        self.pss.start()

    def rss(self) -> int:
        return self.watch.current()

    def stop(self) -> int:
        peak = self.watch.stop()
        self.pss.stop()
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
            return f"{found.group(1)} {found.group(2)} {found.group(3)}"
    return ""


def told_seconds(run: Run) -> float | None:
    """The longest wait the page showed, in seconds (None if it never said one)."""
    said = [float(m.group(2)) * (60 if m.group(3) == "min" else 1)
            for text in run.texts for m in WAIT_TEXT.finditer(text)]
    return max(said) if said else None


class Bystander(threading.Thread):
    """Small views one after another (a new γ each: never a cached result) until stopped."""

    def __init__(self, url: str, first_gamma: float) -> None:
        super().__init__(daemon=True)
        self.url, self.gamma = url, first_gamma
        self.seconds: list[float] = []
        self.told: list[tuple[float, float | None]] = []  # (took, longest wait told)
        self.problems: list[str] = []
        self.running = True

    def one(self) -> float:
        self.gamma *= 1.01
        run = view(self.url, "explorer", SMALL_LINK.format(gamma=f"{self.gamma:.6g}"))
        if run.problem or run.exceptions:
            self.problems.append(run.problem or run.exceptions[0])
        self.told.append((run.seconds, told_seconds(run)))
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


def _bystander_verdict(during: list[float]) -> str:
    if not during:
        return "no bystander view finished"
    median, worst = statistics.median(during), max(during)
    ok = median <= TARGET_MEDIAN_S and worst <= TARGET_WORST_S
    return (f"bystander median {median:.2f} s (target ≤ {TARGET_MEDIAN_S:g}), worst "
            f"{worst:.2f} s (≤ {TARGET_WORST_S:g}): {'met' if ok else 'NOT met'}")


def _memory_verdict(peak_bytes: int) -> str:
    peak = peak_bytes / MB
    return (f"peak PSS {peak:,.0f} MB (target ≤ {TARGET_PEAK_MB:,}): "
            f"{'met' if peak <= TARGET_PEAK_MB else 'NOT met'}")


def _fairness(finished_at: list[float]) -> dict:
    """When the requests of a flood finished, from its start: first come, first served
    spreads them over the flood; serving every request a little at a time finishes them
    all at about the same moment (a small ``first_half_share``)."""
    if not finished_at:
        return {}
    done = sorted(finished_at)
    last = done[-1]
    return {"finished_s": [round(t, 3) for t in done],
            "first_s": done[0], "median_s": statistics.median(done), "last_s": last,
            # Share of the requests done by half the flood's time (FCFS ≈ 0.5).
            "first_half_share": sum(t <= last / 2 for t in done) / len(done)}


# ------------------------------------------------------------------------ experiments


def flood(args, workdir: Path) -> dict:
    server = Server(workdir)
    try:
        view(server.url, "explorer", FLOOD_LINK.format(gamma="0.5"))  # warm the code path
        idle = idle_baseline(server.url)
        time.sleep(2)
        before = server.rss()
        server.watch.peak = before
        server.pss.reset()
        barrier = threading.Barrier(args.sessions + 1)
        runs: list[Run] = []
        finished_at: list[float] = []

        def tab(i: int) -> None:
            session = StreamlitSession(server.url, timeout=600)
            barrier.wait()
            try:
                runs.append(session.open("explorer", FLOOD_LINK.format(gamma=f"{1 + i / 10:g}")))
                finished_at.append(time.monotonic() - started)
            finally:
                session.close()

        tabs = [threading.Thread(target=tab, args=(i,), daemon=True)
                for i in range(args.sessions)]
        for thread in tabs:
            thread.start()
        started = time.monotonic()
        barrier.wait()
        bystander = Bystander(server.url, 7.0)
        bystander.start()
        time.sleep(2)  # one more mid-sized view, asked for once the flood is queued
        mid = view(server.url, "explorer", FLOOD_LINK.format(gamma="0.77"))
        for thread in tabs:
            thread.join(timeout=900)
        flood_s = time.monotonic() - started
        during = bystander.stop()
        peak = server.watch.peak
        pss_peak = server.pss.peak
    finally:
        server.stop()
    problems = [r.problem or r.exceptions[0] for r in runs if r.problem or r.exceptions]
    return {
        "experiment": "flood", "sessions": args.sessions,
        "rss_before_mb": before / MB, "rss_peak_mb": peak / MB, "pss_peak_mb": pss_peak / MB,
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "bystander_ratio": (statistics.median(during) / statistics.median(idle)
                            if during else None),
        "flood_s": _summary([r.seconds for r in runs]), "flood_all_done_s": flood_s,
        "flood_finished": _fairness(finished_at), "mid_view_s": mid.seconds,
        "mid_view_told": told_wait(mid),
        "verdicts": [_memory_verdict(pss_peak), _bystander_verdict(during)],
        "problems": problems + bystander.problems + ([mid.problem] if mid.problem else []),
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


# ------------------------------------------------------------------ issue 34's floods


def _at_once(count: int, work) -> list:
    """``work(i, barrier)`` in ``count`` threads; each calls ``barrier.wait()`` when ready, and
    they start together. Returns their results (None for a thread that failed)."""
    barrier = threading.Barrier(count + 1)
    results: list = [None] * count

    def one(i: int) -> None:
        try:
            results[i] = work(i, barrier)
        except Exception as error:  # noqa: BLE001 - reported as a problem of that tab
            results[i] = error
            if not barrier.broken:
                barrier.abort()

    threads = [threading.Thread(target=one, args=(i,), daemon=True) for i in range(count)]
    for thread in threads:
        thread.start()
    try:
        barrier.wait(timeout=300)
    except threading.BrokenBarrierError:
        pass
    for thread in threads:
        thread.join(timeout=1200)
    return results


def _problems(results) -> list[str]:
    out = []
    for result in results:
        if isinstance(result, Exception):
            out.append(f"{type(result).__name__}: {result}"[:200])
        elif isinstance(result, Run) and (result.problem or result.exceptions):
            out.append(result.problem or result.exceptions[0])
    return out


def scale_tabs(args, workdir: Path) -> dict:
    """Tabs open Scale at once, each at its own γ: each computes its own comparison."""
    server = Server(workdir)
    try:
        idle = idle_baseline(server.url)
        view(server.url, "scale", "dataset=circles&gamma=0.3")  # warm the page's code
        time.sleep(2)
        before = server.pss.reset()

        def tab(i: int, barrier) -> Run:
            session = StreamlitSession(server.url, timeout=900)
            try:
                session._http_get("/_stcore/health")
                barrier.wait()
                return session.open("scale", f"dataset=circles&gamma={0.5 + i / 7:.4g}")
            finally:
                session.close()

        bystander = Bystander(server.url, 13.0)
        bystander.start()
        runs = _at_once(args.sessions, tab)
        during = bystander.stop()
        pss_peak, children = server.pss.peak, server.pss.most_children
    finally:
        server.stop()
    return {
        "experiment": "scale-tabs", "sessions": args.sessions,
        "pss_before_mb": before / MB, "pss_peak_mb": pss_peak / MB,
        "most_child_processes": children,
        "tabs_s": _summary([r.seconds for r in runs if isinstance(r, Run)]),
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "verdicts": [_memory_verdict(pss_peak), _bystander_verdict(during)],
        "problems": _problems(runs) + bystander.problems,
    }


def measure(args, workdir: Path) -> dict:
    """Tabs on the same Scale link press Measure at once."""
    server = Server(workdir)
    link = "dataset=circles&gamma=2"
    try:
        idle = idle_baseline(server.url)
        view(server.url, "scale", link)  # the comparison, computed once and kept
        time.sleep(2)
        before = server.pss.reset()

        def tab(i: int, barrier) -> Run:
            session = StreamlitSession(server.url, timeout=1200)
            try:
                session.open("scale", link)
                barrier.wait()
                return session.click("Measure")
            finally:
                session.close()

        bystander = Bystander(server.url, 17.0)
        bystander.start()
        runs = _at_once(args.sessions, tab)
        during = bystander.stop()
        pss_peak, children = server.pss.peak, server.pss.most_children
    finally:
        server.stop()
    timed = [r for r in runs if isinstance(r, Run)]
    return {
        "experiment": "measure", "sessions": args.sessions,
        "pss_before_mb": before / MB, "pss_peak_mb": pss_peak / MB,
        "most_child_processes": children,
        "measure_s": _summary([r.seconds for r in timed]),
        "measured": sum("Time of each step against n" in r.all_text() for r in timed),
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "verdicts": [_memory_verdict(pss_peak), _bystander_verdict(during)],
        "problems": _problems(runs) + bystander.problems,
    }


EDITOR = "kpca_draw_editor"


def _edit_json(points: int, rev: int = 0) -> str:
    """An edit of the Draw editor as the browser sends it, with ``points`` points."""
    rng = np.random.default_rng(points)
    xy = np.round(rng.uniform(-1.4, 1.4, size=(points, 2)), 6)
    body = ",".join(f"[{a},{b},{i % 3}]" for i, (a, b) in enumerate(xy.tolist()))
    return f'{{"rev": {rev}, "points": [{body}]}}'


def widgets(args, workdir: Path) -> dict:
    """Tabs send the Draw editor a 24 MB edit at once; then a 300-point edit must work."""
    server = Server(workdir)
    huge = _edit_json(1_060_000)  # ~24 MB of JSON: under Streamlit's default limit, 25 MB
    try:
        view(server.url, "draw", "")
        time.sleep(2)
        before = server.pss.reset()

        def tab(i: int, barrier) -> tuple[str, float]:
            session = StreamlitSession(server.url, timeout=300)
            try:
                opened = session.open("draw")
                barrier.wait()
                start = time.monotonic()
                try:
                    run = session.trigger(opened.components[EDITOR], "edit", huge)
                except Disconnected:
                    return "closed by the server", time.monotonic() - start
                said = [t for t in run.texts if t.startswith("That edit")]
                return (said[0][:120] if said else "answered"), run.seconds
            finally:
                session.close()

        answers = _at_once(args.sessions, tab)
        time.sleep(3)
        pss_peak = server.pss.peak
        after = server.pss.current()[0]
        session = StreamlitSession(server.url, timeout=300)
        try:
            opened = session.open("draw")
            fine = session.trigger(opened.components[EDITOR], "edit", _edit_json(300))
            shown = re.search(r"(\d+) points, drawn on this page", fine.all_text())
        finally:
            session.close()
    finally:
        server.stop()
    ok = [a for a in answers if isinstance(a, tuple)]
    return {
        "experiment": "widgets", "sessions": args.sessions, "edit_mb": len(huge) / 1e6,
        "pss_before_mb": before / MB, "pss_peak_mb": pss_peak / MB,
        "pss_after_mb": after / MB,
        "closed_by_server": sum(a[0] == "closed by the server" for a in ok),
        "answers": sorted({a[0] for a in ok}), "answer_s": _summary([a[1] for a in ok]),
        "edit_300_points_shown": int(shown.group(1)) if shown else None,
        "verdicts": [_memory_verdict(pss_peak)],
        "problems": _problems(answers) + _problems([fine]),
    }


MOTION_LINK = "dataset=circles&kernel=rbf&gamma={gamma}"
MOTION_TOGGLE = "▶ γ in motion"


def motion(args, workdir: Path) -> dict:
    """Tabs switch γ in motion on at once (each its own γ); a bystander opens small views."""
    server = Server(workdir)
    try:
        idle = idle_baseline(server.url)
        time.sleep(2)
        before = server.pss.reset()

        def tab(i: int, barrier) -> Run:
            session = StreamlitSession(server.url, timeout=900)
            try:
                opened = session.open("explorer", MOTION_LINK.format(gamma=f"{2 + i / 3:.4g}"))
                toggle = next(label for label in opened.widgets
                              if label.startswith(MOTION_TOGGLE))
                barrier.wait()
                return session.set_widget(toggle, True)
            finally:
                session.close()

        bystander = Bystander(server.url, 19.0)
        bystander.start()
        runs = _at_once(args.sessions, tab)
        during = bystander.stop()
        pss_peak = server.pss.peak
    finally:
        server.stop()
    timed = [r for r in runs if isinstance(r, Run)]
    told = [{"took_s": round(took, 2), "told_s": said} for took, said in bystander.told
            if said is not None]
    return {
        "experiment": "motion", "sessions": args.sessions,
        "pss_before_mb": before / MB, "pss_peak_mb": pss_peak / MB,
        "motion_s": _summary([r.seconds for r in timed]),
        "motion_told": [told_wait(r) for r in timed],
        "bystander_idle_s": _summary(idle), "bystander_during_s": _summary(during),
        "bystander_told": told,
        "verdicts": [_memory_verdict(pss_peak), _bystander_verdict(during)],
        "problems": _problems(runs) + bystander.problems,
    }


def tally(args, workdir: Path) -> dict:
    """One script against the class tally's doors (a real server, the default limits)."""
    from classroom.tally import CODE_LENGTH

    code_text = re.compile(r"Class code\n# ((?:\w ){" + str(CODE_LENGTH - 1) + r"}\w)")

    def start_class(session: StreamlitSession) -> tuple[str | None, str]:
        session.open("class_tally")
        text = session.click("Start a class").all_text()
        found = code_text.search(text)
        return (found.group(1).replace(" ", "") if found else None), text

    server = Server(workdir)
    result: dict = {"experiment": "tally"}
    try:
        view(server.url, "class_tally", "")  # the page's code imported once
        # 1. A script opens classes (up to a few more than the server holds), from tabs it
        # then closes.
        tabs, started = [], time.monotonic()
        while len(tabs) < 25 and time.monotonic() - started < 120:
            session = StreamlitSession(server.url, timeout=60)
            tabs.append(session)
            code, text = start_class(session)
            if code is None:
                result["script_refused_with"] = [t for t in text.split("\n") if "class" in t][:2]
                break
        result["script_classes"] = len(tabs) - (code is None)
        result["script_seconds"] = round(time.monotonic() - started, 1)
        lecturer = StreamlitSession(server.url, timeout=60)
        result["lecturer_can_open_during"] = start_class(lecturer)[0] is not None
        lecturer.close()
        for session in tabs:
            session.close()
        # 2. The script's tabs are gone: after the wait, can a lecturer open a class?
        time.sleep(args.grace_wait)
        lecturer = StreamlitSession(server.url, timeout=60)
        code, _ = start_class(lecturer)
        result[f"lecturer_can_open_{args.grace_wait:g}_s_after"] = code is not None
        # 3. Filling a class: one session after another for --seconds.
        if code is not None:
            joined, refused, started = 0, "", time.monotonic()
            while time.monotonic() - started < args.seconds:
                student = StreamlitSession(server.url, timeout=60)
                run = student.open("tour", f"class={code}")
                student.close()
                said = [t for t in run.texts if f"Class code {code}:" in t]
                if said:
                    refused = said[0][:200]
                    break
                joined += 1
            result.update({"seats_filled": joined, "in_s": round(time.monotonic() - started, 1),
                           "join_refused_with": refused})
        lecturer.close()
    finally:
        server.stop()
    return result


def parked(args, workdir: Path) -> dict:
    """A script sends 12 files of 19 MB to a session with no uploader, then closes it (the
    server refuses them since issue 51: counted as ``refused``)."""
    server = Server(workdir, env={"STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": "120"})
    blob = b"1,2\n" * 4_750_000  # 19 MB
    try:
        view(server.url, "explorer", "dataset=moons&n=200")
        time.sleep(2)
        before = server.pss.reset()
        session = StreamlitSession(server.url, timeout=300)
        session.open("explorer", "dataset=moons&n=200")  # no uploader on screen
        refused = 0
        for i in range(args.files):
            try:
                session.put_file(f"parked-{i}.csv", blob)
            except requests.HTTPError:  # 403: no uploader on the page (shell/uploads.py)
                refused += 1
        held = server.pss.current()[0]
        session.close()
        closed = time.monotonic()
        freed_after = None
        while time.monotonic() - closed < args.grace_wait * 4:
            if server.pss.current()[0] < before + 0.25 * (held - before):
                freed_after = time.monotonic() - closed
                break
            time.sleep(2)
        after = server.pss.current()[0]
    finally:
        server.stop()
    return {"experiment": "parked", "files": args.files, "refused": refused,
            "file_mb": len(blob) / 1e6,
            "pss_before_mb": before / MB, "pss_holding_mb": held / MB,
            "pss_after_mb": after / MB, "freed_after_close_s": freed_after,
            "reconnect_time_s": 120}


EXPERIMENTS = {"scale-tabs": scale_tabs, "parked": parked, "measure": measure, "widgets": widgets,
               "motion": motion, "tally": tally}
DEFAULT_SESSIONS = {"flood": 24, "uploads": 2, "scale-tabs": 10, "measure": 10,
                    "widgets": 8, "motion": 8, "tally": 1}


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("experiment", choices=("flood", "scale", "denoise", "uploads",
                                               *EXPERIMENTS))
    parser.add_argument("--sessions", type=int, default=None,
                        help="flood: tabs at once (24); uploads: students (2)")
    parser.add_argument("--repeats", type=int, default=1)
    parser.add_argument("--seconds", type=float, default=10.0,
                        help="tally: seconds the script fills a class")
    parser.add_argument("--files", type=int, default=12, help="parked: files of 19 MB")
    parser.add_argument("--grace-wait", type=float, default=75.0,
                        help="tally: seconds after the script's tabs close")
    parser.add_argument("--head-start", type=float, default=2.0,
                        help="scale/denoise: seconds before the full-USPS request")
    parser.add_argument("--workdir", default=str(ROOT / "benchmarks" / "results" / "servers"))
    parser.add_argument("--out", help="write every run as JSON here")
    args = parser.parse_args(argv)
    if args.sessions is None:
        args.sessions = DEFAULT_SESSIONS.get(args.experiment, 2)
    if args.experiment in ("scale", "denoise") and not os.environ.get("KPCA_USPS_PATH"):
        parser.error("scale and denoise need KPCA_USPS_PATH (the USPS digits)")
    results = []
    for repeat in range(args.repeats):
        load = os.getloadavg()[0]
        if args.experiment == "flood":
            result = flood(args, Path(args.workdir))
        elif args.experiment in EXPERIMENTS:
            result = EXPERIMENTS[args.experiment](args, Path(args.workdir))
        elif args.experiment == "uploads":
            result = uploads(args, Path(args.workdir))
        else:
            heavy = _largest_scale_run if args.experiment == "scale" else _largest_denoising_run
            result = against_full_usps(args, Path(args.workdir), heavy)
        result["load_average"] = load
        results.append(result)
        print(f"[{repeat + 1}/{args.repeats}] load {load:.1f}"
              f" (uptime: {' '.join(f'{x:.2f}' for x in os.getloadavg())}): "
              + json.dumps({k: v for k, v in result.items() if k != "experiment"}), flush=True)
    if args.out:
        Path(args.out).write_text(json.dumps({"runs": results}, indent=1))
    return results


if __name__ == "__main__":
    main()
