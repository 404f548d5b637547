"""Every Plotly chart of the app goes through :func:`show_chart`.

One place decides how a figure reaches the browser, so that every page gets the same
things without repeating them:

* the toolbar's camera button saves a PNG named after the view (``kpca-lab-<name>``);
* linked selection (box/lasso) when the page asks for it, and a warning, not the page's
  callback, for a selection that could not be read (:mod:`server.widget_messages`);
* projector mode and touch screens (:mod:`shell.display`) are handled here, never in the
  figure builders, which stay pure functions of arrays: on a touch screen a swipe over
  any chart scrolls the page, and a 3-D chart turns under a finger only once its switch
  (:data:`TURN_LABEL`) is on;
* a text alternative for screen readers (:func:`shell.chart_text.describe`), visually
  hidden in front of the chart, and a mode bar of few buttons, so that a keyboard user
  does not tab through ten per chart.
"""

from __future__ import annotations

import html
import re
from collections.abc import Callable
from functools import partial

import plotly.graph_objects as go
import streamlit as st

from server.widget_messages import UNREADABLE
from shell.chart_text import describe
from shell.display import (
    for_projector,
    for_touch,
    is_3d,
    page_share,
    projector_on,
    still_scene_css,
    touch_screen,
)
from words.i18n import N_, _

FILE_PREFIX = "kpca-lab"
# Each mode-bar button is a tab stop. Kept: the PNG download, reset axes (or camera) and
# Streamlit's full screen, plus zoom and select where a chart is selectable (to switch
# what a drag does). Dragging zooms anyway, and a double click resets.
_REMOVED_BUTTONS = [
    "zoom2d", "pan2d", "zoomIn2d", "zoomOut2d", "autoScale2d", "toggleSpikelines",
    "hoverClosestCartesian", "hoverCompareCartesian",
    "zoom3d", "pan3d", "orbitRotation", "tableRotation", "resetCameraLastSave3d",
    "hoverClosest3d",
]  # fmt: skip
_SELECT_BUTTONS = {"zoom2d", "select2d", "lasso2d"}
CHART_TEXT_CLASS = "kpca-chart-text"  # visually hidden: shell/accessibility.py
TURN_LABEL = N_("Turn this 3-D view with a finger")
TURN_HELP = N_("Off: a swipe over the chart scrolls the page. On: a drag over the chart turns "
               "the view, and the page scrolls only beside it.")


def export_name(name: str) -> str:
    """A file name for a chart's PNG download: ``kpca-lab-<name>``, safe characters only.

    Dots are kept, so a chart's name matches the CSV files of the same view
    (``shell.exports.view_name``: 'circles-rbf-gamma0.5').
    """
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", name).strip("-.").lower() or "chart"
    return f"{FILE_PREFIX}-{slug}"


def chart_config(name: str, *, selectable: bool = False) -> dict:
    """Plotly's ``config``: the toolbar on hover with few buttons, downloads named after
    the view."""
    removed = [b for b in _REMOVED_BUTTONS if not (selectable and b in _SELECT_BUTTONS)]
    if not selectable:
        removed += ["select2d", "lasso2d"]
    return {
        "displaylogo": False,
        "modeBarButtonsToRemove": removed,
        "toImageButtonOptions": {"filename": export_name(name), "format": "png", "scale": 2},
    }


def show_chart(
    fig: go.Figure,
    *,
    key: str,
    name: str | None = None,
    on_select: Callable[[], None] | None = None,
    selection_mode: tuple[str, ...] = ("box", "lasso"),
    columns: int = 1,
):
    """Draw ``fig``; with ``on_select`` the chart is selectable and calls it on a selection.

    Parameters
    ----------
    fig : go.Figure
        From a pure figure builder (``shell.figures`` or a lesson's ``figures``).
    key : str
        Streamlit element key (unique on the page; tests and selections use it).
    name : str, optional
        What the view shows, for the download's file name; defaults to ``key``.
    on_select : callable, optional
        Selection callback (``st.plotly_chart``'s ``on_select``).
    columns : int
        How many charts share the row: projector mode wraps the title to fit.
    """
    config = chart_config(name or key, selectable=on_select is not None)
    st.html(f'<p class="{CHART_TEXT_CLASS}">{html.escape(describe(fig))}</p>')
    if projector_on():
        fig = for_projector(fig, columns=columns, share=page_share())
    if touch_screen():
        turn = is_3d(fig) and st.toggle(_(TURN_LABEL), key=f"{key}_turn", help=_(TURN_HELP))
        if is_3d(fig) and not turn:
            st.html(f"<style>{still_scene_css(key)}</style>")
        fig = for_touch(fig, turn=turn)
        # A tap shows Plotly's mode bar over the chart's title, across a phone's narrow
        # chart. Kept where it is a control: a turned 3-D view's camera reset, a selecting
        # chart's box and lasso.
        config["displayModeBar"] = turn or on_select is not None
    if on_select is not None:
        state = st.plotly_chart(fig, key=key, on_select=partial(_if_readable, key, on_select),
                                selection_mode=selection_mode, config=config)
        if state.get(UNREADABLE):  # made up (server/widget_messages.py): nothing selected
            st.warning(_("The selection your browser sent for this chart could not be read, "
                         "so it is ignored."), icon=":material/select_all:")
        return state
    return st.plotly_chart(fig, key=key, config=config)


def _if_readable(key: str, on_select: Callable[[], None]) -> None:
    """The page's selection callback, for a selection that could be read: one that could
    not changes nothing the page keeps (its earlier selection stays)."""
    if not st.session_state[key].get(UNREADABLE):
        on_select()
