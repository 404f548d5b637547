"""The server's worker process (server/worker.py): the one child process the app starts,
only inside a turn of the worker lane, counted there, gone when idle (issue 34: each Scale
tab started a process of its own outside the queue, ~220 MB each, 1.9 GB for ten)."""

from __future__ import annotations

import os
import signal
import threading
import time

import psutil
import pytest

from server.admission import AdmissionControl, lane_for, server_budget_bytes
from server.budget import WORKER_BYTES
from server.costs import Estimate
from server.worker import Worker, WorkerDied


def blas_threads() -> list[int]:
    from threadpoolctl import threadpool_info

    return [pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"]


def footprint_with_scales_imports() -> int:
    """What a worker holds (PSS: its shared libraries' pages split with the processes that
    map them, as the server's budget counts) with Scale's work loaded and run once."""
    import numpy as np

    from lessons.scale import approximations, experiment

    X = np.random.default_rng(0).normal(size=(500, 2))
    experiment.measure_size(X, 3, kernel="rbf", kernel_params={"gamma": 1.0})
    exact = approximations.exact_kpca(X, 3, kernel="rbf", kernel_params={"gamma": 1.0})
    approximations.approximate_and_compare(X, exact, "nystroem", 100, kernel="rbf",
                                           kernel_params={"gamma": 1.0})
    return psutil.Process().memory_full_info().pss


@pytest.fixture
def worker():
    running = Worker(idle_s=3600)
    yield running
    running.stop()


def test_the_worker_limits_blas_in_its_own_process_only(worker):
    before = blas_threads()
    assert before  # NumPy's BLAS is loaded here (else the comparison is vacuous)
    assert set(worker.call(blas_threads)) == {1}
    assert blas_threads() == before
    assert worker.call(sum, [1, 2, 3]) == 6
    assert worker.pid != os.getpid()
    with pytest.raises(ZeroDivisionError):  # its exceptions are raised here
        worker.call(divmod, 1, 0)
    assert worker.starts == 1  # one process for all of it


@pytest.mark.slow
def test_the_worker_stays_within_the_memory_its_lane_reserves(worker):
    # It imports kpca_core and scikit-learn: ~135 MB PSS on the development host.
    assert worker.call(footprint_with_scales_imports) <= WORKER_BYTES
    assert psutil.Process(worker.pid).memory_full_info().pss <= WORKER_BYTES


def test_the_worker_runs_only_inside_a_turn_of_its_lane():
    control = AdmissionControl(server_budget_bytes())
    from server.admission import holds_turn

    worker = Worker(lambda: holds_turn("worker"))
    try:
        with pytest.raises(RuntimeError, match="inside a turn of the worker lane"):
            worker.call(sum, [1])
        assert worker.pid is None  # nothing was started outside a turn
        with control.admit(1, estimate=Estimate(0.1)):  # a quick turn is not the worker's
            with pytest.raises(RuntimeError, match="worker lane"):
                worker.call(sum, [1])
        with control.admit(1, estimate=Estimate(0.1), in_worker=True):
            assert worker.call(sum, [1, 2]) == 3
    finally:
        worker.stop()
    assert lane_for(1, Estimate(0.1), in_worker=True) == "worker"
    # The lane reserves the process and one job: the budget's other lanes shrink by that.
    assert control.lanes["worker"].slots == 1
    assert control.lanes["worker"].share >= WORKER_BYTES
    assert sum(lane.share for lane in control.lanes.values()) == server_budget_bytes()


def test_ten_students_at_once_share_one_process_one_job_at_a_time():
    from server.admission import holds_turn

    control = AdmissionControl(server_budget_bytes())
    worker = Worker(lambda: holds_turn("worker"))
    running, most = [0], [0]
    lock = threading.Lock()

    def job(i: int) -> None:
        with control.admit(64 * 2**20, estimate=Estimate(0.2), session=f"s{i}",
                           in_worker=True, poll_s=0.02):
            with lock:
                running[0] += 1
                most[0] = max(most[0], running[0])
            assert worker.call(pow, i, 2) == i * i
            with lock:
                running[0] -= 1

    threads = [threading.Thread(target=job, args=(i,)) for i in range(10)]
    try:
        for thread in threads:
            thread.start()
        for thread in threads:
            thread.join(timeout=120)
        assert most[0] == 1
        assert worker.starts == 1
    finally:
        worker.stop()


def test_an_idle_worker_ends_and_the_next_job_starts_another(worker):
    assert worker.call(abs, -2) == 2
    pid = worker.pid
    assert not worker.stop_if_idle(time.monotonic())  # just used
    assert worker.stop_if_idle(time.monotonic() + worker.idle_s + 1)
    assert worker.pid is None and not psutil.pid_exists(pid) or (
        psutil.Process(pid).status() == psutil.STATUS_ZOMBIE)
    assert worker.call(abs, -3) == 3
    assert worker.starts == 2


def test_a_worker_that_dies_fails_its_job_with_a_message_and_is_replaced(worker):
    assert worker.call(abs, -1) == 1
    with pytest.raises(WorkerDied, match="ended unexpectedly"):
        worker.call(os._exit, 3)  # the process ends during the job (as if killed)
    assert worker.call(abs, -4) == 4
    pid = worker.pid
    os.kill(pid, signal.SIGKILL)  # between two jobs: the next starts a new one
    psutil.Process(pid).wait(timeout=10)
    assert worker.call(abs, -5) == 5
    assert worker.starts == 3
