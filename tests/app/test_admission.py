"""Admission control, with real threads: turns, order, places, small views never held."""

from __future__ import annotations

import threading
import time

import pytest

from ui.admission import AdmissionControl, estimate_seconds

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
    assert estimate_seconds(7291) == pytest.approx(3.7)
    assert estimate_seconds(100) == 0.1
    assert estimate_seconds(9298) > estimate_seconds(7291)


def test_server_budget_is_a_setting_with_the_memory_guards_rules(monkeypatch):
    from ui.admission import DEFAULT_SERVER_BUDGET_MB, SERVER_BUDGET_ENV, server_budget_bytes

    monkeypatch.setenv(SERVER_BUDGET_ENV, "2048")
    assert server_budget_bytes() == 2048 * MB
    monkeypatch.setenv(SERVER_BUDGET_ENV, "-1")
    assert server_budget_bytes() == DEFAULT_SERVER_BUDGET_MB * MB
