"""The load test's class and its checks (loadtest/class_plan.py), without a server.

The checks must be able to fail: each kind of mixing and error is planted in an
otherwise correct run and must be reported, and the correct run must pass.
"""

from __future__ import annotations

import collections
from dataclasses import replace
from urllib.parse import parse_qsl

import pytest

from loadtest.class_plan import (
    CLASS,
    COMPONENTS,
    GAMMA,
    LAB,
    LAB_START_SPREAD,
    MIXES,
    NEXT,
    Expectation,
    Habits,
    LabHabits,
    assign,
    format_gamma,
    grid_step,
    lab_plan,
)
from loadtest.class_plan import GAMMA_GRID as LAB_GRID
from loadtest.st_client import Run, Widget, widget_state

GAMMA_OPTIONS = ["1", "2", "3", "5", "10", "20"]


def _run(gamma="5", components=3.0, title_gamma="5", query=None, **fields) -> Run:
    """What the server sends for the Explorer on circles, RBF, γ = 5, 3 components."""
    query = query or (f"dataset=circles&factor=0.3&n=400&noise=0.05&seed=0&kernel=rbf"
                      f"&gamma={gamma}&components={int(components)}")
    widgets = {
        GAMMA: Widget("g", "slider", GAMMA, GAMMA_OPTIONS, [gamma], select_slider=True),
        COMPONENTS: Widget("c", "slider", COMPONENTS, [], [components]),
    }
    run = Run(seconds=0.2, finished=True, query_string=query, session_id="s1",
              page="explorer", widgets=widgets,
              chart_titles=[f"Kernel PCA<br><span>RBF (Gaussian), γ = {title_gamma}</span>"])
    return replace(run, **fields)


EXPECT = Expectation("explorer", {"dataset": "circles", "kernel": "rbf", "gamma": "5",
                                  "components": "3"}, session_id="s1")


def test_a_run_that_shows_what_was_asked_passes():
    assert EXPECT.check(_run(), foreign=[]) == ([], [])


@pytest.mark.parametrize(
    ("run", "found"),
    [
        (_run(gamma="10", title_gamma="10"), "link gamma=10"),  # another student's γ
        (_run(title_gamma="10"), "page says γ = 10"),  # the chart drew another γ
        (_run(chart_titles=[]), "does not state γ"),
        (_run(components=4.0), "components slider"),
        (_run(query="dataset=moons&kernel=rbf&gamma=5&components=3"), "link dataset=moons"),
        (_run(query="dataset=circles&gamma=5&components=3"), "link lacks kernel"),
        (_run(page="tour"), "page 'tour'"),
        (_run(session_id="s2"), "session id changed"),
        (_run(texts=["On screen: **upload-7-beef.csv**"]), "another student's upload"),
    ],
)
def test_each_kind_of_mixing_is_reported(run, found):
    errors, mixed = EXPECT.check(run, foreign=["upload-7-beef.csv"])
    assert errors == []
    assert any(found in m for m in mixed), mixed


@pytest.mark.parametrize(
    ("fields", "found"),
    [
        ({"exceptions": ["ValueError: boom"]}, "exception: ValueError"),
        ({"error_boxes": ["The server is out of memory"]}, "error box"),
        ({"finished": False, "problem": "timeout after 180 s"}, "timeout"),
    ],
)
def test_errors_are_reported(fields, found):
    errors, _ = EXPECT.check(_run(**fields), foreign=[])
    assert any(found in e for e in errors), errors


def test_gamma_is_compared_to_the_precision_pages_print():
    expect = replace(EXPECT, params={**EXPECT.params, "gamma": "0.00390625"})
    run = _run(gamma="0.00390625", title_gamma="0.00391")
    run.widgets[GAMMA].value = ["0.00391"]
    assert expect.check(run, foreign=[]) == ([], [])


def test_the_class_follows_the_shares_and_most_are_on_one_step():
    plan = assign(200)
    counts = collections.Counter(link.name for link in plan)
    assert len(plan) == 200 and counts["step 2 view"] == 90
    assert counts["explorer USPS-2000"] == 8 and counts["step 9 classification"] == 3
    assert set(counts) == {link.name for link in CLASS}
    assert plan == assign(200)  # the same class every run
    assert len(assign(4)) == 4


def test_habits_move_gamma_one_step_on_the_slider_or_change_components():
    widgets = {GAMMA: Widget("g", "slider", GAMMA, GAMMA_OPTIONS, ["5"], select_slider=True),
               COMPONENTS: Widget("c", "slider", COMPONENTS, [], [3.0])}
    habits = Habits("explorer", seed=1)
    seen = set()
    for _ in range(40):
        name, value, expected = habits.next_change(widgets, {"gamma": "5", "components": "3"})
        if name == GAMMA:
            assert value in (["3"], ["10"]) and expected["gamma"] == value[0]
        else:
            assert name == COMPONENTS and value in ([2], [4])
            assert expected["components"] == str(value[0])
        seen.add(name)
    assert seen == {GAMMA, COMPONENTS}


def test_tour_students_walk_the_steps_and_turn_at_the_ends():
    habits = Habits("tour", seed=0)
    params, steps = {"step": "9"}, []
    for _ in range(4):
        name, _, params = habits.next_change({}, params)
        steps.append((name, params["step"]))
    assert steps[:2] == [(NEXT, "10"), ("← Back", "9")]


def test_widget_values_are_encoded_as_the_frontend_sends_them():
    gamma = Widget("g", "slider", GAMMA, GAMMA_OPTIONS, ["5"], select_slider=True)
    assert list(widget_state(gamma, ["10"]).string_array_value.data) == ["10"]
    components = Widget("c", "slider", COMPONENTS, [], [3.0])
    assert list(widget_state(components, [4]).double_array_value.data) == [4.0]
    dataset = Widget("d", "selectbox", "Dataset", ["Two circles", "Your own CSV"], "Two circles")
    assert widget_state(dataset, "Your own CSV").string_value == "Your own CSV"
    assert widget_state(Widget("b", "button", "Next →", [], None), True).trigger_value


# -- the lab mix (issue 36) -------------------------------------------------------------
def test_the_lab_grid_is_the_sidebars():
    from words.kernel_params import GAMMA_GRID as APP_GRID

    assert LAB_GRID == APP_GRID


def test_a_lab_of_100_spreads_over_8_choices_with_10_percent_on_usps_2000():
    plan = lab_plan(100)
    counts = collections.Counter(link.name for link in plan)
    assert len(counts) == 8 and set(counts) == {link.name for link in LAB}
    assert counts["lab USPS-2000 RBF"] == 10
    assert all(link.page == "explorer" for link in plan)
    usps = [dict(parse_qsl(link.query)) for link in plan if "USPS" in link.name]
    assert all(q["dataset"] == "usps" and q["n"] == "2000" for q in usps)
    assert plan == lab_plan(100)  # the same lab every run


def test_lab_students_start_on_the_grid_within_three_steps_of_their_link():
    starts = collections.defaultdict(set)
    for link in lab_plan(200):
        gamma = float(dict(parse_qsl(link.query))["gamma"])
        base = float(dict(parse_qsl(next(x for x in LAB if x.name == link.name).query))
                     ["gamma"])
        assert gamma in LAB_GRID
        assert abs(LAB_GRID.index(gamma) - LAB_GRID.index(base)) <= LAB_START_SPREAD
        starts[link.name].add(gamma)
    # Distinct first views: every choice starts at several γ.
    assert all(len(gammas) >= 4 for gammas in starts.values())


def test_lab_habits_move_gamma_one_to_three_grid_steps_and_never_off_the_grid():
    labels = [format_gamma(g) for g in LAB_GRID]
    habits = LabHabits("explorer", seed=3)
    steps = collections.Counter()
    for start in (0, 1, 20, len(labels) - 2, len(labels) - 1):
        for _ in range(30):
            widgets = {GAMMA: Widget("g", "slider", GAMMA, labels, [labels[start]],
                                     select_slider=True)}
            name, value, expected = habits.next_change(widgets, {"gamma": labels[start]})
            assert name == GAMMA and expected["gamma"] == value[0]
            moved = labels.index(value[0]) - start
            assert 1 <= abs(moved) <= 3, (start, moved)
            steps[abs(moved)] += 1
    assert set(steps) == {1, 2, 3}
    assert LabHabits("explorer", seed=0).next_change({}, {}) is None  # no γ: nothing


def test_grid_step_reflects_at_the_ends():
    assert grid_step(1e4, 2, LAB_GRID) == LAB_GRID[-3]
    assert grid_step(1e-6, -1, LAB_GRID) == LAB_GRID[1]
    assert grid_step(15.0, 1, LAB_GRID) == 30.0  # from the nearest grid value (20)


def test_each_mix_names_its_plan_and_habits():
    assert MIXES["lab"].habits is LabHabits and MIXES["lecture"].habits is Habits
    assert len(MIXES["lab"].plan(7)) == 7 and len(MIXES["lecture"].plan(7)) == 7
