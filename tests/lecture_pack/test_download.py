"""The tour page offers the offline lecture: prepared at a lecturer's request, in the
background a step at a time (each step its own turn in the server's queue), one build at a
time and one file per language however many ask, then a download of the file."""

from __future__ import annotations

import collections
import threading
import time

import pytest

import classroom.join
import classroom.lecturer
import lecture_pack.ahead
from classroom.tour import STEPS
from lecture_pack import build, download
from server import ahead
from tests.support.apptest import open_app
from words.i18n import current_language

PREPARE = "Prepare the offline lecture"
DOWNLOAD = "Download this lecture"
QUICK_STEPS = STEPS[:2]


@pytest.fixture
def quick_build(monkeypatch):
    """No file built yet, and the file cut to the first two steps (three slider values at
    most); every step built is recorded (number, language, address), and every turn the
    build takes in the server's queue."""
    for name, fresh in (("_files", {}), ("_steps", {}), ("_plans", {}),
                        ("_waiting", collections.deque()), ("_builder", None)):
        monkeypatch.setattr(download, name, fresh)
    built = []
    real = build.build_tour_step

    def quick(number, step, **kw):
        built.append((number, current_language(), kw["base_url"]))
        return real(number, step, **kw, max_frames=3)

    monkeypatch.setattr(build, "build_tour_step", quick)
    monkeypatch.setattr(download, "lecture_steps", lambda: QUICK_STEPS)
    turns = []
    real_queued = download.queued

    def queued(n, **kw):
        turns.append(kw["what"])
        return real_queued(n, **kw)

    monkeypatch.setattr(download, "queued", queued)
    return type("QuickBuild", (), {"built": built, "turns": turns})


@pytest.fixture
def lecturer(monkeypatch):
    """The session runs a class: it is the lecturer's."""
    monkeypatch.setattr(classroom.lecturer, "running", lambda: True)


@pytest.fixture
def ahead_on(monkeypatch):
    """Work ahead turned on for the lecture file, not for the tour's views."""
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setattr(lecture_pack.ahead, "start", lambda: None)


def wait_until_finished(language: str = "en", seconds: float = 300) -> ahead.Plan:
    deadline = time.monotonic() + seconds
    while (plan := download.progress(language)) is None or not plan.finished:
        assert time.monotonic() < deadline, "the build did not finish"
        time.sleep(0.2)
    return plan


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
    # Each step took its own turn in the queue: never the whole build in one.
    assert quick_build.turns == [f"step {n} of the offline lecture" for n in (1, 2)]
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
    at.run()
    offered(at, downloads)
    assert quick_build.turns == [f"step {n} of the offline lecture" for n in (1, 2)]


def test_a_build_that_failed_says_so_and_can_be_started_again(
        quick_build, downloads, lecturer, ahead_on, monkeypatch):
    recording = build.build_tour_step
    monkeypatch.setattr(build, "build_tour_step", lambda number, step, **kw: (
        (_ for _ in ()).throw(RuntimeError("the digits are not reachable"))
        if number == 2 else recording(number, step, **kw)))
    at = open_app("tour")
    prepare_button(at).click().run()
    plan = wait_until_finished()
    assert plan.failed == ["step 2", "the file"]
    at.run()
    assert not at.exception
    assert "step 2, the file failed" in at.warning[0].value
    assert not [b for b in at.get("download_button")]
    monkeypatch.setattr(build, "build_tour_step", recording)  # the digits are back
    prepare_button(at).click().run()
    assert wait_until_finished().failed == []
    at.run()
    offered(at, downloads)
    # Step 1 was kept from the first attempt: only step 2 took a second turn.
    assert quick_build.turns.count("step 1 of the offline lecture") == 1
    assert quick_build.turns.count("step 2 of the offline lecture") == 2


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
    assert quick_build.built == [(1, "en", address), (2, "en", address)]  # one build
    assert download.lecture_file("en").startswith(b"<!DOCTYPE html>")
    assert download.request("en", is_lecturer=True) is plans[0]  # asked again: no build
    assert len(quick_build.built) == 2


def test_builds_in_three_languages_run_one_at_a_time_and_keep_their_steps(
        quick_build, ahead_on, monkeypatch):
    running, most = [], []
    recording = build.build_tour_step

    def counted(number, step, **kw):
        running.append(number)
        most.append(len(running))
        try:
            return recording(number, step, **kw)
        finally:
            running.pop()

    monkeypatch.setattr(build, "build_tour_step", counted)
    monkeypatch.setattr(download, "lecture_steps", lambda: STEPS[:1])  # quicker still
    languages = ("en", "zh-CN", "en-XA")
    for language in languages:
        download.request(language, is_lecturer=True)
    plans = [wait_until_finished(language) for language in languages]
    assert [plan.failed for plan in plans] == [[], [], []]
    assert max(most) == 1  # never two steps built at once
    # Each step built once per language: no build evicted another's.
    assert sorted(language for _, language, _ in quick_build.built) == sorted(languages)
    files = [download.lecture_file(language) for language in languages]
    assert all(file.startswith(b"<!DOCTYPE html>") for file in files)
    assert b'<html lang="zh-CN">' in files[1]
    assert not download._steps  # written: the steps are let go
    assert download._builder is None  # no thread left behind


def test_the_links_lead_to_the_servers_own_address(quick_build, monkeypatch):
    monkeypatch.setattr(classroom.join, "app_url", lambda: "http://what-a-browser-says.invalid")
    monkeypatch.setenv(download.PUBLIC_URL_ENV, "https://kpca.example.org/")
    monkeypatch.setattr(download, "lecture_steps", lambda: STEPS[:1])
    assert download.server_address() == "https://kpca.example.org"
    download.request("en", is_lecturer=True)  # work ahead is off in the tests: built now
    assert {address for _, _, address in quick_build.built} == {"https://kpca.example.org"}
    file = download.lecture_file("en")
    assert b"https://kpca.example.org/" in file and b"what-a-browser-says" not in file
    monkeypatch.delenv(download.PUBLIC_URL_ENV)
    assert download.server_address() == "http://localhost:8501"  # Streamlit's settings


def test_only_a_lecturer_may_have_it_built(quick_build):
    with pytest.raises(download.NotALecturer, match="start a class on the Class tally page"):
        download.request("en", is_lecturer=False)
    assert download.progress("en") is None and quick_build.built == []
    at = open_app("tour")  # a student's session: no class of its own, and no button
    assert not at.exception
    assert not [b for b in at.button if b.label == PREPARE]  # (tests/classroom/test_sealed.py)
    assert download.progress("en") is None and quick_build.built == []
    assert not [b for b in at.get("download_button")]
