"""Real browser walk of the Scale page: measure, read the slopes, move the m slider.

Screenshots in tests/artifacts/ (scale-*.png) at the harness's tall viewport (the whole
page) and at 1280 × 800 and 800 × 900 (what a laptop and a narrow window show).
"""

from __future__ import annotations

import re

from tests.support.browser import (
    assert_no_exception,
    chart_titles,
    new_page,
    shot,
    wait_for_layout,
    wait_for_title,
    wait_until_idle,
)

URL = "/scale?dataset=circles&n=200&kernel=rbf&gamma=10"
APPROX_CHARTS = 7  # eigenvalues, four sweeps, two overlays (+ the memory model)


def test_scale_page_measures_and_redraws(server, page):
    page.goto(server.url + URL)
    wait_until_idle(page, min_charts=APPROX_CHARTS + 1)
    assert_no_exception(page)
    page.get_by_role("heading", name="Scale").first.wait_for()
    page.get_by_text("The guard would refuse").wait_for()
    assert not any(t.startswith("Time of each step") for t in chart_titles(page))

    # A short range keeps the walk quick: upper end 2,000 → 500 (six steps of the ladder).
    thumbs = page.locator('[data-testid="stSlider"]').filter(has_text="Range of n")
    thumbs.get_by_role("slider").nth(1).focus()
    for _ in range(6):
        page.keyboard.press("ArrowLeft")
    page.get_by_role("button", name="Measure").click()
    wait_for_title(page, "Time of each step against n")
    wait_until_idle(page, min_charts=APPROX_CHARTS + 2)
    assert_no_exception(page)
    legend = page.locator(".js-plotly-plot .legendtext").all_text_contents()
    slopes = [t for t in legend if "slope" in t]
    assert len(slopes) == 5, legend
    for text in slopes:
        match = re.search(r"slope (-?\d+\.\d\d) \(theory (\d)\)", text)
        assert match, text
    assert any("auto" in t for t in legend)
    timing = page.locator(".js-plotly-plot").filter(has_text="Time of each step")
    ticks = timing.locator(".xtick text").all_text_contents()
    assert "500" in ticks and "2,000" not in ticks, ticks  # the range the slider set
    shot(page, "scale-measured")

    slider = page.locator('[data-testid="stSlider"]').filter(has_text="m: landmarks")
    slider.get_by_role("slider").focus()
    page.keyboard.press("ArrowLeft")  # m = 100 → 50
    wait_for_title(page, "Nyström (m = 50) over exact")
    wait_until_idle(page, min_charts=APPROX_CHARTS + 2)
    assert_no_exception(page)
    # The measurement is kept: changing m does not throw it away.
    assert any(t.startswith("Time of each step") for t in chart_titles(page))


def test_scale_page_at_laptop_and_narrow_sizes(server, browser):
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    context = page.context
    try:
        page.goto(server.url + URL)
        wait_until_idle(page, min_charts=2)
        for width, height in ((1280, 800), (800, 900)):
            page.set_viewport_size({"width": width, "height": height})
            page.get_by_role("heading", name="Scale").first.scroll_into_view_if_needed()
            wait_for_layout(page)
            assert_no_exception(page)
            shot(page, f"scale-{width}x{height}-top")
            page.get_by_role("heading", name="3 · Approximations").scroll_into_view_if_needed()
            shot(page, f"scale-{width}x{height}-approximations")
    finally:
        context.close()
