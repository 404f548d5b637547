"""Shared figure pieces: the palette, the layout, scatters and digit mosaics.

One palette for classes, used by every figure, so class 2 is the same colour in input
space, in the KPCA projection and in the linear PCA projection. K uses a sequential
scale; K̃ a diverging scale centred on 0 (its entries are signed).
"""

from __future__ import annotations

import html
from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from datasets import CLASS_NAMES
from words.i18n import N_, _
from words.text import shorten

# Ten classes (USPS has ten digits) told apart by everyone, from the back of a hall too.
# Chosen by a search over sRGB (tests/shell/test_palette.py checks the result) for the
# largest smallest CIEDE2000 difference between any two colours, under normal vision and
# under simulated protanopia and deuteranopia (Machado et al. 2009): ΔE00 ≥ 19 normal,
# ≥ 11 for dichromats, and the first four (most data sets have two to four classes) ≥ 30
# and ≥ 19. Every colour keeps 3:1 contrast on the light theme's white and on the dark
# theme's background, and no colour is a grey (greys are faded points and reference
# lines). Blue and orange come first. The palette before had ΔE00 6.0 between two of its
# blues and 4.1 under deuteranopia. In order: blue, orange, teal, crimson, lavender, pink,
# red, olive, dark green, violet.
PALETTE = (
    "#366CA2", "#CC6618", "#00A290", "#AE3054", "#9090C0",
    "#E46C90", "#C0180C", "#848A5A", "#1E6C5A", "#BA54FC",
)  # fmt: skip
# Shape is a second cue besides colour (and the only one in a grey-scale print).
# WebGL and SVG scatters draw all of these; 3-D scatters know fewer symbols.
SYMBOLS_2D = (
    "circle", "square", "diamond", "triangle-up", "x",
    "cross", "triangle-down", "star", "hexagon", "pentagon",
)  # fmt: skip
SYMBOLS_3D = ("circle", "square", "diamond", "cross", "x", "circle-open", "square-open",
              "diamond-open")
KERNEL_SCALE = "Viridis"  # sequential: K
CENTERED_SCALE = "RdBu_r"  # diverging, centred on 0: K̃
DIGIT_SCALE = "Greys"  # USPS: -1 background → white, +1 ink → black
KEPT_COLOUR = "#4E79A7"
DROPPED_COLOUR = "#BFCBDA"
NEGATIVE_COLOUR = "#D62728"
LINEAR_PCA_COLOUR = "#7F7F7F"
# Reference lines drawn on the page's background (a flat spectrum, an exact value): a mid
# grey with 3:1 contrast on the light theme's white and on the dark theme's background,
# where black or #333 vanish.
REFERENCE_COLOUR = "#8C8C8C"
FADED_OPACITY = 0.12

# The y axis drawn at the x axis's scale, its plot area shrunk to fit (rather than its
# range stretched): for 2-D coordinates in one space.
EQUAL_SCALE = dict(scaleanchor="x", scaleratio=1, constrain="domain")

LEGEND_TITLE = N_("class")
# The one "class" of data without labels: English in a table or a CSV file, in the run's
# language in a figure (class_label, shown_class_label).
ALL_POINTS = N_("all points")
# In English; a figure takes base_layout(), whose legend title is in the run's language.
BASE_LAYOUT = dict(
    margin=dict(l=10, r=10, t=50, b=10),
    font=dict(size=14),
    legend=dict(title_text=LEGEND_TITLE, itemsizing="constant"),
)


def base_layout() -> dict:
    """:data:`BASE_LAYOUT` with its legend title in this run's language (a new dict)."""
    return {**BASE_LAYOUT, "legend": {**BASE_LAYOUT["legend"], "title_text": _(LEGEND_TITLE)}}


def class_colour(label: int) -> str:
    return PALETTE[int(label) % len(PALETTE)]


def class_symbol(label: int, *, three_d: bool = False) -> str:
    symbols = SYMBOLS_3D if three_d else SYMBOLS_2D
    return symbols[int(label) % len(symbols)]


def faded(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{FADED_OPACITY})"


def classes(y: np.ndarray | None, n: int) -> list[tuple[int, np.ndarray]]:
    if y is None:
        return [(0, np.arange(n))]
    return [(int(c), np.flatnonzero(y == c)) for c in np.unique(y)]


def plot_text(value: object) -> str:
    """Text the app did not write (an upload's class or column name) for a Plotly title,
    legend, axis, tick or hover label, shown as typed.

    Plotly renders a subset of HTML in all of these (``<a href=...>`` is a link,
    ``<img>``-like tags and ``<br>`` change the layout) and fills ``%{...}`` in hover
    templates; ``<``, ``&`` and ``%`` are written as entities, which Plotly shows as the
    characters. Shortened like Streamlit text (:func:`words.text.shorten`).
    """
    return html.escape(shorten(value), quote=False).replace("%", "&#37;")


def class_label(target_names: Sequence[str], label: int, y: np.ndarray | None) -> str:
    """A class's name as plain text (a table, a CSV file): English, as whatever leaves the
    app (:func:`class_name` for what a figure shows)."""
    if y is None:
        return ALL_POINTS
    return str(target_names[label]) if 0 <= label < len(target_names) else str(label)


# The class names the app itself gives a built-in data set, as whole tuples: only a data
# set named exactly so (in order) is shown in the session's language. An upload's or a
# drawing's own names, and the data's own (iris's species, the digits), pass through as
# they are.
_APP_CLASS_NAMES = frozenset(CLASS_NAMES.values())


def shown_class_label(target_names: Sequence[str], label: int, y: np.ndarray | None) -> str:
    """A class's name as plain text on screen (a table's cell, a sentence): in this run's
    language where the app named it ("all points", a built-in data set's "outer
    circle"), else as the data names it. :func:`class_label` for what leaves the app."""
    if y is None:
        return _(ALL_POINTS)
    name = class_label(target_names, label, y)
    return _(name) if tuple(target_names) in _APP_CLASS_NAMES else name


def class_name(target_names: Sequence[str], label: int, y: np.ndarray | None) -> str:
    """A class's name for a figure (legend, hover, tick): :func:`plot_text` of
    :func:`shown_class_label`, in this run's language where the app named it."""
    return plot_text(shown_class_label(target_names, label, y))


def point_scatter(
    Z: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    title: str,
    axis_titles: Sequence[str],
    highlight: Sequence[int] | None = None,
    webgl: bool = False,
    height: int | None = None,
    rows: np.ndarray | None = None,
    noun: str | None = None,
) -> go.Figure:
    """Scatter of the rows of Z (2 or 3 columns), one trace per class, drawn to scale.

    A 2-D scatter has equal scales on its axes (one unit is as many pixels across as up):
    its columns are coordinates in one space (the inputs, linear or kernel principal
    components: distances in the picture are the distances the method sees), so a circle
    stays a circle and a rotation looks like one. The plot area shrinks along the axis
    with the smaller spread rather than stretching it.

    Each point carries its row index as ``customdata`` (shown on hover and returned by
    box/lasso selections): its row of Z, or ``rows[i]`` when Z holds a sample of the data
    (the row in the data). ``highlight`` fades every other point (rows of Z). The hover
    names the class with ``noun`` ("digit 3" for USPS; "class" by default), in this run's
    language.
    Coordinates are sent as float32 (7 significant digits, far beyond what a pixel shows)
    and indices as int32: half the bytes of float64/int64.
    """
    n, dims = Z.shape
    if dims not in (2, 3):
        raise ValueError(f"point_scatter draws 2 or 3 columns, got {dims}")
    selected = np.zeros(n, dtype=bool)
    if highlight is not None and len(highlight):
        picked = np.asarray(highlight, dtype=np.int64)
        selected[picked[(picked >= 0) & (picked < n)]] = True  # a selection is browser input
    fig = go.Figure()
    noun = _("class") if noun is None else noun
    for label, idx in classes(y, n):
        name = class_name(target_names, label, y)
        colour = class_colour(label)
        marker = dict(color=colour, size=6 if dims == 2 else 3,
                      symbol=class_symbol(label, three_d=dims == 3))
        if selected.any():  # per-point colours: 3-D markers take no per-point opacity
            marker["color"] = np.where(selected[idx], colour, faded(colour))
        hover = _("point {index}<br>{noun}: {name}").format(
            index="%{customdata}", noun=noun, name=name) + "<extra></extra>"
        common = dict(
            mode="markers",
            name=name,
            customdata=(idx if rows is None else np.asarray(rows)[idx]).astype(np.int32),
            marker=marker,
            hovertemplate=hover,
        )
        Zc = np.asarray(Z[idx], dtype=np.float32)
        if dims == 2:
            trace_type = go.Scattergl if webgl else go.Scatter
            fig.add_trace(trace_type(x=Zc[:, 0], y=Zc[:, 1], **common))
        else:
            fig.add_trace(go.Scatter3d(x=Zc[:, 0], y=Zc[:, 1], z=Zc[:, 2], **common))
    fig.update_layout(title=title, dragmode="lasso" if dims == 2 else "orbit", **base_layout())
    if height is not None:
        fig.update_layout(height=height)
    if dims == 2:
        fig.update_xaxes(title=axis_titles[0], constrain="domain")
        fig.update_yaxes(title=axis_titles[1], **EQUAL_SCALE)
    else:
        # Small axis-title font and no side margins: 3-D titles are drawn inside the
        # scene and are clipped at the figure's edge otherwise.
        axis_font = dict(size=11)
        fig.update_layout(
            scene=dict(
                xaxis=dict(title=dict(text=axis_titles[0], font=axis_font)),
                yaxis=dict(title=dict(text=axis_titles[1], font=axis_font)),
                zaxis=dict(title=dict(text=axis_titles[2], font=axis_font)),
                aspectmode="cube",
                # A little further than Plotly's default eye (1.25, 1.25, 1.25), so the
                # axis titles stay inside a 400-px-high chart.
                camera=dict(eye=dict(x=1.6, y=1.6, z=1.1)),
            ),
            margin=dict(l=0, r=0, t=50, b=0),
        )
    return fig


def digit_mosaic(
    images: np.ndarray,
    image_shape: tuple[int, int],
    *,
    columns: int,
    hover_labels: Sequence[str],
    title: str,
    row_labels: Sequence[str] | None = None,
) -> go.Figure:
    """Tile flattened grey images into one heatmap (dark ink on white, 1-px gaps).

    Pixels go as float32 (a grey level needs no more). Each image's hover label is sent
    once, on an invisible marker covering its tile, rather than once per pixel (a
    16 × 16 image would repeat it 256 times).
    """
    height, width = image_shape
    count = len(images)
    rows = max(1, -(-count // columns))
    cell_h, cell_w = height + 1, width + 1
    canvas = np.full((rows * cell_h - 1, columns * cell_w - 1), np.nan, dtype=np.float32)
    centres = np.empty((count, 2))
    for i in range(count):
        r, c = divmod(i, columns)
        y0, x0 = r * cell_h, c * cell_w
        canvas[y0 : y0 + height, x0 : x0 + width] = np.asarray(images[i]).reshape(height, width)
        centres[i] = (x0 + (width - 1) / 2, y0 + (height - 1) / 2)
    fig = go.Figure(
        go.Heatmap(
            z=canvas,
            colorscale=DIGIT_SCALE,
            showscale=False,
            hoverinfo="skip",
        )
    )
    fig.add_trace(
        go.Scatter(
            x=centres[:, 0],
            y=centres[:, 1],
            mode="markers",
            marker=dict(size=max(4, min(width, height) * 2), symbol="square", opacity=0),
            text=list(hover_labels[:count]),
            hovertemplate="%{text}<extra></extra>",
            showlegend=False,
        )
    )
    # The canvas's own edges: left to autorange, the invisible hover markers would pad
    # it and shrink the digits.
    yaxis = dict(range=[canvas.shape[0] - 0.5, -0.5], scaleanchor="x", constrain="domain",
                 showgrid=False, zeroline=False)
    if row_labels is not None:
        yaxis.update(
            tickvals=[r * cell_h + height / 2 for r in range(rows)], ticktext=list(row_labels)
        )
    else:
        yaxis["showticklabels"] = False
    fig.update_layout(
        title=title,
        xaxis=dict(range=[-0.5, canvas.shape[1] - 0.5], constrain="domain",
                   showticklabels=False, showgrid=False, zeroline=False),
        yaxis=yaxis,
        # Transparent gaps: the tiles read as separate images on a light or a dark page.
        plot_bgcolor="rgba(0,0,0,0)",
        **{k: v for k, v in BASE_LAYOUT.items() if k != "legend"},
    )
    return fig
