"""The lecturer's focused-link maker: this view's link with chosen controls locked (what a
lock does on the student's side is ``shell/locks.py``)."""

from __future__ import annotations

from collections.abc import Mapping
from urllib.parse import urlencode

import streamlit as st

from shell.locks import LOCKABLE, NOTE_CHARS
from shell.state import Q_LOCK, Q_NOTE, Q_UNLOCK
from words.i18n import _


def maker(current_query: Mapping[str, str], base_url: str) -> None:
    """For the lecturer: pick controls to lock, a note, and copy the link to this view."""
    controls = {name: _(title) for name, title in LOCKABLE.items()}
    names = st.multiselect(_("Lock"), list(LOCKABLE), format_func=controls.__getitem__,
                           key="lock_make_names", placeholder=_("Controls to lock"),
                           filter_mode=None)  # no soft keyboard on a phone
    note = st.text_input(_("Note for the students"), key="lock_make_note",
                         max_chars=NOTE_CHARS, placeholder=_("e.g. Move only γ: when do the "
                                                             "rings separate?"))
    unlockable = st.checkbox(_("Students may unlock"), key="lock_make_unlockable", value=True)
    if not names:
        st.caption(_("Choose the controls to lock; the link keeps this view's settings."))
        return
    query = {k: v for k, v in current_query.items() if k not in (Q_LOCK, Q_NOTE, Q_UNLOCK)}
    query[Q_LOCK] = ",".join(n for n in LOCKABLE if n in names)
    if note.strip():
        query[Q_NOTE] = note.strip()
    if unlockable:
        query[Q_UNLOCK] = "1"
    st.code(f"{base_url}?{urlencode(query)}", language=None, wrap_lines=True)
