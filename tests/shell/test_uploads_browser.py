"""An upload in a real browser: the uploader states the app's limit, the file's name is shown
as typed (never a link), a refused file says why and keeps the previous upload on screen."""

from __future__ import annotations

import numpy as np

from tests.support.browser import assert_no_exception, choose, shot, wait_for_title, wait_until_idle
from words.text import WORD_JOINER

NAME = "[exam](http://evil.example).csv"


def shown(locator) -> str:
    """The text a person reads (the word joiners that break autolinks are invisible)."""
    return locator.inner_text().replace(WORD_JOINER, "")


def csv_file(name: str, content: bytes) -> dict:
    return {"name": name, "mimeType": "text/csv", "buffer": content}


def test_an_upload_is_named_as_typed_and_a_refused_one_keeps_it(server, page):
    rng = np.random.default_rng(4)
    rows = "\n".join(f"{a:.4f},{b:.4f}" for a, b in rng.normal(size=(30, 2)))
    page.goto(f"{server.url}/explorer")
    wait_until_idle(page, min_charts=1)
    choose(page, "Dataset", "Your own CSV")
    wait_until_idle(page)
    sidebar = page.locator('[data-testid="stSidebar"]')
    uploader = sidebar.locator('[data-testid="stFileUploader"]')
    # The browser's own check uses the app's limit, in the unit it shows (MB = 10^6 bytes).
    assert "20MB per file" in uploader.inner_text()

    uploader.locator('input[type="file"]').set_input_files(
        csv_file(NAME, f"a,b\n{rows}\n".encode()))
    wait_for_title(page, "Input space: 30 points")
    wait_until_idle(page, min_charts=1)
    assert_no_exception(page)
    assert f"On screen: {NAME}" in shown(sidebar)

    uploader.locator('input[type="file"]').set_input_files(
        csv_file("typo.csv", b"a,b\n1,2\nthree,4\n5,6\n"))
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stAlertContentError"]')
    wait_until_idle(page, min_charts=1)
    error = shown(sidebar.locator('[data-testid="stAlertContentError"]'))
    assert "typo.csv cannot be used" in error and f"previous upload, {NAME}" in error
    # The name, in the caption and the refusal, is text: Streamlit's Markdown makes a link
    # of a bare http:// even when every punctuation character is escaped.
    assert sidebar.locator('a[href*="evil.example"]').count() == 0
    wait_for_title(page, "Input space: 30 points")  # the good file is still on screen
    assert_no_exception(page)
    shot(page, "upload-refused-keeps-previous")
