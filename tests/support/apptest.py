"""AppTest helpers shared by every page's tests: open a page as a cold deep link, and
assert that it shows no exception and no error box."""

from __future__ import annotations

from pathlib import Path

import pytest
from streamlit.testing.v1 import AppTest

import datasets

ROOT = Path(__file__).resolve().parents[2]
APP = str(ROOT / "app.py")
CSV_DIR = ROOT / "tests" / "data" / "csv"
TIMEOUT = 120  # generous: CI shares 2 cores


def usps_available() -> bool:
    try:
        datasets.load("usps", n=20)
    except datasets.UspsUnavailableError:
        return False
    return True


needs_usps = pytest.mark.skipif(not usps_available(), reason="USPS digits not available")


def open_app(
    page: str = "home", query: dict | None = None, state: dict | None = None
) -> AppTest:
    """A fresh session opened on ``page`` with ``query`` in the URL (a cold deep link).

    ``state`` seeds widget values in the session before the first run, for pages whose
    settings are their own widgets rather than link parameters (De-noising).
    """
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.query_params = {k: str(v) for k, v in (query or {}).items()}
    if page != "home":
        at.switch_page(f"app_pages/{page}.py")
    for key, value in (state or {}).items():
        at.session_state[key] = value
    return at.run()


def assert_clean(at: AppTest) -> None:
    assert not at.exception, [e.value for e in at.exception]
    assert not at.error, [e.value for e in at.error]


def sent_text(at: AppTest) -> str:
    """Everything the last run sent to the browser (each element's and block's message,
    serialised as on the wire): what a page holds, shown or not (a closed expander's
    content, a popover's, a widget's options and value)."""
    def nodes(node):
        yield node
        for child in getattr(node, "children", {}).values():
            yield from nodes(child)

    return b"".join(node.proto.SerializeToString() for node in nodes(at._tree)
                    if getattr(node, "proto", None) is not None).decode("utf-8", "replace")
