"""Projector mode: the app readable from the back of a lecture hall (1280 × 720 projector).

An app-wide display setting, not part of :class:`~shell.state.Settings` (which keys the
computations: the numbers do not change when the text gets bigger). It is kept in the
session and in the URL (``?projector=1``), so a lecturer can bookmark the tour in
projector mode. :func:`for_projector` enlarges a figure (pure, tested); :func:`apply_css`
enlarges the page's text, gives the charts the room around the page, and hides prose
captions.

Two kinds of caption, so projector mode knows which to keep:

* prose: ``st.caption`` — how to read a chart, where a number comes from. Hidden in
  projector mode: the lecturer says it.
* numbers: :func:`number_caption` — the result the lecturer points at (a separability
  score, the best γ, a summary of the components). Kept, at full size.

A link with ``?projector=1`` opens with the sidebar collapsed
(:func:`initial_sidebar_state`), so a pair of charts gets the whole width; its button
opens it again.

Touch screens (phones, tablets: :func:`touch_screen`) get charts that a swipe scrolls
past (:func:`for_touch`): a drag on a chart would otherwise zoom, and a phone's charts
fill the screen. Streamlit gives a chart with a linked selection a selection drag, which
keeps a touch from scrolling: the Explorer draws its selectable charts without one on a
touch screen until the student switches selecting on (``lessons/explorer/charts.py``).
A 3-D chart takes every touch whatever its drag mode (Plotly's 3-D camera cancels each
touch move, to turn the view): on a touch screen its scene ignores touches
(:func:`still_scene_css`) until the student switches turning it on (``shell.charts``).

On a narrow screen Streamlit's sidebar is a drawer over the page (77 % of a phone's
screen), and it stays open after a setting changes: the student changes γ and sees the
drawer, not the result. :func:`close_drawer_after_change` closes it after each change of
the settings, on narrow screens only (Streamlit has no command for it: a few lines of
JavaScript press its own "Collapse sidebar" button).
"""

from __future__ import annotations

import copy
import re
import textwrap
import unicodedata

import plotly.graph_objects as go
import streamlit as st

from shell.state import Q_PROJECTOR, parse_flag

PROJECTOR_KEY = "w_projector"
FONT, TITLE_FONT, TICK_FONT, SUBTITLE_FONT = 20, 24, 17, 18
MARKER_SCALE = 1.7
# Images (digits) grow this much taller, so De-noising's 16 × 16 digits are ~55 px on a
# 1280-px projector instead of ~28 (the grid's height was the limit, not its width).
IMAGE_SCALE = 2.0
MIN_LINE_WIDTH = 3.5
# A vertical legend taller than this many entries no longer fits beside the plot at
# projector font sizes: it goes below the plot, in rows, and the figure grows.
MAX_SIDE_LEGEND = 6
# A chart of a pair on a 1280 × 720 projector: the screen under Streamlit's 60-px header,
# less a line of text above the pair (its controls, or the tour's compact question). The
# server does not know the screen's size; this is the projector the app is laid out for
# (see pair_fits). A short legend stays beside the plot: the pair's plots are drawn to
# scale, and their height is what limits them (measured at 580 px: kernel PCA's plot
# 300 × 410 px with the legend beside, 284 × 355 with it below).
PAIR_HEIGHT = 580
DEFAULT_HEIGHT = 450  # Plotly's height when a figure sets none
# A 3-D chart on a touch screen: a phone's width (about 360 px of chart) and its title
# and legend; two of them no longer fill a 844-px screen.
TOUCH_3D_HEIGHT = 440
# Characters of a bold title at TITLE_FONT across the main column of a 1280-px screen
# (measured: 78 fit across it, 33 across one of two columns); longer lines wrap. Each
# further chart in the row costs its share and the gap between them.
TITLE_CHARS, TITLE_GAP_CHARS = 72, 6
# Charts side by side keep room for this many lines of title (or a title and its
# subtitle), so that one whose title wraps still has its plot level with its neighbour's.
ROW_TITLE_LINES = 2
LINE_HEIGHT = 1.3  # of a font size: the height of one line of a title or subplot title
LEGEND_CHARS = 70  # legend characters (with each entry's symbol) across the main column
# Below the plot, at the figure's bottom edge (Plotly then keeps the axis labels above it).
# Its title ("class") on the left of its first row, not on a row of its own.
LEGEND_BELOW = dict(orientation="h", yref="container", y=0, yanchor="bottom", x=0,
                    xanchor="left", title_side="left")

# The layout of a pair of charts to compare (kernel PCA beside linear PCA, K beside K̃):
# a row of such charts wraps onto two rows only when a column would be narrower than
# PAIR_COLUMN_REM (lessons/explorer/charts.py; Streamlit stacks any columns below 640 px).
# In projector mode the page's margins shrink to PROJECTOR_SIDE_REM so that, at the larger
# root font, the pair still sits side by side on a 1280-px projector with the sidebar open
# (:func:`pair_fits`, tested against both screens).
PAIR_COLUMN_REM = 22
COLUMN_GAP_REM = 1  # Streamlit's gap between columns
PROJECTOR_ROOT_PX = 19  # Streamlit sizes its text in rem: a larger root font scales it all
PROJECTOR_SIDE_REM = 2
SIDEBAR_PX = 300  # Streamlit's sidebar, open
PROJECTOR_PX = 1280  # the projector's width the app is laid out for
# A chart beside a pinned column (the tour's prompt) is brought on screen whole: no
# taller than a 720-px projector under Streamlit's header (4.25 rem at the projector's
# root font) and a margin.
SCREEN_ROOM_PX = 720 - 81 - 16


def pair_fits(content_px: float, root_px: float) -> bool:
    """Whether two chart columns of at least PAIR_COLUMN_REM fit side by side in a main
    column ``content_px`` wide (inside its margins) at a root font of ``root_px``."""
    return (2 * PAIR_COLUMN_REM + COLUMN_GAP_REM) * root_px <= content_px


def projector_content_px(viewport_px: float, *, sidebar_open: bool) -> float:
    """The main column's width inside its projector-mode margins."""
    sidebar = SIDEBAR_PX if sidebar_open else 0
    return viewport_px - sidebar - 2 * PROJECTOR_SIDE_REM * PROJECTOR_ROOT_PX


_CSS = f"""
<style>
html {{ font-size: {PROJECTOR_ROOT_PX}px; }}
/* Prose captions are for reading on one's own screen, not from row 20 (number_caption
   writes the numbers as body text). */
.stMain [data-testid="stCaptionContainer"] {{ display: none; }}
/* The page's margins go to the charts, so a pair sits side by side (see pair_fits), and
   the Explorer's projections fit a 1280 × 720 projector's first screen under the title. */
[data-testid="stMainBlockContainer"] {{
    padding-top: 4.5rem; padding-left: {PROJECTOR_SIDE_REM}rem;
    padding-right: {PROJECTOR_SIDE_REM}rem;
}}
.stMain h1 {{ font-size: 2.2rem; padding-top: 0.25rem; padding-bottom: 0.5rem; }}
</style>
"""


def projector_on() -> bool:
    return bool(st.session_state.get(PROJECTOR_KEY, False))


_BESIDE = "_kpca_beside_rem"  # this run: rem of the main column a pinned column takes


def pin_beside(rem: float) -> None:
    """This run, a column ``rem`` wide is pinned at the main column's left (the tour's
    prompt on a projector): the page's charts fit the rest (:func:`page_share`)."""
    st.session_state[_BESIDE] = rem


def page_share() -> float:
    """The part of the projector's main column the page has this run."""
    content = projector_content_px(PROJECTOR_PX, sidebar_open=False)
    return (content - st.session_state.get(_BESIDE, 0) * PROJECTOR_ROOT_PX) / content


def initial_sidebar_state() -> str:
    """``st.set_page_config``'s sidebar state: collapsed when the page opens in projector mode.

    Streamlit applies it when the page loads, not on later runs: switching projector mode
    on in the sidebar leaves the sidebar where the lecturer is. Read before the sidebar
    has read the link, so it reads the link too.
    """
    requested = st.session_state.get(PROJECTOR_KEY)
    if requested is None:
        requested = parse_flag(st.query_params.get(Q_PROJECTOR, "0"))
    return "collapsed" if requested else "auto"


# What a phone's or tablet's browser says it is: "Mobi" (phones: Safari, Chrome, Firefox),
# Android (tablets too), iPad (older iPadOS; newer ones say Macintosh and get the desktop
# behaviour). Chromium also sends the client hint Sec-CH-UA-Mobile: ?1 on phones.
_TOUCH_AGENT = re.compile(r"Mobi|Android|iPad|iPhone|iPod")


def touch_screen() -> bool:
    """Whether this session's browser is a phone's or a tablet's (from its request headers)."""
    headers = st.context.headers
    return (headers.get("Sec-CH-UA-Mobile") == "?1"
            or bool(_TOUCH_AGENT.search(headers.get("User-Agent") or "")))


def is_3d(fig: go.Figure) -> bool:
    """Whether ``fig`` draws a 3-D scene (a trace placed in one)."""
    return any("scene" in trace for trace in fig.data)


def for_touch(fig: go.Figure, *, turn: bool = False) -> go.Figure:
    """A copy of ``fig`` that a finger scrolls past: dragging neither selects nor zooms.

    Plotly lets the page scroll under a touch over a 2-D chart only when ``dragmode`` is
    off; a tap still shows a point's hover label. A chart with a linked selection
    (``on_select``) keeps its box or lasso drag: Streamlit replaces a ``dragmode`` that
    is off with the selection's (so the Explorer leaves ``on_select`` off on touch screens
    until asked). ``turn``: the student has asked to turn the 3-D scenes with a finger
    (their drag turns them; otherwise they take no drag, and :func:`still_scene_css`
    lets a swipe over them through to the page).
    """
    fig = go.Figure(fig)
    fig.update_layout(dragmode=False)
    if is_3d(fig):
        fig.for_each_scene(lambda scene: scene.update(dragmode="orbit" if turn else False))
        # A legend beside the scene took a third of a phone's width from it: below, the
        # scene has the width, and no more height than a phone's width needs.
        fig.update_layout(legend=LEGEND_BELOW, height=min(
            fig.layout.height or DEFAULT_HEIGHT, TOUCH_3D_HEIGHT))
    return fig


def key_class(key: str) -> str:
    """The class Streamlit gives the element of ``key`` (its frontend's rule: ``st-key-``
    and the key, each character outside [A-Za-z0-9_-] a hyphen)."""
    return "st-key-" + re.sub(r"[^A-Za-z0-9_-]", "-", key.strip())


def still_scene_css(key: str) -> str:
    """A style that keeps the 3-D chart of ``key`` from taking touches, so a swipe over it
    scrolls the page.

    Plotly's 3-D camera listens on the scene's WebGL container and cancels every touch
    move (to turn the view), whatever the drag mode (measured: a 3-D chart scrolled 0 px
    under a swipe that scrolled 185 px elsewhere). ``staticPlot`` is no way out: a static
    3-D chart draws off screen, for image export, and leaves the page blank. A container
    that takes no pointer events hands the touches to the chart's own element, which lets
    them scroll; its tool bar stays usable.
    """
    return f".{key_class(key)} .gl-container {{ pointer-events: none; }}"


# Streamlit's "md" breakpoint: at this width and below its sidebar overlays the page.
DRAWER_MAX_WIDTH_PX = 768
_CLOSE_DRAWER = """<script>
// Change number {run}: close the sidebar if it is a drawer covering the page.
(() => {{
  if (!window.matchMedia("(max-width: {width}px)").matches) return;
  const collapse = document.querySelector('[data-testid="stSidebarCollapseButton"] button');
  if (collapse?.getAttribute("aria-expanded") === "true") collapse.click();
}})();
</script>"""
_DRAWER_RUNS = "_kpca_drawer_closes"


def close_drawer_after_change() -> None:
    """Close the sidebar's drawer on a narrow screen (call when a setting has changed).

    On a wider screen the sidebar sits beside the page and stays as it is. Each call's
    script differs (a counter), so that the browser runs it again on every change.
    """
    run = st.session_state[_DRAWER_RUNS] = st.session_state.get(_DRAWER_RUNS, 0) + 1
    st.html(_CLOSE_DRAWER.format(run=run, width=DRAWER_MAX_WIDTH_PX),
            unsafe_allow_javascript=True)


def apply_css() -> None:
    """Enlarge the page's text when projector mode is on (call once per run)."""
    st.session_state[_BESIDE] = 0  # until something pins a column this run
    if projector_on():
        st.html(_CSS)


def number_caption(text: str) -> None:
    """A caption that states the result the lecturer points at: kept in projector mode.

    Prose captions (``st.caption``) are hidden there; this one is written as body text,
    readable from the back of the hall.
    """
    if projector_on():
        st.markdown(text)
    else:
        st.caption(text)


def _scaled(size):
    if isinstance(size, int | float):
        return size * MARKER_SCALE
    return size  # per-point sizes carry meaning: keep them


def for_projector(fig: go.Figure, *, columns: int = 1, share: float = 1.0) -> go.Figure:
    """A copy of ``fig`` with larger text, thicker markers and lines (the original is kept).

    Copied because pages may cache figures and share them between sessions. ``columns``:
    how many charts share the row (a title wraps to fit its chart's width). A chart of a
    pair (``columns=2``) fills the projector's screen (:data:`PAIR_HEIGHT`). ``share``: the
    part of the main column's width the page has (:func:`page_share`: less when a column
    is pinned beside it); a pair's charts then narrower than tall keep their width for the
    plot, their legend below it.
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
    fig.for_each_xaxis(_plain_log_ticks)
    fig.for_each_yaxis(_plain_log_ticks)
    # A slider's labels (γ in motion's 21 values) and its buttons: Plotly thins the labels
    # that no longer fit side by side.
    for slider in fig.layout.sliders:
        slider.font.size = TICK_FONT
    for menu in fig.layout.updatemenus:
        menu.font.size = TICK_FONT
    names = [trace.name for trace in fig.data if trace.showlegend is not False and trace.name]
    legend = fig.layout.legend
    below = legend.orientation == "h" and legend.y is not None and legend.y < 0
    narrow_pair = columns > 1 and share < 1 and bool(names)
    if below or (legend.orientation != "h" and (len(names) > MAX_SIDE_LEGEND or narrow_pair)):
        # A long side legend would scroll; one placed a fraction of the plot's height below
        # it meets the larger tick labels and axis title. At the bottom edge it stays clear
        # of them, and the figure grows by its rows so the plot keeps its height.
        title = [legend.title.text] if legend.title.text else []  # first, in the row
        rows = legend_rows(title + names, int(LEGEND_CHARS * share) // columns)
        fig.update_layout(legend=LEGEND_BELOW, height=int(
            (fig.layout.height or DEFAULT_HEIGHT) + rows * FONT * LINE_HEIGHT))
    plot_height = (fig.layout.height or DEFAULT_HEIGHT) - (fig.layout.margin.t or 0)
    _fit_title(fig, title_width(columns, share),
               min_lines=ROW_TITLE_LINES if columns > 1 else 1)
    if _is_image_strip(fig):
        # A strip of digits drawn to scale is as tall as the figure lets it be: give it
        # IMAGE_SCALE times the height, on top of the room the larger title takes.
        fig.update_layout(height=int(plot_height * IMAGE_SCALE + fig.layout.margin.t))
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
    if columns == 2 and not _is_image_strip(fig):
        fig.update_layout(height=max(fig.layout.height or DEFAULT_HEIGHT, PAIR_HEIGHT))
    if share < 1 and (fig.layout.height or DEFAULT_HEIGHT) > SCREEN_ROOM_PX:
        fig.update_layout(height=SCREEN_ROOM_PX)
    return fig


def _plain_log_ticks(axis) -> None:
    """A log axis labelled 10⁻², 10³ gets plain numbers (0.01, 1000; 1e-7 below 1e-6):
    Plotly draws an exponent at 70 % of the tick font, too small from the back of a hall."""
    if axis.type == "log" and axis.exponentformat == "power":
        axis.update(exponentformat="none", tickformat="~g")


# A heatmap drawn to scale at least this many times wider than tall: its height, not the
# page's width, limits its size (rows of digits). A square kernel matrix is not one: it
# already fills its column's width, and more height would only add space around it.
STRIP_ASPECT = 2.0


def _is_image_strip(fig: go.Figure) -> bool:
    """A heatmap drawn to scale (pixels square) whose axis ranges (set, as
    :func:`shell.figures.digit_mosaic` sets them) are much wider than tall."""
    x, y = fig.layout.xaxis.range, fig.layout.yaxis.range
    if (fig.layout.yaxis.scaleanchor != "x" or x is None or y is None
            or not any(t.type == "heatmap" for t in fig.data)):
        return False
    return abs(x[1] - x[0]) >= STRIP_ASPECT * abs(y[1] - y[0])


def title_width(columns: int, share: float = 1.0) -> int:
    """Characters of a projector-size title that fit one of ``columns`` charts in a row
    across ``share`` of the main column."""
    return max(16, int(TITLE_CHARS * share - TITLE_GAP_CHARS * (columns - 1)) // columns)


# Chinese (Japanese, Korean) text: a character is drawn about two Latin letters wide, and a
# line may break between any two of them, not only at spaces. Punctuation that closes
# stays at the end of its line, punctuation that opens at the start of the next.
_CLOSING = set("，。、；：！？）」』”’》〉…,.;:!?)]}%")
_OPENING = set("（「『“‘《〈([{")


def _is_wide(char: str) -> bool:
    return unicodedata.east_asian_width(char) in ("W", "F")


def columns_of(text: str) -> int:
    """Latin columns ``text`` takes: a wide (CJK) character two, a combining mark (the
    tilde of K̃) none, others one. Text without wide characters: its length, as before
    (the English titles wrap as they always did)."""
    if not any(_is_wide(char) for char in text):
        return len(text)
    return _columns(text)


def _columns(text: str) -> int:
    return sum(2 if _is_wide(char) else 0 if unicodedata.combining(char) else 1
               for char in text)


def _pieces(line: str) -> list[str]:
    """``line`` cut where a line may break: spaces (kept as pieces of their own), between
    two CJK characters, between a CJK character and a Latin word; never inside a Latin
    word or a number, never before closing punctuation or after opening punctuation."""
    pieces: list[str] = []
    glued = False  # the last piece ends in opening punctuation: the next char joins it
    for char in line:
        if char.isspace():
            pieces.append(" ")
            glued = False
            continue
        last = pieces[-1] if pieces and pieces[-1] != " " else None
        joins = last is not None and (
            glued or char in _CLOSING or unicodedata.combining(char)
            or not (_is_wide(char) or _is_wide(last[-1])))
        if joins:
            pieces[-1] += char
        else:
            pieces.append(char)
        glued = char in _OPENING
    return pieces


def _wide_wrap(line: str, width: int) -> list[str]:
    """:func:`textwrap.wrap` for text with CJK characters: at most ``width`` columns
    (:func:`columns_of`) a line where the pieces allow, spaces at a break dropped."""
    lines: list[str] = []
    current = ""
    for piece in _pieces(line):
        if piece == " ":
            if current:
                current += " "
            continue
        if current.strip() and _columns(current + piece) > width:
            lines.append(current.rstrip())
            current = ""
        current += piece
    if current.strip():
        lines.append(current.rstrip())
    return lines


def _wrap(line: str, width: int) -> list[str]:
    if any(_is_wide(char) for char in line):
        return _wide_wrap(line, width)
    return textwrap.wrap(line, width)


def _balanced(line: str, width: int) -> list[str]:
    """``line`` in as few lines of at most ``width`` columns (:func:`columns_of`), as even
    as they come."""
    count = len(_wrap(line, width)) or 1
    even = -(-columns_of(line) // count)
    while len(_wrap(line, even)) > count:
        even += 1
    return _wrap(line, even) or [line]


def legend_rows(names: list[str], width: int) -> int:
    """Rows a horizontal legend of these entries takes, ``width`` columns to a row."""
    rows, used = 0, width
    for name in names:
        size = columns_of(re.sub(r"<[^>]+>", "", name)) + 5  # the symbol and the gap
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

    Plain lines longer than ``width`` columns wrap at spaces (and between CJK characters:
    :func:`columns_of`). A line in small print
    (``<sup>…</sup>``, drawn at 70 % of the title's size, or a ``font-size`` span) becomes
    Plotly's own subtitle, drawn at SUBTITLE_FONT below the title.
    """
    lines, subtitle = [], None
    for line in _BREAK.split(text):
        match = _SUBTITLE.match(line.strip())
        if match and subtitle is None:
            subtitle = match[1]
        elif "<" in line or columns_of(line) <= width:
            lines.append(line)
        else:
            lines += _balanced(line, width)
    return lines, subtitle


def _fit_title(fig: go.Figure, width: int, *, min_lines: int = 1) -> None:
    """Wrap the title and make room for it above whatever sits on top of the plot.

    Subplot titles and a legend above the plot sit just above the plot area; the title
    goes above them, and the top margin holds both, and at least ``min_lines`` lines of
    title.
    """
    text = fig.layout.title.text
    if not text:
        return
    lines, subtitle = projector_title(text, width)
    height = TITLE_FONT * LINE_HEIGHT * len(lines)
    if subtitle is not None:
        height += SUBTITLE_FONT * SUBTITLE_GAP
    height = max(height, TITLE_FONT * LINE_HEIGHT * min_lines)
    above = 0.0
    for note in fig.layout.annotations:
        if note.yref == "paper" and (note.y or 0) >= 0.99 and note.yanchor == "bottom":
            above = max(above, FONT * LINE_HEIGHT * len(_BREAK.split(note.text or "")))
    legend = fig.layout.legend
    if legend.orientation == "h" and (legend.y or 0) >= 1:
        above = max(above, FONT * LINE_HEIGHT * 1.4)
    # The top tick label straddles the plot's top edge: half of it above, clear of the title.
    top = 10 + height + (12 + above if above else 8 + TICK_FONT // 2)
    fig.update_layout(
        title=dict(
            text="<br>".join(lines), yref="container", y=1, yanchor="top",
            # Plotly centres a title's lines on its anchor: pad by the extra lines' half.
            pad=dict(t=10 + TITLE_FONT * LINE_HEIGHT * (len(lines) - 1) / 2),
            subtitle=dict(text=subtitle, font=dict(size=SUBTITLE_FONT)) if subtitle else None,
        ),
        margin_t=int(max(top, fig.layout.margin.t or 0)),
    )
