"""The balancer's limits on file uploads, per client address (deploy/haproxy.cfg): a body
over Streamlit's own limit is refused from its header, and an address that sends too many
uploads in a minute is told to slow down; other requests pass. HAProxy alone, in front of
a stub replica that accepts everything (no Streamlit needed to test the balancer)."""

from __future__ import annotations

import os
import socket
import subprocess
import threading
import time
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path

import pytest

from deploy.replicas import HAPROXY, free_port, haproxy_config

pytestmark = pytest.mark.skipif(not Path(HAPROXY).exists(),
                                reason="needs Debian's haproxy (scripts/test.sh installs it)")
UPLOAD = "/_stcore/upload_file/session/file"
PER_MINUTE = 60  # uploads an address may send a minute (deploy/haproxy.cfg)


class _Replica(BaseHTTPRequestHandler):
    """Answers as Streamlit would when all is well: healthy, and every upload kept."""

    def do_GET(self):  # noqa: N802 - http.server's name
        self.send_response(200)
        self.send_header("Content-Length", "2")
        self.end_headers()
        self.wfile.write(b"ok")

    def do_PUT(self):  # noqa: N802
        self.rfile.read(int(self.headers.get("Content-Length", 0)))
        self.send_response(204)
        self.end_headers()

    def log_message(self, *args):
        pass


@pytest.fixture(scope="module")
def balancer(tmp_path_factory):
    replica = ThreadingHTTPServer(("127.0.0.1", 0), _Replica)
    threading.Thread(target=replica.serve_forever, daemon=True).start()
    workdir = tmp_path_factory.mktemp("haproxy")
    config = workdir / "haproxy.cfg"
    config.write_text(haproxy_config([replica.server_address[1]]))
    port = free_port()
    env = {**os.environ, "KPCA_BIND": f"127.0.0.1:{port}",
           "KPCA_HAPROXY_SOCKET": str(workdir / "haproxy.sock"), "KPCA_HAPROXY_LOG": "stdout"}
    haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], env=env,
                               stdout=subprocess.DEVNULL, stderr=subprocess.STDOUT)
    try:
        deadline = time.monotonic() + 30
        while status(port, "GET", "/_stcore/health") != 200:
            assert haproxy.poll() is None and time.monotonic() < deadline, "no balancer"
            time.sleep(0.2)
        yield port
    finally:
        haproxy.terminate()
        haproxy.wait(timeout=10)
        replica.shutdown()


def status(port: int, method: str, path: str, body: bytes = b"",
           content_length: int | None = None) -> int | None:
    """The status of one request (None when nothing answers); ``content_length``: what the
    header claims, whatever the body (the balancer must refuse on the claim alone)."""
    length = len(body) if content_length is None else content_length
    request = (f"{method} {path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n"
               f"Content-Length: {length}\r\n\r\n").encode() + body
    try:
        with socket.create_connection(("127.0.0.1", port), timeout=10) as connection:
            connection.sendall(request)
            head = connection.recv(64).decode("latin-1")
    except OSError:
        return None
    return int(head.split()[1]) if head.startswith("HTTP/") else None


def test_a_body_over_streamlits_limit_is_refused_from_its_header(balancer):
    assert status(balancer, "PUT", UPLOAD, b"a,b\n1,2\n") == 204  # a student's CSV passes
    assert status(balancer, "PUT", UPLOAD, content_length=25 * 10**6) == 413


def test_an_address_that_sends_too_many_uploads_a_minute_is_told_to_slow_down(balancer):
    statuses = [status(balancer, "PUT", UPLOAD, b"a\n1\n") for _ in range(PER_MINUTE + 5)]
    assert 429 in statuses and set(statuses) <= {204, 429}
    assert statuses.index(429) <= PER_MINUTE  # the first test's two count too
    assert status(balancer, "GET", "/_stcore/health") == 200  # the rest of the app: open
