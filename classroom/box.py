"""The sidebar's "Classroom" box: questions before views, joining a class, a focused link;
and what the classroom keeps in the address bar."""

from __future__ import annotations

from urllib.parse import quote

import streamlit as st

from classroom import banner, focused_link, join, lecturer, predict, seal
from shell.display import close_drawer_after_change
from words.i18n import _

JOIN_KEY = "class_join_code"


def link_params() -> dict[str, str]:
    """What the classroom keeps in the address bar: the class and this browser's seat in
    it, where questions are asked when not at the default, and the tour's open step."""
    return join.link_params() | predict.link_params() | banner.link_params()


_JOINED_NOW = "_class_joined_now"  # a typed code joined: close the drawer on a phone


def _join_typed(pressed: bool) -> None:
    """Join with the typed code: on Enter (when something is typed) or on "Join"."""
    typed = st.session_state.get(JOIN_KEY, "")
    if (pressed or str(typed).strip()) and join.join(typed):
        st.session_state[_JOINED_NOW] = True


def sidebar_box(page_path: str, query: dict[str, str]) -> None:
    """The sidebar's "Classroom" box: questions on/off, join a class, a focused link."""
    expanded = bool(join.joined() or join.message() or lecturer.running()
                    or lecturer.lost_class())
    with st.expander(_("Classroom"), icon=":material/school:", expanded=expanded):
        lecturer.lecturer_note()
        # While the view waits for the class, so do the questions' switch (the class's
        # questions are asked whatever it says) and the focused link (to a view not seen).
        view_waits = seal.view_waits(page_path)
        modes = {mode: _(title) for mode, title in predict.MODES.items()}
        if not view_waits:
            st.segmented_control(
                _("Questions before views"), list(modes), format_func=modes.__getitem__,
                key=predict.QUESTIONS_KEY,
                help=_("A prediction before the view: on the tour's views, on every page "
                       "that has a question, or off for a straight lecture (link: "
                       "questions=all / 0)."))
        if code := join.joined():
            st.markdown(_("In class **{code}**: your answers count anonymously.").format(
                code=code))
            st.button(_("Leave the class"), key="class_leave", on_click=join.leave)
        else:
            st.text_input(_("Class code"), key=JOIN_KEY, max_chars=24, on_change=_join_typed,
                          args=(False,), placeholder=_("From the projector, e.g. ACD3FG"))
            st.button(_("Join"), key="class_join", on_click=_join_typed, args=(True,))
        if message := join.message():
            st.warning(message, icon=":material/groups:")
        if not view_waits:
            st.markdown(_("**Focused link** (for homework or an exercise)"))
            app_url = join.app_url()
            # A focused link is for others: never this browser's seat, nor its tour step.
            shared = {k: v for k, v in query.items() if k not in (join.Q_SEAT, banner.Q_TOUR)}
            focused_link.maker(shared,
                               f"{app_url}/{quote(page_path)}" if page_path else app_url)
    if st.session_state.pop(_JOINED_NOW, False):  # a phone sees the class's page, not the drawer
        close_drawer_after_change()
    lecturer.keep_in_browser()  # the lecturer's class in the browser's cookie
