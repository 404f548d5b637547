"""Drawn points as a data source of the shared sidebar: "Drawn on the Draw page".

The points live in the student's own session, as their link code (``datasets.drawn``):
the sidebar keeps it under the option key of the dataset ``drawn`` (as it keeps any
dataset's options) and the settings carry it as the option ``points``, so the address
bar is a link to the drawing and every cache key holds the data themselves. Results
computed from drawn points stay in the session that drew them, as an upload's do
(:func:`session_results`, used by ``shell.caches.results_store``): nothing one student
draws reaches another's session.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

import datasets
from datasets import drawn
from shell.state import DRAWN, Q_POINTS
from words.i18n import _, format_number, ngettext

# The Draw page's URL path: on it the sidebar's dataset is always the drawn points.
DRAW_PAGE = "draw"
# The sidebar's key for the option `points` of the dataset `drawn` (shell.sidebar's
# _option_key): apply_settings seeds it from a link like any dataset option.
K_POINTS = f"w_opt_{DRAWN}_{Q_POINTS}"
_RESULTS = "_kpca_drawn_results"


def current_code() -> str:
    """The session's drawn points (their code), the default preset until anything is drawn."""
    return st.session_state.setdefault(K_POINTS, drawn.default_code())


def set_points(X: np.ndarray, y: np.ndarray) -> None:
    """Make snapped points the session's drawing (call in a callback, before the sidebar)."""
    st.session_state[K_POINTS] = drawn.encode(X, y)


def drawn_data(options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    """The drawn data named by the settings' options (their code); ValueError if damaged."""
    code = dict(options).get(Q_POINTS)
    if code is None:
        raise drawn.DrawnError("no drawn points: open the Draw page and draw some.")
    return drawn.drawn_dataset(*drawn.decode(code))


def session_results() -> dict:
    """This session's result stores for drawn data (``shell.caches.results_store``)."""
    return st.session_state.setdefault(_RESULTS, {})


def drawn_controls(page_path: str) -> tuple[tuple[str, object], ...]:
    """The sidebar's lines for the drawn points; returns their options."""
    code = current_code()
    n = len(drawn.decode(code)[1])
    if page_path == DRAW_PAGE:
        st.caption(ngettext("{n} point, drawn on this page (the Draw page always shows it).",
                            "{n} points, drawn on this page (the Draw page always shows them).",
                            n).format(n=format_number(n)))
    else:
        st.caption(ngettext("{n} point drawn by hand.", "{n} points drawn by hand.",
                            n).format(n=format_number(n)))
        st.page_link(f"app_pages/{DRAW_PAGE}.py", label=_("Edit them on the Draw page"),
                     icon=":material/draw:")
    return ((Q_POINTS, code),)
