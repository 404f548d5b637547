"""Where the router (``app.py``) plugs the classroom in, around every page's run.

Before the sidebar: a class code or ``questions=`` from the link (:func:`start_run`). In
the sidebar: the classroom's link parameters, its box and its notice (:data:`WING`).
Before the page: the tour step's prompt when the tour opened the view, else, on a phone in
a class, the page held while a tour step on it has not been shown (``classroom/seal.py``),
else the page's own question when pages ask (:func:`before_page`); the view waits for the
answer (:func:`holding`). After the page: the step's answer quotes what the page found
(:func:`after_page`). A class store that does not answer (Redis behind replicas) is said as
a sentence wherever a run meets it (:func:`say_store_outages`).
"""

from __future__ import annotations

import streamlit as st
from streamlit import error_util

from classroom import banner, box, follow, join, lecturer, predict, seal
from classroom.tally import StoreUnavailable
from shell.sidebar import Wing
from shell.state import Settings

WING = Wing(
    link_checks={join.Q_CLASS: lambda raw: None, join.Q_SEAT: join.seat_problem,
                 banner.Q_TOUR: banner.link_problem, predict.Q_QUESTIONS: predict.link_problem},
    link_params=box.link_params,
    box=box.sidebar_box,
    notice=join.notice,
    view_waits=seal.view_waits,
)


def say_store_outages() -> None:
    """Once per process: a :class:`classroom.tally.StoreUnavailable` that reaches Streamlit
    (a run, a fragment's redraw or a callback that met a class store not answering) is
    shown as its sentence in the reader's language, not as a traceback; the run has
    stopped there, so nothing the store would have decided (a reveal) is drawn, and the
    next run asks again. Anything else is shown as Streamlit does."""
    shown = error_util.show_uncaught_app_exception
    if getattr(shown, "says_store_outages", False):
        return

    def show(ex: BaseException) -> None:
        if isinstance(ex, StoreUnavailable):
            st.error(ex.said(), icon=":material/cloud_off:")
        else:
            shown(ex)

    show.says_store_outages = True
    error_util.show_uncaught_app_exception = show


def start_run(url_path: str) -> None:
    """Before the sidebar of the page at ``url_path``: join the link's class, take its
    ``questions=`` (once a session), or else get back the class this browser's lecturer
    cookie names; open the lecturer's step when the phone follows it."""
    say_store_outages()
    join.new_run()
    predict.start_run()
    lecturer.read_cookie_once()
    banner.read_link_once()
    follow.start_run(url_path)


def before_page(url_path: str, settings: Settings):
    """The tour's prompt on its step's view, or the page's own question; returns the place
    for the page's findings (for :func:`after_page`), or None."""
    slot = banner.start(url_path, settings)
    # Not a tour step's view: on a phone in a class, a page that would answer a step the
    # class has not been shown waits; else the page's own question, if pages ask.
    if slot is None and not seal.hold_page(url_path):
        predict.ask_for_page(url_path, settings)
    follow.poll()  # a joined phone: the lecturer's step, the reveal
    return slot


def holding() -> bool:
    """True while the view waits for an answer (the router does not run the page)."""
    return predict.holding()


def after_page(url_path: str, slot) -> None:
    """What the page found, in the open tour step's answer."""
    banner.finish(url_path, slot)
