"""The menu as Streamlit pages, made once per session and language.

``st.Page`` looks its script up on the disk each time one is made (a path resolved, a file
checked: system calls, each a moment the run gives up the GIL and waits for it back). The
router names every page on every run, and when a room of phones follows the lecturer
hundreds of runs start within a second or two, so a session keeps its pages. They are kept
per session, not shared between sessions: ``st.navigation`` marks the page it returns as
the one allowed to run and ``Page.run`` clears the mark, which two sessions would race on.
"""

from __future__ import annotations

import streamlit as st

from shell.registry import HOME, menu
from words.i18n import _

PAGES_KEY = "_menu_pages"  # session state: (the menu's words, its pages) made last


def menu_pages() -> dict[str, list[st.Page]]:
    """The menu for ``st.navigation``: its sections with their pages, in the session's
    language (made again when the language changes)."""
    sections = menu()
    words = tuple((_(section), tuple(_(item.title) for item in items))
                  for section, items in sections.items())
    kept = st.session_state.get(PAGES_KEY)
    if kept is None or kept[0] != words:
        pages = {
            section: [st.Page(item.path, title=title, icon=item.icon, default=item is HOME)
                      for item, title in zip(items, titles, strict=True)]
            for (section, titles), items in zip(words, sections.values(), strict=True)
        }
        kept = st.session_state[PAGES_KEY] = (words, pages)
    return kept[1]
