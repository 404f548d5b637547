"""The shared shell in Chromium: cold deep links keep the sidebar, settings survive
navigation between pages, and a bad link warns instead of failing."""

from __future__ import annotations

import pytest

import datasets
from tests.support.browser import (
    Server,
    assert_no_exception,
    chart_titles,
    choose,
    new_page,
    open_from_menu,
    shot,
    wait_for_title,
    wait_until_idle,
)


@pytest.mark.parametrize(
    ("path", "marker"),
    [("explorer", "Explorer"), ("", "KPCA Lab")],
    ids=["explorer", "home"],
)
def test_cold_deep_link_on_a_fresh_server_keeps_the_shared_sidebar(browser, path, marker):
    """The first request a new server sees is a deep link: app.py must still run."""
    fresh = Server(name=f"cold-{path or 'home'}")
    try:
        page = new_page(browser)
        context = page.context
        page.goto(f"{fresh.url}/{path}?dataset=moons&n=200&kernel=poly&gamma=0.5&degree=2&coef0=1")
        wait_until_idle(page, min_charts=6 if path else 0)
        assert_no_exception(page)
        page.get_by_role("heading", name=marker).first.wait_for()
        sidebar = page.locator('[data-testid="stSidebar"]')
        # The settings widgets come from app.py's shared sidebar, seeded from the link:
        # the moons summary and the polynomial degree slider are only drawn for those.
        text = sidebar.inner_text()
        assert datasets.available()["moons"].summary in text and "Degree d" in text
        assert "degree=2" in page.url and "dataset=moons" in page.url
        if path:
            assert any("Polynomial" in t and "d = 2" in t for t in chart_titles(page))
        shot(page, f"cold-deep-link-{path or 'home'}")
        context.close()
    finally:
        fresh.stop()


def test_navigate_change_kernel_and_slider_and_keep_settings(server, page):
    page.goto(server.url)
    wait_until_idle(page)
    assert_no_exception(page)
    shot(page, "home")

    open_from_menu(page, "Explorer")
    wait_until_idle(page, min_charts=6)
    assert_no_exception(page)
    assert any(t.startswith("Kernel PCA") and "RBF" in t for t in chart_titles(page))
    shot(page, "explorer-default")

    choose(page, "Kernel", "Polynomial")
    wait_until_idle(page, min_charts=6)
    wait_for_title(page, "Polynomial")
    assert "kernel=poly" in page.url

    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(
        has_text="Degree d"
    )
    slider.get_by_role("slider").focus()
    page.keyboard.press("ArrowRight")  # degree 3 → 4
    wait_for_title(page, "d = 4")
    wait_until_idle(page, min_charts=6)
    assert_no_exception(page)
    assert "degree=4" in page.url
    shot(page, "explorer-poly-degree4")

    open_from_menu(page, "Home")
    wait_until_idle(page)
    page.get_by_role("heading", name="KPCA Lab").wait_for()
    assert "degree=4" in page.url  # the link still holds the view
    open_from_menu(page, "Explorer")
    wait_until_idle(page, min_charts=6)
    assert any("Polynomial" in t and "d = 4" in t for t in chart_titles(page))
    assert_no_exception(page)


def test_preset_and_indefinite_kernel(server, page):
    page.goto(server.url)
    wait_until_idle(page)
    page.get_by_role("button", name="Sigmoid: an indefinite kernel").click()
    page.get_by_role("heading", name="Explorer").first.wait_for()
    wait_until_idle(page, min_charts=6)
    assert_no_exception(page)
    assert "kernel=sigmoid" in page.url
    page.get_by_text("negative eigenvalue").first.wait_for()
    shot(page, "explorer-sigmoid-preset")


def test_bad_link_shows_a_warning_not_a_traceback(server, page):
    page.goto(f"{server.url}/explorer?dataset=nope&gamma=-2&degree=0&kernel=poly")
    wait_until_idle(page, min_charts=6)
    assert_no_exception(page)
    page.get_by_text("could not be used").wait_for()
    assert "dataset=circles" in page.url
    shot(page, "explorer-bad-link")
