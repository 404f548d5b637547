"""Lesson links that show only what matters: a link that locks chosen sidebar controls.

A lecturer makes one from any view (``classroom/focused_link.py``, in the sidebar's
"Classroom" box): e.g. ``…&lock=dataset,kernel&note=Move+only+γ&unlock=1`` keeps the link's dataset
and kernel and leaves γ free. A student who opens it sees which controls are locked and
the lecturer's note (:func:`notice`; the note comes from a URL, so it is shown as inert
text, :func:`words.text.inert`), and, if the lecturer allowed it, one button that unlocks.

What "locked" guarantees: while the session keeps the lock, the locked controls are
disabled and keep the link's values whatever else the page offers (a preset, a hint's
"Use γ = …", a tour step): the sidebar writes them back before its widgets are drawn
(``shell.sidebar``). It is a focus aid, not a security boundary: anyone can edit the link
and open the view without the lock.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, NamedTuple

import streamlit as st

from shell.state import Q_LOCK, Q_NOTE, Q_UNLOCK, Settings, parse_flag
from words.i18n import N_, _, format_number, join_list
from words.kernel_params import KERNEL_PARAMS
from words.text import inert, quoted

# The controls a link can lock, in the sidebar's order, with their names on screen.
LOCKABLE: dict[str, str] = {
    "dataset": N_("the dataset and its sample"),
    "kernel": N_("the kernel"),
    **{name: param.lock_name for name, param in KERNEL_PARAMS.items()},
    "components": N_("the number of components"),
}
NOTE_CHARS = 200
_LOCK = "_kpca_lock"  # a Lock while locked


class Lock(NamedTuple):
    names: tuple[str, ...]
    settings: Settings  # the link's: the values the locked controls keep
    note: str  # at most NOTE_CHARS characters: what is shown and kept in the address bar
    unlockable: bool
    note_length: int  # the note's length in the link, to say when it was cut


def parse_lock(raw: Any) -> tuple[tuple[str, ...], list[str]]:
    """``"gamma,dataset"`` → the lockable names in the sidebar's order, and problems."""
    asked = [part.strip().lower() for part in str(raw).split(",") if part.strip()]
    unknown = [name for name in asked if name not in LOCKABLE]
    problems = [_("Link parameter `{name}`: cannot lock {unknown}; lockable: {lockable}.").format(
        name=Q_LOCK, unknown=", ".join(map(quoted, unknown[:5])), lockable=", ".join(LOCKABLE)
    )] if unknown else []
    return tuple(name for name in LOCKABLE if name in asked), problems


def read_link(link: Mapping[str, Any], from_link: Settings) -> list[str]:
    """First run of a session: a link with ``lock=`` locks those controls at the link's
    values (``from_link``); returns the problems to warn about."""
    if Q_LOCK not in link:
        return []
    names, problems = parse_lock(link[Q_LOCK])
    if names:
        note = str(link.get(Q_NOTE, ""))
        unlockable = parse_flag(link.get(Q_UNLOCK, "0")) is True
        st.session_state[_LOCK] = Lock(names, from_link, note[:NOTE_CHARS], unlockable,
                                       len(note))
    return problems


def locked(name: str) -> bool:
    """Whether the control ``name`` (a key of :data:`LOCKABLE`) is locked now."""
    lock = st.session_state.get(_LOCK)
    return lock is not None and name in lock.names


def can_unlock() -> bool:
    """Whether the lock offers its Unlock button (the lecturer allowed it)."""
    lock = st.session_state.get(_LOCK)
    return lock is not None and lock.unlockable


def fixed() -> tuple[tuple[str, ...], Settings] | None:
    """The locked names and the settings that hold their values, or None."""
    lock = st.session_state.get(_LOCK)
    return None if lock is None else (lock.names, lock.settings)


def link_params() -> dict[str, str]:
    """The lock's parameters, kept in the address bar while it holds (a reload keeps it)."""
    lock = st.session_state.get(_LOCK)
    if lock is None:
        return {}
    params = {Q_LOCK: ",".join(lock.names)}
    if lock.note:
        params[Q_NOTE] = lock.note
    if lock.unlockable:
        params[Q_UNLOCK] = "1"
    return params


def note_text(note: str, length: int) -> str:
    """The note in quotation marks, as inert text; when the link's was longer than
    NOTE_CHARS, its start and how long it really was (not the length kept)."""
    if length <= NOTE_CHARS:
        return f"“{inert(note, NOTE_CHARS)}”"
    return _("“{start}…” (the link's note has {length} characters; a note shows at most "
             "{most})").format(start=inert(note[:NOTE_CHARS], NOTE_CHARS),
                               length=format_number(length, ","),
                               most=format_number(NOTE_CHARS, ","))


def _unlock() -> None:
    st.session_state.pop(_LOCK, None)


def notice() -> None:
    """Above the page: what is locked, the lecturer's note (inert), and Unlock if allowed."""
    lock = st.session_state.get(_LOCK)
    if lock is None:
        return
    with st.container(border=True, key="lock_notice"):
        locked = join_list([_(LOCKABLE[n]) for n in lock.names])
        if lock.note:
            text = _("**Locked for this exercise:** {locked}. Your lecturer's note: "
                     "{note}").format(locked=locked, note=note_text(lock.note, lock.note_length))
        else:
            text = _("**Locked for this exercise:** {locked}.").format(locked=locked)
        st.markdown(text)
        st.caption(_("Locked controls keep this link's values: a focus aid for the exercise, "
                     "not a security setting (anyone can edit the link)."))
        if lock.unlockable:
            st.button(_("Unlock the controls"), key="lock_unlock", on_click=_unlock,
                      icon=":material/lock_open:")
