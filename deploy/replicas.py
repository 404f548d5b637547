"""Run N identical replicas of KPCA Lab behind HAProxy, on this machine.

    python deploy/replicas.py                          # one replica per core, on :8500
    python deploy/replicas.py --replicas 3 --port 8080 # until Ctrl-C

The way to serve a class on one machine: one Streamlit process uses about one core (the
GIL), so a class gets one replica per core by default (at least 2). The replicas share
the machine's cache on disk (``server/shared_cache.py``: ``--shared-cache``, by default
``$KPCA_SHARED_CACHE`` or ``~/.cache/kpca-lab/shared``), which each fills in the
background with every built-in dataset × kernel × γ of the grid, splitting the work, so a
lab's first views are reads in whichever replica a student lands.

The replicas share the classes too: with two or more, a Debian ``redis-server`` starts on a
free loopback port (nothing saved to disk; ``deploy/redis_server.py``) and every replica
gets ``KPCA_CLASS_STORE`` pointing at it (``classroom/store.py``), so any replica serves any
student of any class, and a replica that dies loses no vote. A ``KPCA_CLASS_STORE`` already
in the environment (your own Redis) is used instead; one replica keeps its classes in its
own memory.

Each replica is ``streamlit run app.py`` on its own loopback port (8501, 8502, ... by
default), and runs the app's script once before it is counted as started (Streamlit's
script health check, below: the students who arrive first do not pay for its imports);
HAProxy (``/usr/sbin/haproxy``, Debian's package) listens on ``--port`` with
``deploy/haproxy.cfg``, its server list rewritten for N replicas. Everything the run
writes (the generated config, the logs, HAProxy's stats socket, Redis's directory) goes
to a fresh directory that is printed at start. Ctrl-C (or SIGTERM) stops the balancer, the
replicas and Redis.

The same code starts the servers for the load generator
(``loadtest/load_students.py --replicas N``) and the tests (``tests/deploy``).
"""

from __future__ import annotations

import argparse
import csv
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # the app's modules, when run as a script

from deploy.redis_server import REDIS_SERVER, RedisServer, stop_process  # noqa: E402

CONFIG = Path(__file__).with_name("haproxy.cfg")
HAPROXY = shutil.which("haproxy") or "/usr/sbin/haproxy"
REPLICAS_MARK = "# -- replicas --"
START_TIMEOUT = 120.0
CLASS_STORE = "KPCA_CLASS_STORE"  # classroom/store.py reads it in each replica


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_healthy(url: str, process: subprocess.Popen, timeout: float = START_TIMEOUT,
                 log: Path | None = None) -> float:
    """Poll ``url/_stcore/health`` until it answers 200; seconds waited."""
    started = time.monotonic()
    while time.monotonic() - started < timeout:
        if process.poll() is not None:
            raise RuntimeError(f"{process.args[0]} exited early (code {process.returncode});"
                               f" see {log}")
        try:
            with urllib.request.urlopen(f"{url}/_stcore/health", timeout=2) as reply:
                if reply.status == 200:
                    return time.monotonic() - started
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"{url} not healthy after {timeout:.0f} s; see {log}")


def warm(url: str, timeout: float = START_TIMEOUT, log: Path | None = None) -> float:
    """Run the app's script once in the replica, with no student waiting on it: Streamlit's
    script health check (``/_stcore/script-health-check``, on with
    ``server.scriptHealthCheckEnabled``) runs it in a session of its own. The first run of
    a fresh process imports every module of the app (``server/warmup.py``), seconds of a
    core that the first students to arrive would otherwise wait for, each in turn. Seconds
    taken; raises when the script fails or times out (the replica would fail its students
    too)."""
    started = time.monotonic()
    try:
        with urllib.request.urlopen(f"{url}/_stcore/script-health-check",
                                    timeout=timeout) as reply:
            reply.read()
    except OSError as error:  # HTTPError (503: the script raised, or timed out) included
        raise RuntimeError(f"{url}: the app's script did not run ({error}); see {log}") from error
    return time.monotonic() - started


def starts_class_store(replicas: int, environ: dict[str, str]) -> bool:
    """Whether a run of ``replicas`` starts a Redis of its own for their classes: two or
    more replicas, and no ``KPCA_CLASS_STORE`` in their environment (an operator's own)."""
    return replicas >= 2 and not environ.get(CLASS_STORE)


class Replica:
    """``streamlit run app.py`` on 127.0.0.1:``port``, logging to ``log``; ``cpus`` (e.g.
    "0"): pinned to those cores with ``taskset -c`` (a one-core host, as Community Cloud
    gives a container)."""

    def __init__(self, port: int, log: Path, env: dict[str, str] | None = None,
                 wait: bool = True, options: dict[str, str] | None = None,
                 cpus: str | None = None) -> None:
        self.port = port
        self.url = f"http://127.0.0.1:{port}"
        self.log = log
        command = [] if cpus is None else ["taskset", "-c", cpus]
        command += [
            sys.executable, "-m", "streamlit", "run", "app.py",
            "--server.port", str(port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
            "--server.scriptHealthCheckEnabled", "true",  # for warm()
        ]  # fmt: skip
        for name, value in (options or {}).items():  # e.g. {"runner.postScriptGC": "false"}
            command += [f"--{name}", value]
        self._log_file = open(log, "w")  # noqa: SIM115 - closed in stop()
        self.started = time.monotonic()
        self.process = subprocess.Popen(command, cwd=ROOT, stdout=self._log_file,
                                        stderr=subprocess.STDOUT,
                                        env={**os.environ, **(env or {})})
        self.pid = self.process.pid
        self.warm_s: float | None = None
        if wait:
            self.wait()

    def wait(self) -> float:
        """Seconds until the replica answers and has run the app's script once."""
        healthy = wait_healthy(self.url, self.process, log=self.log)
        self.warm_s = warm(self.url, log=self.log)
        return healthy + self.warm_s

    def alive(self) -> bool:
        return self.process.poll() is None

    def kill(self) -> None:
        """SIGKILL: the replica dies as a crashed or OOM-killed container does."""
        self.process.kill()
        self.process.wait(timeout=10)

    def stop(self) -> None:
        stop_process(self.process)
        self._log_file.close()


def haproxy_config(ports: list[int]) -> str:
    """``deploy/haproxy.cfg`` with its server lines replaced by one per port."""
    base = CONFIG.read_text()
    head, mark, _ = base.partition(REPLICAS_MARK)
    if not mark:
        raise ValueError(f"{CONFIG} lacks the line {REPLICAS_MARK!r}")
    servers = "".join(f"    server app{i} 127.0.0.1:{port} cookie app{i}\n"
                      for i, port in enumerate(ports, start=1))
    return f"{head}{mark}\n{servers}"


class Cluster:
    """N replicas and HAProxy in front of them; a context manager that stops them all.

    Parameters
    ----------
    replicas : int
        How many ``streamlit run`` processes.
    port : int | None
        The balancer's port (a free one when None); replicas take free ports.
    workdir : Path | None
        Where the config, logs and stats socket go (a fresh temporary directory).
    env : dict | None
        Extra environment for the replicas (e.g. ``KPCA_USPS_PATH``).
    options : dict | None
        Extra ``streamlit run`` options, e.g. ``{"runner.postScriptGC": "false"}``.

    With two or more replicas and no ``KPCA_CLASS_STORE`` in ``env`` or the environment,
    a ``redis-server`` of its own (:attr:`redis`) holds the classes every replica shares.
    """

    def __init__(self, replicas: int = 2, port: int | None = None, *,
                 replica_ports: list[int] | None = None, workdir: Path | None = None,
                 env: dict[str, str] | None = None,
                 options: dict[str, str] | None = None) -> None:
        self.workdir = Path(workdir or tempfile.mkdtemp(prefix="kpca-replicas-"))
        self.workdir.mkdir(parents=True, exist_ok=True)
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.socket_path = self.workdir / "haproxy.sock"
        ports = replica_ports or [free_port() for _ in range(replicas)]
        self.replicas: list[Replica] = []
        self.haproxy: subprocess.Popen | None = None
        self.redis: RedisServer | None = None
        env = dict(env or {})
        try:
            if starts_class_store(len(ports), {**os.environ, **env}):
                if not Path(REDIS_SERVER).exists():
                    raise RuntimeError(f"{len(ports)} replicas share their classes in Redis: "
                                       f"install Debian's redis-server, or set {CLASS_STORE}"
                                       " to a Redis of your own (redis://host:port/db)")
                self.redis = RedisServer(self.workdir / "redis")
                env[CLASS_STORE] = self.redis.url
            # Start them all, then wait: the replicas import the app side by side.
            self.replicas = [Replica(p, self.workdir / f"replica{i}.log", env, wait=False,
                                     options=options)
                             for i, p in enumerate(ports, start=1)]
            for replica in self.replicas:
                replica.wait()
            self._start_haproxy(ports)
        except BaseException:
            self.stop()
            raise

    def _start_haproxy(self, ports: list[int]) -> None:
        config = self.workdir / "haproxy.cfg"
        config.write_text(haproxy_config(ports))
        env = {**os.environ, "KPCA_BIND": f"127.0.0.1:{self.port}",
               "KPCA_HAPROXY_SOCKET": str(self.socket_path), "KPCA_HAPROXY_LOG": "stdout"}
        self.haproxy_log = self.workdir / "haproxy.log"
        self._haproxy_log_file = open(self.haproxy_log, "w")  # noqa: SIM115 - closed in stop()
        # -db: stay in the foreground (the process is ours to stop).
        self.haproxy = subprocess.Popen([HAPROXY, "-db", "-f", str(config)], env=env,
                                        stdout=self._haproxy_log_file,
                                        stderr=subprocess.STDOUT)
        wait_healthy(self.url, self.haproxy, log=self.haproxy_log)
        deadline = time.monotonic() + 30
        while not all(s["status"] == "UP" for s in self.servers()):
            if time.monotonic() > deadline:
                raise RuntimeError(f"replicas not UP in HAProxy: {self.servers()}")
            time.sleep(0.3)

    def servers(self) -> list[dict[str, str]]:
        """HAProxy's view of each replica (``show stat``): name, status, sessions."""
        with socket.socket(socket.AF_UNIX) as s:
            s.connect(str(self.socket_path))
            s.sendall(b"show stat\n")
            chunks = []
            while chunk := s.recv(65536):
                chunks.append(chunk)
        lines = b"".join(chunks).decode().lstrip("# ").splitlines()
        rows = csv.DictReader(line for line in lines if line)
        return [{"name": r["svname"], "status": r["status"], "current": r["scur"],
                 "total": r["stot"], "cookie": r.get("cookie", "")}
                for r in rows if r["pxname"] == "streamlit" and r["svname"] != "BACKEND"]

    def kill(self, index: int) -> Replica:
        """SIGKILL replica ``index`` (0-based), as a crash would."""
        replica = self.replicas[index]
        replica.kill()
        return replica

    def stop(self) -> None:
        if self.haproxy is not None and self.haproxy.poll() is None:
            self.haproxy.terminate()
            try:
                self.haproxy.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.haproxy.kill()
            self._haproxy_log_file.close()
        for replica in self.replicas:
            replica.stop()
        if self.redis is not None:
            self.redis.stop()

    def __enter__(self) -> Cluster:
        return self

    def __exit__(self, *exc) -> None:
        self.stop()


def default_replicas() -> int:
    """One per core the process may use, at least 2 (a dead replica has a twin)."""
    return max(2, len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
               else os.cpu_count() or 2)


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--replicas", type=int, default=default_replicas(),
                        help="default: one per core, at least 2")
    parser.add_argument("--shared-cache", metavar="DIR",
                        help="the replicas' shared cache on disk (default: "
                        "$KPCA_SHARED_CACHE or ~/.cache/kpca-lab/shared; off: none)")
    parser.add_argument("--port", type=int, default=8500, help="the balancer's port")
    parser.add_argument("--first-port", type=int, default=8501,
                        help="replica i listens on first-port + i - 1")
    args = parser.parse_args(argv)
    ports = [args.first_port + i for i in range(args.replicas)]
    from server import shared_cache

    try:  # a KPCA_CLASS_STORE the replicas could not use: said now, before they start
        from classroom.store import store_url

        store_url()
    except ValueError as bad:
        parser.error(str(bad))

    shared = args.shared_cache or str(shared_cache.directory() or "off")
    # A class's machine: the replicas fill the shared cache in the background (unless
    # the environment says otherwise).
    env = {shared_cache.ENV: shared,
           shared_cache.FILL_ENV: os.environ.get(shared_cache.FILL_ENV, "1")}
    with Cluster(args.replicas, args.port, replica_ports=ports, env=env) as cluster:
        print(f"KPCA Lab on {cluster.url} ({args.replicas} replicas: "
              + ", ".join(f"{r.url} pid {r.pid}" for r in cluster.replicas)
              + f"); shared cache {shared}; classes in "
              + (cluster.redis.url if cluster.redis else
                 os.environ.get(CLASS_STORE) or "each replica's memory")
              + f"; logs and config in {cluster.workdir}. "
              "Ctrl-C stops.", flush=True)
        signal.signal(signal.SIGTERM, lambda *_: sys.exit(0))
        try:
            while cluster.haproxy.poll() is None:
                time.sleep(1)
        except KeyboardInterrupt:
            pass


if __name__ == "__main__":
    main()
