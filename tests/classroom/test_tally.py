"""The class tally store (classroom/tally.py): codes, bounds, expiry, isolation, threads."""

from __future__ import annotations

import threading

import pytest

from classroom.tally import (
    ALPHABET,
    CODE_LENGTH,
    Limits,
    TallyRefused,
    TallyStore,
    UnknownClass,
    normalise_code,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def counts(store, code, key, question):
    return [(c.chosen, c.right) for c in store.tally(code, key)[question]][:3]


def test_codes_are_short_unambiguous_and_distinct():
    store = TallyStore(Limits(max_classes=200))
    codes = {store.open_class()[0] for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    assert not set(ALPHABET) & set("0O1IL5S2Z8B")
    assert normalise_code(" acd-e3f ") == "ACDE3F"


def test_answers_are_counted_once_per_student_and_may_change():
    store = TallyStore()
    code, key = store.open_class()
    store.answer(code, "s1", "q", 1, True)
    store.answer(code.lower(), "s2", "q", 0, False)  # typed in lower case: same class
    store.answer(code, "s1", "q", 2, False)  # s1 changes their mind
    assert counts(store, code, key, "q") == [(1, 0), (0, 0), (1, 0)]
    assert store.students(code, key) == 2


def test_a_wrong_code_or_key_is_refused_and_classes_stay_apart():
    store = TallyStore()
    a, key_a = store.open_class()
    b, key_b = store.open_class()
    store.answer(a, "s1", "q", 1, True)
    store.answer(b, "s1", "q", 0, True)  # the same browser in another class
    assert counts(store, a, key_a, "q") == [(0, 0), (1, 1), (0, 0)]
    assert counts(store, b, key_b, "q") == [(1, 1), (0, 0), (0, 0)]
    with pytest.raises(UnknownClass, match="No class with this code"):
        store.join("XXXXXX" if a != "XXXXXX" else "YYYYYY", "s2")
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.tally(a, key_b)  # class b's key does not read class a


def test_limits_are_refused_with_a_message():
    store = TallyStore(Limits(max_classes=2, max_students=2, max_questions=2, max_options=3))
    code, key = store.open_class()
    store.open_class()
    with pytest.raises(TallyRefused, match="2 classes"):
        store.open_class()
    store.answer(code, "s1", "q1", 0, True)
    store.answer(code, "s2", "q2", 0, True)
    with pytest.raises(TallyRefused, match="full"):
        store.answer(code, "s3", "q1", 0, True)
    with pytest.raises(TallyRefused, match="2 questions"):
        store.answer(code, "s1", "q3", 0, True)
    with pytest.raises(TallyRefused, match="3 options"):
        store.answer(code, "s1", "q1", 3, True)
    with pytest.raises(TallyRefused, match="characters"):
        store.answer(code, "s1", "q" * 41, 0, True)
    assert store.students(code, key) == 2
    assert sorted(store.tally(code, key)) == ["q1", "q2"]


def test_a_class_expires_after_its_idle_time_and_its_maximum_age():
    clock = Clock()
    store = TallyStore(Limits(idle_expiry_s=100, max_age_s=1000), clock=clock)
    code, key = store.open_class()
    for _ in range(9):  # an answer every 90 s keeps it alive...
        clock.now += 90
        store.answer(code, "s1", "q", 0, True)
    clock.now += 101  # ...101 s of silence ends it
    with pytest.raises(UnknownClass):
        store.tally(code, key)
    assert store.classes() == 0
    code, key = store.open_class()
    for _ in range(10):  # however busy, a class ends at its maximum age
        clock.now += 95
        store.join(code, "s1")
    clock.now += 95
    with pytest.raises(UnknownClass):
        store.tally(code, key)


def test_closing_frees_the_slot():
    store = TallyStore(Limits(max_classes=1))
    code, key = store.open_class()
    store.close_class(code, key)
    store.open_class()  # the freed slot
    with pytest.raises(UnknownClass):
        store.join(code, "s1")


def test_concurrent_students_are_each_counted_once():
    store = TallyStore()
    code, key = store.open_class()
    other, other_key = store.open_class()
    start = threading.Barrier(8)

    def student(i: int) -> None:
        start.wait()
        for option in (0, 1, 2, i % 3):  # each changes their answer thrice
            store.answer(code, f"s{i}", "q", option, option == 1)
            store.answer(other, f"s{i}", "r", 0, True)

    threads = [threading.Thread(target=student, args=(i,)) for i in range(8)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    final = [i % 3 for i in range(8)]
    assert counts(store, code, key, "q") == [
        (final.count(o), final.count(o) if o == 1 else 0) for o in range(3)]
    assert store.students(code, key) == 8
    assert list(store.tally(other, other_key)) == ["r"]


def test_an_operator_sets_the_limits_from_the_environment():
    limits = Limits.from_env({"KPCA_TALLY_MAX_CLASSES": "3", "KPCA_TALLY_MAX_STUDENTS": "x"})
    assert (limits.max_classes, limits.max_students) == (3, Limits().max_students)
