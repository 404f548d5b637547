"""Projector mode: the app readable from the back of a lecture hall (1280 × 720 projector).

An app-wide display setting, not part of :class:`~shell.state.Settings` (which keys the
computations: the numbers do not change when the text gets bigger). It is kept in the
session and in the URL (``?projector=1``), so a lecturer can bookmark the tour in
projector mode. :func:`for_projector` enlarges a figure (pure, tested); :func:`apply_css`
enlarges the page's text and hides secondary captions.
"""

from __future__ import annotations

import copy
import re
import textwrap

import plotly.graph_objects as go
import streamlit as st

PROJECTOR_PARAM = "projector"
PROJECTOR_KEY = "w_projector"
FONT, TITLE_FONT, TICK_FONT, SUBTITLE_FONT = 20, 24, 17, 18
MARKER_SCALE = 1.7
MIN_LINE_WIDTH = 3.5
# A vertical legend taller than this many entries no longer fits beside the plot at
# projector font sizes: it goes below the plot, in rows, and the figure grows.
MAX_SIDE_LEGEND = 6
DEFAULT_HEIGHT = 450  # Plotly's height when a figure sets none
# Characters of a bold title at TITLE_FONT across the main column of a 1280-px screen
# (measured: 78 fit across it, 33 across one of two columns); longer lines wrap. Each
# further chart in the row costs its share and the gap between them.
TITLE_CHARS, TITLE_GAP_CHARS = 72, 6
LINE_HEIGHT = 1.3  # of a font size: the height of one line of a title or subplot title
LEGEND_CHARS = 70  # legend characters (with each entry's symbol) across the main column
# Below the plot, at the figure's bottom edge (Plotly then keeps the axis labels above it).
LEGEND_BELOW = dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0,
                    xanchor="left")

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


def for_projector(fig: go.Figure, *, columns: int = 1) -> go.Figure:
    """A copy of ``fig`` with larger text, thicker markers and lines (the original is kept).

    Copied because pages may cache figures and share them between sessions. ``columns``:
    how many charts share the row (a title wraps to fit its chart's width).
    """
    fig = copy.deepcopy(fig)
    fig.update_layout(
        font=dict(size=FONT),
        title_font=dict(size=TITLE_FONT),
        # The legend's title too: Streamlit's theme draws it small and grey.
        legend=dict(font=dict(size=FONT), title_font=dict(size=FONT)),
        hoverlabel=dict(font=dict(size=FONT)),
    )
    fig.update_xaxes(tickfont=dict(size=TICK_FONT), title_font=dict(size=FONT))
    fig.update_yaxes(tickfont=dict(size=TICK_FONT), title_font=dict(size=FONT))
    fig.update_annotations(font_size=FONT)  # subplot titles
    names = [trace.name for trace in fig.data if trace.showlegend is not False and trace.name]
    legend = fig.layout.legend
    below = legend.orientation == "h" and legend.y is not None and legend.y < 0
    if below or (len(names) > MAX_SIDE_LEGEND and legend.orientation != "h"):
        # A long side legend would scroll; one placed a fraction of the plot's height below
        # it meets the larger tick labels and axis title. At the bottom edge it stays clear
        # of them, and the figure grows by its rows so the plot keeps its height.
        rows = legend_rows(names, LEGEND_CHARS // columns) + bool(legend.title.text)
        fig.update_layout(legend=LEGEND_BELOW, height=int(
            (fig.layout.height or DEFAULT_HEIGHT) + rows * FONT * LINE_HEIGHT))
    _fit_title(fig, title_width(columns))
    for trace in fig.data:
        if trace.type in ("scatter", "scattergl", "scatter3d"):
            if trace.marker is not None and trace.marker.size is not None:
                trace.marker.size = _scaled(trace.marker.size)
            elif trace.mode and "markers" in trace.mode:
                trace.marker.size = 6 * MARKER_SCALE if trace.type != "scatter3d" else 5
            if trace.mode and "lines" in trace.mode:
                trace.line.width = max(MIN_LINE_WIDTH, trace.line.width or 0)
        elif trace.type == "heatmap" and trace.texttemplate:
            trace.textfont.size = TICK_FONT  # numbers in the cells
    fig.for_each_scene(lambda scene: scene.update(
        xaxis_title_font_size=FONT, yaxis_title_font_size=FONT, zaxis_title_font_size=FONT))
    return fig


def title_width(columns: int) -> int:
    """Characters of a projector-size title that fit one of ``columns`` charts in a row."""
    return max(16, (TITLE_CHARS - TITLE_GAP_CHARS * (columns - 1)) // columns)


def _balanced(line: str, width: int) -> list[str]:
    """``line`` in as few lines of at most ``width`` characters, as even as they come."""
    count = len(textwrap.wrap(line, width)) or 1
    even = -(-len(line) // count)
    while len(textwrap.wrap(line, even)) > count:
        even += 1
    return textwrap.wrap(line, even) or [line]


def legend_rows(names: list[str], width: int) -> int:
    """Rows a horizontal legend of these entries takes, ``width`` characters to a row."""
    rows, used = 0, width
    for name in names:
        size = len(re.sub(r"<[^>]+>", "", name)) + 5  # the symbol and the gap
        if used + size > width:
            rows, used = rows + 1, 0
        used += size
    return rows


_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)
# A whole line in small print: the builders' way of writing a subtitle.
_SUBTITLE = re.compile(
    r"""^<(?:sup|span style=['"]font-size:\s*\d+px;?['"])>(.*)</(?:sup|span)>$""", re.IGNORECASE)
SUBTITLE_GAP = 1.6  # Plotly's space from the title to its subtitle, in subtitle font sizes


def projector_title(text: str, width: int) -> tuple[list[str], str | None]:
    """The title's lines for projector mode, and its subtitle.

    Plain lines longer than ``width`` characters wrap at spaces. A line in small print
    (``<sup>…</sup>``, drawn at 70 % of the title's size, or a ``font-size`` span) becomes
    Plotly's own subtitle, drawn at SUBTITLE_FONT below the title.
    """
    lines, subtitle = [], None
    for line in _BREAK.split(text):
        match = _SUBTITLE.match(line.strip())
        if match and subtitle is None:
            subtitle = match[1]
        elif "<" in line or len(line) <= width:
            lines.append(line)
        else:
            lines += _balanced(line, width)
    return lines, subtitle


def _fit_title(fig: go.Figure, width: int) -> None:
    """Wrap the title and make room for it above whatever sits on top of the plot.

    Subplot titles and a legend above the plot sit just above the plot area; the title
    goes above them, and the top margin holds both.
    """
    text = fig.layout.title.text
    if not text:
        return
    lines, subtitle = projector_title(text, width)
    height = TITLE_FONT * LINE_HEIGHT * len(lines)
    if subtitle is not None:
        height += SUBTITLE_FONT * SUBTITLE_GAP
    above = 0.0
    for note in fig.layout.annotations:
        if note.yref == "paper" and (note.y or 0) >= 0.99 and note.yanchor == "bottom":
            above = max(above, FONT * LINE_HEIGHT * len(_BREAK.split(note.text or "")))
    legend = fig.layout.legend
    if legend.orientation == "h" and (legend.y or 0) >= 1:
        above = max(above, FONT * LINE_HEIGHT * 1.4)
    top = 10 + height + (12 + above if above else 8)
    fig.update_layout(
        title=dict(
            text="<br>".join(lines), yref="container", y=1, yanchor="top",
            # Plotly centres a title's lines on its anchor: pad by the extra lines' half.
            pad=dict(t=10 + TITLE_FONT * LINE_HEIGHT * (len(lines) - 1) / 2),
            subtitle=dict(text=subtitle, font=dict(size=SUBTITLE_FONT)) if subtitle else None,
        ),
        margin_t=int(max(top, fig.layout.margin.t or 0)),
    )
