"""The USPS download against servers that stall: a total deadline ends it whatever the
server does, one download runs at a time in the process, and a failure is remembered for a
while (then tried again). Deadlines here are ~1 s, so the whole file takes a few seconds."""

from __future__ import annotations

import socket
import threading
import time
from collections.abc import Iterator
from contextlib import suppress
from pathlib import Path

import pytest

import datasets
from datasets import usps

from .helpers import said_in_chinese

DEADLINE = 1.0
# Generous: the download must *end*, at its deadline plus a little (the watchdog checks
# again every 0.2 s); this is no benchmark.
ENDS_WITHIN = DEADLINE + 3.0

BEHAVIOURS = {
    # Accepts the connection, reads the request, never says a word.
    "silent": [],
    # The status line, one byte every 0.05 s: urllib is still reading headers forever.
    "drips headers": [b"HTTP/1.1 200 OK\r\nContent-Length: 100\r\n\r\n"],
    # Complete headers, then the body one byte every 0.05 s.
    "drips body": [b"HTTP/1.1 200 OK\r\nContent-Length: 1000000\r\n\r\n", b"x" * 1_000_000],
}
# Not stalling: answers at once that it has nothing.
UNAVAILABLE = b"HTTP/1.1 503 Service Unavailable\r\nContent-Length: 0\r\n\r\n"


class StallingServer:
    """A TCP server on 127.0.0.1 that answers every connection in one of BEHAVIOURS."""

    def __init__(self, behaviour: str) -> None:
        self.behaviour = behaviour
        self.connections = 0
        self.stop = threading.Event()
        self.listener = socket.create_server(("127.0.0.1", 0))
        self.listener.settimeout(0.05)
        self.url = f"http://127.0.0.1:{self.listener.getsockname()[1]}/"
        self.threads = [threading.Thread(target=self._accept, daemon=True)]
        self.threads[0].start()

    def _accept(self) -> None:
        while not self.stop.is_set():
            try:
                connection, _ = self.listener.accept()
            except TimeoutError:
                continue
            self.connections += 1
            thread = threading.Thread(target=self._serve, args=(connection,), daemon=True)
            self.threads.append(thread)
            thread.start()

    def _serve(self, connection: socket.socket) -> None:
        with connection, suppress(OSError):
            connection.recv(65536)  # the request
            if self.behaviour == "unavailable":
                connection.sendall(UNAVAILABLE)
                return
            parts = BEHAVIOURS[self.behaviour]
            if self.behaviour == "drips body":
                connection.sendall(parts[0])
            payload = parts[-1] if parts else b""
            for byte in payload:
                if self.stop.wait(0.05):
                    return
                connection.sendall(bytes([byte]))
            self.stop.wait()  # then hold the connection open, saying nothing

    def close(self) -> None:
        self.stop.set()
        for thread in self.threads:
            thread.join()
        self.listener.close()


@pytest.fixture
def stalling(no_usps, monkeypatch) -> Iterator:
    """``stalling(behaviour)`` starts a server and points KPCA_USPS_URL at it."""
    servers = []
    monkeypatch.setattr(usps, "DOWNLOAD_DEADLINE", DEADLINE)
    monkeypatch.setattr(usps, "FAILURE_COST", DEADLINE / 2)  # a stall here costs 1 s

    def start(behaviour: str) -> StallingServer:
        server = StallingServer(behaviour)
        servers.append(server)
        monkeypatch.setenv("KPCA_USPS_URL", server.url)
        return server

    yield start
    for server in servers:
        server.close()


def timed_refusal(call) -> tuple[str, float]:
    began = time.monotonic()
    with pytest.raises(datasets.UspsUnavailableError) as error:
        call()
    return str(error.value), time.monotonic() - began


@pytest.mark.parametrize("behaviour", list(BEHAVIOURS))
def test_a_stalled_download_ends_at_its_deadline_with_a_clear_message(
        stalling, behaviour, no_usps):
    server = stalling(behaviour)
    message, elapsed = timed_refusal(datasets.ensure_usps)
    assert elapsed < ENDS_WITHIN
    assert f"did not finish within {DEADLINE:g} s" in message
    assert f"{server.url}zip.train.gz" in message
    assert "set the environment variable KPCA_USPS_PATH" in message  # how to fix it
    assert not no_usps.exists() or list(no_usps.iterdir()) == []  # nothing half-written
    assert server.connections == 1


def test_the_deadline_is_a_parameter_of_download_usps(stalling, tmp_path):
    server = stalling("drips body")
    message, elapsed = timed_refusal(
        lambda: usps.download_usps(url=server.url, cache=tmp_path, deadline=0.5, timeout=5))
    assert "did not finish within 0.5 s" in message and elapsed < 0.5 + 3.0


def test_a_failure_is_remembered_then_tried_again(stalling, monkeypatch):
    server = stalling("silent")
    first, _ = timed_refusal(datasets.ensure_usps)
    # Every USPS view of every session now gets the same answer at once, no request.
    for _ in range(3):
        again, elapsed = timed_refusal(lambda: datasets.load("usps"))
        assert again.startswith(first) and "the next try is in" in again
        assert elapsed < DEADLINE
    assert server.connections == 1
    # Once the memory runs out, the next view tries again.
    monkeypatch.setattr(usps, "FAILURE_MEMORY", 0.0)
    timed_refusal(datasets.ensure_usps)
    assert server.connections == 2


def test_a_quick_failure_is_not_remembered(stalling):
    """A site that answers at once (here 503; or refuses the connection) costs nothing to
    ask again, and may be back a moment later: every view asks."""
    server = stalling("unavailable")
    for _ in range(3):
        message, _ = timed_refusal(datasets.ensure_usps)
        assert "the server answered HTTP 503" in message and "next try" not in message
    assert server.connections == 3


def test_each_refusal_of_a_download_is_said_in_chinese_too(stalling, monkeypatch):
    """Refused (HTTP 503), stalled past its deadline, then remembered: the reason, how to
    fix it and when the next try is, each in Chinese with the English numbers."""
    stalling("unavailable")
    with pytest.raises(datasets.UspsUnavailableError) as refused:
        datasets.ensure_usps()
    assert "服务器对" in said_in_chinese(refused.value) and "HTTP 503" in str(refused.value)
    stalling("silent")
    with pytest.raises(datasets.UspsUnavailableError) as stalled:
        datasets.ensure_usps()
    assert f"未能在 {DEADLINE:g} 秒内完成" in said_in_chinese(stalled.value)
    with pytest.raises(datasets.UspsUnavailableError) as remembered:
        datasets.load("usps")
    chinese = said_in_chinese(remembered.value)
    assert "秒前；下次尝试在" in chinese and "解决办法：" in chinese


def test_two_sessions_at_once_make_one_request(stalling):
    server = stalling("drips headers")
    messages = []

    def session() -> None:
        with pytest.raises(datasets.UspsUnavailableError) as error:
            datasets.ensure_usps()
        messages.append(str(error.value))

    first = threading.Thread(target=session)
    first.start()
    while server.connections == 0:  # the first session's download is under way
        time.sleep(0.01)
    second = threading.Thread(target=session)
    second.start()
    first.join(ENDS_WITHIN)
    second.join(ENDS_WITHIN)
    assert server.connections == 1
    assert len(messages) == 2 and all("did not finish within" in m for m in messages)
    assert sum("the next try is in" in m for m in messages) == 1  # the one that waited


def test_a_session_waiting_for_a_download_gets_its_file(no_usps, monkeypatch):
    """The waiting session uses the file the other one downloaded: one download."""
    downloads = []

    def slow_download(progress=None) -> Path:
        downloads.append(threading.current_thread().name)
        time.sleep(0.3)
        no_usps.mkdir(parents=True, exist_ok=True)
        (no_usps / usps.CACHE_FILENAME).write_bytes(b"stand-in")
        return no_usps / usps.CACHE_FILENAME

    monkeypatch.setattr(usps, "download_usps", slow_download)
    results = []
    threads = [threading.Thread(target=lambda: results.append(datasets.ensure_usps()))
               for _ in range(3)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(5)
    assert len(downloads) == 1
    assert results == [no_usps / usps.CACHE_FILENAME] * 3
