"""Fixtures shared across test folders: one Chromium and one app server per test session.

Defined once here (not per folder) so that the browser tests and the deployment smoke
test share a single Playwright instance: two sync Playwright instances cannot run in one
thread. Every test in a browser module (``test_browser.py``, ``test_*_browser.py``) is
marked here, once: ``browser``, and skipped where Debian's chromium is missing.
"""

from __future__ import annotations

import functools
import os

import pytest

# Nothing is computed ahead in the background while the suite runs (server/ahead.py): a
# tour page opened by one test would otherwise start minutes of work under the others.
# The servers the tests start inherit it; tests/lecture_pack/test_ahead.py turns it on.
os.environ["KPCA_PREPARE_AHEAD"] = "0"
# No machine-wide cache on disk either (server/shared_cache.py): a test reads only what it
# computed. tests/server/test_shared_cache.py sets its own directory.
os.environ["KPCA_SHARED_CACHE"] = "off"

from streamlit.components.v2 import manifest_scanner

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, Server, new_page
from tests.support.downloads import downloads  # noqa: F401  (a fixture: pytest finds it here)

# AppTest scans every installed distribution for Streamlit components on the first run of
# each new AppTest (streamlit 1.67: about 0.3 s, most of a warm page's run). What is
# installed cannot change while the suite runs, so the scan is done once per process.
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests)


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(items):
    """Mark every test of a browser module; refuse a test elsewhere that drives Chromium
    (the ``browser`` fixture, or ``page``) without the mark, which ``-m "not browser"``
    would then run on a machine with no browser."""
    needs_chromium = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium")
    for item in items:
        if item.path.name.endswith("browser.py"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(needs_chromium)
        elif "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
            "browser"
        ):
            raise pytest.UsageError(
                f"{item.nodeid} drives Chromium: move it to a test_*_browser.py module or "
                "mark it pytest.mark.browser."
            )


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
    tab = new_page(browser)
    yield tab
    tab.context.close()
