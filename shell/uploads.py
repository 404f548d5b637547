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
session has an uploader that reads it: a script parked 40 files of 19 MB in a session that
never showed one, and the server still held +727 MiB 210 s after it closed (issues 34 and
51). So, from the app's first run in the process (:func:`guard_uploads`, called by the
router):

* **the gate** (:class:`UploadGate`) decides before Streamlit keeps a file: a session
  whose last run drew no uploader (the sidebar says, :func:`note_uploader`) is refused
  (HTTP 403), a session keeps one file (its uploader takes one: a new file replaces the
  one before), and the bytes all sessions hold have a ceiling (``$KPCA_UPLOADS_MB``,
  :data:`DEFAULT_UPLOADS_MB`; past it, HTTP 503 and a message in the sidebar);
* **the janitor** watches every session that holds uploaded bytes, not only those that
  read an upload: a session gone for the reconnect time loses them, a session whose page
  no longer shows an uploader loses them at the next sweep (every few seconds), and a
  session that holds a file without ever reading it (no :class:`SessionFiles`: a real
  upload is read at the next rerun) loses it after :data:`PARKED_S`, even while it stays
  connected.

The gate sits on Streamlit's own uploaded-file manager (the object its upload route and
every session use; ``streamlit run`` offers no option to give it another), by wrapping the
manager's ``add_file`` on that instance (:func:`guard_manager`): the route calls it with the
session's id and the file, after Streamlit's own checks (the session exists, the size is
within ``server.maxUploadSize``) and before anything is kept.
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
# The bytes of uploaded files the server holds for all sessions together (MiB): a class
# uploading CSVs of a few MB each fits many times over; 13 files at the uploader's 20 MB
# limit fill it.
UPLOADS_ENV, DEFAULT_UPLOADS_MB = "KPCA_UPLOADS_MB", 256
# The janitor's round: a session whose page stopped showing an uploader, or whose
# reconnect time is over, lets its bytes go within this long.
SWEEP_S = 5.0


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

def note_uploader(showing: bool) -> None:
    """Tell the gate whether this run's page shows the file uploader (the sidebar calls it
    once per run, as it decides): files sent to a session without one are refused."""
    gate().note(_session_id(), showing)


def refused_upload_message() -> str | None:
    """Why the gate last refused a file of this session, said once (then forgotten), or
    None. The browser's uploader shows only an HTTP status: the sidebar says this."""
    if gate().take_refusal(_session_id()) != FULL:
        return None
    return _("The server holds as many uploaded files as it can right now ({size}): your "
             "file was not kept. Try again in a minute.").format(
        size=memory.format_bytes(gate().ceiling))


def _session_id() -> str | None:
    from streamlit.runtime.scriptrunner import get_script_run_ctx

    ctx = get_script_run_ctx()
    return ctx.session_id if ctx is not None else None


NO_UPLOADER, FULL = "no uploader", "full"  # why the gate refuses a file


class UploadGate:
    """Whether a file sent to a session may be kept: only where the session's page shows
    an uploader, and only within the ceiling on the bytes all sessions hold.

    Pure bookkeeping (the server's wiring is :func:`guard_manager`): which sessions' last
    run drew an uploader (:meth:`note`), and the last refusal of each, for its sidebar.
    """

    def __init__(self, ceiling: int) -> None:
        self.ceiling = ceiling
        self._showing: set[str] = set()
        self._refused: dict[str, str] = {}
        self._lock = threading.Lock()

    def note(self, session_id: str | None, showing: bool) -> None:
        if session_id is None:
            return
        with self._lock:
            if showing:
                self._showing.add(session_id)
            else:
                self._showing.discard(session_id)

    def shows_uploader(self, session_id: str) -> bool:
        with self._lock:
            return session_id in self._showing

    def refusal(self, session_id: str, size: int, held_by_others: int) -> str | None:
        """Why a file of ``size`` bytes for ``session_id`` may not be kept (:data:`NO_UPLOADER`,
        :data:`FULL`), or None; ``held_by_others``: the bytes the other sessions hold (this
        session's own file is replaced by the new one)."""
        with self._lock:
            if session_id not in self._showing:
                reason = NO_UPLOADER
            elif held_by_others + size > self.ceiling:
                reason = FULL
            else:
                return None
            self._refused[session_id] = reason
            return reason

    def take_refusal(self, session_id: str | None) -> str | None:
        with self._lock:
            return self._refused.pop(session_id, None)

    def forget(self, keep: Callable[[str], bool]) -> None:
        """Forget the sessions ``keep`` says no to (ended: a session that comes back runs
        its page again, which notes its uploader again)."""
        with self._lock:
            self._showing = {s for s in self._showing if keep(s)}
            self._refused = {s: r for s, r in self._refused.items() if keep(s)}


def uploads_ceiling() -> int:
    """The bytes of uploaded files the server may hold: ``$KPCA_UPLOADS_MB`` MiB."""
    return memory.megabytes_from_env(UPLOADS_ENV, DEFAULT_UPLOADS_MB)


_GATE: UploadGate | None = None
_GATE_LOCK = threading.Lock()


def gate() -> UploadGate:
    """The server process's :class:`UploadGate`."""
    global _GATE
    with _GATE_LOCK:
        if _GATE is None:
            _GATE = UploadGate(uploads_ceiling())
        return _GATE


# HTTP statuses of a refused file: no uploader there (forbidden), or the server full for
# now (unavailable: try again).
REFUSED_STATUS = {NO_UPLOADER: 403, FULL: 503}


def held_bytes(manager) -> dict[str, int]:
    """The bytes each session holds in Streamlit's (in-memory) uploaded-file manager (its
    ``file_storage``: session id → file id → record; copied under the GIL, as
    :func:`_holding` does)."""
    storage = getattr(manager, "file_storage", {})
    return {session_id: sum(len(record.data) for record in list(files.values()))
            for session_id, files in list(storage.items())}


def guard_manager(manager, gate: UploadGate) -> None:
    """Put ``gate`` in front of ``manager.add_file`` (once): a refused file is answered
    with its HTTP status (Starlette turns the exception into the response) and never kept;
    an admitted one replaces the files its session held."""
    if getattr(manager, "_kpca_gate", None) is gate:
        return
    add_file = manager.add_file

    def gated_add_file(session_id: str, file) -> None:
        from starlette.exceptions import HTTPException

        held = held_bytes(manager)
        others = sum(size for session, size in held.items() if session != session_id)
        reason = gate.refusal(session_id, len(file.data), others)
        if reason is not None:
            raise HTTPException(status_code=REFUSED_STATUS[reason], detail=reason)
        for file_id in list(getattr(manager, "file_storage", {}).get(session_id, {})):
            manager.remove_file(session_id, file_id)  # one uploader, one file
        add_file(session_id, file)

    manager.add_file = gated_add_file
    manager._kpca_gate = gate


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
    connected, and those of a connected session whose page shows no uploader
    (``shows_uploader(session_id)`` false) at once (see the module's docstring).

    :meth:`sweep` does one round (after ``on_round()``) and is what the tests drive;
    :meth:`start` runs it in a daemon thread every ``interval`` seconds.
    """

    def __init__(self, *, is_active: Callable[[str], bool], ttl: float,
                 forget_files: Callable[[str], None], on_release: Callable[[], None],
                 interval: float,
                 sessions_with_files: Callable[[], Iterable[str]] = tuple,
                 parked_s: float = PARKED_S,
                 shows_uploader: Callable[[str], bool] = lambda _: True,
                 on_round: Callable[[], None] = lambda: None) -> None:
        self._is_active, self._ttl = is_active, ttl
        self._forget_files, self._on_release = forget_files, on_release
        self._sessions_with_files, self._parked_s = sessions_with_files, parked_s
        self._shows_uploader, self._on_round = shows_uploader, on_round
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
        self._on_round()
        gone: list[tuple[str, SessionFiles | None]] = []
        holding = set(self._sessions_with_files())
        # Connected, but its page has no uploader: the bytes go, its parsed upload stays
        # (the student may choose "Your own CSV" again).
        unshown = [session_id for session_id in holding
                   if self._is_active(session_id) and not self._shows_uploader(session_id)]
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
        dropped = [session_id for session_id in unshown
                   if session_id not in {gone_id for gone_id, _ in gone}]
        for session_id in dropped:
            self._forget_files(session_id)
        if gone or dropped:
            self._on_release()
        return len(gone) + len(dropped)

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


def _server_runtime():
    """Streamlit's runtime when a real server runs, else None (AppTest installs a mock
    Runtime: only a real server has an upload route and sessions that end)."""
    from streamlit.runtime import Runtime

    running = Runtime.exists() and type(Runtime.instance()) is Runtime
    return Runtime.instance() if running else None


def janitor() -> UploadJanitor:
    """The server's :class:`UploadJanitor`, started on first use when a server runs (not in
    AppTest: there it only watches)."""
    global _JANITOR
    with _JANITOR_LOCK:
        if _JANITOR is None:
            ttl = float(st.get_option("server.disconnectedSessionTTL"))
            runtime = _server_runtime()
            _JANITOR = UploadJanitor(
                is_active=runtime.is_active_session if runtime else (lambda _: True),
                ttl=ttl,
                forget_files=(runtime.uploaded_file_mgr.remove_session_files if runtime
                              else (lambda _: None)),
                on_release=_release_memory,
                # A few sweeps per TTL, so a file is let go soon after the TTL ends.
                interval=min(max(ttl / 4, 1.0), SWEEP_S),
                sessions_with_files=(_holding(runtime.uploaded_file_mgr) if runtime
                                     else tuple),
                shows_uploader=gate().shows_uploader,
                # The gate forgets the sessions that have ended.
                on_round=(lambda: gate().forget(runtime.is_active_session)) if runtime
                else (lambda: None),
            )
            if runtime is not None:
                _JANITOR.start()
        return _JANITOR


def guard_uploads() -> None:
    """Once per server process, from the app's first run: the gate in front of Streamlit's
    uploaded-file manager, and the janitor started (see the module's docstring). Nothing
    in AppTest, which has no upload route."""
    runtime = _server_runtime()
    if runtime is None:
        return
    guard_manager(runtime.uploaded_file_mgr, gate())
    janitor()
