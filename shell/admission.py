"""Admission control: big computations take turns; small views never wait behind them.

One server (Streamlit Community Cloud: one container, about 1–3 GB, two cores) serves a
whole class. Three students asking for the full USPS kernel (n = 7,291: 425 MB each, a
few seconds of BLAS on both cores) at once used to run all three side by side: the
server's memory peaked at 1.7 GB and each student waited 33–42 s, because three
eigensolvers shared two cores. Taking turns is faster for everyone and bounded in memory.

The rule (:class:`AdmissionControl`):

* a request of at most ``small_bytes`` (every toy dataset, USPS up to a few thousand digits)
  runs at once, whatever else is queued — a big request never makes a small view wait;
* a big request joins a first-come-first-served queue and starts when it is at the
  head, fewer than ``max_running`` big computations are running, and the memory held by
  those plus its own stays within ``memory_budget``;
* while it waits, the caller is told its place in the queue and the expected wait (the
  sum of the estimated times of the work ahead of it).

:class:`AdmissionControl` is plain Python (tested with threads); :func:`queued` is the
Streamlit wrapper pages use, with one server-wide instance.
"""

from __future__ import annotations

import itertools
import threading
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import streamlit as st

from shell.memory import format_bytes, megabytes_from_env

SERVER_BUDGET_ENV = "KPCA_SERVER_BUDGET_MB"
DEFAULT_SERVER_BUDGET_MB = 1536
# Up to this a computation runs at once: K and a working copy for n = 2,500 (the
# Explorer's dense path), so every toy dataset and USPS up to 2,500 digits.
SMALL_BYTES = 2 * 8 * 2500**2
# Measured (experiments.analysis.analyse, full USPS, n = 7,291, 2 cores): ~3.7 s. Dense work
# grows like n³ and ARPACK's like n²·k; n^2.5 is a fair middle for an estimate.
REFERENCE_N, REFERENCE_SECONDS = 7291, 3.7

WaitCallback = Callable[[int, float], None]


def estimate_seconds(n: int) -> float:
    """A rough running time for an n × n kernel PCA on this kind of host (for waits only)."""
    return max(0.1, REFERENCE_SECONDS * (n / REFERENCE_N) ** 2.5)


def server_budget_bytes() -> int:
    """Memory all big computations together may hold: ``$KPCA_SERVER_BUDGET_MB`` MiB."""
    return megabytes_from_env(SERVER_BUDGET_ENV, DEFAULT_SERVER_BUDGET_MB)


@dataclass
class _Ticket:
    number: int
    n_bytes: int
    estimate_s: float
    started: float | None = None


class AdmissionControl:
    """A server-wide queue for big computations (thread-safe).

    Parameters
    ----------
    memory_budget : int
        Bytes that the big computations running at the same time may hold together.
    max_running : int
        How many big computations may run at once (1 on two cores: BLAS already uses
        both, so two eigensolvers side by side only slow each other down).
    small_bytes : int
        Requests below this run at once and are not counted.
    """

    def __init__(
        self, memory_budget: int, *, max_running: int = 1, small_bytes: int = SMALL_BYTES
    ) -> None:
        self.memory_budget = memory_budget
        self.max_running = max_running
        self.small_bytes = small_bytes
        self._condition = threading.Condition()
        self._waiting: list[_Ticket] = []
        self._running: list[_Ticket] = []
        self._numbers = itertools.count()

    def is_small(self, n_bytes: int) -> bool:
        return n_bytes <= self.small_bytes

    @property
    def running(self) -> int:
        with self._condition:
            return len(self._running)

    @property
    def waiting(self) -> int:
        with self._condition:
            return len(self._waiting)

    def _can_start(self, ticket: _Ticket) -> bool:
        if not self._waiting or self._waiting[0] is not ticket:
            return False
        if len(self._running) >= self.max_running:
            return False
        held = sum(t.n_bytes for t in self._running)
        # A request larger than the whole budget still runs, alone (the per-computation
        # memory guard has already refused anything the server cannot hold at all).
        return not self._running or held + ticket.n_bytes <= self.memory_budget

    def _expected_wait(self, ticket: _Ticket, now: float) -> float:
        running = sum(
            max(t.estimate_s - (now - (t.started or now)), 0.0) for t in self._running
        )
        ahead = self._waiting[: self._waiting.index(ticket)]
        return running + sum(t.estimate_s for t in ahead)

    @contextmanager
    def admit(
        self,
        n_bytes: int,
        *,
        estimate_s: float,
        on_wait: WaitCallback | None = None,
        poll_s: float = 0.25,
    ) -> Iterator[int]:
        """Hold a place for a computation of ``n_bytes`` for the duration of the block.

        ``on_wait(place, expected_seconds)`` is called (outside the lock) when the
        request has to wait and every ``poll_s`` while it does; place 1 is the head of
        the queue. Yields the place the request had when it arrived (0 = no wait).
        """
        if self.is_small(n_bytes):
            yield 0
            return
        ticket = _Ticket(next(self._numbers), int(n_bytes), float(estimate_s))
        with self._condition:
            self._waiting.append(ticket)
            first_place = 0 if self._can_start(ticket) else self._waiting.index(ticket) + 1
        try:
            while True:
                with self._condition:
                    if self._can_start(ticket):
                        self._waiting.remove(ticket)
                        ticket.started = time.monotonic()
                        self._running.append(ticket)
                        break
                    place = self._waiting.index(ticket) + 1
                    expected = self._expected_wait(ticket, time.monotonic())
                if on_wait is not None:
                    on_wait(place, expected)  # may raise (e.g. the student left): see finally
                with self._condition:
                    if not self._can_start(ticket):
                        self._condition.wait(timeout=poll_s)
            yield first_place
        finally:
            with self._condition:
                if ticket in self._waiting:
                    self._waiting.remove(ticket)
                if ticket in self._running:
                    self._running.remove(ticket)
                self._condition.notify_all()


@st.cache_resource(show_spinner=False)
def server_admission() -> AdmissionControl:
    """The one queue of this server process (shared by every session)."""
    return AdmissionControl(server_budget_bytes())


def wait_message(place: int, expected_s: float, what: str, n_bytes: int) -> str:
    """What a waiting student reads: their place, the expected wait, what is waiting."""
    ahead = "you are next" if place == 1 else f"you are number {place} in the queue"
    return (
        f"The server is busy with other students' large computations; {ahead}. "
        f"Expected wait: about {max(1, round(expected_s))} s. {what[:1].upper()}{what[1:]} "
        f"({format_bytes(n_bytes)}) starts as soon as there is room; small datasets "
        "are never held up."
    )


@contextmanager
def queued(n: int, *, copies: float = 1.0, what: str = "this computation") -> Iterator[None]:
    """Run the block when the server has room for ``copies`` n × n matrices.

    While the request waits, the page says where it stands in the queue and how long
    the wait should be; the message disappears when the computation starts.
    """
    n_bytes = int(copies * 8 * n * n)
    notice = st.empty()

    def show_wait(place: int, expected: float) -> None:
        notice.info(wait_message(place, expected, what, n_bytes),
                    icon=":material/hourglass_top:")

    try:
        with server_admission().admit(n_bytes, estimate_s=estimate_seconds(n),
                                      on_wait=show_wait):
            notice.empty()
            yield
    finally:
        notice.empty()
