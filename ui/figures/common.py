"""Figure builders: pure functions from arrays to ``go.Figure`` (no Streamlit here).

One palette for classes, used by every figure, so class 2 is the same colour in input
space, in the KPCA projection and in the linear PCA projection. K uses a sequential
scale; K̃ a diverging scale centred on 0 (its entries are signed).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

# Tableau 10: distinct on a projector and for the common colour-vision deficiencies.
PALETTE = (
    "#4E79A7", "#F28E2B", "#E15759", "#76B7B2", "#59A14F",
    "#EDC948", "#B07AA1", "#FF9DA7", "#9C755F", "#BAB0AC",
)  # fmt: skip
KERNEL_SCALE = "Viridis"  # sequential: K
CENTERED_SCALE = "RdBu_r"  # diverging, centred on 0: K̃
DIGIT_SCALE = "Greys"  # USPS: -1 background → white, +1 ink → black
KEPT_COLOUR = "#4E79A7"
DROPPED_COLOUR = "#BFCBDA"
NEGATIVE_COLOUR = "#D62728"
LINEAR_PCA_COLOUR = "#7F7F7F"
FADED_OPACITY = 0.12
SPECTRUM_SHOWN = 30  # leading eigenvalues drawn as bars

_LAYOUT = dict(
    margin=dict(l=10, r=10, t=50, b=10),
    font=dict(size=14),
    legend=dict(title_text="class", itemsizing="constant"),
)


def class_colour(label: int) -> str:
    return PALETTE[int(label) % len(PALETTE)]


def _faded(hex_colour: str) -> str:
    r, g, b = (int(hex_colour[i : i + 2], 16) for i in (1, 3, 5))
    return f"rgba({r},{g},{b},{FADED_OPACITY})"


def _classes(y: np.ndarray | None, n: int) -> list[tuple[int, np.ndarray]]:
    if y is None:
        return [(0, np.arange(n))]
    return [(int(c), np.flatnonzero(y == c)) for c in np.unique(y)]


def _name(target_names: Sequence[str], label: int, y: np.ndarray | None) -> str:
    if y is None:
        return "all points"
    return str(target_names[label]) if 0 <= label < len(target_names) else str(label)


def point_scatter(
    Z: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    title: str,
    axis_titles: Sequence[str],
    highlight: Sequence[int] | None = None,
    webgl: bool = False,
) -> go.Figure:
    """Scatter of the rows of Z (2 or 3 columns), one trace per class.

    Each point carries its row index as ``customdata`` (shown on hover and returned by
    box/lasso selections). ``highlight`` fades every other point.
    """
    n, dims = Z.shape
    if dims not in (2, 3):
        raise ValueError(f"point_scatter draws 2 or 3 columns, got {dims}")
    selected = np.zeros(n, dtype=bool)
    if highlight is not None and len(highlight):
        selected[np.asarray(highlight, dtype=int)] = True
    fig = go.Figure()
    for label, idx in _classes(y, n):
        name = _name(target_names, label, y)
        colour = class_colour(label)
        marker = dict(color=colour, size=6 if dims == 2 else 3)
        if selected.any():  # per-point colours: 3-D markers take no per-point opacity
            marker["color"] = np.where(selected[idx], colour, _faded(colour))
        hover = f"point %{{customdata}}<br>class: {name}<extra></extra>"
        common = dict(mode="markers", name=name, customdata=idx, marker=marker, hovertemplate=hover)
        if dims == 2:
            trace_type = go.Scattergl if webgl else go.Scatter
            fig.add_trace(trace_type(x=Z[idx, 0], y=Z[idx, 1], **common))
        else:
            fig.add_trace(go.Scatter3d(x=Z[idx, 0], y=Z[idx, 1], z=Z[idx, 2], **common))
    fig.update_layout(title=title, dragmode="lasso" if dims == 2 else "orbit", **_LAYOUT)
    if dims == 2:
        fig.update_xaxes(title=axis_titles[0])
        fig.update_yaxes(title=axis_titles[1])
    else:
        fig.update_layout(
            scene=dict(
                xaxis_title=axis_titles[0], yaxis_title=axis_titles[1], zaxis_title=axis_titles[2]
            )
        )
    return fig


def kernel_heatmap(
    M: np.ndarray,
    class_sizes: Sequence[int],
    class_names: Sequence[str],
    *,
    centered: bool,
    block_size: int = 1,
    title: str,
) -> go.Figure:
    """K (sequential colours) or K̃ (diverging, 0 = white) with class blocks outlined.

    ``M`` is already in class order (and block-averaged when ``block_size`` > 1);
    ``class_sizes`` are in points, so boundaries are drawn at cumulative sizes / block.
    """
    m = M.shape[0]
    # Sent as float32: half the bytes per rerun (up to 500² cells per heatmap), and still
    # ~7 significant digits, more than the colour scale or the 4-digit hover can show.
    heat = dict(
        z=np.asarray(M, dtype=np.float32), colorscale=CENTERED_SCALE if centered else KERNEL_SCALE
    )
    if centered:
        bound = float(np.max(np.abs(M))) or 1.0
        heat.update(zmid=0.0, zmin=-bound, zmax=bound)
    unit = "block" if block_size > 1 else "point"
    heat["hovertemplate"] = (
        f"row {unit} %{{y}}, column {unit} %{{x}}<br>value %{{z:.4g}}<extra></extra>"
    )
    heat["colorbar"] = dict(thickness=14)
    fig = go.Figure(go.Heatmap(**heat))

    edges = np.cumsum(class_sizes)[:-1] / block_size - 0.5
    for edge in edges:
        line = dict(color="black", width=1)
        fig.add_shape(type="line", x0=edge, x1=edge, y0=-0.5, y1=m - 0.5, line=line)
        fig.add_shape(type="line", y0=edge, y1=edge, x0=-0.5, x1=m - 0.5, line=line)
    centres = np.concatenate([[0], np.cumsum(class_sizes)[:-1]]) + np.asarray(class_sizes) / 2
    ticks = dict(tickvals=list(centres / block_size - 0.5), ticktext=list(class_names))
    if len(class_sizes) <= 1:
        ticks = dict(showticklabels=False)
    fig.update_xaxes(range=[-0.5, m - 0.5], constrain="domain", tickangle=0, **ticks)
    fig.update_yaxes(range=[m - 0.5, -0.5], scaleanchor="x", constrain="domain", **ticks)
    fig.update_layout(title=title, height=480, **_LAYOUT)
    return fig


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
    ``explained_ratio`` is λ / trace(K̃) for each eigenvalue held.
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
        subplot_titles=("Eigenvalues λ of K̃", "Cumulative explained variance"),
        horizontal_spacing=0.12,
    )
    fig.add_trace(
        go.Bar(
            x=[f"λ{r}" for r in ranks[shown]],
            y=eigenvalues[shown],
            marker_color=list(colours[shown]),
            name="kernel PCA eigenvalues",
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
    fig.add_trace(
        go.Scatter(
            x=leading,
            y=kpca_cumulative,
            mode="lines+markers",
            name="kernel PCA",
            line=dict(color=KEPT_COLOUR),
            hovertemplate="first %{x} components: %{y:.1f}%<extra>kernel PCA</extra>",
        ),
        row=1,
        col=2,
    )
    fig.add_trace(
        go.Scatter(
            x=np.arange(1, len(pca_cumulative) + 1),
            y=pca_cumulative,
            mode="lines+markers",
            name="linear PCA",
            line=dict(color=LINEAR_PCA_COLOUR, dash="dash"),
            hovertemplate="first %{x} components: %{y:.1f}%<extra>linear PCA</extra>",
        ),
        row=1,
        col=2,
    )
    fig.add_vline(x=n_components + 0.5, line_dash="dot", line_color="black", row=1, col=2)
    fig.update_xaxes(title_text="component", row=1, col=2)
    fig.update_yaxes(title_text="%", row=1, col=2)
    fig.update_xaxes(type="category", row=1, col=1)
    layout = dict(_LAYOUT)
    layout["legend"] = dict(orientation="h", y=-0.2)
    fig.update_layout(**layout)
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
    """Tile flattened grey images into one heatmap (dark ink on white, 1-px gaps)."""
    height, width = image_shape
    count = len(images)
    rows = max(1, -(-count // columns))
    cell_h, cell_w = height + 1, width + 1
    canvas = np.full((rows * cell_h - 1, columns * cell_w - 1), np.nan)
    text = np.full(canvas.shape, "", dtype=object)
    for i in range(count):
        r, c = divmod(i, columns)
        y0, x0 = r * cell_h, c * cell_w
        canvas[y0 : y0 + height, x0 : x0 + width] = np.asarray(images[i]).reshape(height, width)
        text[y0 : y0 + height, x0 : x0 + width] = hover_labels[i]
    fig = go.Figure(
        go.Heatmap(
            z=canvas,
            text=text,
            colorscale=DIGIT_SCALE,
            showscale=False,
            hovertemplate="%{text}<extra></extra>",
            hoverongaps=False,
        )
    )
    yaxis = dict(autorange="reversed", scaleanchor="x", showgrid=False, zeroline=False)
    if row_labels is not None:
        yaxis.update(
            tickvals=[r * cell_h + height / 2 for r in range(rows)], ticktext=list(row_labels)
        )
    else:
        yaxis["showticklabels"] = False
    fig.update_layout(
        title=title,
        xaxis=dict(showticklabels=False, showgrid=False, zeroline=False),
        yaxis=yaxis,
        plot_bgcolor="white",
        **{k: v for k, v in _LAYOUT.items() if k != "legend"},
    )
    return fig
