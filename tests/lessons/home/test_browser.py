"""Real browser: the home page's presets as a laptop shows them.

Marked ``browser``; skipped when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import pytest

from lessons.home.presets import presets
from tests.support.browser import HAS_CHROMIUM, assert_no_exception, new_page, wait_until_idle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium"),
]

# Per element inside the button: whether its text runs past its box (Streamlit cuts a
# button's label with an ellipsis).
CUT = "b => [b, ...b.querySelectorAll('*')].some(e => e.scrollWidth > e.clientWidth + 1)"


def test_every_preset_shows_its_whole_name_at_1280(server, browser):
    # The issue: "USPS digits + polynomial (deg…" at 1280 × 800, the sidebar open.
    page = new_page(browser, viewport={"width": 1280, "height": 800})
    try:
        page.goto(f"{server.url}/")
        wait_until_idle(page)
        assert_no_exception(page)
        for preset in presets():
            button = page.locator(f".st-key-preset_{preset.key} button")
            assert button.inner_text().strip() == preset.title
            assert not button.evaluate(CUT), preset.title
    finally:
        page.context.close()
