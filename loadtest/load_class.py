"""A class with its lecturer, played over Streamlit's own protocol: phones join, follow the
lecturer's steps and vote; on replicas behind HAProxy that share the class in Redis.

    python loadtest/load_class.py --phones 300 --arrival 30 --think 20   # issue 49's room
    python loadtest/load_class.py --phones 8 --arrival 4 --steps 2 5     # a smoke run

A lecturer (one :class:`st_client.StreamlitSession`) starts a class on *Class tally* and
opens the first step of ``--steps`` (each a tour step with a question); the phones open
the class's link (``/tour?class=CODE``, the QR code's), spread evenly over ``--arrival``
seconds, land on the lecturer's step, read its question (a time drawn between 0 and
``--think`` seconds) and vote. Once every phone has voted (or ``--step-timeout`` has
passed) the lecturer presses Next to the next step and the phones follow it. Every
session runs its page's fragment timers as the browser does (the phones' poll of the
class, ``classroom/follow.py``; the lecturer's counts, ``classroom/lecturer.py``): only
the fragment runs, unless it asks for the whole page.

Reported: first view (opening the link until the step's question is on the phone: p50,
p95, worst); answer → the vote in the store the replicas share (Redis, read here as any
replica reads it) and answer → the lecturer's count (the k-th answer told counted against
the moment round 1's count on the lecturer's screen reached k); following (the lecturer's
Next until the phone shows the new question); per step the votes the phones were told were
counted against the votes the store holds (lost or double votes); errors. Target (issue
49, 300 phones on two replicas): answer → the lecturer's count p95 ≤ 2 s, 0 lost or double
votes, first view p95 ≤ 3 s; the phones follow the lecturer within 2 s.
"""

from __future__ import annotations

import argparse
import math
import random
import re
import sys
import tempfile
import threading
import time
from collections import deque
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path
from urllib.parse import parse_qsl

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from classroom.questions import CATALOGUE  # noqa: E402
from classroom.tally import Limits, UnknownClass  # noqa: E402
from classroom.tally_redis import RedisStore, connect  # noqa: E402
from classroom.tour import STEPS, tally_id  # noqa: E402
from deploy.replicas import Cluster  # noqa: E402
from loadtest.st_client import StreamlitSession  # noqa: E402


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
        self.uncounted: list[str] = []  # answers whose run did not say they were counted
        self.behind: list[str] = []  # phones that had not answered the last step
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


class Timers:
    """A browser's fragment timers for one session (``st.fragment(run_every=...)``): each
    fires every interval; a full run of the page starts them afresh."""

    def __init__(self, session: StreamlitSession) -> None:
        self.session = session
        self.due: dict[str, float] = {}

    def after(self, run) -> None:
        if not run.fragment_only:
            self.due.clear()

    def wait_and_fire(self, stop: threading.Event, until: float = math.inf):
        """Listen until the next timer is due and run it, or until the server starts a run
        of its own (a nudge: server/nudge.py), and return that run; None, having run
        nothing, when ``stop`` is set or the time ``until`` (``time.monotonic()``) comes
        first."""
        now = time.monotonic()
        timers = self.session.timers
        self.due = {fid: self.due.get(fid, now + interval) for fid, interval in timers.items()}
        fragment_id = min(self.due, key=self.due.__getitem__) if self.due else None
        due = self.due[fragment_id] if fragment_id else math.inf
        while (now := time.monotonic()) < min(due, until):
            if stop.is_set():
                return None
            if (run := self.session.await_run(min(0.5, min(due, until) - now))) is not None:
                self.after(run)
                return run
        if stop.is_set() or due > until:
            return None
        interval = timers[fragment_id]
        run = self.session.rerun_fragment(fragment_id)
        self.due[fragment_id] = max(due + interval, time.monotonic())
        self.after(run)
        return run


def _seen(run, started: float, what: str = "") -> str:
    """One run, in a line: when (s from the phone's start), what, where it left the phone."""
    kind = what or ("fragment" if run.fragment_only else f"{run.page_runs} page run(s)")
    return (f"{time.monotonic() - started:.1f} s {kind} → {run.page} "
            f"tour={dict(parse_qsl(run.query_string)).get('tour')}")


def left_behind(lecture: Lecture, number: int, session: StreamlitSession, step: int,
                seen) -> None:
    """A phone that did not answer ``step`` before the lecturer went on: what it had."""
    with lecture.lock:
        lecture.behind.append(
            f"phone {number}, step {step}: on {session.page_name} "
            f"tour={dict(parse_qsl(session.query_string)).get('tour')}, the question on "
            f"screen: {on_step(session, step)}, timers {sorted(session.timers.values())}; "
            f"its last runs: {list(seen)}")


def on_step(session: StreamlitSession, step: int) -> bool:
    """Is ``step``'s question on this session's screen?"""
    query = dict(parse_qsl(session.query_string))
    return query.get("tour") == str(step) and question_of(step) in session.widgets


def phone(url: str, code: str, number: int, arrival_s: float, lecture: Lecture,
          timeout: float, think: float = 0.0) -> None:
    """A phone: opens the class's link, answers each step's question once it is on screen
    (after a reading time drawn between 0 and ``think`` seconds), and otherwise runs its
    page's fragment timers, as the browser does (the class's poll: classroom/follow.py),
    which bring it to the lecturer's next step."""
    session = StreamlitSession(url, timeout=timeout, connect_timeout=20)
    reading = random.Random(number)
    timers = Timers(session)
    time.sleep(arrival_s)
    try:
        started = time.monotonic()
        timers.after(ok(session.open("tour", f"class={code}"), "open"))
        replica = session.http.cookies.get("KPCA_REPLICA", "server")
        with lecture.lock:
            lecture.replicas[replica] = lecture.replicas.get(replica, 0) + 1
        answered: set[int] = set()
        answer_at: dict[int, float] = {}  # step → when this student has read its question
        seen: deque[str] = deque(maxlen=6)  # its last runs, for a phone left behind
        step = lecture.step
        while not lecture.done.is_set():
            if lecture.step != step and step not in answered:
                left_behind(lecture, number, session, step, seen)
            step = lecture.step
            if step not in answered and step not in answer_at and on_step(session, step):
                now = time.monotonic()
                answer_at[step] = now + reading.uniform(0.0, think)
                with lecture.lock:
                    if not answered:
                        lecture.first_view.append(now - started)
                    else:
                        lecture.follow.append(now - lecture.moved_at)
            if step in answered or time.monotonic() < answer_at.get(step, math.inf):
                until = math.inf if step in answered else answer_at.get(step, math.inf)
                if (run := timers.wait_and_fire(lecture.done, until)) is not None:
                    ok(run, "poll")
                    seen.append(_seen(run, started))
                continue
            label = question_of(step)
            options = session.widgets[label].options
            sent = time.time()
            run = ok(session.set_widget(label, options[number % len(options)]), "answer")
            seen.append(_seen(run, started, "answer"))
            timers.after(run)
            answered.add(step)
            with lecture.lock:
                lecture.answers[step].append((sent, time.time()))
                if "Counted anonymously" in run.all_text():
                    lecture.counted[step] += 1
                else:  # what the student saw instead (its words, not the page's CSS)
                    words = [text for text in run.texts if not text.startswith("<")]
                    lecture.uncounted.append(
                        f"phone {number}, step {step}: {_seen(run, started, 'answer')}, "
                        f"{len(run.texts)} texts: {' | '.join(words)[:400]!r}; before: "
                        f"{list(seen)[:-1]}")
        if lecture.step not in answered:
            left_behind(lecture, number, session, lecture.step, seen)
    except Exception as error:  # noqa: BLE001 - counted, the class goes on
        with lecture.lock:
            lecture.errors.append(f"phone {number}: {type(error).__name__}: {error}")
    finally:
        session.close()


def watch_counts(client, code: str, lecture: Lecture, seen: dict[int, list[float]]) -> None:
    """When the store's count of each step's round 1 reached 1, 2, 3 … votes. Read as the
    number of round-1 fields in the step's question hash (``…:q:<id>``, fields
    ``<round>|<token>``: classroom/tally_redis.py), only for the steps still short of a
    vote per phone: the store's whole tally, twenty times a second, took this client more
    of the machine's CPU than its 300 phones (the final counts are the store's own)."""
    while not lecture.done.is_set():
        for number, times in seen.items():
            if len(times) >= lecture.phones:
                continue
            fields = client.hkeys(f"kpca:class:{{{code}}}:q:{tally_id(number)}")
            total = sum(1 for field in fields if field.startswith("1|"))
            now = time.time()
            while len(times) < total:
                times.append(now)
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


ROUND_1 = re.compile(r"\*\*Round 1\*\* · (\d+) votes?")


def shown_count(run) -> int | None:
    """Round 1's count on the lecturer's screen (the compact tally beside the question)."""
    for text in run.texts:
        if match := ROUND_1.search(text):
            return int(match.group(1))
    return None


def move_to(lecturer: StreamlitSession, step: int):
    """The lecturer goes on from the open step's view with Next → up to ``step``'s view
    (each step it opens is the class's: the phones follow); the last Next's run."""
    run = None
    while (at := int(dict(parse_qsl(lecturer.query_string))["tour"])) < step:
        run = ok(lecturer.click("Next →"), f"the lecturer's Next → at step {at}")
    return run


def play(url: str, store_url: str, phones: int, arrival: float, steps: list[int],
         step_timeout: float, timeout: float, think: float = 0.0) -> dict:
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
    watcher = threading.Thread(target=watch_counts, args=(client, code, lecture, seen),
                               daemon=True)
    watcher.start()
    timers, never = Timers(lecturer), threading.Event()
    shown: dict[int, list[float]] = {s: [] for s in steps}  # the lecturer's count reached k
    with ThreadPoolExecutor(max_workers=phones) as pool:
        for i in range(phones):
            pool.submit(phone, url, code, i, i * arrival / phones, lecture, timeout, think)
        try:
            for index, step in enumerate(steps):
                if index:
                    # From the lecturer's click: the phones cannot move before it.
                    lecture.moved_at, lecture.step = time.monotonic(), step
                    timers.after(move_to(lecturer, step))  # a page run: timers anew
                deadline = time.monotonic() + step_timeout + think + (arrival if index == 0 else 0)
                while (len(shown[step]) < lecture.voted(step)
                       or lecture.voted(step) < phones - len(lecture.errors)) and \
                        time.monotonic() < deadline:
                    if (run := timers.wait_and_fire(never)) is None:
                        continue  # (a lecturer's view always has its counts' timer)
                    if (count := shown_count(ok(run, "the lecturer's count"))) is not None:
                        now = time.time()
                        while len(shown[step]) < count:
                            shown[step].append(now)
            time.sleep(1.0)  # the watcher's last look
        except Exception as error:  # noqa: BLE001 - the lecturer failed: said, and the
            # phones are let go (else the pool would wait for them forever)
            with lecture.lock:
                lecture.errors.append(f"lecturer: {type(error).__name__}: {error}")
        finally:
            lecture.done.set()
    watcher.join(timeout=5)
    to_store, to_screen = [], []
    for step in steps:  # the k-th answer told counted ↔ the k-th vote seen
        done = sorted(lecture.answers[step], key=lambda pair: pair[1])
        to_store += [visible - sent for (sent, _done), visible
                     in zip(done, seen[step], strict=False)]
        to_screen += [visible - sent for (sent, _done), visible
                      in zip(done, shown[step], strict=False)]
    try:
        tally, joined = store.tally(code, key), store.students(code, key)
    except UnknownClass:  # the class ended under the lecturer (said in the errors)
        tally, joined = {}, 0
        lecture.errors.append("the class had ended when the run was over")
    report = {
        "code": code, "phones": phones, "joined": joined,
        "first_view_s": lecture.first_view, "answer_to_store_s": to_store,
        "answer_to_lecturer_s": to_screen,
        "follow_s": lecture.follow, "errors": lecture.errors, "replicas": lecture.replicas,
        "uncounted": lecture.uncounted, "behind": lecture.behind,
        "steps": {step: {"told_counted": lecture.counted[step],
                         "in_store": sum(c.chosen for c in tally[tally_id(step)].rounds[0])
                         if tally_id(step) in tally else 0}
                  for step in steps},
    }
    if tally:
        store.close_class(code, key)
    lecturer.close()
    client.close()
    return report


def main(argv: list[str] | None = None) -> dict:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--phones", type=int, default=300)
    parser.add_argument("--arrival", type=float, default=30.0, help="seconds to join")
    parser.add_argument("--steps", type=int, nargs="+", default=[2, 3, 4, 5],
                        help="tour steps with a question, in order (the lecturer opens "
                             "every step between two of them too: the phones follow it)")
    parser.add_argument("--replicas", type=int, default=2, help="≥ 2 (the class in Redis)")
    parser.add_argument("--url", help="a running app behind HAProxy (with --store)")
    parser.add_argument("--store", help="its KPCA_CLASS_STORE (redis://host:port/db)")
    parser.add_argument("--think", type=float, default=0.0,
                        help="each student reads a question for a time drawn between 0 and "
                             "this many seconds before answering (0: at once)")
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
                      args.timeout, args.think)
    finally:
        if cluster is not None:
            cluster.stop()
    print(f"{args.phones} phones on {url} in {time.monotonic() - started:.0f} s; "
          f"joined {report['joined']}; errors {len(report['errors'])}; phones per replica "
          + ", ".join(f"{name} {count}" for name, count in sorted(report["replicas"].items())))
    print(_line("first view", report["first_view_s"]))
    print(_line("answer → count in the store", report["answer_to_store_s"]))
    print(_line("answer → the lecturer's count", report["answer_to_lecturer_s"]))
    print(_line("following the lecturer", report["follow_s"]))
    for step, counts in report["steps"].items():
        # More told counted than stored: lost votes. Fewer: a double vote (a phone on a
        # second seat), or a vote counted whose page, as the client took it, did not say
        # so (listed below, with what it said instead).
        told, stored = counts["told_counted"], counts["in_store"]
        said = ("no lost or double vote" if told == stored else
                f"{told - stored} lost" if told > stored else
                f"{stored - told} more in the store than told counted")
        print(f"step {step}: {told} told counted, {stored} in the store ({said})")
    for error in report["errors"][:10]:
        print("  ", error)
    for answer in report["uncounted"][:10]:
        print("   not told counted:", answer)
    for phone_left in report["behind"][:10]:
        print("   left behind:", phone_left)
    return report


if __name__ == "__main__":
    main()
