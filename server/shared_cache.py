"""The machine's shared cache: results of built-in data kept on disk for every process.

A lab of 100 students (issue 36) asks for a new view almost every request: their own
dataset, kernel and γ. Those results do not depend on the student (built-in data, settings
validated by the link parser and the sidebar), and γ moves on a grid, so they are computed
once, ahead of time (``lessons/explorer/prepare.py``'s lab plan), and kept here, a second
level under the in-process stores of :func:`shell.caches.bounded_cache`: a miss in the
process's store reads here before it computes, and what it computes is written here.
Every replica of the machine (``deploy/replicas.py``) reads the same directory.

Why ``diskcache`` (PyPI) rather than joblib's ``Memory`` (installed with scikit-learn):
diskcache bounds its size itself (``size_limit``, least-recently-used eviction on every
write), is safe with several processes and threads at once (SQLite in WAL mode, files
written then renamed) and has an atomic ``add`` to claim work between processes;
``Memory`` has no bound it keeps on its own (``reduce_size`` must be called) and no
claim.

What goes in, and what never does:

* only results computed from **built-in** datasets: an upload or a drawing is a
  student's own data and stays in their session (:func:`shell.caches.results_store`
  decides, before this module is asked);
* keyed by the function's name, the app's code version (a hash of the modules the
  results come from: a new version never reads an old one's results) and the call's key
  made of plain values only (settings, data keys, numbers, strings): anything else is
  not cached here;
* values come back as they were stored, arrays read-only like the in-process store's.

``$KPCA_SHARED_CACHE``: the directory (default: ``$KPCA_CACHE_DIR/shared``, i.e.
``~/.cache/kpca-lab/shared``: every process of the user shares it; ``off``, ``0`` or empty:
no shared cache, what the tests run with unless one sets it).
``$KPCA_SHARED_CACHE_MB``: its size bound (default 1024 MiB). A failure of the disk (full,
read-only, a damaged file) never reaches a page: the result is computed as without it.
Entries are pickles (diskcache's default), so the directory must be writable by the
app's own user only: whoever can write there can run code in the app. The default, under
the user's home, is.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import logging
import os
import threading
from collections.abc import Callable, Mapping
from pathlib import Path

import numpy as np

from datasets.usps import cache_dir
from server.memory import megabytes_from_env

ENV, SIZE_ENV = "KPCA_SHARED_CACHE", "KPCA_SHARED_CACHE_MB"
# Whether a server fills the cache at start-up: minutes of a core and hundreds of MB of
# disk, right for a machine that serves a class (deploy/replicas.py turns it on), not for a
# student's laptop or a host that wakes up cold for each visit.
FILL_ENV = "KPCA_FILL_SHARED_CACHE"
DEFAULT_MB = 1024
OFF = {"", "0", "off", "false", "no", "none"}
# The code the cached results come from: a change to any of it is a new version.
VERSIONED = ("kpca_core", "datasets", "experiments", "lessons/common", "lessons/explorer",
             "shell/caches.py", "server/shared_cache.py")
ROOT = Path(__file__).resolve().parents[1]
MISSING = object()
_LOG = logging.getLogger(__name__)


def directory(environ: Mapping[str, str] = os.environ) -> Path | None:
    """Where the shared cache lives, or None when it is off."""
    value = environ.get(ENV)
    if value is None:
        return cache_dir() / "shared"
    return None if value.strip().lower() in OFF else Path(value)


def fill_at_start(environ: Mapping[str, str] = os.environ) -> bool:
    """Whether this server fills the shared cache in the background when it starts."""
    return environ.get(FILL_ENV, "0").strip().lower() not in OFF


def size_limit() -> int:
    """The bound on the cache's bytes on disk: ``$KPCA_SHARED_CACHE_MB`` MiB."""
    return megabytes_from_env(SIZE_ENV, DEFAULT_MB)


@functools.cache
def code_version() -> str:
    """A hash of the source the cached results come from (:data:`VERSIONED`)."""
    digest = hashlib.sha256()
    for name in VERSIONED:
        path = ROOT / name
        files = sorted(path.rglob("*.py")) if path.is_dir() else [path]
        for file in files:
            digest.update(str(file.relative_to(ROOT)).encode())
            digest.update(file.read_bytes())
    return digest.hexdigest()[:16]


_caches: dict[tuple[Path, int], object] = {}
_open_lock = threading.Lock()


def shared_cache():
    """This process's handle on the shared cache (a ``diskcache.Cache``), or None when off
    or when the directory cannot be used."""
    where = directory()
    if where is None:
        return None
    key = (where, size_limit())
    with _open_lock:
        if key not in _caches:
            try:
                import diskcache

                _caches[key] = diskcache.Cache(
                    str(where), size_limit=key[1], eviction_policy="least-recently-used")
            except Exception as error:  # noqa: BLE001 - no shared cache, the app goes on
                _LOG.warning("Shared cache %s not usable (%s: %s): computing without it",
                             where, type(error).__name__, error)
                _caches[key] = None
        return _caches[key]


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


def get(key: str) -> object:
    """The stored value, or :data:`MISSING`."""
    cache = shared_cache()
    if cache is None:
        return MISSING
    try:
        value = cache.get(key, default=MISSING, retry=True)
    except Exception as error:  # noqa: BLE001 - a damaged entry is a miss
        _LOG.warning("Shared cache read failed (%s: %s)", type(error).__name__, error)
        return MISSING
    return MISSING if value is MISSING else freeze(value)


def put(key: str, value: object) -> None:
    cache = shared_cache()
    if cache is None:
        return
    try:
        cache.set(key, value, retry=True)
    except Exception as error:  # noqa: BLE001 - not kept: computed again next time
        _LOG.warning("Shared cache write failed (%s: %s)", type(error).__name__, error)


def read_through(key: str | None, compute: Callable[[], object]) -> object:
    """The value stored under ``key``, else ``compute()``'s, stored (``key`` None: just
    compute)."""
    if key is None:
        return compute()
    value = get(key)
    if value is MISSING:
        value = compute()
        put(key, value)
    return value


def claim(name: str, seconds: float = 600.0) -> bool:
    """Claim the work ``name`` for this process for ``seconds`` (True), unless another
    process of the machine has claimed it (False): replicas filling the cache ahead split
    the work instead of doing it twice. Without a shared cache, always True."""
    cache = shared_cache()
    if cache is None:
        return True
    try:
        return bool(cache.add(f"claim|{code_version()}|{name}", os.getpid(), expire=seconds,
                              retry=True))
    except Exception:  # noqa: BLE001 - cannot tell: do the work
        return True


def fullness() -> float:
    """The share of its size bound the cache holds (0 without a shared cache)."""
    cache = shared_cache()
    if cache is None:
        return 0.0
    try:
        return cache.volume() / size_limit()
    except Exception:  # noqa: BLE001
        return 0.0
