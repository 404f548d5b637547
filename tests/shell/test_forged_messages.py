"""Messages a script makes up, against a real server (issue 34): a 24 MB widget message is
refused by Streamlit's own limit (``server.maxWidgetStateSize`` in .streamlit/config.toml)
and costs only the sender its connection, while a 300-point drawing still goes through; a
made-up selection or drawing gives a message or nothing, not a traceback from the app.

Driven by the load generator's protocol client (``loadtest/st_client.py``), which sends
what a browser would, or anything else.
"""

from __future__ import annotations

import json
import re
import tomllib
from pathlib import Path

import psutil
import pytest
from streamlit.proto.WidgetStates_pb2 import WidgetState

from lessons.draw.editor import N_UNREADABLE
from loadtest.st_client import Disconnected, StreamlitSession
from tests.support.browser import Server
from words.i18n import _, format_number, ngettext, use_language

pytestmark = pytest.mark.slow
ROOT = Path(__file__).resolve().parents[2]
EDITOR = "kpca_draw_editor"
# A box selection of all 7,291 USPS points sends 0.9-1.1 MB (measured in Chromium: one
# chart's selection at a time).
LARGEST_REAL_MESSAGE = 1.1e6


def edit(points: int) -> str:
    body = ",".join(f"[{(i % 97) / 97 - 0.5:.6f},{(i % 89) / 89 - 0.5:.6f},{i % 3}]"
                    for i in range(points))
    return f'{{"rev": 0, "points": [{body}]}}'


@pytest.fixture(scope="module")
def server():
    running = Server("forged")
    yield running
    running.stop()


def drawn_points(run) -> int:
    return int(re.search(r"(\d+) points, drawn on this page", run.all_text()).group(1))


def test_the_limit_sits_between_what_pages_send_and_a_flood():
    limit_mb = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())[
        "server"]["maxWidgetStateSize"]
    assert 2 * LARGEST_REAL_MESSAGE < limit_mb * 1e6 < 24e6 / 4
    assert len(edit(300)) < 10_000


def test_a_24_mb_edit_closes_only_its_own_connection_and_drawings_still_work(server):
    bystander = StreamlitSession(server.url, timeout=120)
    bystander.open("draw")
    flooder = StreamlitSession(server.url, timeout=120)
    opened = flooder.open("draw")
    before = psutil.Process(server.process.pid).memory_info().rss
    huge = edit(1_040_000)
    assert 23e6 < len(huge) < 25e6  # under Streamlit's default limit of 25 MB
    with pytest.raises(Disconnected):
        flooder.trigger(opened.components[EDITOR], "edit", huge)
    grew = psutil.Process(server.process.pid).memory_info().rss - before
    assert grew < 150 * 2**20  # the message itself, not its parse (+975 MB before)
    # The other tab is untouched, and a 300-point drawing goes through.
    run = bystander.trigger(bystander.rerun().components[EDITOR], "edit", edit(300))
    assert not run.exceptions and drawn_points(run) == 300
    bystander.close()


def test_made_up_drawings_are_refused_with_a_reason(server):
    session = StreamlitSession(server.url, timeout=120)
    opened = session.open("draw")
    # Each refusal reloads the session's drawing into the editor (a new revision).
    for forged, said in (
            ('{"rev": 0, "points": "x"}', "must be a list of [x, y, class]"),
            ('"hello"', "something other than {rev, points}"),
            ('{"rev": 1e999, "points": []}', "without a revision number"),
            ('{"rev": 3, "points": [[1, 2, 7]]}', "class that is not 0 to 2")):
        run = session.trigger(opened.components[EDITOR], "edit", forged)
        assert not run.exceptions, (forged, run.exceptions)
        assert any("That edit could not be used: " in t and said in t for t in run.texts), (
            forged, run.texts)
        assert drawn_points(run) == 120  # the drawing the session had is kept
    session.close()


HUGE_INTEGER = "1" * 5000  # over Python's 4,300 digits: its JSON parser refuses it
DEEP = "[" * 100_000 + "]" * 100_000  # past the parser's recursion limit


def said(message: str, language: str) -> str:
    """``message`` as the app says it in ``language`` (from the catalog, not copied here)."""
    with use_language(language):
        return _(message)


def drawing_of(points: int, language: str) -> str:
    """The Draw page's sidebar line for a drawing of ``points`` points, in ``language``."""
    with use_language(language):
        return ngettext("{n} point, drawn on this page (the Draw page always shows it).",
                        "{n} points, drawn on this page (the Draw page always shows them).",
                        points).format(n=format_number(points))


def test_edits_python_cannot_read_are_refused_in_the_readers_language(server):
    """Issue 48: an integer of 5,000 digits or lists nested 100,000 deep failed in
    Streamlit's parse of the edit, before the app ran: a traceback to the sender."""
    for language in ("en", "zh-CN"):
        session = StreamlitSession(server.url, timeout=120)
        opened = session.open("draw", f"lang={language}")
        for forged in (f'{{"rev": 0, "points": [[{HUGE_INTEGER}, 0, 0]]}}',
                       f'{{"rev": {HUGE_INTEGER}, "points": []}}', DEEP):
            run = session.trigger(opened.components[EDITOR], "edit", forged)
            assert not run.exceptions, (forged[:20], run.exceptions)
            assert said(N_UNREADABLE, language) in run.texts, (forged[:20], run.texts)
            assert drawing_of(120, language) in run.texts  # the session's drawing is kept
        session.close()


def selection(points) -> str:
    return json.dumps({"selection": {"points": points, "point_indices": [], "box": [],
                                     "lasso": []}})


def test_made_up_selections_highlight_nothing_instead_of_failing(server):
    session = StreamlitSession(server.url, timeout=120)
    chart = next(i for i in session.open("explorer", "dataset=circles&n=200").charts
                 if "chart_kpca" in i)
    for forged in ("x", [1, 2], [{"customdata": "abc"}], [{"customdata": 10**30}],
                   [{"customdata": 10**6}], [{"customdata": -5}], [{"customdata": [[1]]}]):
        run = session.send_text(chart, selection(forged))
        assert not run.exceptions, (forged, run.exceptions)
        assert not any("point(s) selected" in t for t in run.texts), forged
    run = session.send_text(chart, selection([{"customdata": 3}, {"customdata": [4]}]))
    assert "**2 point(s) selected:** highlighted in every chart." in run.texts
    # A value Streamlit cannot parse at all, sent as the page is first drawn: the chart is
    # drawn without it, and says so.
    fresh = StreamlitSession(server.url, timeout=120)
    fresh.page_name, fresh.query_string = "explorer", "dataset=circles&n=200"
    fresh._http_get("/explorer?dataset=circles&n=200")
    fresh._http_get("/_stcore/health")
    fresh._connect(resume=False)
    run = fresh._rerun([WidgetState(id=chart, string_value="[" * 5000)], page_hash="")
    assert not run.exceptions, run.exceptions
    assert any("could not be read, so it is ignored" in t for t in run.texts)
    assert run.chart_titles
    for tab in (session, fresh):
        tab.close()


def kpca_chart(run) -> str:
    """The kernel PCA chart's widget id in ``run``: Streamlit makes it from the figure too,
    so it changes with the highlighted points (a browser sends to the chart it shows)."""
    return next(i for i in run.charts if "chart_kpca" in i)


def test_unreadable_selections_keep_the_selection_and_say_so(server):
    """Issue 48: a selection that is not JSON, a bare number, a list where the object
    belongs, or one Python's parser refuses failed in Streamlit's parse before the app ran
    (and again on every later run): a traceback to the sender."""
    session = StreamlitSession(server.url, timeout=120)
    run = session.open("explorer", "dataset=circles&n=200")
    run = session.send_text(kpca_chart(run), selection([{"customdata": 3}, {"customdata": 4}]))
    kept = "**2 point(s) selected:** highlighted in every chart."
    assert kept in run.texts
    warning = "The selection your browser sent for this chart could not be read, so it is ignored."
    for forged in ("nonsense", "5", "[1, 2]", "null", '{"selection": [1]}', DEEP,
                   f'{{"selection": {{"points": [{{"customdata": {HUGE_INTEGER}}}]}}}}'):
        run = session.send_text(kpca_chart(run), forged)
        assert not run.exceptions, (forged[:20], run.exceptions)
        assert warning in run.texts and kept in run.texts, (forged[:20], run.texts)
    run = session.rerun()  # a later run, the unreadable value still held: the same
    assert not run.exceptions and kept in run.texts
    session.close()
