"""The tour page's "Download this lecture": one file per language, built once, by a lecturer.

The build is heavy (every step's views at every slider value: minutes), so it runs in the
background, one step after the other, and each step takes its own turn in the server's
queue: the students' work waits at most one step's turn behind it, never the whole build,
and the lecturer's page stays free while it goes on (the tour page follows its progress).
Where work ahead is turned off (``KPCA_PREPARE_AHEAD=0``) the lecturer who asks waits for
it instead (:func:`request` builds in the asking thread).

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
* **its steps kept until its file is written**, in the build's own store (nothing shared
  with another build evicts them); a build that failed keeps the steps it did build for
  the next request.

Why not in the server's worker process (``server/worker.py``), away from the server's GIL:
a step is the lessons' own page code (the bounded caches the pages read, the admission
queue, Streamlit's caching), which the worker must never import (it runs without
Streamlit), and Scale's step times its kernel PCA in that same worker, whose one slot is
timed work's; each step here already takes a turn of the queue like a student's request.
"""

from __future__ import annotations

import os
import threading
import time
from collections import deque

from classroom.tour import STEPS, TourStep, offline_steps
from lecture_pack import build, html
from server import ahead
from server.admission import queued
from server.costs import Estimate
from shell.caches import inputs_of
from words.i18n import _, use_language

# What a step costs: the whole build (ten steps, 60 frames in all, the two
# USPS pages at their defaults) took 85 s of wall clock on the shared 2-core machine at
# load 2–4 (``python -m lecture_pack --json``): a step's share is a lower bound, and the
# queue learns the rest.
STEP_SECONDS = 8.0
PLAN = "the offline lecture"
FILE_JOB = "the file"
# The address students' browsers reach the app at, when it is not Streamlit's
# browser.serverAddress and browser.serverPort (behind a proxy that terminates HTTPS).
PUBLIC_URL_ENV = "KPCA_PUBLIC_URL"


class NotALecturer(PermissionError):
    """Only a lecturer may have the offline lecture built; the message says how to be one."""


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


def build_step(number: int, base_url: str, language: str) -> dict:
    """Step ``number`` of the file in ``language``, its links pointing back to the app at
    ``base_url``, built in its own turn in the server's queue. The language is passed in:
    the build runs in a background thread, which has none of its own."""
    step = STEPS[number - 1]
    n = len(inputs_of(step.settings()).X)
    with queued(n, copies=2, estimate=Estimate(STEP_SECONDS, at_least=True),
                what=f"step {number} of the offline lecture"), use_language(language):
        return build.build_tour_step(number, step, base_url=base_url)


# -- the builds, one at a time ----------------------------------------------------------

_lock = threading.Lock()
_files: dict[str, bytes] = {}  # language → its file
_steps: dict[str, dict[int, dict]] = {}  # language → the steps built, until its file is
_plans: dict[str, ahead.Plan] = {}  # language → its last build's progress
_waiting: deque[str] = deque()  # languages whose build has not started, in order
_builder: threading.Thread | None = None  # builds what waits; ends when nothing does
_building = threading.Lock()  # held by the one build that runs


def lecture_file(language: str) -> bytes | None:
    """The file in ``language``, once built (None before)."""
    with _lock:
        return _files.get(language)


def progress(language: str) -> ahead.Plan | None:
    """How far the build of the file in ``language`` has got, if one was asked for."""
    with _lock:
        return _plans.get(language)


def request(language: str, *, is_lecturer: bool) -> ahead.Plan:
    """Have the file in ``language`` built, or join the build under way; returns its
    progress. In the background where work ahead is on, else here and now (the returned
    plan is then finished). A build that failed is started again: the steps it built are
    reads. Raises :class:`NotALecturer` (with what to do) for anyone but a lecturer."""
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
        plan = _plans[language] = ahead.Plan(
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


def _build(language: str, plan: ahead.Plan, numbers: list[int]) -> None:
    """Build the file in ``language`` (one build at a time), telling ``plan`` how far it
    has got; a step that fails is counted and the build goes on, without its file."""
    started = time.monotonic()
    address = server_address()
    with _building:
        with _lock:
            built = _steps.setdefault(language, {})
        for number in numbers:
            if number not in built:
                try:
                    built[number] = build_step(number, address, language)
                except Exception as error:  # noqa: BLE001 - said on the page, why logged
                    ahead.record_failure(plan, f"step {number}", error)
            plan.done += 1
        if all(number in built for number in numbers):
            with use_language(language):
                file = html.render(build.assemble([built[n] for n in numbers]))
            with _lock:
                _files[language] = file.encode("utf-8")
                del _steps[language]  # written: its steps are no longer needed
        else:
            plan.failed.append(FILE_JOB)
        plan.done += 1
    plan.seconds = time.monotonic() - started


# -- the page's words -------------------------------------------------------------------


def job_title(label: str) -> str:
    """A job's label in a plan ("step 3", "the file") in the language of this run."""
    if label.startswith("step ") and label[5:].isdigit():
        return _("step {number}").format(number=label[5:])
    return _("the file") if label == FILE_JOB else label


def status(plan: ahead.Plan) -> str:
    """The tour page's line about the build, from its progress (in this run's language)."""
    if not plan.finished:
        steps = plan.total - 1
        return _("Preparing the offline lecture in the background: {done} of {steps} steps "
                 "built… You can go on with the lecture meanwhile.").format(
            done=min(plan.done, steps), steps=steps)
    if not plan.failed:
        return _("The offline lecture is ready.")
    return _("The offline lecture could not be prepared ({failed} failed; the server's log "
             "says why). Press the button to try again.").format(
        failed=", ".join(job_title(label) for label in plan.failed))
