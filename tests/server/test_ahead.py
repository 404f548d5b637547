"""Work done ahead (server/ahead.py): a named plan runs once per process, in order, in the
background, and goes on past a job that fails."""

from __future__ import annotations

import threading

import pytest

from server import ahead


@pytest.fixture
def enabled(monkeypatch):
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setattr(ahead, "_plans", {})


def wait_for(plan: ahead.Plan) -> None:
    for thread in threading.enumerate():
        if thread.name == f"{ahead.THREAD_PREFIX}{plan.name}":
            thread.join(timeout=30)
    assert plan.finished


def test_a_plan_runs_its_jobs_in_order_once(enabled):
    ran = []
    jobs = [(f"job {i}", lambda i=i: ran.append(i)) for i in range(4)]
    plan = ahead.prepare("order", jobs)
    wait_for(plan)
    assert ran == [0, 1, 2, 3]
    assert (plan.done, plan.total, plan.failed) == (4, 4, [])
    # A second start (the tour opened again, another lecturer) finds it and runs nothing.
    assert ahead.prepare("order", jobs) is plan
    assert ahead.progress("order") is plan
    assert ran == [0, 1, 2, 3]


def test_a_failing_job_is_counted_and_the_plan_goes_on(enabled, caplog):
    ran = []

    def broken():
        raise ValueError("no data")

    plan = ahead.prepare("failing", [("step 1", broken), ("step 2", lambda: ran.append(2))])
    wait_for(plan)
    assert plan.failed == ["step 1"] and plan.done == 2 and ran == [2]
    # One line in the server's log, no traceback (the page says why when it is opened).
    [record] = [r for r in caplog.records if r.name == ahead.__name__]
    assert record.getMessage() == ("Preparing step 1 ahead failed (ValueError: no data); its "
                                   "page says why when it is opened")
    assert record.exc_info is None


def test_progress_is_told_while_a_job_runs(enabled):
    release = threading.Event()
    plan = ahead.prepare("slow", [("first", release.wait), ("second", lambda: None)])
    assert not plan.finished and plan.done == 0
    release.set()
    wait_for(plan)
    assert plan.done == 2 and plan.seconds >= 0


@pytest.mark.parametrize("value", ["0", "off", "false", "No"])
def test_it_can_be_turned_off(monkeypatch, value):
    monkeypatch.setenv(ahead.ENV, value)
    monkeypatch.setattr(ahead, "_plans", {})
    assert ahead.prepare("off", [("job", lambda: pytest.fail("ran"))]) is None
    assert ahead.progress("off") is None


def test_a_plan_made_on_its_own_thread_and_run_in_the_background_of_the_queue(enabled):
    from server.admission import in_background

    made_on, seen = [], []

    def jobs():
        made_on.append(threading.current_thread().name)
        return [(f"job {i}", lambda: seen.append(in_background())) for i in range(3)]

    plan = ahead.prepare("later", jobs, background=True)
    wait_for(plan)
    assert made_on == ["kpca-ahead-later"] and plan.labels == ("job 0", "job 1", "job 2")
    assert seen == [True, True, True] and plan.done == 3
    foreground = ahead.prepare("now", [("a", lambda: seen.append(in_background()))])
    wait_for(foreground)
    assert seen[-1] is False


def test_a_plan_that_cannot_be_made_finishes_empty(enabled):
    plan = ahead.prepare("broken", lambda: 1 / 0)
    wait_for(plan)
    assert plan.finished and plan.total == 0
