"""Figures of the common-mistakes lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import (
    BASE_LAYOUT,
    KEPT_COLOUR,
    NEGATIVE_COLOUR,
    base_layout,
    class_colour,
    class_name,
    classes,
)
from words.i18n import _, pgettext

SPECTRUM_LEADING = 10
SPECTRUM_TRAILING = 3


def _two_panel_layout(left_title: str, right_title: str, *, share: bool) -> dict:
    """Two side-by-side panels (x/y and x2/y2), optionally with the same scales.

    Written out instead of ``make_subplots``, which is several times slower to build and
    would dominate a rerun of a page with eight such figures.
    """
    annotation = dict(xref="paper", yref="paper", y=1.0, yanchor="bottom", showarrow=False,
                      font=dict(size=15))
    layout = dict(
        xaxis=dict(domain=[0.0, 0.46], anchor="y"),
        yaxis=dict(anchor="x"),
        xaxis2=dict(domain=[0.54, 1.0], anchor="y2"),
        yaxis2=dict(anchor="x2"),
        annotations=[dict(text=left_title, x=0.23, xanchor="center", **annotation),
                     dict(text=right_title, x=0.77, xanchor="center", **annotation)],
    )
    if share:
        layout["xaxis2"]["matches"] = "x"
        layout["yaxis2"]["matches"] = "y"
    return layout


def right_and_wrong(
    right: np.ndarray,
    wrong: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    title: str,
    wrong_title: str = "wrong",
) -> go.Figure:
    """Two projections side by side on the same axes: right (left panel), wrong (right).

    Traces: one per class in the left panel (``xaxis`` "x"), then one per class in the
    right panel ("x2"); each point carries its row as ``customdata``. Shared scales,
    because a shift or a stretch is only visible when both panels use one.
    """
    traces = []
    for axis, Z in (("", right), ("2", wrong)):
        Z = np.asarray(Z, dtype=np.float64)
        if Z.shape[1] == 1:
            Z = np.column_stack([Z[:, 0], np.zeros(len(Z))])
        for label, idx in classes(y, len(Z)):
            name = class_name(target_names, label, y)
            traces.append(go.Scatter(
                x=Z[idx, 0], y=Z[idx, 1], mode="markers", name=name, legendgroup=name,
                showlegend=axis == "", customdata=idx, xaxis=f"x{axis}", yaxis=f"y{axis}",
                marker=dict(color=class_colour(label), size=5),
                hovertemplate=_("point %{customdata}<br>class: {name}").replace(
                    "{name}", name) + "<extra></extra>",
            ))
    layout = _two_panel_layout(pgettext("correct, as opposed to wrong", "right"), wrong_title,
                               share=True)
    layout["xaxis"]["title"] = _("component 1")
    layout["xaxis2"]["title"] = _("component 1")
    layout["yaxis"]["title"] = _("component 2")
    fig = go.Figure(data=traces, layout=dict(title=title, height=380, **layout, **base_layout()))
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=10))
    return fig


def spectra_right_and_wrong(
    right: np.ndarray, wrong: np.ndarray, *, title: str
) -> go.Figure:
    """Leading and trailing eigenvalues of the right and the wrong K̃ (negative in red)."""
    traces = []
    for axis, values in (("", right), ("2", wrong)):
        values = np.sort(np.asarray(values, dtype=np.float64))[::-1]
        n = len(values)
        if n > SPECTRUM_LEADING + SPECTRUM_TRAILING:
            ranks = list(range(1, SPECTRUM_LEADING + 1)) + list(
                range(n - SPECTRUM_TRAILING + 1, n + 1)
            )
        else:
            ranks = list(range(1, n + 1))
        shown = values[np.array(ranks) - 1]
        traces.append(go.Bar(
            x=[f"#{r}" for r in ranks], y=shown, showlegend=False, xaxis=f"x{axis}",
            yaxis=f"y{axis}",
            marker_color=[NEGATIVE_COLOUR if v < 0 else KEPT_COLOUR for v in shown],
            hovertemplate=_("rank %{x}: μ = %{y:.4g}") + "<extra></extra>",
        ))
    layout = _two_panel_layout(_("right K̃"), _("wrong K̃"), share=False)
    for name in ("xaxis", "xaxis2"):
        layout[name].update(type="category", title=_("rank"))
    for name in ("yaxis", "yaxis2"):
        layout[name]["title"] = _("eigenvalue μ")
    fig = go.Figure(data=traces, layout=dict(
        title=title, height=360, **layout,
        **{k: v for k, v in BASE_LAYOUT.items() if k != "legend"}))
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=10))
    return fig
