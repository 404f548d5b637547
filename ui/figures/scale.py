"""Figures of the Scale lesson: cost against n on log-log axes, and approximations
against exact kernel PCA. Pure functions of arrays (no Streamlit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from .common import BASE_LAYOUT, LINEAR_PCA_COLOUR, PALETTE, class_colour, class_name, classes

STEP_COLOURS = {
    "build": PALETTE[0],
    "centre": PALETTE[3],
    "dense": PALETTE[2],
    "arpack": PALETTE[4],
    "randomized": PALETTE[6],
}
METHOD_COLOURS = {"nystroem": PALETTE[1], "rff": PALETTE[0]}
EXACT_COLOUR = "#333333"
GUIDE_COLOUR = "#9E9E9E"
LAYOUT = {k: v for k, v in BASE_LAYOUT.items() if k != "legend"}
LEGEND_BELOW = dict(orientation="h", yanchor="top", y=-0.18, xanchor="left", x=0)


def timing_figure(
    sizes: np.ndarray,
    seconds: Mapping[str, np.ndarray],
    *,
    labels: Mapping[str, str],
    auto_solver: Sequence[str],
    title: str,
) -> go.Figure:
    """Seconds of each step against n on log-log axes.

    One line per step (legend text from ``labels``, e.g. with the fitted slope), a
    ring around the solver ``eigen_solver="auto"`` picks at each n, and dotted
    guides ∝ n² and ∝ n³ through the largest n of "build" and "dense".
    """
    fig = go.Figure()
    for step, values in seconds.items():
        fig.add_trace(go.Scatter(
            x=sizes, y=values, mode="lines+markers", name=labels[step],
            line=dict(color=STEP_COLOURS.get(step), width=2), marker=dict(size=7),
            hovertemplate=f"{step}<br>n = %{{x:,}}<br>%{{y:.3g}} s<extra></extra>",
        ))
    picked = np.array([seconds[s][i] for i, s in enumerate(auto_solver)])
    fig.add_trace(go.Scatter(
        x=sizes, y=picked, mode="markers", name='○ = what eigen_solver="auto" picks',
        customdata=list(auto_solver),
        marker=dict(symbol="circle-open", size=17, line=dict(width=2, color=EXACT_COLOUR)),
        hovertemplate="auto picks %{customdata}<br>n = %{x:,}<extra></extra>",
    ))
    n = np.asarray(sizes, dtype=float)
    for step, power in (("build", 2), ("dense", 3)):
        anchor = seconds.get(step)
        if anchor is None or not np.isfinite(anchor[-1]) or anchor[-1] <= 0:
            continue
        fig.add_trace(go.Scatter(
            x=n, y=anchor[-1] * (n / n[-1]) ** power, mode="lines",
            name=f"guide: ∝ n{'²' if power == 2 else '³'}",
            line=dict(color=GUIDE_COLOUR, dash="dot", width=1), hoverinfo="skip",
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=560, **LAYOUT)
    fig.update_xaxes(type="log", title="n (points)")
    fig.update_yaxes(type="log", title="seconds")
    return fig


def memory_figure(
    sizes: np.ndarray,
    bytes_by_step: Mapping[str, np.ndarray],
    *,
    labels: Mapping[str, str],
    budget: int,
    largest_n: int,
    title: str,
) -> go.Figure:
    """Modelled bytes of each step against n (log-log), the budget and the largest n allowed."""
    fig = go.Figure()
    for step, values in bytes_by_step.items():
        fig.add_trace(go.Scatter(
            x=sizes, y=values, mode="lines", name=labels[step],
            line=dict(color=STEP_COLOURS.get(step), width=2),
            hovertemplate=f"{labels[step]}<br>n = %{{x:,}}<br>%{{y:.3s}}B<extra></extra>",
        ))
    fig.add_hline(y=budget, line=dict(color="#D62728", dash="dash"),
                  annotation_text="budget per computation", annotation_position="top left")
    fig.add_vline(x=largest_n, line=dict(color="#D62728", dash="dot"),
                  annotation_text=f"largest n allowed: {largest_n:,}",
                  annotation_position="bottom left")
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=520, **LAYOUT)
    fig.update_xaxes(type="log", title="n (points)")
    fig.update_yaxes(type="log", title="bytes", exponentformat="SI")
    return fig


def sweep_figure(
    curves: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    names: Mapping[str, str],
    title: str,
    y_title: str,
    exact: float | None = None,
    exact_name: str = "exact kernel PCA",
    log_y: bool = True,
) -> go.Figure:
    """One quantity (error, angle, seconds, bytes) against m or D, one line per method.

    ``curves[method] = (sizes, values)``; ``exact`` draws a horizontal line.
    """
    fig = go.Figure()
    for method, (sizes, values) in curves.items():
        fig.add_trace(go.Scatter(
            x=sizes, y=values, mode="lines+markers", name=names[method],
            line=dict(color=METHOD_COLOURS.get(method)),
            hovertemplate=f"{names[method]}<br>size %{{x:,}}<br>%{{y:.3g}}<extra></extra>",
        ))
    if exact is not None:
        fig.add_hline(y=exact, line=dict(color=EXACT_COLOUR, dash="dash"),
                      annotation_text=exact_name, annotation_position="top left")
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=400, **LAYOUT)
    fig.update_xaxes(type="log", title="m landmarks / D random features")
    fig.update_yaxes(type="log" if log_y else "linear", title=y_title)
    return fig


def eigenvalue_figure(
    exact: np.ndarray, approximations: Mapping[str, np.ndarray], *, names: Mapping[str, str],
    title: str,
) -> go.Figure:
    """Top-k eigenvalues of K̃: exact, and each approximation's (n − 1) · PCA variance."""
    ranks = np.arange(1, len(exact) + 1)
    fig = go.Figure(go.Scatter(
        x=ranks, y=exact, mode="markers+lines", name="exact (kpca_core)",
        marker=dict(color=EXACT_COLOUR, size=11, symbol="line-ew-open",
                    line=dict(width=3, color=EXACT_COLOUR)),
        line=dict(color=EXACT_COLOUR, width=1),
    ))
    for method, values in approximations.items():
        fig.add_trace(go.Scatter(
            x=ranks, y=values, mode="markers", name=names[method],
            marker=dict(color=METHOD_COLOURS.get(method), size=9),
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=420, **LAYOUT)
    fig.update_xaxes(title="rank i", dtick=1 if len(exact) <= 20 else None)
    fig.update_yaxes(title="eigenvalue l_i of K̃")
    return fig


def overlay_figure(
    exact: np.ndarray, aligned: np.ndarray, y: np.ndarray | None,
    target_names: Sequence[str], *, title: str, shown: np.ndarray | None = None,
) -> go.Figure:
    """Exact scores (grey rings) under the aligned approximate scores (class colours).

    ``shown``: row indices to draw (a subsample for large n); each point carries its
    row index as ``customdata``.
    """
    rows = np.arange(exact.shape[0]) if shown is None else np.asarray(shown)
    fig = go.Figure(go.Scattergl(
        x=exact[rows, 0], y=exact[rows, 1], mode="markers", name="exact",
        customdata=rows,
        marker=dict(symbol="circle-open", size=9, color=LINEAR_PCA_COLOUR),
        hovertemplate="exact, point %{customdata}<extra></extra>",
    ))
    labels = None if y is None else np.asarray(y)[rows]
    for label, idx in classes(labels, len(rows)):
        name = class_name(target_names, label, labels)
        fig.add_trace(go.Scattergl(
            x=aligned[rows[idx], 0], y=aligned[rows[idx], 1], mode="markers",
            name=f"approx. · {name}", customdata=rows[idx],
            marker=dict(size=4, color=class_colour(label)),
            hovertemplate=f"approximation, point %{{customdata}} ({name})<extra></extra>",
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=480, **LAYOUT)
    fig.update_xaxes(title="component 1")
    fig.update_yaxes(title="component 2", scaleanchor="x", scaleratio=1)
    return fig
