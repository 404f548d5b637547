"""A class of N students on one server, or behind HAProxy, over Streamlit's own protocol.

    python loadtest/load_students.py --students 25 50 100 200      # one server, 3 min each
    python loadtest/load_students.py --students 4 --minutes 0.5    # a smoke run
    python loadtest/load_students.py --url http://host:8501 --students 50
    python loadtest/load_students.py --replicas 2 --students 100 --uploads 2 \\
        --kill-replica 60                                             # HAProxy + failover
    python loadtest/load_students.py --students 0 --cpu-by-page --profile  # per page
    python loadtest/load_students.py --students 0 --cpu-by-page --store after  # vs before
    python loadtest/load_students.py --mix lecture lab --students 25 50 100 --replicas 2 \
        --fresh-server --fill-shared-cache                 # issue 36's run (docs/load.md)

``--mix lab``: a lab instead of a lecture (``class_plan.LAB``): every student on the
Explorer with one of 8 dataset × kernel choices and a γ of their own, moving γ one to
three grid steps each time; its target adds p95 first view ≤ 5 s, and a student whose
page, health check or websocket handshake takes longer than ``--connect-timeout`` (20 s,
as a browser) counts as refused.

Each student is a Locust user (``Student``) holding one :class:`st_client.StreamlitSession`:
it opens a link from :data:`CLASS` (most of the class on the lecture's current tour step,
the rest on the tour, other steps, other datasets and kernels, USPS-2000 among them), then
every 10–20 s changes a setting as a student would (γ one step on the sidebar's log
slider, or one component more or fewer; on the tour page, Next/Back). Locust schedules
the students (gevent: one process plays hundreds) and collects the timings through
``events.request``; nothing draws, so the server is measured, not browsers.

Every run the server sends back is checked against what that student asked for:

* errors: an exception or an error box on the page, a run that never finished, a lost
  connection;
* mixing: the page, the query string and the sidebar's widgets must hold this student's
  own dataset, kernel, γ, components (and tour step), the page's own statement of γ
  (chart and caption titles, :data:`GAMMA_SHOWN`) must be this student's γ, the session
  id must not change, and no student may ever receive another student's uploaded file
  name.

Reported per N: errors, mixing, time from message to script finished (median, p95,
worst) for first views and for interactions, server CPU seconds per interaction (all
pages, while the class works; ``--cpu-by-page``: each page alone on a quiet server),
peak RSS and settled RSS (class idle but connected, and after everyone left), the load
average, and the generator's own CPU. Target (issue 24): 100 students with p95
interaction ≤ 2 s, 0 errors, 0 mixing, ≤ 1.5 GB.

``--one-core --empty-cache`` (issue 50) is a container that wakes cold on Community
Cloud: one server pinned to core 0 (``taskset -c 0``) whose caches on disk
(``$KPCA_CACHE_DIR`` and the shared cache in it) are fresh, empty directories, removed
when it stops; with ``--mix lab`` its target is :data:`TARGET_ONE_CORE_LAB`.

``--replicas N`` (N ≥ 2) starts N replicas and HAProxy (``deploy/replicas.py``) and
reports how the students spread (affinity cookie, HAProxy's sessions, CPU per replica);
``--uploads K`` makes K students upload a CSV; ``--kill-replica S`` kills replica 1
S seconds into the class: its students reconnect through the balancer and reopen
their link.
"""

from __future__ import annotations

import argparse
import collections
import itertools
import json
import math
import os
import random
import re
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import parse_qsl

# Importing locust patches sockets, ssl and threads for gevent: it comes before anything
# that opens a connection (requests and websocket-client, imported by st_client below).
import gevent
import psutil
from locust import User, constant, task
from locust.env import Environment

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from deploy.replicas import Cluster, Replica, free_port  # noqa: E402
from loadtest.class_plan import (  # noqa: E402
    DATASET,
    MIXES,
    Expectation,
    Habits,
    Link,
    Mix,
    make_change,
)
from loadtest.st_client import Disconnected, Run, StreamlitSession  # noqa: E402

RESULTS = ROOT / "benchmarks" / "results"
TARGET = {"students": 100, "p95_interaction_s": 2.0, "rss_gb": 1.5}
# The lab's target adds the first view (issue 36): every first view is new work there.
TARGET_FIRST_VIEW_S = {"lab": 5.0}
# A lab on one core with empty caches (issue 50: Community Cloud's container).
TARGET_ONE_CORE_LAB = {"first_view_median_s": 1.0, "first_view_p95_s": 5.0,
                       "change_p95_s": 1.0, "rss_gb": 1.0}


# -- the class: Locust users --------------------------------------------------------------
@dataclass
class Sample:
    kind: str  # open | change | upload | reconnect
    link: str
    page: str
    seconds: float
    ended: float  # time.monotonic()
    student: int
    replica: str
    ok: bool
    errors: list[str] = field(default_factory=list)
    mixed: list[str] = field(default_factory=list)
    refused: bool = False  # an open that never got a websocket (HTTP or handshake failed)


class Recorder:
    """Every request of every student (a Locust ``request`` listener) and lost connections."""

    def __init__(self) -> None:
        self.samples: list[Sample] = []
        self.disconnects: list[tuple[float, int, str, str]] = []  # (when, student, link, why)
        self.uploads: dict[int, str] = {}  # student -> file name
        self.uploads_lost: list[int] = []  # uploaders whose replica died

    def on_request(self, request_type, name, response_time, response_length, exception=None,
                   context=None, **_) -> None:
        sample = (context or {}).get("sample")
        if sample is not None:
            self.samples.append(sample)

    def foreign_uploads(self, student: int) -> list[str]:
        return [name for who, name in self.uploads.items() if who != student]


class Student(User):
    """One student: open the link, then change a setting every 10–20 s."""

    # The pause between changes is taken inside the task, reading the websocket (the
    # server pings every 30 s and a browser answers at once), so Locust waits 0.
    wait_time = constant(0)
    plan: list[Link] = []
    habits_kind: type[Habits] = Habits
    uploaders: set[int] = set()
    recorder = Recorder()
    numbers = itertools.count()
    timeout = 180.0
    connect_timeout = 20.0  # a browser gives up on a handshake about this soon
    pause = (10.0, 20.0)  # seconds between two changes of one student
    working = True  # False: the class stops changing settings (but stays connected)
    in_flight = 0  # requests sent and not yet finished, over all students

    def on_start(self) -> None:
        self.number = next(Student.numbers)
        self.link = self.plan[self.number % len(self.plan)]
        self.random = random.Random(self.number)
        self.habits = self.habits_kind(self.link.page, self.number)
        self.session = StreamlitSession(self.host, timeout=self.timeout,
                                        connect_timeout=self.connect_timeout)
        self.expect = Expectation(self.link.page, dict(parse_qsl(self.link.query)))
        self._request("open", lambda: self.session.open(self.link.page, self.link.query))
        if self.number in self.uploaders:
            self._upload()

    def on_stop(self) -> None:
        self.session.close()

    @task
    def change_a_setting(self) -> None:
        try:
            self.session.idle(self.random.uniform(*self.pause))
        except Disconnected as lost:
            self._lost(lost)
            return
        if not Student.working or self.session.ws is None:
            return
        change = self.habits.next_change(self.session.widgets, self.expect.params)
        if change is not None:
            self._request("change", lambda: make_change(self.session, change), change[2])

    def _upload(self) -> None:
        """Switch to "Your own CSV" and upload a file only this student has."""
        name = f"upload-{self.number}-{os.urandom(4).hex()}.csv"
        rows = self.random.randint(60, 180)
        lines = ["x1,x2,x3,label"] + [
            f"{self.random.gauss(0, 1):.4f},{self.random.gauss(0, 1):.4f},"
            f"{self.random.gauss(0, 1):.4f},{self.random.randint(0, 1)}" for _ in range(rows)]
        self._request("change", lambda: self.session.set_widget(DATASET, "Your own CSV"),
                      {**self.expect.params, "dataset": "csv"}, check_params=("dataset",))
        self.recorder.uploads[self.number] = name
        run = self._request("upload", lambda: self.session.upload(
            "CSV file", name, "\n".join(lines).encode()), {**self.expect.params},
            check_params=("dataset",))
        if run is not None and run.finished:
            sample = self.recorder.samples[-1]
            # The page escapes an upload's name (shown as typed, never as Markdown): what a
            # student reads is the text with Markdown's backslash escapes removed.
            if f"On screen: **{name}**" not in re.sub(r"\\(.)", r"\1", run.all_text()):
                sample.errors.append("the upload is not named on screen")
            # γ follows the new data (by design): the server's choice becomes expected.
            self.expect.params.update(
                {k: v for k, v in parse_qsl(run.query_string) if k in ("gamma",)})

    # -- bookkeeping ----------------------------------------------------------------------
    def _request(self, kind: str, call, expected: dict | None = None,
                 check_params: tuple[str, ...] | None = None) -> Run | None:
        started = time.perf_counter()
        sample = Sample(kind, self.link.name, self.link.page, 0.0, 0.0, self.number,
                        self.session.http.cookies.get("KPCA_REPLICA") or "", False)
        run = None
        Student.in_flight += 1
        try:
            run = call()
        except Disconnected as lost:
            sample.errors.append(f"disconnected: {lost}")
        except Exception as error:  # noqa: BLE001 - any failure is a reported error
            sample.errors.append(f"{type(error).__name__}: {str(error)[:200]}")
        finally:
            Student.in_flight -= 1
        sample.seconds = run.seconds if run is not None else time.perf_counter() - started
        sample.refused = kind == "open" and run is None and not self.session.session_id
        sample.ended = time.monotonic()
        sample.replica = self.session.http.cookies.get("KPCA_REPLICA") or sample.replica
        if run is not None:
            params = self.expect.params if expected is None else expected
            if check_params is not None:
                params = {k: v for k, v in params.items() if k in check_params}
            # A reconnect may land on another replica: a new session is right there.
            expect = Expectation(self.link.page, params,
                                 "" if kind == "reconnect" else self.expect.session_id)
            errors, mixed = expect.check(run, self.recorder.foreign_uploads(self.number))
            sample.errors += errors
            sample.mixed += mixed
            if run.finished and not errors:
                if expected is not None:
                    self.expect.params = dict(expected)
                if not self.expect.session_id or kind == "reconnect":
                    self.expect.session_id = run.session_id
        sample.ok = run is not None and run.finished and not sample.errors and not sample.mixed
        self.environment.events.request.fire(
            request_type=kind, name=f"{kind} {self.link.page}",
            response_time=sample.seconds * 1000, response_length=run.bytes if run else 0,
            exception=None if sample.ok else RuntimeError("; ".join(
                (sample.errors + sample.mixed)[:2])),
            context={"sample": sample})
        if run is None and self.session.ws is None:
            self._lost(Disconnected(sample.errors[-1] if sample.errors else "lost"))
        return run

    def _lost(self, why: Disconnected) -> None:
        """The connection dropped: reconnect (with backoff, as the frontend does)."""
        self.recorder.disconnects.append((time.monotonic(), self.number, self.link.name,
                                          str(why)[:200]))
        # The address bar holds the last view the server confirmed: that is what the
        # browser reopens, and what the student must get back.
        self.expect.params.update({k: v for k, v in parse_qsl(self.session.query_string)
                                   if k in self.expect.params})
        check = None
        if self.expect.params.get("dataset") == "csv":
            # An upload lives in its replica's memory and no link can carry it: the
            # reopened link falls back to a built-in dataset (and says so).
            self.recorder.uploads_lost.append(self.number)
            check = tuple(k for k in self.expect.params if k not in ("dataset", "gamma"))
        delay = 0.5
        for _ in range(12):
            run = self._request("reconnect", self.session.reconnect, check_params=check)
            if run is not None and run.finished:
                if check is not None:  # the fallback data and its γ are now this view
                    self.expect.params.update({k: v for k, v in parse_qsl(run.query_string)
                                               if k in ("dataset", "gamma")})
                return
            gevent.sleep(delay)
            delay = min(delay * 2, 10)


# -- the server side: CPU and memory ----------------------------------------------------
class ServerWatch:
    """CPU seconds and resident memory of the server processes, sampled every 0.25 s."""

    def __init__(self, pids: list[int]) -> None:
        self.processes = [psutil.Process(pid) for pid in pids]
        self.last_cpu = [0.0] * len(self.processes)
        self.cpu()
        self.peak = 0
        self.peaks = [0] * len(self.processes)
        self.samples: list[tuple[float, int]] = []
        self._greenlet = gevent.spawn(self._run)

    def _alive(self):
        return [p for p in self.processes if p.is_running()]

    def rss(self) -> int:
        return sum(self.rss_each())

    def rss_each(self) -> list[int]:
        """Resident bytes of each process (0 when it is gone)."""
        each = []
        for p in self.processes:
            try:
                each.append(p.memory_info().rss if p.is_running() else 0)
            except psutil.Error:
                each.append(0)
        return each

    def cpu(self) -> list[float]:
        """CPU seconds of each process (a dead one keeps its last reading)."""
        for i, p in enumerate(self.processes):
            try:
                times = p.cpu_times()
                self.last_cpu[i] = times.user + times.system
            except psutil.Error:
                pass
        return list(self.last_cpu)

    def _run(self) -> None:
        while True:
            each = self.rss_each()
            rss = sum(each)
            self.cpu()
            self.peak = max(self.peak, rss)
            self.peaks = [max(a, b) for a, b in zip(self.peaks, each, strict=True)]
            self.samples.append((time.monotonic(), rss))
            gevent.sleep(0.25)

    def stop(self) -> None:
        self._greenlet.kill()


@dataclass
class Target:
    """Where the class goes: one server we started, a cluster, or a given URL."""

    url: str
    pids: list[int]
    cluster: Cluster | None = None
    replica: Replica | None = None
    empty_cache: Path | None = None  # --empty-cache: the server's fresh cache directory

    def stop(self) -> None:
        if self.cluster:
            self.cluster.stop()
        if self.replica:
            self.replica.stop()
        if self.empty_cache is not None:
            shutil.rmtree(self.empty_cache, ignore_errors=True)


def fill_shared_cache(args) -> dict:
    """Fill the servers' shared cache up front (``scripts/fill_shared_cache.py``: what
    the servers do in the background when they start; settings already there are
    skipped) and return its report: size on disk and build time."""
    env = {**os.environ, **_cache_env(args)}
    print(f"== filling the shared cache {env.get('KPCA_SHARED_CACHE', '(default)')} "
          "(skips what is there)", flush=True)
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "fill_shared_cache.py")],
                          env=env, capture_output=True, text=True, cwd=ROOT)
    print(done.stdout[-1500:], flush=True)
    if done.returncode != 0:
        raise RuntimeError(f"filling the shared cache failed: {done.stderr[-2000:]}")
    return json.loads(done.stdout.strip().splitlines()[-1])  # its report, one JSON line


def _cache_env(args) -> dict[str, str]:
    return {"KPCA_SHARED_CACHE": args.shared_cache} if args.shared_cache else {}


def empty_cache_env() -> tuple[Path, dict[str, str]]:
    """A fresh, empty cache directory and the environment that points the server's
    caches on disk at it: ``$KPCA_CACHE_DIR`` (the USPS copy, the paper's tables) and the
    shared cache (``$KPCA_CACHE_DIR/shared``, as by default)."""
    directory = Path(tempfile.mkdtemp(prefix="kpca-empty-cache-"))
    return directory, {"KPCA_CACHE_DIR": str(directory),
                       "KPCA_SHARED_CACHE": str(directory / "shared")}


def start_target(args) -> Target:
    env = _cache_env(args)
    options = dict(o.split("=", 1) for o in args.streamlit_option)
    if args.url:
        return Target(args.url, args.server_pid or [])
    workdir = Path(args.workdir or RESULTS / "servers")
    workdir.mkdir(parents=True, exist_ok=True)
    empty = None
    if args.empty_cache:
        empty, fresh = empty_cache_env()
        env = {**env, **fresh}
    if args.replicas >= 2:
        cluster = Cluster(args.replicas, workdir=workdir / f"cluster-{os.getpid()}", env=env,
                          options=options)
        return Target(cluster.url, [r.pid for r in cluster.replicas], cluster=cluster,
                      empty_cache=empty)
    replica = Replica(free_port(), workdir / f"server-{os.getpid()}.log", env,
                      options=options, cpus="0" if args.one_core else None)
    return Target(replica.url, [replica.pid], replica=replica, empty_cache=empty)


# -- one class ------------------------------------------------------------------------------
def _stats(values: list[float]) -> dict:
    if not values:
        return {"n": 0, "median": None, "p95": None, "worst": None}
    ordered = sorted(values)
    p95 = ordered[min(len(ordered) - 1, math.ceil(0.95 * len(ordered)) - 1)]
    return {"n": len(values), "median": statistics.median(values), "p95": p95,
            "worst": ordered[-1]}


def run_class(target: Target, n: int, args, mix: Mix = MIXES["lecture"]) -> dict:
    """N students of ``mix`` on ``target`` for ``args.minutes``; the figures of the run."""
    recorder = Recorder()
    Student.plan, Student.habits_kind = mix.plan(n), mix.habits
    Student.recorder = recorder
    Student.numbers = itertools.count()
    Student.working, Student.in_flight = True, 0
    Student.timeout, Student.pause = args.timeout, tuple(args.pause)
    Student.connect_timeout = args.connect_timeout
    # The first to arrive on the mix's first link upload (on the Explorer, as in class).
    Student.uploaders = set([i for i, link in enumerate(Student.plan)
                             if link.name == mix.links[0].name][: args.uploads])
    env = Environment(user_classes=[Student], host=target.url)
    env.events.request.add_listener(recorder.on_request)
    watch = ServerWatch(target.pids)
    me = psutil.Process()
    load_before, me_before = os.getloadavg(), sum(me.cpu_times()[:2])
    cpu_start = watch.cpu()
    started = time.monotonic()
    runner = env.create_local_runner()
    runner.start(n, spawn_rate=max(n / args.arrival, 0.5))

    def first_views_done() -> int:
        return sum(1 for s in recorder.samples if s.kind == "open")

    while first_views_done() < n and time.monotonic() - started < args.arrival + args.timeout:
        gevent.sleep(0.5)
    arrived = time.monotonic()
    cpu_before = watch.cpu()
    load_arrival = os.getloadavg()
    psutil.cpu_percent()  # the machine's busy share is measured from here
    kill = None
    if args.kill_replica is not None and target.cluster:
        kill = gevent.spawn_later(args.kill_replica, _kill_first_replica, target, recorder)
    print(f"  {n} students: first views done in {arrived - started:.0f} s; the class works "
          f"for {args.minutes:g} min", flush=True)
    gevent.sleep(args.minutes * 60)
    steady_end = time.monotonic()
    cpu_after = watch.cpu()
    machine_busy = psutil.cpu_percent()  # all cores, everyone's processes
    load_during = os.getloadavg()
    Student.working = False
    quiet_from = time.monotonic()
    while Student.in_flight and time.monotonic() - quiet_from < args.timeout:
        gevent.sleep(0.5)  # let the runs in flight finish
    gevent.sleep(args.settle)
    settled_connected = watch.rss()
    replica_stats = target.cluster.servers() if target.cluster else []
    runner.quit()
    gevent.sleep(args.settle)
    settled_after = watch.rss()
    watch.stop()
    me_cpu = sum(me.cpu_times()[:2]) - me_before

    changes = [s for s in recorder.samples if s.kind == "change"]
    steady = [s for s in changes if arrived <= s.ended <= steady_end]
    cpu_used = [b - a for a, b in zip(cpu_before, cpu_after, strict=True)]
    killed_at = kill.value if kill is not None else None
    by_page = collections.defaultdict(list)
    for s in changes:
        by_page[s.page].append(s.seconds)
    opens = [s for s in recorder.samples if s.kind == "open" and not s.errors]
    first_by_link = collections.defaultdict(list)
    for s in opens:
        first_by_link[s.link].append(s.seconds)
    # Refused: their first view never got a websocket (they retry, as a browser does).
    refused = {s.student for s in recorder.samples if s.kind == "open" and s.refused}
    # While the class arrives most requests are first views (a few early arrivals change
    # a setting already): the server's CPU then, per request.
    arriving = [s for s in recorder.samples if s.ended <= arrived]
    cpu_arrival = sum(before - start for start, before in zip(cpu_start, cpu_before,
                                                              strict=True))
    result = {
        "mix": mix.name,
        "students": n,
        "url": target.url,
        "replicas": len(target.pids),
        "one_core": args.one_core,
        "empty_cache": args.empty_cache,
        "server_cpu_affinity": _affinity(target.pids),
        "minutes": args.minutes,
        "load_average_before": load_before,
        "load_average_arrival": load_arrival,
        "load_average_during": load_during,
        "errors": sum(1 for s in recorder.samples if s.errors),
        "mixed": sum(1 for s in recorder.samples if s.mixed),
        "students_with_mixing": len({s.student for s in recorder.samples if s.mixed}),
        "disconnects": len(recorder.disconnects),
        # Dropped: lost their websocket after their view was open.
        "refused": len(refused),
        "dropped": len({d[1] for d in recorder.disconnects} - refused),
        "first_view_s": _stats([s.seconds for s in opens]),
        "first_view_by_link_s": {link: _stats(v) for link, v in sorted(first_by_link.items())},
        # Which first views were slow: when they began (seconds into the class's arrival),
        # where, and on which link (a fresh replica's first runs? one dataset?).
        "slowest_first_views": [
            {"link": s.link, "replica": s.replica, "seconds": round(s.seconds, 2),
             "began_s": round(s.ended - s.seconds - started, 1)}
            for s in sorted(opens, key=lambda s: -s.seconds)[:10]],
        "interaction_s": _stats([s.seconds for s in changes if not s.errors]),
        "interaction_by_page_s": {p: _stats(v) for p, v in sorted(by_page.items())},
        "requests_arriving": len(arriving),
        "server_cpu_s_arrival": cpu_arrival,
        "server_cpu_s_per_request_arriving": cpu_arrival / len(arriving) if arriving else None,
        "interactions_steady": len(steady),
        "server_cpu_s_steady": sum(cpu_used),
        "server_cpu_s_per_interaction": (sum(cpu_used) / len(steady)) if steady else None,
        "server_cpu_share_steady": sum(cpu_used) / (steady_end - arrived),
        "machine_cpu_busy_pct": machine_busy,
        "cores": psutil.cpu_count(),
        "peak_rss_mb": watch.peak / 2**20,
        "settled_rss_connected_mb": settled_connected / 2**20,
        "settled_rss_after_mb": settled_after / 2**20,
        "generator_cpu_share": me_cpu / (time.monotonic() - started),
        "problems": [asdict(s) for s in recorder.samples if s.errors or s.mixed][:30],
        "disconnect_log": recorder.disconnects[:50],
    }
    if target.cluster:
        result["per_replica"] = _per_replica(target, recorder, cpu_used, replica_stats,
                                             watch.peaks)
    if killed_at is not None:
        result["failover"] = _failover(recorder, killed_at)
    if args.uploads:
        result["uploads"] = _uploads(recorder)
    if target.empty_cache is not None:  # what the server wrote there (removed at its stop)
        result["empty_cache_dir"] = str(target.empty_cache)
        result["empty_cache_files_at_end"] = sum(
            1 for f in target.empty_cache.rglob("*") if f.is_file())
    return result


def _affinity(pids: list[int]) -> list[list[int]]:
    """The cores each server process may run on (``--one-core``: [[0]])."""
    found = []
    for pid in pids:
        try:
            found.append(psutil.Process(pid).cpu_affinity())
        except (psutil.Error, AttributeError):  # gone, or no affinity on this system
            found.append([])
    return found


def _kill_first_replica(target: Target, recorder: Recorder) -> float:
    killed_at = time.monotonic()
    replica = target.cluster.kill(0)
    print(f"  killed replica 1 (pid {replica.pid})", flush=True)
    return killed_at


def _per_replica(target: Target, recorder: Recorder, cpu_used: list[float],
                 stats: list[dict], peaks: list[int]) -> list[dict]:
    first = {}
    for s in recorder.samples:
        if s.kind == "open":
            first[s.student] = s.replica
    counts = collections.Counter(first.values())
    rows = []
    for i, (replica, cpu, peak) in enumerate(
            zip(target.cluster.replicas, cpu_used, peaks, strict=True), start=1):
        name = f"app{i}"
        haproxy = next((row for row in stats if row["name"] == name), {})
        rows.append({"replica": name, "port": replica.port, "students_opened": counts[name],
                     "haproxy_status": haproxy.get("status"),
                     "haproxy_sessions_total": haproxy.get("total"),
                     "cpu_s_steady": cpu, "peak_rss_mb": peak / 2**20})
    return rows


def _failover(recorder: Recorder, killed_at: float) -> dict:
    """What the kill cost: failed requests, who reconnected, how long they waited."""
    lost = [d for d in recorder.disconnects if d[0] >= killed_at]
    students = {d[1] for d in lost}
    after = [s for s in recorder.samples if s.ended >= killed_at]
    failed_changes = [s for s in after if s.kind == "change" and not s.ok]
    reconnects = [s for s in after if s.kind == "reconnect"]
    back = {}
    for s in reconnects:
        if s.ok and s.student not in back:
            back[s.student] = s.ended - killed_at
    others_failed = [s for s in after if not s.ok and s.student not in students]
    failing = [s.ended - killed_at for s in after if not s.ok]
    return {
        "students_disconnected": len(students),
        "interactions_failed": len(failed_changes),
        "reconnect_attempts": len(reconnects),
        "reconnects_ok": sum(1 for s in reconnects if s.ok),
        "students_back": len(back),
        "view_back_after_s": _stats(list(back.values())),
        "failures_window_s": [min(failing), max(failing)] if failing else None,
        "failures_among_other_students": len(others_failed),
        "reconnected_to": dict(collections.Counter(
            s.replica for s in reconnects if s.ok)),
    }


def _uploads(recorder: Recorder) -> dict:
    ups = [s for s in recorder.samples if s.kind == "upload"]
    leaks = [m for s in recorder.samples for m in s.mixed if "upload" in m]
    return {"uploads": len(ups), "uploads_ok": sum(1 for s in ups if s.ok),
            "upload_s": _stats([s.seconds for s in ups]), "seen_by_others": len(leaks),
            "lost_with_their_replica": len(recorder.uploads_lost)}


# -- each page alone: CPU per interaction and a profile of its reruns --------------------
def cpu_by_page(target: Target, args) -> list[dict]:
    """Each page of the first ``--mix``'s links (:data:`CLASS` for the lecture) alone on the
    server: CPU s per first view and change (a lab's: each dataset × kernel choice)."""
    watch = ServerWatch(target.pids)
    rows = []
    seen = set()
    mix = MIXES[args.mix[0]]
    for link in mix.links:
        # The lecture: one row per page (USPS apart); the lab: one per choice.
        key = (link.page, "USPS" in link.name) if mix.name == "lecture" else link.name
        if key in seen or (args.links and link.name not in args.links):
            continue
        seen.add(key)
        habits = mix.habits(link.page, seed=7)
        params = dict(parse_qsl(link.query))
        session = StreamlitSession(target.url, timeout=args.timeout)
        before = sum(watch.cpu())
        run = session.open(link.page, link.query)
        gevent.sleep(0.3)  # the last messages leave the server
        first_cpu = sum(watch.cpu()) - before
        errors, mixed = Expectation(link.page, params).check(run, [])
        changes, profile = [], _Profile(target.pids[0]) if args.profile else None
        last = run
        for _ in range(args.repeats):
            change = habits.next_change(session.widgets, params)
            if change is None:  # the last run drew neither γ nor the components
                errors.append(f"nothing to change: {last.problem or 'no γ/components widget'}")
                break
            before = sum(watch.cpu())
            last = make_change(session, change)
            gevent.sleep(0.3)
            problems = Expectation(link.page, change[2]).check(last, [])
            changes.append((last.seconds, sum(watch.cpu()) - before,
                            problems[0] + problems[1]))
            params = change[2]
        row = {"link": link.name, "page": link.page, "first_view_s": run.seconds,
               "first_view_cpu_s": first_cpu,
               "change_s": statistics.median(c[0] for c in changes) if changes else math.nan,
               "change_cpu_s": statistics.median(c[1] for c in changes) if changes else math.nan,
               "change_cpu_s_all": [round(c[1], 3) for c in changes],
               "problems": (errors + mixed + [p for c in changes for p in c[2]])[:5],
               "bytes_per_view": run.bytes}
        if profile is not None:
            row["profile_ms_per_change"] = profile.stop(args.repeats)
            print(f"    {row['profile_ms_per_change']}", flush=True)
        rows.append(row)
        session.close()
        print(f"  {link.name:24s} first view {run.seconds:6.2f} s ({first_cpu:5.2f} CPU s); "
              f"change {row['change_s']:5.2f} s ({row['change_cpu_s']:5.2f} CPU s)"
              + (f"  problems: {row['problems']}" if row["problems"] else ""), flush=True)
    watch.stop()
    return rows


class _Profile:
    """``py-spy record`` on the server while one page's changes run (collapsed stacks).

    py-spy samples wall-clock time of the threads that are not idle, so on a busy
    machine a frame's milliseconds include waiting for a core; the CPU seconds per
    change come from the process's own counters instead.
    """

    RATE = 250
    # Where a rerun's time goes besides the app's own code (file:function, inclusive).
    BUCKETS = {
        "whole run (script thread)": "script_runner.py:ScriptRunner._run_script",
        "post-run gc.collect(2) (runner.postScriptGC)":
            "script_runner.py:ScriptRunner._on_script_finished",
        "app.py (router + sidebar + page)": "app.py:<module>",
        "shared sidebar": "shell/sidebar.py:settings_sidebar",
        "st.plotly_chart (figure to protobuf)": "plotly_chart.py:PlotlyMixin.plotly_chart",
        "figure to JSON (plotly)": "plotly/io/_json.py:to_json_plotly",
        "plotly figure building (update)": "plotly/basedatatypes.py:BasePlotlyType.update",
    }

    def __init__(self, pid: int) -> None:
        self.path = RESULTS / f"pyspy-{pid}-{time.time_ns()}.txt"
        self.process = subprocess.Popen(
            [str(Path(sys.executable).with_name("py-spy")), "record", "--pid", str(pid),
             "--rate", str(self.RATE), "--format", "raw", "--output", str(self.path)],
            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        gevent.sleep(1.0)  # py-spy attaches

    def stop(self, changes: int, top: int = 12) -> dict:
        """Milliseconds per change: the buckets above and the app's own functions."""
        self.process.send_signal(2)  # SIGINT: py-spy writes what it has
        self.process.wait(timeout=60)
        inclusive = collections.Counter()
        for line in self.path.read_text().splitlines():
            stack, _, count = line.rpartition(" ")
            for frame in {_frame(f) for f in stack.split(";")} - {""}:
                inclusive[frame] += int(count)
        self.path.unlink()
        scale = 1000 / self.RATE / max(changes, 1)
        buckets = {name: round(scale * sum(n for f, n in inclusive.items() if f.endswith(key)),
                               1) for name, key in self.BUCKETS.items()}
        ours = [(f, round(n * scale, 1)) for f, n in inclusive.most_common()
                if f.startswith(APP_CODE)][:top]
        return {"buckets": buckets, "app": ours}


APP_CODE = ("app_pages/", "shell/", "lessons/", "experiments/", "kpca_core/",
            "datasets/")


def _frame(text: str) -> str:
    """``function (path/file.py:line)`` → ``path/file.py:function`` relative to the repo."""
    match = re.match(r"(.*) \((.*?):\d+\)$", text.strip())
    if not match:
        return ""
    function, path = match.groups()
    marker = str(ROOT) + "/"
    path = path.split(marker, 1)[1] if marker in path else path.split("site-packages/")[-1]
    return f"{path}:{function}"


# -- each page alone: kept, and compared with what was kept ------------------------------
STORE = ROOT / "loadtest" / "results" / "cpu_by_page.json"


def store_by_page(rows: list[dict], label: str, path: Path = STORE) -> dict:
    """Keep one measurement of :func:`cpu_by_page` under ``label`` ("before", "after") in
    ``path``, next to the others, with the commit and command it came from."""
    kept = json.loads(path.read_text()) if path.exists() else {}
    commit = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--short", "HEAD"],
                            capture_output=True, text=True).stdout.strip()
    kept[label] = {
        "commit": commit,
        "command": "python loadtest/" + " ".join([Path(sys.argv[0]).name, *sys.argv[1:]]),
        "load_average": [round(x, 1) for x in os.getloadavg()],
        "pages": [{"link": r["link"], "page": r["page"],
                   "first_view_cpu_ms": round(1000 * r["first_view_cpu_s"]),
                   "change_cpu_ms": None if math.isnan(r["change_cpu_s"])
                   else round(1000 * r["change_cpu_s"]),
                   "change_cpu_ms_all": [round(1000 * c) for c in r["change_cpu_s_all"]],
                   "change_s": None if math.isnan(r["change_s"]) else round(r["change_s"], 3),
                   "problems": r["problems"]} for r in rows],
    }
    path.write_text(json.dumps(kept, indent=1, ensure_ascii=False) + "\n")
    print(f"written {path.relative_to(ROOT)} [{label}]")
    return kept


def print_by_page(kept: dict, before: str = "before", after: str = "after") -> None:
    """The per-page CPU ms of ``after`` against ``before``, with ratios (after / before)."""
    if before not in kept or after not in kept:
        return
    old = {row["link"]: row for row in kept[before]["pages"]}

    def ms(value) -> str:
        return "–" if value is None else f"{value}"

    def ratio(new, base) -> str:
        return "–" if new is None or not base else f"{new / base:.2f}"

    print(f"\nServer CPU ms, {before} ({kept[before]['commit']}) → {after} "
          f"({kept[after]['commit']}); ratio = {after} / {before}")
    print("| link | page | first view ms | ratio | per interaction ms | ratio |")
    print("|---|---|---|---|---|---|")
    totals = [0, 0, 0, 0]
    for row in kept[after]["pages"]:
        base = old.get(row["link"])
        if base is None:
            continue
        print(f"| {row['link']} | {row['page']} | {ms(base['first_view_cpu_ms'])} → "
              f"{ms(row['first_view_cpu_ms'])} | "
              f"{ratio(row['first_view_cpu_ms'], base['first_view_cpu_ms'])} | "
              f"{ms(base['change_cpu_ms'])} → {ms(row['change_cpu_ms'])} | "
              f"{ratio(row['change_cpu_ms'], base['change_cpu_ms'])} |")
        if row["change_cpu_ms"] is not None and base["change_cpu_ms"] is not None:
            totals[0] += base["first_view_cpu_ms"]
            totals[1] += row["first_view_cpu_ms"]
            totals[2] += base["change_cpu_ms"]
            totals[3] += row["change_cpu_ms"]
    print(f"| all pages (sum) | | {totals[0]} → {totals[1]} | {ratio(totals[1], totals[0])} "
          f"| {totals[2]} → {totals[3]} | {ratio(totals[3], totals[2])} |")


# -- report --------------------------------------------------------------------------------
def _fmt(stats: dict) -> str:
    if not stats["n"]:
        return "–"
    return f"{stats['median']:.2f} / {stats['p95']:.2f} / {stats['worst']:.2f}"


def meets_target(r: dict) -> bool:
    """The issue's targets for the run's mix: no errors, refusals, drops or mixing, p95
    interaction (and, for the lab, p95 first view) within target, peak memory within; a
    lab on one core with empty caches: :data:`TARGET_ONE_CORE_LAB`."""
    if r.get("mix") == "lab" and r.get("one_core") and r.get("empty_cache"):
        return meets_one_core_lab(r)
    p95 = r["interaction_s"]["p95"]
    first = TARGET_FIRST_VIEW_S.get(r.get("mix", "lecture"))
    return (r["errors"] == 0 and r["mixed"] == 0 and r.get("refused", 0) == 0
            and r.get("dropped", 0) == 0 and p95 is not None
            and p95 <= TARGET["p95_interaction_s"]
            and (first is None or (r["first_view_s"]["p95"] is not None
                                   and r["first_view_s"]["p95"] <= first))
            and r["peak_rss_mb"] <= TARGET["rss_gb"] * 1024)


def meets_one_core_lab(r: dict) -> bool:
    target, first, change = TARGET_ONE_CORE_LAB, r["first_view_s"], r["interaction_s"]
    return (r["errors"] == 0 and r["mixed"] == 0 and r["refused"] == 0
            and r["dropped"] == 0 and first["n"] > 0 and change["n"] > 0
            and first["median"] <= target["first_view_median_s"]
            and first["p95"] <= target["first_view_p95_s"]
            and change["p95"] <= target["change_p95_s"]
            and r["peak_rss_mb"] <= target["rss_gb"] * 1024)


def print_table(results: list[dict]) -> None:
    print("\n| mix | N | server | refused / dropped | errors | mixing | first view s "
          "(median / p95 / worst) | interaction s (median / p95 / worst) | CPU s / request "
          "arriving | CPU s / interaction | server CPU (cores) | peak RSS MB | settled RSS "
          "MB (connected / left) | load avg (arrival / during) | machine busy | meets "
          "target |")
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    for r in results:
        ok = meets_target(r)
        cpu, arriving = r["server_cpu_s_per_interaction"], r["server_cpu_s_per_request_arriving"]
        server = f"{r['replicas']} replica(s)" + "".join(
            f", {flag}" for flag, on in (("one core", r.get("one_core")),
                                         ("empty cache", r.get("empty_cache"))) if on)
        print(f"| {r['mix']} | {r['students']} | {server} | {r['refused']} / "
              f"{r['dropped']} | {r['errors']} | {r['mixed']} | {_fmt(r['first_view_s'])} "
              f"| {_fmt(r['interaction_s'])} | "
              f"{'–' if arriving is None else f'{arriving:.3f}'} | "
              f"{'–' if cpu is None else f'{cpu:.3f}'} | "
              f"{r['server_cpu_share_steady']:.2f} | {r['peak_rss_mb']:.0f} | "
              f"{r['settled_rss_connected_mb']:.0f} / {r['settled_rss_after_mb']:.0f} | "
              f"{r['load_average_arrival'][0]:.1f} / {r['load_average_during'][0]:.1f} | "
              f"{r['machine_cpu_busy_pct']:.0f} % | {'yes' if ok else 'no'} |")
    for r in results:
        for row in r.get("per_replica", []):
            print(f"  {r['mix']} N = {r['students']}: {row['replica']} opened "
                  f"{row['students_opened']} students, {row['cpu_s_steady']:.0f} CPU s, "
                  f"peak RSS {row.get('peak_rss_mb', 0):.0f} MB")
    for r in results:
        slow = ", ".join(f"{v['seconds']:.1f} s ({v['link']}, {v['replica'] or 'server'}, "
                         f"began at {v['began_s']:.0f} s)" for v in r["slowest_first_views"][:5])
        print(f"  {r['mix']} N = {r['students']}: slowest first views: {slow}")
    print(f"Target: {TARGET['students']} students, p95 interaction ≤ "
          f"{TARGET['p95_interaction_s']} s (lab: p95 first view ≤ "
          f"{TARGET_FIRST_VIEW_S['lab']} s), 0 refused, dropped, errors or mixing, "
          f"≤ {TARGET['rss_gb']} GB.")
    one = TARGET_ONE_CORE_LAB
    print(f"A lab on one core, empty caches: first view median ≤ "
          f"{one['first_view_median_s']:g} s and p95 ≤ {one['first_view_p95_s']:g} s, "
          f"change p95 ≤ {one['change_p95_s']:g} s, 0 refused, ≤ {one['rss_gb']:g} GB.")


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--students", type=int, nargs="+", default=[25, 50, 100, 200])
    parser.add_argument("--mix", nargs="+", choices=sorted(MIXES), default=["lecture"],
                        help="how the class uses the app: the lecture (most on the tour's "
                        "view) or the lab (each on the Explorer alone); several: each N "
                        "is run for each mix")
    parser.add_argument("--minutes", type=float, default=3.0,
                        help="how long the class changes settings, after everyone arrived")
    parser.add_argument("--arrival", type=float, default=30.0,
                        help="seconds over which the class opens its links")
    parser.add_argument("--pause", type=float, nargs=2, default=[10.0, 20.0],
                        metavar=("MIN", "MAX"), help="seconds between a student's changes")
    parser.add_argument("--settle", type=float, default=15.0,
                        help="seconds of quiet before the settled RSS is read")
    parser.add_argument("--timeout", type=float, default=180.0, help="per request")
    parser.add_argument("--connect-timeout", type=float, default=20.0,
                        help="seconds for the page, health check and websocket handshake "
                        "of a student's first view (beyond: refused)")
    parser.add_argument("--url", help="an app already running (else one is started)")
    parser.add_argument("--server-pid", type=int, nargs="*",
                        help="with --url: the server processes to measure")
    parser.add_argument("--replicas", type=int, default=1,
                        help="≥ 2: that many replicas behind HAProxy (deploy/replicas.py)")
    parser.add_argument("--uploads", type=int, default=0, help="students who upload a CSV")
    parser.add_argument("--kill-replica", type=float, default=None, metavar="SECONDS",
                        help="kill replica 1 this long after the class has arrived")
    parser.add_argument("--fresh-server", action="store_true",
                        help="a new server for each N (else one server for all)")
    parser.add_argument("--cpu-by-page", action="store_true",
                        help="then each page alone: CPU per first view and per change")
    parser.add_argument("--repeats", type=int, default=6, help="changes per page (by page)")
    parser.add_argument("--profile", action="store_true",
                        help="with --cpu-by-page: py-spy the server's reruns per page")
    parser.add_argument("--links", nargs="+", metavar="NAME",
                        help="with --cpu-by-page: only these links (loadtest/class_plan.py)")
    parser.add_argument("--store", metavar="LABEL",
                        help="with --cpu-by-page: keep the figures under LABEL (e.g. before, "
                        "after) in loadtest/results/cpu_by_page.json and print "
                        "them against 'before'")
    parser.add_argument("--shared-cache", metavar="DIR",
                        help="the servers' shared cache on disk (default: the app's, "
                        "$KPCA_SHARED_CACHE or ~/.cache/kpca-lab/shared; off: none)")
    parser.add_argument("--one-core", action="store_true",
                        help="the server pinned to core 0 (taskset -c 0), as a one-core "
                        "container; one server only")
    parser.add_argument("--empty-cache", action="store_true",
                        help="each server's caches on disk ($KPCA_CACHE_DIR and the shared "
                        "cache) in a fresh, empty directory, removed when it stops")
    parser.add_argument("--fill-shared-cache", action="store_true",
                        help="fill it up front with every lab setting (as the servers do "
                        "in the background; what is there is skipped) and report its size "
                        "and build time")
    parser.add_argument("--streamlit-option", action="append", default=[],
                        metavar="NAME=VALUE",
                        help="passed to streamlit run, e.g. runner.postScriptGC=false")
    parser.add_argument("--workdir", help="server logs (default benchmarks/results/servers)")
    parser.add_argument("--out", help="JSON output (default benchmarks/results/...)")
    args = parser.parse_args(argv)
    if args.one_core and (args.replicas >= 2 or args.url):
        parser.error("--one-core pins the one server this run starts: not with --replicas "
                     "or --url")
    if args.empty_cache and (args.shared_cache or args.fill_shared_cache or args.url):
        parser.error("--empty-cache starts from empty caches: not with --shared-cache, "
                     "--fill-shared-cache or --url")

    RESULTS.mkdir(parents=True, exist_ok=True)
    results, by_page = [], []
    target = None
    cache_report = fill_shared_cache(args) if args.fill_shared_cache else None
    try:
        for mix, n in itertools.product(args.mix, [n for n in args.students if n > 0]):
            if target is None or args.fresh_server:
                if target is not None:
                    target.stop()
                target = start_target(args)
            print(f"== {n} students, {mix} mix, on {target.url} (load average "
                  f"{os.getloadavg()[0]:.1f})", flush=True)
            results.append(run_class(target, n, args, MIXES[mix]))
            print(json.dumps({k: v for k, v in results[-1].items()
                              if k not in ("problems", "disconnect_log")}, default=str),
                  flush=True)
        if args.cpu_by_page:
            if target is None:
                target = start_target(args)
            print("== each page alone (CPU seconds of the server)", flush=True)
            by_page = cpu_by_page(target, args)
    finally:
        if target is not None and not args.url:
            target.stop()
    if results:
        print_table(results)
    if by_page and args.store:
        print_by_page(store_by_page(by_page, args.store), after=args.store)
    out = Path(args.out or RESULTS / f"load_students-{time.strftime('%Y%m%d-%H%M%S')}.json")
    out.write_text(json.dumps({"runs": results, "by_page": by_page,
                               "shared_cache": cache_report,
                               "command": sys.argv}, indent=1, default=str))
    print(f"written {out}")
    return results


if __name__ == "__main__":
    main()
