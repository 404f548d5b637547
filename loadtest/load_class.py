"""A class with its lecturer, played over Streamlit's own protocol: phones join, follow the
lecturer's steps and vote; on replicas behind HAProxy that share the class in Redis.

    python loadtest/load_class.py --phones 300 --arrival 30 --replicas 2   # issue 49's room
    python loadtest/load_class.py --phones 8 --arrival 4 --steps 2 5       # a smoke run

A lecturer (one :class:`st_client.StreamlitSession`) starts a class on *Class tally* and
opens the first step of ``--steps`` (each a tour step with a question); the phones open
the class's link (``/tour?class=CODE``, the QR code's), spread evenly over ``--arrival``
seconds, land on the lecturer's step and vote; once every phone has voted (or
``--step-timeout`` has passed) the lecturer opens the next step and the phones follow it:
each one reruns its page every 2 s, as its poll does, until the new question is there.
The class's state is read from the store the replicas share (the Redis that
``deploy/replicas.py`` starts), as any replica reads it, so nothing here adds to the
lecturer's page.

Reported: first view (opening the link until the step's question is on the phone: p50,
p95, worst), answer → the vote in the store (p50, p95, worst; the lecturer's page shows
it within its 2 s redraw on top), following (the lecturer's move until the phone shows
the new question), and per step the votes the phones were told were counted against the
votes the store holds (lost or double votes), and errors. Target (issue 49, 300 phones on
two replicas): answer → count p95 ≤ 2 s with the redraw, 0 lost or double votes, first
view p95 ≤ 3 s with the tour prepared.
"""

from __future__ import annotations

import argparse
import math
import re
import sys
import tempfile
import threading
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from classroom.questions import CATALOGUE  # noqa: E402
from classroom.tally import Limits  # noqa: E402
from classroom.tally_redis import RedisStore, connect  # noqa: E402
from classroom.tour import STEPS, tally_id  # noqa: E402
from deploy.replicas import Cluster  # noqa: E402
from loadtest.st_client import StreamlitSession  # noqa: E402

POLL_S = 2.0  # a phone's poll of the class (classroom/follow.py)


def question_of(step: int) -> str:
    return CATALOGUE[STEPS[step - 1].check][0]


class Lecture:
    """The class as it goes: the lecturer's step, when it moved, what each phone saw."""

    def __init__(self, steps: list[int], phones: int) -> None:
        self.steps, self.phones = steps, phones
        self.step = steps[0]
        self.moved_at = time.monotonic()
        self.first_view: list[float] = []
        self.follow: list[float] = []
        self.answers: dict[int, list[tuple[float, float]]] = {s: [] for s in steps}
        self.counted: dict[int, int] = dict.fromkeys(steps, 0)
        self.errors: list[str] = []
        self.replicas: dict[str, int] = {}  # the affinity cookie → phones on that replica
        self.done = threading.Event()
        self.lock = threading.Lock()

    def voted(self, step: int) -> int:
        with self.lock:
            return len(self.answers[step])


def ok(run, what: str):
    if not run.finished or run.exceptions or run.error_boxes:
        raise RuntimeError(f"{what}: {run.problem or run.exceptions or run.error_boxes}")
    return run


def phone(url: str, code: str, number: int, arrival_s: float, lecture: Lecture,
          timeout: float) -> None:
    session = StreamlitSession(url, timeout=timeout, connect_timeout=20)
    time.sleep(arrival_s)
    try:
        started = time.monotonic()
        ok(session.open("tour", f"class={code}"), "open")
        replica = session.http.cookies.get("KPCA_REPLICA", "server")
        with lecture.lock:
            lecture.replicas[replica] = lecture.replicas.get(replica, 0) + 1
        seen = None
        while not lecture.done.is_set():
            step = lecture.step
            label = question_of(step)
            if label not in session.widgets:
                time.sleep(POLL_S)
                ok(session.rerun(), "poll")
                continue
            if seen is None:
                with lecture.lock:
                    lecture.first_view.append(time.monotonic() - started)
            elif seen != step:
                with lecture.lock:
                    lecture.follow.append(time.monotonic() - lecture.moved_at)
            seen = step
            options = session.widgets[label].options
            sent = time.time()
            run = ok(session.set_widget(label, options[number % len(options)]), "answer")
            with lecture.lock:
                lecture.answers[step].append((sent, time.time()))
                if "Counted anonymously" in run.all_text():
                    lecture.counted[step] += 1
            while lecture.step == step and not lecture.done.is_set():
                time.sleep(0.2)
    except Exception as error:  # noqa: BLE001 - counted, the class goes on
        with lecture.lock:
            lecture.errors.append(f"phone {number}: {type(error).__name__}: {error}")
    finally:
        session.close()


def watch_counts(store: RedisStore, code: str, key: str, lecture: Lecture,
                 seen: dict[int, list[float]]) -> None:
    """When the store's count of each step's round 1 reached 1, 2, 3 … votes."""
    while not lecture.done.is_set():
        for step, tally in store.tally(code, key).items():
            number = int(step.removeprefix("tour"))
            if number in seen:
                total = sum(c.chosen for c in tally.rounds[0])
                now = time.time()
                while len(seen[number]) < total:
                    seen[number].append(now)
        time.sleep(0.05)


def _p(values: list[float], q: int) -> float:
    """The ``q``-th percentile, by nearest rank."""
    ordered = sorted(values)
    return ordered[max(0, math.ceil(q / 100 * len(ordered)) - 1)]


def _line(name: str, values: list[float]) -> str:
    if not values:
        return f"{name}: none"
    return (f"{name}: p50 {_p(values, 50):.2f} s, p95 {_p(values, 95):.2f} s, "
            f"worst {max(values):.2f} s (n = {len(values)})")


def move_to(lecturer: StreamlitSession, step: int) -> None:
    """The lecturer goes on from the open step's view with Next → up to ``step``'s view
    (each step it opens is the class's: the phones follow)."""
    while (at := int(dict(parse_qsl(lecturer.query_string))["tour"])) < step:
        ok(lecturer.click("Next →"), f"the lecturer's Next → at step {at}")


def play(url: str, store_url: str, phones: int, arrival: float, steps: list[int],
         step_timeout: float, timeout: float) -> dict:
    lecture = Lecture(steps, phones)
    lecturer = StreamlitSession(url, timeout=timeout)
    ok(lecturer.open("class_tally"), "lecturer")
    text = ok(lecturer.click("Start a class"), "start").all_text()
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", text).group(1).replace(" ", "")
    ok(lecturer.navigate("tour", f"step={steps[0]}"), "lecturer's step")
    ok(lecturer.click("Open this view"), "lecturer's view")
    client = connect(store_url)
    store = RedisStore(client, Limits())
    key = client.hget(f"kpca:class:{{{code}}}", "key")
    seen: dict[int, list[float]] = {s: [] for s in steps}
    watcher = threading.Thread(target=watch_counts, args=(store, code, key, lecture, seen),
                               daemon=True)
    watcher.start()
    with ThreadPoolExecutor(max_workers=phones) as pool:
        for i in range(phones):
            pool.submit(phone, url, code, i, i * arrival / phones, lecture, timeout)
        try:
            for index, step in enumerate(steps):
                if index:
                    move_to(lecturer, step)
                    lecture.moved_at, lecture.step = time.monotonic(), step
                deadline = time.monotonic() + step_timeout + (arrival if index == 0 else 0)
                while lecture.voted(step) < phones - len(lecture.errors) and \
                        time.monotonic() < deadline:
                    time.sleep(0.2)
            time.sleep(1.0)  # the watcher's last look
        except Exception as error:  # noqa: BLE001 - the lecturer failed: said, and the
            # phones are let go (else the pool would wait for them forever)
            with lecture.lock:
                lecture.errors.append(f"lecturer: {type(error).__name__}: {error}")
        finally:
            lecture.done.set()
    watcher.join(timeout=5)
    latencies = []
    for step in steps:
        done = sorted(lecture.answers[step], key=lambda pair: pair[1])
        latencies += [visible - sent for (sent, _done), visible
                      in zip(done, seen[step], strict=False)]
    tally = store.tally(code, key)
    report = {
        "code": code, "phones": phones, "joined": store.students(code, key),
        "first_view_s": lecture.first_view, "answer_to_count_s": latencies,
        "follow_s": lecture.follow, "errors": lecture.errors, "replicas": lecture.replicas,
        "steps": {step: {"told_counted": lecture.counted[step],
                         "in_store": sum(c.chosen for c in tally[tally_id(step)].rounds[0])
                         if tally_id(step) in tally else 0}
                  for step in steps},
    }
    store.close_class(code, key)
    lecturer.close()
    client.close()
    return report


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--arrival", type=float, default=30.0, help="seconds to join")
    parser.add_argument("--steps", type=int, nargs="+", default=[2, 5],
                        help="tour steps with a question, in order")
    parser.add_argument("--replicas", type=int, default=2, help="≥ 2 (the class in Redis)")
    parser.add_argument("--url", help="a running app behind HAProxy (with --store)")
    parser.add_argument("--store", help="its KPCA_CLASS_STORE (redis://host:port/db)")
    parser.add_argument("--step-timeout", type=float, default=60.0)
    parser.add_argument("--timeout", type=float, default=120.0, help="per request")
    args = parser.parse_args(argv)
    if any(not STEPS[s - 1].check for s in args.steps if 1 <= s <= len(STEPS)) or any(
            not 1 <= s <= len(STEPS) for s in args.steps):
        parser.error("every --steps entry must be a tour step with a question")
    if args.url and not args.store:
        parser.error("--url needs --store: the Redis its replicas share")
    if not args.url and args.replicas < 2:
        parser.error("--replicas must be 2 or more: the class lives in their shared Redis")
    cluster = None
    if not args.url:
        cluster = Cluster(args.replicas, workdir=Path(tempfile.mkdtemp(prefix="kpca-class-")))
    try:
        url, store = (args.url, args.store) if args.url else (cluster.url, cluster.redis.url)
        started = time.monotonic()
        report = play(url, store, args.phones, args.arrival, args.steps, args.step_timeout,
                      args.timeout)
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"{args.phones} phones on {url} in {time.monotonic() - started:.0f} s; "
          f"joined {report['joined']}; errors {len(report['errors'])}; phones per replica "
          + ", ".join(f"{name} {count}" for name, count in sorted(report["replicas"].items())))
    print(_line("first view", report["first_view_s"]))
    print(_line("answer → count in the store", report["answer_to_count_s"]))
    print(_line("following the lecturer", report["follow_s"]))
    for step, counts in report["steps"].items():
        lost = counts["told_counted"] - counts["in_store"]
        print(f"step {step}: {counts['told_counted']} told counted, {counts['in_store']} in "
              f"the store ({'no lost or double vote' if lost == 0 else f'{lost:+d} lost'})")
    for error in report["errors"][:10]:
        print("  ", error)
    return report


if __name__ == "__main__":
    main()
