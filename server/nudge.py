"""Rerun a session's fragment from the server when something it watches changes.

A fragment that polls (``st.fragment(run_every=...)``) hears of a change up to one period
late, and every look is a script run of its session: a room of 300 phones polling every
2 s keeps a fifth of two cores busy only to learn that nothing happened. Instead, such a
fragment says here what it watches (:func:`watch`: a topic, the value its screen shows, a
function that reads the topic's value now), and one thread per process reads each watched
topic every :data:`WATCH_S` seconds — once per topic, however many sessions watch it —
and reruns the fragment of each session whose screen shows another value, as the
browser's own timer would (a ``rerun_script`` message naming the fragment). The fragment
keeps a slow timer of its own in case a nudge is lost (:func:`fallback_period`).

Streamlit has no public call for this; it uses, and only here: the runtime's
``handle_backmsg`` (public) on the server's event loop (``Runtime._get_async_objs``), and
a session's fragment ids by key (``AppSession._fragment_storage.resolve_target``). When a
Streamlit release changes them, :func:`available` is False (logged once), nothing is
nudged and the fragments' own timers run at the caller's usual period.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable, Hashable
from dataclasses import dataclass
from typing import Any

_LOG = logging.getLogger(__name__)

# How often the thread reads each watched topic: a change reaches the screens this late
# at most, plus the fragment's run. Each read is one look at the store per topic (a few
# per class), not per session.
WATCH_S = 0.25
# A session still showing an old value this long after its nudge is nudged again (a
# nudge that met the session between runs, with its fragment not yet drawn, is dropped).
RENUDGE_S = 2.0
# A watching fragment's own timer while nudges work: only what a lost nudge would cost.
FALLBACK_S = 10.0
# A session away this long (its browser disconnected and did not come back) watches no
# more; one that comes back sooner reruns its page anyway, which watches again.
AWAY_S = 60.0


@dataclass
class _Watch:
    fragment_key: str
    topic: Hashable
    seen: Any
    page_script_hash: str
    query_string: str
    nudged_at: float | None = None
    away_since: float | None = None  # when the session was first found without its browser


_lock = threading.Lock()
_watches: dict[str, _Watch] = {}  # session id → what its fragment watches
_readers: dict[Hashable, Callable[[Hashable], Any]] = {}  # topic → its value now
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

        needed = (hasattr(Runtime, "get_app_session") and hasattr(Runtime, "handle_backmsg")
                  and hasattr(Runtime, "_get_async_objs")
                  and hasattr(MemoryFragmentStorage, "resolve_target")
                  and hasattr(AppSession, "handle_backmsg"))
    except ImportError:
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
          read: Callable[[Hashable], Any]) -> None:
    """From inside the fragment ``st.fragment(key=fragment_key)``, in a script run: rerun it
    in this session when ``read(topic)`` stops being equal to ``seen`` (what this run
    shows). Replaces the session's earlier watch. ``read`` runs on another thread; it
    raises to say "not known now" (the topic is read again at the next tick)."""
    if not available():
        return
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is None:
        return
    _add(ctx.session_id, _Watch(fragment_key, topic, seen, ctx.page_script_hash,
                                ctx.query_string), read)


def _add(session_id: str, w: _Watch, read: Callable[[Hashable], Any]) -> None:
    with _lock:
        _watches[session_id] = w
        _readers[w.topic] = read
        _start_thread()


def unwatch() -> None:
    """This session watches nothing any more."""
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    if ctx is not None:
        with _lock:
            _watches.pop(ctx.session_id, None)


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


def tick(loop=None) -> int:
    """One look at every watched topic; nudge the sessions whose screen is behind (on
    ``loop``, the server's event loop by default). Returns how many were nudged."""
    with _lock:
        watches = dict(_watches)
        readers = {topic: _readers[topic] for topic in {w.topic for w in watches.values()}}
        _readers.clear()
        _readers.update(readers)  # the topics nobody watches any more go
    now_values: dict[Hashable, Any] = {}
    for topic, read in readers.items():
        try:
            now_values[topic] = read(topic)
        except Exception as error:  # noqa: BLE001 - unknown now (a store not answering)
            _LOG.debug("Reading %r for the nudges failed: %s", topic, error)
    loop = loop or _event_loop()
    if loop is None:
        return 0
    now = time.monotonic()
    behind = [(session_id, w) for session_id, w in watches.items()
              if w.topic in now_values and now_values[w.topic] != w.seen
              and (w.nudged_at is None or now - w.nudged_at >= RENUDGE_S)]
    for session_id, w in behind:
        w.nudged_at = now
        loop.call_soon_threadsafe(_nudge, session_id, w)
    return len(behind)


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
        return
    w.away_since = None
    try:
        fragment_ids = session._fragment_storage.resolve_target(w.fragment_key)
    except StreamlitAPIException:
        return  # between runs: not drawn yet (nudged again after RENUDGE_S)
    message = BackMsg()
    state = message.rerun_script
    state.query_string = w.query_string
    state.page_script_hash = w.page_script_hash
    state.fragment_id = fragment_ids[0]
    state.is_auto_rerun = True
    runtime.handle_backmsg(session_id, message)
