"""Choosing γ: small multiples across a sweep, separability against the parameter, spectra."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go
from plotly.colors import sample_colorscale
from plotly.subplots import make_subplots

from experiments.kernel_diagnostics import format_gamma
from shell.figures import (
    EQUAL_SCALE,
    KEPT_COLOUR,
    LINEAR_PCA_COLOUR,
    REFERENCE_COLOUR,
    base_layout,
    class_colour,
    class_name,
    classes,
)
from words.i18n import _, format_number
from words.kernel_params import SYMBOLS

HIGHLIGHT = "#D62728"
BEST_COLOUR = "#2CA02C"
MAX_POINTS_PER_PANEL = 500




def format_swept_number(param: str, value: float) -> str:
    """A swept value as the pages write it: γ by the app's γ formatter (1000, 0.00781,
    1.26e-5), a degree as an integer, c₀ as it is (0.5)."""
    if param == "gamma":
        return format_gamma(value)
    return str(int(value)) if param == "degree" else format_number(value, "g")


def format_swept_value(param: str, value: float) -> str:
    """A swept parameter's value as a label: 'γ = 0.5', 'd = 3' or 'c₀ = 1'."""
    return f"{SYMBOLS[param]} = {format_swept_number(param, value)}"


def small_multiples(
    projections: np.ndarray,
    values: Sequence[float],
    y: np.ndarray | None,
    target_names: Sequence[str],
    *,
    param: str,
    current: int,
    current_exact: bool = True,
    reference: int | None = None,
    reference_label: str = "",
    columns: int = 6,
    title: str,
    notes: Sequence[str] | None = None,
) -> go.Figure:
    """One 2-D projection per parameter value; the current panel framed in red.

    ``projections`` is (m, n, 2), signs already aligned. ``reference`` marks the panel
    nearest the kernel's reference γ with ``reference_label`` (γ only). ``notes`` adds a
    word to a panel's title ("" for none), e.g. "K ≈ I" where the spectrum is flat. Axes
    carry no numbers: each panel has its own scale (the same across and up), and only the
    shape matters.
    """
    m, n, _dims = projections.shape
    rows = -(-m // columns)
    titles = []
    for i, value in enumerate(values):
        text = format_swept_value(param, value)
        if i == current:
            mark = _("yours") if current_exact else _("nearest yours")
            text = f"<b>{text} ◀ {mark}</b>"
        if reference is not None and i == reference:
            text += f" · {reference_label}"
        if notes is not None and notes[i]:
            text += f" · {notes[i]}"
        titles.append(text)
    fig = make_subplots(rows=rows, cols=columns, subplot_titles=titles,
                        horizontal_spacing=0.02, vertical_spacing=0.12)
    shown = np.arange(n) if n <= MAX_POINTS_PER_PANEL else np.linspace(
        0, n - 1, MAX_POINTS_PER_PANEL).round().astype(int)
    groups = classes(None if y is None else y[shown], len(shown))
    for i in range(m):
        row, col = divmod(i, columns)
        Z = projections[i][shown]
        for label, idx in groups:
            fig.add_trace(
                go.Scatter(
                    x=Z[idx, 0].astype(np.float32), y=Z[idx, 1].astype(np.float32),
                    mode="markers", marker=dict(color=class_colour(label), size=3),
                    name=class_name(target_names, label, y), legendgroup=str(label),
                    showlegend=i == 0, hoverinfo="skip",
                ),
                row=row + 1, col=col + 1,
            )
        axis = "" if i == 0 else str(i + 1)
        # Each panel to its own scale, but the same scale across and up: shapes are true.
        fig.update_layout({f"xaxis{axis}": dict(constrain="domain"),
                           f"yaxis{axis}": {**EQUAL_SCALE, "scaleanchor": f"x{axis}"}})
        if i == current:
            fig.add_shape(
                type="rect", xref=f"x{axis} domain", yref=f"y{axis} domain",
                x0=-0.02, x1=1.02, y0=-0.02, y1=1.0,
                line=dict(color=HIGHLIGHT, width=3),
            )
    fig.update_xaxes(showticklabels=False, showgrid=False, zeroline=True,
                     zerolinecolor="#DDDDDD")
    fig.update_yaxes(showticklabels=False, showgrid=False, zeroline=True,
                     zerolinecolor="#DDDDDD")
    layout = base_layout()
    layout["legend"] = dict(orientation="h", y=-0.06, itemsizing="constant",
                            title_text=_("class"))
    layout["margin"] = dict(l=10, r=10, t=80, b=10)  # a two-line title
    fig.update_layout(title=title, height=210 * rows + 130, **layout)
    fig.update_annotations(font_size=12)
    return fig


def separability_vs_value(
    values: Sequence[float],
    score_two: np.ndarray,
    score_k: np.ndarray,
    *,
    k: int,
    linear_two: float | None,
    param: str,
    best: int,
    current_value: float,
    reference_value: float | None = None,
    reference_label: str = "",
    title: str,
) -> go.Figure:
    """Cross-validated accuracy against γ (log axis), d or c₀; best value and yours marked,
    and the kernel's reference γ (``reference_label``) when given."""
    values = np.asarray(values, dtype=float)
    fig = go.Figure()
    symbol = SYMBOLS[param]
    fig.add_trace(go.Scatter(
        x=values, y=100 * score_two, mode="lines+markers",
        name=_("kernel PCA, components 1–2"), line=dict(color=KEPT_COLOUR, width=3),
        hovertemplate=_("{symbol} = %{x:g}: %{y:.1f}%<extra>components 1–2</extra>").replace(
            "{symbol}", symbol),
    ))
    fig.add_trace(go.Scatter(
        x=values, y=100 * score_k, mode="lines+markers",
        name=_("kernel PCA, components 1–{k}").format(k=k),
        line=dict(color=KEPT_COLOUR, dash="dot"),
        hovertemplate=_("{symbol} = %{x:g}: %{y:.1f}%<extra>components 1–{k}</extra>").replace(
            "{symbol}", symbol).replace("{k}", str(k)),
    ))
    if linear_two is not None:
        fig.add_trace(go.Scatter(
            x=[values[0], values[-1]], y=[100 * linear_two] * 2, mode="lines",
            name=_("linear PCA, components 1–2"),
            line=dict(color=LINEAR_PCA_COLOUR, dash="dash"),
            hovertemplate=_("linear PCA: %{y:.1f}%") + "<extra></extra>",
        ))
    fig.add_trace(go.Scatter(
        x=[values[best]], y=[100 * score_two[best]], mode="markers+text",
        name=_("best {symbol} (components 1–2)").format(symbol=symbol),
        marker=dict(color=BEST_COLOUR, size=16, symbol="star"),
        # The label above its star, on the side away from your value's line (so the line
        # never crosses it): below, it sat by the curve rising to the star, nearer the
        # curve than the star. Drawn past the axes' top when the star is at 100 %.
        text=[_("best {value}").format(value=format_swept_value(param, values[best]))],
        textposition="top left" if current_value > values[best] else "top right",
        cliponaxis=False,
        hovertemplate=_("best {symbol} = %{x:g}: %{y:.1f}%").replace("{symbol}", symbol)
        + "<extra></extra>",
    ))
    # Vertical markers as traces (not add_vline annotations, which a log axis would place
    # at 10^value): they get legend entries and hover like everything else.
    fig.add_trace(go.Scatter(
        x=[current_value, current_value], y=[0, 104], mode="lines",
        name=_("your {value}").format(value=format_swept_value(param, current_value)),
        line=dict(color=HIGHLIGHT, width=2),
        hoverinfo="skip",
    ))
    if reference_value is not None:
        fig.add_trace(go.Scatter(
            x=[reference_value, reference_value], y=[0, 104], mode="lines",
            name=f"{reference_label} γ = {format_gamma(reference_value)}",
            line=dict(color=REFERENCE_COLOUR, dash="dot", width=1), hoverinfo="skip",
        ))
    if param == "gamma":
        fig.update_xaxes(type="log", title=_("γ (log scale)"), dtick=1, exponentformat="power")
    elif param == "degree":
        fig.update_xaxes(title=_("degree d"), dtick=1)
    else:
        fig.update_xaxes(title="c₀")
    fig.update_yaxes(title=_("cross-validated accuracy (%)"), range=[0, 108])
    layout = base_layout()
    layout["legend"] = dict(orientation="h", y=-0.3)
    fig.update_layout(title=title, height=440, **layout)
    return fig


def spectra_lines(
    values: Sequence[float],
    leading_share: Sequence[np.ndarray],
    *,
    flat_share: float,
    param: str,
    current: int,
    title: str,
) -> go.Figure:
    """μᵢ / trace(K̃) of the leading eigenvalues μ of K̃, one line per value (colour bar)."""
    values = np.asarray(values, dtype=float)
    m = len(values)
    colours = sample_colorscale("Viridis", list(np.linspace(0, 0.95, m)))
    fig = go.Figure()
    # Yours drawn last, on top of the others, with white-edged markers: among a dozen
    # close lines (in the dark theme above all) a red line alone was lost.
    order = [i for i in range(m) if i != current] + [current]
    for i in order:
        positive = np.clip(np.asarray(leading_share[i], dtype=float), 1e-12, None)
        name = format_swept_value(param, values[i])
        mine = i == current
        fig.add_trace(go.Scatter(
            x=np.arange(1, len(positive) + 1), y=100 * positive,
            mode="lines+markers" if mine else "lines",
            line=dict(color=HIGHLIGHT if mine else colours[i], width=4 if mine else 1.5),
            marker=dict(size=8, color=HIGHLIGHT, line=dict(color="white", width=1.5))
            if mine else None,
            name=name, showlegend=False,
            hovertemplate=_("{value}: μ%{x} holds %{y:.3g}%").replace("{value}", name)
            + "<extra></extra>",
        ))
    # A colour bar says which line is which value (12 legend entries would bury the plot).
    scale_values = np.log10(values) if param == "gamma" else values
    fig.add_trace(go.Scatter(
        x=[None], y=[None], mode="markers", showlegend=False, hoverinfo="skip",
        marker=dict(colorscale=[[0, colours[0]], [1, colours[-1]]],
                    cmin=float(scale_values.min()), cmax=float(scale_values.max()),
                    color=[float(scale_values.min())], showscale=True,
                    colorbar=dict(title="log₁₀ γ" if param == "gamma" else "d", thickness=12)),
    ))
    fig.add_hline(y=100 * flat_share, line=dict(color=REFERENCE_COLOUR, dash="dash", width=1),
                  annotation_text=_("flat: K̃ ∝ I − 1/n"), annotation_position="bottom left")
    fig.update_xaxes(title=_("eigenvalue rank"))
    fig.update_yaxes(type="log", title=_("% of trace(K̃)"), dtick=2, exponentformat="power")
    fig.update_layout(title=title, height=400, **base_layout())
    return fig


def share_vs_value(
    values: Sequence[float],
    top_share: np.ndarray,
    mean_similarity: np.ndarray | None,
    *,
    flat_share: float,
    param: str,
    title: str,
) -> go.Figure:
    """μ₁ / trace(K̃) and (when given) the mean similarity k(xᵢ, xⱼ), against the value."""
    values = np.asarray(values, dtype=float)
    fig = go.Figure()
    fig.add_trace(go.Scatter(
        x=values, y=100 * np.asarray(top_share), mode="lines+markers", name="μ₁ / trace(K̃)",
        line=dict(color=KEPT_COLOUR, width=3),
        hovertemplate=_("%{x:g}: μ₁ holds %{y:.3g}%") + "<extra></extra>",
    ))
    if mean_similarity is not None:  # only for kernels with 0 < k ≤ 1 (RBF, Laplacian)
        fig.add_trace(go.Scatter(
            x=values, y=100 * np.asarray(mean_similarity), mode="lines+markers",
            name=_("mean k(xᵢ, xⱼ), i ≠ j, in %"), line=dict(color="#9467BD", dash="dot"),
            hovertemplate=_("%{x:g}: mean similarity %{y:.3g} %") + "<extra></extra>",
        ))
    fig.add_trace(go.Scatter(
        x=[values[0], values[-1]], y=[100 * flat_share] * 2, mode="lines",
        name=_("flat spectrum, 1/(n − 1)"), line=dict(color=REFERENCE_COLOUR, dash="dash", width=1),
        hoverinfo="skip",
    ))
    fig.update_xaxes(type="log" if param == "gamma" else "linear", dtick=1,
                     exponentformat="power",
                     title=_("γ (log scale)") if param == "gamma" else _("degree d"))
    fig.update_yaxes(type="log", title="%", dtick=1, exponentformat="power")
    layout = base_layout()
    layout["legend"] = dict(orientation="h", y=-0.3)
    fig.update_layout(title=title, height=420, **layout)
    return fig
