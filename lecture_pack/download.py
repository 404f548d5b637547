"""The tour page's "Download this lecture": one file per language, built once, by a lecturer.

The build is heavy (every step's views at every slider value: a minute or two of a core,
eigen-solvers that hold Python's lock for seconds), so it runs in a process of its own:
``python -m lecture_pack`` (:mod:`lecture_pack.__main__`, the same
:func:`lecture_pack.build.build_pack` as the command line), started by the server and
writing the file to a temporary folder, from which the server reads it back. The child:

* **never holds the server's lock** (Python's GIL): a student's view in the server waits
  for none of its steps (issue 51: its eigen-solvers, run in the server's own process,
  froze every session for up to 18 s);
* **runs below everything else** (``--background``: nice 19 and Linux's ``SCHED_IDLE``)
  with BLAS on one thread (``server.worker.CHILD_ENV``): it takes only the CPU nobody else
  wants at that moment, and never more than one core;
* **has its own memory bound** (:data:`MEMORY_ENV`, default :data:`DEFAULT_MEMORY_MB`): a
  build that would hold more fails, with a message, instead of taking the students'
  memory; and a bound on its CPU time (:data:`CPU_SECONDS`): under a tight memory bound
  one child spun on one core for minutes instead of failing (a library retrying an
  allocation), and a build must end;
* **tells its progress** a line per step built (``--progress``), which the tour page shows.

So it takes no turn in the server's queue (the queue shares the server's own process and
memory; the operating system's scheduler puts the child behind every student instead), and
the students' work never waits behind it. Where work ahead is turned off
(``KPCA_PREPARE_AHEAD=0``) the lecturer who asks waits for it instead (:func:`request`
runs it from the asking thread, still in its own process).

Why not the server's worker process (``server/worker.py``): its one slot is Scale's timed
work, and a build there would hold it for minutes; and the step code (the lessons' pages'
pure functions, with Streamlit's caches, which work outside a running app as in the
command line) needs nothing of the server but its address, passed as ``--base-url``.

What nobody else may do with it (issue 51: each address a browser sent, in each language,
started a build of its own, by anyone, and three at once evicted each other's steps from a
shared 20-entry cache until every one of them failed):

* **by a lecturer only**: :func:`request` takes ``is_lecturer`` (a class running in the
  session; a passcode, where the server asks for one, comes before a class) and refuses
  anyone else;
* **one file per language**, its links leading back to the server's own address
  (:func:`server_address`), never to what a browser says it is; a file lives in the
  process's memory, so it is of the code version the process runs;
* **one build at a time**: a request for a language being built, or waiting to be, joins
  that build; others wait in line behind it, built by one thread that ends when the line is
  empty (no thread, and no plan, per address or per request);
* **its steps kept until its file is written**, in the child's own memory (nothing shared
  with another build evicts them). A build that failed (a step's error, the child killed
  or out of memory) says so and leaves nothing behind: the next request starts afresh.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import threading
import time
from collections import deque
from dataclasses import dataclass
from pathlib import Path

from classroom.tour import STEPS, TourStep, offline_steps
from lecture_pack.__main__ import PROGRESS
from server import ahead
from server.budget import megabytes_from_env
from server.worker import CHILD_ENV
from words.i18n import _

PLAN = "the offline lecture"
FILE_JOB = "the file"
# The address students' browsers reach the app at, when it is not Streamlit's
# browser.serverAddress and browser.serverPort (behind a proxy that terminates HTTPS).
PUBLIC_URL_ENV = "KPCA_PUBLIC_URL"
ROOT = Path(__file__).resolve().parents[1]
# The child's data (heap and anonymous mappings), MiB: the whole lecture's build peaked at
# 412 MiB (VmData; 358 MiB resident) on the development host, so twice that is a runaway.
MEMORY_ENV, DEFAULT_MEMORY_MB = "KPCA_LECTURE_BUILD_MB", 768
# The child's CPU time: the whole lecture took 20-21 CPU s on the development host, so a
# build past thirty times that is stuck, not slow (at the lowest priority a busy machine
# stretches its wall-clock time, not its CPU time).
CPU_SECONDS = 600
# How the child's last error line starts when an allocation failed (past its bound).
OUT_OF_MEMORY = ("MemoryError", "OSError: [Errno 12]")


class NotALecturer(PermissionError):
    """Only a lecturer may have the offline lecture built; the message says how to be one."""


@dataclass
class Build(ahead.Plan):
    """A build's progress (one job per step, then the file), and the process running it."""

    pid: int | None = None  # the child process that builds it
    stopped: bool = False  # the child ran out of memory (its bound) or was killed


def lecture_steps() -> tuple[TourStep, ...]:
    """The steps the file holds: those the tour draws offline (the lecture)."""
    return offline_steps()


def server_address() -> str:
    """Where the file's links lead back to: the server's own address, ``$KPCA_PUBLIC_URL``
    if set, else the one Streamlit is told its students use (``browser.serverAddress``,
    ``browser.serverPort``, ``server.baseUrlPath``)."""
    if public := os.environ.get(PUBLIC_URL_ENV, "").strip():
        return public.rstrip("/")
    from streamlit import config
    from streamlit.web.server.server_util import get_url

    return get_url(config.get_option("browser.serverAddress")).rstrip("/")


def child_command(language: str, out: Path, base_url: str, numbers: list[int]) -> list[str]:
    """The child process that builds the file: ``python -m lecture_pack`` for these steps,
    in ``language``, below everything else, within its bounds, telling each step."""
    return [sys.executable, "-m", "lecture_pack", "--lang", language, "--out", str(out),
            "--base-url", base_url, "--steps", *map(str, numbers), "--progress",
            "--background",
            "--memory-mb", f"{megabytes_from_env(MEMORY_ENV, DEFAULT_MEMORY_MB) / 2**20:g}",
            "--cpu-seconds", str(CPU_SECONDS)]


# -- the builds, one at a time ----------------------------------------------------------

_lock = threading.Lock()
_files: dict[str, bytes] = {}  # language → its file
_plans: dict[str, Build] = {}  # language → its last build's progress
_waiting: deque[str] = deque()  # languages whose build has not started, in order
_builder: threading.Thread | None = None  # builds what waits; ends when nothing does
_building = threading.Lock()  # held by the one build that runs


def lecture_file(language: str) -> bytes | None:
    """The file in ``language``, once built (None before)."""
    with _lock:
        return _files.get(language)


def progress(language: str) -> Build | None:
    """How far the build of the file in ``language`` has got, if one was asked for."""
    with _lock:
        return _plans.get(language)


def request(language: str, *, is_lecturer: bool) -> Build:
    """Have the file in ``language`` built, or join the build under way; returns its
    progress. In the background where work ahead is on, else here and now (the returned
    plan is then finished). A build that failed is started again. Raises
    :class:`NotALecturer` (with what to do) for anyone but a lecturer."""
    if not is_lecturer:
        raise NotALecturer(_(
            "Only the lecturer can prepare the offline lecture: start a class on the Class "
            "tally page first (with the lecturer passcode, if this server asks for one)."))
    global _builder
    numbers = _step_numbers()
    with _lock:
        plan = _plans.get(language)
        if language in _files or (plan is not None and not plan.finished):
            return plan  # built, or being built: joined
        plan = _plans[language] = Build(
            f"{PLAN} in {language}", (*(f"step {n}" for n in numbers), FILE_JOB))
        if ahead.enabled():
            _waiting.append(language)
            if _builder is None:
                _builder = threading.Thread(target=_build_waiting, daemon=True,
                                            name=f"{ahead.THREAD_PREFIX}{PLAN}")
                _builder.start()
            return plan
    _build(language, plan, numbers)
    return plan


def _step_numbers() -> list[int]:
    return [STEPS.index(step) + 1 for step in lecture_steps()]


def _build_waiting() -> None:
    """The builder thread: every language waiting, in turn; it ends when none is left."""
    global _builder
    while True:
        with _lock:
            if not _waiting:
                _builder = None
                return
            language = _waiting.popleft()
            plan = _plans[language]
        _build(language, plan, _step_numbers())


def _build(language: str, plan: Build, numbers: list[int]) -> None:
    """Build the file in ``language`` in a child process (one build at a time), telling
    ``plan`` how far it has got; whatever becomes of the child, the plan ends, with the
    file or with what failed, and the next request can build again."""
    started = time.monotonic()
    try:
        with _building, tempfile.TemporaryDirectory(prefix="kpca-lecture-") as folder:
            out, errors = Path(folder) / "lecture.html", Path(folder) / "errors.txt"
            try:
                code = _run_child(child_command(language, out, server_address(), numbers),
                                  plan, numbers, errors)
                file = out.read_bytes() if code == 0 else None
            except OSError as error:  # the child could not start, or left no file
                code, file = None, None
                errors.write_text(f"{type(error).__name__}: {error}")
            if file is not None:
                with _lock:
                    _files[language] = file
                plan.done = plan.total
            else:
                _failed(plan, code, errors)
    except Exception as error:  # noqa: BLE001 - never a build left "under way": said, logged
        ahead.record_failure(plan, FILE_JOB, error)
    finally:
        plan.seconds = time.monotonic() - started


def _run_child(command: list[str], plan: Build, numbers: list[int], errors: Path) -> int:
    """Run the child to its end, counting each of the steps ``numbers`` as it says it has
    built it, its standard error kept in ``errors``; returns its exit code (negative: the
    signal that ended it)."""
    with errors.open("wb") as stderr:
        child = subprocess.Popen(command, cwd=ROOT, text=True, stdin=subprocess.DEVNULL,
                                 stdout=subprocess.PIPE, stderr=stderr,
                                 env={**os.environ, **CHILD_ENV, "PYTHONPATH": str(ROOT)})
    plan.pid = child.pid
    with child:  # waits for it to end
        for line in child.stdout:
            if plan.done < len(numbers) and line.strip() == PROGRESS.format(
                    number=numbers[plan.done]):
                plan.done += 1
    return child.returncode


def _failed(plan: Build, code: int | None, errors: Path) -> None:
    """The child ended without the file: the step it was at failed, and the file with it;
    out of memory (past its bound) or ended by a signal (past its CPU time, or the
    machine's out-of-memory killer), it is said so. Why goes to the log."""
    lines = errors.read_text(errors="replace").strip().splitlines() if errors.exists() else []
    last = lines[-1] if lines else ""
    plan.stopped = (code is not None and code < 0) or last.startswith(OUT_OF_MEMORY)
    why = f"the process ended with code {code}" + (f": {last}" if last else "")
    ahead.record_failure(plan, plan.labels[plan.done], RuntimeError(why))
    if plan.labels[plan.done] != FILE_JOB:
        plan.failed.append(FILE_JOB)
    plan.done = plan.total


# -- the page's words -------------------------------------------------------------------


def job_title(label: str) -> str:
    """A job's label in a plan ("step 3", "the file") in the language of this run."""
    if label.startswith("step ") and label[5:].isdigit():
        return _("step {number}").format(number=label[5:])
    return _("the file") if label == FILE_JOB else label


def status(plan: Build) -> str:
    """The tour page's line about the build, from its progress (in this run's language)."""
    if not plan.finished:
        steps = plan.total - 1
        return _("Preparing the offline lecture in the background: {done} of {steps} steps "
                 "built… You can go on with the lecture meanwhile.").format(
            done=min(plan.done, steps), steps=steps)
    if not plan.failed:
        return _("The offline lecture is ready.")
    if plan.stopped:
        return _("The process preparing the offline lecture ran out of memory or was stopped "
                 "before it was done (the server's log says which). Press the button to try "
                 "again.")
    return _("The offline lecture could not be prepared ({failed} failed; the server's log "
             "says why). Press the button to try again.").format(
        failed=", ".join(job_title(label) for label in plan.failed))
