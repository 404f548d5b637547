"""The tour page offers the offline lecture: prepared on request, in the background a step
at a time (each step its own turn in the server's queue), then a download of the file."""

from __future__ import annotations

import time

import pytest

import classroom.join
import lecture_pack.ahead
from classroom.tour import STEPS
from lecture_pack import build, download
from server import ahead
from shell.caches import bounded_cache
from tests.support.apptest import open_app

PREPARE = "Prepare the offline lecture"
DOWNLOAD = "Download this lecture"
QUICK_STEPS = STEPS[:2]


@pytest.fixture
def quick_build(monkeypatch):
    """Fresh caches, and the file cut to the first two steps (three slider values at most);
    every turn the build takes in the server's queue, recorded."""
    real = build.build_tour_step
    monkeypatch.setattr(build, "build_tour_step",
                        lambda number, step, **kw: real(number, step, **kw, max_frames=3))
    monkeypatch.setattr(download, "lecture_steps", lambda: QUICK_STEPS)
    monkeypatch.setattr(download, "built_step",
                        bounded_cache(max_entries=4)(download.built_step.__wrapped__))
    monkeypatch.setattr(download, "lecture_file",
                        bounded_cache(max_entries=2)(download.lecture_file.__wrapped__))
    turns = []
    real_queued = download.queued

    def queued(n, **kw):
        turns.append(kw["what"])
        return real_queued(n, **kw)

    monkeypatch.setattr(download, "queued", queued)
    return turns


@pytest.fixture
def address(monkeypatch, request):
    """The live address the page builds for: one per test (the plans are per process)."""
    url = f"http://{request.node.name.replace('_', '-')[:40]}.invalid"
    monkeypatch.setattr(classroom.join, "app_url", lambda: url)
    return url


@pytest.fixture
def ahead_on(monkeypatch):
    """Work ahead turned on for the lecture file, not for the tour's views."""
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setattr(lecture_pack.ahead, "start", lambda: None)


def wait_until_finished(url: str, seconds: float = 300) -> ahead.Plan:
    deadline = time.monotonic() + seconds
    while (plan := download.progress(url)) is None or not plan.finished:
        assert time.monotonic() < deadline, "the build did not finish"
        time.sleep(0.2)
    return plan


def offered(at, downloads) -> str:
    name, content = downloads.button(at, DOWNLOAD)
    text = content.decode("utf-8")
    assert name == "kpca-lab-lecture.html" and text.startswith("<!DOCTYPE html>")
    assert all(step.title in text for step in QUICK_STEPS) and "plotly.js v" in text
    return text


def test_with_work_ahead_off_the_page_prepares_the_lecture_on_request(
        quick_build, downloads, address):
    at = open_app("tour")
    assert not at.exception
    assert [b.label for b in at.button if b.label == PREPARE] == [PREPARE]
    assert not [b for b in at.get("download_button")]  # nothing is built unasked
    next(b for b in at.button if b.label == PREPARE).click().run()
    assert not at.exception and not at.error
    content = offered(at, downloads)
    # Each step took its own turn in the queue: never the whole build in one.
    assert quick_build == [f"step {n} of the offline lecture" for n in (1, 2)]
    at.run()  # the next run: the file is kept, offered at once
    assert not [b for b in at.button if b.label == PREPARE]
    assert downloads.button(at, DOWNLOAD)[1].decode("utf-8") == content


def test_the_lecture_is_prepared_in_the_background_while_the_page_stays_free(
        quick_build, downloads, address, ahead_on):
    at = open_app("tour")
    next(b for b in at.button if b.label == PREPARE).click().run()
    assert not at.exception and not at.error
    # The click's run ends at once: the build goes on in the background, said on the page.
    texts = [m.value for m in at.markdown]
    if not download.lecture_file.cached(address):
        assert any("Preparing the offline lecture in the background" in t for t in texts), texts
        assert not [b for b in at.button if b.label == PREPARE]
    plan = wait_until_finished(address)
    assert plan.failed == [] and plan.labels == ("step 1", "step 2", "the file")
    at.run()
    offered(at, downloads)
    assert quick_build == [f"step {n} of the offline lecture" for n in (1, 2)]


def test_a_build_that_failed_says_so_and_can_be_started_again(
        quick_build, downloads, address, ahead_on, monkeypatch):
    real = build.build_tour_step
    monkeypatch.setattr(build, "build_tour_step", lambda number, step, **kw: (
        (_ for _ in ()).throw(RuntimeError("the digits are not reachable"))
        if number == 2 else real(number, step, **kw)))
    at = open_app("tour")
    next(b for b in at.button if b.label == PREPARE).click().run()
    plan = wait_until_finished(address)
    assert plan.failed == ["step 2", "the file"]
    at.run()
    assert not at.exception
    assert "step 2, the file failed" in at.warning[0].value
    assert not [b for b in at.get("download_button")]
    monkeypatch.setattr(build, "build_tour_step", real)  # the digits are back
    next(b for b in at.button if b.label == PREPARE).click().run()
    assert wait_until_finished(address).failed == []
    at.run()
    offered(at, downloads)
    # Step 1 was kept from the first attempt: only step 2 took a second turn.
    assert quick_build.count("step 1 of the offline lecture") == 1
    assert quick_build.count("step 2 of the offline lecture") == 2
