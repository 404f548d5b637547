"""Admission control, with real threads: turns, order, places, small views never held."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager

import pytest

from shell.admission import AdmissionControl, estimate_seconds
from shell.registry import LESSONS

MB = 2**20


class Recorder:
    def __init__(self) -> None:
        self.lock = threading.Lock()
        self.active = 0
        self.most_active = 0
        self.started: list[str] = []
        self.waits: dict[str, list[tuple[int, float]]] = {}

    def job(self, control, name, n_bytes, hold_s=0.15, estimate_s=1.0):
        def on_wait(place, expected):
            self.waits.setdefault(name, []).append((place, expected))

        with control.admit(n_bytes, estimate_s=estimate_s, on_wait=on_wait, poll_s=0.02):
            with self.lock:
                self.started.append(name)
                self.active += 1
                self.most_active = max(self.most_active, self.active)
            time.sleep(hold_s)
            with self.lock:
                self.active -= 1


def _start(target, *args) -> threading.Thread:
    thread = threading.Thread(target=target, args=args)
    thread.start()
    return thread


def test_big_requests_take_turns_in_arrival_order_and_learn_their_place():
    control = AdmissionControl(1500 * MB, max_running=1, small_bytes=100 * MB)
    record = Recorder()
    threads = []
    for name in ("a", "b", "c"):
        threads.append(_start(record.job, control, name, 425 * MB, 0.15, 4.0))
        time.sleep(0.03)  # arrive in order
    for thread in threads:
        thread.join(timeout=10)
    assert record.started == ["a", "b", "c"]
    assert record.most_active == 1
    assert "a" not in record.waits
    assert record.waits["b"][0][0] == 1 and record.waits["c"][0][0] == 2
    # c waits for a's remaining time plus b's whole estimate: more than b's wait.
    assert record.waits["c"][0][1] > record.waits["b"][0][1] >= 3.0
    assert control.running == 0 and control.waiting == 0


def test_small_requests_never_wait_behind_a_big_one():
    control = AdmissionControl(1500 * MB, max_running=1, small_bytes=100 * MB)
    record = Recorder()
    big = _start(record.job, control, "big", 425 * MB, 0.5)
    time.sleep(0.05)
    queued_big = _start(record.job, control, "big2", 425 * MB, 0.05)
    time.sleep(0.05)
    started = time.monotonic()
    record.job(control, "small", 32 * MB, 0.0)
    assert time.monotonic() - started < 0.2  # ran while both big ones held the server
    assert "small" not in record.waits
    big.join(timeout=10)
    queued_big.join(timeout=10)
    assert record.started.index("small") < record.started.index("big2")


def test_memory_budget_limits_what_runs_together():
    control = AdmissionControl(600 * MB, max_running=3, small_bytes=100 * MB)
    record = Recorder()
    threads = [_start(record.job, control, name, 425 * MB, 0.1) for name in "abc"]
    for thread in threads:
        thread.join(timeout=10)
    assert record.most_active == 1  # two of them would hold 850 MB > 600 MB
    control = AdmissionControl(1000 * MB, max_running=3, small_bytes=100 * MB)
    record = Recorder()
    threads = [_start(record.job, control, name, 425 * MB, 0.3) for name in "ab"]
    for thread in threads:
        thread.join(timeout=10)
    assert record.most_active == 2


def test_a_student_who_leaves_while_waiting_frees_their_place():
    control = AdmissionControl(1500 * MB, max_running=1, small_bytes=100 * MB)
    record = Recorder()
    holder = _start(record.job, control, "holder", 425 * MB, 0.3)
    time.sleep(0.05)

    class Left(Exception):
        pass

    def leave(place, expected):
        raise Left  # as Streamlit's StopException would, on the next element update

    with pytest.raises(Left):
        with control.admit(425 * MB, estimate_s=1.0, on_wait=leave):
            pass
    assert control.waiting == 0
    holder.join(timeout=10)
    record.job(control, "after", 425 * MB, 0.0)  # not blocked by a ghost ticket
    assert record.started == ["holder", "after"]


def test_estimate_grows_with_n_and_never_reaches_zero():
    # ~n^2.5 (between the kernel's n² and the dense solver's n³) above its 0.1 s floor.
    assert estimate_seconds(2 * 7291) == pytest.approx(2**2.5 * estimate_seconds(7291))
    assert estimate_seconds(100) == 0.1
    assert estimate_seconds(9298) > estimate_seconds(7291)


def test_the_wait_message_keeps_what_is_waiting_as_written():
    from shell.admission import wait_message

    text = wait_message(1, 0.2, "this kernel PCA", 144_000_000)
    assert "you are next. Expected wait: about 1 s. This kernel PCA (144.0 MB)" in text
    assert "you are number 3 in the queue. Expected wait: about 12 s." in wait_message(
        3, 11.6, "this sweep", 1)


def test_server_budget_is_a_setting_with_the_memory_guards_rules(monkeypatch):
    from shell.admission import DEFAULT_SERVER_BUDGET_MB, SERVER_BUDGET_ENV, server_budget_bytes

    monkeypatch.setenv(SERVER_BUDGET_ENV, "2048")
    assert server_budget_bytes() == 2048 * MB
    monkeypatch.setenv(SERVER_BUDGET_ENV, "-1")
    assert server_budget_bytes() == DEFAULT_SERVER_BUDGET_MB * MB


# --------------------------------------------------------------------------- the pages
# Every page's n × n work takes its turn in the one server-wide queue, sized as the page
# computes it; small work never waits. Each page is opened (AppTest) with data no other
# test uses, so that it computes instead of finding its result cached.

DENOISING = "denoising"
# Every lesson whose registry entry says its n × n work is queued, and the side of that work.
QUEUED_PAGES = {
    lesson.url_path: lesson.work
    for lesson in LESSONS
    if lesson.work is not None and not lesson.work.unqueued_because
}
# Each page is opened on the circles with an n of its own, so that no other test has its
# result cached; De-noising runs on its own settings (USPS training digits).
OWN_N = {page: 61 + 2 * i for i, page in enumerate(QUEUED_PAGES)}


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
def server_busy(control: AdmissionControl, n_bytes: int, *, give_up_s: float = 60.0):
    """Another student's big computation holds the server until the block ends."""
    release, holding = threading.Event(), threading.Event()

    def hold():
        with control.admit(n_bytes, estimate_s=30.0):
            holding.set()
            release.wait(give_up_s)

    thread = _start(hold)
    assert holding.wait(5)
    try:
        yield release
    finally:
        release.set()
        thread.join(timeout=10)


def test_work_outside_the_queue_is_capped_below_its_small_size():
    # Samples that never reach the queue, with the copies their pages' guards count: a
    # larger cap would make them big, and they would have to take turns (queued()).
    from experiments.feature_maps import EXPLICIT_MAX_N
    from lessons.how_it_works import view as how_it_works_view
    from lessons.mistakes.experiment import MISTAKES_MAX_N
    from shell import memory
    from shell.admission import SMALL_BYTES

    works = {lesson.url_path: lesson.work for lesson in LESSONS if lesson.work is not None}
    for page, cap in (("kernel_trick", EXPLICIT_MAX_N), ("mistakes", MISTAKES_MAX_N)):
        work = works[page]
        assert work.side_for(10**6) == cap  # the registry states the lesson's own cap
        assert memory.matrix_bytes(cap, copies=work.copies) <= SMALL_BYTES
    assert memory.matrix_bytes(how_it_works_view.STEP_MAX_N, copies=3) <= SMALL_BYTES


@pytest.mark.parametrize("page", list(QUEUED_PAGES))
def test_a_pages_big_work_waits_its_turn_behind_another_students(page, monkeypatch):
    from shell.admission import server_admission
    from tests.support.apptest import assert_clean

    control = server_admission()
    monkeypatch.setattr(control, "small_bytes", 0)  # this page's small data counts as big
    seen: list[int] = []
    done = threading.Event()

    def watch(release: threading.Event) -> None:
        while not seen and not done.is_set():
            with control._condition:
                seen.extend(t.n_bytes for t in control._waiting)
            time.sleep(0.02)
        release.set()  # the other student's computation ends: the page's turn

    with server_busy(control, 1) as release:
        watcher = _start(watch, release)
        try:
            at = open_page(page, seed=424)
        finally:
            done.set()
            watcher.join(timeout=10)
    work = QUEUED_PAGES[page]
    n = work.side_for(OWN_N[page])
    assert seen == [int(work.copies * 8 * n * n)], "the page did not wait for its turn"
    assert_clean(at)
    assert at.get("plotly_chart")  # and computed once it was its turn
    assert control.waiting == 0 and control.running == 0


def test_small_work_on_every_page_never_waits_behind_a_big_one():
    from shell.admission import SMALL_BYTES, server_admission

    control = server_admission()
    waited: list[int] = []
    done = threading.Event()

    def watch(release: threading.Event) -> None:
        while not waited and not done.is_set():
            with control._condition:
                waited.extend(t.n_bytes for t in control._waiting)
            time.sleep(0.02)
        release.set()  # something waited: let it through, the test has failed

    with server_busy(control, SMALL_BYTES + 1) as release:  # held for the whole test
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
