"""A student's uploaded CSV: parsed once, kept in their own session, gone when it ends.

Each session holds one :class:`SessionFiles` in its ``st.session_state``, never in a
server-wide store: a :class:`datasets.UploadReader` (each uploaded file is parsed once,
not on every rerun, and a refused file is refused again without a parse) and the
:class:`SessionUpload` on screen. So a class of thirty never evicts each other's files,
and no session can reach another's data: even a forged cache key finds nothing here.

Results computed from an upload that hold its rows (fitted models, projections) are
kept with the upload as well: :func:`shell.caches.results_store` gives each of the
server's stores a small per-session twin in :attr:`SessionUpload.results`, dropped with
the upload. Results kept by ``st.cache_data`` are pickled copies in its bounded caches
(every one has ``max_entries``); they never hold the session's arrays.

When the session ends, so does what it uploaded. Streamlit keeps a closed tab's session
for ``server.disconnectedSessionTTL`` seconds (120 by default) so that a network blip
can reconnect to it. After that it can never be resumed, but Streamlit lets it go only
when another tab closes (its store of sessions is cleaned on writes), so the last
student to leave would keep their file, its parse and its results in the server
indefinitely. :class:`UploadJanitor` releases them itself once the time is up, tells
Streamlit's uploaded-file manager to drop the file's bytes, and hands the freed memory
back to the system (:func:`server.memory.return_freed_memory`).

Streamlit keeps the bytes of every file sent to its upload address, whether or not the
session has an uploader that reads it: a script parked 12 files of 19 MB in a session that
never showed one, and they stayed 210 s after it closed (issue 34). The janitor therefore
watches every session that holds uploaded bytes, not only those that read an upload: a
session gone for the reconnect time loses them, and a session that holds files without
ever reading one (no :class:`SessionFiles`: a real upload is read at the next rerun) loses
them after :data:`PARKED_S`, even while it stays connected.
"""

from __future__ import annotations

import gc
import threading
import time
import weakref
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import datasets
from server import costs, memory
from server.admission import taking_turn
from words.i18n import N_, _

# Session-state key of the session's files (no "w_" prefix: not a widget).
FILES_KEY = "_kpca_files"
# Uploaded bytes a session has held this long without reading them are dropped: a real
# upload is read by the rerun that follows it, within seconds.
PARKED_S = 60.0


@dataclass(eq=False)
class SessionUpload:
    """The session's parsed upload, the options that name it, and what was computed from it.

    Attributes
    ----------
    options : tuple
        The cache key of the upload (:func:`csv_options`): its fingerprint and how it was read.
    data : datasets.Dataset
        The parsed file (read-only arrays).
    results : dict
        Per-session result stores, one for each server-wide store (``shell.caches.results_store``).
    standardized_X : ndarray or None
        X with zero mean and unit variance per column, once a page has asked for it.
    """

    options: tuple[tuple[str, object], ...]
    data: datasets.Dataset
    results: dict = field(default_factory=dict)
    # X standardised per column, made on first use (shell.caches.inputs), read-only.
    standardized_X: np.ndarray | None = None


@dataclass(eq=False)
class SessionFiles:
    """Everything one session holds of its uploads: the reader and the upload on screen."""

    reader: datasets.UploadReader = field(default_factory=datasets.UploadReader)
    upload: SessionUpload | None = None
    released: bool = False

    def release(self) -> None:
        """Drop the parses and the upload (the session has ended: nothing can use them)."""
        self.released = True
        self.upload = None
        self.reader.clear()


class NoUploadError(ValueError):
    """'Your own CSV' is chosen but no usable file is in memory; the message says what to do."""


def csv_options(
    digest: str, label_column: str | None, drop_missing: bool = False
) -> tuple[tuple[str, object], ...]:
    """The cache key of an upload: its fingerprint (``datasets.csv_digest``) and how it was read."""
    options = (("file", digest), ("label", label_column or ""))
    # Sorted, as Settings.dataset_options are: the same upload is one cache key.
    return tuple(sorted(options + ((("drop", True),) if drop_missing else ())))


def session_files() -> SessionFiles:
    """This session's :class:`SessionFiles`, made on first use (and watched by the janitor)."""
    files = st.session_state.get(FILES_KEY)
    if files is None:
        files = st.session_state[FILES_KEY] = SessionFiles()
        janitor().watch(_session_id(), files)
    return files


def check_upload(content: bytes, file_id: str) -> datasets.CSVCheck:
    """What the uploaded file offers (columns, label guess) or why it is refused; parsed once
    per uploaded file (``file_id``: the uploader's id, new for every upload)."""
    return session_files().reader.check(content, key=file_id)


def load_upload(
    content: bytes, check: datasets.CSVCheck, file_id: str, label_column: str | None,
    drop_missing: bool = False,
) -> tuple[tuple[str, object], ...]:
    """Put the upload, read this way, on screen in this session; returns its options.

    Raises ``datasets.CSVError``. The session keeps one upload: a new file (or the same
    file read with another label column) replaces the previous one and everything
    computed from it; a file that fails to parse changes nothing. The same choice again
    (every rerun) costs nothing, a refused one is refused from memory.
    ``drop_missing`` drops rows with missing, NaN or infinite values instead of refusing
    the file (``datasets.load_csv(drop_nonfinite=True)``).
    """
    files = session_files()
    options = csv_options(check.digest, label_column, drop_missing)
    if files.upload is None or files.upload.options != options:
        # One parse at a time server-wide (server.admission's upload lane): ten students
        # uploading at once queue instead of multiplying memory; small views never wait.
        with taking_turn(len(content), estimate=costs.csv_parse(len(content)),
                         what=N_("reading your file"), upload=True):
            data = files.reader.load(content, label_column or None, drop_missing, key=file_id)
        files.upload = SessionUpload(options, data)
    return options


def session_upload(options: tuple[tuple[str, object], ...]) -> SessionUpload:
    """This session's upload named by ``options``; NoUploadError (with what to do) if none."""
    if not options:
        raise NoUploadError(_("Upload a CSV file in the sidebar to explore your own data."))
    files = st.session_state.get(FILES_KEY)
    upload = files.upload if files is not None else None
    if upload is None or upload.options != options:
        raise NoUploadError(_(
            "This session holds no uploaded file with these settings (uploads live only in "
            "the session that uploaded them). Upload the file again in the sidebar."
        ))
    return upload

def _session_id() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


@dataclass
class _Watched:
    files: weakref.ref | None  # the session's SessionFiles; None: bytes it never read
    away_since: float | None = None  # when it was first seen not connected
    parked_since: float | None = None  # when its unread bytes were first seen


class UploadJanitor:
    """Releases the uploads of sessions that have ended (one per server process).

    A watched session that is not connected is given ``ttl`` seconds (Streamlit's
    ``server.disconnectedSessionTTL``) to come back; after that Streamlit will never
    resume it, so its :class:`SessionFiles` are released, ``forget_files(session_id)``
    drops the uploaded bytes Streamlit holds for it, and, when anything was let go
    (released here, or the session already collected), ``on_release()`` runs once.
    Sessions that hold uploaded bytes (``sessions_with_files()``) are watched too, read
    or not; bytes a session never read are dropped after ``parked_s`` even while it is
    connected (see the module's docstring).

    :meth:`sweep` does one round and is what the tests drive; :meth:`start` runs it in a
    daemon thread every ``interval`` seconds.
    """

    def __init__(self, *, is_active: Callable[[str], bool], ttl: float,
                 forget_files: Callable[[str], None], on_release: Callable[[], None],
                 interval: float,
                 sessions_with_files: Callable[[], Iterable[str]] = tuple,
                 parked_s: float = PARKED_S) -> None:
        self._is_active, self._ttl = is_active, ttl
        self._forget_files, self._on_release = forget_files, on_release
        self._sessions_with_files, self._parked_s = sessions_with_files, parked_s
        self.interval = interval
        self._watched: dict[str, _Watched] = {}
        self._lock = threading.Lock()
        self._thread: threading.Thread | None = None

    def watch(self, session_id: str | None, files: SessionFiles) -> None:
        if session_id is None:
            return
        with self._lock:
            self._watched[session_id] = _Watched(weakref.ref(files))

    def watching(self) -> int:
        with self._lock:
            return len(self._watched)

    def sweep(self, now: float) -> int:
        """One round; returns how many sessions' uploads were let go."""
        gone: list[tuple[str, SessionFiles | None]] = []
        holding = set(self._sessions_with_files())
        with self._lock:
            for session_id in holding:  # bytes sent to the upload address, read or not
                self._watched.setdefault(session_id, _Watched(None, parked_since=now))
            for session_id, watched in list(self._watched.items()):
                files = watched.files() if watched.files is not None else None
                if watched.files is not None and files is None:
                    gone.append((session_id, None))  # Streamlit dropped the session already
                elif watched.files is None and session_id not in holding:
                    del self._watched[session_id]  # its bytes went with its session
                elif self._is_active(session_id):
                    watched.away_since = None
                    if (watched.files is None and watched.parked_since is not None
                            and now - watched.parked_since > self._parked_s):
                        gone.append((session_id, None))  # parked, never read
                elif watched.away_since is None:
                    watched.away_since = now
                elif now - watched.away_since > self._ttl:
                    gone.append((session_id, files))
            for session_id, _ in gone:
                del self._watched[session_id]
        for session_id, files in gone:
            if files is not None:
                files.release()
            self._forget_files(session_id)
        if gone:
            self._on_release()
        return len(gone)

    def start(self) -> None:
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, name="kpca-upload-janitor",
                                            daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while True:
            time.sleep(self.interval)
            try:
                self.sweep(time.monotonic())
            except Exception:  # never take the server down; try again next round
                pass


def _release_memory() -> None:
    gc.collect()  # what the released objects held in reference cycles
    memory.return_freed_memory()


_JANITOR: UploadJanitor | None = None
_JANITOR_LOCK = threading.Lock()


def _holding(manager) -> Callable[[], list[str]]:
    """The sessions that hold uploaded bytes in Streamlit's (in-memory) file manager. Its
    ``file_storage`` (session id → files) is what the manager keeps; listing it is one
    C-level copy of the keys under the GIL."""
    return lambda: list(getattr(manager, "file_storage", {}))


def janitor() -> UploadJanitor:
    """The server's :class:`UploadJanitor`, started on first use when a server runs (not in
    AppTest, which has no Streamlit runtime: there it only watches)."""
    global _JANITOR
    with _JANITOR_LOCK:
        if _JANITOR is None:
            from streamlit.runtime import Runtime

            ttl = float(st.get_option("server.disconnectedSessionTTL"))
            # AppTest installs a mock Runtime: only a real server has sessions that end.
            running = Runtime.exists() and type(Runtime.instance()) is Runtime
            runtime = Runtime.instance() if running else None
            _JANITOR = UploadJanitor(
                is_active=runtime.is_active_session if runtime else (lambda _: True),
                ttl=ttl,
                forget_files=(runtime.uploaded_file_mgr.remove_session_files if runtime
                              else (lambda _: None)),
                on_release=_release_memory,
                # A few sweeps per TTL, so a file is let go soon after the TTL ends.
                interval=min(max(ttl / 4, 1.0), 30.0),
                sessions_with_files=(_holding(runtime.uploaded_file_mgr) if runtime
                                     else tuple),
            )
            if running:
                _JANITOR.start()
        return _JANITOR
