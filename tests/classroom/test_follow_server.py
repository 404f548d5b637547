"""The room's timers on a real server, as a browser runs them (classroom/follow.py,
classroom/lecturer.py, server/nudge.py): a joined phone's poll is a fragment the server
reruns by itself when the class changes, and on a slow timer of its own; the lecturer's
counts are a fragment rerun on its timer (``st.fragment(run_every=...)``). Played here by
the load generator's client (``loadtest/st_client.py``), which sends a fragment's rerun as
the frontend does and reads the runs the server starts.

What a room of phones costs rests on these: a poll that finds nothing new runs the
fragment alone, and the server starts nothing while nothing changes; when the lecturer
moves, the server runs that step's page on the phone at once, with the step's settings
(one run of the page: not a run of the old page, nor of the poll, first); the lecturer's
count shows a new vote at its next redraw.
"""

from __future__ import annotations

import os
import re
from urllib.parse import parse_qsl

import pytest

from classroom.follow import POLL_S
from classroom.lecturer import REFRESH_S
from classroom.questions import CATALOGUE
from classroom.tour import STEPS
from loadtest.browser import Server
from loadtest.st_client import StreamlitSession
from server.nudge import FALLBACK_S, available, fallback_period
from shell.state import settings_from_query
from words.i18n import _, use_language

pytestmark = pytest.mark.slow
FROM, TO = 5, 6  # the lecturer's step, then Next


@pytest.fixture(scope="module")
def server():
    running = Server("follow", env=os.environ | {"KPCA_CLASS_STORE": "memory"})
    yield running
    running.stop()


def ok(run):
    assert run.finished and not run.exceptions and not run.error_boxes, run
    return run


def question(step: int) -> str:
    return CATALOGUE[STEPS[step - 1].check][0]


def on_step(session: StreamlitSession) -> int | None:
    tour = dict(parse_qsl(session.query_string)).get("tour")
    return int(tour) if tour else None


def timer_of(session: StreamlitSession, seconds: float) -> str:
    """The one fragment timer of ``seconds`` the page announced."""
    ids = [fid for fid, interval in session.timers.items() if interval == seconds]
    assert len(ids) == 1, session.timers
    return ids[0]


def start_class_on(lecturer: StreamlitSession, step: int) -> str:
    """The lecturer starts a class on Class tally and opens tour step ``step``'s view (the
    class's step); returns the class's code."""
    ok(lecturer.open("class_tally"))
    text = ok(lecturer.click("Start a class")).all_text()
    code = re.search(r"Class code\n# ((?:\w ){5}\w)", text).group(1).replace(" ", "")
    ok(lecturer.navigate("tour", f"step={step}"))
    ok(lecturer.click("Open this view"))
    return code


def test_a_phone_follows_the_lecturer_in_one_request_and_the_count_shows_its_vote(server):
    lecturer = StreamlitSession(server.url, timeout=120)
    phone = StreamlitSession(server.url, timeout=120)
    try:
        code = start_class_on(lecturer, FROM)

        opened = ok(phone.open("tour", f"class={code}"))  # the QR code's link
        assert on_step(phone) == FROM and question(FROM) in phone.widgets
        assert available()  # this Streamlit lets the server rerun a fragment
        assert f"Following the lecturer · class {code} · step {FROM}" in opened.texts
        poll = timer_of(phone, fallback_period(POLL_S))
        from_page = phone.page_hash

        # Nothing new: the poll runs its fragment alone, and says whom the phone follows.
        run = ok(phone.rerun_fragment(poll))
        assert run.fragment_only and run.page_runs == 0
        assert f"Following the lecturer · class {code} · step {FROM}" in run.texts
        assert question(FROM) in phone.widgets  # the rest of the page stays

        # Nothing changes: the server reruns nothing.
        assert phone.await_run(1.0) is None

        # The lecturer's Next: the server runs step TO's page on the phone without the phone
        # asking (long before its poll's own timer), with the step's own settings (not the
        # ones it had), in this one run.
        ok(lecturer.click("Next →"))
        assert on_step(lecturer) == TO
        run = phone.await_run(FALLBACK_S / 2)
        assert run is not None, "the server did not move the phone"
        ok(run)
        # Step TO's page, and no run of step FROM's page or of the poll before it.
        assert run.runs == run.page_runs == 1, run
        assert run.page == STEPS[TO - 1].url_path
        assert on_step(phone) == TO and question(TO) in phone.widgets
        query = dict(parse_qsl(phone.query_string))
        assert query["class"] == code
        settings, warnings = settings_from_query(
            {k: v for k, v in query.items() if k not in ("class", "seat", "tour")})
        assert warnings == [] and settings == STEPS[TO - 1].settings()
        assert settings != STEPS[FROM - 1].settings()  # it did change

        # The poll's timer had fired before the browser heard of the move: its request
        # names step FROM's page, and Streamlit runs it after TO's with FROM's address. The
        # poll opens step TO's page again (else the next run of the page would be FROM's).
        folded = ok(phone._rerun(None, from_page, fragment_id=poll))
        assert folded.page_runs == 1 and folded.page == STEPS[TO - 1].url_path, folded
        assert on_step(phone) == TO and question(TO) in phone.widgets

        # The phone votes; the lecturer's count shows it at its next redraw.
        count = timer_of(lecturer, REFRESH_S)
        assert "**Round 1** · 0 votes (open)" in ok(lecturer.rerun_fragment(count)).texts
        options = phone.widgets[question(TO)].options
        vote = ok(phone.set_widget(question(TO), options[0]))
        # An answer reruns the question's box alone (the page, its view held, stays).
        assert vote.fragment_only and vote.page_runs == 0, vote
        assert "Counted anonymously" in vote.all_text()
        assert any(text.startswith(f"**Answer recorded:** {options[0]}") for text in vote.texts)
        run = ok(lecturer.rerun_fragment(count))
        assert run.fragment_only and "**Round 1** · 1 vote (open)" in run.texts

        # The lecturer shows the view: the phone's page runs again (the server's nudge),
        # with the view; a second round's answer again reruns the box alone, not the view.
        ok(lecturer.click("Show the view to the phones"))
        shown = phone.await_run(FALLBACK_S / 2)
        assert shown is not None and ok(shown).page_runs == 1 and shown.chart_titles, shown
        ok(lecturer.click("Second round"))
        second = phone.await_run(FALLBACK_S / 2)
        assert second is not None and ok(second).page_runs == 1
        assert any(text.startswith("**Round 2: vote again**") for text in second.texts)
        vote = ok(phone.set_widget(question(TO), options[1]))
        assert vote.fragment_only and not vote.chart_titles, vote
        assert any(text.startswith(f"**Answer recorded:** {options[1]} (round 2)")
                   for text in vote.texts)
        run = ok(lecturer.rerun_fragment(count))
        assert "**Round 2** · 1 vote (open)" in run.texts, run.texts
    finally:
        phone.close()
        lecturer.close()


def test_a_phone_the_server_moves_keeps_its_browsers_language(server):
    """The server's nudge runs the phone's page, or its poll, without the browser asking:
    the run must still know the browser's language (its ``context_info``), else a phone
    whose browser says Chinese would be moved in English."""
    lecturer = StreamlitSession(server.url, timeout=120)
    phone = StreamlitSession(server.url, timeout=120, locale="zh-CN")
    with use_language("zh-CN"):
        question_zh = {step: _(question(step)) for step in (FROM, TO)}
    assert question_zh[TO] != question(TO)  # the catalog translates it
    try:
        code = start_class_on(lecturer, FROM)
        ok(phone.open("tour", f"class={code}"))
        assert question_zh[FROM] in phone.widgets  # no lang= in the link: the browser's

        ok(lecturer.click("Next →"))  # the server moves the phone (its page's run)
        moved = phone.await_run(FALLBACK_S / 2)
        assert moved is not None and ok(moved).page == STEPS[TO - 1].url_path
        assert question_zh[TO] in phone.widgets, list(phone.widgets)

        ok(lecturer.click("← Back"))  # and again, to a step it had seen (its poll, maybe)
        back = phone.await_run(FALLBACK_S / 2)
        assert back is not None and ok(back).page == STEPS[FROM - 1].url_path
        assert question_zh[FROM] in phone.widgets, list(phone.widgets)
    finally:
        phone.close()
        lecturer.close()
