"""The class keeps its secret: a phone in a class is sent nothing that decides a question's
answer until the lecturer shows it, whichever way the phone gets there.

The lecture asks each tour step's question before its view. On a phone that joined a class
(:mod:`classroom.join`), while the class has not been shown a step's view:

* the step's question is asked whatever ``questions=`` or the sidebar say, there is no
  Skip, and the view waits (``classroom/predict.py``): the view shows the page's deciding
  numbers;
* *What to look for* (the answer in words) and every option's verdict wait for the reveal,
  on the tour page (``step=``, Back, Next) and on the view (:func:`answer_sealed`);
* a lesson page opened from the menu (or a link) waits while a tour step on it has not
  been shown (:func:`hold_page`): the same page at the step's settings would answer it;
* the offline lecture, which holds every answer, is offered to the lecturer only
  (:func:`classroom.lecturer.lecturer_role`).

The lecturer's own screen (the projector) is not a phone in a class: it shows what it
showed before. The class's state stays in :mod:`classroom.tally`; this module only reads
it through :func:`classroom.join.live`.
"""

from __future__ import annotations

import streamlit as st

from classroom import banner, join, predict
from classroom.tour import STEPS, tally_id
from words.i18n import _, join_and, ngettext


def answer_sealed(number: int) -> bool:
    """Whether step ``number``'s answer waits: this session is a phone in a class whose
    lecturer has not revealed the step's question."""
    live = join.live(tally_id(number))
    return live is not None and not live.revealed


def unshown_steps(url_path: str) -> list[int]:
    """The tour steps whose view is the page at ``url_path`` and which this phone's class
    has not been shown yet (empty outside a class)."""
    if join.joined() is None:
        return []
    return [number for number, step in enumerate(STEPS, start=1)
            if step.url_path == url_path and not _shown(number)]


def _shown(number: int) -> bool:
    live = join.live(tally_id(number))
    return live is None or live.shown


def hold_page(url_path: str) -> bool:
    """On a page not opened by the tour: while a tour step on it has not been shown to this
    phone's class, hold the page (the router does not run it), say why and offer the
    step's question. True when held."""
    waiting = unshown_steps(url_path)
    if not waiting:
        return False
    predict.hold_view(watching=tally_id(waiting[0]))  # its poll sees the lecturer show it
    with st.container(border=True, key="sealed_page"):
        st.markdown(ngettext(
            "**This page answers step {steps} of the tour**, which your class has not been "
            "shown yet: it opens here once the lecturer shows it.",
            "**This page answers steps {steps} of the tour**, which your class has not been "
            "shown yet: it opens here once the lecturer shows them.",
            len(waiting)).format(steps=join_and([str(number) for number in waiting])))
        st.button(_("Step {number}'s question").format(number=waiting[0]),
                  key="sealed_page_step", on_click=banner.go_to_step, args=(waiting[0],),
                  icon=":material/quiz:")
    return True
