"""The γ hint in a real browser (issue 22): three views the old rules left silent and one
they made worse, opened as links in Chromium. The hint appears under the charts once the
page has drawn them, names a γ, and one click on it makes the page show the better score.

Marked ``browser``; skipped when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import HAS_CHROMIUM, assert_no_exception, shot, wait_until_idle

pytestmark = [
    pytest.mark.browser,
    pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium"),
]

ALERT = '[data-testid="stAlert"]'
CAPTION = '[data-testid="stCaptionContainer"]'


def open_view(server, page, dataset: str, gamma: float) -> None:
    page.goto(f"{server.url}/explorer?dataset={dataset}&kernel=rbf&gamma={gamma:g}")
    wait_until_idle(page, min_charts=3)
    # The hint is drawn last (after the search); wait for it or for the "γ check" line.
    # A hint's text follows its icon's name ("tune"), on a line of its own.
    page.wait_for_function(
        "() => [...document.querySelectorAll('[data-testid=\"stAlert\"], "
        "[data-testid=\"stCaptionContainer\"]')].some(e => /^(γ = \\S+ is too|γ check:)/m"
        ".test(e.innerText.trim()))"
    )
    assert_no_exception(page)


def shown_score(page) -> int:
    caption = page.locator(CAPTION).filter(
        has_text="Cross-validated accuracy of a linear classifier").first.inner_text()
    return int(re.search(r"kernel PCA (\d+)%", caption).group(1))


@pytest.mark.parametrize(("dataset", "gamma", "direction"), [
    ("circles", 1.0, "too small"), ("moons", 100.0, "too large"), ("iris", 10.0, "too large"),
])
def test_a_silent_view_now_shows_a_hint_and_its_button_works(server, page, dataset, gamma,
                                                              direction):
    open_view(server, page, dataset, gamma)
    hint = page.locator(ALERT).filter(has_text=f"γ = {gamma:g} is {direction}")
    assert hint.count() == 1
    text = hint.inner_text()
    before = shown_score(page)
    assert f"separate the classes {before}% with γ = {gamma:g}" in text and "Why:" in text
    button = page.get_by_role("button", name=re.compile(r"^Use γ = "))
    target = button.inner_text().removeprefix("Use γ = ").strip()
    promised = int(re.search(rf"with γ = {re.escape(target)} they separate (\d+)%", text)
                   .group(1))
    shot(page, f"gamma-hint-{dataset}-{gamma:g}")
    button.click()
    page.wait_for_function(
        "t => [...document.querySelectorAll('[data-testid=\"stCaptionContainer\"]')]"
        ".some(e => e.innerText.trim().startsWith('γ check:'))", arg=None)
    wait_until_idle(page, min_charts=3)
    assert_no_exception(page)
    assert f"gamma={target}" in page.url
    assert shown_score(page) == promised
    assert page.locator(ALERT).filter(has_text="is too").count() == 0


def test_iris_at_a_tiny_gamma_gets_no_hint(server, page):
    # The old rules said "too small, try γ ≈ 0.2", which scores lower than γ = 0.001.
    open_view(server, page, "iris", 0.001)
    assert page.locator(ALERT).filter(has_text="γ = 0.001 is").count() == 0
    check = page.locator(CAPTION).filter(has_text="γ check:").first.inner_text()
    assert "none separates components 1–2 clearly better" in check
    assert page.get_by_role("button", name=re.compile(r"^Use γ = ")).count() == 0
    shot(page, "gamma-hint-iris-0.001")
