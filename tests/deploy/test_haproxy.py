"""Two replicas behind HAProxy (deploy/): affinity, uploads and failover.

Starts two ``streamlit run`` replicas and the balancer with ``deploy/replicas.py`` and
drives them with the load generator's protocol client (``loadtest/st_client.py``), as
browsers would: every request carries the cookies the balancer and the app set.
The tests run in file order; the last one kills a replica.
"""

from __future__ import annotations

import os
import urllib.request
from pathlib import Path
from urllib.parse import parse_qsl

import pytest
import requests

from deploy.replicas import HAPROXY, Cluster
from loadtest.st_client import Disconnected, StreamlitSession
from words.text import inert

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not Path(HAPROXY).exists(),
                       reason="needs Debian's haproxy (scripts/test.sh installs it)"),
]
GAMMA, COOKIE = "γ (log scale)", "KPCA_REPLICA"
LINK = "dataset=moons&n=200&kernel=rbf&gamma=2&components=2"


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(2, workdir=tmp_path_factory.mktemp("replicas")) as running:
        yield running


def _open(cluster, query: str = LINK) -> StreamlitSession:
    session = StreamlitSession(cluster.url, timeout=120)
    run = session.open("explorer", query)
    assert run.finished and not run.exceptions and not run.error_boxes, run
    return session


def _gamma(run) -> str:
    return dict(parse_qsl(run.query_string))["gamma"]


def test_each_replica_ran_the_apps_script_before_its_first_student(cluster):
    for replica in cluster.replicas:
        assert replica.warm_s is not None and replica.warm_s > 0
        with urllib.request.urlopen(f"{replica.url}/_stcore/script-health-check",
                                    timeout=60) as reply:  # the app's script runs cleanly
            assert reply.status == 200 and reply.read() == b"ok"


def test_students_spread_over_the_replicas_and_each_stays_on_its_own(cluster):
    sessions = [_open(cluster) for _ in range(4)]
    replicas = [s.http.cookies[COOKIE] for s in sessions]
    # leastconn: each new browser goes to the replica holding fewer websockets.
    assert sorted(replicas) == ["app1", "app1", "app2", "app2"]
    assert {row["name"]: int(row["current"]) for row in cluster.servers()} == {
        "app1": 2, "app2": 2}
    for session, replica in zip(sessions, replicas, strict=True):
        first = session.session_id
        for gamma in ("3", "5", "10"):
            run = session.set_widget(GAMMA, [gamma])
            # Same session (so same replica) on every rerun, with this student's γ.
            assert run.finished and run.session_id == first and _gamma(run) == gamma
        assert session.http.cookies[COOKIE] == replica
        session.close()


def test_an_upload_reaches_its_sessions_replica_and_no_one_else_sees_it(cluster):
    uploader, neighbour = _open(cluster), _open(cluster)
    assert uploader.http.cookies[COOKIE] != neighbour.http.cookies[COOKIE]
    uploader.set_widget("Dataset", "Your own CSV")
    rows = "\n".join(f"{i % 7}.5,{i % 5}.25,{i % 3}" for i in range(90))
    run = uploader.upload("CSV file", "only-mine-7f3a.csv", f"a,b,label\n{rows}".encode())
    assert run.finished and not run.exceptions and not run.error_boxes
    assert f"On screen: **{inert('only-mine-7f3a.csv')}**" in run.all_text()  # shown as typed
    assert "**90 points · 2 input feature(s) · 3 classes**" in run.all_text()
    # The session, and so the file, exists on one replica only: the same upload sent
    # straight to the other replica is refused, which is why the cookie must pin it.
    other = next(r for r in cluster.replicas
                 if f"app{cluster.replicas.index(r) + 1}" != uploader.http.cookies[COOKIE])
    refused = requests.put(
        f"{other.url}/_stcore/upload_file/{uploader.session_id}/x",
        files={"file": ("x.csv", b"a\n1\n")},
        headers={"X-Xsrftoken": uploader.http.cookies["_streamlit_xsrf"]},
        cookies={"_streamlit_xsrf": uploader.http.cookies["_streamlit_xsrf"]}, timeout=30)
    assert refused.status_code == 400 and "sticky sessions" in refused.text
    seen = neighbour.set_widget(GAMMA, ["3"])
    assert seen.finished and "only-mine-7f3a" not in seen.all_text()
    assert dict(parse_qsl(seen.query_string))["dataset"] == "moons"
    uploader.close(), neighbour.close()


def test_when_a_replica_dies_its_students_get_their_view_back_from_the_other(cluster):
    on = {}
    while len(on) < 2:
        session = _open(cluster)
        on.setdefault(session.http.cookies[COOKIE], session)
    victim, bystander = on["app1"], on["app2"]
    assert _gamma(victim.set_widget(GAMMA, ["10"])) == "10"
    bystander_id = bystander.session_id

    cluster.kill(0)
    with pytest.raises(Disconnected):
        victim.idle(10)  # the balancer closes the websocket of the dead replica
    run = victim.reconnect()
    # A new session on the surviving replica, rebuilt from the link: the same view.
    assert run.finished and not run.exceptions and not run.error_boxes
    assert victim.http.cookies[COOKIE] == "app2" and run.page == "explorer"
    assert _gamma(run) == "10" and run.widgets[GAMMA].value == ["10"]
    assert "RBF (Gaussian), γ = 10" in run.all_text()
    # The student on the other replica noticed nothing.
    run = bystander.set_widget(GAMMA, ["3"])
    assert run.finished and run.session_id == bystander_id and _gamma(run) == "3"


def test_a_class_gets_one_replica_per_core_and_at_least_two():
    from deploy.replicas import default_replicas

    assert default_replicas() == max(2, len(os.sched_getaffinity(0)))
