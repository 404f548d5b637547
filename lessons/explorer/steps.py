"""The Explorer's step-by-step part: four tabs, and only the open one is drawn.

Drawing all four steps (the input chart, K, K̃, the spectrum) on every load took about
0.9 s of the page's time to drawn in Chromium (issue 16), although they sit below the
first screen. As tabs that track their state (``on_change``), only the open tab's charts
are built and sent; switching tabs reruns only the step-by-step fragment of the page.
The open tab is in the address bar (``section=2``), so a link or the guided tour can open
K and K̃ directly.
"""

from __future__ import annotations

from typing import Any

import streamlit as st

from shell.state import parse_page_number
from words.i18n import N_, _

SECTIONS = (N_("1 · The data"), N_("2 · K and K̃"), N_("3 · Eigen-spectrum"),
            N_("4 · Take it home"))
SECTION_PARAM = "section"  # owned by the Explorer (its link_params in shell/registry.py)
SECTION_KEY = "explorer_section"  # the tabs' widget key: the open tab's label, as shown


def parse_section(raw: Any) -> tuple[int, str | None]:
    """A 1-based section number from the URL; (1, problem) when it is not a valid one."""
    return parse_page_number(
        raw, count=len(SECTIONS),
        not_a_number=N_("`section=`{value} is not a section number; showing section 1."),
        out_of_range=N_("The Explorer's steps are numbered 1 to {count}, not {value}; "
                        "showing section 1."))


def _labels() -> list[str]:
    """The tabs' labels in this run's language (the widget's value is the open one's)."""
    return [_(section) for section in SECTIONS]


def open_section() -> int:
    """The open tab's number (1-based)."""
    return _labels().index(st.session_state[SECTION_KEY]) + 1


def _write_section_to_url() -> None:
    st.query_params[SECTION_PARAM] = str(open_section())


def section_tabs() -> list:
    """The four tabs; the link chooses the open one on the page's first run."""
    labels = _labels()
    if SECTION_KEY not in st.session_state:
        number, problem = parse_section(st.query_params.get(SECTION_PARAM, "1"))
        if problem:
            st.warning(problem, icon=":material/link_off:")
        st.session_state[SECTION_KEY] = labels[number - 1]
    elif st.session_state[SECTION_KEY] not in labels:
        # The language changed: the open tab is the one the address bar names (every
        # switch of tab writes it there; a bad number in a first link opened section 1).
        number, _problem = parse_section(st.query_params.get(SECTION_PARAM, "1"))
        st.session_state[SECTION_KEY] = labels[number - 1]
    return st.tabs(labels, key=SECTION_KEY, on_change=_write_section_to_url)
