"""The USPS handwritten digits: find them, download them once, load a stratified subset.

Where the data comes from, in this order:

1. the ``.npz`` file named by the environment variable ``KPCA_USPS_PATH``;
2. the per-user cache, ``$KPCA_CACHE_DIR/usps.npz`` (default ``~/.cache/kpca-lab``);
3. a download of the ESL text files ``zip.train.gz`` and ``zip.test.gz`` from
   ``$KPCA_USPS_URL`` (default :data:`DEFAULT_BASE_URL`), validated and then cached
   in the format below. The data is never part of the repository.

The ``.npz`` format (``np.savez_compressed``)::

    X_train  int16 (7291, 256)  grey value × divisor, in -divisor..divisor
    y_train  uint8 (7291,)      digit 0..9
    X_test   int16 (2007, 256)
    y_test   uint8 (2007,)
    divisor  int16 ()           1000

Each row of ``X`` is a 16 × 16 image in row-major order, row 0 at the top;
-1 is background and +1 full ink.

References
----------
Le Cun, Y. et al. (1990). Handwritten digit recognition with a back-propagation
network. Advances in Neural Information Processing Systems 2, 396-404.
Hastie, T., Tibshirani, R. & Friedman, J. (2009). The Elements of Statistical
Learning, 2nd ed., Springer: the "ZIP code" data.
"""

from __future__ import annotations

import functools
import gzip
import http.client
import os
import socket
import tempfile
import threading
import time
import urllib.error
import urllib.request
import zlib
from collections.abc import Callable, Iterable, Mapping, Sequence
from contextlib import suppress
from pathlib import Path

import numpy as np

from ._types import Dataset, DatasetInfo, Option, SaidError, Sentence, described, said
from .synthetic import SEED

Progress = Callable[[float, str], None]

DEFAULT_BASE_URL = "https://hastie.su.domains/ElemStatLearn/datasets/"
FILES = {"train": "zip.train.gz", "test": "zip.test.gz"}
CACHE_FILENAME = "usps.npz"
IMAGE_SHAPE = (16, 16)
N_PIXELS = IMAGE_SHAPE[0] * IMAGE_SHAPE[1]
DIVISOR = 1000
# Digits 0..9 in each split, as published; a download must match them exactly.
USPS_CLASS_COUNTS: Mapping[str, tuple[int, ...]] = {
    "train": (1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644),
    "test": (359, 264, 198, 166, 200, 160, 170, 147, 166, 177),
}
N_TOTAL = sum(map(sum, USPS_CLASS_COUNTS.values()))
# The download (~1.9 MB in two files) gets this long in all, however the server behaves:
# one that drips a byte at a time is cut off too. A read that waits longer than
# READ_TIMEOUT for a byte fails sooner.
DOWNLOAD_DEADLINE = 120.0
READ_TIMEOUT = 20.0
# A failed download that took at least FAILURE_COST seconds (a stalled or slow server)
# is remembered for FAILURE_MEMORY seconds, so that every USPS view in every session
# says so at once instead of waiting on the same server again. A quicker failure (the
# site refused the connection, answered 404) costs little to repeat, and is tried again
# at once: the site may be back a moment later.
FAILURE_COST = 2.0
FAILURE_MEMORY = 300.0

USPS_INFO = DatasetInfo(
    name="usps",
    title="USPS handwritten digits",
    summary="Real 16 × 16 images of the digits 0-9 from US postal envelopes.",
    options=(
        Option("split", "train", "choice", choices=("train", "test", "all"),
               help="Which published part: 7291 training or 2007 test images, or both."),
        Option("n", 2000, "int", 10, N_TOTAL,
               help="Number of images, drawn per digit in proportion (capped at the split size)."),
        SEED,
    ),
    suggested_kernel={"kernel": "rbf", "gamma": 0.004},
)
CITATION = (
    "Le Cun, Y. et al. (1990). Handwritten digit recognition with a back-propagation "
    "network. Advances in Neural Information Processing Systems 2, 396-404. Copy "
    "distributed with Hastie, T., Tibshirani, R. & Friedman, J. (2009), The Elements of "
    "Statistical Learning, 2nd ed. (the 'ZIP code' data)."
)


class UspsUnavailableError(SaidError, RuntimeError):
    """The USPS digits cannot be loaded; the message (its sentences) says what to do."""


def cache_dir() -> Path:
    """Per-user cache directory: ``$KPCA_CACHE_DIR``, else ``~/.cache/kpca-lab``."""
    return Path(os.environ.get("KPCA_CACHE_DIR") or Path.home() / ".cache" / "kpca-lab")


def base_url() -> str:
    """Where to download from: ``$KPCA_USPS_URL``, else :data:`DEFAULT_BASE_URL`."""
    return os.environ.get("KPCA_USPS_URL") or DEFAULT_BASE_URL


def _unavailable(reason: Sentence, cache: Path | None = None,
                 url: str | None = None) -> UspsUnavailableError:
    """The digits could not be found or downloaded: ``reason`` (a whole sentence beginning
    "The USPS digits are not available: "), then how to fix it."""
    return UspsUnavailableError(reason, said(
        "To fix this, either set the environment variable KPCA_USPS_PATH to an .npz file in "
        "the format described in datasets/usps.py (keys X_train, y_train, X_test, y_test, "
        "divisor), or connect to the internet so that KPCA Lab can download them once from "
        "{url} into {cache}.", url=url or base_url(), cache=str(cache or cache_dir())))


def usps_split_sizes() -> dict[str, int]:
    """Number of images in each published split (``{"train": 7291, "test": 2007}``)."""
    return {split: sum(counts) for split, counts in USPS_CLASS_COUNTS.items()}


def usps_source_description() -> str:
    """Say where the USPS digits come from on this machine, without loading anything."""
    env = os.environ.get("KPCA_USPS_PATH")
    if env:
        return f"the file named by KPCA_USPS_PATH: {env}"
    cached = cache_dir() / CACHE_FILENAME
    if cached.is_file():
        return f"the per-user cache: {cached}"
    return f"not on this machine yet: it will be downloaded from {base_url()} into {cached}"


def ensure_usps(progress: Progress | None = None) -> Path:
    """Return the path of a USPS ``.npz`` file, downloading it into the cache if needed.

    One download runs at a time in the whole server process: a session that needs the
    digits while another downloads them waits for that download and uses its result. A
    failed download that took :data:`FAILURE_COST` seconds or more is remembered for
    :data:`FAILURE_MEMORY` seconds, during which this raises the same message at once
    (with when the next try is).

    Parameters
    ----------
    progress : callable, optional
        ``progress(fraction, message)``, called during a download only.

    Raises
    ------
    UspsUnavailableError
        If ``KPCA_USPS_PATH`` names a missing file, or no file is cached and the
        download fails (now or within the last :data:`FAILURE_MEMORY` seconds).
    """
    env = os.environ.get("KPCA_USPS_PATH")
    if env:
        # An explicit path that is wrong is a mistake to report, not to paper over
        # with a silent download.
        path = Path(env).expanduser()
        if not path.is_file():
            raise UspsUnavailableError(
                said("KPCA_USPS_PATH is set to {path}, but there is no file there.",
                     path=repr(env)),
                said("Correct the path, or unset KPCA_USPS_PATH to use the per-user cache in "
                     "{cache} (downloaded once if needed).", cache=str(cache_dir())))
        return path
    cached = cache_dir() / CACHE_FILENAME
    if cached.is_file():
        return cached
    # The longest another session's download can take, and a margin.
    if not _DOWNLOAD_LOCK.acquire(timeout=DOWNLOAD_DEADLINE + READ_TIMEOUT + 5):
        raise _unavailable(said("The USPS digits are not available: another session's "
                                "download of them has not finished; try again in a minute."))
    try:
        if cached.is_file():  # the download this session waited for succeeded
            return cached
        source = (base_url(), str(cache_dir()))
        failed = _LAST_FAILURE.get(source)
        if failed is not None:
            elapsed = time.monotonic() - failed[0]
            if elapsed < FAILURE_MEMORY:
                raise UspsUnavailableError(*failed[1], said(
                    "(Tried {ago} s ago; the next try is in {next} s.)",
                    ago=format(elapsed, ".0f"), next=format(FAILURE_MEMORY - elapsed, ".0f")))
        _LAST_FAILURE.clear()
        began = time.monotonic()
        try:
            return download_usps(progress=progress)
        except UspsUnavailableError as error:
            if time.monotonic() - began >= FAILURE_COST:
                _LAST_FAILURE[source] = (time.monotonic(), error.sentences)
            raise
    finally:
        _DOWNLOAD_LOCK.release()


# One download at a time per server process; the last failure, keyed by where it was
# downloaded from and to (another URL or cache directory is tried at once).
_DOWNLOAD_LOCK = threading.Lock()
_LAST_FAILURE: dict[tuple[str, str], tuple[float, tuple[Sentence, ...]]] = {}


def forget_download_failures() -> None:
    """Try the download again on the next request (e.g. after fixing the network)."""
    _LAST_FAILURE.clear()


def download_usps(
    *,
    url: str | None = None,
    cache: Path | None = None,
    progress: Progress | None = None,
    expected_counts: Mapping[str, Sequence[int]] | None = USPS_CLASS_COUNTS,
    timeout: float | None = None,
    deadline: float | None = None,
) -> Path:
    """Download the ESL text files, validate them, and cache them as ``usps.npz``.

    Both files are downloaded to temporary files inside the cache directory and
    parsed; the ``.npz`` is renamed into place only when everything is valid, so a
    failed or corrupt download leaves nothing behind.

    Parameters
    ----------
    url : str, optional
        Base URL holding ``zip.train.gz`` and ``zip.test.gz``; default :func:`base_url`.
    cache : Path, optional
        Directory to cache into; default :func:`cache_dir`.
    progress : callable, optional
        ``progress(fraction, message)`` with ``fraction`` rising from 0 to 1.
    expected_counts : mapping, optional
        Required number of images of each digit 0..9 per split. Defaults to the
        published counts; tests pass the counts of their small files. None checks
        only the row format.
    timeout : float, optional
        Seconds to wait for any one answer of the server; default :data:`READ_TIMEOUT`.
    deadline : float, optional
        Seconds the whole download may take, however the server behaves (a server that
        sends a byte now and then is cut off); default :data:`DOWNLOAD_DEADLINE`.

    Returns
    -------
    Path
        The cached ``.npz`` file.

    Raises
    ------
    UspsUnavailableError
        If the server cannot be reached or a file is corrupt.
    """
    url = url or base_url()
    url = url if url.endswith("/") else url + "/"
    timeout = READ_TIMEOUT if timeout is None else timeout
    deadline = DOWNLOAD_DEADLINE if deadline is None else deadline
    end_by = time.monotonic() + deadline
    cache = Path(cache) if cache is not None else cache_dir()
    report = progress or (lambda fraction, message: None)
    try:
        cache.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise _unavailable(said("The USPS digits are not available: the cache directory cannot "
                                "be created ({error}).", error=str(exc)), cache, url) from exc

    temporaries: list[Path] = []
    try:
        arrays: dict[str, np.ndarray] = {}
        for i, (split, filename) in enumerate(FILES.items()):
            part = _temporary(cache, suffix=f".{filename}.part")
            temporaries.append(part)
            _fetch(url + filename, part, report, start=0.45 * i, stop=0.45 * (i + 1),
                   timeout=timeout, end_by=end_by, deadline=deadline, cache=cache)
            report(0.45 * (i + 1), f"Checking {filename}")
            X, y = _parse_esl_file(part, filename, url, cache)
            if expected_counts is not None:
                _check_counts(y, expected_counts[split], filename, url, cache)
            arrays[f"X_{split}"], arrays[f"y_{split}"] = X, y
        report(0.95, "Saving to the cache")
        npz = _temporary(cache, suffix=".npz.part")
        temporaries.append(npz)
        # A file object, because given a name savez appends ".npz" to it.
        with npz.open("wb") as out:
            np.savez_compressed(out, **arrays, divisor=np.int16(DIVISOR))
        final = cache / CACHE_FILENAME
        os.replace(npz, final)  # atomic: readers see the old state or the whole new file
        report(1.0, "USPS digits ready")
        return final
    finally:
        for path in temporaries:
            with suppress(FileNotFoundError):
                path.unlink()


def _temporary(directory: Path, suffix: str) -> Path:
    fd, name = tempfile.mkstemp(prefix=".usps-", suffix=suffix, dir=directory)
    os.close(fd)
    return Path(name)


def _fetch(
    url: str, dest: Path, report: Progress, *, start: float, stop: float,
    timeout: float, end_by: float, deadline: float, cache: Path,
) -> None:
    """Stream ``url`` into ``dest``, reporting progress between ``start`` and ``stop``.

    Gives up at the monotonic time ``end_by``: a watchdog shuts the connection's socket
    down then, which ends any read that is waiting, even one in the middle of headers
    sent a byte at a time (per-read timeouts alone never end a drip).
    """
    base, name = url.rsplit("/", 1)
    base += "/"
    report(start, f"Downloading {name}")
    total = received = 0
    remaining = end_by - time.monotonic()
    if remaining <= 0:  # the first file took all the time there was
        raise _too_slow(url, deadline, cache, base)
    with _Watchdog(end_by) as watchdog:
        try:
            opener = watchdog.opener()
            with opener.open(url, timeout=min(timeout, remaining)) as response, \
                    dest.open("wb") as out:
                total = int(response.headers.get("Content-Length") or 0)
                while chunk := response.read(1 << 16):
                    out.write(chunk)
                    received += len(chunk)
                    if total:
                        fraction = start + (stop - start) * min(received / total, 1.0)
                        report(fraction, f"Downloading {name}: {received // 1024} of "
                                         f"{total // 1024} kB")
        # Whatever a cut connection raises (OSError, http.client errors), it means this.
        except Exception as exc:
            if watchdog.expired or time.monotonic() >= end_by:
                raise _too_slow(url, deadline, cache, base) from exc
            if isinstance(exc, urllib.error.HTTPError):
                exc.close()  # it holds the open connection, which would otherwise leak
                raise _unavailable(said("The USPS digits are not available: the server "
                                        "answered HTTP {code} for {url}.", code=exc.code,
                                        url=url), cache, base) from exc
            if isinstance(exc, urllib.error.URLError | OSError | http.client.HTTPException):
                reason = getattr(exc, "reason", None) or exc
                raise _unavailable(said("The USPS digits are not available: cannot download "
                                        "{url} ({reason}).", url=url, reason=str(reason)),
                                   cache, base) from exc
            raise
        if watchdog.expired:  # the cut ended the body early, without an error
            raise _too_slow(url, deadline, cache, base)
    # http.client returns a short body without complaint when the connection drops.
    if total and received < total:
        raise _unavailable(said("The USPS digits are not available: the download of {url} "
                                "stopped after {received} of {total} bytes; nothing was "
                                "cached.", url=url, received=received, total=total), cache, base)


def _too_slow(url: str, deadline: float, cache: Path, base: str) -> UspsUnavailableError:
    return _unavailable(said(
        "The USPS digits are not available: the download of {url} did not finish within "
        "{seconds} s (the server answers too slowly, or not at all); nothing was cached.",
        url=url, seconds=format(deadline, "g")), cache, base)


class _Watchdog:
    """Shuts down every connection :meth:`opener` makes once ``end_by`` has passed."""

    def __init__(self, end_by: float) -> None:
        self.end_by = end_by
        self.expired = False
        # The sockets themselves: urllib sets a connection's ``sock`` to None once the
        # headers are in, while the response goes on reading from the same socket.
        self._sockets: list[socket.socket] = []
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._watch, name="usps-download-deadline",
                                        daemon=True)

    def __enter__(self) -> _Watchdog:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._done.set()
        self._thread.join()

    def opener(self) -> urllib.request.OpenerDirector:
        """urllib's usual opener (proxies, redirects), whose connections are watched."""
        track = self._track

        class HTTPHandler(urllib.request.HTTPHandler):
            def do_open(self, http_class, req, **kwargs):
                return super().do_open(track(http_class), req, **kwargs)

        class HTTPSHandler(urllib.request.HTTPSHandler):
            def do_open(self, http_class, req, **kwargs):
                return super().do_open(track(http_class), req, **kwargs)

        return urllib.request.build_opener(HTTPHandler, HTTPSHandler)

    def _track(self, http_class: type) -> Callable[..., http.client.HTTPConnection]:
        def make(*args: object, **kwargs: object) -> http.client.HTTPConnection:
            connection = http_class(*args, **kwargs)
            connect = connection.connect

            def connect_and_watch() -> None:
                connect()  # for HTTPS, connection.sock is the SSL socket after this
                self._sockets.append(connection.sock)

            connection.connect = connect_and_watch
            return connection

        return make

    def _watch(self) -> None:
        if self._done.wait(max(self.end_by - time.monotonic(), 0)):
            return
        self.expired = True
        # Again every 0.2 s, for a connection that was still being opened at the deadline.
        while True:
            for sock in list(self._sockets):
                with suppress(OSError):
                    # socket.socket's own shutdown, also for an SSL socket (whose
                    # override would unwrap it under the reading thread's feet).
                    socket.socket.shutdown(sock, socket.SHUT_RDWR)
            if self._done.wait(0.2):
                return


def _parse_esl_file(path: Path, filename: str, url: str, cache: Path) -> tuple[np.ndarray, ...]:
    """Read a gzipped ESL file into ``(X int16 scaled by DIVISOR, y uint8)``."""
    try:
        with gzip.open(path, "rt", encoding="ascii") as lines:
            return parse_esl_rows(lines, filename)
    except (OSError, EOFError, zlib.error, UnicodeDecodeError, ValueError) as exc:
        raise _unavailable(said("The USPS digits are not available: the downloaded {file} is "
                                "corrupt ({error}); nothing was cached.", file=filename,
                                error=str(exc)), cache, url) from exc


def esl_rows(X: np.ndarray, y: np.ndarray) -> list[str]:
    """The ESL "zip" text rows of images ``X`` (multiples of 0.001 in [-1, 1], as the real
    data are) and digits ``y``: what :func:`parse_esl_rows` reads (a local mirror of the
    data, a test's download site). Formatting through a table of the 2,001 possible
    strings keeps the full data set quick to write."""
    levels = np.array([f"{k / 1000:.3f}" for k in range(-1000, 1001)])
    codes = np.rint(np.asarray(X) * 1000).astype(int) + 1000
    return [f"{label:.4f} " + " ".join(levels[row]) + "\n"
            for label, row in zip(y, codes, strict=True)]


def write_esl_gz(path: Path, X: np.ndarray, y: np.ndarray) -> None:
    """Write :func:`esl_rows` gzipped, as the published ``zip.train.gz`` is."""
    with gzip.open(path, "wt", encoding="ascii", compresslevel=1) as out:
        out.writelines(esl_rows(X, y))


def parse_esl_rows(lines: Iterable[str], filename: str) -> tuple[np.ndarray, np.ndarray]:
    """Parse ESL "zip" text rows ``label v1 ... v256`` into scaled int16 pixels and labels.

    Numbers after the 257th are ignored: one published copy of the test file has
    an extra trailing number on one row.

    Raises
    ------
    ValueError
        Naming the file and line of the first malformed row.
    """
    rows = []
    for line_number, line in enumerate(lines, start=1):
        numbers = line.split()
        if not numbers:
            continue
        where = f"{filename} line {line_number}"
        if len(numbers) < 1 + N_PIXELS:
            raise ValueError(f"{where} has {len(numbers)} numbers; expected "
                             f"{1 + N_PIXELS} (a digit and {N_PIXELS} grey values)")
        try:
            rows.append([float(v) for v in numbers[: 1 + N_PIXELS]])
        except ValueError as exc:
            raise ValueError(f"{where}: {exc}") from None
    if not rows:
        raise ValueError(f"{filename} has no rows")
    data = np.array(rows)
    labels, pixels = data[:, 0], data[:, 1:]
    bad = np.flatnonzero((labels != np.round(labels)) | (labels < 0) | (labels > 9))
    if bad.size:
        raise ValueError(f"{filename} row {bad[0] + 1} has label {labels[bad[0]]:g}; "
                         "expected a digit 0..9")
    if np.abs(pixels).max() > 1:
        raise ValueError(f"{filename} has grey values outside [-1, 1]")
    scaled = np.rint(pixels * DIVISOR)
    # The published values have three decimals; int16 storage must lose nothing.
    if np.abs(scaled - pixels * DIVISOR).max() > 1e-6:
        raise ValueError(f"{filename} has grey values that are not multiples of 1/{DIVISOR}")
    return scaled.astype(np.int16), labels.astype(np.uint8)


def _check_counts(
    y: np.ndarray, expected: Sequence[int], filename: str, url: str, cache: Path
) -> None:
    counts = np.bincount(y, minlength=10)
    if counts.tolist() != list(expected):
        raise _unavailable(said(
            "The USPS digits are not available: the downloaded {file} has {n} images with "
            "digit counts {counts}, not the published {expected}; nothing was cached.",
            file=filename, n=len(y), counts=str(counts.tolist()), expected=str(list(expected))),
            cache, url)


@functools.lru_cache(maxsize=2)
def _read_npz(path: str, mtime_ns: int, size: int) -> dict[str, np.ndarray]:
    """Read and check a USPS ``.npz`` once; return read-only float64 ``X`` and int ``y``.

    ``mtime_ns`` and ``size`` are only part of the cache key, so that a replaced
    file is read again. Whatever is wrong with the file (truncated, empty, a ``.npy``,
    text, a zero divisor, NaN pixels or labels), the error is
    :class:`UspsUnavailableError` saying so and how to fix it.
    """
    raw = _load_arrays(path)
    divisor = raw["divisor"]
    if divisor.size != 1 or not _is_real(divisor) or not np.isfinite(divisor).all() or (
        divisor.reshape(-1)[0] == 0
    ):
        raise _damaged(path, said(
            "{path} is not a USPS .npz file: its divisor is {divisor}; expected one non-zero "
            "number such as {example}.", path=path, divisor=_show(divisor), example=DIVISOR))
    divisor = float(divisor.reshape(-1)[0])
    arrays = {}
    for split in FILES:
        X, y = raw[f"X_{split}"], raw[f"y_{split}"]
        if not (_is_real(X) and _is_real(y)):
            raise _damaged(path, said(
                "{path} is not a USPS .npz file: X_{split} holds {x_type} and y_{split} "
                "{y_type}; expected numbers.", path=path, split=split, x_type=str(X.dtype),
                y_type=str(y.dtype)))
        if X.ndim != 2 or X.shape[1] != N_PIXELS or y.shape != (X.shape[0],) or not len(y):
            raise _damaged(path, said(
                "{path} is not a USPS .npz file: X_{split} has shape {x_shape} and y_{split} "
                "shape {y_shape}; expected (n, {pixels}) and (n,) with n > 0.", path=path,
                split=split, x_shape=str(X.shape), y_shape=str(y.shape), pixels=N_PIXELS))
        digits = np.isfinite(y) & (y == np.round(y)) & (y >= 0) & (y <= 9)
        if not digits.all():
            bad = int(np.argmin(digits))
            raise _damaged(path, said(
                "{path} is not a USPS .npz file: y_{split}[{row}] is {label}; every label must "
                "be a digit 0..9.", path=path, split=split, row=bad, label=str(y[bad])))
        pixels = X / divisor
        inside = np.abs(pixels) <= 1  # False for NaN and infinite values too
        if not inside.all():
            bad = np.unravel_index(int(np.argmin(inside)), X.shape)
            raise _damaged(path, said(
                "{path} is not a USPS .npz file: X_{split}[{row}, {column}] is {value}, which "
                "over the divisor {divisor} is not a grey value in [-1, 1].", path=path,
                split=split, row=bad[0], column=bad[1], value=str(X[bad]),
                divisor=format(divisor, "g")))
        arrays[f"X_{split}"] = pixels
        arrays[f"y_{split}"] = y.astype(np.int64)
    for array in arrays.values():
        array.flags.writeable = False
    return arrays


_KEYS = ("X_train", "y_train", "X_test", "y_test", "divisor")


def _load_arrays(path: str) -> dict[str, np.ndarray]:
    """The five arrays of the file, or :class:`UspsUnavailableError` naming the problem."""
    try:
        with open(path, "rb") as file:
            magic = file.read(6)
            if not magic:
                raise _damaged(path, said("{path} is not a USPS .npz file: it is empty.",
                                          path=path))
            if magic == b"\x93NUMPY":
                raise _damaged(path, said(
                    "{path} is not a USPS .npz file: it holds a single array (a .npy file), "
                    "not an .npz archive of arrays.", path=path))
            if not magic.startswith(b"PK\x03\x04"):
                raise _damaged(path, said(
                    "{path} is not a USPS .npz file: it is not an .npz archive (a zip file of "
                    "arrays).", path=path))
            file.seek(0)
            with np.load(file, allow_pickle=False) as archive:
                missing = ", ".join(key for key in _KEYS if key not in archive.files)
                if missing and archive.files:
                    raise _damaged(path, said(
                        "{path} is not a USPS .npz file: it has no {missing} (it holds: "
                        "{held}).", path=path, missing=missing, held=", ".join(archive.files)))
                if missing:
                    raise _damaged(path, said(
                        "{path} is not a USPS .npz file: it has no {missing} (it holds "
                        "nothing).", path=path, missing=missing))
                return {key: np.asarray(archive[key]) for key in _KEYS}
    except UspsUnavailableError:
        raise
    # The failures of a truncated or corrupt archive are not one documented set (OSError,
    # EOFError, ValueError, zipfile.BadZipFile, zlib.error, ...): each means the same.
    except Exception as exc:
        raise _damaged(path, said(
            "{path} is not a USPS .npz file: it cannot be read ({error}).", path=path,
            error=type(exc).__name__ + ": " + str(exc))) from exc


def _is_real(array: np.ndarray) -> bool:
    return np.issubdtype(array.dtype, np.integer) or np.issubdtype(array.dtype, np.floating)


def _show(array: np.ndarray) -> str:
    text = np.array2string(array, threshold=4, edgeitems=2)
    return text if len(text) <= 40 else text[:37] + "..."


def _damaged(path: str, problem: Sentence) -> UspsUnavailableError:
    """The file at ``path`` is not a USPS .npz file: ``problem`` (a whole sentence beginning
    "{path} is not a USPS .npz file: "), then what it needs and how to fix it."""
    if Path(path) == cache_dir() / CACHE_FILENAME:
        fix = said("It needs the keys X_train, y_train, X_test, y_test and divisor described in "
                   "datasets/usps.py; delete it, and KPCA Lab downloads the digits again.")
    else:
        fix = said("It needs the keys X_train, y_train, X_test, y_test and divisor described in "
                   "datasets/usps.py; fix or replace it, or unset KPCA_USPS_PATH to use the "
                   "per-user cache in {cache} (downloaded once if needed).",
                   cache=str(cache_dir()))
    return UspsUnavailableError(problem, fix)


def read_usps(path: Path) -> dict[str, np.ndarray]:
    """The arrays of a USPS ``.npz`` file as float64 in [-1, 1], read once and cached."""
    try:
        stat = path.stat()
    except OSError as exc:
        raise UspsUnavailableError(
            said("{path} cannot be read ({error}).", path=str(path),
                 error=str(exc.strerror or exc)),
            said("Check the file and its permissions, or delete it if it is the per-user "
                 "cache.")) from exc
    return _read_npz(str(path), stat.st_mtime_ns, stat.st_size)


def stratified_indices(y: np.ndarray, n: int, seed: int) -> np.ndarray:
    """Pick ``n`` row indices with each class in proportion, sorted by label then index.

    Class ``c`` with ``m_c`` of the ``m`` rows gets ``floor(n m_c / m)`` rows plus
    one more for the classes with the largest remainders, so every class is within
    one row of its exact share.

    Parameters
    ----------
    y : ndarray of int
        Labels of all rows.
    n : int
        Number of rows to pick, at most ``len(y)``.
    seed : int
        Random seed for which rows of each class are picked.
    """
    classes, counts = np.unique(y, return_counts=True)
    share = counts * n / counts.sum()
    take = np.floor(share).astype(int)
    largest_remainders = np.argsort(-(share - take), kind="stable")
    take[largest_remainders[: n - take.sum()]] += 1
    rng = np.random.default_rng(seed)
    picked = [
        np.sort(rng.choice(np.flatnonzero(y == c), size=k, replace=False))
        for c, k in zip(classes, take, strict=True)
    ]
    return np.concatenate(picked)


def load_usps(split: str, n: int, seed: int) -> Dataset:
    """A stratified, seeded subset of the USPS digits.

    Parameters
    ----------
    split : {"train", "test", "all"}
        The published training set (7291 images), test set (2007) or both
        (training rows first).
    n : int
        Number of images; capped at the size of the split.
    seed : int
        Random seed for the subset.
    """
    path = ensure_usps()
    arrays = read_usps(path)
    splits = ("train", "test") if split == "all" else (split,)
    X = np.concatenate([arrays[f"X_{s}"] for s in splits])
    y = np.concatenate([arrays[f"y_{s}"] for s in splits])
    n = min(n, len(y))
    rows = stratified_indices(y, n, seed)
    return Dataset(
        name="usps",
        X=X[rows],
        y=y[rows],
        target_names=tuple(str(d) for d in range(10)),
        feature_names=tuple(
            f"r{r + 1}c{c + 1}" for r in range(IMAGE_SHAPE[0]) for c in range(IMAGE_SHAPE[1])
        ),
        **described({  # one sentence per part: the part's name is a word to translate
            "train": said("{n} of the {total} images in the 'train' part of the USPS "
                          "handwritten digits, picked in proportion to how often each digit "
                          "occurs (seed {seed}).", n=n, total=len(y), seed=seed),
            "test": said("{n} of the {total} images in the 'test' part of the USPS "
                         "handwritten digits, picked in proportion to how often each digit "
                         "occurs (seed {seed}).", n=n, total=len(y), seed=seed),
            "all": said("{n} of the {total} images in the 'all' part of the USPS "
                        "handwritten digits, picked in proportion to how often each digit "
                        "occurs (seed {seed}).", n=n, total=len(y), seed=seed),
        }[split], said(
            "Each image has 16 × 16 grey values between -1 (paper) and +1 (ink), so each "
            "point lives in 256 dimensions. The first linear principal components already "
            "sort the digits roughly (0s against 1s); an RBF kernel separates more digits in "
            "the leading components.")),
        citation=CITATION,
        image_shape=IMAGE_SHAPE,
    )
