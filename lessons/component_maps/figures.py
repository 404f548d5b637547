"""Component maps: each kernel principal component drawn as a function over the plane."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from shell.figures import (
    CENTERED_SCALE,
    EQUAL_SCALE,
    base_layout,
    class_colour,
    class_name,
    classes,
)
from words.i18n import _

PANEL_HEIGHT = 250
MAX_POINTS_DRAWN = 600  # per panel; the data on top of a map is context, not the subject


@dataclass(frozen=True)
class MapPanel:
    """One panel: z over the grid (rows follow ys) and its title."""

    xs: np.ndarray
    ys: np.ndarray
    z: np.ndarray
    title: str


def panel_title(component: int, eigenvalue: float, share: float, prefix: str = "") -> str:
    """'y2<br>μ = 21.4<br>31.6 %' (μ: eigenvalue of K̃; share = μ / trace K̃): three short
    lines, so that four panels fit in a row on a 390-px phone (each about 70 px wide: two
    lines 'μ = 56.8 · 17.0 %' ran into each other there)."""
    # No share where μ / trace(K̃) is none (trace(K̃) ≤ 0: the caption says why).
    shown = "" if np.isnan(share) else f"<br>{100 * share:.1f} %"
    return f"{prefix}y{component}<br>μ = {eigenvalue:.3g}{shown}"


def _shown_rows(n: int) -> np.ndarray:
    if n <= MAX_POINTS_DRAWN:
        return np.arange(n)
    return np.linspace(0, n - 1, MAX_POINTS_DRAWN).round().astype(int)


def map_grid(
    panels: Sequence[MapPanel],
    X: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    columns: int,
    title: str,
    axis_titles: Sequence[str] = ("x₁", "x₂"),
    panel_height: int = PANEL_HEIGHT,
) -> go.Figure:
    """Contour maps (diverging colours, 0 = white) with the data drawn on each panel.

    Each panel has its own colour range, symmetric about 0, so the sign of the
    component is always white-centred; hover shows the value. Up to
    ``MAX_POINTS_DRAWN`` points are overlaid (evenly subsampled beyond that).
    """
    rows = max(1, -(-len(panels) // columns))
    fig = make_subplots(
        rows=rows,
        cols=columns,
        subplot_titles=[p.title for p in panels],
        shared_xaxes=True,  # one grid for every panel: ticks on the outer panels only
        shared_yaxes=True,
        horizontal_spacing=0.02,
        vertical_spacing=0.42 / rows if rows > 1 else 0.1,
    )
    shown = _shown_rows(len(X))
    groups = classes(None if y is None else y[shown], len(shown))
    for i, panel in enumerate(panels):
        row, col = divmod(i, columns)
        bound = float(np.max(np.abs(panel.z))) or 1.0
        fig.add_trace(
            go.Contour(
                x=panel.xs.astype(np.float32),
                y=panel.ys.astype(np.float32),
                z=panel.z.astype(np.float32),
                colorscale=CENTERED_SCALE,
                zmin=-bound,
                zmax=bound,
                zmid=0.0,
                ncontours=14,
                contours=dict(coloring="heatmap", showlines=True),
                line=dict(width=0.6, color="rgba(0,0,0,0.35)"),
                showscale=False,
                hovertemplate=_("x₁ %{x:.3g}, x₂ %{y:.3g}<br>value %{z:.4g}") + "<extra></extra>",
                name=panel.title,
            ),
            row=row + 1,
            col=col + 1,
        )
        for label, idx in groups:
            rows_shown = shown[idx]
            fig.add_trace(
                go.Scatter(
                    x=X[rows_shown, 0],
                    y=X[rows_shown, 1],
                    mode="markers",
                    marker=dict(color=class_colour(label), size=4,
                                line=dict(color="black", width=0.5)),
                    name=class_name(target_names, label, y),
                    legendgroup=str(label),
                    showlegend=i == 0,
                    customdata=rows_shown,
                    hovertemplate=_("point %{customdata}") + "<extra></extra>",
                ),
                row=row + 1,
                col=col + 1,
            )
    fig.update_xaxes(showgrid=False, zeroline=False)
    fig.update_yaxes(showgrid=False, zeroline=False)
    # The plane to scale: a unit across is as long as a unit up in every panel. Every
    # panel shows the same plane, so every axis matches the first panel's and only that
    # panel's y is anchored to its x: a scale anchor per panel on top of make_subplots'
    # matches by row and column is a loop Plotly breaks by keeping the first panel's
    # anchor alone (the first map then narrower than the others, and those not to scale).
    for i in range(len(panels)):
        axis = "" if i == 0 else str(i + 1)
        first = i == 0
        fig.update_layout({f"xaxis{axis}": dict(constrain="domain", matches=None if first else "x"),
                           f"yaxis{axis}": dict(EQUAL_SCALE) if first else
                           dict(constrain="domain", matches="y")})
    for c in range(columns):
        fig.update_xaxes(title_text=axis_titles[0], row=rows, col=c + 1)
    for r in range(rows):
        fig.update_yaxes(title_text=axis_titles[1], row=r + 1, col=1)
    layout = base_layout()
    layout["legend"] = dict(title_text=_("data"), orientation="h", y=-0.08 if rows > 1 else -0.25,
                            itemsizing="constant")
    layout["margin"] = dict(l=10, r=10, t=125, b=10)  # a two-line title above 3-line panels
    fig.update_layout(title=title, height=panel_height * rows + 150, **layout)
    fig.update_annotations(font_size=12)
    return fig
