"""The tour as a lecturer uses it: projector mode on, step 1 to the end with Next; a view
opened from the tour asks its question before its charts, Next moves on one step, and Skip
shows the view."""

from __future__ import annotations

from classroom.tour import STEPS
from tests.support.browser import (
    assert_no_exception,
    new_page,
    shot,
    wait_until_idle,
    wait_until_quiet,
)

PROJECTOR = {"width": 1280, "height": 720}


def test_the_whole_tour_with_next_in_projector_mode(server, browser):
    page = new_page(browser, viewport=PROJECTOR)
    context = page.context
    page.goto(f"{server.url}/tour?step=1&projector=1")
    wait_until_idle(page)
    assert_no_exception(page)
    # Projector mode came from the link: the toggle is on and the page text is larger.
    toggle = page.locator('[data-testid="stSidebar"] label').filter(has_text="Projector mode")
    assert toggle.locator("input").is_checked()
    root_font = page.evaluate("() => parseFloat(getComputedStyle(document.documentElement)"
                              ".fontSize)")
    assert root_font >= 19
    shot(page, "tour-projector-step-1")
    for number in range(2, len(STEPS) + 1):
        page.get_by_role("button", name="Next →").click()
        page.get_by_role("heading", name=f"{number} · {STEPS[number - 1].title}").wait_for()
        wait_until_idle(page)
        assert_no_exception(page)
        assert f"step={number}" in page.url and "projector=1" in page.url
    assert page.get_by_role("button", name="Next →").is_disabled()
    shot(page, "tour-projector-last-step")

    # The last step's view opens with its settings, still in projector mode.
    page.get_by_role("button", name="Open this view").click()
    page.wait_for_url(f"**/{STEPS[-1].page.split('/')[-1].removesuffix('.py')}?**")
    wait_until_idle(page)
    assert_no_exception(page)
    assert f"dataset={STEPS[-1].dataset}" in page.url and "projector=1" in page.url
    shot(page, "tour-projector-opened-view")
    context.close()


def test_a_view_opened_from_the_tour_shows_the_prompt_and_next_moves_on(server, page):
    page.goto(f"{server.url}/tour?step=1")
    wait_until_idle(page)
    page.get_by_role("button", name="Open this view").click()
    page.wait_for_url("**/explorer?**")
    wait_until_idle(page)
    assert_no_exception(page)
    prompt = page.locator(".st-key-tour_prompt")
    # Predict, then reveal: no chart until the student commits to an answer.
    assert page.locator(".js-plotly-plot").count() == 0
    prompt.get_by_text("Hardly (< 70 %)").click()
    prompt.get_by_text("(your answer)").wait_for()
    wait_until_idle(page, min_charts=3)
    assert "Hardly (< 70 %) (your answer): Right" in prompt.inner_text()
    prompt.get_by_text(STEPS[0].question).wait_for()
    assert prompt.get_by_text(f"step 1 of {len(STEPS)}").is_visible()
    # The answer is hidden until asked for, then holds the page's own reading.
    assert not prompt.get_by_text(STEPS[0].look_for).is_visible()
    prompt.get_by_text("What to look for").click()
    prompt.get_by_text(STEPS[0].look_for).wait_for()
    assert "On this screen:" in prompt.inner_text()
    assert "Cross-validated accuracy" in prompt.inner_text()
    shot(page, "tour-prompt-step-1")

    prompt.get_by_role("button", name="Next →").click()
    page.locator(".st-key-tour_prompt").get_by_text(STEPS[1].question).wait_for()
    page.get_by_role("button", name="Skip: show the view").click()  # skip works too
    wait_until_idle(page, min_charts=3)
    assert_no_exception(page)
    assert "kernel=rbf" in page.url and "explorer" in page.url
    assert page.locator(".st-key-tour_prompt").get_by_text("step 2 of").is_visible()
    # Only once: once the server has gone quiet, the click has not carried on to step 3.
    wait_until_quiet(page)
    assert "how_it_works" not in page.url
