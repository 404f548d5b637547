"""The tour's second part, "Beyond kernel PCA": each step's view waits for its prediction,
the verdict is computed on that view, the answer quotes the page's own sentences, and the
class tally lists the four questions like the others."""

from __future__ import annotations

import pytest

from classroom.lecturer import tally_questions
from classroom.predict import RIGHT
from classroom.tour import BEYOND, STEPS, tally_id
from tests.support.apptest import assert_clean, open_app

SECOND = [n for n, step in enumerate(STEPS, start=1) if step.part == BEYOND]


def open_step(number: int):
    at = open_app("tour", {"step": number})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[number - 1].page)
    return at.run()


def test_the_tally_counts_the_second_parts_questions():
    listed = {tid: (where, qid) for tid, where, qid, _ in tally_questions()}
    for number in SECOND:
        step = STEPS[number - 1]
        assert listed[tally_id(number)] == (f"Tour step {number} · {step.title}", step.check)


@pytest.mark.parametrize("number", SECOND)
def test_each_step_asks_first_then_shows_its_view_and_the_pages_own_answer(number):
    step = STEPS[number - 1]
    at = open_step(number)
    assert_clean(at)
    radio = at.radio(key=f"predict_{tally_id(number)}")
    assert radio.value is None and not at.get("plotly_chart")  # the view waits
    radio.set_value(radio.options[0]).run()
    assert_clean(at)
    assert at.get("plotly_chart")
    lines = next(m.value for m in at.markdown if m.value.startswith("- ")).split("\n")
    assert sum(line.startswith(f"- {RIGHT}") for line in lines) >= 1
    for name, value in step.page_query:
        assert at.query_params[name] == value
    answer = next(m.value for m in at.markdown if m.value.startswith("**On this screen:**"))
    assert len(answer) > len("**On this screen:** ")
