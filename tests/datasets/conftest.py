"""Fixtures shared by the data set tests: clean caches, an isolated environment and a
local HTTP server standing in for the USPS download site."""

from __future__ import annotations

import functools
import http.server
import os
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest

import datasets

from .helpers import closed_port

SHARED_USPS = Path(__file__).resolve().parents[3] / "shared" / "data" / "usps" / "usps.npz"


@pytest.fixture(autouse=True)
def _fresh_cache() -> Iterator[None]:
    # Loads are memoised; a test that changes the environment must not see
    # another test's result.
    datasets.clear_cache()
    yield
    datasets.clear_cache()


@pytest.fixture
def no_usps(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> Path:
    """No KPCA_USPS_PATH, an empty cache directory, and a download URL that refuses
    connections, so no test ever reaches the real internet. Returns the cache dir."""
    cache = tmp_path / "cache"
    monkeypatch.delenv("KPCA_USPS_PATH", raising=False)
    monkeypatch.setenv("KPCA_CACHE_DIR", str(cache))
    monkeypatch.setenv("KPCA_USPS_URL", f"http://127.0.0.1:{closed_port()}/")
    return cache


@pytest.fixture
def usps_path() -> Path:
    """The real USPS file: $KPCA_USPS_PATH (as CI sets it), else the shared copy."""
    env = os.environ.get("KPCA_USPS_PATH")
    if env:
        return Path(env)
    if SHARED_USPS.is_file():
        return SHARED_USPS
    pytest.skip(f"KPCA_USPS_PATH is unset and {SHARED_USPS} does not exist")


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    """Serves a directory; under /cutoff/ it promises more bytes than it sends, like a
    dropped connection."""

    def log_message(self, format: str, *args: object) -> None:
        pass

    def translate_path(self, path: str) -> str:
        return super().translate_path(path.removeprefix("/cutoff"))

    def send_header(self, keyword: str, value: str) -> None:
        if keyword == "Content-Length" and self.path.startswith("/cutoff/"):
            value = str(int(value) + 1000)
        super().send_header(keyword, value)


@pytest.fixture
def http_root(tmp_path: Path) -> Iterator[tuple[Path, str]]:
    """A ThreadingHTTPServer on 127.0.0.1 serving a temporary directory.

    Yields ``(directory, base_url)``.
    """
    root = tmp_path / "www"
    root.mkdir()
    handler = functools.partial(_QuietHandler, directory=str(root))
    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    serve = functools.partial(server.serve_forever, poll_interval=0.05)
    thread = threading.Thread(target=serve, daemon=True)
    thread.start()
    try:
        yield root, f"http://127.0.0.1:{server.server_address[1]}/"
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
