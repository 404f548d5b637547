"""New points: training and held-out points in one projection, and a placed point's terms."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import EQUAL_SCALE, base_layout, class_colour, class_name, classes
from words.i18n import _

NEW_POINT_COLOUR = "#111111"
POSITIVE_TERM, NEGATIVE_TERM = "#D62728", "#1F77B4"


def projection_with_heldout(
    Z_train: np.ndarray,
    y_train: np.ndarray | None,
    Z_held: np.ndarray,
    y_held: np.ndarray | None,
    target_names: Sequence[str],
    *,
    train_rows: np.ndarray,
    held_rows: np.ndarray,
    new_point: np.ndarray | None,
    title: str,
    axis_titles: Sequence[str],
    new_point_label: str | None = None,
) -> go.Figure:
    """Training points (filled), held-out points (open diamonds), the new point (star).

    Both use the class palette. ``train_rows``/``held_rows`` are the rows in the full
    data set, carried as ``customdata`` and shown on hover. ``new_point_label``: the new
    point's legend entry (by default "your point").
    """
    new_point_label = _("your point") if new_point_label is None else new_point_label
    fig = go.Figure()
    for label, idx in classes(y_train, len(Z_train)):
        name = class_name(target_names, label, y_train)
        fig.add_trace(
            go.Scatter(
                x=Z_train[idx, 0], y=Z_train[idx, 1], mode="markers",
                name=name, legendgroup=str(label),
                marker=dict(color=class_colour(label), size=6, opacity=0.75),
                customdata=train_rows[idx],
                hovertemplate=_("point %{{customdata}} ({name}, training)").format(name=name)
                + "<extra></extra>",
            )
        )
    for label, idx in classes(y_held, len(Z_held)):
        name = class_name(target_names, label, y_held)
        fig.add_trace(
            go.Scatter(
                x=Z_held[idx, 0], y=Z_held[idx, 1], mode="markers",
                name=_("{name} · held out").format(name=name), legendgroup=str(label),
                showlegend=False,
                # An open symbol is drawn in the marker colour, with the line's width.
                marker=dict(color=class_colour(label), size=10, symbol="diamond-open",
                            line=dict(width=2)),
                customdata=held_rows[idx],
                hovertemplate=_("point %{{customdata}} ({name}, held out)").format(name=name)
                + "<extra></extra>",
            )
        )
    # One legend entry per class (colour) and one per role (symbol), not one per pair.
    for name, marker in (
        (_("training"), dict(color="#888888", size=6)),
        (_("held out"), dict(color="#888888", size=10, symbol="diamond-open", line=dict(width=2))),
    ):
        fig.add_trace(go.Scatter(x=[None], y=[None], mode="markers", name=name, marker=marker,
                                 hoverinfo="skip"))
    if new_point is not None:
        fig.add_trace(
            go.Scatter(
                x=[new_point[0]], y=[new_point[1]], mode="markers", name=new_point_label,
                marker=dict(color="#FFD700", size=20, symbol="star",
                            line=dict(color=NEW_POINT_COLOUR, width=2)),
                hovertemplate=(f"{new_point_label}<br>(%{{x:.4g}}, %{{y:.4g}})<extra></extra>"),
            )
        )
    fig.update_xaxes(title=axis_titles[0], constrain="domain")
    fig.update_yaxes(title=axis_titles[1], **EQUAL_SCALE)  # coordinates in one space
    layout = base_layout()
    # Below the plot, clear of the axis title: two half-width charts have no room at the side.
    layout["legend"] = dict(orientation="h", yanchor="top", y=-0.3, itemsizing="constant",
                            font=dict(size=12))
    fig.update_layout(title=title, height=500, **layout)
    return fig


def terms_in_input_space(
    X_train: np.ndarray,
    terms: np.ndarray,
    x_new: np.ndarray,
    *,
    component: int,
    title: str,
    axis_titles: Sequence[str],
) -> go.Figure:
    """Each training point sized by |αᵢᵏ k̃(xᵢ, x)| and coloured by its sign, with x as a star."""
    size = np.abs(terms)
    largest = float(size.max()) or 1.0
    diameters = 4 + 22 * np.sqrt(size / largest)
    fig = go.Figure()
    for sign, colour, name in ((1, POSITIVE_TERM, _("term > 0")),
                               (-1, NEGATIVE_TERM, _("term < 0"))):
        idx = np.flatnonzero(np.sign(terms) == sign)
        fig.add_trace(
            go.Scatter(
                x=X_train[idx, 0], y=X_train[idx, 1], mode="markers", name=name,
                marker=dict(color=colour, size=diameters[idx], opacity=0.6,
                            line=dict(color="white", width=0.5)),
                customdata=np.column_stack([idx, terms[idx]]),
                hovertemplate=_("training point %{{customdata[0]}}<br>α·k̃ for y{component} = "
                                "%{{customdata[1]:.3g}}").format(component=component)
                + "<extra></extra>",
            )
        )
    fig.add_trace(
        go.Scatter(
            x=[x_new[0]], y=[x_new[1]], mode="markers", name=_("your point"),
            marker=dict(color="#FFD700", size=20, symbol="star",
                        line=dict(color=NEW_POINT_COLOUR, width=2)),
            hovertemplate=_("your point (%{x:.3g}, %{y:.3g})") + "<extra></extra>",
        )
    )
    fig.update_xaxes(title=axis_titles[0], constrain="domain")
    fig.update_yaxes(title=axis_titles[1], **EQUAL_SCALE)
    layout = base_layout()
    layout["legend"] = dict(orientation="h", y=-0.22, itemsizing="constant")
    fig.update_layout(title=title, height=460, **layout)
    return fig
