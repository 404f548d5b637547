"""Figures of the step-by-step lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import BASE_LAYOUT, KEPT_COLOUR, NEGATIVE_COLOUR, point_scatter
from words.i18n import _

EIGENVALUES_SHOWN = 20


def eigenvalue_bars(mu: np.ndarray, n: int, k: int, *, title: str) -> go.Figure:
    """The leading eigenvalues μ of K̃ as bars; hover shows the paper's λ = μ / n too."""
    shown = np.asarray(mu[:EIGENVALUES_SHOWN], dtype=np.float64)
    ranks = np.arange(1, len(shown) + 1)
    colours = [
        NEGATIVE_COLOUR if value < 0 else (KEPT_COLOUR if rank <= k else "#BFCBDA")
        for rank, value in zip(ranks, shown, strict=True)
    ]
    fig = go.Figure(
        go.Bar(
            x=[f"#{r}" for r in ranks],
            y=shown,
            customdata=shown / n,
            marker_color=colours,
            hovertemplate="μ = %{y:.4g}<br>λ = μ/n = %{customdata:.4g}<extra></extra>",
            name="μ",
        )
    )
    fig.update_layout(title=title, showlegend=False, **{k_: v for k_, v in BASE_LAYOUT.items()
                                                         if k_ != "legend"})
    fig.update_xaxes(title=_("rank"), type="category")
    fig.update_yaxes(title=_("μ (eigenvalue of K̃)"))
    return fig


def projection_with_new_points(
    Z: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    Z_new: np.ndarray,
    *,
    title: str,
) -> go.Figure:
    """Training projections by class, plus new points as black stars."""
    fig = point_scatter(
        Z[:, :2], y, target_names, title=title,
        axis_titles=[_("component {c}").format(c=1), _("component {c}").format(c=2)],
        webgl=len(Z) > 2500,
    )
    fig.add_trace(
        go.Scatter(
            x=Z_new[:, 0],
            y=Z_new[:, 1],
            mode="markers",
            name=_("new points"),
            marker=dict(symbol="star", size=14, color="black", line=dict(color="white", width=1)),
            customdata=np.arange(1, len(Z_new) + 1),  # counted from 1, as in the table
            hovertemplate=_("new point {index}").format(index="%{customdata}")
            + "<extra></extra>",
        )
    )
    return fig
