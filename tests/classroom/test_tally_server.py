"""A class on a real server (classroom/tally.py, classroom/lecturer.py): several students'
sessions join with the code from the lecturer's page, answer a tour step's question, and
the lecturer's tally counts exactly those answers; a wrong code is refused, a second
class stays separate, and the server's limits hold (2 classes, 4 students here).

Driven by the load generator's protocol client (``loadtest/st_client.py``), each
session a browser tab of its own, several at once in threads.
"""

from __future__ import annotations

import os
import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest

import datasets
from classroom.questions import CATALOGUE, build
from classroom.tour import STEPS
from loadtest.st_client import StreamlitSession
from tests.support.browser import Server

pytestmark = pytest.mark.slow
QUESTION, LABELS = CATALOGUE["best_gamma"]  # tour step 5; the lecturer's page shows LABELS


def step_5_options() -> list[str]:
    """The option texts a student sees at step 5 (they name the page's panels)."""
    settings = STEPS[4].settings()
    data = datasets.load(settings.dataset, **settings.options)
    return [o.text for o in build("best_gamma", data.X, data.y, settings).options]


OPTIONS = step_5_options()


@pytest.fixture(scope="module")
def server():
    running = Server("tally", env=os.environ | {"KPCA_TALLY_MAX_CLASSES": "2",
                                                "KPCA_TALLY_MAX_STUDENTS": "4"})
    yield running
    running.stop()


def ok(run):
    assert run.finished and not run.exceptions and not run.error_boxes, run
    return run


def lecturer(server) -> tuple[StreamlitSession, str]:
    session = StreamlitSession(server.url, timeout=120)
    ok(session.open("class_tally"))
    run = ok(session.click("Start a class"))
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", run.all_text()).group(1)
    code = code.replace(" ", "")
    # The link the QR code carries: the app's address (not the tally page's), the code and
    # the lecturer's language.
    assert f"{server.url}/tour?class={code}&lang=en" in run.texts, [
        t for t in run.texts if "http" in t]
    return session, code


def student(server, code: str, *answers: str) -> str:
    """Join ``code`` by its link, open step 5's view, answer; what the page said last."""
    session = StreamlitSession(server.url, timeout=120)
    try:
        ok(session.open("tour", f"step=5&class={code}"))
        ok(session.click("Open this view"))
        for answer in answers:
            run = ok(session.set_widget(QUESTION, answer))
        return run.all_text()
    finally:
        session.close()


def counts(session: StreamlitSession) -> tuple[list[str], str]:
    text = ok(session.rerun()).all_text()
    bars = [line for line in text.split("\n") if line.startswith(LABELS)]
    joined = re.search(r"\*\*(\d+)\*\* students? joined", text).group(1)
    return bars, joined


def test_a_class_counts_exactly_its_students_answers(server):
    room_a, code_a = lecturer(server)
    room_b, code_b = lecturer(server)
    assert code_a != code_b
    with ThreadPoolExecutor(max_workers=4) as pool:  # four students at the same moment
        said = list(pool.map(lambda answers: student(server, code_a, *answers),
                             [[OPTIONS[1]], [OPTIONS[1]], [OPTIONS[0], OPTIONS[2]],
                              [OPTIONS[1]]]))
    assert all(f"Counted anonymously in class {code_a}" in text for text in said), said
    student(server, code_b, OPTIONS[2])

    # Each student once, with their latest answer; class B's answer is not in A's tally.
    tally = [f"{label}: {count}" for label, count in zip(LABELS, (0, 3, 1, 0), strict=True)]
    assert counts(room_a) == (tally, "4")
    assert counts(room_b) == ([f"{label}: {count}" for label, count in
                               zip(LABELS, (0, 0, 1, 0), strict=True)], "1")

    # Limits: a fifth student in A is refused cleanly (the view still answers them),
    # and a third class on this server of two.
    refused = student(server, code_a, OPTIONS[1])
    assert "This class is full (4 students)" in refused
    assert counts(room_a) == (tally, "4")
    third = StreamlitSession(server.url, timeout=120)
    ok(third.open("class_tally"))
    assert "already runs 2 classes" in ok(third.click("Start a class")).all_text()
    for session in (room_a, room_b, third):
        session.close()


def test_a_wrong_code_is_refused_with_a_message(server):
    session = StreamlitSession(server.url, timeout=120)
    run = ok(session.open("tour", "step=5&class=QQQQQQ"))
    assert "Class code QQQQQQ: No class with this code is running here" in run.all_text()
    session.close()


# ------------------------------------------------------------------ the doors (issue 34)
GRACE_S = 8


@pytest.fixture(scope="module")
def doors():
    """A server of 2 classes whose classes end 8 s after their lecturer was last seen,
    and which lets 3 students in at once, then 6 a minute."""
    running = Server("tally-doors", env=os.environ | {
        "KPCA_TALLY_MAX_CLASSES": "2", "KPCA_TALLY_LECTURER_GRACE_S": str(GRACE_S),
        "KPCA_TALLY_JOIN_BURST": "3", "KPCA_TALLY_JOINS_PER_MINUTE": "6",
        "KPCA_LECTURER_PASSCODE": ""})
    yield running
    running.stop()


def joins(server, code: str) -> str:
    """A student opens the class's link; what the page said about the class."""
    session = StreamlitSession(server.url, timeout=120)
    try:
        return ok(session.open("tour", f"class={code}")).all_text()
    finally:
        session.close()


def test_a_server_full_of_unjoined_classes_makes_room_for_a_lecturer(doors):
    # Issue 49: one client held every class open (its tabs stayed connected), and every
    # lecturer was refused for as long as it did.
    script = [lecturer(doors) for _ in range(2)]
    late = StreamlitSession(doors.url, timeout=120)
    ok(late.open("class_tally"))
    run = ok(late.click("Start a class"))  # at once: the oldest unjoined class gives way
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", run.all_text()).group(1).replace(" ", "")
    assert "No class with this code" in joins(doors, script[0][1])
    assert f"Class code {script[1][1]}:" not in joins(doors, script[1][1])
    assert f"Class code {code}:" not in joins(doors, code)
    for session in (late, script[1][0]):  # the next test starts with an empty server
        ok(session.click("End the class"))
    for session in (late, *(session for session, _ in script)):
        session.close()


def test_a_script_cannot_keep_the_lecturers_out_or_fill_the_class(doors):
    # A script opens every class the server holds, seats a student in each (so that none
    # gives way), from tabs it then closes.
    script = [lecturer(doors) for _ in range(2)]
    for _, code in script:
        assert f"Class code {code}:" not in joins(doors, code)
    late = StreamlitSession(doors.url, timeout=120)
    ok(late.open("class_tally"))
    assert "already runs 2 classes, each with students" in ok(
        late.click("Start a class")).all_text()
    for session, _ in script:
        session.close()
    # Nobody keeps those classes alive: after the grace period a lecturer gets in.
    closed = time.monotonic()
    while time.monotonic() - closed < 60:
        run = ok(late.click("Start a class"))
        if "Class code" in run.all_text():
            break
        time.sleep(1)
    assert GRACE_S - 1 <= time.monotonic() - closed < 60, run.all_text()
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", run.all_text()).group(1).replace(" ", "")
    for _, gone in script:
        assert "No class with this code" in joins(doors, gone)

    # Three students come in at once; a script's fourth seat waits its turn.
    for _ in range(3):
        assert f"Class code {code}:" not in joins(doors, code)
    assert "faster than it lets them in" in joins(doors, code)
    text = ok(late.rerun()).all_text()
    assert "**3** students joined (3 in the last minute)" in text
    # The lecturer removes them and closes the door: nobody new comes in.
    ok(late.click("Remove the 3 who joined in the last minute"))
    ok(late.set_widget("Students may join", False))
    text = ok(late.rerun()).all_text()
    assert "**0** students joined (0 in the last minute; joining is closed)" in text
    assert "closed this class to new students" in joins(doors, code)
    late.close()


# ------------------------------------------- the client's address behind a proxy (issue 49)
@pytest.fixture(scope="module")
def open_server():
    """A server with the default limits (two classes per address without the passcode)."""
    running = Server("tally-address", env=os.environ | {"KPCA_LECTURER_PASSCODE": ""})
    yield running
    running.stop()


def starts_a_class(server, **client) -> bool:
    """Whether a lecturer connecting as ``client`` (StreamlitSession's headers and source
    address) starts a class; refused only as the address's third."""
    session = StreamlitSession(server.url, timeout=120, **client)
    try:
        ok(session.open("class_tally"))
        text = ok(session.click("Start a class")).all_text()
        if "Class code" not in text:
            assert "This address already runs 2 classes" in text, text
            return False
        ok(session.click("End the class"))  # counted no more: the next test starts empty
        return True
    finally:
        session.close()


def test_behind_a_proxy_on_this_machine_each_client_is_its_own_address(open_server):
    # HAProxy (option forwardfor) appends the address it took the request from to
    # X-Forwarded-For; the server trusts its own machine as a proxy (uvicorn's
    # FORWARDED_ALLOW_IPS, default 127.0.0.1 and ::1) and takes the right-most hop it does
    # not trust: what a client writes in the header before it is not believed.
    held = []
    for spoof in ("192.0.2.1", "192.0.2.2"):
        session = StreamlitSession(open_server.url, timeout=120, headers={
            "X-Forwarded-For": f"{spoof}, 203.0.113.9"})
        ok(session.open("class_tally"))
        assert "Class code" in ok(session.click("Start a class")).all_text()
        held.append(session)
    try:
        assert not starts_a_class(open_server,
                                  headers={"X-Forwarded-For": "192.0.2.3, 203.0.113.9"})
        assert starts_a_class(open_server, headers={"X-Forwarded-For": "203.0.113.10"})
    finally:
        for session in held:
            ok(session.click("End the class"))
            session.close()


def test_a_client_not_behind_a_trusted_proxy_cannot_claim_another_address(open_server):
    # A client connecting from another machine (here 127.0.0.2, which the server does not
    # trust as a proxy) writes a new X-Forwarded-For each time: it is ignored, and the
    # client's own address holds two classes at most.
    held = []
    for spoof in ("203.0.113.1", "203.0.113.2"):
        session = StreamlitSession(open_server.url, timeout=120, source_address="127.0.0.2",
                                   headers={"X-Forwarded-For": spoof})
        ok(session.open("class_tally"))
        assert "Class code" in ok(session.click("Start a class")).all_text()
        held.append(session)
    try:
        assert not starts_a_class(open_server, source_address="127.0.0.2",
                                  headers={"X-Forwarded-For": "203.0.113.3"})
        assert starts_a_class(open_server, source_address="127.0.0.3")
    finally:
        for session in held:
            ok(session.click("End the class"))
            session.close()
