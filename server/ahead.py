"""Work done ahead: computations a lecture will need, started before anybody asks for them.

A step of the tour that computes for half a minute when it is reached is half a minute of
dead air in front of the room (issue 35: 36–52 s on Classification's USPS step). The
results of that work are the same for every student (built-in data, the step's settings),
and they land in the server-wide caches every session reads (``shell.caches``). So when a
lecturer opens the tour or starts a class, the tour's views are computed in the
background, one after the other, and each step is a cache read by the time it is reached.

:func:`prepare` runs a named plan of jobs on one daemon thread per server process, once:
opening the tour again, or a second lecturer, finds the plan running or done and starts
nothing. Every job's heavy part takes its turn in the server's queue like any request
(``queued(...)`` sits inside the cached functions it calls), so the plan never holds more
memory than a student's request would, and runs one computation at a time. A job that
fails is counted and logged and the plan goes on: the page will say why when it is reached.

``KPCA_PREPARE_AHEAD=0`` turns it off (the benchmark's cold run; a host that prefers to
compute only on demand).
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field

from server import admission

ENV = "KPCA_PREPARE_AHEAD"
THREAD_PREFIX = "kpca-ahead-"
_LOG = logging.getLogger(__name__)


class _OutsidePages(logging.Filter):
    """Streamlit warns about every ``st`` call made outside a script run ("missing
    ScriptRunContext"); the work done ahead makes them on purpose (a progress bar inside a
    cached function draws nothing there), so its threads' warnings are dropped."""

    def filter(self, record: logging.LogRecord) -> bool:
        return not record.threadName.startswith(THREAD_PREFIX)


logging.getLogger("streamlit.runtime.scriptrunner_utils.script_run_context").addFilter(
    _OutsidePages())


@dataclass
class Plan:
    """A named list of jobs run in order in the background, and how far it has got."""

    name: str
    labels: tuple[str, ...]
    done: int = 0
    failed: list[str] = field(default_factory=list)
    seconds: float | None = None  # when finished: how long the whole plan took

    @property
    def total(self) -> int:
        return len(self.labels)

    @property
    def finished(self) -> bool:
        return self.seconds is not None


_plans: dict[str, Plan] = {}
_lock = threading.Lock()


def enabled(environ: Mapping[str, str] = os.environ) -> bool:
    return environ.get(ENV, "1").strip().lower() not in {"0", "false", "no", "off"}


Jobs = Sequence[tuple[str, Callable[[], object]]]


def prepare(name: str, jobs: Jobs | Callable[[], Jobs], *,
            background: bool = False) -> Plan | None:
    """Start the plan ``name`` (``(label, job)`` pairs, run in order) unless it has been
    started in this process; returns its progress, or None when work ahead is turned off.

    ``jobs`` may be a function that makes the list: it is called on the plan's own thread
    (a long list that loads data to be made must not hold up the page that starts it);
    the plan's labels are empty until then.

    ``background``: its turns in the server's queue come after every student's
    (:func:`server.admission.background`): for work nobody is waiting for yet (the lab's
    cache), unlike the tour's views, which the lecturer is about to show."""
    if not enabled():
        return None
    with _lock:
        if name in _plans:
            return _plans[name]
        plan = _plans[name] = Plan(name, () if callable(jobs) else
                                   tuple(label for label, _ in jobs))
    threading.Thread(target=_run, args=(plan, jobs, background),
                     name=f"{THREAD_PREFIX}{name}", daemon=True).start()
    return plan


def progress(name: str) -> Plan | None:
    """The plan ``name`` as far as it has got, or None if it was never started."""
    with _lock:
        return _plans.get(name)


def _run(plan: Plan, jobs: Jobs | Callable[[], Jobs], background: bool = False) -> None:
    started = time.monotonic()
    if callable(jobs):
        try:
            jobs = list(jobs())
        except Exception as error:  # noqa: BLE001 - no plan: the pages compute on demand
            _LOG.warning("Planning %s ahead failed (%s: %s)", plan.name,
                         type(error).__name__, error)
            jobs = []
        plan.labels = tuple(label for label, _ in jobs)
    for label, job in jobs:
        try:
            if background:
                with admission.background():
                    job()
            else:
                job()
        except Exception as error:  # noqa: BLE001 - the page says why when it is reached
            record_failure(plan, label, error)
        plan.done += 1
    plan.seconds = time.monotonic() - started


def record_failure(plan: Plan, label: str, error: Exception) -> None:
    """Count the job ``label`` of ``plan`` as failed, and say why in the server's log: one
    line, no traceback (the usual causes are the page's own messages: the USPS digits not
    reachable yet, a setting the kernel refuses)."""
    _LOG.warning("Preparing %s ahead failed (%s: %s); its page says why when it is opened",
                 label, type(error).__name__, error)
    plan.failed.append(label)
