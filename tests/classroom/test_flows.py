"""The lecture's flow in a class (issue 35), AppTest on the values shown: a joined phone's
answer is a prediction (recorded, its verdicts hidden until the lecturer reveals), a switch
replaces the vote, a second round counts apart, a reload keeps the seat and the step, the
phones follow the lecturer's step, and the tally lists the newest question first."""

from __future__ import annotations

import pytest

from classroom import join, lecturer
from classroom.predict import RIGHT, WRONG
from classroom.tally import STORE, new_token
from classroom.tour import STEPS, tally_id
from tests.support.apptest import assert_clean, open_app

NUMBER = 2  # the kernel step on the Explorer: RBF γ = 5 on the circles
TID = tally_id(NUMBER)
WIDGET = f"predict_{TID}"
RIGHT_TEXT, WRONG_TEXT = "Almost perfectly (≥ 95 %)", "Hardly (< 70 %)"


@pytest.fixture
def room():
    """A class opened by a lecturer of its own: (code, key); closed afterwards."""
    code, key = STORE.open_class(new_token())
    yield code, key
    try:
        STORE.close_class(code, key)
    except Exception:  # noqa: BLE001 - already ended by the test
        pass


def phone(code: str, number: int = NUMBER):
    """A student's session: the QR code's link, then the step's view from the tour."""
    at = open_app("tour", {"step": number, "class": code})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[number - 1].page)
    return at.run()


def verdict_lines(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith((f"- {RIGHT}", f"- {WRONG}"))]


def recorded(at) -> str:
    return next((m.value for m in at.markdown if m.value.startswith("**Answer recorded")), "")


def counts(code, key, round_=1) -> list[int]:
    votes = STORE.tally(code, key)[TID]
    return [c.chosen for c in votes.rounds[round_ - 1]][:3]


def charts(at) -> int:
    return len(at.get("plotly_chart"))


def test_in_a_class_an_answer_is_a_prediction_until_the_lecturer_reveals(room):
    code, key = room
    at = phone(code)
    assert_clean(at)
    options = at.radio(key=WIDGET).options
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    assert_clean(at)
    # The view is there (the lecture needs the picture), the verdicts are not.
    assert charts(at) > 0
    assert verdict_lines(at) == []
    assert f"**Answer recorded:** {WRONG_TEXT}." in recorded(at)
    assert "until the lecturer reveals" in recorded(at)
    assert not [e for e in at.expander if e.label == "What to look for"]
    assert counts(code, key) == [options.index(WRONG_TEXT) == i for i in range(3)]
    # A switch before the reveal replaces the vote: one vote per student.
    at.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    assert verdict_lines(at) == [] and RIGHT_TEXT in recorded(at)
    assert counts(code, key) == [options.index(RIGHT_TEXT) == i for i in range(3)]
    assert STORE.students(code, key) == 1
    # The lecturer reveals; the phone's next run (its poll) shows every verdict.
    STORE.reveal(code, key, TID)
    at.run()
    assert_clean(at)
    lines = verdict_lines(at)[0].split("\n")
    assert len(lines) == 3
    mine = next(line for line in lines if "(your answer)" in line)
    assert mine.startswith(f"- {RIGHT} **{RIGHT_TEXT}**")
    assert [e for e in at.expander if e.label == "What to look for"]


def test_outside_a_class_the_verdicts_follow_the_answer_at_once():
    at = open_app("tour", {"step": NUMBER})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    assert recorded(at) == "" and len(verdict_lines(at)[0].split("\n")) == 3


def test_a_second_round_is_counted_apart_and_asks_the_phone_again(room):
    code, key = room
    at = phone(code)
    options = at.radio(key=WIDGET).options
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    STORE.open_second_round(code, key, TID)
    at.run()
    assert_clean(at)
    assert at.radio(key=WIDGET).value is None  # asked anew
    assert any(m.value.startswith("**Round 2: vote again**") and WRONG_TEXT in m.value
               for m in at.markdown)
    assert charts(at) > 0 and verdict_lines(at) == []
    at.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    assert f"{RIGHT_TEXT} (round 2)" in recorded(at)
    assert counts(code, key, 1) == [options.index(WRONG_TEXT) == i for i in range(3)]
    assert counts(code, key, 2) == [options.index(RIGHT_TEXT) == i for i in range(3)]
    STORE.reveal(code, key, TID)
    at.run()
    assert "(your answer)" in next(line for line in verdict_lines(at)[0].split("\n")
                                   if RIGHT_TEXT in line)
