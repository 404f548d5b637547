"""A view opened from the tour shows the step's prompt, its answer with the page's own
findings, and Back / Next through the tour (classroom/banner.py)."""

from __future__ import annotations

import pytest

from classroom.tour import STEPS, main_steps
from tests.support.apptest import assert_clean, open_app, usps_available


def prompt_texts(at) -> list[str]:
    return [m.value for m in at.markdown]


def answer(at) -> str:
    """The prompt's 'What to look for' (the expander's text)."""
    box = next(e for e in at.expander if e.label == "What to look for")
    return " ".join(m.value for m in box.markdown)


def open_from_tour(number: int):
    at = open_app("tour", {"step": number, "questions": "off"})  # the answers: test_predict.py
    at.button(key="tour_open").click().run()
    assert_clean(at)
    # AppTest draws the page st.switch_page went to, but runs its own current page on the
    # next run: make that the view too (a browser's address bar does this).
    at.switch_page(STEPS[number - 1].page)
    return at


def test_step_1_on_the_explorer_with_its_answer_and_next_moves_on():
    at = open_from_tour(1)
    assert at.query_params["kernel"] == "linear"
    assert f"**{STEPS[0].question}**" in prompt_texts(at)
    assert f"Guided tour · step 1 of {len(main_steps())} · {STEPS[0].title}" in [
        c.value for c in at.caption]
    said = answer(at)
    assert STEPS[0].look_for in said
    # The Explorer's own separability sentence, as the page shows it.
    accuracy = next(c.value for c in at.caption if "Cross-validated accuracy" in c.value)
    reading = accuracy.replace("**", "").split(" Score:")[0].strip()
    assert "On this screen:" in said and reading in said, (reading, said)
    # Only the separability: the K blocks (step 2's subject) would not fit the projector.
    assert "Mean of K" not in said
    assert at.button(key="tour_prompt_back").disabled

    at.button(key="tour_prompt_next").click().run()
    assert_clean(at)
    assert at.query_params["kernel"] == "rbf" and at.query_params["gamma"] == "5"
    assert f"**{STEPS[1].question}**" in prompt_texts(at)
    assert at.session_state["tour_step"] == 2  # the tour page follows

    at.button(key="tour_prompt_back").click().run()
    assert_clean(at)
    assert f"**{STEPS[0].question}**" in prompt_texts(at)
    assert at.query_params["kernel"] == "linear"


def test_an_optional_step_is_counted_in_its_own_part():
    """Issue 48: the prompt said "step 11 of 14" of a lecture the tour page calls ten steps."""
    number = len(main_steps()) + 1
    at = open_app("tour", {"step": number})  # the view waits for its question: not drawn
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[number - 1].page).run()
    assert_clean(at)
    extra = len(STEPS) - len(main_steps())
    assert (f"Guided tour · step {number}, optional: 1 of {extra} in {STEPS[number - 1].part}"
            f" · {STEPS[number - 1].title}") in [c.value for c in at.caption]


def test_the_prompt_stays_with_its_view_only():
    at = open_from_tour(1)
    at.switch_page("app_pages/scale.py").run()  # the lecturer goes elsewhere
    assert_clean(at)
    assert not [t for t in prompt_texts(at) if t == f"**{STEPS[0].question}**"]
    at.switch_page("app_pages/explorer.py").run()  # and back: no stale prompt
    assert f"**{STEPS[0].question}**" not in prompt_texts(at)


def test_a_plain_visit_has_no_prompt():
    at = open_app("explorer", {})
    assert_clean(at)
    assert not [e for e in at.expander if e.label == "What to look for"]


def test_step_8_says_what_the_denoising_page_measures():
    if not usps_available():
        pytest.skip("USPS digits not available")
    number = next(i for i, s in enumerate(STEPS, 1) if s.page.endswith("denoising.py"))
    assert "better than" not in STEPS[number - 1].look_for  # no claim of its own
    at = open_from_tour(number)
    page_says = next(m.value for m in at.markdown if m.value.startswith("At their best m"))
    assert page_says.replace("**", "") in answer(at)


@pytest.mark.parametrize("number", [n for n, step in enumerate(STEPS, start=1) if step.shows])
def test_a_step_quotes_only_findings_its_page_publishes(number):
    """The step table names the page's sentences by name (``shows``): each name must be one
    the page publishes at the step's settings, and the findings are kept for that page."""
    at = open_from_tour(number)
    page, said = at.session_state["_kpca_findings"]
    assert page == STEPS[number - 1].page.rsplit("/", 1)[-1].removesuffix(".py")
    assert set(STEPS[number - 1].shows) <= set(said), (STEPS[number - 1].shows, sorted(said))


def test_the_steps_words_say_they_describe_its_setting_once_the_view_moves():
    """Issue 33: step 2 at γ = 300 still said "only the inner ring's block is bright ...
    pulls the rings apart" above "On this screen: no block is bright"."""
    at = open_from_tour(2)
    assert answer(at).startswith(STEPS[1].look_for)  # the step's own setting: as written
    assert not [b for b in at.button if b.key == "tour_prompt_reset"]
    at.session_state["w_gamma"] = 300.0  # the student moves γ
    at.run()
    assert_clean(at)
    said = answer(at)
    assert said.startswith("*At the step's own setting:*") and STEPS[1].look_for in said
    note = next(c.value for c in at.caption if c.value.startswith("Your view differs"))
    assert "γ = 300 (the step's: 5)" in note
    at.button(key="tour_prompt_reset").click().run()
    at.switch_page(STEPS[1].page).run()
    assert_clean(at)
    assert at.session_state["w_gamma"] == 5.0
    assert answer(at).startswith(STEPS[1].look_for)


def test_differences_name_what_moved():
    from dataclasses import replace

    from classroom.tour import differences

    step = STEPS[1].settings()
    assert differences(step, step) == []
    assert differences(step, replace(step, gamma=300.0)) == ["γ = 300 (the step's: 5)"]
    assert differences(step, replace(step, kernel="sigmoid")) == [
        "kernel sigmoid (the step's: rbf)"]
    assert differences(step, replace(step, degree=7)) == []  # RBF reads no degree


def test_the_pinned_prompt_leaves_a_pair_of_charts_side_by_side_on_the_projector():
    # Projector mode, sidebar closed: the page's pair of charts still sits side by side
    # beside the pinned prompt, and its charts know their share of the width.
    from classroom.banner import PINNED_REM
    from shell import display

    content = display.projector_content_px(display.PROJECTOR_PX, sidebar_open=False)
    beside = content - PINNED_REM * display.PROJECTOR_ROOT_PX
    assert display.pair_fits(beside, display.PROJECTOR_ROOT_PX)
    assert not display.pair_fits(beside - 2 * display.PROJECTOR_ROOT_PX,
                                 display.PROJECTOR_ROOT_PX)  # 2 rem wider would not
