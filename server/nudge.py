"""Rerun a session's fragment from the server when something it watches changes.

A fragment that polls (``st.fragment(run_every=...)``) hears of a change up to one period
late, and every look is a script run of its session: a room of 300 phones polling every
2 s keeps a fifth of two cores busy only to learn that nothing happened. Instead, such a
fragment says here what it watches (:func:`watch`: a topic, the value its screen shows, a
function that reads the topic's value now), and one thread per process reads each watched
topic every :data:`WATCH_S` seconds — once per topic, however many sessions watch it —
and reruns the fragment of each session whose screen shows another value, as the
browser's own timer would (a ``rerun_script`` message naming the fragment), one session
at a time (:data:`MOVING_AT_ONCE`). Where the new value asks for another page
(``page_for``), the session runs that page instead, as a click on the menu would: the
fragment's run would only have switched to it. A session whose nudged run has not watched
again within :data:`MOVE_S` is nudged again; one whose run ended without watching gives
its turn to the next at the thread's next look. The fragment keeps a slow timer of its own
(:func:`fallback_period`: what tells a browser that its server restarted); a request the
browser sent before it heard of the page the server ran for it names the old page, and
Streamlit runs it after that page's with the old page's address: the fragment then
switches back (:func:`folded_page`).

Streamlit has no public call for this; it uses, and only here: the runtime's
``handle_backmsg`` (public) on the server's event loop (``Runtime._get_async_objs``), a
session's fragment ids by key (``AppSession._fragment_storage.resolve_target``), whether
it is running (``AppSession._scriptrunner``) and where its last run left it, with what
the browser said of itself (``AppSession._client_state``); a page's hash from the run's
``pages_manager``, as ``st.switch_page`` finds it. When a Streamlit release changes them,
:func:`available` is False (logged once), nothing is nudged and the fragments' own timers
run at the caller's usual period.
"""

from __future__ import annotations

import inspect
import logging
import os
import threading
import time
from collections import deque
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any
from urllib.parse import urlencode

_LOG = logging.getLogger(__name__)

# How often the thread reads each watched topic: a change reaches the screens this late
# at most, plus the fragment's run. Each read is one look at the store per topic (a few
# per class), not per session. (0.25 s before the phones moved one at a time: the first
# phones' wait is this look's.)
WATCH_S = 0.1
# A watching fragment's own timer while nudges work: what a lost nudge or a restarted
# server (its browser reconnected to a session that watches nothing) costs.
FALLBACK_S = 10.0
# Sessions of one process nudged at once; the next goes when its run has watched again
# (or ended without watching). A room's phones all move at the same moment: nudged all at
# once, their runs share the process's one interpreter lock, so each finishes about when
# the last does; in turn, the first phones are on the new step while the last are still
# waiting. One at a time, not a few: the event loop that sends a run's pages yields after
# each message, and each time waits for the interpreter lock behind every script thread
# that wants it; with two or four runs at a time it sent almost nothing until the last
# run was done (150 phones on one replica: each phone's page reached it 2.1 s after the
# lecturer's click with four, 1.8–1.9 s with two, spread over 0.1–1.7 s with one).
MOVING_AT_ONCE = 1
# A nudged session whose run has not watched again after this long frees its place, and
# is nudged again while still behind (the nudge, or its run, was lost).
MOVE_S = 5.0
# A session away this long (its browser disconnected and did not come back) watches no
# more; one that comes back sooner reruns its page anyway, which watches again.
AWAY_S = 60.0


@dataclass
class _Watch:
    fragment_key: str
    topic: Hashable
    seen: Any
    nudged: bool = False  # its rerun is on its way (asked once per value seen)
    away_since: float | None = None  # when the session was first found without its browser
    # A value → the page to run in place of the fragment (script path, query), or None.
    page_for: Callable[[Any], tuple[str, dict[str, str]] | None] | None = None
    pages: Any = None  # the run's pages manager: a page's hash by its script's path
    main_script_path: str = ""
    # The session's last run of its whole page: its hash and the address's query.
    page: tuple[str, dict[str, str]] | None = None


_lock = threading.Lock()
_watches: dict[str, _Watch] = {}  # session id → what its fragment watches
_readers: dict[Hashable, Callable[[Hashable], Any]] = {}  # topic → its value now
_latest: dict[Hashable, Any] = {}  # topic → its value at the last tick
_queue: deque[str] = deque()  # sessions behind, to nudge in turn
_moving: dict[str, float] = {}  # sessions nudged whose run has not watched again → since
_asked: set[str] = set()  # of those, the ones whose run the server has asked for
_thread: threading.Thread | None = None


def _event_loop():
    """The server's event loop, or None outside a running server (or if Streamlit moved it)."""
    try:
        from streamlit.runtime import Runtime

        if not Runtime.exists():
            return None
        return Runtime.instance()._get_async_objs().eventloop
    except Exception:  # noqa: BLE001 - any change in Streamlit's internals: no nudges
        return None


def _check_internals() -> bool:
    try:
        from streamlit.runtime import Runtime
        from streamlit.runtime.app_session import AppSession
        from streamlit.runtime.fragment import MemoryFragmentStorage
        from streamlit.runtime.pages_manager import PagesManager
        from streamlit.runtime.scriptrunner_utils.script_run_context import ScriptRunContext

        source = inspect.getsource(AppSession.__init__)
        needed = ("self._scriptrunner" in source and "self._client_state" in source
                  and "self._fragment_storage" in source
                  and hasattr(Runtime, "get_app_session") and hasattr(Runtime, "handle_backmsg")
                  and hasattr(Runtime, "_get_async_objs")
                  and hasattr(MemoryFragmentStorage, "resolve_target")
                  and hasattr(PagesManager, "get_pages")
                  and {"pages_manager", "main_script_path", "fragment_ids_this_run"}
                  <= set(ScriptRunContext.__dataclass_fields__)
                  and hasattr(ScriptRunContext, "page_script_hash")
                  and hasattr(AppSession, "handle_backmsg")
                  and hasattr(AppSession, "has_fragment"))
    except (ImportError, OSError, TypeError):
        needed = False
    if not needed:
        _LOG.warning("This Streamlit cannot rerun a fragment from the server: the "
                     "fragments that watch keep their own timers.")
    return needed


_INTERNALS = _check_internals()


def available() -> bool:
    """Whether the server can rerun a session's fragment (Streamlit's internals as expected)."""
    return _INTERNALS


def fallback_period(usual_s: float) -> float:
    """The period for a watching fragment's own timer: :data:`FALLBACK_S` while nudges
    work, else ``usual_s``."""
    return FALLBACK_S if available() else usual_s


def watch(fragment_key: str, topic: Hashable, seen: Any,
          read: Callable[[Hashable], Any],
          page_for: Callable[[Any], tuple[str, dict[str, str]] | None] | None = None) -> None:
    """From inside the fragment ``st.fragment(key=fragment_key)``, in a script run: rerun it
    in this session when ``read(topic)`` stops being equal to ``seen`` (what this run
    shows) — or, when ``page_for(value)`` names a page (its script's path as
    ``st.switch_page`` takes it, and the address's query), run that page. Replaces the
    session's earlier watch, and ends its move (another session may start one). ``read``
    and ``page_for`` run on other threads; ``read`` raises to say "not known now" (the
    topic is read again at the next tick)."""
    if not available():
        return
    import streamlit as st
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return
    if ctx.fragment_ids_this_run:  # a fragment's run: the page is still the last one
        with _lock:
            before = _watches.get(ctx.session_id)
        page = before.page if before is not None else None
    else:
        page = (ctx.page_script_hash, st.query_params.to_dict())
    _add(ctx.session_id, _Watch(fragment_key, topic, seen, page_for=page_for,
                                pages=ctx.pages_manager, main_script_path=ctx.main_script_path,
                                page=page), read)


def folded_page() -> tuple[str, dict[str, str]] | None:
    """In a fragment's run of a watching session: the page (its script's path as
    ``st.switch_page`` takes it, and the query) its last run of the whole page drew, when
    this run names another; else None. Such a run answers a request the browser sent
    before it heard of the page the server ran for it (a nudge's, or a switch), which
    Streamlit runs after that page's with the old page's address: the caller switches back
    to the page on screen, or the next run of the whole page would run the old one."""
    if not available():
        return None
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or not ctx.fragment_ids_this_run:
        return None
    with _lock:
        w = _watches.get(ctx.session_id)
    if w is None or w.page is None or w.page[0] == ctx.page_script_hash:
        return None
    info = ctx.pages_manager.get_pages().get(w.page[0])
    if info is None:
        return None
    return (os.path.relpath(info["script_path"], os.path.dirname(ctx.main_script_path)),
            w.page[1])


def _add(session_id: str, w: _Watch, read: Callable[[Hashable], Any]) -> None:
    with _lock:
        _watches[session_id] = w
        _readers[w.topic] = read
        _moving.pop(session_id, None)
        _asked.discard(session_id)
        _start_thread()
    _dispatch()


def unwatch() -> None:
    """This session watches nothing any more."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None or ctx.session_id not in _watches:  # (every run of every other page)
        return
    with _lock:
        _watches.pop(ctx.session_id, None)
        moved = _moving.pop(ctx.session_id, None) is not None
        _asked.discard(ctx.session_id)
    if moved:
        _dispatch()  # its place goes to the next


def watching() -> int:
    """How many sessions of this process watch something (for the tests and the docs)."""
    with _lock:
        return len(_watches)


def _start_thread() -> None:
    """The nudging thread, once per process with a running server (none under AppTest)."""
    global _thread
    if (_thread is None or not _thread.is_alive()) and _event_loop() is not None:
        _thread = threading.Thread(target=_run, name="nudge", daemon=True)
        _thread.start()


def _run() -> None:
    while True:
        time.sleep(WATCH_S)
        try:
            tick()
        except Exception:  # noqa: BLE001 - the thread must outlive any one bad tick
            _LOG.exception("Nudging the watching sessions failed; trying again")


def tick() -> int:
    """One look at every watched topic; queue the sessions whose screen is behind, and
    nudge the first of them. Returns how many were nudged."""
    with _lock:
        topics = {w.topic for w in _watches.values()}
        readers = {topic: _readers[topic] for topic in topics}
        _readers.clear()
        _readers.update(readers)  # the topics nobody watches any more go
    values: dict[Hashable, Any] = {}
    for topic, read in readers.items():
        try:
            values[topic] = read(topic)
        except Exception as error:  # noqa: BLE001 - unknown now (a store not answering)
            _LOG.debug("Reading %r for the nudges failed: %s", topic, error)
    with _lock:
        asked = [session_id for session_id in _moving if session_id in _asked]
    over = {session_id for session_id in asked if _run_over(session_id)}
    now = time.monotonic()
    with _lock:
        _latest.clear()
        _latest.update(values)
        for session_id, since in list(_moving.items()):
            if session_id in over and session_id in _asked:
                # Its run ended without watching (it raised, or drew a page without the
                # fragment): its place goes to the next. Not nudged again: the same run
                # would end the same way; the fragment's own timer is still there.
                del _moving[session_id]
                _asked.discard(session_id)
            elif now - since > MOVE_S:  # its run never said it was done: free its place
                del _moving[session_id]
                _asked.discard(session_id)
                if (w := _watches.get(session_id)) is not None:
                    w.nudged = False  # and nudge it again below, if still behind
        waiting = set(_queue)
        _queue.extend(session_id for session_id, w in _watches.items()
                      if _behind(w) and not w.nudged and session_id not in waiting)
    return _dispatch()


def _run_over(session_id: str) -> bool:
    """Whether the session has no run in progress (the nudged one ended), or is gone."""
    from streamlit.runtime import Runtime

    if not Runtime.exists():
        return True
    session = Runtime.instance().get_app_session(session_id)
    return session is None or session._scriptrunner is None


def _behind(w: _Watch) -> bool:
    return w.topic in _latest and _latest[w.topic] != w.seen


def _dispatch() -> int:
    """Nudge queued sessions while fewer than :data:`MOVING_AT_ONCE` are moving; returns
    how many were nudged."""
    loop = _event_loop()
    if loop is None:
        return 0
    nudged = []
    with _lock:
        while _queue and len(_moving) < MOVING_AT_ONCE:
            session_id = _queue.popleft()
            w = _watches.get(session_id)
            if w is None or w.nudged or not _behind(w):
                continue  # gone, or caught up by itself (its own timer, a click)
            w.nudged = True
            _moving[session_id] = time.monotonic()
            nudged.append((session_id, w))
    for session_id, w in nudged:
        loop.call_soon_threadsafe(_nudge, session_id, w)
    return len(nudged)


def _not_delivered(session_id: str, w: _Watch) -> None:
    """A nudge that found no fragment to rerun: its place goes to the next; the next tick
    queues the session again."""
    with _lock:
        w.nudged = False
        _moving.pop(session_id, None)
        _asked.discard(session_id)
    _dispatch()


def _nudge(session_id: str, w: _Watch) -> None:
    """On the server's event loop: the session's fragment reruns, as its browser's timer
    would ask."""
    from streamlit.errors import StreamlitAPIException
    from streamlit.proto.BackMsg_pb2 import BackMsg
    from streamlit.runtime import Runtime

    runtime = Runtime.instance()
    session = runtime.get_app_session(session_id)
    if session is None:  # its browser is away: it reruns its page when it comes back
        now = time.monotonic()
        w.away_since = w.away_since or now
        if now - w.away_since >= AWAY_S:
            with _lock:
                if _watches.get(session_id) is w:
                    del _watches[session_id]
        _not_delivered(session_id, w)
        return
    w.away_since = None
    if session._scriptrunner is not None:
        # A run in progress, or one it asked for (a switch to another page) still to
        # come: a rerun asked now would be folded into that one and carry this page's
        # address in place of the new one's. Asked again at the next tick.
        _not_delivered(session_id, w)
        return
    message = BackMsg()
    state = message.rerun_script
    if session._client_state.HasField("context_info"):
        # What the browser said of itself at its last run (its language, time zone): a
        # run without it would not know them (a Chinese browser's page would be English).
        state.context_info.CopyFrom(session._client_state.context_info)
    if (page := _page_asked(w)) is not None:
        # The page the fragment's run would switch to, run at once (a menu click's rerun).
        state.page_script_hash, state.query_string = page
        _ask(runtime, session_id, message)
        return
    try:
        fragment_ids = session._fragment_storage.resolve_target(w.fragment_key)
    except StreamlitAPIException:
        fragment_ids = []
    if not fragment_ids or not session.has_fragment(fragment_ids[0]):
        _not_delivered(session_id, w)  # the fragment not drawn on this page
        return
    # Where its last run left it (the browser's own rerun would say the same).
    state.query_string = session._client_state.query_string
    state.page_script_hash = session._client_state.page_script_hash
    state.fragment_id = fragment_ids[0]
    state.is_auto_rerun = True
    _ask(runtime, session_id, message)


def _ask(runtime, session_id: str, message) -> None:
    """Ask for the session's nudged run (its script runner exists once this returns: from
    then on, a session without one has finished the run)."""
    runtime.handle_backmsg(session_id, message)
    with _lock:
        if session_id in _moving:  # (its run may already have watched again)
            _asked.add(session_id)


def _page_asked(w: _Watch) -> tuple[str, str] | None:
    """The hash and query string of the page the topic's new value asks this session to
    run, or None (its fragment reruns; also when the page is not one of the app's)."""
    if w.page_for is None:
        return None
    with _lock:
        value = _latest.get(w.topic)
    try:
        asked = w.page_for(value)
        if asked is None:
            return None
        path, query = asked
        script = os.path.realpath(os.path.join(os.path.dirname(w.main_script_path), path))
        for page in w.pages.get_pages().values():
            if page["script_path"] == script:
                return page["page_script_hash"], urlencode(query)
    except Exception:  # noqa: BLE001 - any surprise: the fragment's run finds the way
        _LOG.exception("Finding the page asked for failed; rerunning the fragment")
    return None
