"""A student's side of a class: join with a code, answers counted anonymously.

A student joins from the lecturer's QR code or link (``?class=CODE``) or by typing the
code in the sidebar's "Classroom" box (``classroom/box.py``). The session then
carries an anonymous random token (:func:`classroom.tally.new_token`: no name, nothing
personal) under which :func:`record` counts each answer in the server's
:data:`classroom.store.STORE`.

A reload is not a new student: the address bar keeps the token beside the class
(``?class=CODE&seat=TOKEN``, :func:`link_params`), and a session that opens such a link
takes that seat again, with the votes the store holds for it (:func:`vote`). Streamlit
cannot set a cookie, so the seat rides in the link: a student who shares their address
bar shares their seat (the QR code and the focused links carry none). A seat's class that
the server no longer knows (it ended, or a restart emptied a store kept in memory) is said
to be gone in words true of either (:func:`gone`).
"""

from __future__ import annotations

import re
from urllib.parse import urlsplit

import streamlit as st

from classroom.store import STORE
from classroom.tally import (
    Live,
    StoreUnavailable,
    TallyRefused,
    UnknownClass,
    VoteClosed,
    new_token,
    normalise_code,
)
from server import nudge
from shell.registry import HOME, LESSONS
from words.i18n import _

Q_CLASS = "class"  # the link parameter: a class code to join
Q_SEAT = "seat"  # the link parameter: this browser's anonymous token in that class
TOKEN_SHAPE = re.compile(r"[A-Za-z0-9_-]{16,64}")  # what new_token makes (22 characters)

_TOKEN, _CODE, _MESSAGE = "_class_token", "_class_code", "_class_message"
_STARTED = "_class_started"
# The class's state as this run has read it, per question: a run reads it once (a phone's
# page run asked it four times: the sidebar, the question, the follow, its poll), so
# what one run draws agrees with itself. Emptied at the start of every page run (new_run)
# and of a fragment's own run (fragment_rerun).
_READ_THIS_RUN = "_class_read_this_run"
_PAGE_RUN = "_class_page_run"  # counts the page's runs (a fragment's own runs are apart)
_SHOUT = "_class_shout"  # a link's code was refused: say so above the page, once


def app_url() -> str:
    """The app's address as the browser sees it, without the page's path (a class link
    must work from wherever the lecturer opened the page)."""
    parts = urlsplit(st.context.url or "http://localhost:8501")
    url = f"{parts.scheme}://{parts.netloc}{parts.path}".rstrip("/")  # no query, no #
    head, _slash, last = url.rpartition("/")
    pages = {lesson.url_path for lesson in LESSONS} | {HOME.url_path}
    return head if last in pages and "//" in head else url


def _token() -> str:
    return st.session_state.setdefault(_TOKEN, new_token())


def gone(code: str) -> str:
    """What a phone that was in class ``code`` is told when the server does not know the
    class: true whichever store holds the classes (one process's memory, which a restart
    empties, or one every replica shares)."""
    return _("Class {code} is not running on this server any more: it has ended, or the "
             "server restarted (a class kept in the server's memory does not survive a "
             "restart). The lecturer must start a new class: join it with its new "
             "code.").format(code=code)


def join(text: str, *, seated: bool = False) -> bool:
    """Join the class with code ``text`` (``seated``: taking this browser's seat again, so
    it was in that class); on refusal the message is kept for the sidebar."""
    ss = st.session_state
    try:
        ss[_CODE] = STORE.join(text, _token())
    except StoreUnavailable as outage:
        if seated:  # a reload of a phone that was in the class: still in it, so still
            # sealed, and its next run asks the store again (a phone new to the class is
            # told, and opens its link again)
            ss[_CODE] = normalise_code(text)
        ss[_MESSAGE] = outage.said()
        return False
    except TallyRefused as refusal:
        ss.pop(_CODE, None)
        shown = normalise_code(text)[:12] or _("(empty)")
        ss[_MESSAGE] = (gone(shown) if seated and isinstance(refusal, UnknownClass) else
                        _("Class code {code}: {refusal}").format(code=shown,
                                                                refusal=refusal.said()))
        return False
    ss.pop(_MESSAGE, None)
    return True


def seat_problem(raw: str) -> str | None:
    """What is wrong with a link's ``seat=`` (warned about with the link's other
    parameters), or None."""
    if TOKEN_SHAPE.fullmatch(raw):
        return None
    return _("Link parameter `seat` is not a seat this app makes; you join the class as a new "
             "student.")


def read_link_once() -> None:
    """First run of a session: ``?class=CODE`` joins that class, in the link's seat (a
    reload: the same student) when it has one."""
    ss = st.session_state
    if _STARTED in ss:
        return
    ss[_STARTED] = True
    if Q_CLASS not in st.query_params:
        return
    seated = seat_problem(seat := st.query_params.get(Q_SEAT, "")) is None
    if seated:
        ss[_TOKEN] = seat
    if not join(st.query_params[Q_CLASS], seated=seated):
        ss[_SHOUT] = True


def link_params() -> dict[str, str]:
    """The class and this browser's seat in it, for the address bar (a reload keeps both)."""
    code = joined()
    return {Q_CLASS: code, Q_SEAT: _token()} if code else {}


def notice() -> None:
    """Above the page, once: the link's class code was refused (a phone's sidebar is
    closed, so the sidebar's message alone would go unseen)."""
    if st.session_state.pop(_SHOUT, False) and (message := st.session_state.get(_MESSAGE)):
        st.warning(message, icon=":material/groups:")


def joined() -> str | None:
    return st.session_state.get(_CODE)


def new_run() -> None:
    """At the start of a run of the page (the router's): the class is read afresh by the
    run's first :func:`live`."""
    st.session_state[_READ_THIS_RUN] = {}
    st.session_state[_PAGE_RUN] = st.session_state.get(_PAGE_RUN, 0) + 1


def fragment_rerun(fragment: str) -> bool:
    """First thing in a fragment that reads the class, ``fragment`` naming it: True in a
    run of the fragment alone (its timer, the server's nudge, one of its widgets), where
    the class is read afresh; False in the page's run that draws it, whose reading
    stands. A fragment's run that names another page than the one on screen (a request
    the browser sent before the server ran the phone's new step) opens the page on screen
    again: ends this run."""
    ss = st.session_state
    drawn_in, page_run = f"_class_drawn_{fragment}", ss.get(_PAGE_RUN, 0)
    again = ss.get(drawn_in) == page_run  # already drawn since the page's run began
    ss[drawn_in] = page_run
    if again:
        ss[_READ_THIS_RUN] = {}
        if (page := nudge.folded_page()) is not None:
            st.switch_page(page[0], query_params=page[1])
    return again


def live(question_id: str | None = None) -> Live | None:
    """The joined class's step and ``question_id``'s round and reveal, as this run first
    read them; None outside a class (or once it has ended: the session leaves it and says
    so)."""
    code = joined()
    if code is None:
        return None
    read = _read_this_run()
    if (code, question_id) not in read:
        try:
            # With a question, this seat's vote in the same look: a phone's run reads both.
            read[code, question_id] = (
                STORE.live_and_vote(code, _token(), question_id) if question_id is not None
                else (STORE.live(code), None))
        except UnknownClass:
            st.session_state.pop(_CODE, None)
            st.session_state[_MESSAGE] = gone(code)
            return None
    return read[code, question_id][0]


def vote(question_id: str) -> int | None:
    """This seat's option in ``question_id``'s open round of the joined class, or None: as
    this run read it with :func:`live`, else read now. (An answer is recorded in a widget's
    callback, before the run that reads it begins: a vote read in a run is this run's.)"""
    code = joined()
    if code is None:
        return None
    if (code, question_id) in (read := _read_this_run()):
        return read[code, question_id][1]
    try:
        return STORE.vote(code, _token(), question_id)
    except UnknownClass:
        return None


def _read_this_run() -> dict[tuple[str, str | None], tuple[Live, int | None]]:
    """(class, question) → (its :class:`Live`, this seat's vote) as this run read them."""
    return st.session_state.setdefault(_READ_THIS_RUN, {})


def record(question_id: str, option: int, right: bool) -> bool:
    """Count this session's answer in its class, if it joined one (a callback). False when
    the question's vote has closed: the answer counted before is final."""
    code = joined()
    if code is None:
        return True
    try:
        STORE.answer(code, _token(), question_id, option, right)
    except TallyRefused as refusal:
        ended = isinstance(refusal, UnknownClass)
        st.session_state[_MESSAGE] = gone(code) if ended else refusal.said()
        if ended:  # leave it
            st.session_state.pop(_CODE, None)
        return not isinstance(refusal, VoteClosed)
    st.session_state.pop(_MESSAGE, None)
    _read_this_run().pop((code, question_id), None)  # its vote, read before, has changed
    return True


def tally_note() -> None:
    """Under an answer: whether it went into the class tally, or why not."""
    if message := st.session_state.get(_MESSAGE):
        st.info(message, icon=":material/groups:")
    elif code := joined():
        st.caption(_("Counted anonymously in class {code}'s tally.").format(code=code))


def message() -> str | None:
    """Why the last join or answer did not count (shown in the Classroom box), or None."""
    return st.session_state.get(_MESSAGE)


def leave() -> None:
    """Leave the class (a callback)."""
    st.session_state.pop(_CODE, None)
    st.session_state.pop(_MESSAGE, None)
