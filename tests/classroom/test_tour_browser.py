"""The tour as a lecturer uses it: projector mode on, step 1 to the end with Next; a view
opened from the tour asks its question before its charts, Next moves on one step, and Skip
shows the view."""

from __future__ import annotations

import re

import pytest

from classroom.tour import STEPS, main_steps
from tests.support.browser import (
    assert_no_exception,
    new_page,
    shot,
    wait_until_idle,
    wait_until_quiet,
)
from words.i18n import _, use_language

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
    assert prompt.get_by_text(f"step 1 of {len(main_steps())}").is_visible()
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


# Where things are on the screen (viewport pixels): the open step's number, its question,
# the verdict on the answer given, and the view's first chart (not in the prompt).
ON_SCREEN = """([stepLine, answered]) => {
  const rect = (e) => { if (!e) return null; const r = e.getBoundingClientRect();
                        return {top: r.top, bottom: r.bottom, width: r.width}; };
  const main = document.querySelector('[data-testid="stMain"]');
  const prompt = main.querySelector('.st-key-tour_prompt');
  const chart = Array.from(main.querySelectorAll('.js-plotly-plot'))
      .find((p) => !p.closest('.st-key-tour_prompt'));
  const verdict = Array.from(prompt.querySelectorAll('[data-testid="stMarkdownContainer"]'))
      .filter((e) => e.innerText.includes(answered)).pop();
  const header = document.querySelector('[data-testid="stHeader"]');
  return {step: rect(Array.from(prompt.querySelectorAll('p'))
                       .find((e) => e.innerText.startsWith(stepLine))),
          verdict: rect(verdict), chart: rect(chart),
          header: header ? header.getBoundingClientRect().bottom : 0};
}"""


CHART_ON_SCREEN = f"""([height, words]) => {{ const at = ({ON_SCREEN})(words);
  return at.chart && at.chart.top >= at.header - 1 && at.chart.bottom <= height + 1; }}"""


ENGLISH = ["Step ", "(your answer)"]


def answer_on_the_projector(page, url: str, words: list[str], open_view: str) -> dict:
    """Open a step's view from the tour at ``url``, answer its question with the first
    option and wait for the view's first chart to come to rest: where things are."""
    page.goto(url)
    wait_until_idle(page)
    page.get_by_role("button", name=open_view).click()
    option = page.locator(".st-key-tour_prompt [role='radiogroup'] label").first
    option.click()
    page.locator(".st-key-tour_prompt").get_by_text(words[1]).wait_for()
    wait_until_idle(page, min_charts=1)
    assert_no_exception(page)
    # The view is scrolled once its first chart is drawn: wait for it to come to rest.
    page.wait_for_function(CHART_ON_SCREEN, arg=[PROJECTOR["height"], words], timeout=60_000)
    return page.evaluate(ON_SCREEN, words)


def assert_fits_one_screen(number: int, at: dict) -> None:
    for name in ("step", "verdict"):
        assert at["header"] <= at[name]["top"], (number, name, at)
        assert at[name]["bottom"] <= PROJECTOR["height"], (number, name, at)
    assert at["chart"]["width"] >= 300, (number, at)


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_every_step_answered_on_the_projector_fits_one_screen(server, browser, scheme):
    """Issue 35: at 1280 × 720 in projector mode, once a step's question is answered, its
    number, the question's verdict and the view's first chart are all on the first screen
    (the prompt pinned beside the view, the view brought to its first chart)."""
    page = new_page(browser, viewport=PROJECTOR, color_scheme=scheme)
    for number in range(1, len(main_steps()) + 1):
        at = answer_on_the_projector(page, f"{server.url}/tour?step={number}&projector=1",
                                     ENGLISH, "Open this view")
        assert_fits_one_screen(number, at)
        shot(page, f"tour-projector-{scheme}-step-{number}-answered")
    page.context.close()


def chinese_words() -> tuple[list[str], str]:
    """ON_SCREEN's words and the Open button's name in zh-CN, from the catalog."""
    with use_language("zh-CN"):
        step_line = _("**Step {number} of {count}** · {title}").replace("**", "")
        answered = _("{mark} **{answer}** (your answer)").split("**")[-1]
        return [step_line.split("{number}")[0], answered], _("Open this view")


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_the_tour_in_chinese_on_the_projector_fits_one_screen(server, browser, scheme):
    """Issue 37: the tour in zh-CN at 1280 × 720 in projector mode (Chinese text is denser,
    titles wrap otherwise): answered steps (the Explorer, Choosing γ, Classification) keep
    the step's line, the verdict and the first chart on the first screen, in Chinese."""
    words, open_view = chinese_words()
    page = new_page(browser, viewport=PROJECTOR, color_scheme=scheme)
    for number in (1, 5, 9):
        url = f"{server.url}/tour?step={number}&projector=1&lang=zh-CN"
        at = answer_on_the_projector(page, url, words, open_view)
        assert_fits_one_screen(number, at)
        prompt = page.locator(".st-key-tour_prompt").inner_text()
        assert re.search(r"[\u4e00-\u9fff]", prompt) and "Step " not in prompt, prompt
        shot(page, f"tour-zh-CN-projector-{scheme}-step-{number}-answered")
    page.context.close()


def test_the_tour_in_chinese_on_a_phone(server, browser):
    """Issue 37: the tour's first step in zh-CN on a 390 × 844 touch phone: the question,
    its options and the verdict in Chinese, nothing wider than the screen."""
    words, open_view = chinese_words()
    page = new_page(browser, viewport={"width": 390, "height": 844}, is_mobile=True,
                    has_touch=True)
    page.goto(f"{server.url}/tour?step=1&lang=zh-CN")
    wait_until_idle(page)
    assert_no_exception(page)
    page.get_by_role("button", name=open_view).click()
    prompt = page.locator(".st-key-tour_prompt")
    prompt.locator("[role='radiogroup'] label").first.tap()
    prompt.get_by_text(words[1]).wait_for()
    wait_until_idle(page, min_charts=1)
    assert_no_exception(page)
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    assert re.search(r"[\u4e00-\u9fff]", prompt.inner_text())
    shot(page, "tour-zh-CN-phone-step-1-answered")
    page.context.close()


def test_arrow_keys_move_among_the_options_and_only_space_answers(server, page):
    """A prediction is not made by a key meant to look at the options (issue 35): the
    arrows move the focus, Space answers with the focused option."""
    page.goto(f"{server.url}/tour?step=1")
    wait_until_idle(page)
    page.get_by_role("button", name="Open this view").click()
    prompt = page.locator(".st-key-tour_prompt")
    radios = prompt.locator("input[type='radio']")
    radios.first.wait_for(state="attached")
    wait_until_idle(page)
    radios.first.focus()
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowDown")
    page.keyboard.press("ArrowUp")
    page.keyboard.press("ArrowRight")
    focused = page.evaluate("() => [...document.querySelectorAll("
                            "'.st-key-tour_prompt input[type=radio]')]"
                            ".indexOf(document.activeElement)")
    assert focused == 2
    page.wait_for_timeout(500)  # time for a rerun an answer would start
    wait_until_idle(page)
    assert not any(radios.nth(i).is_checked() for i in range(radios.count()))
    assert prompt.get_by_text("(your answer)").count() == 0
    assert page.locator(".js-plotly-plot").count() == 0  # the view still waits
    page.keyboard.press("Space")
    prompt.get_by_text("(your answer)").wait_for()
    assert radios.nth(2).is_checked()
    assert "Hardly (< 70 %) (your answer): Right" in prompt.inner_text()
