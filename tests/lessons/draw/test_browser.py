"""Real browser: points clicked, tapped, dragged and typed onto the Draw page's plane reach
kernel PCA: K's size and the projections' point counts follow each edit.

Screenshots go to tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import (
    PHONE_AGENT,
    SCROLLED,
    assert_no_exception,
    new_page,
    shot,
    swipe_up,
    touch_drag,
    wait_for_title,
    wait_until_idle,
)

PLANE = "svg.plane"  # inside the component's shadow root: Playwright's CSS pierces it


def points_in(page, title_start: str) -> int:
    """Markers drawn in the Plotly chart whose title starts with ``title_start``."""
    return page.evaluate(
        """start => {
            const plot = [...document.querySelectorAll('.js-plotly-plot')].find(
                p => (p.querySelector('.gtitle')?.textContent || '').startsWith(start));
            return plot ? plot.querySelectorAll('.scatterlayer .point').length : -1;
        }""",
        title_start,
    )


def click_plane(page, fx: float, fy: float) -> None:
    """A click at a fraction (fx, fy) of the plane's width and height, from its top left."""
    box = page.locator(PLANE).bounding_box()
    page.mouse.click(box["x"] + fx * box["width"], box["y"] + fy * box["height"])


@pytest.mark.browser
def test_clicks_on_the_plane_become_points_that_kernel_pca_follows(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}/draw")
    wait_until_idle(page, min_charts=5)
    assert_no_exception(page)
    wait_for_title(page, "Kernel matrix K (60 × 60)")  # 120 points in blocks of 2

    page.get_by_role("button", name="Clear").click()
    page.get_by_text("So far 0 points drawn").wait_for()
    spots = [(0.2, 0.2), (0.25, 0.3), (0.3, 0.22), (0.75, 0.7), (0.8, 0.8), (0.7, 0.78)]
    for i, (fx, fy) in enumerate(spots):
        if i == 3:
            page.get_by_role("button", name="Add points of class B").click()
        click_plane(page, fx, fy)
        page.locator(".status").get_by_text(f"{i + 1} of at most 300 points").wait_for()
        wait_until_idle(page)
    wait_for_title(page, "Kernel matrix K (6 × 6)")
    assert points_in(page, "Kernel PCA: 6 points") == 6
    assert points_in(page, "Linear PCA: 6 points") == 6
    assert re.search(r"[?&]points=1[A-Za-z0-9_-]{24}(&|$)", page.url), page.url
    assert_no_exception(page)

    # The keyboard: the cross starts at the centre; Enter adds a point of class B there.
    page.locator(PLANE).focus()
    page.keyboard.press("ArrowUp")
    page.keyboard.press("Enter")
    wait_for_title(page, "Kernel matrix K (7 × 7)")
    wait_until_idle(page)
    assert points_in(page, "Kernel PCA: 7 points") == 7
    # Drag the first point across the plane, then erase it: K follows, 7 then 6.
    box = page.locator(PLANE).bounding_box()
    start = (box["x"] + 0.2 * box["width"], box["y"] + 0.2 * box["height"])
    page.mouse.move(*start)
    page.mouse.down()
    page.mouse.move(start[0] + 40, start[1] + 60, steps=5)
    page.mouse.up()
    wait_until_idle(page)
    page.get_by_role("button", name="Erase").click()
    page.mouse.click(start[0] + 40, start[1] + 60)
    wait_for_title(page, "Kernel matrix K (6 × 6)")
    wait_until_idle(page)
    assert points_in(page, "Kernel PCA: 6 points") == 6
    assert_no_exception(page)
    shot(page, "draw-clicked-1280x800")


@pytest.mark.browser
def test_taps_on_a_phone_add_points(server, browser):
    page = new_page(browser, viewport={"width": 390, "height": 844}, has_touch=True,
                    is_mobile=True)
    try:
        page.goto(f"{server.url}/draw")
        wait_until_idle(page, min_charts=5)
        page.get_by_role("button", name="Clear").click()
        page.get_by_text("So far 0 points drawn").wait_for()
        page.locator(PLANE).scroll_into_view_if_needed()
        for i, (fx, fy) in enumerate([(0.2, 0.3), (0.5, 0.6), (0.7, 0.2)]):
            box = page.locator(PLANE).bounding_box()
            page.touchscreen.tap(box["x"] + fx * box["width"], box["y"] + fy * box["height"])
            page.locator(".status").get_by_text(f"{i + 1} of at most 300 points").wait_for()
            wait_until_idle(page)
        wait_for_title(page, "Kernel matrix K (3 × 3)")
        assert points_in(page, "Kernel PCA: 3 points") == 3
        assert_no_exception(page)
    finally:
        page.context.close()


@pytest.mark.browser
def test_on_a_phone_a_swipe_over_the_plane_scrolls_and_move_drags_a_point(server, browser):
    # The issue: a swipe over the plane added or dragged a point instead of scrolling. A
    # swipe scrolls and adds nothing; a finger moves a point only with Move.
    page = new_page(browser, viewport={"width": 390, "height": 844}, has_touch=True,
                    is_mobile=True, user_agent=PHONE_AGENT)
    try:
        page.goto(f"{server.url}/draw")
        wait_until_idle(page, min_charts=5)
        status = page.locator(".status")
        drawn = int(re.match(r"\d+", status.inner_text()).group())
        page.locator(PLANE).scroll_into_view_if_needed()
        box = page.locator(PLANE).bounding_box()
        before = page.evaluate(SCROLLED)
        swipe_up(page, box["x"] + 0.5 * box["width"], box["y"] + 0.8 * box["height"])
        assert page.evaluate(SCROLLED) > before + 100
        wait_until_idle(page)
        assert status.inner_text().startswith(f"{drawn} of at most")

        page.get_by_role("button", name="Clear").tap()
        page.get_by_text("So far 0 points drawn").wait_for()
        page.locator(PLANE).scroll_into_view_if_needed()
        box = page.locator(PLANE).bounding_box()
        page.touchscreen.tap(box["x"] + 0.3 * box["width"], box["y"] + 0.3 * box["height"])
        status.get_by_text("1 of at most 300 points").wait_for()
        wait_until_idle(page)
        link = page.url
        page.get_by_role("button", name=re.compile("^Move points")).tap()
        point = page.locator(f"{PLANE} .point").first.bounding_box()
        start = (point["x"] + point["width"] / 2, point["y"] + point["height"] / 2)
        before = page.evaluate(SCROLLED)
        touch_drag(page, start, (start[0] + 0.3 * box["width"], start[1] + 0.3 * box["height"]))
        assert page.evaluate(SCROLLED) == pytest.approx(before, abs=5)
        moved = page.locator(f"{PLANE} .point").first.bounding_box()
        assert moved["x"] - point["x"] == pytest.approx(0.3 * box["width"], abs=6)
        assert moved["y"] - point["y"] == pytest.approx(0.3 * box["height"], abs=6)
        page.wait_for_url(lambda url: url != link)  # Python took the moved point
        wait_until_idle(page)
        page.touchscreen.tap(box["x"] + 0.8 * box["width"], box["y"] + 0.2 * box["height"])
        page.wait_for_timeout(300)
        assert status.inner_text().startswith("1 of at most")  # Move adds nothing
        assert_no_exception(page)
    finally:
        page.context.close()
