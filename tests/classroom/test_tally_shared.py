"""The class store shared by replicas (issue 49): many threads and store objects (each a
replica's, with its connection) on the same classes, in both stores (``make_store``,
tests/classroom/conftest.py); Redis's own expiry of a class's keys; the passcode's
refusal window seen by every replica; a Redis that is down or slow said as a sentence, at
the store and on the page; the store chosen by ``KPCA_CLASS_STORE``."""

from __future__ import annotations

import multiprocessing
import threading
import time

import pytest

from classroom.store import ENV, store_from_env, store_url
from classroom.tally import Limits, StoreUnavailable, TallyRefused, TallyStore, new_token
from tests.support.apptest import open_app, sent_text

ROOM = Limits(join_burst=1000, max_students=400)


def replicas(make_store, count: int, limits: Limits = ROOM, clock=None) -> list:
    """``count`` replicas' stores: one process has one store (in memory); with Redis each
    replica has a store object of its own on the same classes."""
    if make_store.kind == "memory":
        return [make_store(limits, clock)] * count
    return [make_store(limits, clock) for _ in range(count)]


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def test_votes_from_many_threads_and_replicas_are_each_counted_once(make_store):
    stores = replicas(make_store, 8)
    code, key = stores[0].open_class(new_token())
    start = threading.Barrier(8)
    failures = []

    def replica(r: int) -> None:  # 50 students on this replica, each switching thrice
        start.wait()
        try:
            for change in range(4):
                for s in range(50):
                    option = (r + s + change) % 3
                    stores[r].answer(code, f"r{r}s{s}", "q", option, option == 1)
        except Exception as error:  # noqa: BLE001 - reported below
            failures.append(error)

    threads = [threading.Thread(target=replica, args=(r,)) for r in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert not failures
    final = [(r + s + 3) % 3 for r in range(8) for s in range(50)]
    tally = stores[3].tally(code, key)["q"].rounds[0]
    assert [(c.chosen, c.right) for c in tally[:3]] == [
        (final.count(o), final.count(o) if o == 1 else 0) for o in range(3)]
    assert stores[5].students(code, key) == 400
    assert stores[6].vote(code, "r7s49", "q") == (7 + 49 + 3) % 3


def _replica_process(url: str, namespace: str, code: str, replica: int) -> None:
    """A replica's process: its own store on the class, 50 students switching twice."""
    from classroom.tally_redis import RedisStore, connect

    store = RedisStore(connect(url), ROOM, namespace=namespace)
    for change in range(3):
        for s in range(50):
            option = (replica + s + change) % 3
            store.answer(code, f"p{replica}s{s}", "q", option, option == 1)


def test_votes_from_replica_processes_are_each_counted_once(redis_server):
    from classroom.tally_redis import RedisStore, connect

    store = RedisStore(connect(redis_server.url), ROOM, namespace="processes")
    code, key = store.open_class(new_token())
    fork = multiprocessing.get_context("fork")
    processes = [fork.Process(target=_replica_process,
                              args=(redis_server.url, "processes", code, replica))
                 for replica in range(4)]
    for process in processes:
        process.start()
    for process in processes:
        process.join(timeout=120)
    assert [process.exitcode for process in processes] == [0] * 4
    final = [(r + s + 2) % 3 for r in range(4) for s in range(50)]
    assert [(c.chosen, c.right) for c in store.tally(code, key)["q"].rounds[0][:3]] == [
        (final.count(o), final.count(o) if o == 1 else 0) for o in range(3)]
    assert store.students(code, key) == 200


def test_two_replicas_see_each_others_classes_steps_and_votes(make_store):
    one, two = replicas(make_store, 2)
    lecturer = new_token()
    code, key = one.open_class(lecturer)
    assert two.open_class(lecturer) == (code, key)  # the lecturer's new session elsewhere
    two.set_step(code, key, 4)
    assert one.live(code).step == 4
    one.answer(code, "s1", "tour4", 2, True)
    two.answer(code, "s2", "tour4", 1, False)
    assert [c.chosen for c in two.tally(code, key)["tour4"].rounds[0][:3]] == [0, 1, 1]
    one.show_view(code, key, "tour4")
    assert not two.live(code, "tour4").voting_open and two.live(code, "tour4").shown
    two.open_second_round(code, key, "tour4")
    assert one.live(code, "tour4").round == 2
    one.reveal(code, key, "tour4")
    assert two.summary(code, key)["tour4"].revealed
    two.close_class(code, key)
    assert one.classes() == 0


def test_a_class_ends_for_every_replica_at_its_lecturers_grace(make_store):
    clock = Clock()
    one, two = replicas(make_store, 2, Limits(lecturer_grace_s=120), clock)
    code, key = one.open_class(new_token())
    two.join(code, "s1")
    clock.now += 100
    two.status(code, key)  # the lecturer's page, on the other replica: alive
    clock.now += 100
    one.answer(code, "s1", "q", 0, True)
    clock.now += 21  # 121 s since the lecturer was last seen, on either replica
    for store in (one, two):
        with pytest.raises(TallyRefused, match="No class with this code"):
            store.live(code)


def test_the_passcode_window_holds_on_every_replica(make_store):
    clock = Clock()
    limits = Limits(passcode_free_tries=3, passcode_first_wait_s=2, passcode_max_wait_s=300)
    one, two = replicas(make_store, 2, limits, clock)
    right = "four long random words"
    for store in (one, two, one):  # the guesses spread over the replicas
        with pytest.raises(TallyRefused, match="not this server's lecturer passcode"):
            store.check_passcode("guess", right, session="tab", address="203.0.113.7")
    for store in (one, two):  # 3 wrong: a 2 s window, on both, for the address
        with pytest.raises(TallyRefused, match="try again in 2 s"):
            store.check_passcode(right, right, session="another tab", address="203.0.113.7")
    clock.now += 2
    two.check_passcode(right, right, session="tab", address="203.0.113.7")


def test_redis_forgets_an_ended_class_by_itself(redis_client):
    from classroom.tally_redis import RedisStore

    store = RedisStore(redis_client, Limits(lecturer_grace_s=1), namespace="forgets")
    code, key = store.open_class(new_token())  # on the wall clock
    store.answer(code, "s1", "q", 0, True)
    keys = redis_client.keys("forgets:class:*")
    assert len(keys) == 4  # the class, its students, its questions, its one question
    assert all(0 < redis_client.pttl(k) <= 2000 for k in keys)
    time.sleep(2.5)  # the grace, and Redis's second after it
    assert redis_client.keys("forgets:class:*") == []
    assert store.classes() == 0


def test_a_wrong_passcode_record_is_forgotten_by_redis_an_hour_after_its_window(redis_client):
    from classroom.tally_redis import RedisStore

    store = RedisStore(redis_client, Limits(passcode_free_tries=0, passcode_first_wait_s=2),
                       namespace="records")
    with pytest.raises(TallyRefused):
        store.check_passcode("guess", "right", session="tab", address="203.0.113.7")
    records = redis_client.keys("records:passcode:*")
    assert len(records) == 2
    # The window after one wrong guess beyond none free: 4 s; then an hour.
    assert all(3600_000 < redis_client.pttl(k) <= 3604_000 for k in records)


def test_a_student_sent_value_is_data_to_redis_never_code(make_store):
    store = make_store(ROOM)
    code, key = store.open_class(new_token())
    strange = "') redis.call('FLUSHALL') --"
    store.answer(code, strange, strange[:40], 1, True)
    store.answer(code, "s|1", "q:{x}*", 0, True)
    assert store.vote(code, strange, strange[:40]) == 1
    assert list(store.tally(code, key)) == [strange[:40], "q:{x}*"]
    assert store.students(code, key) == 2


def test_a_redis_that_is_down_or_slow_is_said_not_traced(redis_server, redis_client):
    from classroom.tally_redis import TIMEOUT_S, RedisStore, connect

    down = RedisStore(connect(f"redis://127.0.0.1:{_closed_port()}/0"), Limits())
    with pytest.raises(StoreUnavailable, match="The class's store is not answering"):
        down.live("ACDEFG")
    with pytest.raises(StoreUnavailable):
        down.check_passcode("x", "y", session="tab")
    slow = RedisStore(connect(redis_server.url), Limits(), namespace="slow")
    code, _key = slow.open_class(new_token())
    # Every client waits: longer than the store does (two tries of TIMEOUT_S).
    pause_s = 2 * TIMEOUT_S + 0.5
    redis_client.client_pause(int(pause_s * 1000))
    try:
        with pytest.raises(StoreUnavailable):
            slow.answer(code, "s1", "q", 0, True)
    finally:
        time.sleep(pause_s + 0.1)
    assert slow.live(code).step is None  # answering again


def _closed_port() -> int:
    from deploy.redis_server import _free_port

    return _free_port()  # free: nothing listens there


def test_a_page_says_the_store_is_not_answering(monkeypatch, redis_server):
    # A phone in a class whose store stops answering: the page says so, in a sentence, and
    # shows no traceback (and nothing the class's state would decide).
    from classroom import join
    from classroom.tally_redis import RedisStore, connect

    store = RedisStore(connect(redis_server.url), Limits(), namespace="page")
    code, _key = store.open_class(new_token())
    monkeypatch.setattr(join, "STORE", store)
    at = open_app("tour", {"class": code})
    assert not at.exception
    monkeypatch.setattr(join, "STORE", RedisStore(
        connect(f"redis://127.0.0.1:{_closed_port()}/0"), Limits(), namespace="page"))
    at.run()
    assert not at.exception
    assert [e.value for e in at.error] == [
        "The class's store is not answering, so this page cannot reach the class right now; "
        "try again in a moment."]


def test_the_store_is_chosen_by_its_variable():
    assert store_url({}) is None and store_url({ENV: "memory"}) is None
    assert store_url({ENV: "redis://10.0.0.5:6379/2"}) == "redis://10.0.0.5:6379/2"
    with pytest.raises(ValueError, match="KPCA_CLASS_STORE='mysql://x' is not a class store"):
        store_url({ENV: "mysql://x"})
    assert isinstance(store_from_env({}), TallyStore)
    chosen = store_from_env({ENV: "redis://127.0.0.1:1/0", "KPCA_TALLY_MAX_CLASSES": "3"})
    assert type(chosen).__name__ == "RedisStore" and chosen.limits.max_classes == 3


def test_a_seated_phone_reloaded_while_the_store_is_down_stays_in_its_class_and_sealed(
        monkeypatch, redis_server):
    # The phone reloads its class link (with its seat) while Redis does not answer: it is
    # still in the class (so nothing of the step's answer is sent to it), and when the
    # store answers again its vote counts in its own seat.
    from classroom import join
    from classroom.tally_redis import RedisStore, connect
    from classroom.tour import STEPS, tally_id

    store = RedisStore(connect(redis_server.url), Limits(), namespace="reload")
    code, key = store.open_class(new_token())
    seat = new_token()
    store.join(code, seat)
    monkeypatch.setattr(join, "STORE", RedisStore(
        connect(f"redis://127.0.0.1:{_closed_port()}/0"), Limits(), namespace="reload"))
    at = open_app("tour", {"class": code, "seat": seat, "step": 5})
    assert not at.exception
    assert at.session_state[join._CODE] == code
    assert STEPS[4].look_for not in sent_text(at)
    assert "The class's store is not answering" in sent_text(at)
    monkeypatch.setattr(join, "STORE", store)
    at.run()
    assert not at.exception
    assert STEPS[4].look_for not in sent_text(at)
    assert any("once your lecturer reveals this step" in c.value for c in at.caption)
    store.answer(code, seat, tally_id(5), 1, True)
    assert store.students(code, key) == 1  # the same seat, not a second student
