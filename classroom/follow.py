"""Phones follow the lecturer, and hear of the reveal, as soon as the class changes.

A joined phone's small fragment (:func:`_poll`) reads the class's step (the lecturer's,
:func:`classroom.lecturer.publish_step`) and its question's round and reveal, and says
what it shows to :mod:`server.nudge`: one thread per server process reads each class's
state every tenth of a second and reruns this fragment in the phones whose screen is
behind (or runs the new step's page). When the lecturer moves to another step the phone
opens it; when the question is revealed or a second round opens, the page runs again to
show it. The fragment also runs on a timer of its own: every :data:`POLL_S` seconds where
the server cannot nudge, else only as a safety net (a restarted server; the server itself
nudges again a phone whose move was lost).

A student can still look back: Back / Next on a phone move only that phone, which stays
where the student went until the lecturer moves again, or until the student presses
"Follow the lecturer" (the line under the question says which step the lecturer is on).
"""

from __future__ import annotations

from functools import partial

import streamlit as st

from classroom import banner, join, predict
from classroom.store import STORE
from classroom.tally import Live, UnknownClass
from classroom.tour import STEPS, tally_id
from server import nudge
from words.i18n import _

# Where the server cannot nudge, a phone follows within this poll and one page run. Each
# look is a fragment run of a few ms of the server's CPU: 300 phones at 2 s take ~0.6 of
# two cores while they read; at 1.5 s the room of 300 followed slower, not faster
# (docs/load.md, "A class with its lecturer").
POLL_S = 2
POLL_KEY = "class_poll"  # the fragment's key, by which the server reruns it
_FOLLOWED = "_follow_followed"  # the lecturer's step this phone last moved with
_SEEN = "_follow_seen"  # what this run showed: the class's Live


def start_run(url_path: str) -> None:
    """Before the sidebar of the page at ``url_path``: open the lecturer's step when this
    phone follows it there (:func:`_step_to_open`; after a move the server's nudge runs that
    step's page at once, :func:`_step_page`). The step's settings seed the sidebar's
    widgets; the page switches only if it is not the step's."""
    if (number := _step_to_open(url_path)) is not None:
        banner.go_to_step(number)
        banner.switch_if_asked(url_path)  # at once: no need to draw this page first


def _step_to_open(url_path: str) -> int | None:
    """The lecturer's step, when the phone has just joined or the lecturer moved since it
    last followed, and the phone is not on it (noted as followed); else None. A reload on
    a step stays there."""
    if join.joined() is None:  # (every run of every student outside a class)
        return None
    ss = st.session_state
    here = ss.get(banner.TOUR_VIEW)
    # The question the rest of this run reads, in one look at the store: the open step's,
    # or the step this page's address names (the run the server started for the
    # lecturer's move is the new step's page). A wrong guess costs a second look only.
    reads = here
    if (named := banner.step_in_address()) is not None and STEPS[named - 1].url_path == url_path:
        reads = named
    live = join.live(tally_id(reads) if reads is not None and STEPS[reads - 1].check
                     else None)
    if live is None:
        return None
    if _FOLLOWED not in ss and here is not None:
        ss[_FOLLOWED] = live.step  # a reload on a step: it stays where the student was
    if live.step is None or live.step == ss.get(_FOLLOWED):
        return None
    ss[_FOLLOWED] = live.step
    return None if live.step == here else live.step


def _step_page(live: Live | None, followed: int | None,
               here: int | None) -> tuple[str, dict[str, str]] | None:
    """For the nudge: the page (script, query) of the step the lecturer moved to, when this
    phone follows it there — its run opens the step (:func:`start_run`), one run where the
    poll's would only switch to it; else None (the poll reruns). The address names the
    step, as the page's own address will: the run reads that step's question first."""
    if live is None or live.step is None or live.step in (followed, here):
        return None
    page, query = banner.step_page(live.step)
    return page, {**query, banner.Q_TOUR: str(live.step)}


def _follow(step: int) -> None:
    """Callback of "Follow the lecturer"."""
    st.session_state[_FOLLOWED] = step
    banner.go_to_step(step)


def poll() -> None:
    """On every page of a joined phone (after the question): follow the lecturer's moves,
    and watch for the reveal."""
    live = join.live(predict.asked())
    if live is None:
        nudge.unwatch()  # not in a class (any more)
        return
    # (The lecturer's step was followed before the sidebar: start_run.)
    st.session_state[_SEEN] = live
    _poll(st.session_state.get(banner.TOUR_VIEW))


def _read_live(topic: tuple[str, str | None]) -> Live | None:
    """The class's state for the nudging thread (None: the class has ended)."""
    try:
        return STORE.live(*topic)
    except UnknownClass:
        return None


@st.fragment(run_every=nudge.fallback_period(POLL_S), key=POLL_KEY)
def _poll(here: int | None) -> None:
    ss = st.session_state
    join.fragment_rerun(POLL_KEY)  # (its own run reads the class afresh)
    code = join.joined()
    asked = predict.asked()
    live: Live | None = join.live(asked) if code else None
    if live != ss.get(_SEEN):  # the lecturer moved, revealed, or opened a round
        if live is not None and live.step is not None and live.step != ss.get(_FOLLOWED):
            ss[_FOLLOWED] = live.step
            if live.step != here:
                # Straight to the step's view in one run: no widget outside this fragment
                # ran in this run, so its settings may still seed the sidebar's widgets (a
                # room of phones moves at once: a run less each is a second less for all).
                banner.go_to_step(live.step)
                banner.switch_if_asked()
        st.rerun(scope="app")
    if live is None:
        nudge.unwatch()
        return
    nudge.watch(POLL_KEY, (code, asked), live, _read_live,
                page_for=partial(_step_page, followed=ss.get(_FOLLOWED), here=here))
    if live.step is None:
        return
    if live.step == here:
        st.caption(_("Following the lecturer · class {code} · step {step}").format(
                       code=code, step=live.step),
                   help=_("Your phone moves when the lecturer does; Back and Next move only "
                          "your phone."))
    else:
        st.button(_("Follow the lecturer (step {step})").format(step=live.step),
                  key="follow_lecturer", on_click=_follow, args=(live.step,),
                  icon=":material/sync:",
                  help=_("You are looking elsewhere; your phone moves again when the "
                         "lecturer does."))
