"""The Explorer's figures: K and K̃ as heatmaps, and the eigen-spectrum."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from shell.figures import (
    BASE_LAYOUT,
    CENTERED_SCALE,
    DROPPED_COLOUR,
    KEPT_COLOUR,
    KERNEL_SCALE,
    LINEAR_PCA_COLOUR,
    NEGATIVE_COLOUR,
    base_layout,
)
from words.i18n import _

SPECTRUM_SHOWN = 30  # leading eigenvalues drawn as bars
# Plotly's automargin grows a margin that is too small for the tick labels or the colour
# bar, then draws the whole figure a second time: for a 200 × 200 heatmap that second
# draw cost as much as the first (~150 ms each in Chromium). Margins estimated from the
# labels up front leave automargin nothing to grow. They are fitted to what Chromium drew
# in a two-column chart (402 px at a 1280-px window), where the square heatmap is as
# wide as the margins allow: an over-estimate there makes it smaller, an under-estimate
# only costs the second draw (automargin stays on).
TICK_PX_PER_CHAR = 6.0  # class names on the axes: 5.8–6.5 px per character measured
COLORBAR_PX_PER_CHAR = 7.0  # the colour bar's tick labels
COLORBAR_MAX_CHARS = 9


def _colorbar_label_chars(zmin: float, zmax: float) -> int:
    """Characters of the widest colour-bar label, with a finer tick step than Plotly's.

    At most COLORBAR_MAX_CHARS: a constant matrix (γ → 0 makes K all ones) has no tick
    step at all, and Plotly shortens long labels (SI prefixes, exponents).
    """
    span = zmax - zmin
    if not span > 1e-12 * max(1.0, abs(zmin), abs(zmax)):  # constant (or NaN) matrix
        return COLORBAR_MAX_CHARS
    rough = span / 10
    power = 10.0 ** np.floor(np.log10(rough))
    step = next(m * power for m in (1, 2, 5, 10) if m * power >= rough)
    decimals = max(0, int(-np.floor(np.log10(step))))
    widest = max(len(f"{value:.{decimals}f}") for value in (zmin, zmax))
    return min(widest, COLORBAR_MAX_CHARS)


def heatmap_margins(class_names: Sequence[str], *, slant: bool, zmin: float, zmax: float) -> dict:
    """Margins (px) that hold the class-name ticks and the colour bar of a kernel heatmap."""
    longest = max((len(str(name)) for name in class_names), default=0)
    labelled = len(class_names) > 1
    left = 10 + (max(24, round(TICK_PX_PER_CHAR * longest) + 8) if labelled else 0)
    bottom = 10 + ((round(3.6 * longest) + 24 if slant else 34) if labelled else 0)
    right = 56 + round(COLORBAR_PX_PER_CHAR * _colorbar_label_chars(zmin, zmax))
    return dict(l=left, r=right, t=BASE_LAYOUT["margin"]["t"], b=bottom)


def kernel_heatmap(
    M: np.ndarray,
    class_sizes: Sequence[int],
    class_names: Sequence[str],
    *,
    centered: bool,
    block_size: int = 1,
    title: str,
    point_index: np.ndarray | None = None,
    highlight: Sequence[int] = (),
    scale_of: np.ndarray | None = None,
) -> go.Figure:
    """K (sequential colours) or K̃ (diverging, 0 = white) with class blocks outlined.

    ``M`` is already in class order (and block-averaged when ``block_size`` > 1);
    ``class_sizes`` are in points, so boundaries are drawn at cumulative sizes / block.
    ``point_index`` (the class-order permutation) makes the hover name each cell's
    points by their row, as the scatters do ("point 17"), not by position.
    ``highlight``: positions (rows of ``M``) whose rows and columns are marked, the
    selected points of the page's other charts (:func:`highlight_bands`).
    ``scale_of``: the matrix whose colour scale is drawn (``M`` by default): a copy of the
    page's matrix binned further keeps the page's scale, which its captions quote.
    """
    m = M.shape[0]
    # Sent as float32: half the bytes per rerun (up to 500² cells per heatmap), and still
    # ~7 significant digits, more than the colour scale or the 4-digit hover can show.
    heat = dict(
        z=np.asarray(M, dtype=np.float32), colorscale=CENTERED_SCALE if centered else KERNEL_SCALE
    )
    scale = M if scale_of is None else scale_of
    if centered:
        bound = float(np.max(np.abs(scale))) or 1.0
        heat.update(zmid=0.0, zmin=-bound, zmax=bound)
        zrange = (-bound, bound)
    else:
        zrange = (float(np.min(scale)), float(np.max(scale)))
        if scale_of is not None:
            heat.update(zmin=zrange[0], zmax=zrange[1])
    if block_size == 1 and point_index is not None:
        # Category axes named by point number: cells stay at positions 0..m-1 (class
        # boundaries and ticks are positions), and the hover shows each cell's points.
        labels = [str(int(i)) for i in point_index]
        heat["x"] = labels
        heat["y"] = labels
        heat["hovertemplate"] = _(
            "row point {row}, column point {column}<br>value {value}").format(
            row="%{y}", column="%{x}", value="%{z:.4g}") + "<extra></extra>"
    else:
        heat["hovertemplate"] = _(
            "row block {row}, column block {column} (blocks of points sorted by class)"
            "<br>mean value {value}").format(
            row="%{y}", column="%{x}", value="%{z:.4g}") + "<extra></extra>"
    heat["colorbar"] = dict(thickness=14)
    fig = go.Figure(go.Heatmap(**heat))

    edges = np.cumsum(class_sizes)[:-1] / block_size - 0.5
    for edge in edges:
        line = dict(color="black", width=1)
        fig.add_shape(type="line", x0=edge, x1=edge, y0=-0.5, y1=m - 0.5, line=line)
        fig.add_shape(type="line", y0=edge, y1=edge, x0=-0.5, x1=m - 0.5, line=line)
    if len(highlight):
        fig.add_shape(**highlight_bands(highlight, m))
    centres = np.concatenate([[0], np.cumsum(class_sizes)[:-1]]) + np.asarray(class_sizes) / 2
    ticks = dict(tickvals=list(centres / block_size - 0.5), ticktext=list(class_names))
    if len(class_sizes) <= 1:
        ticks = dict(showticklabels=False)
    # Long or many class names: slant the column labels instead of overlapping them.
    slant = 0 if sum(len(str(c)) for c in class_names) <= 16 else -30
    margin = heatmap_margins(class_names, slant=bool(slant), zmin=zrange[0], zmax=zrange[1])
    fig.update_xaxes(
        range=[-0.5, m - 0.5], constrain="domain", tickangle=slant, automargin=True,
        type="category" if "x" in heat else "-", **ticks,
    )
    fig.update_yaxes(
        range=[m - 0.5, -0.5], scaleanchor="x", constrain="domain", automargin=True,
        type="category" if "y" in heat else "-", **ticks,
    )
    fig.update_layout(title=title, height=480, **{**base_layout(), "margin": margin})
    return fig


HIGHLIGHT_FILL = "rgba(255, 196, 0, 0.3)"  # amber: apart from Viridis' and RdBu's colours
HIGHLIGHT_LINE = "rgba(0, 0, 0, 0.6)"


def selected_runs(positions: Sequence[int]) -> list[tuple[int, int]]:
    """Sorted positions as runs of consecutive ones: [(first, last), ...]."""
    p = np.unique(np.asarray(positions, dtype=int))
    if not len(p):
        return []
    breaks = np.flatnonzero(np.diff(p) > 1)
    return list(zip(p[np.r_[0, breaks + 1]].tolist(), p[np.r_[breaks, len(p) - 1]].tolist(),
                    strict=True))


def highlight_bands(positions: Sequence[int], m: int) -> dict:
    """One shape marking the rows and the columns at ``positions`` of an m × m heatmap:
    a band per run of consecutive positions, all in one SVG path (one shape to draw, a
    few bytes per band, however many points are selected).

    Every rectangle winds the same way (x first, then y), so where a row band crosses a
    column band (the selected points' own block among them) the nonzero rule counts the
    cell twice and fills it: with opposite windings the two would cancel and leave it
    blank."""
    low, high = -0.5, m - 0.5
    bands = []
    for first, last in selected_runs(positions):
        a, b = first - 0.5, last + 0.5
        bands.append(f"M{a},{low}H{b}V{high}H{a}Z")  # the columns
        bands.append(f"M{low},{a}H{high}V{b}H{low}Z")  # the rows
    return dict(type="path", path="".join(bands), xref="x", yref="y", layer="above",
                fillcolor=HIGHLIGHT_FILL, line=dict(color=HIGHLIGHT_LINE, width=0.5),
                fillrule="nonzero")


def spectrum_figure(
    eigenvalues: np.ndarray,
    ranks: np.ndarray,
    explained_ratio: np.ndarray,
    pca_ratio: np.ndarray,
    *,
    n_components: int,
    negative: np.ndarray,
) -> go.Figure:
    """Eigenvalues of K̃ (bars) and cumulative explained variance, KPCA vs linear PCA.

    Bars: the leading ``SPECTRUM_SHOWN`` eigenvalues plus every genuinely negative one
    (``negative`` mask, red). Kept components are dark, the rest light.
    ``explained_ratio`` is μ / trace(K̃) for each eigenvalue μ of K̃ held.
    """
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    ranks = np.asarray(ranks)
    negative = np.asarray(negative, dtype=bool)
    shown = (ranks <= SPECTRUM_SHOWN) | negative
    colours = np.where(
        negative, NEGATIVE_COLOUR, np.where(ranks <= n_components, KEPT_COLOUR, DROPPED_COLOUR)
    )
    fig = make_subplots(
        rows=1,
        cols=2,
        subplot_titles=(_("Eigenvalues μ of K̃"), _("Cumulative explained variance")),
        horizontal_spacing=0.12,
    )
    fig.add_trace(
        go.Bar(
            x=[f"μ{r}" for r in ranks[shown]],
            y=eigenvalues[shown],
            marker_color=list(colours[shown]),
            name=_("kernel PCA eigenvalues"),
            hovertemplate="%{x} = %{y:.6g}<extra></extra>",
            showlegend=False,
        ),
        row=1,
        col=1,
    )
    leading = np.sort(ranks[ranks <= SPECTRUM_SHOWN])
    leading_ratio = np.asarray(explained_ratio)[np.argsort(ranks)][: len(leading)]
    kpca_cumulative = 100 * np.cumsum(leading_ratio)
    pca_cumulative = 100 * np.cumsum(pca_ratio[:SPECTRUM_SHOWN])
    if np.isnan(kpca_cumulative).all():
        # μ / trace(K̃) is no share of variance here (trace(K̃) ≤ 0): no curve, and the
        # caption says why (experiments.kpca_steps.variance_share_problem).
        kpca_cumulative = np.zeros(0)
        fig.add_annotation(x=0.5, y=0.5, xref="x2 domain", yref="y2 domain",
                           text=_("kernel PCA: no share of variance<br>(trace(K̃) ≤ 0)"),
                           showarrow=False, font=dict(size=12))
    else:
        fig.add_trace(
            go.Scatter(
                x=leading,
                y=kpca_cumulative,
                mode="lines+markers",
                name=_("kernel PCA"),
                line=dict(color=KEPT_COLOUR),
                hovertemplate=_("first {x} components: {y}%").format(x="%{x}", y="%{y:.1f}")
                + "<extra>" + _("kernel PCA") + "</extra>",
            ),
            row=1,
            col=2,
        )
    fig.add_trace(
        go.Scatter(
            x=np.arange(1, len(pca_cumulative) + 1),
            y=pca_cumulative,
            mode="lines+markers",
            name=_("linear PCA"),
            line=dict(color=LINEAR_PCA_COLOUR, dash="dash"),
            hovertemplate=_("first {x} components: {y}%").format(x="%{x}", y="%{y:.1f}")
            + "<extra>" + _("linear PCA") + "</extra>",
        ),
        row=1,
        col=2,
    )
    fig.add_vline(x=n_components + 0.5, line_dash="dot", line_color="#888888", row=1, col=2)
    # A jump in the ranks drawn (e.g. μ30 → μ366, the negative ones): mark the cut.
    shown_ranks = ranks[shown]
    for position in np.flatnonzero(np.diff(shown_ranks) > 1):
        first, last = int(shown_ranks[position]) + 1, int(shown_ranks[position + 1]) - 1
        fig.add_vline(x=position + 0.5, line_dash="dash", line_color="#888888", row=1, col=1)
        # Inside the chart, right of the cut: above it, the subplot title sits.
        fig.add_annotation(
            x=position + 0.5, y=0.98, yref="y domain", xref="x", showarrow=False,
            text=" " + _("μ{first}…μ{last} not drawn").format(first=first, last=last),
            font=dict(size=11), yanchor="top",
            xanchor="left",
        )
    top = max(100.0, float(np.max(kpca_cumulative, initial=0)), float(np.max(pca_cumulative)))
    fig.update_xaxes(title_text=_("component"), row=1, col=2)
    fig.update_yaxes(title_text="%", range=[0, 1.05 * top], row=1, col=2)
    fig.update_xaxes(type="category", row=1, col=1)
    layout = base_layout()
    # The legend belongs to the cumulative chart only: put it inside that chart, bottom
    # right, where the rising curves leave room.
    layout["legend"] = dict(
        x=1.0, xanchor="right", y=0.03, yanchor="bottom", bgcolor="rgba(128,128,128,0.12)"
    )
    fig.update_layout(**layout)
    return fig
