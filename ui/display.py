"""Projector mode: the app readable from the back of a lecture hall (1280 × 720 projector).

An app-wide display setting, not part of :class:`~ui.state.Settings` (which keys the
computations: the numbers do not change when the text gets bigger). It is kept in the
session and in the URL (``?projector=1``), so a lecturer can bookmark the tour in
projector mode. :func:`for_projector` enlarges a figure (pure, tested); :func:`apply_css`
enlarges the page's text and hides secondary captions.
"""

from __future__ import annotations

import copy

import plotly.graph_objects as go
import streamlit as st

PROJECTOR_PARAM = "projector"
PROJECTOR_KEY = "w_projector"
FONT, TITLE_FONT, TICK_FONT = 20, 24, 17
MARKER_SCALE = 1.7
MIN_LINE_WIDTH = 3.5
# A vertical legend taller than this many entries no longer fits beside the plot at
# projector font sizes: it goes below the plot, in rows, and the figure grows.
MAX_SIDE_LEGEND = 6
DEFAULT_HEIGHT = 450  # Plotly's height when a figure sets none

_CSS = """
<style>
/* Streamlit sizes its text in rem: a larger root font scales the whole page. */
html { font-size: 19px; }
/* Secondary captions are for reading on one's own screen, not from row 20. */
.stMain [data-testid="stCaptionContainer"] { display: none; }
</style>
"""


def projector_on() -> bool:
    return bool(st.session_state.get(PROJECTOR_KEY, False))


def apply_css() -> None:
    """Enlarge the page's text when projector mode is on (call once per run)."""
    if projector_on():
        st.html(_CSS)


def _scaled(size):
    if isinstance(size, int | float):
        return size * MARKER_SCALE
    return size  # per-point sizes carry meaning: keep them


def for_projector(fig: go.Figure) -> go.Figure:
    """A copy of ``fig`` with larger text, thicker markers and lines (the original is kept).

    Copied because pages may cache figures and share them between sessions.
    """
    fig = copy.deepcopy(fig)
    fig.update_layout(
        font=dict(size=FONT),
        title_font=dict(size=TITLE_FONT),
        legend=dict(font=dict(size=FONT)),
        hoverlabel=dict(font=dict(size=FONT)),
    )
    fig.update_xaxes(tickfont=dict(size=TICK_FONT), title_font=dict(size=FONT))
    fig.update_yaxes(tickfont=dict(size=TICK_FONT), title_font=dict(size=FONT))
    fig.update_annotations(font_size=FONT)  # subplot titles
    entries = sum(trace.showlegend is not False and bool(trace.name) for trace in fig.data)
    if entries > MAX_SIDE_LEGEND and fig.layout.legend.orientation != "h":
        fig.update_layout(
            legend=dict(orientation="h", yanchor="top", y=-0.18, x=0, xanchor="left"),
            height=int((fig.layout.height or DEFAULT_HEIGHT) * 1.3),
        )
    for trace in fig.data:
        if trace.type in ("scatter", "scattergl", "scatter3d"):
            if trace.marker is not None and trace.marker.size is not None:
                trace.marker.size = _scaled(trace.marker.size)
            elif trace.mode and "markers" in trace.mode:
                trace.marker.size = 6 * MARKER_SCALE if trace.type != "scatter3d" else 5
            if trace.mode and "lines" in trace.mode:
                trace.line.width = max(MIN_LINE_WIDTH, trace.line.width or 0)
    fig.for_each_scene(lambda scene: scene.update(
        xaxis_title_font_size=FONT, yaxis_title_font_size=FONT, zaxis_title_font_size=FONT))
    return fig
