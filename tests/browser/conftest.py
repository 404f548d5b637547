"""Fixtures for the real-browser tests: one Chromium and one app server per test session."""

from __future__ import annotations

import pytest

from tests.browser.harness import CHROMIUM, CHROMIUM_ARGS, TIMEOUT_MS, VIEWPORT, Server

playwright_api = pytest.importorskip("playwright.sync_api")


@pytest.fixture(scope="session")
def browser():
    with playwright_api.sync_playwright() as p:
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
