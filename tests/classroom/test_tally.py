"""The class tally store (classroom/tally.py): codes, bounds, expiry, isolation, threads, and
its doors (issue 34): one class per lecturer, classes that end with their lecturer, a
passcode, closing joining, removing late joiners, joins let in at a bounded rate; nobody
locks a lecturer out (issue 49): a full server ends its oldest unjoined class, one address
holds two classes without the passcode, wrong passcodes open a growing refusal window;
rounds close (answers final) when the view is shown; what the room learned, per question."""

from __future__ import annotations

import threading

import pytest

from classroom.tally import (
    ALPHABET,
    CODE_LENGTH,
    Limits,
    Live,
    TallyRefused,
    UnknownClass,
    VoteClosed,
    new_token,
    normalise_code,
    passcode_matches,
)


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


def counts(store, code, key, question, round_=1):
    return [(c.chosen, c.right) for c in store.tally(code, key)[question].rounds[round_ - 1]][:3]


def open_class(store):
    """A class opened by a lecturer of its own (a new lecturer session)."""
    return store.open_class(new_token())


def test_codes_are_short_unambiguous_and_distinct(make_store):
    store = make_store(Limits(max_classes=200))
    codes = {open_class(store)[0] for _ in range(200)}
    assert len(codes) == 200
    assert all(len(c) == CODE_LENGTH and set(c) <= set(ALPHABET) for c in codes)
    assert not set(ALPHABET) & set("0O1IL5S2Z8B")
    assert normalise_code(" acd-e3f ") == "ACDE3F"


def test_answers_are_counted_once_per_student_and_may_change(make_store):
    store = make_store()
    code, key = open_class(store)
    store.answer(code, "s1", "q", 1, True)
    store.answer(code.lower(), "s2", "q", 0, False)  # typed in lower case: same class
    store.answer(code, "s1", "q", 2, False)  # s1 changes their mind
    assert counts(store, code, key, "q") == [(1, 0), (0, 0), (1, 0)]
    assert store.students(code, key) == 2


def test_a_wrong_code_or_key_is_refused_and_classes_stay_apart(make_store):
    store = make_store()
    a, key_a = open_class(store)
    b, key_b = open_class(store)
    store.answer(a, "s1", "q", 1, True)
    store.answer(b, "s1", "q", 0, True)  # the same browser in another class
    assert counts(store, a, key_a, "q") == [(0, 0), (1, 1), (0, 0)]
    assert counts(store, b, key_b, "q") == [(1, 1), (0, 0), (0, 0)]
    with pytest.raises(UnknownClass, match="No class with this code"):
        store.join("XXXXXX" if a != "XXXXXX" else "YYYYYY", "s2")
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.tally(a, key_b)  # class b's key does not read class a


def test_limits_are_refused_with_a_message(make_store):
    store = make_store(Limits(max_classes=2, max_students=2, max_questions=2, max_options=3))
    code, key = open_class(store)
    store.join(open_class(store)[0], "s0")  # both classes have students: none gives way
    store.join(code, "s1")
    with pytest.raises(TallyRefused, match="2 classes, each with students"):
        open_class(store)
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


def test_a_class_expires_after_its_idle_time_and_its_maximum_age(make_store):
    clock = Clock()
    store = make_store(Limits(idle_expiry_s=100, max_age_s=1000, lecturer_grace_s=10**6),
                       clock=clock)
    code, key = open_class(store)
    for _ in range(9):  # an answer every 90 s keeps it alive...
        clock.now += 90
        store.answer(code, "s1", "q", 0, True)
    clock.now += 101  # ...101 s of silence ends it
    with pytest.raises(UnknownClass):
        store.tally(code, key)
    assert store.classes() == 0
    code, key = open_class(store)
    for _ in range(10):  # however busy, a class ends at its maximum age
        clock.now += 95
        store.join(code, "s1")
    clock.now += 95
    with pytest.raises(UnknownClass):
        store.tally(code, key)


def test_closing_frees_the_slot(make_store):
    store = make_store(Limits(max_classes=1))
    code, key = open_class(store)
    store.close_class(code, key)
    open_class(store)  # the freed slot
    with pytest.raises(UnknownClass):
        store.join(code, "s1")


def test_concurrent_students_are_each_counted_once(make_store):
    store = make_store()
    code, key = open_class(store)
    other, other_key = open_class(store)
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


# --------------------------------------------------------------------------- the doors


def test_a_lecturer_session_runs_one_class(make_store):
    store = make_store(Limits(max_classes=3))
    lecturer = new_token()
    first = store.open_class(lecturer)
    assert store.open_class(lecturer) == first  # again: the same class, not a second
    assert store.classes() == 1
    with pytest.raises(TallyRefused, match="lecturer token"):
        store.open_class("")


def test_a_script_that_opens_every_class_cannot_lock_a_lecturer_out(make_store):
    # Issue 34: one script opened 19 classes in 2 s from tabs it then closed; they lasted
    # 3 hours and the server (20 classes) refused every lecturer. Here the script also
    # seats a student of its own in each, so that no class gives way to a new one.
    clock = Clock()
    limits = Limits(max_classes=20, lecturer_grace_s=120)
    store = make_store(limits, clock=clock)
    script = [store.open_class(new_token()) for _ in range(20)]  # one tab per class
    for gone, _ in script:
        store.join(gone, "script's student")
    with pytest.raises(TallyRefused, match="20 classes, each with students"):
        store.open_class(new_token())
    # The script's tabs close: nobody calls with their keys any more. A real lecturer's
    # page calls every 2 s, and keeps theirs.
    lecturer = new_token()
    clock.now += 60
    with pytest.raises(TallyRefused, match="a class ends 2 minutes after its lecturer"):
        store.open_class(lecturer)
    clock.now += 61  # 121 s after the script was last seen
    code, key = store.open_class(lecturer)
    assert store.classes() == 1
    for gone, _ in script:
        with pytest.raises(UnknownClass):
            store.join(gone, "s1")
    for _ in range(100):  # a lecture: the lecturer's page is there, the class stays
        clock.now += 2
        store.status(code, key)
    assert store.students(code, key) == 0
    clock.now += 119  # the lecturer's tab closes: the class lasts the grace period...
    store.join(code, "late")
    clock.now += 2  # ...and no longer
    with pytest.raises(UnknownClass):
        store.join(code, "later")


def test_only_the_lecturer_passcode_opens_the_door():
    assert passcode_matches("correct horse", "correct horse")
    assert not passcode_matches("correct hors", "correct horse")
    assert not passcode_matches("", "correct horse")
    assert not passcode_matches(None, "x")
    assert passcode_matches("ünïcödé", "ünïcödé")


def test_a_script_cannot_fill_every_seat_at_once(make_store):
    # Issue 34: one script filled all 400 seats in 30 s, so real students were refused.
    clock = Clock()
    limits = Limits(max_students=400, join_burst=60, joins_per_minute=120)
    store = make_store(limits, clock=clock)
    code, key = open_class(store)
    for i in range(60):  # a burst: the room scanning the QR code at once
        store.join(code, f"s{i}")
    with pytest.raises(TallyRefused, match=r"120 a minute\): join again in 1 s"):
        store.join(code, "script")
    assert store.students(code, key) == 60
    clock.now += 10  # 2 a second come back
    for i in range(20):
        store.join(code, f"t{i}")
    with pytest.raises(TallyRefused, match="faster than it lets them in"):
        store.join(code, "t20")
    # Students already in are never slowed down: their answers count at any rate.
    for i in range(60):
        store.answer(code, f"s{i}", "q", 1, True)
    assert counts(store, code, key, "q")[1] == (60, 60)
    # Filling the 400 seats takes minutes, not seconds: time for the lecturer to see it.
    joined, seconds = store.students(code, key), 0
    while joined < 400 and seconds < 1000:
        clock.now += 1
        seconds += 1
        store.status(code, key)  # the lecturer's page is open
        for _ in range(3):
            try:
                store.join(code, new_token())
            except TallyRefused:
                break
            joined += 1
    assert 150 <= seconds <= 170  # (400 - 80) / 2 per second


def test_a_room_of_300_joins_in_half_a_minute_with_the_default_limits(make_store):
    clock = Clock()
    store = make_store(Limits(), clock=clock)  # the defaults a server starts with
    code, key = open_class(store)
    for i in range(300):  # the QR code scanned over 30 s, evenly
        clock.now += 0.1
        store.join(code, f"s{i}")
    assert store.students(code, key) == 300


def test_the_lecturer_closes_the_door_and_removes_late_joiners_with_their_votes(make_store):
    clock = Clock()
    store = make_store(Limits(join_burst=1000), clock=clock)
    code, key = open_class(store)
    room = [f"s{i}" for i in range(30)]
    for token in room:
        store.answer(code, token, "q", 1, True)
    for _ in range(150):  # the lecture goes on (the lecturer's page redraws every 2 s)...
        clock.now += 2
        store.status(code, key)
    for i in range(100):  # ...then a script stuffs the vote: 100 votes in 19 s
        clock.now += 0.19
        store.answer(code, f"script{i}", "q", 0, False)
    assert counts(store, code, key, "q")[:2] == [(100, 0), (30, 30)]
    status = store.status(code, key)
    assert (status.students, status.joined_last_minute, status.joining_open) == (130, 100, True)
    assert store.joined_within(code, key, 60) == 100
    assert store.remove_joined(code, key, 60) == 100
    assert counts(store, code, key, "q")[:2] == [(0, 0), (30, 30)]
    assert store.students(code, key) == 30
    # A removed session cannot come back, by joining or by answering.
    with pytest.raises(TallyRefused, match="removed this session"):
        store.answer(code, "script7", "q", 0, False)
    with pytest.raises(TallyRefused, match="removed this session"):
        store.join(code, "script8")
    store.set_joining(code, key, False)
    with pytest.raises(TallyRefused, match="closed this class to new students"):
        store.join(code, "newcomer")
    store.answer(code, "s3", "q", 0, True)  # those in stay in, and may change their answer
    assert counts(store, code, key, "q")[:2] == [(1, 1), (29, 29)]
    assert store.status(code, key).joining_open is False
    store.set_joining(code, key, True)
    store.join(code, "newcomer")
    # Only the lecturer's key holds the door.
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.set_joining(code, "not the key", False)
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.remove_joined(code, "not the key", 10**6)
    assert store.students(code, key) == 31


def test_guessing_a_code_stays_impractical():
    # 25 symbols, 6 of them: at the rate a script opened tabs here (about 10 joins a
    # second), finding one of 20 classes takes days on average.
    assert len(ALPHABET) ** CODE_LENGTH == 244_140_625
    expected_tries = len(ALPHABET) ** CODE_LENGTH / 20 / 2
    assert expected_tries / 10 / 3600 > 24


# ----------------------------------------------------------------- the lecture's flow


def test_a_switch_before_the_reveal_replaces_the_vote_and_the_reveal_closes_it(make_store):
    store = make_store()
    code, key = open_class(store)
    opening = Live(None, 1, revealed=False, shown=False, voting_open=True)
    assert store.live(code, "q") == opening  # nothing asked yet
    for token, option in (("s1", 0), ("s2", 1), ("s3", 2), ("s4", 2), ("s5", 2), ("s6", 0)):
        store.answer(code, token, "q", option, option == 2)
    assert counts(store, code, key, "q") == [(2, 0), (1, 0), (3, 3)]
    store.answer(code, "s1", "q", 2, True)  # s1 switches: one vote, never two
    assert counts(store, code, key, "q") == [(1, 0), (1, 0), (4, 4)]
    assert store.vote(code, "s1", "q") == 2 and store.vote(code, "nobody", "q") is None
    assert store.live(code, "q") == opening
    # One look for both (a phone's run): the same as the two looks apart.
    assert store.live_and_vote(code, "s1", "q") == (opening, 2)
    assert store.live_and_vote(code, "nobody", "q") == (opening, None)
    assert store.live_and_vote(code, "s1", "not asked") == (opening, None)
    store.reveal(code, key, "q")
    assert store.live(code, "q") == Live(None, 1, revealed=True, shown=True, voting_open=False)
    with pytest.raises(VoteClosed, match="revealed this question"):
        store.answer(code, "s2", "q", 2, True)  # too late to change
    assert counts(store, code, key, "q") == [(1, 0), (1, 0), (4, 4)]
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.reveal(code, "not the key", "other")


def test_a_second_round_is_counted_apart_from_the_first(make_store):
    store = make_store()
    code, key = open_class(store)
    for token, option in (("s1", 0), ("s2", 0), ("s3", 1)):
        store.answer(code, token, "q", option, option == 1)
    store.open_second_round(code, key, "q")
    assert store.live(code, "q") == Live(None, 2, revealed=False, shown=False, voting_open=True)
    assert store.vote(code, "s1", "q") is None  # a new vote to cast
    assert store.live_and_vote(code, "s1", "q")[1] is None
    assert store.answer(code, "s1", "q", 1, True) == 2
    store.answer(code, "s2", "q", 1, True)
    store.answer(code, "s2", "q", 0, False)  # a switch in round 2 replaces round 2's vote
    store.answer(code, "s2", "q", 1, True)
    assert counts(store, code, key, "q", 1) == [(2, 0), (1, 1), (0, 0)]  # unchanged
    assert counts(store, code, key, "q", 2) == [(0, 0), (2, 2), (0, 0)]
    with pytest.raises(TallyRefused, match="at most 2 rounds"):
        store.open_second_round(code, key, "q")
    store.reveal(code, key, "q")
    assert store.tally(code, key)["q"].revealed
    # A removed student's votes go from both rounds.
    assert store.remove_joined(code, key, 60) == 3
    assert counts(store, code, key, "q", 1) == counts(store, code, key, "q", 2) == [(0, 0)] * 3


def test_the_class_step_is_the_lecturers_and_every_phone_reads_it(make_store):
    store = make_store()
    code, key = open_class(store)
    other, other_key = open_class(store)
    store.set_step(code, key, 7)
    assert store.live(code.lower()).step == 7 and store.live(other).step is None
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.set_step(code, other_key, 1)  # only the class's own lecturer moves it
    with pytest.raises(TallyRefused, match="whole number"):
        store.set_step(code, key, 0)
    with pytest.raises(UnknownClass):
        store.live("XXXXXX" if code != "XXXXXX" else "YYYYYY")


def test_the_tally_lists_questions_in_the_order_they_were_first_answered(make_store):
    store = make_store()
    code, key = open_class(store)
    for question in ("tour1", "tour2", "tour5"):
        store.answer(code, "s1", question, 0, True)
    store.reveal(code, key, "tour7")  # revealed with no votes: still listed
    assert list(store.tally(code, key)) == ["tour1", "tour2", "tour5", "tour7"]


def test_showing_the_view_ends_the_round_and_its_answers_are_final(make_store):
    store = make_store()
    code, key = open_class(store)
    for token, option in (("s1", 0), ("s2", 1), ("s3", 1)):
        store.answer(code, token, "q", option, option == 1)
    store.show_view(code, key, "q")  # the view decides the answer: round 1 is over
    assert store.live(code, "q") == Live(None, 1, revealed=False, shown=True, voting_open=False)
    with pytest.raises(VoteClosed, match="final"):
        store.answer(code, "s1", "q", 1, True)  # s1 saw the view: too late to switch
    with pytest.raises(VoteClosed, match="final"):
        store.answer(code, "late", "q", 1, True)
    assert counts(store, code, key, "q") == [(1, 0), (2, 2), (0, 0)]
    assert store.tally(code, key)["q"].shown and not store.tally(code, key)["q"].revealed
    # A second round after the view: open again, the view stays shown; its reveal closes it.
    store.open_second_round(code, key, "q")
    assert store.live(code, "q") == Live(None, 2, revealed=False, shown=True, voting_open=True)
    store.answer(code, "s1", "q", 1, True)
    store.reveal(code, key, "q")
    with pytest.raises(VoteClosed):
        store.answer(code, "s2", "q", 0, False)
    assert counts(store, code, key, "q", 2) == [(0, 0), (1, 1), (0, 0)]
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.show_view(code, "not the key", "q")


# ------------------------------------------------ nobody locks a lecturer out (issue 49)


def test_a_full_server_ends_its_oldest_unjoined_class_for_a_new_lecturer(make_store):
    # Issue 49: one client opened 19 classes in 7.5 s and every lecturer was refused for
    # as long as it stayed connected (it kept its classes alive).
    clock = Clock()
    store = make_store(Limits(max_classes=3), clock=clock)
    first, second = open_class(store), open_class(store)
    clock.now += 1
    third = open_class(store)
    store.join(first[0], "s1")  # the oldest has a student: it stays
    for _ in range(30):  # every class's lecturer page is alive
        clock.now += 2
        for opened in (first, second, third):
            store.status(*opened)
    lecturer = open_class(store)  # not refused: the oldest unjoined class gave way
    assert store.classes() == 3
    with pytest.raises(UnknownClass):
        store.status(*second)
    store.status(*first), store.status(*third), store.status(*lecturer)
    store.join(third[0], "s2"), store.join(lecturer[0], "s3")
    with pytest.raises(TallyRefused, match="3 classes, each with students"):
        open_class(store)  # every class has students: a clean refusal, nobody ended


def test_one_address_without_the_passcode_holds_two_classes(make_store):
    store = make_store(Limits(max_classes=20))
    script = "203.0.113.7"
    held = [store.open_class(new_token(), address=script) for _ in range(2)]
    for _ in range(17):  # a new session per try: each refused, nothing else opened
        with pytest.raises(TallyRefused, match="already runs 2 classes, the most one address"):
            store.open_class(new_token(), address=script)
    assert store.classes() == 2
    # Another address, a lecturer with the passcode, an unknown address: not limited by it.
    store.open_class(new_token(), address="198.51.100.2")
    store.open_class(new_token(), address=script, with_passcode=True)
    store.open_class(new_token())
    assert store.classes() == 5
    store.close_class(*held[0])  # ending one frees its place
    store.open_class(new_token(), address=script)
    assert store.classes() == 5


def test_wrong_passcodes_open_a_growing_refusal_window_per_session_and_per_address(make_store):
    # Issue 49: 206 wrong guesses in 20 s from one session, nothing slowed them.
    clock = Clock()
    store = make_store(Limits(passcode_free_tries=3, passcode_first_wait_s=2,
                              passcode_max_wait_s=300), clock=clock)
    right, here, elsewhere = "four long random words", "203.0.113.7", "198.51.100.2"

    def attempt(typed, session="tab", address=here):
        store.check_passcode(typed, right, session=session, address=address)

    for _ in range(3):  # a few typos are free...
        with pytest.raises(TallyRefused, match="not this server's lecturer passcode"):
            attempt("guess")
    # ...then each wrong guess opens a window in which nothing is heard, not even the right
    # passcode, twice as long as the one before, up to 5 minutes.
    for window in (2, 4, 8, 16, 32, 64, 128, 256, 300, 300):
        clock.now += window - 1
        with pytest.raises(TallyRefused, match=r"try again in 1 s\."):
            attempt(right)
        clock.now += 1
        with pytest.raises(TallyRefused, match="not this server's"):
            attempt("guess")
    # A new session from the same address waits too; from another address it is heard.
    with pytest.raises(TallyRefused, match="try again in 5 minutes"):
        attempt(right, session="a new tab")
    attempt(right, session="a new tab", address=elsewhere)
    # The right passcode, once heard, clears the session's and the address's records.
    clock.now += 300
    attempt(right)
    for _ in range(3):  # where the address is not known, the session alone is counted
        with pytest.raises(TallyRefused, match="not this server's"):
            attempt("guess", address=None)
    with pytest.raises(TallyRefused, match="try again in 2 s"):
        attempt(right, address=None)
    attempt(right, session="another tab")  # its address had no wrong guess since


# ------------------------------------------------------ what the room learned (issue 49)


def test_the_summary_of_a_hand_counted_class(make_store):
    store = make_store()
    code, key = open_class(store)
    # Option 0 is right. Round 1: s1 and s5 right; s3 first picks 0, then switches to 1.
    for token, option in (("s1", 0), ("s2", 1), ("s3", 0), ("s3", 1), ("s4", 2), ("s5", 0),
                          ("s6", 1)):
        store.answer(code, token, "q", option, option == 0)
    store.answer(code, "s1", "p", 1, True), store.answer(code, "s2", "p", 0, False)
    store.open_second_round(code, key, "q")
    # Round 2: s2 and s4 move to the right answer, s5 away from it, s3 stays wrong, s1
    # right; s6 does not vote again, s7 votes only now.
    for token, option in (("s1", 0), ("s2", 0), ("s3", 1), ("s4", 0), ("s5", 2), ("s7", 0)):
        store.answer(code, token, "q", option, option == 0)
    store.reveal(code, key, "q")
    summary = store.summary(code, key)
    assert list(summary) == ["q", "p"]  # in the order first answered
    q, p = summary["q"], summary["p"]
    assert (q.votes, q.right) == ((6, 6), (2, 4))
    assert (q.wrong_to_right, q.right_to_wrong, q.revealed) == (2, 1, True)
    assert (p.votes, p.right, p.wrong_to_right, p.right_to_wrong, p.revealed) == (
        (2,), (1,), 0, 0, False)
    with pytest.raises(UnknownClass, match="Only the lecturer"):
        store.summary(code, "not the key")
    store.close_class(code, key)  # kept as long as the class: its end forgets it
    with pytest.raises(UnknownClass):
        store.summary(code, key)
