"""Real browser: the app on the screens it is used on, a laptop, a projector and a phone.

Measured on what Chromium draws: pixels per unit on a scatter's two axes, where the
charts of a pair sit in projector mode (tests/lessons/explorer/test_layout_browser.py),
whether a swipe over a chart scrolls the page.
"""

from __future__ import annotations

import pytest

from tests.support.browser import (
    HAS_CHROMIUM,
    PHONE_AGENT,
    SCROLLED,
    assert_no_exception,
    new_page,
    swipe_up,
    touch_drag,
    wait_for_charts_at_width,
    wait_for_layout,
    wait_for_title,
    wait_until_idle,
)

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium"),
]

LAPTOP = {"width": 1280, "height": 800}
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}


def open_page(browser, url: str, viewport: dict, **context):
    """A fresh context at ``viewport``, ``url`` loaded, its run over and every chart drawn at
    its final size."""
    page = new_page(browser, viewport=viewport, **context)
    page.goto(url)
    wait_until_idle(page, min_charts=1)
    wait_for_charts_at_width(page)
    assert_no_exception(page)
    return page


# y pixels per unit over x pixels per unit, on every subplot of each chart (by title).
_SCALES = """() => Object.fromEntries([...document.querySelectorAll('.js-plotly-plot')]
  .filter(g => g._fullLayout.xaxis && !g._fullLayout.scene).map(g => {
    const L = g._fullLayout, ratios = [];
    for (const name of Object.keys(L).filter(k => /^yaxis\\d*$/.test(k))) {
      const y = L[name], x = L['xaxis' + y.anchor.slice(1)];
      ratios.push((y._length / Math.abs(y.range[1] - y.range[0]))
                  / (x._length / Math.abs(x.range[1] - x.range[0])));
    }
    return [(L.title.text || '').replace(/<[^>]+>/g, ' '), ratios];
  }))"""


@pytest.mark.parametrize("viewport", [LAPTOP, PHONE], ids=["1280x800", "390x844"])
def test_input_space_and_projections_are_drawn_to_scale(server, browser, viewport):
    # The issue measured 0.53 (input space at 1280 × 800) and 2.03 (on a phone).
    page = open_page(browser, f"{server.url}/explorer", viewport)
    scales = page.evaluate(_SCALES)
    drawn = {title.split()[0] + " " + title.split()[1]: ratios for title, ratios in scales.items()}
    for chart in ("Kernel PCA", "Linear PCA", "Input space:"):
        assert drawn[chart] == pytest.approx([1.0], rel=0.03), (chart, scales)
    page.goto(f"{server.url}/component_maps")  # the input plane, eight panels
    page.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')]"
                           ".some(c => c._fullLayout && c._fullLayout.yaxis8)")
    wait_until_idle(page, min_charts=1)
    wait_for_charts_at_width(page)
    (maps,) = [r for t, r in page.evaluate(_SCALES).items() if "components over the plane" in t]
    assert maps == pytest.approx([1.0] * 8, rel=0.03)
    page.context.close()


def test_on_a_phone_a_swipe_over_a_chart_scrolls_the_page(server, browser):
    # From a phone's browser the charts open with dragging off (Plotly then lets a touch
    # scroll the page); the same page on a laptop keeps its drag (zoom). Charts with a
    # linked selection are not among them: Streamlit sets their drag to the selection.
    dragmodes = ("() => [...document.querySelectorAll('.js-plotly-plot')]"
                 ".map(c => c._fullLayout.dragmode)")
    phone = open_page(browser, f"{server.url}/kernel_trick", PHONE, user_agent=PHONE_AGENT,
                      is_mobile=True, has_touch=True)
    modes = phone.evaluate(dragmodes)
    assert modes and all(mode is False for mode in modes), modes
    phone.context.close()
    laptop = open_page(browser, f"{server.url}/kernel_trick", LAPTOP)
    modes = laptop.evaluate(dragmodes)
    assert modes and all(mode is not False for mode in modes), modes
    laptop.context.close()


# The script a change adds to close the drawer on a narrow screen (shell.display), each
# with the change's number: "" before the first change.
DRAWER_SCRIPT = """() => [...document.querySelectorAll('script')].map(s => s.textContent)
  .filter(text => text.includes('close the sidebar if it is a drawer')).join()"""


def test_on_a_phone_the_drawer_closes_after_a_change_and_shows_its_result(server, browser):
    # The sidebar is a drawer over 77 % of a phone's screen: after γ changes it closes,
    # and the chart under it shows the new γ. On a laptop the same change leaves the
    # sidebar open beside the charts.
    link = f"{server.url}/explorer?dataset=circles&n=200&kernel=rbf&gamma=5&seed=4"
    collapse = '[data-testid="stSidebarCollapseButton"] button'
    for viewport, phone in ((PHONE, True), (LAPTOP, False)):
        extra = dict(user_agent=PHONE_AGENT, is_mobile=True, has_touch=True) if phone else {}
        page = new_page(browser, viewport=viewport, **extra)
        try:
            page.goto(link)
            wait_until_idle(page, min_charts=1)
            sidebar = page.locator('[data-testid="stSidebar"]')
            if phone:
                page.locator('[data-testid="stExpandSidebarButton"]').tap()
                page.wait_for_selector(f'{collapse}[aria-expanded="true"]')
                page.wait_for_function("() => document.querySelector("
                                       "'[data-testid=stSidebar]').getBoundingClientRect().x >= 0")
                wait_for_layout(page)  # the drawer has slid in and stopped
                assert sidebar.bounding_box()["x"] >= 0
            before = page.evaluate(DRAWER_SCRIPT)
            slider = sidebar.get_by_role("slider", name="γ (log scale)")
            slider.focus()
            page.keyboard.press("ArrowRight")  # 5 → 10
            wait_until_idle(page, min_charts=1)
            wait_for_title(page, "γ = 10")
            assert "gamma=10" in page.url
            # The change's script has run (it closes a drawer, and leaves a sidebar beside
            # the page as it is), and the drawer has finished sliding.
            page.wait_for_function(f"before => ({DRAWER_SCRIPT})() !== before", arg=before)
            wait_for_layout(page)
            box = sidebar.bounding_box()
            if phone:
                assert page.locator(collapse).count() == 0  # collapsed
                assert box is None or box["x"] + box["width"] <= 0, box  # off the screen
                title = page.locator(".gtitle", has_text="γ = 10").first.bounding_box()
                assert title and 0 <= title["x"] < viewport["width"], title
            else:
                assert box["x"] == 0 and box["width"] > 200, box  # still open
            assert_no_exception(page)
        finally:
            page.context.close()


def test_on_a_phone_a_swipe_over_the_explorers_selectable_charts_scrolls(server, browser):
    # The projections are selectable (a linked lasso), which Streamlit gives a selection
    # drag that keeps a touch from scrolling: on a phone they are selectable only once
    # 'Select points with a finger' is on, and a swipe over them scrolls the page.
    phone = open_page(browser, f"{server.url}/explorer?dataset=circles", PHONE,
                      user_agent=PHONE_AGENT, is_mobile=True, has_touch=True)
    modes = phone.evaluate("() => [...document.querySelectorAll('.js-plotly-plot')]"
                           ".map(c => c._fullLayout.dragmode)")
    assert modes and all(mode is False for mode in modes), modes
    for title in ("Kernel PCA", "Linear PCA"):
        chart = phone.locator(".js-plotly-plot").filter(
            has=phone.locator(".gtitle", has_text=title)).locator(".nsewdrag").first
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        before = phone.evaluate(SCROLLED)
        swipe_up(phone, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
        assert phone.evaluate(SCROLLED) > before + 100, title
    # With the switch on, the same charts select (a box), and a swipe over them scrolls no more.
    phone.get_by_text("Select points with a finger", exact=True).click()
    phone.wait_for_function("() => [...document.querySelectorAll('.js-plotly-plot')]"
                            ".some(c => ['select', 'lasso'].includes(c._fullLayout.dragmode))")
    assert_no_exception(phone)
    chart = phone.locator(".js-plotly-plot").filter(
        has=phone.locator(".gtitle", has_text="Kernel PCA")).locator(".nsewdrag").first
    chart.scroll_into_view_if_needed()
    box = chart.bounding_box()
    before = phone.evaluate(SCROLLED)
    swipe_up(phone, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.8)
    assert phone.evaluate(SCROLLED) == pytest.approx(before, abs=5)
    phone.context.close()


# Per chart: whether it draws a 3-D scene, and its live camera's eye (Plotly updates the
# layout's camera only after a mouse drag, not a touch one: the scene itself is asked).
CHART_STATE = """g => { const scene = g._fullLayout.scene && g._fullLayout.scene._scene;
  return {threeD: !!scene, eye: scene ? scene.getCamera().eye : null}; }"""


def test_on_a_phone_a_swipe_over_every_chart_scrolls_and_a_3d_view_turns_once_asked(
        server, browser):
    # The kernel trick's page has 2-D charts and a 3-D one. Plotly's 3-D camera cancels
    # every touch move whatever the drag mode (the issue: a 3-D chart neither scrolled nor
    # turned): on a phone the scene ignores touches until its switch is on.
    phone = open_page(browser, f"{server.url}/kernel_trick", PHONE, user_agent=PHONE_AGENT,
                      is_mobile=True, has_touch=True)
    charts = phone.locator(".js-plotly-plot")
    kinds = []
    for i in range(charts.count()):
        chart = charts.nth(i)
        chart.scroll_into_view_if_needed()
        box = chart.bounding_box()
        state = chart.evaluate(CHART_STATE)
        kinds.append(state["threeD"])
        before = phone.evaluate(SCROLLED)
        swipe_up(phone, box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.7)
        assert phone.evaluate(SCROLLED) > before + 100, (i, state)
        assert chart.evaluate(CHART_STATE) == state  # the 3-D view did not turn
    assert True in kinds and False in kinds, kinds
    # No Plotly mode bar over a title (a tap showed it across the phone's chart).
    assert phone.locator(".modebar").count() == 0
    # Switched on, the 3-D view turns under a finger, and the page stays where it is.
    phone.get_by_text("Turn this 3-D view with a finger", exact=True).tap()
    phone.wait_for_function("() => [...document.querySelectorAll('.gl-container')].every("
                            "c => getComputedStyle(c).pointerEvents !== 'none')")
    wait_until_idle(phone, min_charts=1)
    assert_no_exception(phone)
    lifted = charts.filter(has=phone.locator(".gtitle", has_text="lifted into 3-D"))
    lifted.scroll_into_view_if_needed()
    box = lifted.bounding_box()
    before, eye = phone.evaluate(SCROLLED), lifted.evaluate(CHART_STATE)["eye"]
    middle = (box["x"] + box["width"] / 2, box["y"] + box["height"] * 0.6)
    touch_drag(phone, (middle[0] - 100, middle[1]), (middle[0] + 100, middle[1] - 60))
    assert lifted.evaluate(CHART_STATE)["eye"] != eye
    assert phone.evaluate(SCROLLED) == pytest.approx(before, abs=5)
    assert lifted.locator(".modebar").count() == 1  # the turned view's camera reset
    phone.context.close()
