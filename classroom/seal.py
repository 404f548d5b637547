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
  been shown, and any page that computes kernel PCA waits while the class's current step
  has not been shown (:func:`hold_page`): the page at the phone's own settings would
  answer the question the room is voting on;
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
from shell.registry import LESSONS
from words.i18n import _, join_and, ngettext

# The pages that compute kernel PCA at the sidebar's settings (not the tour, the tally, Home).
_COMPUTING = {lesson.url_path for lesson in LESSONS if lesson.work is not None}


def answer_sealed(number: int) -> bool:
    """Whether step ``number``'s answer waits: this session is a phone in a class whose
    lecturer has not revealed the step's question."""
    live = join.live(tally_id(number))
    return live is not None and not live.revealed


def waiting_for(url_path: str) -> list[int]:
    """The tour steps this phone's class must be shown before the page at ``url_path``
    opens outside the tour: the steps whose view it is, and the class's current step (the
    lecturer's), those not shown yet. Empty outside a class, and for a page that computes
    nothing."""
    live = join.live()
    if live is None or url_path not in _COMPUTING:
        return []
    steps = {number for number, step in enumerate(STEPS, start=1) if step.url_path == url_path}
    if live.step is not None:
        steps.add(live.step)
    return sorted(number for number in steps if not _shown(number))


def _shown(number: int) -> bool:
    live = join.live(tally_id(number))
    return live is None or live.shown


def view_waits(url_path: str) -> bool:
    """Whether this run will hold the view of the page at ``url_path`` on a phone in a
    class (asked before the sidebar is drawn, whose settings wait with the view): a tour
    step's view whose question the class has not been shown (:func:`classroom.predict.ask`
    holds it), or a page that waits for a step (:func:`hold_page`)."""
    if join.joined() is None:
        return False
    if (number := banner.open_on(url_path)) is not None:
        if not STEPS[number - 1].check:
            return False
        live = join.live(tally_id(number))
        return live is not None and not live.revealed and not live.shown
    return bool(waiting_for(url_path))


def hold_page(url_path: str) -> bool:
    """On a page not opened by the tour, on a phone in a class: while the page waits for a
    step (:func:`waiting_for`), hold it (the router does not run it), say why and offer the
    step's question. True when held."""
    waiting = waiting_for(url_path)
    if not waiting:
        return False
    predict.hold_view(watching=tally_id(waiting[0]))  # its poll sees the lecturer show it
    with st.container(border=True, key="sealed_page"):
        st.markdown(ngettext(
            "**Your class has not been shown step {steps} of the tour yet**: this page could "
            "answer its question, so it opens here once the lecturer shows it.",
            "**Your class has not been shown steps {steps} of the tour yet**: this page could "
            "answer their questions, so it opens here once the lecturer shows them.",
            len(waiting)).format(steps=join_and([str(number) for number in waiting])))
        st.button(_("Step {number}'s question").format(number=waiting[0]),
                  key="sealed_page_step", on_click=banner.go_to_step, args=(waiting[0],),
                  icon=":material/quiz:")
    return True
