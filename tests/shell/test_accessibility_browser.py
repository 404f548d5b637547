"""Real browser: axe-core finds no serious or critical WCAG 2.1 AA violation on any page.

Every page of the menu (``shell.registry``: home and each lesson) is opened in turn on one
server, at small settings so the whole run stays short, and scanned once it has finished
drawing. The page is tall (``tests.support.browser.VIEWPORT``) so that axe sees every
element on screen: it does not judge the contrast of text scrolled out of view.
"""

from __future__ import annotations

import pytest

from shell.registry import HOME, LESSONS
from tests.support.browser import assert_no_exception, new_page, wait_until_idle

axe_sync = pytest.importorskip("axe_playwright_python.sync_playwright")

SMALL = "dataset=circles&n=200&kernel=rbf&gamma=5"
WCAG_21_AA = ["wcag2a", "wcag2aa", "wcag21a", "wcag21aa"]
BLOCKING = {"serious", "critical"}
PAGES = [HOME, *LESSONS]


def blocking_violations(page) -> list[str]:
    """axe's serious and critical WCAG 2.1 A/AA violations on the page, one line each."""
    options = {"runOnly": {"type": "tag", "values": WCAG_21_AA}, "resultTypes": ["violations"]}
    results = axe_sync.Axe().run(page, options=options).response
    return [
        f"{v['id']} ({v['impact']}, {len(v['nodes'])}×): {v['help']} — e.g. "
        f"{v['nodes'][0]['target']} {v['nodes'][0]['failureSummary']!r}"
        for v in results["violations"]
        if v["impact"] in BLOCKING
    ]


def violations_on_every_page(server, browser, scheme: str) -> str:
    """Each page's blocking violations, one line each ("" when there are none)."""
    page = new_page(browser, color_scheme=scheme)
    found = []
    try:
        for lesson in PAGES:
            path = "" if lesson is HOME else lesson.url_path
            page.goto(f"{server.url}/{path}?{SMALL}")
            wait_until_idle(page)
            assert_no_exception(page)
            found += [f"{lesson.title}: {line}" for line in blocking_violations(page)]
    finally:
        page.context.close()
    return "\n".join(found)


def test_every_page_in_the_light_theme_has_no_serious_wcag_violation(server, browser):
    assert violations_on_every_page(server, browser, "light") == ""


@pytest.mark.slow  # the whole menu a second time; the light run above is the quick check
def test_every_page_in_the_dark_theme_has_no_serious_wcag_violation(server, browser):
    assert violations_on_every_page(server, browser, "dark") == ""
