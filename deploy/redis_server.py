"""Debian's ``redis-server`` on a free loopback port, for a run: the class store the
replicas share (``deploy/replicas.py``) and the tests' (``tests/classroom``).

Nothing is saved to disk (no snapshot, no append-only file): the store lives as long as
the run. Its directory (given) holds its log.
"""

from __future__ import annotations

import shutil
import socket
import subprocess
import time
from pathlib import Path

REDIS_SERVER = shutil.which("redis-server") or "/usr/bin/redis-server"
START_TIMEOUT = 10.0


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def stop_process(process: subprocess.Popen, timeout: float = 10) -> None:
    """Stop a server process: SIGTERM, and SIGKILL if it has not ended within ``timeout``."""
    if process.poll() is None:
        process.terminate()
        try:
            process.wait(timeout=timeout)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait(timeout=timeout)


class RedisServer:
    """``redis-server`` on 127.0.0.1 at a free port, its log in ``workdir``; a context
    manager that stops it. ``url`` is what ``KPCA_CLASS_STORE`` takes."""

    def __init__(self, workdir: Path) -> None:
        self.workdir = Path(workdir)
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = _free_port()
        self.url = f"redis://127.0.0.1:{self.port}/0"
        self.log = self.workdir / "redis.log"
        self.process = subprocess.Popen(
            [REDIS_SERVER, "--port", str(self.port), "--bind", "127.0.0.1",
             "--dir", str(self.workdir), "--save", "", "--appendonly", "no",
             "--logfile", str(self.log), "--daemonize", "no"],
            stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
        deadline = time.monotonic() + START_TIMEOUT
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"redis-server exited early (code "
                                   f"{self.process.returncode}); see {self.log}")
            try:
                with socket.create_connection(("127.0.0.1", self.port), timeout=1) as s:
                    s.sendall(b"PING\r\n")
                    if s.recv(64).startswith(b"+PONG"):
                        break
            except OSError:
                pass
            if time.monotonic() > deadline:
                self.stop()
                raise RuntimeError(f"redis-server not answering after {START_TIMEOUT:.0f} s; "
                                   f"see {self.log}")
            time.sleep(0.05)

    def stop(self) -> None:
        stop_process(self.process)

    def __enter__(self) -> RedisServer:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()
