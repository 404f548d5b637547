"""The bounded caches behind the pages: data, inputs, γ references, and the cache itself.

:func:`load_data` and :func:`bounded_cache` put plain functions of arrays (such as
:func:`experiments.analysis.analyse`, behind ``lessons.common.analysis``) behind caches
keyed by the small, hashable :class:`~shell.state.Settings`. Results hold read-only arrays
and are shared by all sessions, never copied per rerun; results of an upload stay in the
uploading session (:func:`results_store`, ``shell.uploads``).

Why a hand-made LRU (:func:`bounded_cache`) for results instead of ``st.cache_data``:
``st.cache_data`` pickles and copies its value on every hit, and a cached function cannot
drive a progress bar that lives outside it. A :class:`BoundedStore` is created once per
server process, is bounded by entry count, and computes each key once even when several
sessions ask at the same time. Only a computation, never a cached result, takes its turn
in the server's queue (``queued(...)`` goes inside the decorated function); a computation
holding a turn never waits for another's key (see ``server.admission``).
"""

from __future__ import annotations

import functools
import inspect
import threading
from collections import OrderedDict
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass

import numpy as np
import streamlit as st

import datasets
from experiments import shipped
from experiments.analysis import standardized
from experiments.kernel_diagnostics import reference_gamma
from server import shared_cache
from server.admission import holds_turn
from shell import drawn, uploads
from shell.state import CSV, DRAWN, DataKey, Settings


class BoundedStore:
    """A thread-safe LRU of at most ``max_entries`` values, each computed once.

    Concurrent requests for the same key wait for the first computation instead of
    starting their own (three students opening the same preset cost one eigensolve).
    """

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict = {}

    def __len__(self) -> int:
        return len(self._values)

    def peek(self, key) -> bool:
        with self._lock:
            return key in self._values

    def get(self, key, default=None):
        with self._lock:
            return self._values.get(key, default)

    def get_or_compute(self, key, compute: Callable[[], object]):
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        # Inside a turn of the server's queue, never wait for another computation of the
        # key: it may be waiting for this turn's slot (a deadlock). Compute it again.
        if not key_lock.acquire(blocking=not holds_turn()):
            return self._keep(key, compute())
        try:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            value = self._keep(key, compute())
            with self._lock:
                self._key_locks.pop(key, None)
            return value
        finally:
            key_lock.release()

    def _keep(self, key, value):
        with self._lock:
            self._values[key] = value
            self._values.move_to_end(key)
            while len(self._values) > self.max_entries:
                self._values.popitem(last=False)
        return value


@dataclass(frozen=True, eq=False)
class Inputs:
    """The inputs as the kernel sees them (standardised if asked) and their labels, with
    the key they are made from.

    A page gets them once (``shell.page.page_data``) and hands them to the cached
    functions that compute from them: equal and hashed by :attr:`key` alone, so a cache
    keyed by them never hashes the arrays, and results of an upload or a drawing stay in
    its session (:func:`bounded_cache`).
    """

    key: DataKey
    X: np.ndarray
    y: np.ndarray | None

    def __hash__(self) -> int:
        return hash(self.key)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, Inputs) and other.key == self.key


def bounded_cache(max_entries: int, *, ignore: tuple[str, ...] = (), shared: bool = False):
    """Keep a function's results in a bounded store, each key computed once.

    The key is the call's arguments, like ``st.cache_data``'s: all of them but those whose
    names start with ``_`` (arrays derived from the hashed ones, passed along unhashed) and
    those named in ``ignore`` (callbacks). :class:`Inputs` count by their key. Results
    computed from built-in data are shared by every session on the server (at most
    ``max_entries``); when an argument's data (an :class:`Inputs`, a
    :class:`~shell.state.DataKey` or :class:`~shell.state.Settings`) is an upload or a
    drawing, its results stay in that session (:func:`results_store`).

    ``shared``: results of built-in data also go to the machine's cache on disk
    (:mod:`server.shared_cache`), a second level every process reads before it computes;
    an upload's or a drawing's results never do (they stay in the session's store).

    The decorated function gains ``.cached(*args, **kwargs)``: the stored value (in the
    process, else on disk), or None without computing, and ``.server_store``: the
    server-wide store (for tests).
    """

    def decorate(fn: Callable) -> Callable:
        signature = inspect.signature(fn)
        server = BoundedStore(max_entries)  # one per server process: modules load once

        def locate(args, kwargs) -> tuple[BoundedStore, Hashable]:
            bound = signature.bind(*args, **kwargs)
            bound.apply_defaults()
            key = tuple(
                (name, value)
                for name, value in bound.arguments.items()
                if not name.startswith("_") and name not in ignore
            )
            data = next(filter(None, map(key_of, bound.arguments.values())), None)
            store = results_store(server, data) if data is not None else server
            return store, key

        def on_disk(store: BoundedStore, key: Hashable) -> str | None:
            """The shared cache's key: built-in data only (the server's own store)."""
            if not shared or store is not server:
                return None
            # Inputs count by their data key, here as in the process's store.
            return shared_cache.disk_key(fn, tuple(
                (name, value.key if isinstance(value, Inputs) else value)
                for name, value in key))

        @functools.wraps(fn)
        def cached_call(*args, **kwargs):
            store, key = locate(args, kwargs)

            def compute(disk: str | None) -> object:
                return shared_cache.read_through(disk, lambda: fn(*args, **kwargs))

            if getattr(_filling, "on", False) and (disk := on_disk(store, key)) is not None:
                # Filling the disk ahead: what students use stays in the process's store.
                value = store.get(key, _ABSENT)
                return compute(disk) if value is _ABSENT else value
            # The disk's key (the arguments spelled out) only when the process's store
            # misses: a hit, every run of every page, costs a dictionary look-up.
            return store.get_or_compute(key, lambda: compute(on_disk(store, key)))

        def cached(*args, **kwargs):
            store, key = locate(args, kwargs)
            value = store.get(key)
            if value is None and (disk := on_disk(store, key)) is not None:
                found = shared_cache.get(disk)
                if found is not shared_cache.MISSING:
                    return store.get_or_compute(key, lambda: found)
            return value

        cached_call.cached = cached
        cached_call.server_store = server
        return cached_call

    return decorate


_filling = threading.local()
_ABSENT = object()


@contextmanager
def filling_shared_cache() -> Iterator[None]:
    """Within the block, this thread's calls of shared functions read and fill the disk's
    prefill (:func:`server.shared_cache.prefilling`) but leave the process's stores as
    they are: filling the machine's cache ahead must not push out of memory the views
    students are on."""
    _filling.on = True
    try:
        with shared_cache.prefilling():
            yield
    finally:
        _filling.on = False


def load_data(dataset: str, options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    """The dataset itself (read-only arrays; built-in ones shared by all sessions).

    An upload comes from this session's own state (``shell.uploads``), never from another's.
    Raises ValueError (or ``datasets.UspsUnavailableError``) with a user-facing message.
    """
    if dataset == CSV:
        return uploads.session_upload(options).data
    if dataset == DRAWN:  # decoded from the options, the points themselves (≤ 300)
        return drawn.drawn_data(options)
    return _load_builtin(dataset, options)


@st.cache_resource(max_entries=8, show_spinner=False)
def _load_builtin(dataset: str, options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    return datasets.load(dataset, **dict(options))


@st.cache_resource(max_entries=4, show_spinner=False)
def _standardized_builtin(dataset: str, options: tuple[tuple[str, object], ...]) -> np.ndarray:
    X = standardized(_load_builtin(dataset, options).X)
    X.setflags(write=False)
    return X


def inputs(settings: Settings | DataKey) -> np.ndarray:
    """X as the kernel sees it (standardised if asked)."""
    key = key_of(settings)
    if key.dataset == CSV:
        upload = uploads.session_upload(key.options)
        if key.standardize and upload.standardized_X is None:
            X = standardized(upload.data.X)
            X.setflags(write=False)
            upload.standardized_X = X
        return upload.standardized_X if key.standardize else upload.data.X
    if key.dataset == DRAWN:
        X = drawn.drawn_data(key.options).X
        if key.standardize:
            X = standardized(X)
            X.setflags(write=False)
        return X
    if key.standardize:
        return _standardized_builtin(key.dataset, key.options)
    return _load_builtin(key.dataset, key.options).X


def inputs_of(settings: Settings) -> Inputs:
    """The inputs and labels of ``settings``' data, with their key (raises as
    :func:`load_data` does)."""
    return Inputs(settings.data_key, inputs(settings),
                  load_data(settings.dataset, settings.dataset_options).y)


# Per-session twin of a server-wide store, for results computed from an upload: the
# student's last few views (an Explorer analysis of the largest upload is ~2 MB).
SESSION_RESULTS_MAX = 4


def key_of(value: object) -> DataKey | None:
    """The data key an argument of a cached function carries, if any."""
    if isinstance(value, Inputs):
        return value.key
    if isinstance(value, Settings):
        return value.data_key
    return value if isinstance(value, DataKey) else None


def results_store(server: BoundedStore, data: DataKey) -> BoundedStore:
    """Where results computed from the data ``data`` names are kept.

    Built-in data: ``server``, shared by every session. An upload: a small store owned by
    the session's upload (``shell.uploads.SessionUpload.results``), so that fitted models
    and projections holding its rows leave the server with the session (or with the
    upload, when a new file replaces it).
    """
    if data.dataset == CSV:
        held = uploads.session_upload(data.options).results
    elif data.dataset == DRAWN:  # drawn points: the session's, like an upload
        held = drawn.session_results()
    else:
        return server
    store = held.get(id(server))
    if store is None:
        store = held[id(server)] = BoundedStore(
            max_entries=min(server.max_entries, SESSION_RESULTS_MAX)
        )
    return store


@st.cache_data(max_entries=64, show_spinner=False)
def _reference_gamma(data: DataKey, kernel: str) -> float | None:
    return reference_gamma(inputs(data), kernel)


def reference_gamma_for(data: DataKey, kernel: str) -> float | None:
    """:func:`experiments.kernel_diagnostics.reference_gamma` of ``data`` as the kernel sees
    them (shipped with the code for built-in data: :func:`shipped_for`).

    None when the data cannot be loaded (no upload yet, USPS unavailable: the page says
    why) or the kernel has no γ.
    """
    found = shipped_for(data)
    if found is not None and (reference := found.reference(kernel)) is not None:
        return reference
    try:
        return _reference_gamma(data, kernel)
    except (ValueError, OSError, datasets.UspsUnavailableError):
        return None


def shipped_for(data: DataKey) -> shipped.Shipped | None:
    """What the code ships for these data (``experiments/shipped.py``: the γ search, the
    verdicts' trials and the scores of a first view, computed once by
    ``scripts/ship_guidance.py``), or None: an upload, a drawing, options the file does not
    hold, or arrays other than those it was computed from (checked once per process)."""
    if data.dataset in (CSV, DRAWN) or not shipped.ships(*data):
        return None
    try:
        X, y = inputs(data), _load_builtin(data.dataset, data.options).y
    except (ValueError, OSError, datasets.UspsUnavailableError):
        return None
    return shipped.for_data(*data, X, y)
