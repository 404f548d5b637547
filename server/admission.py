"""Admission control: every computation takes a ticket, and small views have lanes of their own.

One server (Streamlit Community Cloud: one container, about 1–3 GB, two cores) serves a
whole class. Work that nobody counts adds up: 24 tabs on the Explorer at n = 2,500, each
too small to queue on its own, took the server from 269 MB to 1.85 GB and made a
bystander's small view wait 26 s; a Scale timing or a De-noising curve that held both
cores for a minute made a full-USPS request wait 53–78 s while it read "about 1 s".

The policy (:class:`AdmissionControl`), in four rules:

1. **Everything takes a ticket.** Each n × n computation, each long CPU job and each
   upload's parse asks for a turn, saying the bytes it holds at its peak and how long it
   should take: its own estimate (:mod:`server.costs`, a model per kind of work), a lower
   bound when it cannot know.
2. **Lanes by cost, each with its own slots and share of memory.** The ticket joins one
   lane (:func:`lane_for`):

   ========  ==========================================  =====  ==================
   lane      what                                        slots  memory share
   ========  ==========================================  =====  ==================
   quick     ≤ QUICK_BYTES and ≤ QUICK_SECONDS (a tour     2    2 × QUICK_BYTES
             step, the Explorer at a few hundred points)
   small     ≤ SMALL_BYTES and ≤ SMALL_SECONDS (n up to    1    SMALL_SHARE
             2,500 with a working copy)
   upload    parsing an uploaded file                      1    UPLOAD_SHARE
   worker    timed work in the server's worker process     1    the process and
             (Scale's timings, :mod:`server.worker`)              WORKER_JOB_SHARE
   heavy     everything larger or longer (the full USPS,   1    the rest of the budget
             long De-noising)
   ========  ==========================================  =====  ==================

   The shares add up to the server's budget (``$KPCA_SERVER_BUDGET_MB``), so the work
   running at any moment holds at most that, however many tabs are open. No lane waits
   for another: a USPS fit or ten uploads never hold up a small view, and the quick lane
   never waits behind n = 2,500. One slot per lane for long work: on two cores, BLAS
   already uses both, and two eigensolvers side by side only slow each other down.
3. **First come, first served within a lane, per request.** A ticket starts when it is the
   first of its lane whose session is free, a slot is free, and its bytes fit what is
   left of the lane's share. "First" counts requests, not tickets: every ticket of one
   script run of a session (a page that takes three turns one after the other) keeps the
   place of the run's first ticket, so requests finish one after another in the order
   they came, instead of every request in a busy lane advancing a turn at a time and all
   of them finishing together at the end (issue 34: 24 tabs, the last 212 s). A new run
   of the same session is a new request, at the back. A ticket larger than the whole
   share runs alone in its lane (the memory guard, :mod:`server.memory`, has already
   refused anything larger than one computation may hold; with the default budget the
   heavy share is larger than that).
4. **Work done ahead waits for students.** A ticket asked for inside :func:`background`
   (the cache filled ahead of a lab, ``server.ahead``) is served after every student's
   ticket of its lane, however long it has waited: it takes a slot only when no student
   wants it, and then for one computation at a time (it never holds more than a slot).
5. **One computation at a time per session.** A session's second ticket (a stopped run
   still finishing, a page that asks twice) waits for its first: one student cannot take
   several slots. A turn asked for inside a turn the same thread already holds is
   covered by it and passes at once (it would otherwise wait for itself).

A computation that holds a turn never waits for a cache's key lock
(:meth:`shell.caches.BoundedStore.get_or_compute` computes its own value instead): one
thread holding a key lock while it waits for a turn, and another holding a turn while it
waits for that key, would otherwise wait for each other forever.

While a ticket waits, its student reads their place in the lane and the expected wait:
what remains of the estimates of the work running in the lane, plus the estimates of the
tickets ahead, spread over the lane's slots; "at least" when one of them is a lower bound
or a running computation has outlasted its estimate. The estimates come from a cost model
measured on a host at a given load (:mod:`server.costs`); on a busier or quieter host the
same work takes longer or shorter, so each lane keeps its pace (how long its recent work
took against its estimates, a moving average between PACE_LIMITS) and scales what it
says by it: the wait said is the wait the lane has been showing.

:class:`AdmissionControl` is plain Python (tested with threads); :func:`queued` and
:func:`taking_turn` are the Streamlit wrappers pages use, with one server-wide instance.
"""

from __future__ import annotations

import heapq
import itertools
import threading
import time
import weakref
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import streamlit as st

from server.budget import WORKER_BYTES
from server.costs import Estimate, format_seconds
from server.memory import format_bytes, matrix_bytes, megabytes_from_env
from server.worker import Worker
from words.i18n import N_, _, current_language, format_number, use_language

SERVER_BUDGET_ENV = "KPCA_SERVER_BUDGET_MB"
DEFAULT_SERVER_BUDGET_MB = 1536
MB = 2**20
# The quick lane: a kernel matrix and a working copy up to n ≈ 1,000, done in half a second.
QUICK_BYTES, QUICK_SECONDS, QUICK_SLOTS = 16 * MB, 0.5, 2
# The small lane: K and a working copy for n = 2,500 (the Explorer's dense path), so every
# toy dataset and USPS up to 2,500 digits, done within a few seconds.
SMALL_BYTES, SMALL_SECONDS, SMALL_SHARE = matrix_bytes(2500, copies=2), 8.0, 128 * MB
# The upload lane: one parse at a time (Python's parser holds the GIL: two at once are no
# faster, and each would hold its file's cells).
UPLOAD_SHARE = 192 * MB
# The worker lane: the worker process itself and one job in it: Scale's timing at its live
# limit, n = 2,000 (K̃ and a copy). Its larger jobs (the comparison's exact kernel PCA and
# Nyström with m = n, at n = 2,500: 100 and 150 MB) run alone in the lane (one slot).
WORKER_JOB_SHARE = matrix_bytes(2000, copies=2)
LANES = ("quick", "small", "upload", "worker", "heavy")
# Measured (experiments.analysis.analyse, full USPS, n = 7,291, 2 cores): ~3.7 s. For
# callers that give no estimate of their own: dense work grows like n³ and ARPACK's like
# n²·k, n^2.5 is a fair middle.
REFERENCE_N, REFERENCE_SECONDS = 7291, 3.7
# Below this a waiting student sees no notice (a box that flashes for 0.1 s helps nobody).
NOTICE_AFTER_S = 0.5
# A session's place in the lanes is forgotten this long after its last ticket.
PLACE_KEPT_S = 600.0
# A lane's pace (measured time / estimate of its finished work): each finished ticket of
# at least PACE_MIN_S moves it PACE_WEIGHT of the way to its own ratio, within PACE_LIMITS.
PACE_MIN_S, PACE_WEIGHT, PACE_LIMITS = 0.2, 0.3, (0.5, 5.0)


def estimate_seconds(n: int) -> float:
    """A rough running time of an n × n kernel PCA on this kind of host, for callers that
    do not estimate their own work (:func:`queued` without ``estimate``)."""
    return max(0.1, REFERENCE_SECONDS * (n / REFERENCE_N) ** 2.5)


_turns = threading.local()  # the lanes of the turns the current thread holds (nested pass)
# and whether its tickets are background work (rule 4).


@contextmanager
def background() -> Iterator[None]:
    """Within the block, this thread's tickets are background work: served after every
    student's of their lane (rule 4 of the module docstring)."""
    before = getattr(_turns, "background", False)
    _turns.background = True
    try:
        yield
    finally:
        _turns.background = before


def in_background() -> bool:
    return getattr(_turns, "background", False)


def holds_turn(lane: str | None = None) -> bool:
    """Whether the current thread is inside a turn (of ``lane``, if given)."""
    lanes = getattr(_turns, "lanes", [])
    return bool(lanes) and (lane is None or lane in lanes)


def server_budget_bytes() -> int:
    """Memory all running computations together may hold: ``$KPCA_SERVER_BUDGET_MB`` MiB."""
    return megabytes_from_env(SERVER_BUDGET_ENV, DEFAULT_SERVER_BUDGET_MB)


@dataclass(frozen=True)
class Lane:
    """Computations at once (``slots``) and the bytes they may hold together (``share``)."""

    slots: int
    share: int


def default_lanes(budget: int) -> dict[str, Lane]:
    """The lanes of the module docstring; the heavy lane gets what the others leave."""
    quick = Lane(QUICK_SLOTS, QUICK_SLOTS * QUICK_BYTES)
    small, upload = Lane(1, SMALL_SHARE), Lane(1, UPLOAD_SHARE)
    worker = Lane(1, WORKER_BYTES + WORKER_JOB_SHARE)
    rest = budget - quick.share - small.share - upload.share - worker.share
    return {"quick": quick, "small": small, "upload": upload, "worker": worker,
            "heavy": Lane(1, max(rest, 0))}


def lane_for(n_bytes: int, estimate: Estimate, *, upload: bool = False,
             in_worker: bool = False) -> str:
    """The lane a ticket joins, from the bytes it holds and its estimated time.

    A lower bound counts as long work unless it is already small: what cannot be bounded
    should not take a quick slot. Uploads and work in the worker process have lanes of
    their own.
    """
    if upload:
        return "upload"
    if in_worker:
        return "worker"
    if n_bytes <= QUICK_BYTES and estimate.seconds <= QUICK_SECONDS and not estimate.at_least:
        return "quick"
    if n_bytes <= SMALL_BYTES and estimate.seconds <= SMALL_SECONDS:
        return "small"
    return "heavy"


@dataclass(frozen=True)
class Wait:
    """What a waiting ticket is told: its place in its lane and the expected wait."""

    place: int
    seconds: float
    at_least: bool
    lane: str
    own_session: bool = False  # waiting for this session's own other computation

    def text(self) -> str:
        """'about 5 s' or 'at least 5 s'."""
        if self.at_least:
            return _("at least {time}").format(time=format_seconds(self.seconds))
        return _("about {time}").format(time=format_seconds(self.seconds))


WaitCallback = Callable[[Wait], None]


@dataclass
class _Ticket:
    number: int
    lane: str
    n_bytes: int
    estimate: Estimate
    session: str | None
    place: int = 0  # the number of its request's first ticket (rule 3)
    started: float | None = None
    background: bool = False  # work done ahead: after every student's ticket (rule 4)

    def remaining(self, now: float, pace: float = 1.0) -> tuple[float, bool]:
        """Seconds left of its estimate (at the lane's ``pace``), and whether that is only
        a lower bound."""
        left = self.estimate.seconds * pace - (now - (self.started or now))
        return max(left, 0.0), self.estimate.at_least or left < 0


class AdmissionControl:
    """The server-wide queue (thread-safe): lanes, a memory share each, one turn per session.

    Parameters
    ----------
    memory_budget : int
        Bytes all running computations may hold together (split into the lanes' shares).
    lanes : dict, optional
        Lane name → :class:`Lane`; by default :func:`default_lanes` of the budget.
    """

    def __init__(self, memory_budget: int, *, lanes: dict[str, Lane] | None = None) -> None:
        self.memory_budget = memory_budget
        self.lanes = dict(lanes) if lanes is not None else default_lanes(memory_budget)
        self._condition = threading.Condition()
        self._waiting: list[_Ticket] = []
        self._running: list[_Ticket] = []
        self._numbers = itertools.count()
        # session → (its current request, weakly; the request's place; when last seen)
        self._places: dict[str, tuple[Callable[[], object], int, float]] = {}
        self.pace = dict.fromkeys(self.lanes, 1.0)  # measured / estimated, per lane

    @property
    def running(self) -> int:
        with self._condition:
            return len(self._running)

    @property
    def waiting(self) -> int:
        with self._condition:
            return len(self._waiting)

    def held_bytes(self) -> int:
        """Bytes the running computations hold together (≤ the budget, see rule 3)."""
        with self._condition:
            return sum(t.n_bytes for t in self._running)

    # -- the rules (called with the lock held) ---------------------------------------
    def _busy_sessions(self) -> set[str]:
        return {t.session for t in self._running if t.session is not None}

    def _queue(self, lane: str) -> list[_Ticket]:
        """The lane's waiting tickets in the order they are served (rules 3 and 4)."""
        return sorted((t for t in self._waiting if t.lane == lane),
                      key=lambda t: (t.background, t.place, t.number))

    def _eligible(self, lane: str) -> list[_Ticket]:
        """The lane's waiting tickets whose sessions run nothing, in serving order."""
        busy = self._busy_sessions()
        return [t for t in self._queue(lane) if t.session not in busy]

    def _place(self, number: int, session: str | None, request: object | None,
               now: float) -> int:
        """The place of a new ticket: its request's, if the request has had one (rule 3)."""
        for other, (_session, _ticket, seen) in list(self._places.items()):
            if now - seen > PLACE_KEPT_S:
                del self._places[other]
        if session is None or request is None:
            return number
        known = self._places.get(session)
        if known is not None and known[0]() is request:
            place = known[1]
        else:
            place = number
        try:
            ref = weakref.ref(request)
        except TypeError:  # not weakly referable: hold it (one per session)
            ref = (lambda held: lambda: held)(request)
        self._places[session] = (ref, place, now)
        return place

    def _can_start(self, ticket: _Ticket) -> bool:
        eligible = self._eligible(ticket.lane)
        if not eligible or eligible[0] is not ticket:
            return False
        lane = self.lanes[ticket.lane]
        running = [t for t in self._running if t.lane == ticket.lane]
        if len(running) >= lane.slots:
            return False
        held = sum(t.n_bytes for t in running)
        return not running or held + ticket.n_bytes <= lane.share

    def _wait(self, ticket: _Ticket, now: float) -> Wait:
        """The ticket's place and expected wait: the lane's work ahead over its slots."""
        lane = self.lanes[ticket.lane]
        pace = self.pace[ticket.lane]
        at_least = False
        free_at = []
        for running in self._running:
            if running.lane == ticket.lane:
                left, bound = running.remaining(now, pace)
                free_at.append(left)
                at_least |= bound
        free_at += [0.0] * max(lane.slots - len(free_at), 0)
        heapq.heapify(free_at)
        queue = self._queue(ticket.lane)
        ahead = queue[: queue.index(ticket)]
        for other in ahead:
            heapq.heappush(free_at, heapq.heappop(free_at) + other.estimate.seconds * pace)
            at_least |= other.estimate.at_least
        start = free_at[0] if free_at else 0.0
        own = [t for t in self._running if ticket.session is not None
               and t.session == ticket.session]
        for mine in own:
            left, bound = mine.remaining(now, self.pace[mine.lane])
            start, at_least = max(start, left), at_least or bound
        return Wait(len(ahead) + 1, start, at_least, ticket.lane, own_session=bool(own))

    def _learn_pace(self, ticket: _Ticket, now: float) -> None:
        """Move the lane's pace towards how long this finished ticket took against its
        estimate (not for lower bounds, nor for work too short to time)."""
        estimate = ticket.estimate
        if estimate.at_least or estimate.seconds < PACE_MIN_S or ticket.started is None:
            return
        ratio = min(max((now - ticket.started) / estimate.seconds, PACE_LIMITS[0]),
                    PACE_LIMITS[1])
        pace = self.pace[ticket.lane]
        self.pace[ticket.lane] = pace + PACE_WEIGHT * (ratio - pace)

    def _start_if_allowed(self, ticket: _Ticket) -> bool:
        if not self._can_start(ticket):
            return False
        self._waiting.remove(ticket)
        ticket.started = time.monotonic()
        self._running.append(ticket)
        _turns.lanes = [*getattr(_turns, "lanes", []), ticket.lane]
        return True

    # -- the one public operation ----------------------------------------------------
    @contextmanager
    def admit(
        self,
        n_bytes: int,
        *,
        estimate: Estimate,
        session: str | None = None,
        request: object | None = None,
        upload: bool = False,
        in_worker: bool = False,
        on_wait: WaitCallback | None = None,
        poll_s: float = 0.25,
    ) -> Iterator[Wait | None]:
        """Hold a turn for a computation of ``n_bytes`` for the duration of the block.

        ``request``: what identifies the session's current request (one script run), so
        that its tickets keep one place (rule 3); None: each ticket is a request.
        ``on_wait(wait)`` is called (outside the lock) when the ticket has to wait and
        every ``poll_s`` while it does; it may raise (the student left) and the ticket is
        given up. Yields the :class:`Wait` the ticket was first told (None: no wait).
        Inside a turn this thread already holds, passes at once (the outer turn covers it).
        """
        if holds_turn():
            yield None
            return
        lane = lane_for(n_bytes, estimate, upload=upload, in_worker=in_worker)
        first: Wait | None = None
        with self._condition:
            number = next(self._numbers)
            place = self._place(number, session, request, time.monotonic())
            ticket = _Ticket(number, lane, int(n_bytes), estimate, session, place,
                             background=in_background())
            # Joining and, if the rules allow, starting are one step: a ticket that can
            # start is never seen waiting.
            self._waiting.append(ticket)
            started = self._start_if_allowed(ticket)
        try:
            while not started:
                with self._condition:
                    wait = self._wait(ticket, time.monotonic())
                first = first or wait
                if on_wait is not None:
                    on_wait(wait)  # may raise (e.g. the student left): see finally
                with self._condition:
                    started = self._start_if_allowed(ticket)
                    if not started:
                        self._condition.wait(timeout=poll_s)
                        started = self._start_if_allowed(ticket)
            yield first
        finally:
            with self._condition:
                if ticket in self._waiting:
                    self._waiting.remove(ticket)
                if ticket in self._running:
                    self._running.remove(ticket)
                    _turns.lanes = _turns.lanes[:-1]
                    self._learn_pace(ticket, time.monotonic())
                if ticket.session in self._places:  # its place is kept from now on
                    ref, place, _ = self._places[ticket.session]
                    self._places[ticket.session] = (ref, place, time.monotonic())
                self._condition.notify_all()


@st.cache_resource(show_spinner=False)
def server_admission() -> AdmissionControl:
    """The one queue of this server process (shared by every session)."""
    return AdmissionControl(server_budget_bytes())


@st.cache_resource(show_spinner=False)
def server_worker() -> Worker:
    """The one worker process of this server (:mod:`server.worker`); it runs jobs only in a
    turn of the worker lane (``queued(..., in_worker=True)``)."""
    return Worker(lambda: holds_turn("worker"))


# What keeps a lane busy, by lane (a noun phrase of the wait's sentence).
_BUSY_WITH = {
    "quick": N_("other students' small computations"),
    "small": N_("other students' mid-sized computations"),
    "upload": N_("other students' uploads"),
    "worker": N_("other students' timed computations"),
    "heavy": N_("other students' large computations"),
}


def wait_message(wait: Wait, what: str, n_bytes: int) -> str:
    """What a waiting student reads: why, their place, the expected wait, what is waiting.

    ``what`` is an English noun phrase marked with ``N_`` by the caller (translated here).
    """
    what = _("{what} ({size})").format(what=_(what), size=format_bytes(n_bytes))
    what = f"{what[:1].upper()}{what[1:]}"
    if wait.own_session and wait.place == 1:
        return _("Your previous computation is still finishing (one at a time per student); "
                 "expected wait: {wait}. {what} starts right after it.").format(
            wait=wait.text(), what=what)
    ahead = (_("you are next") if wait.place == 1 else
             _("you are number {place} in the queue").format(place=format_number(wait.place)))
    return _("The server is busy with {busy}; {ahead}. Expected wait: {wait}. {what} starts "
             "as soon as there is room.").format(busy=_(_BUSY_WITH[wait.lane]), ahead=ahead,
                                                 wait=wait.text(), what=what)


def _session_and_request() -> tuple[str | None, object | None]:
    """This session's id and what identifies its current script run: Streamlit makes a new
    ``ScriptRunContext.parallel_coordinator`` at the start of every run (fragment runs
    included), "a fresh instance ... at the start of every script run"."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return None, None
    return ctx.session_id, getattr(ctx, "parallel_coordinator", None)


@contextmanager
def taking_turn(n_bytes: int, *, estimate: Estimate, what: str,
                upload: bool = False, in_worker: bool = False) -> Iterator[None]:
    """Run the block when the server has room for ``n_bytes`` (see the module docstring).

    While the request waits (longer than :data:`NOTICE_AFTER_S`), the page says where it
    stands and how long the wait should be; the notice disappears when the work starts.
    """
    session, request = _session_and_request()
    # Work started ahead of time (server.ahead) runs outside any page: nobody to tell.
    notice = st.empty() if session is not None else None
    started = time.monotonic()
    language = current_language()  # the waiting session's, whichever thread tells it

    def show_wait(wait: Wait) -> None:
        if notice is None:
            return
        if wait.seconds >= NOTICE_AFTER_S or time.monotonic() - started >= NOTICE_AFTER_S:
            with use_language(language):
                message = wait_message(wait, what, n_bytes)
            notice.info(message, icon=":material/hourglass_top:")

    try:
        with server_admission().admit(n_bytes, estimate=estimate, session=session,
                                      request=request, upload=upload, in_worker=in_worker,
                                      on_wait=show_wait):
            if notice is not None:
                notice.empty()
            yield
    finally:
        if notice is not None:
            notice.empty()


def queued(n: int, *, copies: float = 1.0, estimate: Estimate | None = None,
           what: str = N_("this computation"), in_worker: bool = False):
    """:func:`taking_turn` for work that holds ``copies`` n × n float64 matrices at its peak.

    ``estimate``: the caller's own (:mod:`server.costs`); without one, a kernel PCA of size
    n (:func:`estimate_seconds`). ``in_worker``: the work runs in the worker process
    (:func:`server_worker`), in its lane.
    """
    estimate = estimate if estimate is not None else Estimate(estimate_seconds(n))
    return taking_turn(matrix_bytes(n, copies=copies), estimate=estimate, what=what,
                       in_worker=in_worker)
