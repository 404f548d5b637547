"""The alignment figure of the Choosing γ page (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from experiments.kernel_diagnostics import format_gamma
from shell.figures import KEPT_COLOUR, base_layout
from words.i18n import _

ALIGNMENT_COLOUR = "#CC6618"  # the palette's orange, apart from the separability's blue


def alignment_and_separability(values: Sequence[float], alignment: np.ndarray,
                               separability: np.ndarray, *, title: str) -> go.Figure:
    """Separability (%, left axis) and centred alignment (right axis) against γ (log axis),
    each curve's best value ringed."""
    values = np.asarray(values, dtype=float)
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=values, y=100 * np.asarray(separability), mode="lines+markers",
        name=_("separability, components 1–2 (%)"), line=dict(color=KEPT_COLOUR, width=3),
        hovertemplate=_("γ = %{x:g}: %{y:.1f} %<extra>separability</extra>")))
    fig.add_trace(go.Scatter(
        x=values, y=alignment, mode="lines+markers", yaxis="y2",
        name=_("centred alignment A(K, Y)"), line=dict(color=ALIGNMENT_COLOUR, width=3, dash="dot"),
        marker=dict(symbol="diamond"),
        hovertemplate=_("γ = %{x:g}: A = %{y:.3f}<extra>alignment</extra>")))
    best_a = int(np.argmax(alignment))
    best_s = int(np.argmax(separability))
    fig.add_trace(go.Scatter(
        x=[values[best_a]], y=[alignment[best_a]], yaxis="y2", mode="markers",
        name=_("most aligned: γ = {gamma}").format(gamma=format_gamma(values[best_a])),
        marker=dict(size=18, symbol="circle-open", color=ALIGNMENT_COLOUR, line=dict(width=3)),
        hoverinfo="skip"))
    fig.add_trace(go.Scatter(
        x=[values[best_s]], y=[100 * separability[best_s]], mode="markers",
        name=_("best separated: γ = {gamma}").format(gamma=format_gamma(values[best_s])),
        marker=dict(size=18, symbol="circle-open", color=KEPT_COLOUR, line=dict(width=3)),
        hoverinfo="skip"))
    top = max(1.0, float(np.nanmax(alignment)))
    fig.update_layout(
        title=title, height=440, **base_layout(),
        yaxis=dict(title=_("separability (%)"), range=[0, 108]),
        yaxis2=dict(title=_("alignment A"), range=[min(0.0, float(np.nanmin(alignment))) * 1.08,
                                                top * 1.08],
                    overlaying="y", side="right", showgrid=False),
    )
    fig.update_xaxes(type="log", title=_("γ (log scale)"), dtick=1, exponentformat="power")
    fig.update_layout(legend=dict(orientation="h", y=-0.3, title_text=""))
    return fig
