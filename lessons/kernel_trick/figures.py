"""Figures of the kernel-trick lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import BASE_LAYOUT, KEPT_COLOUR, point_scatter
from words.i18n import _

PLANE_COLOUR = "#59A14F"


AXIS_TITLES = ("z₁ = γx₁²", "z₂ = √2 γx₁x₂", "z₃ = γx₂²")
AXIS_TITLE_SIZE = 15  # px: shell.figures' 11 px is unreadable once the scene is turned
# The camera: this far from the scene's centre, turned this much (radians) from looking
# along −z₂ about the "up" direction, and raised this much along it (scene units).
CAMERA_DISTANCE, CAMERA_TURN, CAMERA_RISE = 2.5, 0.5, 0.35


def lift_camera(Z: np.ndarray, normal: np.ndarray | None) -> dict:
    """A camera whose "up" is the direction that separates the classes.

    With a plane w·z + b = 0, up is w (the side with the larger squared radius
    z₁ + z₃ = γ‖x‖² on top); without one, up is z₁ + z₃ itself, the squared radius,
    along which two rings differ. Up and the eye are given in the scene's own units (each
    axis scaled to the same length, aspectmode "cube"), where a normal w of the data's
    units becomes w · (range of each axis). The eye looks across "up" from a little
    above, so a plane through the scene is seen nearly edge-on, classes above and below.
    """
    span = Z.max(axis=0) - Z.min(axis=0)
    span = np.where(span > 0, span, 1.0)
    radius = np.array([1.0, 0.0, 1.0])
    direction = radius if normal is None else np.asarray(normal, dtype=float)
    if direction @ radius < 0:
        direction = -direction
    up = direction * span
    up /= np.linalg.norm(up)
    across = np.array([0.0, -1.0, 0.0]) + up[1] * up  # −z₂, made perpendicular to up
    if np.linalg.norm(across) < 1e-6:  # up along z₂: look along z₁ instead
        across = np.array([1.0, 0.0, 0.0]) - up[0] * up
    across /= np.linalg.norm(across)
    side = np.cross(up, across)
    eye = CAMERA_DISTANCE * (np.cos(CAMERA_TURN) * across + np.sin(CAMERA_TURN) * side)
    eye += CAMERA_RISE * up
    as_dict = lambda v: dict(x=float(v[0]), y=float(v[1]), z=float(v[2]))  # noqa: E731
    return dict(up=as_dict(up), eye=as_dict(eye), center=dict(x=0, y=0, z=0))


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
    coordinate with the largest |w| component so it is well defined. The camera
    (:func:`lift_camera`) starts looking across the direction that separates the classes.
    """
    fig = point_scatter(Z, y, target_names, title=title, axis_titles=list(AXIS_TITLES))
    lo, hi = Z.min(axis=0), Z.max(axis=0)
    if plane is not None:
        normal, offset = plane
        axis = int(np.argmax(np.abs(normal)))
        others = [i for i in range(3) if i != axis]
        a = np.linspace(lo[others[0]], hi[others[0]], 12)
        b = np.linspace(lo[others[1]], hi[others[1]], 12)
        A, B = np.meshgrid(a, b)
        C = -(offset + normal[others[0]] * A + normal[others[1]] * B) / normal[axis]
        coords = [None, None, None]
        coords[others[0]], coords[others[1]], coords[axis] = A, B, C
        fig.add_trace(
            go.Surface(
                x=coords[0], y=coords[1], z=coords[2], showscale=False, opacity=0.35,
                colorscale=[[0, PLANE_COLOUR], [1, PLANE_COLOUR]], name=_("separating plane"),
                hoverinfo="skip", showlegend=True,
            )
        )
    # Clip the view to the data, not the plane's extent.
    pad = 0.05 * (hi - lo + 1e-12)
    font = dict(size=AXIS_TITLE_SIZE)
    fig.update_layout(
        height=520,
        scene=dict(
            xaxis=dict(range=[lo[0] - pad[0], hi[0] + pad[0]],
                       title=dict(text=AXIS_TITLES[0], font=font)),
            yaxis=dict(range=[lo[1] - pad[1], hi[1] + pad[1]],
                       title=dict(text=AXIS_TITLES[1], font=font)),
            zaxis=dict(range=[lo[2] - pad[2], hi[2] + pad[2]],
                       title=dict(text=AXIS_TITLES[2], font=font)),
            aspectmode="cube",
            camera=lift_camera(Z, None if plane is None else plane[0]),
        ),
    )
    return fig


def side_by_side_projection(
    Z: np.ndarray, y: np.ndarray | None, target_names: Sequence[str], *, title: str, axis: str,
    rows: np.ndarray | None = None,
) -> go.Figure:
    """One 2-D projection (a thin wrapper so both panels share their look); ``axis``: the
    axes' title with ``{c}`` for the component ("KPCA component {c}").

    ``rows``: the data rows of Z's rows, when Z is a sample (shown on hover).
    """
    Z = np.asarray(Z, dtype=np.float64)
    if Z.shape[1] == 1:
        Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
    fig = point_scatter(
        Z[:, :2], y, target_names, title=title,
        axis_titles=[axis.format(c=1), axis.format(c=2)],
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
            customdata=n_features, name=_("max error"),
            hovertemplate=_("order {order}: {count} coordinates<br>max error {error}").format(
                order="%{x}", count="%{customdata}", error="%{y:.2e}") + "<extra></extra>",
        )
    )
    fig.update_layout(title=title, showlegend=False,
                      **{k: v for k, v in BASE_LAYOUT.items() if k != "legend"})
    fig.update_xaxes(title=_("truncation order P (highest monomial degree kept)"))
    fig.update_yaxes(title=_("max |φ·φ − k| over all pairs"), type="log",
                     exponentformat="power")
    return fig
