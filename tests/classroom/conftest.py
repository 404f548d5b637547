"""The class store's fixtures: every contract test runs against both stores, the
in-process one and Redis (a real ``redis-server`` on a free port, started once per test
session by ``deploy/redis_server.py``, each test in a namespace of its own)."""

from __future__ import annotations

import itertools
from pathlib import Path

import pytest

from classroom.tally import Limits, TallyStore
from deploy.redis_server import REDIS_SERVER, RedisServer

_namespaces = itertools.count()
DEFAULT = Limits()


@pytest.fixture(scope="session")
def redis_server(tmp_path_factory):
    if not Path(REDIS_SERVER).exists():
        pytest.skip("needs Debian's redis-server (scripts/test.sh installs it)")
    with RedisServer(tmp_path_factory.mktemp("redis")) as server:
        yield server


@pytest.fixture
def redis_client(redis_server):
    from classroom.tally_redis import connect

    client = connect(redis_server.url)
    yield client
    client.close()


@pytest.fixture(params=["memory", "redis"])
def make_store(request):
    """``make_store(limits=Limits(), clock=None)`` → a fresh store of the parameter's kind
    (``clock=None``: the store's own). For Redis, every store a test makes shares one
    namespace, each with a connection of its own: two of them are two replicas."""
    if request.param == "memory":
        def make(limits: Limits = DEFAULT, clock=None) -> TallyStore:
            return TallyStore(limits) if clock is None else TallyStore(limits, clock)

        make.kind = "memory"
        return make
    from classroom.tally_redis import RedisStore, connect

    server = request.getfixturevalue("redis_server")
    namespace = f"test{next(_namespaces)}"
    clients = []

    def make(limits: Limits = DEFAULT, clock=None) -> RedisStore:
        clients.append(connect(server.url))
        return (RedisStore(clients[-1], limits, namespace=namespace) if clock is None else
                RedisStore(clients[-1], limits, clock, namespace=namespace))

    make.kind, make.namespace = "redis", namespace
    request.addfinalizer(lambda: [client.close() for client in clients])
    return make
