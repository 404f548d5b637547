"""Figures of the de-noising lesson: the digit grid and the error-versus-m curves.

Pure functions of arrays: every number in a title is computed here from the very
arrays drawn, so what a student reads is what the picture shows.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

import numpy as np
import plotly.graph_objects as go

from lessons.denoising.experiment import METHOD_TITLES, mse
from shell.figures import BASE_LAYOUT, LINEAR_PCA_COLOUR, PALETTE, digit_mosaic
from words.i18n import N_, _, format_number

GRID_ROWS = (N_("original"), N_("noisy"), "PCA", "KPCA")
METHOD_COLOURS = {
    "pca": LINEAR_PCA_COLOUR,
    "learned": PALETTE[1],
    "fixed_point": PALETTE[0],
    "kwok_tsang": PALETTE[4],
}
METHOD_SYMBOLS = {"pca": "square", "learned": "diamond", "fixed_point": "circle",
                  "kwok_tsang": "triangle-up"}
NOISY_COLOUR = "#D62728"
# Legend names short enough for two charts side by side on an 800-pixel screen.
SHORT_TITLES = {"pca": "PCA", "learned": N_("learned"), "fixed_point": N_("fixed point"),
                "kwok_tsang": "Kwok–Tsang"}


def grid_title(m: int, method_title: str, errors: Mapping[str, float], count: int) -> str:
    return _("m = {m} · MSE of these {count} digits against the originals<br>noisy {noisy} · "
             "PCA {pca} · {method} {kpca}").format(
        m=format_number(m), count=format_number(count),
        noisy=format_number(errors["noisy"], ".4f"), pca=format_number(errors["PCA"], ".4f"),
        method=method_title, kpca=format_number(errors["KPCA"], ".4f"))


def denoising_grid(
    original: np.ndarray,
    noisy: np.ndarray,
    pca: np.ndarray,
    kpca: np.ndarray,
    labels: Sequence[int],
    *,
    m: int,
    method: str,
    image_shape: tuple[int, int] = (16, 16),
) -> go.Figure:
    """Rows original / noisy / PCA / KPCA, one column per test digit.

    The grey scale is fixed to [-1, 1] (paper to ink) for every row, so noisy pixels
    beyond the range show as pure white or black instead of washing out the others.
    """
    count = len(original)
    rows = (original, noisy, pca, kpca)
    images = np.concatenate(rows)
    hover = [_("{row} · digit {label}").format(row=_(row), label=label)
             for row in GRID_ROWS for label in labels]
    errors = {"noisy": mse(noisy, original), "PCA": mse(pca, original),
              "KPCA": mse(kpca, original)}
    method_title = _(METHOD_TITLES[method]).replace("KPCA · ", "KPCA ")
    fig = digit_mosaic(
        images, image_shape, columns=count, hover_labels=hover,
        title=grid_title(m, method_title, errors, count), row_labels=[_(row) for row in GRID_ROWS],
    )
    fig.update_traces(zmin=-1.0, zmax=1.0, selector=dict(type="heatmap"))
    fig.update_layout(title_font_size=14, height=260, margin=dict(l=10, r=10, t=60, b=0))
    return fig


def m_ticks(m_values) -> list[int]:
    """Ticks of the log m axis: powers of 4, then the largest m (all the components, n − 1).

    A power of 4 within a factor 2 of the largest m is left out: its label would run into
    the last one's.
    """
    last = int(max(m_values))
    return [m for m in (4**i for i in range(12)) if 2 * m <= last] + [last]


def mse_curves(
    curves: Mapping[str, tuple[Sequence[int], Sequence[float], float | None]],
    *,
    noisy_mse: float,
    title: str,
    current_m: int | None = None,
) -> go.Figure:
    """MSE against the clean digits vs m (log axis), one line per method, best m starred.

    Parameters
    ----------
    curves : mapping method -> (m values, MSE per m, seconds or None)
    noisy_mse : float
        The error of the noisy digits themselves (doing nothing), drawn as a line.
    current_m : int, optional
        The m shown in the digit grid, marked by a vertical line.
    """
    fig = go.Figure()
    for method, (m_values, errors, seconds) in curves.items():
        errors = np.asarray(errors, dtype=float)
        colour = METHOD_COLOURS[method]
        best = int(np.argmin(errors))
        name = f"{_(SHORT_TITLES[method])} · m={m_values[best]}"
        if seconds is not None:
            name += f" · {format_number(seconds, '.2f')} s"
        fig.add_trace(go.Scatter(
            x=list(m_values), y=errors, mode="lines+markers", name=name,
            legendgroup=method, meta=method,
            line=dict(color=colour, width=3 if method == "pca" else 2),
            marker=dict(color=colour, symbol=METHOD_SYMBOLS[method], size=7),
            hovertemplate=f"{_(METHOD_TITLES[method])}<br>m = %{{x}}<br>MSE = %{{y:.4f}}"
                          "<extra></extra>",
        ))
        fig.add_trace(go.Scatter(
            x=[m_values[best]], y=[errors[best]], mode="markers", name=_("best m"),
            legendgroup=method, meta=f"best:{method}", showlegend=False,
            marker=dict(color=colour, symbol="star", size=18, line=dict(color="black", width=1)),
            hovertemplate=_("best m of {method}: %{x}<br>MSE = %{y:.4f}").replace(
                "{method}", _(METHOD_TITLES[method])) + "<extra></extra>",
        ))
    fig.add_hline(y=noisy_mse, line=dict(color=NOISY_COLOUR, dash="dot"),
                  annotation_text=_("noisy input {mse}").format(
                      mse=format_number(noisy_mse, ".3f")),
                  annotation_position="bottom left")
    if current_m is not None:
        fig.add_vline(x=current_m, line=dict(color="#888888", dash="dash"))
    fig.update_layout(
        title=title,
        xaxis=dict(type="log", title=_("m (components kept, log scale)"),
                   tickvals=m_ticks([m for m_values, _, _ in curves.values() for m in m_values])),
        yaxis=dict(title=_("MSE per pixel<br>against the clean digits"), rangemode="tozero"),
        height=500,
        **{**BASE_LAYOUT, "legend": dict(title_text=_("★ best m, time:"),
                                         orientation="h", yanchor="top", y=-0.3, x=0)},
    )
    fig.update_layout(margin=dict(l=10, r=10, t=80, b=10), title_font_size=15)
    return fig
