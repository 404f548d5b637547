"""Figures of the common-mistakes lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from .common import BASE_LAYOUT, KEPT_COLOUR, NEGATIVE_COLOUR, class_colour, class_name, classes

SPECTRUM_LEADING = 10
SPECTRUM_TRAILING = 3


def right_and_wrong(
    right: np.ndarray,
    wrong: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    title: str,
    wrong_title: str = "wrong",
) -> go.Figure:
    """Two projections side by side: the right one (left panel) and the mistake (right).

    Traces: one per class in the left panel (``xaxis`` "x"), then one per class in the
    right panel ("x2"); each point carries its row as ``customdata``.
    """
    # Shared axes: a shift or a stretch is only visible when both panels use one scale.
    fig = make_subplots(1, 2, subplot_titles=("right", wrong_title), horizontal_spacing=0.08,
                        shared_xaxes=True, shared_yaxes=True)
    for col, Z in ((1, right), (2, wrong)):
        Z = np.asarray(Z, dtype=np.float64)
        if Z.shape[1] == 1:
            Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
        for label, idx in classes(y, len(Z)):
            name = class_name(target_names, label, y)
            fig.add_trace(
                go.Scatter(
                    x=Z[idx, 0], y=Z[idx, 1], mode="markers", name=name, legendgroup=name,
                    showlegend=col == 1, customdata=idx,
                    marker=dict(color=class_colour(label), size=5),
                    hovertemplate=f"point %{{customdata}}<br>class: {name}<extra></extra>",
                ),
                row=1, col=col,
            )
        fig.update_xaxes(title_text="component 1", row=1, col=col)
    fig.update_yaxes(title_text="component 2", row=1, col=1)
    fig.update_layout(title=title, height=380, **BASE_LAYOUT)
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=10))
    return fig


def spectra_right_and_wrong(
    right: np.ndarray, wrong: np.ndarray, *, title: str
) -> go.Figure:
    """Leading and trailing eigenvalues of the right and the wrong K̃ (negative in red)."""
    fig = make_subplots(1, 2, subplot_titles=("right K̃", "wrong K̃"), horizontal_spacing=0.08)
    for col, values in ((1, right), (2, wrong)):
        values = np.sort(np.asarray(values, dtype=np.float64))[::-1]
        n = len(values)
        if n > SPECTRUM_LEADING + SPECTRUM_TRAILING:
            ranks = list(range(1, SPECTRUM_LEADING + 1)) + list(
                range(n - SPECTRUM_TRAILING + 1, n + 1)
            )
        else:
            ranks = list(range(1, n + 1))
        shown = values[np.array(ranks) - 1]
        fig.add_trace(
            go.Bar(
                x=[f"#{r}" for r in ranks], y=shown, showlegend=False,
                marker_color=[NEGATIVE_COLOUR if v < 0 else KEPT_COLOUR for v in shown],
                hovertemplate="rank %{x}: μ = %{y:.4g}<extra></extra>",
            ),
            row=1, col=col,
        )
        fig.update_yaxes(title_text="eigenvalue μ", row=1, col=col)
        fig.update_xaxes(type="category", title_text="rank", row=1, col=col)
    fig.update_layout(title=title, height=360,
                      **{k: v for k, v in BASE_LAYOUT.items() if k != "legend"})
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=10))
    return fig
