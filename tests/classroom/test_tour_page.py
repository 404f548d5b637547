"""The guided tour: every step opens its view, with its settings in the URL."""

from __future__ import annotations

import pytest

from classroom import tour
from classroom.tour import BEYOND, STEPS, main_steps, parse_step, total_minutes
from shell import state
from shell.registry import LESSONS
from tests.support.apptest import ROOT, assert_clean, open_app, usps_available
from tests.support.plotly_json import chart_specs
from tests.support.plotly_json import title as plotly_title


def test_the_tour_is_a_45_minute_lecture_over_existing_pages():
    assert 8 <= len(main_steps()) <= 12
    assert total_minutes() == 45
    # An optional second part follows the lecture, its steps after the lecture's.
    assert [step.part for step in STEPS] == [""] * len(main_steps()) + [BEYOND] * (
        len(STEPS) - len(main_steps()))
    assert 3 <= len(STEPS) - len(main_steps()) <= 4 and total_minutes(BEYOND) <= 20
    pages = {lesson.path for lesson in LESSONS}
    for step in STEPS:
        assert step.page in pages, step.page
        assert step.question.endswith("?") and step.look_for


def test_a_step_opens_its_page_with_the_pages_own_link_parameters_only():
    """A step names its page by its address in the registry, and opens it with link
    parameters the page owns (``Lesson.link_params``), checked where the step is written."""
    assert tour._step("t", "explorer", "circles", "rbf", "q?", "l", 1,
                      page_query=(("section", "2"),)).lesson.link_params == (
        "section", "view", "axes")
    with pytest.raises(ValueError, match="owns no link parameter"):
        tour._step("t", "explorer", "circles", "rbf", "q?", "l", 1,
                   page_query=(("method", "isomap"),))
    with pytest.raises(KeyError):
        tour._step("t", "app_pages/explorer.py", "circles", "rbf", "q?", "l", 1)


EXTRA = len(STEPS) - len(main_steps())  # the optional part's steps
WORDS = {3: "three", 4: "four", 8: "eight", 9: "nine", 10: "ten", 11: "eleven", 12: "twelve"}


def test_the_page_counts_the_lectures_steps_and_the_optional_ones_apart():
    """Issue 48: the intro said ten steps and the progress bar "Step 1 of 14"."""
    at = open_app("tour", {"step": 1})
    assert_clean(at)
    intro = next(m.value for m in at.markdown if m.value.startswith("A "))
    assert intro.startswith(f"A {total_minutes()}-minute lecture in {len(main_steps())} steps "
                            f"plus an optional {EXTRA} ({BEYOND}).")
    progress = at.get("progress")[0].proto
    assert progress.text == f"Step 1 of {len(main_steps())} · about {STEPS[0].minutes} min"
    assert progress.value == round(100 / len(main_steps()))
    first_extra = len(main_steps()) + 1
    at = open_app("tour", {"step": first_extra})
    progress = at.get("progress")[0].proto
    assert progress.text == (f"Step {first_extra}, optional: 1 of {EXTRA} in {BEYOND} · about "
                             f"{STEPS[first_extra - 1].minutes} min")
    assert progress.value == round(100 / EXTRA)


def test_the_docs_count_the_steps_as_the_page_does():
    said = f"{WORDS[len(main_steps())]} steps plus an optional {WORDS[EXTRA]}"
    for path in ("README.md", "docs/classroom.md"):
        assert said in " ".join((ROOT / path).read_text(encoding="utf-8").split()), path
    tour = next(lesson for lesson in LESSONS if lesson.path == "app_pages/tour.py")
    assert said in tour.teaches


@pytest.mark.parametrize(
    ("raw", "expected"), [("3", (3, None)), ("0", (1, "not 0")), ("x", (1, "not a step"))]
)
def test_step_parameter_is_validated(raw, expected):
    number, problem = parse_step(raw)
    assert number == expected[0]
    assert (problem is None) == (expected[1] is None)
    if problem:
        assert expected[1] in problem


@pytest.mark.parametrize("number", range(1, len(STEPS) + 1))
def test_each_step_opens_its_view_with_its_settings_in_the_url(number):
    step = STEPS[number - 1]
    if step.dataset == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    at = open_app("tour", {"step": number})
    assert_clean(at)
    assert at.query_params["step"] == str(number)
    assert step.question in [m.value for m in at.subheader]
    at.button(key="tour_open").click().run()
    assert_clean(at)
    settings = step.settings()
    expected = state.settings_to_query(settings)
    for name in ("dataset", "kernel", *settings.kernel_params()):
        assert at.query_params[name] == expected[name], name
    for name, value in step.page_query:  # e.g. the Explorer's open section
        assert at.query_params[name] == value, name


def test_the_kernel_step_opens_the_explorer_on_k_and_k_tilde():
    number = next(i for i, s in enumerate(STEPS, 1) if s.look_for.startswith("In K only"))
    at = open_app("tour", {"step": number, "questions": "off"})  # the view at once
    at.button(key="tour_open").click().run()
    assert_clean(at)
    titles = [plotly_title(spec) for spec in chart_specs(at)]
    assert any(t.startswith("Kernel matrix K") for t in titles), titles
    assert any(t.startswith("Centred K̃") for t in titles), titles
    assert not any(t.startswith("Input space") for t in titles), titles  # one tab drawn


def test_back_and_next_walk_the_steps_and_keep_the_url():
    at = open_app("tour", {"step": 1})
    at.button(key="tour_next").click().run()
    assert at.query_params["step"] == "2"
    assert STEPS[1].question in [m.value for m in at.subheader]
    at.button(key="tour_back").click().run()
    assert at.query_params["step"] == "1"
    assert at.button(key="tour_back").disabled


def test_a_bad_step_in_a_link_warns_and_starts_at_one():
    at = open_app("tour", {"step": "99"})
    assert not at.exception
    assert any("not 99" in w.value for w in at.warning)
    assert at.query_params["step"] == "1"


def test_the_second_parts_notes_hold_at_their_steps_settings():
    # Step "A graph in pieces": the circles' 6-NN graph is in two pieces, the rings, and
    # spectral clustering's clusters are those pieces. Step "alignment": on the moons the
    # best-aligned γ is not one of the best separating ones.
    from sklearn.metrics import adjusted_rand_score

    import datasets
    from experiments.alignment import alignment_curve, compare_curves
    from experiments.kernel_diagnostics import reference_gamma
    from experiments.sampling import stratified_rows
    from lessons.choosing_gamma.experiment import SWEEP_MAX_N, gamma_grid, sweep
    from lessons.one_eigenproblem.experiment import eigenproblem

    pieces_step = next(s for s in STEPS if s.check == "graph_pieces")
    settings = pieces_step.settings()
    data = datasets.load(settings.dataset, **dict(settings.dataset_options))
    k = int(dict(pieces_step.page_query)["neighbours"])
    result = eigenproblem(data.X, data.y, method=dict(pieces_step.page_query)["method"],
                          kernel=settings.kernel, kernel_params=settings.kernel_params(), k=k,
                          n_components=settings.n_components)
    assert result.graph.pieces.count == 2
    assert adjusted_rand_score(result.graph.pieces.labels, result.clusters.ours) == 1.0
    assert "they part" in next(s for s in STEPS if s.check == "alignment_linear").look_for
    step = next(s for s in STEPS if s.check == "alignment_linear")
    settings = step.settings()
    data = datasets.load(settings.dataset, **dict(settings.dataset_options))
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    values = gamma_grid(reference_gamma(data.X, "rbf"))
    swept = sweep(data.X[rows], data.y[rows], kernel="rbf", kernel_params={}, param="gamma",
                  values=values, n_components=settings.n_components)
    curve = alignment_curve(data.X[rows], data.y[rows], kernel="rbf", kernel_params={},
                            param="gamma", values=values)
    assert not compare_curves(curve, swept.score_two).agree
