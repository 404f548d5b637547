"""Figures of the novelty lesson (pure: arrays in, ``go.Figure`` out)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import (
    EQUAL_SCALE,
    KEPT_COLOUR,
    LINEAR_PCA_COLOUR,
    REFERENCE_COLOUR,
    base_layout,
)
from words.i18n import _, format_number

ERROR_SCALE = "YlOrRd"  # sequential: 0 (pale) to large errors (dark red)
NORMAL_COLOUR = "#366CA2"  # the palette's first class colour: the normal points
OUTLIER_COLOUR = "#111111"  # dark crosses, outlined: seen on every colour of the map
THRESHOLD_COLOUR = "#1E6C5A"
CURVE_COLOURS = {"Kernel PCA": KEPT_COLOUR, "One-class SVM": "#CC6618",
                 "Isolation forest": LINEAR_PCA_COLOUR}


def error_map(xs: np.ndarray, ys: np.ndarray, values: np.ndarray, *, train: np.ndarray,
              held: np.ndarray, outliers: np.ndarray, cut: float, title: str,
              axis_titles: Sequence[str]) -> go.Figure:
    """The reconstruction error over the plane, the threshold's contour and the points.

    Colour: p(x) at each grid point; the green line: p(x) = ``cut``, outside which points
    are flagged. Small grey dots: the training points; blue circles: held-out normal
    points; red crosses: outliers.
    """
    fig = go.Figure(go.Contour(
        x=np.asarray(xs, dtype=np.float32), y=np.asarray(ys, dtype=np.float32),
        z=np.asarray(values, dtype=np.float32), colorscale=ERROR_SCALE, ncontours=12,
        line=dict(width=0.5), colorbar=dict(title=dict(text="p(x)"), thickness=14),
        hovertemplate="x = %{x:.3g}, %{y:.3g}<br>p(x) = %{z:.4g}<extra></extra>"))  # no words
    fig.add_trace(go.Contour(
        x=np.asarray(xs, dtype=np.float32), y=np.asarray(ys, dtype=np.float32),
        z=np.asarray(values, dtype=np.float32), showscale=False, hoverinfo="skip",
        contours=dict(coloring="none", start=cut, end=cut, size=1.0, showlabels=False),
        line=dict(color=THRESHOLD_COLOUR, width=3),
        name=_("threshold p(x) = {cut}").format(cut=format_number(cut, ".3g")),
        showlegend=True))
    for points, name, marker in (
        (train, _("training (normal)"), dict(color=REFERENCE_COLOUR, size=4)),
        (held, _("held-out normal"), dict(color=NORMAL_COLOUR, size=7, symbol="circle",
                                       line=dict(color="white", width=1))),
        (outliers, _("outlier"), dict(color=OUTLIER_COLOUR, size=9, symbol="x",
                                   line=dict(color="white", width=1))),
    ):
        P = np.asarray(points, dtype=np.float32)
        fig.add_trace(go.Scatter(x=P[:, 0], y=P[:, 1], mode="markers", name=name,
                                 marker=marker, hoverinfo="skip"))
    fig.update_layout(title=title, height=520, **base_layout())
    fig.update_layout(legend=dict(title_text="", orientation="h", y=-0.12))
    fig.update_xaxes(title=axis_titles[0], constrain="domain", range=[xs[0], xs[-1]])
    fig.update_yaxes(title=axis_titles[1], range=[ys[0], ys[-1]], **EQUAL_SCALE)
    return fig


def roc_figure(curves: Mapping[str, tuple[np.ndarray, np.ndarray]], aucs: Mapping[str, float],
               *, marker: tuple[float, float], title: str) -> go.Figure:
    """ROC curves (true-positive rate against false-positive rate) with each AUC in its
    name; ``marker``: kernel PCA's (false-positive, true-positive) rates at the threshold."""
    fig = go.Figure()
    fig.add_trace(go.Scatter(x=[0, 1], y=[0, 1], mode="lines", name=_("chance (AUC 0.5)"),
                             line=dict(color=LINEAR_PCA_COLOUR, dash="dot", width=1),
                             hoverinfo="skip"))
    for name, (fpr, tpr) in curves.items():
        fig.add_trace(go.Scatter(
            x=np.asarray(fpr, dtype=np.float32), y=np.asarray(tpr, dtype=np.float32),
            mode="lines", name=_("{method} (AUC {auc})").format(
                method=_(name), auc=format_number(aucs[name], ".3f")),
            line=dict(color=CURVE_COLOURS.get(name, KEPT_COLOUR), width=3 if name ==
                      "Kernel PCA" else 2, shape="hv"),
            hovertemplate=_("false alarms %{x:.1%}<br>outliers found %{y:.1%}")
            + "<extra>" + _(name) + "</extra>"))
    fig.add_trace(go.Scatter(x=[marker[0]], y=[marker[1]], mode="markers",
                             name=_("kernel PCA at the threshold"),
                             marker=dict(color=THRESHOLD_COLOUR, size=13, symbol="diamond",
                                         line=dict(color="white", width=1)),
                             hovertemplate=_("false alarms %{x:.1%}<br>outliers found "
                                             "%{y:.1%}") + "<extra>" + _("threshold")
                             + "</extra>"))
    fig.update_layout(title=title, height=520, **base_layout())
    # Below the plot: inside it, the legend covered the axis on a phone.
    fig.update_layout(legend=dict(title_text="", orientation="h", y=-0.25))
    fig.update_xaxes(title=_("false alarms: normal points flagged"), range=[-0.01, 1.01],
                     tickformat=".0%", constrain="domain")
    fig.update_yaxes(title=_("outliers flagged"), range=[-0.01, 1.01], tickformat=".0%",
                     **EQUAL_SCALE)
    return fig
