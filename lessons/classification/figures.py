"""Figures of the Classification page: pure functions from arrays to ``go.Figure``."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import BASE_LAYOUT, LINEAR_PCA_COLOUR, PALETTE, digit_mosaic
from words.i18n import _, format_number

KERNEL_COLOUR = PALETTE[0]
RAW_COLOUR = PALETTE[2]
LAYOUT = {k: v for k, v in BASE_LAYOUT.items() if k != "legend"}


def confusion_figure(confusion: np.ndarray, class_names: Sequence[str], *, title: str) -> go.Figure:
    """Counts of (true, predicted) pairs; the diagonal holds the correct predictions."""
    confusion = np.asarray(confusion)
    names = [str(name) for name in class_names]
    fig = go.Figure(
        go.Heatmap(
            z=confusion,
            x=names,
            y=names,
            text=confusion,
            texttemplate="%{text}",
            colorscale="Blues",
            showscale=False,
            hovertemplate=_("true %{y}, predicted %{x}: %{z}") + "<extra></extra>",
        )
    )
    side = min(640, 160 + 42 * len(names))
    fig.update_layout(title=title, height=side, **LAYOUT)
    fig.update_xaxes(title=_("predicted class"), type="category", side="bottom")
    fig.update_yaxes(title=_("true class"), type="category", autorange="reversed")
    return fig


def error_curve_figure(
    curves: Mapping[str, Mapping[int, float]],
    *,
    chosen_k: int,
    raw_error: float | None,
    raw_label: str,
    title: str,
) -> go.Figure:
    """Test error (%) against the number of components (log axis), one line per method.

    ``curves`` maps a legend name to {k: error in [0, 1]}; the first curve is the
    kernel's. The chosen k is marked with a vertical line, the raw-input baseline with
    a horizontal one.
    """
    colours = [KERNEL_COLOUR, LINEAR_PCA_COLOUR]
    fig = go.Figure()
    for (name, curve), colour in zip(curves.items(), colours, strict=False):
        ks = sorted(curve)
        fig.add_trace(
            go.Scatter(
                x=ks,
                y=[100 * curve[k] for k in ks],
                mode="lines+markers",
                name=name,
                line=dict(color=colour, width=3),
                hovertemplate=f"{name}<br>" + _("%{x} components: %{y:.2f} %")
                + "<extra></extra>",
            )
        )
    if raw_error is not None:
        fig.add_hline(
            y=100 * raw_error,
            line=dict(color=RAW_COLOUR, dash="dash"),
            annotation_text=_("{label}: {error} %").format(
                label=raw_label, error=format_number(100 * raw_error, ".1f")),
            annotation_position="top left",
        )
    fig.add_vline(x=chosen_k, line=dict(color="#555", dash="dot"))
    fig.update_layout(
        title=title,
        legend=dict(orientation="h", yanchor="bottom", y=1.0, xanchor="left", x=0),
        margin=dict(l=10, r=10, t=90, b=10),
        font=BASE_LAYOUT["font"],
    )
    ticks = sorted({k for curve in curves.values() for k in curve})
    fig.update_xaxes(type="log", title=_("number of components (log scale)"),
                     tickvals=[k for k in ticks if k & (k - 1) == 0 or k == chosen_k])
    fig.update_yaxes(title=_("test error (%)"), rangemode="tozero")
    return fig


LABEL_ROWS = 7  # blank pixel rows under each digit, where its "true→predicted" label goes


def misclassified_figure(
    images: np.ndarray,
    image_shape: tuple[int, int],
    true_names: Sequence[str],
    predicted_names: Sequence[str],
    *,
    title: str,
    columns: int = 10,
) -> go.Figure:
    """Digits the classifier got wrong, each labelled 'true→predicted' under the image."""
    count = len(images)
    height, width = image_shape
    columns = min(columns, max(count, 1))
    # Room for the label: each tile is the image over LABEL_ROWS blank (NaN) rows.
    padded = np.full((count, height + LABEL_ROWS, width), np.nan)
    padded[:, :height, :] = np.asarray(images, dtype=float).reshape(count, height, width)
    hover = [_("true {true}, predicted {predicted}").format(true=t, predicted=p)
             for t, p in zip(true_names, predicted_names, strict=True)]
    fig = digit_mosaic(padded.reshape(count, -1), (height + LABEL_ROWS, width),
                       columns=columns, hover_labels=hover, title=title)
    for i in range(count):
        row, col = divmod(i, columns)
        fig.add_annotation(
            x=col * (width + 1) + (width - 1) / 2,
            y=row * (height + LABEL_ROWS + 1) + height + LABEL_ROWS / 2 - 0.5,
            text=f"{true_names[i]}→{predicted_names[i]}",
            showarrow=False,
            font=dict(size=13, color="#B00020"),
        )
    rows = max(1, -(-count // columns))
    fig.update_layout(height=110 + 70 * rows, margin=dict(l=10, r=10, t=50, b=10))
    return fig


def table_heatmap(
    errors: Mapping[tuple[int, int], float | None],
    degrees: Sequence[int],
    components: Sequence[int],
    *,
    title: str,
    zrange: tuple[float, float],
    missing_text: Mapping[tuple[int, int], str] | None = None,
    show_scale: bool = True,
) -> go.Figure:
    """Test error (%) per (degree, components) cell, the value written in each cell.

    A cell without a number is left blank with ``missing_text`` (e.g. "–" for not
    applicable, "?" for a value the paper's table has but we could not quote).
    """
    missing_text = missing_text or {}
    z = np.full((len(degrees), len(components)), np.nan)
    text = np.full(z.shape, "", dtype=object)
    for i, d in enumerate(degrees):
        for j, k in enumerate(components):
            value = errors.get((d, k))
            if value is None:
                text[i, j] = missing_text.get((d, k), "")
            else:
                z[i, j] = value
                text[i, j] = f"{value:.1f}"
    fig = go.Figure(
        go.Heatmap(
            z=z,
            x=[str(k) for k in components],
            y=[str(d) for d in degrees],
            text=text,
            texttemplate="%{text}",
            colorscale="YlOrRd",
            zmin=zrange[0],
            zmax=zrange[1],
            showscale=show_scale,
            colorbar=dict(title=_("error %"), thickness=12),
            hovertemplate=_("d = %{y}, %{x} components: %{z:.2f} %") + "<extra></extra>",
            hoverongaps=False,
        )
    )
    fig.update_layout(title=title, height=380, plot_bgcolor="#F4F4F4", **LAYOUT)
    fig.update_xaxes(title=_("number of components"), type="category")
    fig.update_yaxes(title=_("degree d"), type="category", autorange="reversed")
    return fig
