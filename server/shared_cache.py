"""The machine's shared cache: results of built-in data kept on disk for every process.

A lab of 100 students (issue 36) asks for a new view almost every request: their own
dataset, kernel and γ. Those results do not depend on the student (built-in data, settings
validated by the link parser and the sidebar), and γ moves on a grid, so they are computed
once, ahead of time (``lessons/explorer/prepare.py``'s lab plan), and kept here, a second
level under the in-process stores of :func:`shell.caches.bounded_cache`: a miss in the
process's store reads here before it computes, and what it computes is written here.
Every replica of the machine (``deploy/replicas.py``) reads the same directory.

Why ``diskcache`` (PyPI) rather than joblib's ``Memory`` (installed with scikit-learn):
diskcache bounds its size itself (``size_limit``, eviction on every write), is safe with
several processes and threads at once (SQLite in WAL mode, files written then renamed)
and has an atomic ``add`` to claim work between processes; ``Memory`` has no bound it
keeps on its own (``reduce_size`` must be called) and no claim.

What goes in, and what never does:

* only results computed from **built-in** datasets: an upload or a drawing is a
  student's own data and stays in their session (:func:`shell.caches.results_store`
  decides, before this module is asked);
* keyed by the function's name, the app's code version (a hash of the modules the
  results come from: a new version never reads an old one's results) and the call's key
  made of plain values only (settings, data keys, numbers, strings): anything else is
  not cached here;
* values come back as they were stored, arrays read-only like the in-process store's.

Two stores, so that nothing one student does empties what the class was given (issue 51):

* **the prefill** (``prefill-<code version>/``): what is computed ahead for everyone, the
  lab's grid (``lessons/explorer/prepare.py``, ``scripts/fill_shared_cache.py``) and the
  tour's views (``lecture_pack/ahead.py``), written only inside :func:`prefilling`. It
  evicts nothing (diskcache's ``eviction_policy='none'``): the fill stops before its bound
  (:func:`fullness`), a restarted replica refills what is missing, and a new code version
  fills a directory of its own (the fill removes the other versions').
* **on demand** (``on-demand/``): what a page computes when a student asks, bounded on its
  own (``$KPCA_SHARED_CACHE_ON_DEMAND_MB``), oldest written first out. Forty crafted links
  (``/explorer?dataset=moons&n=500&seed=K``, K = 1…40) at a 16 MiB bound used to evict
  every prefilled entry; now they cost their author's time and this store's bytes only.

A read never waits for the disk more than :data:`WAIT_S`: the stores are opened on a
thread of their own (diskcache's opening writes its settings, and waits out a lock up to a
minute a statement), reads take no lock (a policy whose ``get`` records no access time:
with least-recently-used every read was a write transaction), and a lock held by another
process (stopped inside a transaction: pages waited 91–105 s behind one with
``retry=True``) is a miss, computed as without the cache; a write that cannot take the
lock within the wait is dropped.

``$KPCA_SHARED_CACHE``: the root directory (default: ``$KPCA_CACHE_DIR/shared``, i.e.
``~/.cache/kpca-lab/shared``: every process of the user shares it; ``off``, ``0`` or empty:
no shared cache, what the tests run with unless one sets it).
``$KPCA_SHARED_CACHE_MB``: the prefill's bound (default 1024 MiB);
``$KPCA_SHARED_CACHE_ON_DEMAND_MB``: the on-demand store's (default 256 MiB). A failure of
the disk (full, read-only, a damaged file, a lock) never reaches a page: the result is
computed as without it. Entries are pickles (diskcache's default), so the directory must
be writable by the app's own user only: whoever can write there can run code in the app.
The default, under the user's home, is.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import os
import shutil
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from concurrent.futures import Future
from contextlib import contextmanager
from pathlib import Path

import diskcache
import numpy as np

from datasets.usps import cache_dir
from server.memory import megabytes_from_env

ENV, SIZE_ENV, ON_DEMAND_SIZE_ENV = ("KPCA_SHARED_CACHE", "KPCA_SHARED_CACHE_MB",
                                     "KPCA_SHARED_CACHE_ON_DEMAND_MB")
# Whether a server fills the cache at start-up: minutes of a core and hundreds of MB of
# disk, right for a machine that serves a class (deploy/replicas.py turns it on), not for a
# student's laptop or a host that wakes up cold for each visit.
FILL_ENV = "KPCA_FILL_SHARED_CACHE"
DEFAULT_MB, DEFAULT_ON_DEMAND_MB = 1024, 256
OFF = {"", "0", "off", "false", "no", "none"}
# The longest a page waits for the disk, in any call: SQLite's busy timeout, and the wait
# for a store still being opened. A lab view computed again costs more, but a bounded
# amount; a wait behind a stuck process has no bound.
WAIT_S = 0.5
# After a write found the store locked, writes to it are skipped this long.
LOCKED_S = 10.0
# A store that could not be opened (a lock held past diskcache's minute, a full disk) is
# tried again after this long; in between, it is a miss.
REOPEN_S = 60.0
# The code the cached results come from: a change to any of it is a new version. The
# classroom's questions hold their sentences, in each language: the words and the
# translations (``locale/``) are part of them.
VERSIONED = ("kpca_core", "datasets", "experiments", "lessons/common", "lessons/explorer",
             "classroom/questions.py", "classroom/predict.py", "shell/registry.py", "words",
             "locale", "shell/caches.py", "server/shared_cache.py")
ROOT = Path(__file__).resolve().parents[1]
PREFILL_PREFIX, ON_DEMAND = "prefill-", "on-demand"
MISSING = object()
_LOG = logging.getLogger(__name__)


def directory(environ: Mapping[str, str] = os.environ) -> Path | None:
    """Where the shared cache lives (the root of both stores), or None when it is off."""
    value = environ.get(ENV)
    if value is None:
        return cache_dir() / "shared"
    return None if value.strip().lower() in OFF else Path(value)


def fill_at_start(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this server fills the shared cache in the background when it starts."""
    return environ.get(FILL_ENV, "0").strip().lower() not in OFF


def size_limit() -> int:
    """The prefill's bound on disk: ``$KPCA_SHARED_CACHE_MB`` MiB (the fill stops short
    of it)."""
    return megabytes_from_env(SIZE_ENV, DEFAULT_MB)


def on_demand_limit() -> int:
    """The on-demand store's bound on disk: ``$KPCA_SHARED_CACHE_ON_DEMAND_MB`` MiB."""
    return megabytes_from_env(ON_DEMAND_SIZE_ENV, DEFAULT_ON_DEMAND_MB)


@functools.cache
def code_version() -> str:
    """A hash of the source the cached results come from (:func:`versioned_files`)."""
    digest = hashlib.sha256()
    for file in versioned_files():
        digest.update(str(file.relative_to(ROOT)).encode())
        digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


def versioned_files() -> list[Path]:
    """The files of :data:`VERSIONED`: its modules, and the translations under ``locale``."""
    files = []
    for name in VERSIONED:
        path = ROOT / name
        files += (sorted(p for p in path.rglob("*") if p.suffix in (".py", ".po"))
                  if path.is_dir() else [path])
    return files


# -- the two stores ---------------------------------------------------------------------


@dataclasses.dataclass(frozen=True)
class _Store:
    """Where a store lives and how it is bounded (what a handle is opened with)."""

    path: Path
    size_limit: int
    eviction_policy: str


def _prefill_store(root: Path) -> _Store:
    return _Store(root / f"{PREFILL_PREFIX}{code_version()}", size_limit(), "none")


def _on_demand_store(root: Path) -> _Store:
    return _Store(root / ON_DEMAND, on_demand_limit(), "least-recently-stored")


_opening: dict[_Store, tuple[Future, float]] = {}  # each store's handle, opened or not yet
_open_lock = threading.Lock()


def _open(store: _Store, handle: Future) -> None:
    try:
        handle.set_result(diskcache.Cache(
            str(store.path), timeout=WAIT_S, size_limit=store.size_limit,
            eviction_policy=store.eviction_policy))
    except Exception as error:  # noqa: BLE001 - no shared cache, the app goes on
        _LOG.warning("Shared cache %s not usable (%s: %s): computing without it",
                     store.path, type(error).__name__, error)
        handle.set_result(None)


def _opened(store: _Store) -> tuple[Future, float]:
    """The opening of ``store``'s handle (started now if it was not, or failed a while
    ago) and when it started."""
    with _open_lock:
        handle, started = _opening.get(store, (None, 0.0))
        failed = handle is not None and handle.done() and handle.result() is None
        if handle is None or (failed and time.monotonic() - started > REOPEN_S):
            handle, started = Future(), time.monotonic()
            _opening[store] = (handle, started)
            # A thread of its own: diskcache's opening may wait a minute a statement for a
            # lock, and the process's requests must not wait with it.
            threading.Thread(target=_open, args=(store, handle), daemon=True,
                             name="kpca-shared-cache-open").start()
    return handle, started


def _handles() -> tuple[object, object]:
    """This process's handles (``diskcache.Cache``) on the prefill and the on-demand
    store; None for a store that is off, not usable, or still being opened.

    Both are opened together, each on a thread of its own, and only the first
    :data:`WAIT_S` of their opening are waited for: after that every call finds a store
    not yet open a miss at once (a page makes many calls; none waits twice)."""
    root = directory()
    if root is None:
        return None, None
    openings = [_opened(store) for store in (_prefill_store(root), _on_demand_store(root))]
    handles = []
    for handle, started in openings:
        try:
            handles.append(handle.result(timeout=max(started + WAIT_S - time.monotonic(), 0)))
        except TimeoutError:
            handles.append(None)
    return tuple(handles)


def prefill_cache():
    """The prefill's handle (a ``diskcache.Cache``), or None (see :func:`_handles`)."""
    return _handles()[0]


def on_demand_cache():
    """The on-demand store's handle (a ``diskcache.Cache``), or None."""
    return _handles()[1]


def drop_stale_prefills() -> list[Path]:
    """Remove the prefills of other code versions (never read again: their keys hold their
    version); returns what was removed. Called where a fill starts."""
    root = directory()
    if root is None or not root.is_dir():
        return []
    current = _prefill_store(root).path
    stale = [path for path in root.glob(f"{PREFILL_PREFIX}*")
             if path.is_dir() and path != current]
    for path in stale:
        shutil.rmtree(path, ignore_errors=True)
    return stale


_prefilling = threading.local()


@contextmanager
def prefilling() -> Iterator[None]:
    """Within the block, this thread's writes go to the prefill (work done ahead for
    everyone), not to the on-demand store."""
    outer = getattr(_prefilling, "on", False)
    _prefilling.on = True
    try:
        yield
    finally:
        _prefilling.on = outer


def _writes_to():
    return prefill_cache() if getattr(_prefilling, "on", False) else on_demand_cache()


# -- keys and values --------------------------------------------------------------------


def plain(value: object) -> object:
    """``value`` as plain data for a key (tuples of str, numbers, bools, None), or raises
    TypeError: only validated settings go into a key, never an array or an object."""
    if value is None or isinstance(value, str | bool | int | float):
        return value
    if isinstance(value, tuple):  # NamedTuples (DataKey, KernelKey) and plain tuples
        return (type(value).__name__, *map(plain, value))
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        return (type(value).__name__, *(plain(getattr(value, f.name))
                                        for f in dataclasses.fields(value)))
    raise TypeError(f"not a plain key: {type(value).__name__}")


def disk_key(function: Callable, key: object) -> str | None:
    """The shared cache's key for ``function`` called with ``key``; None if the key is not
    plain data (then nothing is shared)."""
    try:
        return f"{function.__module__}.{function.__qualname__}|{code_version()}|{plain(key)!r}"
    except TypeError:
        return None


def freeze(value: object) -> object:
    """Make the arrays in ``value`` read-only (as the in-process store keeps them)."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif dataclasses.is_dataclass(value) and not isinstance(value, type):
        for f in dataclasses.fields(value):
            freeze(getattr(value, f.name))
    elif isinstance(value, tuple | list):
        for item in value:
            freeze(item)
    elif isinstance(value, dict):
        for item in value.values():
            freeze(item)
    return value


# -- reading and writing ----------------------------------------------------------------


def _read(cache, key: str) -> object:
    if cache is None:
        return MISSING
    try:
        # No retry: a database locked past WAIT_S raises diskcache.Timeout, a miss.
        return cache.get(key, default=MISSING, retry=False)
    except Exception as error:  # noqa: BLE001 - a damaged entry or a lock is a miss
        _LOG.warning("Shared cache read failed (%s: %s)", type(error).__name__, error)
        return MISSING


_locked_until: dict[str, float] = {}  # a store's directory → when to try writing again


def _write(cache, key: str, value: object) -> None:
    if cache is None or time.monotonic() < _locked_until.get(cache.directory, 0.0):
        return
    try:
        cache.set(key, value, retry=False)
    except Exception as error:  # noqa: BLE001 - not kept: computed again next time
        if isinstance(error, diskcache.Timeout):
            # Locked by another process past WAIT_S: the next writes would wait as long
            # for nothing, so they are skipped a while (reads go on: they take no lock).
            _locked_until[cache.directory] = time.monotonic() + LOCKED_S
        _LOG.warning("Shared cache write failed (%s: %s)", type(error).__name__, error)


def get(key: str) -> object:
    """The stored value (the prefill's, else the on-demand store's), or :data:`MISSING`."""
    prefill, on_demand = _handles()
    value = _read(prefill, key)
    if value is MISSING:
        value = _read(on_demand, key)
    return MISSING if value is MISSING else freeze(value)


def put(key: str, value: object) -> None:
    """Keep ``value``: in the prefill inside :func:`prefilling`, else on demand."""
    _write(_writes_to(), key, value)


def read_through(key: str | None, compute: Callable[[], object]) -> object:
    """The value stored under ``key``, else ``compute()``'s, stored (``key`` None: just
    compute). Inside :func:`prefilling` a value found only on demand is copied into the
    prefill, where no student's work can evict it."""
    if key is None:
        return compute()
    prefill, on_demand = _handles()
    value = _read(prefill, key)
    if value is not MISSING:
        return freeze(value)
    value = _read(on_demand, key)
    if value is MISSING:
        value = compute()
    elif not getattr(_prefilling, "on", False):
        return freeze(value)
    put(key, value)
    return freeze(value)


def claim(name: str, seconds: float = 600.0) -> bool:
    """Claim the work ``name`` for this process for ``seconds`` (True), unless another
    process of the machine has claimed it (False): replicas filling the cache ahead split
    the work instead of doing it twice. Without a shared cache, or when the claim cannot
    be written within :data:`WAIT_S`, True."""
    cache = prefill_cache()
    if cache is None:
        return True
    try:
        return bool(cache.add(f"claim|{code_version()}|{name}", os.getpid(), expire=seconds,
                              retry=False))
    except Exception:  # noqa: BLE001 - cannot tell: do the work
        return True


def fullness() -> float:
    """The share of its bound the prefill holds (0 without a shared cache)."""
    cache = prefill_cache()
    if cache is None:
        return 0.0
    try:
        return cache.volume() / size_limit()
    except Exception:  # noqa: BLE001
        return 0.0
