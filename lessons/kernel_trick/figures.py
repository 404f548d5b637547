"""Figures of the kernel-trick lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import BASE_LAYOUT, KEPT_COLOUR, point_scatter

PLANE_COLOUR = "#59A14F"


def lifted_scatter(
    Z: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    title: str,
    plane: tuple[np.ndarray, float] | None = None,
) -> go.Figure:
    """2-D points lifted to (γx₁², √2γx₁x₂, γx₂²), rotatable, with an optional plane w·z + b = 0.

    The plane is drawn as a surface over the (z₁, z₂) or (z₁, z₃) box, solving for the
    coordinate with the largest |w| component so it is well defined.
    """
    fig = point_scatter(
        Z, y, target_names, title=title, axis_titles=["γ x₁²", "√2 γ x₁x₂", "γ x₂²"]
    )
    if plane is not None:
        normal, offset = plane
        axis = int(np.argmax(np.abs(normal)))
        others = [i for i in range(3) if i != axis]
        lo, hi = Z.min(axis=0), Z.max(axis=0)
        a = np.linspace(lo[others[0]], hi[others[0]], 12)
        b = np.linspace(lo[others[1]], hi[others[1]], 12)
        A, B = np.meshgrid(a, b)
        C = -(offset + normal[others[0]] * A + normal[others[1]] * B) / normal[axis]
        coords = [None, None, None]
        coords[others[0]], coords[others[1]], coords[axis] = A, B, C
        fig.add_trace(
            go.Surface(
                x=coords[0], y=coords[1], z=coords[2], showscale=False, opacity=0.35,
                colorscale=[[0, PLANE_COLOUR], [1, PLANE_COLOUR]], name="separating plane",
                hoverinfo="skip", showlegend=True,
            )
        )
        # Clip the view to the data, not the plane's extent.
        pad = 0.05 * (hi - lo + 1e-12)
        fig.update_layout(
            scene=dict(
                xaxis=dict(range=[lo[0] - pad[0], hi[0] + pad[0]]),
                yaxis=dict(range=[lo[1] - pad[1], hi[1] + pad[1]]),
                zaxis=dict(range=[lo[2] - pad[2], hi[2] + pad[2]]),
            )
        )
    fig.update_layout(height=520, scene_camera=dict(eye=dict(x=1.6, y=-1.6, z=0.9)))
    return fig


def side_by_side_projection(
    Z: np.ndarray, y: np.ndarray | None, target_names: Sequence[str], *, title: str, axis: str,
    rows: np.ndarray | None = None,
) -> go.Figure:
    """One 2-D projection (a thin wrapper so both panels share their look).

    ``rows``: the data rows of Z's rows, when Z is a sample (shown on hover).
    """
    Z = np.asarray(Z, dtype=np.float64)
    if Z.shape[1] == 1:
        Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
    fig = point_scatter(
        Z[:, :2], y, target_names, title=title, axis_titles=[f"{axis} 1", f"{axis} 2"],
        webgl=len(Z) > 2500, rows=rows,
    )
    # Two of these sit side by side: a legend below leaves the plot its full width.
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.2, x=0))
    return fig


def taylor_error_figure(
    orders: np.ndarray, n_features: np.ndarray, max_error: np.ndarray, *, title: str
) -> go.Figure:
    """max |φ_{≤p}·φ_{≤p} − k| against the truncation order p, on a log axis."""
    # A log axis cannot show 0: an exact match is drawn at the smallest double's scale.
    shown = np.maximum(np.asarray(max_error, dtype=np.float64), 1e-17)
    fig = go.Figure(
        go.Scatter(
            x=orders, y=shown, mode="lines+markers", marker_color=KEPT_COLOUR,
            customdata=n_features, name="max error",
            hovertemplate="order %{x}: %{customdata} coordinates<br>"
            "max error %{y:.2e}<extra></extra>",
        )
    )
    fig.update_layout(title=title, showlegend=False,
                      **{k: v for k, v in BASE_LAYOUT.items() if k != "legend"})
    fig.update_xaxes(title="truncation order P (highest monomial degree kept)")
    fig.update_yaxes(title="max |φ·φ − k| over all pairs", type="log", exponentformat="power")
    return fig
