"""The script that brings a view's first chart on screen (classroom/focus.py), in Chromium
on a page of its own that has Streamlit's landmarks: it waits for the chart's final size,
brings it again when its size changes within the next seconds, and leaves alone a person
who scrolls."""

from __future__ import annotations

import pytest

from classroom import focus
from tests.support.browser import new_page

SCREEN = {"width": 1280, "height": 720}
HEADER_PX = 60
# Streamlit's landmarks as the script reads them: the header, the run's state, the main
# column (the page scrolls), a pinned prompt whose chart does not count, the view's chart
# far below the first screen.
PAGE = f"""<!doctype html><html><body style="margin:0">
<div data-testid="stHeader" style="position:fixed;top:0;height:{HEADER_PX}px;width:100%;
     background:#eee;z-index:1"></div>
<div data-testid="stApp" data-test-script-state="notRunning">
  <div data-testid="stMain">
    <div class="st-key-tour_prompt"><div class="js-plotly-plot" id="pinned"
         style="height:50px"></div></div>
    <div style="height:1500px">the page's title and text</div>
    <div class="js-plotly-plot" id="chart" style="height:300px;background:#88f"></div>
    <div style="height:2000px">the rest of the view</div>
  </div>
</div></body></html>"""


def chart_box(page) -> dict:
    return page.evaluate("() => { const r = document.getElementById('chart')"
                         ".getBoundingClientRect(); return {top: r.top, bottom: r.bottom}; }")


def on_screen(page) -> bool:
    box = chart_box(page)
    return box["top"] >= HEADER_PX and box["bottom"] <= SCREEN["height"]


def open_page(browser):
    page = new_page(browser, viewport=SCREEN)
    page.set_content(PAGE)
    script = focus._BRING_SCRIPT.format(run=1, outside=".st-key-tour_prompt")
    body = script.removeprefix("<script>").removesuffix("</script>")
    page.evaluate(f"() => {{ {body} }}")
    return page


@pytest.mark.browser
def test_the_chart_is_brought_once_laid_out_and_again_when_its_size_changes(browser):
    page = open_page(browser)
    page.wait_for_timeout(600)
    assert not on_screen(page)  # Plotly has not laid it out yet: nothing moves
    page.evaluate("() => { document.getElementById('chart')._fullLayout = {}; }")
    page.wait_for_function("() => document.getElementById('chart')"
                           ".getBoundingClientRect().bottom <= 720", timeout=5000)
    assert on_screen(page)
    # The legend laid out anew: the chart grows after it was brought (it ran off the
    # screen's foot) and is brought again, whole.
    page.evaluate("() => { document.getElementById('chart').style.height = '520px'; }")
    assert chart_box(page)["bottom"] > SCREEN["height"]
    page.wait_for_function("() => document.getElementById('chart')"
                           ".getBoundingClientRect().bottom <= 720", timeout=3000)
    assert on_screen(page)
    page.context.close()


@pytest.mark.browser
def test_a_person_who_scrolls_or_presses_is_left_where_they_are(browser):
    page = open_page(browser)
    page.evaluate("() => { document.getElementById('chart')._fullLayout = {}; }")
    page.wait_for_function("() => document.getElementById('chart')"
                           ".getBoundingClientRect().bottom <= 720", timeout=5000)
    # A press (a scroll bar dragged), then the page scrolled away and the chart grown:
    # the watch has ended, the chart is not pulled back.
    page.mouse.move(640, 400)
    page.mouse.down()
    page.mouse.up()
    page.evaluate("() => { window.scrollBy(0, -600); "
                  "document.getElementById('chart').style.height = '520px'; }")
    page.wait_for_timeout(1000)
    assert chart_box(page)["top"] > SCREEN["height"]
    page.context.close()
    # A wheel before the chart is laid out: never brought.
    page = open_page(browser)
    page.mouse.move(640, 400)
    page.mouse.wheel(0, 100)
    page.evaluate("() => { document.getElementById('chart')._fullLayout = {}; }")
    page.wait_for_timeout(1000)
    assert chart_box(page)["top"] > SCREEN["height"]
    page.context.close()
