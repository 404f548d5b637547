"""The tour page offers the offline lecture: prepared at a lecturer's request, in the
background in a process of its own (``python -m lecture_pack``, never the server's), one
build at a time and one file per language however many ask, then a download of the file."""

from __future__ import annotations

import collections
import os
import signal
import sys
import threading
import time
from pathlib import Path

import pytest
from threadpoolctl import threadpool_limits

import classroom.join
import classroom.lecturer
import lecture_pack.ahead
from classroom.tour import STEPS
from lecture_pack import __main__ as command_line
from lecture_pack import build, download, html
from server import ahead
from tests.support.apptest import open_app
from words.i18n import use_language

PREPARE = "Prepare the offline lecture"
DOWNLOAD = "Download this lecture"
QUICK_STEPS = STEPS[:2]
QUICK_FRAMES = 3


@pytest.fixture
def quick_build(monkeypatch):
    """No file built yet, and the file cut to the first two steps (three slider values at
    most); every child process started is recorded (language, address, steps), and every
    call the server's own process makes to the build (there should be none)."""
    for name, fresh in (("_files", {}), ("_plans", {}),
                        ("_waiting", collections.deque()), ("_builder", None)):
        monkeypatch.setattr(download, name, fresh)
    children, in_server = [], []
    real = download.child_command
    builders = {name: getattr(build, name) for name in ("build_pack", "build_tour_step")}

    def quick(language, out, base_url, numbers):
        children.append((language, base_url, numbers))
        command = real(language, out, base_url, numbers)
        if not recorded.background:  # on a busy test machine an idle-priority child may
            # wait minutes for a free core; one test checks the priority itself
            command.remove("--background")
        return [*command, "--max-frames", str(QUICK_FRAMES)]

    monkeypatch.setattr(download, "child_command", quick)
    monkeypatch.setattr(download, "lecture_steps", lambda: QUICK_STEPS)
    for name in builders:  # the server's process never builds
        monkeypatch.setattr(build, name, lambda *a, name=name, **kw: in_server.append(
            (name, threading.current_thread().name)))
    recorded = type("QuickBuild", (), {"children": children, "in_server": in_server,
                                       "builders": builders, "background": False})
    return recorded


@pytest.fixture
def lecturer(monkeypatch):
    """The session runs a class: it is the lecturer's."""
    monkeypatch.setattr(classroom.lecturer, "running", lambda: True)


@pytest.fixture
def ahead_on(monkeypatch):
    """Work ahead turned on for the lecture file, not for the tour's views."""
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setattr(lecture_pack.ahead, "start", lambda: None)


def wait_until_finished(language: str = "en", seconds: float = 300) -> download.Build:
    deadline = time.monotonic() + seconds
    while (plan := download.progress(language)) is None or not plan.finished:
        assert time.monotonic() < deadline, "the build did not finish"
        time.sleep(0.2)
    return plan


def wait_for_child(language: str = "en", seconds: float = 60) -> int:
    deadline = time.monotonic() + seconds
    while (plan := download.progress(language)) is None or plan.pid is None:
        assert time.monotonic() < deadline, "no child process was started"
        time.sleep(0.05)
    return plan.pid


def offered(at, downloads) -> str:
    name, content = downloads.button(at, DOWNLOAD)
    text = content.decode("utf-8")
    assert name == "kpca-lab-lecture.html" and text.startswith("<!DOCTYPE html>")
    assert all(step.title in text for step in QUICK_STEPS) and "plotly.js v" in text
    return text


def prepare_button(at):
    return next(b for b in at.button if b.label == PREPARE)


def test_with_work_ahead_off_the_page_prepares_the_lecture_on_request(
        quick_build, downloads, lecturer):
    at = open_app("tour")
    assert not at.exception
    assert [b.label for b in at.button if b.label == PREPARE] == [PREPARE]
    assert not [b for b in at.get("download_button")]  # nothing is built unasked
    prepare_button(at).click().run()
    assert not at.exception and not at.error
    content = offered(at, downloads)
    # Built by one child process, the two steps in it; nothing in the server's own.
    assert [numbers for _, _, numbers in quick_build.children] == [[1, 2]]
    assert quick_build.in_server == []
    at.run()  # the next run: the file is kept, offered at once
    assert not [b for b in at.button if b.label == PREPARE]
    assert downloads.button(at, DOWNLOAD)[1].decode("utf-8") == content


def test_the_lecture_is_prepared_in_the_background_while_the_page_stays_free(
        quick_build, downloads, lecturer, ahead_on):
    at = open_app("tour")
    prepare_button(at).click().run()
    assert not at.exception and not at.error
    # The click's run ends at once: the build goes on in the background, said on the page.
    texts = [m.value for m in at.markdown]
    if not download.lecture_file("en"):
        assert any("Preparing the offline lecture in the background" in t for t in texts), texts
        assert not [b for b in at.button if b.label == PREPARE]
    plan = wait_until_finished()
    assert plan.failed == [] and plan.labels == ("step 1", "step 2", "the file")
    assert plan.done == plan.total
    at.run()
    offered(at, downloads)
    assert len(quick_build.children) == 1 and quick_build.in_server == []


def test_the_build_runs_in_a_child_process_below_everything_with_blas_on_one_thread(
        quick_build, ahead_on):
    quick_build.background = True  # the server's own command line, priority included
    plan = download.request("en", is_lecturer=True)
    pid = wait_for_child()
    assert pid != os.getpid()
    seen, environ = set(), b""
    while not plan.finished:  # read while it runs: /proc/<pid>/stat's nice and policy
        try:
            environ = environ or Path(f"/proc/{pid}/environ").read_bytes()
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            seen.add((int(fields[16]), int(fields[38])))
        except (OSError, IndexError):
            pass  # it has just ended
        time.sleep(0.05)
    assert plan.failed == []
    # Nice 19 and SCHED_IDLE, set before it imports the app (seconds of a core).
    assert (command_line.NICE, os.SCHED_IDLE) in seen
    assert b"OPENBLAS_NUM_THREADS=1" in environ.split(b"\0")
    assert b"OMP_NUM_THREADS=1" in environ.split(b"\0")
    # Nothing of the build ran in the server's process: not a step, not the file.
    assert quick_build.in_server == []


def test_the_file_is_the_one_the_command_line_builds(quick_build, ahead_on, monkeypatch):
    download.request("zh-CN", is_lecturer=True)
    assert wait_until_finished("zh-CN").failed == []
    for name, builder in quick_build.builders.items():
        monkeypatch.setattr(build, name, builder)
    # BLAS on one thread, as in the child: with two, sums run in another order and the
    # explained variance's last digits (1e-16) differ, as they do between hosts.
    with use_language("zh-CN"), threadpool_limits(limits=1):
        here = html.render(build.build_pack(steps=QUICK_STEPS, max_frames=QUICK_FRAMES,
                                            base_url=download.server_address()))
    assert download.lecture_file("zh-CN") == here.encode("utf-8")  # the same numbers


def failing_child(message: str) -> list[str]:
    """A child that builds step 1 and then fails, as a step that raises would."""
    return [sys.executable, "-c",
            f"print('step 1', flush=True); raise RuntimeError({message!r})"]


def test_a_build_that_failed_says_so_and_can_be_started_again(
        quick_build, downloads, lecturer, ahead_on, monkeypatch, caplog):
    working = download.child_command
    monkeypatch.setattr(download, "child_command",
                        lambda *args: failing_child("the digits are not reachable"))
    at = open_app("tour")
    prepare_button(at).click().run()
    plan = wait_until_finished()
    assert plan.failed == ["step 2", "the file"] and not plan.stopped
    assert "the digits are not reachable" in caplog.text  # the log says why
    at.run()
    assert not at.exception
    assert "step 2, the file failed" in at.warning[0].value
    assert not [b for b in at.get("download_button")]
    monkeypatch.setattr(download, "child_command", working)  # the digits are back
    prepare_button(at).click().run()
    assert wait_until_finished().failed == []
    at.run()
    offered(at, downloads)


def test_a_killed_child_is_said_and_the_next_request_builds_again(
        quick_build, downloads, lecturer, ahead_on):
    at = open_app("tour")
    prepare_button(at).click().run()
    os.kill(wait_for_child(), signal.SIGKILL)  # the machine's out-of-memory killer, say
    plan = wait_until_finished()
    assert plan.stopped and plan.failed == ["step 1", "the file"]
    at.run()
    assert not at.exception
    assert "ran out of memory or was stopped" in at.warning[0].value
    prepare_button(at).click().run()  # no build left half-started: the button is back
    retried = wait_until_finished()
    assert retried is not plan and retried.failed == [] and not retried.stopped
    at.run()
    offered(at, downloads)
    assert len(quick_build.children) == 2


def test_a_child_past_its_memory_bound_fails_and_says_so(quick_build, ahead_on, monkeypatch,
                                                         caplog):
    monkeypatch.setenv(download.MEMORY_ENV, "100")  # less than the app's imports need
    # An allocation that fails may be retried forever by a library: the CPU bound ends it.
    monkeypatch.setattr(download, "CPU_SECONDS", 5)
    plan = download.request("en", is_lecturer=True)
    assert wait_until_finished() is plan
    assert plan.stopped and plan.failed == ["step 1", "the file"]
    # An allocation refused, or a signal past its CPU time: the log says which.
    assert any(sign in caplog.text for sign in ("MemoryError", "[Errno 12]", "with code -"))
    assert "ran out of memory" in download.status(plan)
    assert download.lecture_file("en") is None


def test_a_child_that_cannot_start_is_said_and_leaves_no_build_under_way(
        quick_build, ahead_on, monkeypatch):
    working = download.child_command
    monkeypatch.setattr(download, "child_command", lambda *args: ["/nonexistent/python"])
    plan = download.request("en", is_lecturer=True)
    assert wait_until_finished() is plan
    assert plan.failed == ["step 1", "the file"] and plan.pid is None
    assert "could not be prepared (step 1, the file failed" in download.status(plan)
    monkeypatch.setattr(download, "child_command", working)
    retried = download.request("en", is_lecturer=True)  # not joined to the failed one
    assert retried is not plan and wait_until_finished().failed == []


def test_three_requests_at_once_make_one_build_and_each_gets_the_file(
        quick_build, ahead_on, monkeypatch):
    # Three lecturers' browsers, each at an address of its own: what a browser says it is
    # no longer names a build.
    claims = iter(f"http://claimed-{i}.invalid" for i in range(3))
    monkeypatch.setattr(classroom.join, "app_url", lambda: next(claims))
    start = threading.Barrier(3)
    plans = []

    def ask():
        start.wait()
        plans.append(download.request("en", is_lecturer=True))

    askers = [threading.Thread(target=ask) for _ in range(3)]
    for asker in askers:
        asker.start()
    for asker in askers:
        asker.join()
    assert len(plans) == 3 and all(plan is plans[0] for plan in plans)
    assert wait_until_finished().failed == []
    address = download.server_address()
    assert quick_build.children == [("en", address, [1, 2])]  # one build
    assert download.lecture_file("en").startswith(b"<!DOCTYPE html>")
    assert download.request("en", is_lecturer=True) is plans[0]  # asked again: no build
    assert len(quick_build.children) == 1


def test_builds_in_three_languages_run_one_at_a_time(quick_build, ahead_on, monkeypatch):
    running, most = [], []
    real = download._run_child

    def counted(*args):
        running.append(1)
        most.append(len(running))
        try:
            return real(*args)
        finally:
            running.pop()

    monkeypatch.setattr(download, "_run_child", counted)
    monkeypatch.setattr(download, "lecture_steps", lambda: STEPS[:1])  # quicker still
    languages = ("en", "zh-CN", "en-XA")
    for language in languages:
        download.request(language, is_lecturer=True)
    plans = [wait_until_finished(language) for language in languages]
    assert [plan.failed for plan in plans] == [[], [], []]
    assert max(most) == 1  # never two children at once
    assert sorted(language for language, _, _ in quick_build.children) == sorted(languages)
    assert len({plan.pid for plan in plans}) == 3  # a process each, none of them the server
    files = [download.lecture_file(language) for language in languages]
    assert all(file.startswith(b"<!DOCTYPE html>") for file in files)
    assert b'<html lang="zh-CN">' in files[1]
    assert download._builder is None  # no thread left behind


def test_the_links_lead_to_the_servers_own_address(quick_build, monkeypatch):
    monkeypatch.setattr(classroom.join, "app_url", lambda: "http://what-a-browser-says.invalid")
    monkeypatch.setenv(download.PUBLIC_URL_ENV, "https://kpca.example.org/")
    monkeypatch.setattr(download, "lecture_steps", lambda: STEPS[:1])
    assert download.server_address() == "https://kpca.example.org"
    download.request("en", is_lecturer=True)  # work ahead is off in the tests: built now
    assert {address for _, address, _ in quick_build.children} == {"https://kpca.example.org"}
    file = download.lecture_file("en")
    assert b"https://kpca.example.org/" in file and b"what-a-browser-says" not in file
    assert b"localhost" not in file  # the link past the file's last step too
    monkeypatch.delenv(download.PUBLIC_URL_ENV)
    assert download.server_address() == "http://localhost:8501"  # Streamlit's settings


def test_only_a_lecturer_may_have_it_built(quick_build):
    with pytest.raises(download.NotALecturer, match="start a class on the Class tally page"):
        download.request("en", is_lecturer=False)
    assert download.progress("en") is None and quick_build.children == []
    at = open_app("tour")  # a student's session: no class of its own, and no button
    assert not at.exception
    assert not [b for b in at.button if b.label == PREPARE]  # (tests/classroom/test_sealed.py)
    assert download.progress("en") is None and quick_build.children == []
    assert not [b for b in at.get("download_button")]
