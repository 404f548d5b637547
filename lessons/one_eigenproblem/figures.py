"""Figures of the one-eigenproblem lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import BASE_LAYOUT, REFERENCE_COLOUR, point_scatter
from words.i18n import _, format_number

# The reference grey, solid: WebGL's 3-D lines ignore a colour's alpha (an rgba grey drew
# white, invisible on the light theme and glaring on the dark one).
EDGE_COLOUR = REFERENCE_COLOUR
FLAGGED_COLOUR = "#D62728"
JOIN_COLOUR = "#CC6618"
# Edges drawn at most (a line each: three float32 per coordinate, with the gap); the
# flagged ones are always drawn, up to the same number.
MAX_EDGES_DRAWN = 6000


def aligned_signs(theirs: np.ndarray, ours: np.ndarray) -> np.ndarray:
    """``theirs`` with each column's sign flipped to agree with ours (an eigenvector's
    sign is arbitrary: the pictures should not differ by a mirror for that reason)."""
    dots = np.einsum("nc,nc->c", theirs - theirs.mean(0), ours - ours.mean(0))
    return theirs * np.where(dots < 0, -1.0, 1.0)


def embedding_scatter(Z: np.ndarray, y: np.ndarray | None, names: Sequence[str], *,
                      title: str, axis_titles: Sequence[str] | None = None,
                      noun: str | None = None, height: int = 420) -> go.Figure:
    """Columns 1 and 2 of Z (or the only one, against 0), per class (by default the axes
    are "component 1" and "component 2", the hover's noun "class", in the run's language)."""
    Z = np.asarray(Z, dtype=float)
    titles = list(axis_titles or (_("component 1"), _("component 2")))
    noun = _("class") if noun is None else noun
    if Z.shape[1] == 1:
        Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
        titles[1] = ""
    else:
        Z = Z[:, :2]
    fig = point_scatter(Z, y, names, title=title, axis_titles=titles, height=height,
                        noun=noun)
    # Below the plot, across: beside it, six classes took half of a two-column chart.
    fig.update_layout(legend=dict(title_text="", orientation="h", y=-0.2))
    return fig


def _segments(P: np.ndarray, edges: np.ndarray) -> list[np.ndarray]:
    """Coordinates of line segments for ``edges``, one gap (NaN) after each: one trace."""
    if not len(edges):
        return [np.zeros(0, dtype=np.float32) for _ in range(P.shape[1])]
    ends = np.stack([P[edges[:, 0]], P[edges[:, 1]], np.full((len(edges), P.shape[1]),
                                                              np.nan)], axis=1)
    return [ends[:, :, d].ravel().astype(np.float32) for d in range(P.shape[1])]


def graph_figure(P: np.ndarray, edges: np.ndarray, flagged: np.ndarray | None,
                 joins: np.ndarray, y: np.ndarray | None, names: Sequence[str], *,
                 title: str, axis_titles: Sequence[str], flagged_name: str,
                 seed: int = 0, along: int | None = None) -> go.Figure:
    """The k-nearest-neighbour graph over the points ``P`` (2 or 3 columns).

    Grey: the edges (a seeded sample of ``MAX_EDGES_DRAWN`` when there are more); red:
    the flagged ones (short-circuits, edges between classes); orange, dashed: the edges
    added to join the pieces. The points on top, by class. ``along``: in 3-D, the axis to
    look along (a roll's axis: its layers and the edges between them then show side by
    side).
    """
    P = np.asarray(P, dtype=float)
    fig = point_scatter(P, y, names, title=title, axis_titles=axis_titles, height=560)
    points = list(fig.data)
    three_d = P.shape[1] == 3
    line = go.Scatter3d if three_d else go.Scatter
    plain = edges if flagged is None else edges[~flagged]
    if len(plain) > MAX_EDGES_DRAWN:
        keep = np.random.default_rng(seed).choice(len(plain), MAX_EDGES_DRAWN, replace=False)
        plain = plain[np.sort(keep)]
    traces = []
    layers = [(plain, _("edge"), EDGE_COLOUR, "solid", 1)]
    if flagged is not None:
        layers.append((edges[flagged][:MAX_EDGES_DRAWN], flagged_name, FLAGGED_COLOUR,
                       "solid", 3))
    layers.append((joins, _("edge joining two pieces"), JOIN_COLOUR, "dash", 3))
    for chosen, name, colour, dash, width in layers:
        if not len(chosen):
            continue
        coords = _segments(P, chosen)
        style = dict(color=colour, width=width)
        if not three_d:
            style["dash"] = dash
        axes = dict(zip(("x", "y", "z"), coords, strict=False))
        traces.append(line(mode="lines", name=_("{name} ({count})").format(
            name=name, count=format_number(len(chosen), ",")), line=style,
                           hoverinfo="skip", **axes))
    fig = go.Figure(data=[*traces, *points], layout=fig.layout)
    fig.update_layout(legend=dict(title_text="", orientation="h", y=-0.05),
                      **{k: v for k, v in BASE_LAYOUT.items() if k == "font"})
    if three_d:  # the coordinates' values say nothing here; the picture does
        fig.update_scenes(xaxis_showticklabels=False, yaxis_showticklabels=False,
                          zaxis_showticklabels=False)
    if three_d and along is not None:
        eye = [0.25, 0.25, 0.25]
        eye[along] = 2.2
        up = [0.0, 0.0, 1.0] if along != 2 else [0.0, 1.0, 0.0]
        fig.update_layout(scene_camera=dict(eye=dict(zip("xyz", eye, strict=True)),
                                            up=dict(zip("xyz", up, strict=True))))
    return fig
