"""A replica dies mid-class, nothing is lost (issue 49): two replicas behind HAProxy with
the class store in Redis, all started by ``deploy/replicas.py``'s own code.

A lecturer opens a class on *Class tally* and opens tour step 5 (the class's step); eight
phones join from the class's link, open the step and vote, spread over both replicas. Then
the replica that holds the lecturer's session (HAProxy's affinity cookie says which) is
killed with SIGKILL: every vote recorded before is still counted, the phones that were on it
reconnect through the other replica in their own seat (their link carries
``?class=CODE&seat=TOKEN``) with their vote, and still see the question and not the answer;
and the lecturer's browser, reconnected through the other replica with the class its cookie
keeps, gets the same class back (its token too opens it from another replica's store).

Driven by the load generator's protocol client (``loadtest/st_client.py``), each session a
browser tab of its own; the store read as any replica reads it.
"""

from __future__ import annotations

import re
from pathlib import Path
from urllib.parse import parse_qsl

import pytest

import datasets
from classroom import lecturer as lecturer_page
from classroom.questions import CATALOGUE, build
from classroom.tally import Limits
from classroom.tour import STEPS, tally_id
from deploy.redis_server import REDIS_SERVER
from deploy.replicas import HAPROXY, Cluster, starts_class_store
from loadtest.st_client import Disconnected, StreamlitSession

pytestmark = [
    pytest.mark.slow,
    pytest.mark.skipif(not (Path(HAPROXY).exists() and Path(REDIS_SERVER).exists()),
                       reason="needs Debian's haproxy and redis-server (scripts/test.sh "
                       "installs them)"),
]
COOKIE = "KPCA_REPLICA"
NUMBER = 5
TID = tally_id(NUMBER)
QUESTION = CATALOGUE[STEPS[NUMBER - 1].check][0]


def step_answer() -> tuple[list[str], list[str]]:
    """Step 5's options as a phone shows them, and what decides the answer: What to look
    for and why each option is right or wrong."""
    settings = STEPS[NUMBER - 1].settings()
    data = datasets.load(settings.dataset, **dict(settings.dataset_options))
    options = build(STEPS[NUMBER - 1].check, data.X, data.y, settings).options
    return [o.text for o in options], [STEPS[NUMBER - 1].look_for, *(o.why for o in options)]


def ok(run):
    assert run.finished and not run.exceptions and not run.error_boxes, run
    return run


@pytest.fixture(scope="module")
def cluster(tmp_path_factory):
    with Cluster(2, workdir=tmp_path_factory.mktemp("failover")) as running:
        yield running


def test_a_replica_dies_and_the_class_loses_nothing(cluster):
    from classroom.tally_redis import RedisStore, connect

    assert cluster.redis is not None  # two replicas: deploy/replicas.py started Redis
    redis = connect(cluster.redis.url)
    store = RedisStore(redis, Limits())  # as any replica reads it
    options, secret = step_answer()

    lecturer = StreamlitSession(cluster.url, timeout=120)
    ok(lecturer.open("class_tally"))
    run = ok(lecturer.click("Start a class"))
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", run.all_text()).group(1).replace(" ", "")
    ok(lecturer.navigate("tour", f"step={NUMBER}"))
    ok(lecturer.click("Open this view"))  # the class's step: the phones follow
    assert store.live(code).step == NUMBER
    lecturer_on = lecturer.http.cookies[COOKIE]

    phones, chosen = [], []
    for i in range(8):
        phone = StreamlitSession(cluster.url, timeout=120)
        ok(phone.open("tour", f"class={code}"))  # the QR code's link
        assert QUESTION in phone.widgets  # the phone followed the lecturer to step 5's view
        option = options[i % len(options)]
        run = ok(phone.set_widget(QUESTION, option))
        assert f"Counted anonymously in class {code}" in run.all_text()
        assert dict(parse_qsl(phone.query_string))["class"] == code
        phones.append(phone)
        chosen.append(option)
    on = [phone.http.cookies[COOKIE] for phone in phones]
    assert sorted(set(on)) == ["app1", "app2"]  # the class spans both replicas
    seats = [dict(parse_qsl(phone.query_string))["seat"] for phone in phones]
    # The lecturer's key and token, as Redis holds them (the page never shows them).
    key, lecturer_token = redis.hmget(f"kpca:class:{{{code}}}", "key", "lecturer")

    def counted() -> list[int]:
        return [c.chosen for c in store.tally(code, key)[TID].rounds[0][: len(options)]]

    before = counted()
    assert before == [chosen.count(text) for text in options] and sum(before) == 8

    victim = int(lecturer_on.removeprefix("app")) - 1
    cluster.kill(victim)
    assert counted() == before  # every vote recorded before the kill

    survivor = "app2" if lecturer_on == "app1" else "app1"
    for phone, was_on, seat, option in zip(phones, on, seats, chosen, strict=True):
        if was_on == lecturer_on:
            with pytest.raises(Disconnected):
                phone.idle(10)  # the balancer closes the dead replica's websockets
            run = ok(phone.reconnect())
        else:
            run = ok(phone.rerun())
        assert phone.http.cookies[COOKIE] == survivor or was_on == survivor
        assert dict(parse_qsl(phone.query_string))["seat"] == seat  # the same seat
        assert f"**Answer recorded:** {option}." in run.all_text(), (was_on, run.all_text())
        leaked = [text for text in secret if text in run.all_text()]
        assert leaked == [], leaked  # the question, not the answer
    assert counted() == before and store.students(code, key) == 8  # nobody counted twice

    # The lecturer's browser, back through the survivor: the class it keeps in its cookie
    # (the value the page's script writes, classroom/lecturer.py) comes back to the new
    # session there, with nothing secret on the projected screen.
    lecturer.http.cookies.set(lecturer_page.COOKIE, f"{code}.{key}")
    with pytest.raises(Disconnected):
        lecturer.idle(10)
    ok(lecturer.reconnect())
    run = ok(lecturer.navigate("class_tally"))
    assert lecturer.http.cookies[COOKIE] == survivor
    assert "Start a class" not in run.all_text()
    shown = re.search(r"Class code\n# ((?:\w ){5}\w)", run.all_text())
    assert shown and shown.group(1).replace(" ", "") == code
    assert key not in run.all_text() and key not in lecturer.query_string
    # ... and its token, from another replica's store, opens that same class.
    assert RedisStore(connect(cluster.redis.url), Limits()).open_class(lecturer_token) == (
        code, key)
    assert store.live(code).step == NUMBER
    for phone in phones:
        phone.close()
    lecturer.close()


def test_a_run_starts_its_own_redis_for_two_or_more_replicas_unless_given_one():
    assert starts_class_store(2, {}) and starts_class_store(4, {"KPCA_CLASS_STORE": ""})
    assert not starts_class_store(1, {})  # one replica keeps its classes in its memory
    assert not starts_class_store(2, {"KPCA_CLASS_STORE": "redis://10.0.0.5:6379/0"})
