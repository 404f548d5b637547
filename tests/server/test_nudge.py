"""server/nudge.py: which sessions the nudging thread reruns, and how often it reads.

The thread's own look (:func:`server.nudge.tick`) is run here on a recording event loop;
that a nudge really reruns a browser session's fragment on a running server is
``tests/classroom/test_follow_server.py``'s.
"""

from __future__ import annotations

import pytest

from server import nudge


class RecordingLoop:
    """Stands for the server's event loop: records what would run on it."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def call_soon_threadsafe(self, function, session_id, watch) -> None:
        assert function is nudge._nudge
        self.calls.append(session_id)


@pytest.fixture(autouse=True)
def no_watches():
    with nudge._lock:
        nudge._watches.clear()
        nudge._readers.clear()
    yield
    with nudge._lock:
        nudge._watches.clear()
        nudge._readers.clear()


def watch(session_id: str, topic, seen, read) -> nudge._Watch:
    w = nudge._Watch("poll", topic, seen, page_script_hash="page", query_string="")
    nudge._add(session_id, w, read)
    return w


def test_only_the_sessions_whose_screen_is_behind_are_nudged_and_each_topic_is_read_once():
    state = {"class A": 3, "class B": 7}
    reads: list[str] = []

    def read(topic):
        reads.append(topic)
        return state[topic]

    for i in range(50):
        watch(f"a{i}", "class A", 3, read)
    watch("b-behind", "class B", 6, read)
    watch("b-current", "class B", 7, read)
    loop = RecordingLoop()
    assert nudge.tick(loop) == 1
    assert loop.calls == ["b-behind"]
    assert sorted(reads) == ["class A", "class B"]  # once per topic, not per session

    state["class A"] = 4  # the lecturer moves: every phone of class A is behind
    loop = RecordingLoop()
    assert nudge.tick(loop) == 50
    assert sorted(loop.calls) == sorted(f"a{i}" for i in range(50))


def test_a_nudged_session_is_not_nudged_again_before_renudge_s_and_is_after():
    w = watch("s", "topic", "old", lambda topic: "new")
    loop = RecordingLoop()
    assert nudge.tick(loop) == 1
    assert nudge.tick(loop) == 0  # its rerun is on its way
    w.nudged_at -= nudge.RENUDGE_S  # ...and never came (the fragment was not drawn yet)
    assert nudge.tick(loop) == 1
    assert loop.calls == ["s", "s"]
    # Its fragment ran and shows the new value: it watches afresh, and is not behind.
    watch("s", "topic", "new", lambda topic: "new")
    assert nudge.tick(loop) == 0


def test_a_topic_that_cannot_be_read_now_nudges_nobody_and_the_others_go_on():
    def read(topic):
        if topic == "down":
            raise ConnectionError("the store is not answering")
        return "new"

    watch("s1", "down", "old", read)
    watch("s2", "up", "old", read)
    loop = RecordingLoop()
    assert nudge.tick(loop) == 1 and loop.calls == ["s2"]


def test_a_topic_nobody_watches_any_more_is_not_read():
    reads: list[str] = []

    def read(topic):
        reads.append(topic)
        return 1

    watch("s", "first", 1, read)
    nudge.tick(RecordingLoop())
    watch("s", "second", 1, read)  # the session watches another topic now
    reads.clear()
    nudge.tick(RecordingLoop())
    assert reads == ["second"]
    assert nudge.watching() == 1


def test_the_fallback_period_is_the_usual_one_only_when_nudges_do_not_work(monkeypatch):
    assert nudge.available()  # the installed Streamlit has what nudging needs
    assert nudge.fallback_period(2) == nudge.FALLBACK_S
    monkeypatch.setattr(nudge, "_INTERNALS", False)
    assert nudge.fallback_period(2) == 2
