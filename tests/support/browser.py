"""The browser tests' helpers on top of the harness they share with the load tests
(``loadtest/browser.py``: the server, Chromium, the waits): the tests' own waits,
screenshots, chart titles, the menu.
"""

from __future__ import annotations

import re

from loadtest.browser import (  # noqa: F401  (the harness, for the test modules)
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    HAS_CHROMIUM,
    ROOT,
    SERVER_QUIET_MS,
    TIMEOUT_MS,
    VIEWPORT,
    Server,
    new_page,
    wait_for_layout,
    wait_until_idle,
)

EXCEPTION = '[data-testid="stException"]'
CHART = ".js-plotly-plot"


# Every chart drawn at the width of its place in the page: Streamlit hands a chart its
# container's width and Plotly lays it out again when that changes (a scroll bar appears,
# a column settles), so a chart measured before then shows the earlier width's scales.
CHARTS_AT_WIDTH = """() => [...document.querySelectorAll('.js-plotly-plot')].every(c =>
  c._fullLayout && Math.abs(c._fullLayout.width
    - c.closest('[data-testid="stElementContainer"]').clientWidth) <= 1)"""
# The server has sent nothing for this long, and the script is not running (after
# wait_until_idle): no further run is under way, nor a page switch that one might start.
QUIET = """(quietMs) => document.querySelector('[data-testid="stApp"]')
  ?.dataset.testScriptState === "notRunning"
  && performance.now() - window.__kpcaRuns.received >= quietMs"""


def wait_for_charts_at_width(page) -> None:
    """Wait until every chart is laid out at its container's width and nothing on the page
    moves or resizes any more: the charts' final sizes."""
    page.wait_for_function(CHARTS_AT_WIDTH)
    wait_for_layout(page)


def wait_until_quiet(page) -> None:
    """Wait until the page is idle (``wait_until_idle``) and the server has then stayed
    silent for ``SERVER_QUIET_MS``: what a click led to has all arrived (a page ``new_page``
    opened, with the run tracker)."""
    wait_until_idle(page)
    page.wait_for_function(QUIET, arg=SERVER_QUIET_MS)


def next_frame(page) -> None:
    """Wait for the browser's next animation frame (one step of a gesture at the screen's
    pace)."""
    page.evaluate("() => new Promise(resolve => requestAnimationFrame(() => resolve()))")


def shot(page, name: str) -> None:
    wait_for_layout(page)
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def chart_titles(page) -> list[str]:
    # SVG text has no innerText; textContent works.
    return page.locator(f"{CHART} .gtitle").evaluate_all("els => els.map(e => e.textContent)")


def wait_for_title(page, text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('.gtitle')].some(t => t.textContent.includes(text))",
        arg=text,
    )


def wait_for_text(locator, text: str, timeout_ms: float = 30_000) -> None:
    """Wait until ``text`` shows inside ``locator``; else fail saying what it shows."""
    try:
        locator.get_by_text(text).first.wait_for(timeout=timeout_ms)
    except Exception as timeout:
        shown = locator.inner_text() if locator.count() else "(not on the page)"
        raise AssertionError(f"{text!r} not shown; the place shows:\n{shown}") from timeout


def start_class(lecturer, server_url: str) -> str:
    """The lecturer's page opens Class tally and starts a class; returns the join link it
    shows (``…/tour?class=CODE``)."""
    lecturer.goto(f"{server_url}/class_tally")
    wait_until_idle(lecturer)
    lecturer.get_by_role("button", name="Start a class").click()
    link = lecturer.get_by_text(re.compile(r"/tour\?class=")).first
    link.wait_for()
    return re.search(r"http\S+/tour\?class=\w+", link.inner_text()).group(0)


def assert_no_exception(page) -> None:
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()


def explorer_charts(page) -> int:
    return page.locator(f"{CHART}").count()


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar selectbox labelled ``label``."""
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


# The menu is in the header (app.py: st.navigation(position="top")): top-level pages are
# links, the lessons sit in section drop-downs.
TOP_NAV = '[data-testid="stTopNav"]'


def _section_of(title: str) -> str:
    from shell.registry import HOME, LESSONS

    for item in (HOME, *LESSONS):
        if item.title == title:
            return item.section
    raise ValueError(f"no page titled {title!r} in shell.registry")


def open_from_menu(page, title: str) -> None:
    """Click the page titled ``title`` in the header menu, opening its section first."""
    section = _section_of(title)
    nav = page.locator(TOP_NAV)
    if not section:
        nav.locator('[data-testid="stTopNavLink"]').filter(has_text=title).first.click()
        return
    nav.locator('[data-testid="stTopNavSection"]').filter(has_text=section).first.click()
    page.locator('[data-testid="stTopNavDropdownLink"]').filter(has_text=title).first.click()


def active_page_title(page) -> str:
    """The title of the page the menu marks as current (opening its section if needed)."""
    current = page.locator(f'{TOP_NAV} [data-testid="stTopNavLink"][aria-current="page"]')
    if current.count():
        return current.first.inner_text().split("\n")[-1]
    for section in page.locator(f'{TOP_NAV} [data-testid="stTopNavSection"]').all():
        # On a narrow header the last sections fold into "N more" (itself a section); the
        # folded ones stay in the page, inert, for Streamlit to measure.
        if section.evaluate("e => e.closest('[inert]') !== null") or not section.is_visible():
            continue
        section.click()
        link = page.locator('[data-testid="stTopNavDropdownLink"][aria-current="page"]')
        if link.count():
            title = link.first.inner_text().split("\n")[-1]
            page.keyboard.press("Escape")
            return title
        page.keyboard.press("Escape")
    return ""


# What a phone's browser says it is (Safari on an iPhone): the app takes its touch
# behaviour from it, as it would from a real phone.
PHONE_AGENT = ("Mozilla/5.0 (iPhone; CPU iPhone OS 17_0 like Mac OS X) AppleWebKit/605.1.15 "
               "(KHTML, like Gecko) Version/17.0 Mobile/15E148 Safari/604.1")


# The page's scroll position: Streamlit scrolls its main section, not the window.
SCROLLED = """() => Math.max(window.scrollY, ...[...document.querySelectorAll('*')]
  .filter(e => e.scrollHeight > e.clientHeight + 10).map(e => e.scrollTop))"""
# Resolves once the scroll position has held for this many animation frames in a row: a
# swipe's scroll, and its fling after the finger lifts, are over.
STILL_FRAMES = 10
SCROLL_SETTLED = f"""(frames) => new Promise(resolve => {{
  const position = {SCROLLED};
  let last = position(), same = 0;
  const tick = () => {{
    const now = position();
    same = now === last ? same + 1 : 0;
    last = now;
    if (same >= frames) resolve(now); else requestAnimationFrame(tick);
  }};
  requestAnimationFrame(tick);
}})"""


def touch_drag(page, start: tuple[float, float], end: tuple[float, float]) -> None:
    """A finger from ``start`` to ``end`` (page pixels) in ten steps, as touch events
    through Chromium's input pipeline; returns once the page has stopped scrolling."""
    cdp = page.context.new_cdp_session(page)
    (x0, y0), (x1, y1) = start, end
    cdp.send("Input.dispatchTouchEvent", {"type": "touchStart",
                                          "touchPoints": [{"x": x0, "y": y0}]})
    for step in range(1, 11):
        x, y = x0 + (x1 - x0) * step / 10, y0 + (y1 - y0) * step / 10
        cdp.send("Input.dispatchTouchEvent", {"type": "touchMove",
                                              "touchPoints": [{"x": x, "y": y}]})
        next_frame(page)  # a finger moves once per frame
    cdp.send("Input.dispatchTouchEvent", {"type": "touchEnd", "touchPoints": []})
    page.evaluate(SCROLL_SETTLED, STILL_FRAMES)
    cdp.detach()


def swipe_up(page, x: float, y: float, distance: int = 250) -> None:
    """A finger's swipe up from (x, y): what scrolls a page down on a phone."""
    touch_drag(page, (x, y), (x, y - distance))
