"""Behind HAProxy, the replicas know each client's address (issue 49): the balancer
appends it to X-Forwarded-For (``option forwardfor``, deploy/haproxy.cfg) and a replica
believes the header from the balancer on its own machine only. Before, every client
reached the replicas from 127.0.0.1, "no address known", and the limit of classes per
address (as the passcode's refusal window per address) held nobody.

One replica behind the balancer, driven by the load generator's protocol client
(``loadtest/st_client.py``) from 127.0.0.2: another machine, as the balancer sees it.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from deploy.replicas import HAPROXY, Cluster
from loadtest.st_client import StreamlitSession

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(HAPROXY).exists(),
                       reason="needs Debian's haproxy (scripts/test.sh installs it)"),
]
CLIENT = "127.0.0.2"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(1, workdir=tmp_path_factory.mktemp("replicas"),
                 env={"KPCA_LECTURER_PASSCODE": ""}) as running:
        yield running


def lecturer(cluster, claimed: str) -> tuple[StreamlitSession, str]:
    """A lecturer on the client machine, whose requests claim to come from ``claimed``:
    the session and what Start a class said."""
    session = StreamlitSession(cluster.url, timeout=120, source_address=CLIENT,
                               headers={"X-Forwarded-For": claimed})
    run = session.open("class_tally")
    assert run.finished and not run.exceptions, run
    run = session.click("Start a class")
    assert run.finished and not run.exceptions, run
    return session, run.all_text()


def test_the_replica_counts_the_classes_of_the_clients_own_address(cluster):
    opened = [lecturer(cluster, claimed) for claimed in ("203.0.113.1", "203.0.113.2",
                                                         "203.0.113.3")]
    try:
        said = [text for _, text in opened]
        assert ["Class code" in text for text in said] == [True, True, False], said
        assert "This address already runs 2 classes" in said[2]
    finally:
        for session, text in opened:
            if "Class code" in text:
                session.click("End the class")
            session.close()
