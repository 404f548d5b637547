"""The tour page offers the offline lecture: prepared on request (in the server's queue),
then a download of the file itself."""

from __future__ import annotations

import pytest

from classroom.tour import STEPS
from lecture_pack import build, download
from shell.caches import bounded_cache
from tests.support.apptest import open_app

PREPARE = "Prepare the offline lecture"
DOWNLOAD = "Download this lecture"


@pytest.fixture
def quick_build(monkeypatch):
    """A fresh cache, and the build cut to the first step (three slider values at most)."""
    real = build.build_pack
    monkeypatch.setattr(build, "build_pack", lambda **kw: real(
        **{**kw, "steps": STEPS[:2], "max_frames": 3}))
    monkeypatch.setattr(download, "lecture_file",
                        bounded_cache(max_entries=2)(download.lecture_file.__wrapped__))


def test_the_tour_page_prepares_the_lecture_on_request_then_offers_it(quick_build, downloads):
    at = open_app("tour")
    assert not at.exception
    assert [b.label for b in at.button if b.label == PREPARE] == [PREPARE]
    assert not [b for b in at.get("download_button")]  # nothing is built unasked
    next(b for b in at.button if b.label == PREPARE).click().run()
    assert not at.exception and not at.error
    name, content = downloads.button(at, DOWNLOAD)
    text = content.decode("utf-8")
    assert name == "kpca-lab-lecture.html" and text.startswith("<!DOCTYPE html>")
    assert STEPS[0].title in text and STEPS[1].title in text and "plotly.js v" in text
    at.run()  # the next run: the file is kept, offered at once
    assert not [b for b in at.button if b.label == PREPARE]
    assert downloads.button(at, DOWNLOAD)[1] == content
