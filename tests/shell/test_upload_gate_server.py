"""Files sent to Streamlit's upload address, against a real ``streamlit run`` server (issue
51): a session whose page has no uploader keeps none of them, the bytes all sessions hold
have a ceiling, what a session held goes when it ends, and a student's upload still works
(shell/uploads.py: the gate and the janitor)."""

from __future__ import annotations

import os
import time

import psutil
import pytest
import requests

from loadtest.st_client import StreamlitSession
from shell.uploads import UPLOADS_ENV
from tests.support.browser import Server

pytestmark = pytest.mark.slow
MB, MiB = 10**6, 2**20
FILE = os.urandom(19 * MB)  # just under the uploader's 20 MB
CEILING_MIB = 30  # room for one such file, not two
TTL_S = 2  # Streamlit keeps a closed tab's session this long (120 s by default)


@pytest.fixture(scope="module")
def server():
    env = {**os.environ, UPLOADS_ENV: str(CEILING_MIB),
           "STREAMLIT_SERVER_DISCONNECTED_SESSION_TTL": str(TTL_S)}
    running = Server("upload-gate", env=env)
    warm = StreamlitSession(running.url, timeout=300)
    warm.open("explorer")  # the app's first run: imports, and the gate put in place
    warm.close()
    yield running
    running.stop()


def rss(server) -> int:
    return psutil.Process(server.process.pid).memory_info().rss


def put_status(session: StreamlitSession, data: bytes = FILE) -> int:
    try:
        session.put_file("file.csv", data)
    except requests.HTTPError as error:
        return error.response.status_code
    return 204


def with_uploader(server) -> StreamlitSession:
    session = StreamlitSession(server.url, timeout=300)
    session.open("explorer")
    run = session.set_widget("Dataset", "Your own CSV")
    assert "CSV file" in run.widgets and not run.exceptions
    return session


def test_a_session_whose_page_has_no_uploader_keeps_no_file(server):
    before = rss(server)
    script = StreamlitSession(server.url, timeout=300)
    assert "CSV file" not in script.open("explorer").widgets
    # Before: every one accepted (204) and kept, +727 MiB for 40 of them 210 s after the
    # session closed.
    assert [put_status(script) for _ in range(8)] == [403] * 8
    script.close()
    assert rss(server) - before < 48 * MiB  # 8 × 19 MB were sent


def test_a_students_upload_still_works(server):
    student = with_uploader(server)
    rows = "\n".join(f"{i % 7}.5,{i % 5}.25,{i % 3}" for i in range(90))
    run = student.upload("CSV file", "mine.csv", f"a,b,label\n{rows}".encode())
    assert run.finished and not run.exceptions and not run.error_boxes
    assert "**90 points · 2 input feature(s) · 3 classes**" in run.all_text()
    student.close()


def test_the_bytes_held_have_a_ceiling_and_come_back_when_a_session_ends(server):
    first, second = with_uploader(server), with_uploader(server)
    assert put_status(first) == 204
    assert put_status(first) == 204  # a new file replaces the first: one held
    assert put_status(second) == 503  # 2 × 19 MB > 30 MiB: the server is full for now
    run = second.rerun()
    assert ("The server holds as many uploaded files as it can right now (31.5 MB): your "
            "file was not kept. Try again in a minute.") in run.all_text()
    first.close()
    # Once the first session's reconnect time is over, its file goes and there is room.
    deadline = time.monotonic() + 60
    while (status := put_status(second)) != 204:
        assert status == 503 and time.monotonic() < deadline, status
        time.sleep(1)
    second.close()
