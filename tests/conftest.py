"""Fixtures shared across test folders: one Chromium and one app server per test session.

Defined once here (not per folder) so that the browser tests and the deployment smoke
test share a single Playwright instance: two sync Playwright instances cannot run in one
thread.
"""

from __future__ import annotations

import pytest

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, VIEWPORT, Server
from tests.support.downloads import downloads  # noqa: F401  (a fixture: pytest finds it here)


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def page(browser):
    context = browser.new_context(viewport=VIEWPORT)
    tab = context.new_page()
    tab.set_default_timeout(TIMEOUT_MS)
    yield tab
    context.close()
