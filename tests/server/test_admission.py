"""Admission control, with real threads: lanes, turns, order, places, sessions, budgets."""

from __future__ import annotations

import re
import threading
import time
from contextlib import contextmanager

import pytest

from datasets import drawn
from server.admission import AdmissionControl, Lane, estimate_seconds, lane_for
from server.costs import Estimate
from shell.registry import LESSONS

# The order of turns is read from real threads arriving tens of milliseconds apart: these
# run alone (scripts/test.sh), never beside another test worker that would reorder them.
pytestmark = pytest.mark.solo

MB = 2**20


def one_lane(share: int, slots: int = 1) -> AdmissionControl:
    """A control with only a heavy lane of ``slots`` and ``share`` (tickets here are big or
    long: more than SMALL_BYTES or SMALL_SECONDS)."""
    return AdmissionControl(share, lanes={"quick": Lane(2, 0), "small": Lane(1, 0),
                                          "upload": Lane(1, 0), "heavy": Lane(slots, share)})


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.most_active = 0
        self.most_held = 0
        self.started: list[str] = []
        self.waits: dict[str, list] = {}

    def job(self, control, name, n_bytes, hold_s=0.15, estimate_s=30.0, session=None,
            at_least=False):
        def on_wait(wait):
            self.waits.setdefault(name, []).append(wait)

        with control.admit(n_bytes, estimate=Estimate(estimate_s, at_least), session=session,
                           on_wait=on_wait, poll_s=0.02):
            with self.lock:
                self.started.append(name)
                self.active += 1
                self.most_active = max(self.most_active, self.active)
                self.most_held = max(self.most_held, control.held_bytes())
            time.sleep(hold_s)
            with self.lock:
                self.active -= 1


def _start(target, *args, **kwargs) -> threading.Thread:
    thread = threading.Thread(target=target, args=args, kwargs=kwargs)
    thread.start()
    return thread


def test_big_requests_take_turns_in_arrival_order_and_learn_their_place():
    control = one_lane(1500 * MB)
    record = Recorder()
    threads = []
    for name in ("a", "b", "c"):
        threads.append(_start(record.job, control, name, 425 * MB, 0.15, 20.0))
        time.sleep(0.03)  # arrive in order
    for thread in threads:
        thread.join(timeout=10)
    assert record.started == ["a", "b", "c"]
    assert record.most_active == 1
    assert "a" not in record.waits
    assert record.waits["b"][0].place == 1 and record.waits["c"][0].place == 2
    # c waits for a's remaining time plus b's whole estimate: more than b's wait.
    assert record.waits["c"][0].seconds > record.waits["b"][0].seconds >= 19.0
    assert "about" in record.waits["c"][0].text()
    assert control.running == 0 and control.waiting == 0


def test_each_ticket_finds_its_lane_by_bytes_and_estimated_time():
    assert lane_for(1 * MB, Estimate(0.1)) == "quick"
    assert lane_for(1 * MB, Estimate(0.1, at_least=True)) == "small"  # unbounded: not quick
    assert lane_for(100_000_000, Estimate(3.0)) == "small"  # the Explorer at n = 2,500
    assert lane_for(1 * MB, Estimate(60.0)) == "heavy"  # small but long (a long curve)
    assert lane_for(425 * MB, Estimate(4.0)) == "heavy"  # the full USPS
    assert lane_for(1 * MB, Estimate(0.1), upload=True) == "upload"


def test_the_default_lanes_share_the_budget_and_leave_most_to_heavy_work():
    control = AdmissionControl(1536 * MB)
    assert sum(lane.share for lane in control.lanes.values()) == 1536 * MB
    assert control.lanes["heavy"].share > 2 * 425 * MB


def test_quick_work_never_waits_behind_small_or_heavy_work():
    control = AdmissionControl(1536 * MB)
    record = Recorder()
    held = [_start(record.job, control, "heavy", 425 * MB, 0.5, 30.0),
            _start(record.job, control, "small", 100_000_000, 0.5, 5.0)]
    time.sleep(0.05)
    queued = [_start(record.job, control, "heavy2", 425 * MB, 0.05, 30.0),
              _start(record.job, control, "small2", 100_000_000, 0.05, 5.0)]
    time.sleep(0.05)
    started = time.monotonic()
    record.job(control, "quick", 1 * MB, 0.0, 0.1)
    assert time.monotonic() - started < 0.2  # ran while both other lanes were full
    assert "quick" not in record.waits
    assert record.waits["small2"][0].lane == "small"
    for thread in held + queued:
        thread.join(timeout=10)
    assert record.started.index("quick") < record.started.index("heavy2")


def test_a_flood_of_small_work_stays_within_its_lanes_slots_and_memory():
    # Twenty tabs of n = 2,500 at once (100 MB each) and twenty tabs of tiny work: what
    # runs at the same time never holds more than the quick and small shares.
    control = AdmissionControl(1536 * MB)
    record = Recorder()
    threads = [_start(record.job, control, f"small{i}", 100_000_000, 0.02, 3.0,
                      session=f"s{i}") for i in range(20)]
    threads += [_start(record.job, control, f"quick{i}", 8 * MB, 0.02, 0.1,
                       session=f"q{i}") for i in range(20)]
    for thread in threads:
        thread.join(timeout=30)
    assert len(record.started) == 40
    assert record.most_active <= 1 + 2  # one small slot, two quick ones
    assert record.most_held <= control.lanes["small"].share + control.lanes["quick"].share
    assert control.held_bytes() == 0


def test_memory_share_limits_what_runs_together():
    control = one_lane(600 * MB, slots=3)
    record = Recorder()
    threads = [_start(record.job, control, name, 425 * MB, 0.1) for name in "abc"]
    for thread in threads:
        thread.join(timeout=10)
    assert record.most_active == 1  # two of them would hold 850 MB > 600 MB
    control = one_lane(1000 * MB, slots=3)
    record = Recorder()
    threads = [_start(record.job, control, name, 425 * MB, 0.3) for name in "ab"]
    for thread in threads:
        thread.join(timeout=10)
    assert record.most_active == 2


def test_one_computation_at_a_time_per_session_and_others_pass_it():
    control = one_lane(1500 * MB, slots=2)
    record = Recorder()
    first = _start(record.job, control, "mine", 1 * MB, 0.4, 20.0, session="me")
    time.sleep(0.05)
    again = _start(record.job, control, "mine again", 1 * MB, 0.05, 20.0, session="me")
    time.sleep(0.05)
    other = _start(record.job, control, "other", 1 * MB, 0.05, 20.0, session="you")
    for thread in (first, again, other):
        thread.join(timeout=10)
    # The session's second ticket waited for its first, and told the student so; the
    # other student's ticket behind it took the free slot meanwhile.
    assert record.started == ["mine", "other", "mine again"]
    assert record.waits["mine again"][0].own_session
    assert "other" not in record.waits


def test_the_wait_says_at_least_for_a_lower_bound_or_an_overrun():
    control = one_lane(1500 * MB)
    record = Recorder()
    holder = _start(record.job, control, "arpack", 425 * MB, 0.3, 5.0, at_least=True)
    time.sleep(0.05)
    record.job(control, "next", 425 * MB, 0.0, 5.0)
    holder.join(timeout=10)
    assert record.waits["next"][0].text().startswith("at least")
    record = Recorder()
    holder = _start(record.job, control, "overrun", 425 * MB, 0.4, 0.1)  # outlasts 0.1 s
    time.sleep(0.25)
    record.job(control, "next", 425 * MB, 0.0, 5.0)
    holder.join(timeout=10)
    assert record.waits["next"][0].at_least


def test_a_student_who_leaves_while_waiting_frees_their_place():
    control = one_lane(1500 * MB)
    record = Recorder()
    holder = _start(record.job, control, "holder", 425 * MB, 0.3)
    time.sleep(0.05)

    class Left(Exception):
        pass

    def leave(wait):
        raise Left  # as Streamlit's StopException would, on the next element update

    with pytest.raises(Left):
        with control.admit(425 * MB, estimate=Estimate(1.0), on_wait=leave):
            pass
    assert control.waiting == 0
    holder.join(timeout=10)
    record.job(control, "after", 425 * MB, 0.0)  # not blocked by a ghost ticket
    assert record.started == ["holder", "after"]


def test_a_turn_inside_a_turn_of_the_same_thread_passes_at_once():
    control = one_lane(1500 * MB)
    with control.admit(425 * MB, estimate=Estimate(20.0), session="me"):
        with control.admit(425 * MB, estimate=Estimate(20.0), session="me") as wait:
            assert wait is None and control.running == 1
    assert control.running == 0


def test_a_key_lock_and_a_turn_cannot_wait_for_each_other():
    # Thread A computes a cached key and, inside, waits for a turn; thread B holds the
    # only turn and asks for the same key. B must not wait for A's key (A waits for B).
    from shell.caches import BoundedStore

    control = one_lane(1500 * MB)
    store = BoundedStore(4)
    b_has_turn, a_has_key = threading.Event(), threading.Event()
    results = {}

    def compute_in_a_turn():
        a_has_key.set()
        with control.admit(425 * MB, estimate=Estimate(20.0), poll_s=0.02):
            return "from A"

    def a():
        b_has_turn.wait(5)
        results["a"] = store.get_or_compute("key", compute_in_a_turn)

    def b():
        with control.admit(425 * MB, estimate=Estimate(20.0), poll_s=0.02):
            b_has_turn.set()
            a_has_key.wait(5)
            time.sleep(0.05)  # A holds the key lock and waits for this turn
            results["b"] = store.get_or_compute("key", lambda: "from B")

    threads = [threading.Thread(target=a, daemon=True), threading.Thread(target=b, daemon=True)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(timeout=10)
    assert not any(thread.is_alive() for thread in threads), "deadlock"
    assert results == {"a": "from A", "b": "from B"}


def test_fallback_estimate_grows_with_n_and_never_reaches_zero():
    # ~n^2.5 (between the kernel's n² and the dense solver's n³) above its 0.1 s floor.
    assert estimate_seconds(2 * 7291) == pytest.approx(2**2.5 * estimate_seconds(7291))
    assert estimate_seconds(100) == 0.1
    assert estimate_seconds(9298) > estimate_seconds(7291)


def test_the_wait_message_keeps_what_is_waiting_as_written():
    from server.admission import Wait, wait_message

    text = wait_message(Wait(1, 0.2, False, "heavy"), "this kernel PCA", 144_000_000)
    assert "you are next. Expected wait: about 1 s. This kernel PCA (144.0 MB)" in text
    assert "you are number 3 in the queue. Expected wait: at least 12 s." in wait_message(
        Wait(3, 11.6, True, "small"), "this sweep", 1)
    assert "Your previous computation is still finishing" in wait_message(
        Wait(1, 2.0, False, "small", own_session=True), "this sweep", 1)


def test_server_budget_is_a_setting_with_the_memory_guards_rules(monkeypatch):
    from server.admission import DEFAULT_SERVER_BUDGET_MB, SERVER_BUDGET_ENV, server_budget_bytes

    monkeypatch.setenv(SERVER_BUDGET_ENV, "2048")
    assert server_budget_bytes() == 2048 * MB
    monkeypatch.setenv(SERVER_BUDGET_ENV, "-1")
    assert server_budget_bytes() == DEFAULT_SERVER_BUDGET_MB * MB


# --------------------------------------------------------------------------- the pages
# Every page's n × n work takes its turn in the one server-wide queue, sized as the page
# computes it; small work never waits. Each page is opened (AppTest) with data no other
# test uses, so that it computes instead of finding its result cached.

DENOISING = "denoising"
# Every lesson with n × n work (all of it is queued), and the side of that work.
QUEUED_PAGES = {lesson.url_path: lesson.work for lesson in LESSONS if lesson.work is not None}
# Each page is opened on the circles with an n of its own, so that no other test has its
# result cached, above the page's cap where it has one (a wrong cap in the registry then
# asks for other bytes); De-noising runs on its own settings (USPS training digits).
OWN_N = {page: (work.cap or 160) + 1 + 2 * i
         for i, (page, work) in enumerate(QUEUED_PAGES.items())}


def denoising_n_train() -> int:
    from tests.lessons.denoising import test_page as test_denoising

    return test_denoising.N_TRAIN


def open_page(page: str, seed: int):
    from lessons.denoising import view as denoising_view
    from tests.lessons.denoising import test_page as test_denoising
    from tests.support.apptest import open_app, usps_available

    if page == DENOISING:
        if not usps_available():
            pytest.skip("USPS digits not available")
        return test_denoising.open_denoising(**{denoising_view.K_SEED: seed})
    link = {"dataset": "circles", "kernel": "rbf", "seed": seed, "n": OWN_N[page]}
    return open_app(page, link)


@contextmanager
def server_busy(control: AdmissionControl, n_bytes: int, *, give_up_s: float = 60.0,
                in_worker: bool = False):
    """Another student's big computation holds the server (or its worker process, with
    ``in_worker``) until the block ends."""
    release, holding = threading.Event(), threading.Event()

    def hold():
        with control.admit(n_bytes, estimate=Estimate(30.0), in_worker=in_worker):
            holding.set()
            release.wait(give_up_s)

    thread = _start(hold)
    assert holding.wait(5)
    try:
        yield release
    finally:
        release.set()
        thread.join(timeout=10)


# A kernel matrix with fewer entries may be built outside a turn: the kernel trick's 5 × 5
# example, How it works' rows of new points (under 100 KB, well under a millisecond).
UNQUEUED_MAX_ENTRIES = 10_000


@contextmanager
def kernels_recorded():
    """Every kernel matrix kpca_core builds while the block runs: (rows, cols, whether the
    thread held a turn), wherever ``compute_kernel`` was imported."""
    import sys

    import kpca_core
    from server.admission import holds_turn

    original = kpca_core.compute_kernel
    built: list[tuple[int, int, bool]] = []

    def recording(*args, **kwargs):
        K = original(*args, **kwargs)
        built.append((*K.shape, holds_turn()))
        return K

    def swap(old, new) -> None:
        for module in list(sys.modules.values()):
            if getattr(module, "compute_kernel", None) is old:
                module.compute_kernel = new

    swap(original, recording)
    try:
        yield built
    finally:
        # Modules imported meanwhile took the recording function as well.
        swap(recording, original)


class WorkerHere:
    """The worker's rule (a job only inside a turn of the worker lane), run in this
    process, so that the kernel matrices the jobs build can be seen."""

    def call(self, func, *args, **kwargs):
        from server.admission import holds_turn

        assert holds_turn("worker"), "a job for the worker process outside its lane"
        return func(*args, **kwargs)


@pytest.fixture
def timed_work_in_this_process(monkeypatch):
    """Scale times its steps in the server's worker process (server.worker): here they run
    in this one."""
    from lessons.scale import approx_view, view

    here = WorkerHere()
    monkeypatch.setattr(view, "server_worker", lambda: here)
    monkeypatch.setattr(approx_view, "server_worker", lambda: here)


@pytest.mark.parametrize("page", list(QUEUED_PAGES))
def test_every_kernel_matrix_a_page_builds_is_built_inside_a_turn(page,
                                                                    timed_work_in_this_process):
    # No side doors: whatever a page computes beyond a tiny example takes its turn, so
    # that no number of tabs gets past the server's budget (a capped sample too: 24 of
    # them add up). A new section that builds K outside the queue fails here.
    with kernels_recorded() as built:
        at = open_page(page, seed=515)
    assert not at.exception, [e.value for e in at.exception]
    big = [(rows, cols, inside) for rows, cols, inside in built
           if rows * cols > UNQUEUED_MAX_ENTRIES]
    assert big, f"{page}: built no kernel matrix (the page was not computed)"
    outside = [(rows, cols) for rows, cols, inside in big if not inside]
    assert outside == [], f"{page} built these kernel matrices outside a turn: {outside}"


@pytest.mark.parametrize("page", list(QUEUED_PAGES))
def test_a_pages_big_work_waits_its_turn_behind_another_students(page, monkeypatch):
    from server.admission import server_admission
    from tests.support.apptest import assert_clean

    control = server_admission()
    # Everything in one lane, behind another student's computation (held below); Scale's
    # timed work runs in the worker process, in the worker's lane.
    in_worker = page == "scale"
    monkeypatch.setattr("server.admission.lane_for", lambda *args, in_worker=False, **kwargs:
                        "worker" if in_worker else "heavy")
    seen: list[int] = []
    done = threading.Event()

    def watch(release: threading.Event) -> None:
        while not seen and not done.is_set():
            with control._condition:
                seen.extend(t.n_bytes for t in control._waiting)
            time.sleep(0.02)
        release.set()  # the other student's computation ends: the page's turn

    with server_busy(control, 1, in_worker=in_worker) as release:
        watcher = _start(watch, release)
        try:
            at = open_page(page, seed=424)
        finally:
            done.set()
            watcher.join(timeout=10)
    work = QUEUED_PAGES[page]
    n = work.side_for(OWN_N[page])
    if page == "draw":  # it draws its own points (a preset at first), not the link's data:
        n = drawn.PRESET_POINTS  # the registry states its limit, MAX_POINTS
    if page == DENOISING:  # its own training digits, as the test opens it (not the default)
        n = denoising_n_train()
    assert len(seen) == 1, "the page did not wait for its turn"
    # Its first turn asks for the n × n matrices the registry states (Scale's exact step
    # adds its n × k eigenvectors).
    declared = int(work.copies * 8 * n * n)
    if page == "novelty":
        # With all points as normal data its first turn is the search for outliers off the
        # shape (issue 48: made before the fit, to say when nothing can be scored), which
        # asks for its own bytes: the registry's statement of that search's peak.
        declared = work.first(OWN_N[page], 2)
    assert declared <= seen[0] <= 1.2 * declared
    assert_clean(at)
    assert at.get("plotly_chart")  # and computed once it was its turn
    assert control.waiting == 0 and control.running == 0


def test_small_work_on_every_page_never_waits_behind_a_big_one():
    from server.admission import SMALL_BYTES, server_admission

    control = server_admission()
    waited: list[int] = []
    done = threading.Event()

    def watch(release: threading.Event) -> None:
        while not waited and not done.is_set():
            with control._condition:
                waited.extend(t.n_bytes for t in control._waiting)
            time.sleep(0.02)
        release.set()  # something waited: let it through, the test has failed

    # Held for the whole test: a big computation in the heavy lane.
    with server_busy(control, SMALL_BYTES + 1) as release:
        watcher = _start(watch, release)
        try:
            for page in QUEUED_PAGES:
                at = open_page(page, seed=434)
                assert not at.exception, page
                assert at.get("plotly_chart"), page
        finally:
            done.set()
            watcher.join(timeout=10)
    assert waited == []


def test_uploads_parse_one_at_a_time_and_small_views_pass_them():
    control = AdmissionControl(1536 * MB)
    record = Recorder()

    def upload(name):
        with control.admit(20 * MB, estimate=Estimate(1.0), upload=True, poll_s=0.02):
            with record.lock:
                record.started.append(name)
                record.active += 1
                record.most_active = max(record.most_active, record.active)
            time.sleep(0.05)
            with record.lock:
                record.active -= 1

    threads = [_start(upload, f"upload{i}") for i in range(6)]
    time.sleep(0.02)
    started = time.monotonic()
    Recorder().job(control, "small view", 1 * MB, 0.0, 0.1)
    assert time.monotonic() - started < 0.2
    parsed_before_the_view_ran = len(record.started)
    for thread in threads:
        thread.join(timeout=10)
    assert record.most_active == 1  # six parses, one at a time
    assert parsed_before_the_view_ran < 6  # the view did not wait for them all


# ------------------------------------------------------------- what a waiting page says


def waiting_texts(monkeypatch) -> list[str]:
    """Every wait notice the pages write (the real messages, recorded as they are made)."""
    import server.admission as admission

    texts: list[str] = []
    real = admission.wait_message

    def recorded(*args, **kwargs):
        texts.append(real(*args, **kwargs))
        return texts[-1]

    monkeypatch.setattr(admission, "wait_message", recorded)
    return texts


@pytest.mark.parametrize("at_least", [False, True])
def test_a_waiting_page_tells_the_wait_it_can_know(at_least, monkeypatch):
    # Another student's 40 s computation holds the lane; the Explorer's kernel PCA waits
    # behind it and says so: "about 40 s", or "at least 40 s" when the other computation's
    # estimate is only a lower bound (ARPACK, a fixed point).
    from server.admission import server_admission
    from tests.support.apptest import assert_clean, open_app

    control = server_admission()
    # The server-wide lanes have learned a pace from earlier tests' work: start from none.
    monkeypatch.setattr(control, "pace", dict.fromkeys(control.lanes, 1.0))
    monkeypatch.setattr("server.admission.lane_for", lambda *args, **kwargs: "heavy")
    texts = waiting_texts(monkeypatch)
    holding = threading.Event()

    def other_student():
        with control.admit(425 * MB, estimate=Estimate(40.0, at_least)):
            holding.set()
            deadline = time.monotonic() + 30
            while not texts and time.monotonic() < deadline:
                time.sleep(0.05)
            time.sleep(0.3)  # the page has drawn its notice: let it through

    thread = _start(other_student)
    assert holding.wait(5)
    at = open_app("explorer", {"dataset": "moons", "kernel": "rbf", "n": 97,
                               "seed": 31 + at_least})
    thread.join(timeout=10)
    assert texts, "the page did not wait"
    word = "at least" if at_least else "about"
    # (The Explorer asks for its kernel PCA, or first for its γ search.)
    assert re.search(rf"you are next\. Expected wait: {word} (39|40) s\. "
                     r"(This kernel PCA|The γ search)", texts[0]), texts[0]
    assert_clean(at)
    assert at.get("plotly_chart")
    assert not [box for box in at.info if "Expected wait" in box.value]  # gone once it ran


def test_a_lane_serves_requests_first_come_first_served_not_all_at_once():
    # Issue 34: 24 tabs each asking for two turns one after the other; each second turn
    # went to the back of the lane, behind everyone's first, and every tab finished at
    # the same moment, at the end. A request's tickets keep the place of its first one.
    control = one_lane(1500 * MB)
    started: list[str] = []
    finished: dict[str, float] = {}
    lock = threading.Lock()

    class Run:  # one script run of a session (Streamlit's: a new object every run)
        pass

    def request(session: str, run: Run, turns: int = 2) -> None:
        for turn in range(turns):
            with control.admit(425 * MB, estimate=Estimate(1.0), session=session,
                               request=run, poll_s=0.01):
                with lock:
                    started.append(f"{session}{turn + 1}")
                time.sleep(0.05)
            time.sleep(0.01)  # the page draws between its two turns
        finished[session] = time.monotonic()

    threads = []
    for session in "abcd":
        threads.append(_start(request, session, Run()))
        time.sleep(0.02)  # arrive in order
    for thread in threads:
        thread.join(timeout=20)
    # While a draws between its turns, b's first turn takes the slot; a's second then goes
    # ahead of c and d, which came later: requests finish in the order they came, one
    # after another (served ticket by ticket, a1 b1 c1 d1 a2 b2 c2 d2: all at the end).
    assert started[:4] == ["a1", "b1", "a2", "b2"], started
    assert sorted(finished, key=finished.get) == ["a", "b", "c", "d"]
    # A new run of a session is a new request: at the back, behind those waiting.
    started.clear()
    first = Run()
    threads = [_start(request, "a", first, 1)]
    time.sleep(0.02)
    threads += [_start(request, "b", Run(), 1)]
    time.sleep(0.02)
    threads[0].join(timeout=10)
    threads += [_start(request, "a", Run(), 1)]  # a's next run
    time.sleep(0.02)
    threads += [_start(request, "c", Run(), 1)]
    for thread in threads:
        thread.join(timeout=10)
    assert started == ["a1", "b1", "a1", "c1"]


def test_each_ticket_without_a_request_is_a_request_of_its_own():
    control = one_lane(1500 * MB)
    record = Recorder()
    holder = _start(record.job, control, "holder", 425 * MB, 0.2, session="s0")
    time.sleep(0.03)
    threads = [_start(record.job, control, name, 425 * MB, 0.02, session=name)
               for name in ("x", "y")]
    for thread in [holder, *threads]:
        thread.join(timeout=10)
    assert record.started == ["holder", "x", "y"]


def test_a_lane_that_runs_slower_than_its_estimates_says_so_in_its_waits():
    # Estimates are measured on one host at one load; the same work takes three times as
    # long on a busier one. Each lane learns its pace from the work it finishes, and the
    # wait it tells scales with it (issue 34: the wait said on screen is the wait).
    control = one_lane(1500 * MB)
    record = Recorder()
    for name in ("a", "b", "c", "d"):  # each takes 3 × its 0.2 s estimate
        record.job(control, name, 425 * MB, hold_s=0.6, estimate_s=0.2)
    assert 2.0 < control.pace["heavy"] <= 3.2
    assert control.pace["quick"] == 1.0  # other lanes keep their own
    holder = _start(record.job, control, "holder", 425 * MB, 0.3, 10.0)
    time.sleep(0.05)
    record.job(control, "next", 425 * MB, 0.0, 10.0)
    holder.join(timeout=10)
    told = record.waits["next"][0]
    assert told.seconds > 2 * 10.0 - 1 and not told.at_least  # ~pace × the 10 s estimate
    # Lower bounds teach nothing (their length is not known in advance).
    before = control.pace["heavy"]
    record.job(control, "bound", 425 * MB, 0.3, 0.2, at_least=True)
    assert control.pace["heavy"] == before


def test_background_work_waits_for_every_students_ticket_of_its_lane():
    from server.admission import background

    control = one_lane(1500 * MB)
    record = Recorder()

    def ahead(name):
        with background():
            record.job(control, name, 425 * MB, 0.1, 20.0)

    def queued_behind(count: int) -> None:
        """Until ``count`` requests wait in the lane (not a sleep: a loaded machine
        starts threads late)."""
        deadline = time.monotonic() + 10
        while control.waiting < count and time.monotonic() < deadline:
            time.sleep(0.01)
        assert control.waiting >= count

    release = threading.Event()

    def student_a():
        with control.admit(425 * MB, estimate=Estimate(20.0), poll_s=0.02):
            record.started.append("student a")
            release.wait(10)  # holds the lane until the others are in line

    first = _start(student_a)
    while not record.started:
        time.sleep(0.01)
    threads = [_start(ahead, "ahead 1")]
    queued_behind(1)
    threads += [_start(record.job, control, "student b", 425 * MB, 0.1, 20.0)]
    queued_behind(2)
    threads += [_start(record.job, control, "student c", 425 * MB, 0.1, 20.0)]
    queued_behind(3)
    release.set()
    for thread in [first, *threads]:
        thread.join(timeout=10)
    # ahead 1 came before b and c, and went after them.
    assert record.started == ["student a", "student b", "student c", "ahead 1"]
    # A student is told only of the students ahead: b waits for a, not for the work ahead.
    assert record.waits["student b"][0].place == 1
    assert control.running == 0 and control.waiting == 0
