"""The deployment smoke test drives the browser tests' Chromium (one per session)."""

from tests.browser.conftest import browser  # noqa: F401 - a fixture, used by name
