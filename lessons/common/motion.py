"""γ in motion, as the Explorer and Choosing γ draw it: a play button that sweeps γ.

The frames (:func:`experiments.morph.gamma_motion`: kernel PCA's plane of components 1–2
at 21 values of γ over two decades around the sidebar's, or at every degree of a
polynomial kernel, aligned so that a point moves continuously) are computed once per view
and kept in a bounded cache. They travel to the browser in one figure as Plotly frames,
with Plotly's own play button and slider: playing and scrubbing happen in the browser,
never one Streamlit rerun per frame. Beside it, K̃ of the same frame (small data).

Each frame fills the axes with all of its points, and its axes carry its own coordinates
(the components drawn, and their scale), so a frame of size 1e-7 says so; a component
below the rounding of K is drawn as 0 and named, never stretched into noise.

That slider is the only one: a small component (``motion_frame.js``, ``st.components.v2``,
in the page itself) listens to the chart's slider and play buttons and tells Python which
frame is on screen once it settles, and "Use this …" takes that frame's γ (or degree).
Off by default: nothing is computed or sent until the student asks.
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import partial
from pathlib import Path

import numpy as np
import plotly.graph_objects as go
import streamlit as st
from plotly.subplots import make_subplots

from experiments.kernel_diagnostics import signed
from experiments.morph import (
    DEGREES,
    MOTION_MAX_N,
    Motion,
    gamma_motion,
    motion_values,
)
from experiments.sampling import stratified_rows
from experiments.separability import METHOD
from kpca_core import KERNELS
from server import costs
from server.admission import queued
from server.memory import guard_memory
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.display import number_caption
from shell.figures import (
    CENTERED_SCALE,
    EQUAL_SCALE,
    base_layout,
    class_colour,
    class_name,
    class_symbol,
    classes,
    faded,
)
from shell.page import kernel_errors
from shell.sidebar import apply_kernel_params
from shell.state import GAMMA_MAX, GAMMA_MIN, Settings, format_gamma
from words.i18n import N_, _, format_number, join_sentences
from words.kernel_params import SYMBOLS

FRAME_MS = 450  # each frame's time on screen while playing, of which the move takes…
TRANSITION_MS = 300
MOTION_HEIGHT = 600
TICKS = 10_000  # coordinates sent as whole numbers, ±TICKS at the axes' ends (int16)
MARGIN = 1.05  # the axes reach 5 % past a frame's farthest point: every point in view
TICK_STEPS = (-1.0, -0.5, 0.0, 0.5, 1.0)  # labelled ticks, in half-widths of the axes
CELL_PX = 8  # a K̃ cell's marker: ~7 px apart at 1280 px (overlapping a little), 9 at 1600
LEVELS = 127  # K̃'s cells sent as whole numbers from -LEVELS (blue) to LEVELS (red)
_USED = "_motion_value_used"  # set by "Use this …": the fragment then reruns the page
_SHOWN = "_motion_shown"  # motion key → the frame on screen (its label), from the browser

# Tells Python which frame the chart shows (see the module docstring).
_follow_frame = st.components.v2.component(
    "kpca_motion_frame",
    js=(Path(__file__).parent / "motion_frame.js").read_text(encoding="utf-8"),
    isolate_styles=False,
)


def swept_param(settings: Settings) -> str | None:
    """What the motion sweeps: the degree of a polynomial kernel, else γ (None: no γ)."""
    params = KERNELS[settings.kernel].params
    if "degree" in params:
        return "degree"
    return "gamma" if "gamma" in params else None


def frame_values(settings: Settings, param: str) -> tuple[np.ndarray, int]:
    """The swept values and the index of the sidebar's own."""
    if param == "degree":
        values = np.array(DEGREES, dtype=float)
        return values, int(np.argmin(np.abs(values - settings.degree)))
    values = motion_values(settings.gamma, low=GAMMA_MIN, high=GAMMA_MAX)
    anchor = int(np.argmin(np.abs(np.log(values / settings.gamma))))
    # Two significant digits (6.3, not 6.2946), the sidebar's γ kept exactly.
    rounded = np.array([float(f"{v:.2g}") for v in values])
    rounded[anchor] = settings.gamma
    return rounded, anchor


def format_value(param: str, value: float) -> str:
    return format_gamma(value) if param == "gamma" else f"{int(value)}"




def motion_for(settings: Settings, data, inputs: Inputs, param: str) -> Motion:
    """The frames for this view (cached; a sample of MOTION_MAX_N points for large data)."""
    rows = stratified_rows(len(data.X), data.y, MOTION_MAX_N)
    guard_memory(len(rows), copies=2)
    values, anchor = frame_values(settings, param)
    others = tuple(sorted((k, v) for k, v in settings.kernel_params().items() if k != param))
    y = None if data.y is None else data.y[rows]
    return _motion(inputs, settings.kernel, others, param, tuple(values), anchor,
                   _rows=rows, _y=y)


# An entry: 21 × 600 × 2 float32 coordinates and 21 × 30² cells, ~0.2 MB.
@bounded_cache(max_entries=8)
def _motion(inputs: Inputs, kernel: str, others: tuple, param: str, values: tuple,
            anchor: int, _rows: np.ndarray, _y) -> Motion:
    X = inputs.X[_rows]
    classes = 2 if _y is None else len(np.unique(_y))
    with queued(len(_rows), copies=2, what=N_("these frames"),
                estimate=costs.gamma_motion(len(_rows), X.shape[1], len(values), classes)):
        return gamma_motion(X, _y, kernel=kernel, kernel_params=dict(others), param=param,
                            values=np.asarray(values), anchor=anchor, rows=_rows)


def frame_title(motion: Motion, i: int) -> str:
    """What one frame shows, in numbers: its value and components, then their scores (two
    lines, so that a phone's narrow chart shows it whole)."""
    a, b = motion.components[i]
    first = _("{symbol} = {value} · components {a} and {b}").format(
        symbol=SYMBOLS[motion.param], value=format_value(motion.param, motion.values[i]),
        a=a, b=b)
    quiet = motion.silent[i]
    if quiet.all():
        near = (_("every point at the origin: K̃ is 0 in floating point")
                if motion.extent[i] == 0 else
                _("every point within {extent} of the origin: below the rounding of K").format(
                    extent=signed(motion.extent[i], ".1g")))
        return f"{first}<br>{near}"
    explained = motion.explained[i]
    scores = [_("variance {share}%").format(share=format_number(100 * explained, ".0f"))
              if np.isfinite(explained) else _("no share of variance (trace(K̃) ≤ 0)")]
    if motion.separability is not None:
        scores.insert(0, _("separability {score}%").format(
            score=format_number(100 * motion.separability[i], ".0f")))
    if quiet.any():
        scores.append(_("component {c} is rounding: drawn as 0").format(
            c=motion.components[i][int(np.argmax(quiet))]))
    return f"{first}<br>{' · '.join(scores)}"


def frame_reach(motion: Motion, i: int) -> float:
    """Half the width of frame ``i``'s axes, in the frame's own (normalised) units: its
    farthest point, plus a margin. Every point of every frame is in view."""
    return float(np.abs(motion.frames[i]).max(initial=0.0)) * MARGIN or 1.0


def frame_axes(motion: Motion, i: int) -> dict:
    """Frame ``i``'s axes: the components drawn, and ticks in their true coordinates
    (the frame is drawn to fill the axes: its ticks give its size)."""
    a, b = motion.components[i]
    spread = float(motion.spread[i])
    half = frame_reach(motion, i) * spread if spread > 0 else float(motion.extent[i])
    ticks = [round(step * TICKS) for step in TICK_STEPS]
    # A frame at the origin (K̃ = 0) has no scale to show: its one tick is the origin.
    labels = [signed(step * half, ".2g") if half > 0 or step == 0 else ""
              for step in TICK_STEPS]
    return {name: dict(title=dict(text=_("component {c}").format(c=c), standoff=4),
                       tickvals=ticks,
                       ticktext=labels)
            for name, c in (("xaxis", a), ("yaxis", b))}


def motion_figure(motion: Motion, y: np.ndarray | None, target_names: Sequence[str], *,
                  highlight: Sequence[int] = (), noun: str | None = None,
                  shown: int | None = None) -> go.Figure:
    """The frames as one animated Plotly figure: a scatter (one trace per class) and, when
    ``motion.centered`` is given, K̃ beside it; a play button and a slider under them.

    ``y`` is the labels of ``motion.rows``; ``highlight`` (rows of the data) fades every
    other point; ``shown`` is the frame on screen (default: the anchor). Coordinates go as
    int16, each frame scaled to fill the axes (its ticks carry its true coordinates), K̃
    as int8 levels.
    """
    n = len(motion.rows)
    shown = motion.anchor if shown is None else int(shown)
    y_rows = None if y is None else np.asarray(y)
    selected = np.isin(motion.rows, np.asarray(highlight, dtype=int)) if len(highlight) else None
    heat = motion.centered is not None
    fig = make_subplots(rows=1, cols=2, column_widths=[0.62, 0.38],
                        horizontal_spacing=0.14) if heat else go.Figure()
    groups = classes(y_rows, n)

    # Each frame fills the axes with all of its points (no point is ever off the axes:
    # at a large γ the few points components 1–2 pick out hold most of the frame's
    # variance). Coordinates travel as int16 in 1/10,000 of the axes' half-width, far
    # finer than a pixel; each frame's ticks say what that half-width is.
    def coordinates(i: int, idx: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        ticks = np.round(motion.frames[i][idx] / frame_reach(motion, i) * TICKS)
        ticks = ticks.astype(np.int16)
        return ticks[:, 0], ticks[:, 1]

    def heatmap(i: int, **style) -> go.Scatter:
        # K̃ drawn as a grid of square markers, not a Heatmap: a scatter's colours change
        # with the frames while its points glide, where Plotly drops a heatmap during
        # every transition. Colour only (no hover: the numbers are the Explorer's K̃):
        # int8 levels of ±max|K̃| of the frame, more than a colour scale shows.
        cells = motion.centered[i]
        bound = float(np.abs(cells).max()) or 1.0
        levels = np.round(cells / bound * LEVELS).astype(np.int8).ravel()
        return go.Scatter(marker=dict(color=levels, **style))

    for label, idx in groups:
        colour = class_colour(label)
        marker = dict(color=colour, size=6, symbol=class_symbol(label))
        if selected is not None:
            marker["color"] = np.where(selected[idx], colour, faded(colour))
        name = class_name(target_names, label, y_rows)
        x, y_ = coordinates(shown, idx)
        fig.add_trace(go.Scatter(
            x=x, y=y_, mode="markers", name=name, marker=marker,
            customdata=motion.rows[idx].astype(np.int32),
            hovertemplate=_("point {index}<br>{noun}: {name}").format(
                index="%{customdata}", noun=_("class") if noun is None else noun, name=name)
            + "<extra></extra>"))
    if heat:
        side = motion.centered.shape[1]
        row, column = np.divmod(np.arange(side * side, dtype=np.int16), side)
        cell = heatmap(shown, cmin=-LEVELS, cmax=LEVELS, cmid=0.0,
                       colorscale=CENTERED_SCALE, symbol="square", size=CELL_PX)
        cell.update(x=column, y=row, mode="markers", hoverinfo="skip", showlegend=False,
                    xaxis="x2", yaxis="y2")
        fig.add_trace(cell)

    def traces(i: int) -> list:
        """A frame changes only the coordinates (and K̃): the rest stays in the traces."""
        out = [go.Scatter(x=x, y=y_) for x, y_ in (coordinates(i, idx) for _, idx in groups)]
        return out + ([heatmap(i)] if heat else [])

    labels = [format_value(motion.param, v) for v in motion.values]
    fig.frames = [go.Frame(data=traces(i), name=labels[i],
                           # Bold, as Streamlit's theme draws the first title.
                           layout=dict(title_text=f"<b>{frame_title(motion, i)}</b>",
                                       **frame_axes(motion, i)))
                  for i in range(len(motion.values))]
    play = dict(frame=dict(duration=FRAME_MS, redraw=True),
                transition=dict(duration=TRANSITION_MS, easing="linear"),
                fromcurrent=True, mode="immediate")
    jump = dict(frame=dict(duration=0, redraw=True), transition=dict(duration=0),
                mode="immediate")
    fig.update_layout(
        # Two lines at the top, the legend under them (the margin holds both).
        title=dict(text=frame_title(motion, shown), yref="container", y=1,
                   yanchor="top", pad=dict(t=12)),
        height=MOTION_HEIGHT,
        dragmode=False,  # a swipe scrolls past it on a phone; the slider moves the frames
        # The slider across the whole width, the buttons under it (a phone has no room
        # for both on one row).
        updatemenus=[dict(
            type="buttons", direction="left", x=0, y=-0.58, xanchor="left", yanchor="top",
            pad=dict(t=0, r=8), showactive=False,
            buttons=[dict(label=_("▶ Play"), method="animate", args=[None, play]),
                     dict(label=_("❚❚ Pause"), method="animate",
                          args=[[None], {**jump, "frame": dict(duration=0, redraw=False)}])],
        )],
        sliders=[dict(
            active=shown, x=0, len=1, y=-0.3, yanchor="top",
            currentvalue=dict(visible=False),  # the title says which frame
            font=dict(size=12),  # 21 labels side by side, projector mode too
            pad=dict(t=0, b=0),
            steps=[dict(label=label, method="animate", args=[[label], jump])
                   for label in labels],
        )],
        # Under the axes: their ticks and titles, the slider, the buttons.
        **{**base_layout(), "margin": dict(l=10, r=10, t=100, b=240)},
    )
    fig.update_layout(legend=dict(orientation="h", x=0, y=1.0, yanchor="bottom",
                                  title_text=""))
    axis = dict(range=[-TICKS, TICKS], zeroline=False, showgrid=False,
                tickfont=dict(size=11))
    fig.update_xaxes(**axis, constrain="domain", row=1 if heat else None,
                     col=1 if heat else None)
    fig.update_yaxes(**axis, **EQUAL_SCALE, row=1 if heat else None, col=1 if heat else None)
    fig.update_layout(**frame_axes(motion, shown))
    if heat:
        side = motion.centered.shape[1]
        fig.update_xaxes(range=[-0.5, side - 0.5], showticklabels=False, constrain="domain",
                         showgrid=False, zeroline=False, row=1, col=2)
        # Named on its side, not above: a legend above the frames would run into it.
        fig.update_yaxes(range=[side - 0.5, -0.5], showticklabels=False, scaleanchor="x2",
                         constrain="domain", showgrid=False, zeroline=False,
                         title_text=_("K̃ (class order)"), row=1, col=2)
    return fig


# The motion's words that name what moves: param → {use: words} (γ: "value of γ"; the
# degree: "degree").
_MOTION_WORDS = {
    "gamma": {
        "toggle": N_("▶ {symbol} in motion: watch the projection change with γ"),
        "error": N_("The kernel cannot be computed at every value of γ of the motion"),
        "spinner": N_("Computing the frames: a fit at each value of γ…"),
        "scope": N_("{count} values of {symbol} from {first} to {last}, ×10^0.1 a step, each "
                    "a kernel PCA fit."),
        "matched": N_("Frames are matched to their neighbours: the two components of the "
                      "current value are followed as their eigenvalues cross (so a frame may "
                      "show components 1 and 3: the axes say which), and each frame is turned "
                      "onto the last (a rotation or reflection keeps every distance), so a "
                      "point moves only as much as γ moves it."),
    },
    "degree": {
        "toggle": N_("▶ {symbol} in motion: watch the projection change with the degree"),
        "error": N_("The kernel cannot be computed at every degree of the motion"),
        "spinner": N_("Computing the frames: a fit at each degree…"),
        "scope": N_("{count} values of {symbol} from {first} to {last}, each a kernel PCA "
                    "fit."),
        "matched": N_("Frames are matched to their neighbours: the two components of the "
                      "current value are followed as their eigenvalues cross (so a frame may "
                      "show components 1 and 3: the axes say which), and each frame is turned "
                      "onto the last (a rotation or reflection keeps every distance), so a "
                      "point moves only as much as the degree moves it."),
    },
}


def _use(param: str, value: float, settings: Settings) -> None:
    if param == "degree":
        apply_kernel_params(settings.gamma, degree=int(value))
    else:
        apply_kernel_params(value)
    st.session_state[_USED] = True


def shown_frame(key: str, labels: Sequence[str], anchor: int) -> int:
    """The frame on screen, as the browser last said (the anchor when it has said nothing
    for these frames)."""
    label = st.session_state.get(_SHOWN, {}).get(key)
    return labels.index(label) if label in labels else anchor


def _frame_changed(key: str) -> None:
    """The browser's frame follower says which frame is on screen (its label)."""
    label = (st.session_state.get(f"{key}_follow") or {}).get("frame")
    if isinstance(label, str) and len(label) < 32:
        st.session_state.setdefault(_SHOWN, {})[key] = label


@st.fragment
def motion_section(settings: Settings, data, inputs: Inputs, *, key: str,
                   highlight: Sequence[int] = ()) -> None:
    """The toggle, and once on: the animated frames, and "Use this …" for the frame on
    screen. A fragment: toggling and the frame on screen rerun only this block; "Use this
    …" the page.
    """
    if st.session_state.pop(_USED, False):
        st.rerun(scope="app")
    param = swept_param(settings)
    if param is None:
        return
    symbol = SYMBOLS[param]
    words = {key_: _(text) for key_, text in _MOTION_WORDS[param].items()}
    if not st.toggle(words["toggle"].format(symbol=symbol), key=f"{key}_on"):
        return
    motion = None
    with kernel_errors(_MOTION_WORDS[param]["error"], stop=False), st.spinner(words["spinner"]):
        motion = motion_for(settings, data, inputs, param)
    if motion is None:
        return
    y = None if data.y is None else data.y[motion.rows]
    noun = _("digit") if data.image_shape is not None else _("class")
    labels = [format_value(param, v) for v in motion.values]
    i = shown_frame(key, labels, motion.anchor)
    fig = motion_figure(motion, y, data.target_names, highlight=highlight, noun=noun,
                        shown=i)
    box = f"{key}_box"
    with st.container(key=box):
        show_chart(fig, key=f"{key}_chart", name=f"{key}-motion")
        _follow_frame(key=f"{key}_follow", data={"box": f"st-key-{box}", "frame": labels[i]},
                      on_frame_change=partial(_frame_changed, key))
    use = st.container(horizontal=True, vertical_alignment="center")
    use.button(_("Use {symbol} = {value}").format(symbol=symbol, value=labels[i]),
               key=f"{key}_use", on_click=_use,
               args=(param, float(motion.values[i]), settings),
               disabled=i == motion.anchor, type="primary",
               help=_("The frame on screen: play, pause or move the slider under the chart."))
    with use:
        number_caption(_("On screen: {frame}").format(
            frame=frame_title(motion, i).replace("<br>", " · ")))
    sample = (_("Drawn on a stratified sample of {n_sample} of the {n_total} points, to "
                "keep the frames quick and small.").format(
        n_sample=format_number(len(motion.rows), ","), n_total=format_number(len(data.X), ","))
        if len(motion.rows) < len(data.X) else "")
    number_caption(join_sentences((
        words["scope"].format(count=len(motion.values), symbol=symbol, first=labels[0],
                              last=labels[-1]),
        words["matched"],
        _("Each frame is drawn to fill the axes with all of its points: its ticks give its "
          "true coordinates, so a shrinking picture shows as shrinking numbers. A component "
          "whose eigenvalue is below 1,000 × the rounding of K's entries is drawn as 0 (its "
          "picture would be rounding noise, magnified). Separability: {method}, on the drawn "
          "components; variance: their share of trace(K̃).").format(method=_(METHOD)),
        sample,
    )))
