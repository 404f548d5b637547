"""The questions' verdicts (classroom/questions.py) follow the data and settings they are
asked for: each at a setting where the usual answer is right and one where it is not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import datasets
from classroom.questions import CATALOGUE, MAX_N, build
from shell.state import default_settings

CIRCLES = datasets.load("circles", n=200, seed=0)


def right(question) -> list[str]:
    return [question.options[i].text for i in question.right]


def test_every_question_has_one_verdict_and_a_reason_per_option():
    settings = default_settings("circles")
    for question_id, (prompt, texts) in CATALOGUE.items():
        question = build(question_id, CIRCLES.X, CIRCLES.y, settings)
        assert question is not None and question.prompt == prompt, question_id
        assert len(question.options) == len(texts)  # the tally counts by option number
        if question_id != "best_gamma":  # whose options name this view's panels
            assert [o.text for o in question.options] == list(texts)
        assert question.right, question_id  # at least one option is right
        assert all(o.why.startswith("Right" if o.right else "No") for o in question.options)


def test_zero_eigenvalues_counts_what_centring_leaves():
    rbf = default_settings("circles")
    assert right(build("zero_eigenvalues", CIRCLES.X, CIRCLES.y, rbf)) == ["1"]
    # Three points on a line, linear kernel: centred, they span one direction only.
    line = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0]])
    linear = replace(rbf, kernel="linear")
    assert right(build("zero_eigenvalues", line, None, linear)) == ["2"]


def test_the_boundary_is_straight_only_for_the_linear_kernel():
    rbf = default_settings("circles")
    assert right(build("classifier_boundary", CIRCLES.X, CIRCLES.y, rbf)) == ["A curved one"]
    linear = replace(rbf, kernel="linear")
    assert right(build("classifier_boundary", CIRCLES.X, CIRCLES.y, linear)) == [
        "A straight one (a hyperplane)"]


def test_best_gamma_and_components_follow_the_data():
    circles = default_settings("circles")
    best = build("best_gamma", CIRCLES.X, CIRCLES.y, circles)
    assert [o.text for o in best.options][-1] == "Another of the page's 12 panels"
    assert all("the best of the 12 panels scores" in o.why or "points below the best" in o.why
               for o in best.options)
    assert build("best_gamma", CIRCLES.X, CIRCLES.y, replace(circles, kernel="linear")) is None
    moons = datasets.load("moons", n=200, seed=0)
    needed = build("components_needed", moons.X, moons.y, replace(circles, gamma=0.05))
    assert right(needed) != ["1"]  # nearly linear: one component does not split the moons
    assert "component 1 alone scores" in needed.options[0].why


def test_questions_that_do_not_apply_are_not_asked():
    settings = default_settings("circles")
    assert build("separation", CIRCLES.X, None, settings) is None  # no labels
    assert build("lift_plane", np.c_[CIRCLES.X, CIRCLES.X], CIRCLES.y, settings) is None
    big = np.zeros((MAX_N + 1, 2))
    assert build("separation", big, np.arange(MAX_N + 1) % 2, settings) is None
    assert build("memory_doubling", big, None, settings) is not None  # a fact: no n × n
    assert build("no_such_question", CIRCLES.X, CIRCLES.y, settings) is None
