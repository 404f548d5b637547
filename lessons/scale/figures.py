"""Figures of the Scale lesson: cost against n on log-log axes, and approximations
against exact kernel PCA. Pure functions of arrays (no Streamlit)."""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from shell.figures import (
    BASE_LAYOUT,
    EQUAL_SCALE,
    LINEAR_PCA_COLOUR,
    PALETTE,
    REFERENCE_COLOUR,
    class_colour,
    class_name,
    classes,
)
from words.i18n import _, format_number

STEP_COLOURS = {
    "build": PALETTE[0],
    "centre": PALETTE[3],
    "dense": PALETTE[2],
    "arpack": PALETTE[4],
    "randomized": PALETTE[6],
}
METHOD_COLOURS = {"nystroem": PALETTE[1], "rff": PALETTE[0]}
EXACT_COLOUR = REFERENCE_COLOUR
BUDGET_COLOUR = "#D62728"
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
            hovertemplate=_("{step}<br>n = %{{x:,}}<br>%{{y:.3g}} s").format(step=step)
            + "<extra></extra>",
        ))
    picked = np.array([seconds[s][i] for i, s in enumerate(auto_solver)])
    fig.add_trace(go.Scatter(
        x=sizes, y=picked, mode="markers", name=_('○ = what eigen_solver="auto" picks'),
        customdata=list(auto_solver),
        marker=dict(symbol="circle-open", size=17, line=dict(width=2, color=EXACT_COLOUR)),
        hovertemplate=_("auto picks %{customdata}<br>n = %{x:,}") + "<extra></extra>",
    ))
    n = np.asarray(sizes, dtype=float)
    for step, power in (("build", 2), ("dense", 3)):
        anchor = seconds.get(step)
        if anchor is None or not np.isfinite(anchor[-1]) or anchor[-1] <= 0:
            continue
        fig.add_trace(go.Scatter(
            x=n, y=anchor[-1] * (n / n[-1]) ** power, mode="lines",
            name=_("guide: ∝ n²") if power == 2 else _("guide: ∝ n³"),
            line=dict(color=GUIDE_COLOUR, dash="dot", width=1), hoverinfo="skip",
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=560, **LAYOUT)
    # Ticks at the measured n only, and decades on the time axis: no minor-digit clutter.
    fig.update_xaxes(type="log", title=_("n (points)"), tickvals=list(sizes),
                     ticktext=[format_number(int(v), ",") for v in sizes])
    fig.update_yaxes(type="log", title=_("seconds"), dtick=1)
    return fig


def memory_figure(
    sizes: np.ndarray,
    bytes_by_step: Mapping[str, np.ndarray],
    *,
    labels: Mapping[str, str],
    budget: int,
    budget_text: str,
    largest_n: int,
    largest_label: str,
    title: str,
) -> go.Figure:
    """Modelled bytes of each step against n (log-log), the budget and the largest n allowed.

    ``budget_text`` and ``largest_label`` are the page's own words and format for the
    budget and for what ``largest_n`` is the largest n of, so the legend repeats them.
    """
    fig = go.Figure()
    dashes = ("solid", "dash", "solid", "dot")
    for (step, values), dash in zip(bytes_by_step.items(), dashes * 2, strict=False):
        fig.add_trace(go.Scatter(
            x=sizes, y=values, mode="lines", name=labels[step],
            line=dict(color=STEP_COLOURS.get(step), width=2.5 if dash == "solid" else 2,
                      dash=dash),
            hovertemplate=f"{labels[step]}<br>n = %{{x:,}}<br>%{{y:.3s}}B<extra></extra>",
        ))
    # Reference lines as traces, not add_hline annotations: Plotly places those
    # annotations at the wrong height on log axes.
    low = min(float(np.min(v)) for v in bytes_by_step.values())
    fig.add_trace(go.Scatter(
        x=[sizes[0], sizes[-1]], y=[budget, budget], mode="lines",
        name=_("budget per computation ({budget})").format(budget=budget_text),
        line=dict(color=BUDGET_COLOUR, dash="dash", width=1.5), hoverinfo="skip",
    ))
    fig.add_trace(go.Scatter(
        x=[largest_n, largest_n], y=[low, budget * 10], mode="lines",
        name=_("{label}: {n}").format(label=largest_label, n=format_number(largest_n, ",")),
        line=dict(color=BUDGET_COLOUR, dash="dot", width=1.5), hoverinfo="skip",
    ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=520, **LAYOUT)
    fig.update_xaxes(type="log", title=_("n (points)"), dtick=1)
    fig.update_yaxes(type="log", title=_("bytes"), exponentformat="SI", dtick=1)
    return fig


def sweep_figure(
    curves: Mapping[str, tuple[np.ndarray, np.ndarray]],
    *,
    names: Mapping[str, str],
    title: str,
    y_title: str,
    exact: float | None = None,
    exact_name: str | None = None,
    log_y: bool = True,
    x_title: str = "m landmarks / D random features",
) -> go.Figure:
    """One quantity (error, angle, seconds, bytes) against m or D, one line per method.

    ``curves[method] = (sizes, values)``; ``exact`` draws a horizontal line (named
    ``exact_name``, by default "exact kernel PCA").
    """
    exact_name = _("exact kernel PCA") if exact_name is None else exact_name
    fig = go.Figure()
    for method, (sizes, values) in curves.items():
        fig.add_trace(go.Scatter(
            x=sizes, y=values, mode="lines+markers", name=names[method],
            line=dict(color=METHOD_COLOURS.get(method)),
            hovertemplate=_("{name}<br>size %{{x:,}}<br>%{{y:.3g}}").format(name=names[method])
            + "<extra></extra>",
        ))
    if exact is not None:
        every = np.concatenate([np.asarray(sizes) for sizes, _ in curves.values()])
        fig.add_trace(go.Scatter(
            x=[every.min(), every.max()], y=[exact, exact], mode="lines", name=exact_name,
            line=dict(color=EXACT_COLOUR, dash="dash", width=1.5),
            hovertemplate=f"{exact_name}: %{{y:.3g}}<extra></extra>",
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=400, **LAYOUT)
    sizes = sorted({int(v) for sizes, _ in curves.values() for v in sizes})
    fig.update_xaxes(type="log", title=x_title, tickvals=sizes,
                     ticktext=[format_number(v, ",") for v in sizes])
    fig.update_yaxes(type="log" if log_y else "linear", title=y_title,
                     dtick=1 if log_y else None, exponentformat="SI")
    return fig


def eigenvalue_figure(
    exact: np.ndarray, approximations: Mapping[str, np.ndarray], *, names: Mapping[str, str],
    title: str,
) -> go.Figure:
    """Top-k eigenvalues of K̃: exact, and each approximation's (n − 1) · PCA variance."""
    ranks = np.arange(1, len(exact) + 1)
    fig = go.Figure()
    # Each method a little left or right of its rank, so equal values do not hide each other.
    offsets = np.linspace(-0.12, 0.12, len(approximations)) if len(approximations) > 1 else [0]
    for (method, values), offset in zip(approximations.items(), offsets, strict=True):
        fig.add_trace(go.Scatter(
            x=ranks + offset, y=values, mode="markers", name=names[method],
            customdata=ranks, marker=dict(color=METHOD_COLOURS.get(method), size=10),
            hovertemplate=f"{names[method]}<br>l%{{customdata}} = %{{y:.4g}}<extra></extra>",
        ))
    # Exact last, as a short bar over the dots, so a dot sitting on it stays visible.
    fig.add_trace(go.Scatter(
        x=ranks, y=exact, mode="markers", name=_("exact (kpca_core)"),
        marker=dict(color=EXACT_COLOUR, size=22, symbol="line-ew-open",
                    line=dict(width=2, color=EXACT_COLOUR)),
    ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=420, **LAYOUT)
    fig.update_xaxes(title=_("rank i"), dtick=1 if len(exact) <= 20 else None)
    fig.update_yaxes(title=_("eigenvalue lᵢ of K̃"))
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
    fig = go.Figure(go.Scatter(
        x=exact[rows, 0], y=exact[rows, 1], mode="markers", name=_("exact"),
        customdata=rows,
        marker=dict(symbol="circle-open", size=9, color=LINEAR_PCA_COLOUR),
        hovertemplate=_("exact, point %{customdata}") + "<extra></extra>",
    ))
    labels = None if y is None else np.asarray(y)[rows]
    for label, idx in classes(labels, len(rows)):
        name = class_name(target_names, label, labels)
        fig.add_trace(go.Scatter(
            x=aligned[rows[idx], 0], y=aligned[rows[idx], 1], mode="markers",
            name=_("approx. · {name}").format(name=name), customdata=rows[idx],
            marker=dict(size=4, color=class_colour(label)),
            hovertemplate=_("approximation, point %{{customdata}} ({name})").format(name=name)
            + "<extra></extra>",
        ))
    fig.update_layout(title=title, legend=LEGEND_BELOW, height=480, **LAYOUT)
    fig.update_xaxes(title=_("component 1"), constrain="domain")
    fig.update_yaxes(title=_("component 2"), **EQUAL_SCALE)
    return fig
