"""server/nudge.py: which sessions the nudging thread reruns, in what turn, and how often
it reads.

The thread's own look (:func:`server.nudge.tick`) is run here with the server's event loop
replaced by one that records what would run on it; that a nudge really reruns a browser
session's fragment on a running server is ``tests/classroom/test_follow_server.py``'s.
"""

from __future__ import annotations

import pytest

from server import nudge


class RecordingLoop:
    """Stands for the server's event loop: records the sessions it would nudge."""

    def __init__(self) -> None:
        self.calls: list[str] = []

    def call_soon_threadsafe(self, function, session_id, watch) -> None:
        assert function is nudge._nudge
        self.calls.append(session_id)


def clear() -> None:
    with nudge._lock:
        for held in (nudge._watches, nudge._readers, nudge._latest, nudge._queue,
                     nudge._moving, nudge._asked):
            held.clear()


@pytest.fixture
def loop(monkeypatch):
    recording = RecordingLoop()
    monkeypatch.setattr(nudge, "_event_loop", lambda: recording)
    monkeypatch.setattr(nudge, "_start_thread", lambda: None)  # the test ticks itself
    clear()
    yield recording
    clear()


def watch(session_id: str, topic, seen, read) -> nudge._Watch:
    w = nudge._Watch("poll", topic, seen)
    nudge._add(session_id, w, read)
    return w


def test_only_the_sessions_whose_screen_is_behind_are_nudged_and_each_topic_is_read_once(
        loop):
    state = {"class A": 3, "class B": 7}
    reads: list[str] = []

    def read(topic):
        reads.append(topic)
        return state[topic]

    watch("b-current", "class B", 7, read)
    watch("b-behind", "class B", 6, read)
    for i in range(50):
        watch(f"a{i}", "class A", 3, read)
    assert nudge.tick() == 1
    assert loop.calls == ["b-behind"]
    assert sorted(reads) == ["class A", "class B"]  # once per topic, not per session


def test_a_room_moves_in_turn_each_finished_move_letting_the_next_go(loop):
    state = {"class": 1}
    for i in range(10):
        watch(f"s{i}", "class", 1, lambda topic: state["class"])
    state["class"] = 2  # the lecturer moves: every phone is behind
    assert nudge.tick() == nudge.MOVING_AT_ONCE
    assert nudge.tick() == 0  # their runs are on their way: no one more, none twice
    done = 0
    while done < len(loop.calls):  # each run in turn watches again...
        watch(loop.calls[done], "class", 2, lambda topic: state["class"])
        done += 1
        # ...and the next in turn goes at once, never more than MOVING_AT_ONCE at a time
        assert len(loop.calls) - done == min(nudge.MOVING_AT_ONCE, 10 - done)
    assert loop.calls == [f"s{i}" for i in range(10)]  # in turn, each once


def test_a_nudged_run_that_ends_without_watching_lets_the_next_go_at_the_next_look(
        loop, monkeypatch):
    state = {"class": 1}
    for i in range(nudge.MOVING_AT_ONCE + 1):
        watch(f"s{i}", "class", 1, lambda topic: state["class"])
    state["class"] = 2
    assert nudge.tick() == nudge.MOVING_AT_ONCE
    with nudge._lock:  # the server asked for their runs (what _nudge does on the loop)
        nudge._asked.update(loop.calls)
    running = set(loop.calls) - {"s0"}  # s0's run ended (it raised) without watching
    monkeypatch.setattr(nudge, "_run_over", lambda session_id: session_id not in running)
    assert nudge.tick() == 1
    last = f"s{nudge.MOVING_AT_ONCE}"
    assert loop.calls[-1] == last  # its place went to the next
    assert "s0" not in nudge._moving and "s0" not in nudge._queue  # not nudged again
    running.add(last)
    assert nudge.tick() == 0  # the others still run: their places stay taken
    assert loop.calls.count("s0") == 1


def test_a_session_that_catches_up_by_itself_is_not_nudged(loop):
    state = {"class": 1}
    for i in range(nudge.MOVING_AT_ONCE + 1):
        watch(f"s{i}", "class", 1, lambda topic: state["class"])
    state["class"] = 2
    nudge.tick()
    last = f"s{nudge.MOVING_AT_ONCE}"
    assert last not in loop.calls  # waiting its turn...
    watch(last, "class", 2, lambda topic: state["class"])  # ...its own timer ran first
    watch("s0", "class", 2, lambda topic: state["class"])  # a place frees
    assert last not in loop.calls


def test_a_nudge_not_delivered_frees_its_place_and_the_session_is_queued_again(loop):
    w = watch("s", "topic", "old", lambda topic: "new")
    assert nudge.tick() == 1
    nudge._not_delivered("s", w)  # the session had not drawn its fragment yet
    assert "s" not in nudge._moving
    assert nudge.tick() == 1
    assert loop.calls == ["s", "s"]
    watch("s", "topic", "new", lambda topic: "new")  # its fragment ran: not behind
    assert nudge.tick() == 0


def test_a_move_that_never_ends_frees_its_place_and_is_nudged_again_after_move_s(loop):
    state = {"class": 1}
    for i in range(nudge.MOVING_AT_ONCE + 1):
        watch(f"s{i}", "class", 1, lambda topic: state["class"])
    state["class"] = 2
    assert nudge.tick() == nudge.MOVING_AT_ONCE
    with nudge._lock:  # the first run was lost before it could watch again
        nudge._moving["s0"] -= nudge.MOVE_S + 1
    assert nudge.tick() == 1
    assert loop.calls[-1] == f"s{nudge.MOVING_AT_ONCE}"  # its place went to the next
    assert "s0" in nudge._queue  # still behind: queued again
    for i in range(1, nudge.MOVING_AT_ONCE + 1):  # the others' runs watch again
        watch(f"s{i}", "class", 2, lambda topic: state["class"])
    # The lost one, again (not left to its slow timer), once a place is free.
    assert loop.calls.count("s0") == 2 and loop.calls[-1] == "s0"


def test_a_topic_that_cannot_be_read_now_nudges_nobody_and_the_others_go_on(loop):
    def read(topic):
        if topic == "down":
            raise ConnectionError("the store is not answering")
        return "new"

    watch("s1", "down", "old", read)
    watch("s2", "up", "old", read)
    assert nudge.tick() == 1 and loop.calls == ["s2"]


def test_a_topic_nobody_watches_any_more_is_not_read(loop):
    reads: list[str] = []

    def read(topic):
        reads.append(topic)
        return 1

    watch("s", "first", 1, read)
    nudge.tick()
    watch("s", "second", 1, read)  # the session watches another topic now
    reads.clear()
    nudge.tick()
    assert reads == ["second"]
    assert nudge.watching() == 1


def test_the_fallback_period_is_the_usual_one_only_when_nudges_do_not_work(monkeypatch):
    assert nudge.available()  # the installed Streamlit has what nudging needs
    assert nudge.fallback_period(2) == nudge.FALLBACK_S
    monkeypatch.setattr(nudge, "_INTERNALS", False)
    assert nudge.fallback_period(2) == 2


class Pages:
    """Stands for a run's pages manager: two pages of an app in /app."""

    def get_pages(self):
        return {"h-home": {"script_path": "/app/app_pages/home.py", "page_script_hash": "h-home"},
                "h-spectrum": {"script_path": "/app/app_pages/spectrum.py",
                               "page_script_hash": "h-spectrum"}}


def test_a_value_that_asks_for_another_page_runs_that_page_with_its_query(loop):
    def page_for(step):
        return {2: ("app_pages/spectrum.py", {"section": "2", "a b": "c&d"}),
                3: ("app_pages/not_a_page.py", {})}.get(step)

    w = nudge._Watch("poll", "class A", 1, page_for=page_for, pages=Pages(),
                     main_script_path="/app/app.py")
    nudge._add("s", w, lambda topic: 2)
    assert nudge.tick() == 1
    assert nudge._page_asked(w) == ("h-spectrum", "section=2&a+b=c%26d")

    # A value that asks for no page, or for one the app does not have: the fragment reruns.
    for value in (1, 3):
        with nudge._lock:
            nudge._latest["class A"] = value
        assert nudge._page_asked(w) is None
    assert nudge._page_asked(nudge._Watch("poll", "class A", 1)) is None
