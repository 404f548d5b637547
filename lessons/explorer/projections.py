"""The Explorer's first screen: kernel PCA beside linear PCA, and whether γ suits the data.

The row of view controls (2-D/3-D, the components on the axes), the two projections (a
fragment), their cross-validated separability, the selected points, and the γ hint with
its one-click fix (``lessons.common.gamma_hint``: drawn last, so the first screen never waits for
its search) and the standardisation hint.
"""

from __future__ import annotations

from itertools import combinations

import numpy as np
import streamlit as st

from experiments.analysis import Analysis
from experiments.separability import linear_separability
from lessons.common import gamma_hint
from lessons.explorer.charts import (
    SCATTERGL_ABOVE,
    SELECTION,
    chart_columns,
    plot,
    selecting,
    selection,
    selection_changed,
    spread_sample,
    touch_select_toggle,
)
from lessons.explorer.sections import (
    kpca_figure,
    pca_figure,
    scored,
    separability_sentence,
)
from lessons.explorer.view_link import (
    FIRST_AXES,
    K_VIEW_AXES,
    K_VIEW_DIMS,
    VIEW_2D,
    VIEW_3D,
    seed_from_link,
    write_to_link,
)
from shell import figures, findings
from shell.caches import Inputs, bounded_cache, shipped_for
from shell.display import number_caption
from shell.state import DataKey, KernelKey, Settings
from words.i18n import _, format_number

MAX_DIGITS_SHOWN = 60
TRIPLES_FROM = 8  # 3-D axes: any three of the first 8 components


def axis_choices(k: int, dims: int) -> list[tuple[int, ...]]:
    """Component tuples (1-based) offered for the axes: pairs of the k, triples of the first 8."""
    if dims == 2:
        return list(combinations(range(1, k + 1), 2))
    return list(combinations(range(1, min(k, TRIPLES_FROM) + 1), 3))


def _fit_axes(axes: tuple[int, ...], choices: list[tuple[int, ...]], dims: int) -> tuple:
    """The remembered axes adapted to 2-D/3-D and to the number of components."""
    axes = tuple(axes)
    if dims == 3 and len(axes) == 2:
        extra = next(c for c in range(1, 20) if c not in axes)
        axes = tuple(sorted((*axes, extra)))
    elif dims == 2 and len(axes) == 3:
        axes = axes[:2]
    return axes if axes in choices else choices[0]


def projection_view(k: int) -> tuple[int, tuple[int, ...]]:
    """The row of view controls above the projections: 2-D/3-D and the components shown.

    Returns (dims, axes) with 1-based component numbers. Both travel in the link.
    """
    ss = st.session_state
    seed_from_link()
    dims_col, axes_col, _spare = st.columns([1, 1, 1], vertical_alignment="bottom")
    with dims_col:
        if ss.get(K_VIEW_DIMS) not in (VIEW_2D, VIEW_3D):
            ss[K_VIEW_DIMS] = VIEW_2D
        dims_label = st.segmented_control(
            _("View"), [VIEW_2D, VIEW_3D], key=K_VIEW_DIMS, required=True
        )
    dims = 3 if dims_label == VIEW_3D and k >= 3 else 2
    choices = axis_choices(k, dims)
    ss[K_VIEW_AXES] = _fit_axes(ss.get(K_VIEW_AXES, FIRST_AXES), choices, dims)
    with axes_col:
        axes = st.selectbox(
            _("Components on the axes"),
            choices,
            key=K_VIEW_AXES,
            format_func=lambda t: " · ".join(f"{i}" for i in t),
            help=_("Which kernel principal components (1 = largest eigenvalue) to draw; "
                   "linear PCA shows the same component numbers when it has that many."),
        )
    if dims_label == VIEW_3D and k < 3:
        st.caption(_("3-D needs at least 3 components: raise '{slider}'.").format(
            slider=_("Number of components")))
    write_to_link(dims_label, tuple(axes))
    return dims, tuple(axes)


@st.fragment
def projections(result: Analysis, data, settings: Settings) -> None:
    """Kernel PCA beside linear PCA, on the chosen components, and their separability.

    A fragment: switching 2-D/3-D or the components on the axes reruns only this block,
    not the page's other sections. A box or lasso selection reruns the whole page, to
    highlight the points in every chart.
    """
    if selection_changed():
        st.rerun(scope="app")
    k = result.projection.shape[1]
    dims, axes = projection_view(k)
    columns = [a - 1 for a in axes]
    n_linear = result.pca_projection.shape[1]
    linear_columns = columns if max(columns) < n_linear else list(range(min(dims, n_linear)))
    highlight = selection(settings)
    webgl = result.n > SCATTERGL_ABOVE
    kpca_col, pca_col = chart_columns("projections", 2)
    with kpca_col:
        fig = kpca_figure(result.projection[:, columns], data, data.y, settings, axes,
                          highlight=highlight, webgl=webgl)
        plot(fig, key="chart_kpca", settings=settings, selectable=dims == 2, columns=2)
    with pca_col:
        fig = pca_figure(result.pca_projection[:, linear_columns], data, data.y,
                         linear_columns, dims, highlight=highlight, webgl=webgl)
        plot(fig, key="chart_pca", settings=settings, selectable=dims == 2, columns=2)
    separability_caption(result, data, settings, columns, linear_columns)
    if n_linear < dims or linear_columns != columns:
        st.caption(_(
            "The inputs have {n} dimension(s), so linear PCA has only {n} component(s): it "
            "shows its first ones.").format(n=format_number(n_linear)))
    if dims == 2:
        touch_select_toggle()
    if highlight:
        _selected_points(highlight, data, settings)
    elif dims == 2 and selecting():
        st.caption(_("Drag a lasso or box around points to highlight them in every chart."))
    elif dims == 2:
        st.caption(_("A swipe over the charts scrolls the page: switch on '{toggle}' to select "
                     "points instead.").format(toggle=_("Select points with a finger")))


@bounded_cache(max_entries=64, shared=True)  # one float an entry
def _separability(data: DataKey, kernel: KernelKey | None, columns: tuple[int, ...],
                  _Z: np.ndarray, _y: np.ndarray) -> float | None:
    """The score of the coordinates ``_Z``: kernel PCA's ``columns`` for ``kernel``, or
    linear PCA's (``kernel`` None: they depend on the data alone, so changing γ, the
    commonest click, does not cross-validate the same coordinates again)."""
    return linear_separability(_Z, _y)


def score(settings: Settings, kernel: KernelKey | None, columns: tuple[int, ...] | list[int],
          Z: np.ndarray, y: np.ndarray) -> float | None:
    """The score of the coordinates ``Z``, kernel PCA's ``columns`` for ``kernel`` (None:
    linear PCA's): shipped with the code when it was computed from these very coordinates
    (built-in data, a γ of the grid: ``experiments/shipped.py``), else cached."""
    shipped = shipped_for(settings.data_key)
    if shipped is not None:
        found = (shipped.score(None, {}, columns, Z) if kernel is None else
                 shipped.score(kernel.kernel, kernel.kernel_params(), columns, Z))
        if found is not None:
            return found
    return _separability(settings.data_key, kernel, tuple(columns), Z, y)


def separability_scores(result, data, settings, columns, linear_columns):
    """(kernel PCA's, linear PCA's) scores of the drawn components (shipped or cached), or
    None without two classes."""
    if data.y is None or len(np.unique(data.y)) < 2:
        return None
    kpca = score(settings, settings.kernel_key, columns, result.projection[:, columns], data.y)
    linear = score(settings, None, linear_columns, result.pca_projection[:, linear_columns],
                   data.y)
    return kpca, linear


def first_alone(result, data, settings, first: int) -> float | None:
    """The score of component ``first`` alone (shipped or cached)."""
    return score(settings, settings.kernel_key, (first,), result.projection[:, [first]], data.y)


def separability_caption(result, data, settings, columns, linear_columns) -> None:
    """Cross-validated linear separability of what is drawn, for KPCA and PCA alike."""
    scores = separability_scores(result, data, settings, columns, linear_columns)
    if scores is None:
        st.caption(_("No class labels: hover a point to see its row number."))
        return
    kpca, linear = scores
    if kpca is None or linear is None:
        st.caption(_("A class has a single point: no cross-validated score."))
        return
    alone = first_alone(result, data, settings, columns[0])
    text = separability_sentence(kpca, linear, alone, data.y, columns)
    findings.publish("separability", text.replace("**", ""))
    number_caption(scored(text))


def gamma_hint_slot(inputs: Inputs, settings: Settings):
    """Where the γ hint goes, under the projections (filled by :func:`gamma_hints`)."""
    return gamma_hint.slot(inputs, settings)


def gamma_hints(place, result: Analysis, data, inputs: Inputs, settings: Settings) -> None:
    """Is γ right for these data? The evidence-based hint (``lessons.common.gamma_hint``),
    drawn into ``place`` once the rest of the page is drawn: a quick search of γ (cached per
    dataset and kernel) compared with the score shown for components 1–2."""
    gamma_hint.fill(place, inputs, settings, shown_score(result, data, settings),
                    key="hint_gamma")


def shown_score(result: Analysis, data, settings: Settings) -> float | None:
    """The score of components 1–2 on all points, which the γ hint compares with."""
    if data.y is None or len(np.unique(data.y)) < 2:
        return None
    return score(settings, settings.kernel_key, (0, 1), result.projection[:, [0, 1]], data.y)


def _selected_points(indices: list[int], data, settings: Settings) -> None:
    valid = [i for i in indices if 0 <= i < len(data.X)]
    if not valid:
        return
    cols = st.columns([4, 1])
    cols[0].markdown(_("**{n} point(s) selected:** highlighted in every chart.").format(
        n=format_number(len(valid))))
    cols[1].button(_("Clear selection"),
                   on_click=lambda: st.session_state.pop(SELECTION, None))
    if data.image_shape is None:
        return
    shown = spread_sample(valid, MAX_DIGITS_SHOWN)
    title = (
        _("Selected digits (all {shown})")
        if len(shown) == len(valid)
        else _("Selected digits ({shown} of {selected}, spread over the selection)")
    ).format(shown=format_number(len(shown)), selected=format_number(len(valid)))
    fig = figures.digit_mosaic(
        data.X[shown],
        data.image_shape,
        columns=min(12, max(1, len(shown))),
        hover_labels=[_("point {i}, digit {digit}").format(
            i=i, digit=data.target_names[data.y[i]]) for i in shown],
        title=title,
    )
    plot(fig, key="chart_selected_digits", settings=settings)
