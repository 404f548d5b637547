"""The server's worker process: the one child process the app starts, for timed work.

Scale times each step of kernel PCA with BLAS on one thread, so that other work on the
server's cores does not distort how the steps grow with n. That limit is process-wide
(OpenBLAS has one thread count per process), so the timed work runs in a process of its
own. A process costs memory of its own (Python with NumPy, SciPy, scikit-learn and
kpca_core: ~190 MB resident), and when each Scale tab started its own, ten students took
the server from 230 MB to 1.9 GB outside the queue (issue 34). So:

1. **One worker per server process**, shared by every session, started on first use and
   only inside a turn of the admission's worker lane (:mod:`server.admission`:
   ``queued(..., in_worker=True)``); :meth:`Worker.call` refuses to run outside one.
2. **Counted.** The worker lane's memory share holds the process
   (:data:`server.budget.WORKER_BYTES`, measured: the benchmark prints it, a test checks
   the live process against it) and the work it runs; the memory guard adds the process
   to what timed work needs
   (``server.memory.memory_problem(..., extra=...)``). One slot: one job at a time.
3. **Gone when idle.** The process ends :data:`IDLE_S` seconds after its last job, and is
   started again by the next one (a few seconds of imports); a process that dies (out of
   memory, killed) fails its job with a message and is started afresh for the next.

The child runs ``python -m server.worker``: it reads (function, args, kwargs) as pickles
from its standard input and writes (ok, result or exception) to its standard output, so
it imports only what the functions it runs need (never Streamlit). Functions travel by
reference (module and name), arguments by value (n × d points, a few timings back).
"""

from __future__ import annotations

import os
import pickle
import struct
import subprocess
import sys
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from words.i18n import N_, _

ROOT = Path(__file__).resolve().parents[1]
# How the memory guard names it (an English noun phrase it translates).
WORKER_WHAT = N_("the worker process that times it")
IDLE_S = 120.0
# The child's environment: BLAS on one thread (the point of the worker; never more than the
# cores the server may use, which server.cpu's rule keeps at one at least), and glibc's
# allocator told to give large freed blocks back (see server.memory's allocator notes).
CHILD_ENV = {
    "OMP_NUM_THREADS": "1", "OPENBLAS_NUM_THREADS": "1", "MKL_NUM_THREADS": "1",
    "MALLOC_MMAP_THRESHOLD_": str(2**20), "MALLOC_ARENA_MAX": "2",
}
_LENGTH = struct.Struct(">Q")


class WorkerDied(RuntimeError):
    """The worker process ended during a job (the message says so, for the student)."""


def _write(stream, message: object) -> None:
    data = pickle.dumps(message, protocol=pickle.HIGHEST_PROTOCOL)
    stream.write(_LENGTH.pack(len(data)))
    stream.write(data)
    stream.flush()


def _read(stream) -> object:
    head = stream.read(_LENGTH.size)
    if len(head) < _LENGTH.size:
        raise EOFError("the other end closed the pipe")
    (size,) = _LENGTH.unpack(head)
    data = stream.read(size)
    if len(data) < size:
        raise EOFError("the other end closed the pipe")
    return pickle.loads(data)  # noqa: S301 - our own child, over its own pipes


class Worker:
    """One child process, started on demand, that runs picklable functions in turn.

    Parameters
    ----------
    in_turn : callable
        Returns whether the calling thread holds a turn of the worker lane; a call
        outside one is a programming error (the process would be uncounted).
    idle_s : float
        Seconds without a job after which the process ends.
    """

    def __init__(self, in_turn: Callable[[], bool] = lambda: True, *,
                 idle_s: float = IDLE_S) -> None:
        self._in_turn = in_turn
        self.idle_s = idle_s
        self._lock = threading.Lock()
        self._process: subprocess.Popen | None = None
        self._last_used = 0.0
        self.starts = 0  # how many processes it has started (for tests and benchmarks)

    @property
    def pid(self) -> int | None:
        process = self._process
        return process.pid if process is not None and process.poll() is None else None

    def call(self, func: Callable, *args: Any, **kwargs: Any) -> Any:
        """``func(*args, **kwargs)`` in the worker process; its exception is raised here."""
        if not self._in_turn():
            raise RuntimeError("the worker runs only inside a turn of the worker lane")
        with self._lock:
            try:
                ok, value = self._exchange((func, args, kwargs))
            finally:
                self._last_used = time.monotonic()
        if not ok:
            raise value
        return value

    def stop(self) -> None:
        with self._lock:
            self._stop_locked()

    def stop_if_idle(self, now: float | None = None) -> bool:
        """End the process if it has had no job for ``idle_s``; returns whether it did."""
        now = time.monotonic() if now is None else now
        if not self._lock.acquire(blocking=False):
            return False  # a job is running
        try:
            if self._process is None or now - self._last_used < self.idle_s:
                return False
            self._stop_locked()
            return True
        finally:
            self._lock.release()

    # -- internals -----------------------------------------------------------------
    def _exchange(self, job: tuple) -> tuple[bool, Any]:
        for attempt in (1, 2):
            process = self._ensure_started()
            try:
                _write(process.stdin, job)
            except OSError:  # it had ended since its last job: this one never started
                self._stop_locked()
                if attempt == 1:
                    continue
                raise WorkerDied(_("The process that times the computation could not be "
                                   "started. Try again in a moment.")) from None
            try:
                return _read(process.stdout)
            except (EOFError, OSError, pickle.UnpicklingError) as error:
                self._stop_locked()
                raise WorkerDied(_(
                    "The process that times the computation ended unexpectedly (the server "
                    "may be short of memory). Try again in a moment.")) from error
        raise AssertionError("unreachable")

    def _ensure_started(self) -> subprocess.Popen:
        if self._process is not None and self._process.poll() is None:
            return self._process
        self._process = subprocess.Popen(
            [sys.executable, "-m", "server.worker"], cwd=ROOT,
            env={**os.environ, **CHILD_ENV, "PYTHONPATH": str(ROOT)},
            stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=None)
        self.starts += 1
        self._last_used = time.monotonic()
        _Reaper.watch(self)
        return self._process

    def _stop_locked(self) -> None:
        process, self._process = self._process, None
        if process is None:
            return
        for stream in (process.stdin, process.stdout):
            try:
                stream.close()
            except OSError:
                pass
        try:
            process.wait(timeout=5)  # it ends when its input closes
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=5)


class _Reaper:
    """One daemon thread that ends idle workers (started with the first worker)."""

    _workers: list[Worker] = []
    _lock = threading.Lock()
    _thread: threading.Thread | None = None

    @classmethod
    def watch(cls, worker: Worker) -> None:
        with cls._lock:
            if worker not in cls._workers:
                cls._workers.append(worker)
            if cls._thread is None:
                cls._thread = threading.Thread(target=cls._run, name="kpca-worker-reaper",
                                               daemon=True)
                cls._thread.start()

    @classmethod
    def _run(cls) -> None:
        while True:
            time.sleep(5.0)
            with cls._lock:
                workers = list(cls._workers)
            for worker in workers:
                try:
                    worker.stop_if_idle()
                except Exception:  # noqa: BLE001, S110 - never take the server down
                    pass


def serve(stdin=None, stdout=None) -> None:
    """The child's loop: run each (func, args, kwargs) read, answer (ok, value)."""
    stdin = stdin or sys.stdin.buffer
    stdout = stdout or sys.stdout.buffer
    sys.stdout = sys.stderr  # a stray print must not corrupt the pipe
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=1)  # as the environment says, for libraries that ignore it
    while True:
        try:
            func, args, kwargs = _read(stdin)
        except EOFError:
            return
        try:
            answer = (True, func(*args, **kwargs))
        except Exception as error:  # noqa: BLE001 - sent back and raised in the parent
            answer = (False, error)
        try:
            _write(stdout, answer)
        except (pickle.PicklingError, TypeError, AttributeError) as error:
            _write(stdout, (False, RuntimeError(f"{type(error).__name__}: {error}")))


if __name__ == "__main__":
    serve()
