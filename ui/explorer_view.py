"""The Explorer's sections: each draws one figure from ``ui.figures`` plus its caption.

Kept out of the page file so the page reads like the lesson (projection first, then
data → K → spectrum) and these pieces can be reused by later pages. Every caption's
claim is computed from the numbers it talks about.
"""

from __future__ import annotations

from functools import partial
from itertools import combinations

import numpy as np
import streamlit as st

from experiments.kernel_diagnostics import (
    REFERENCE_NAMES,
    diagnose,
    feature_scale_ratio,
)
from experiments.separability import METHOD, linear_separability
from kpca_core import KERNELS
from ui import figures
from ui.charts import show_chart
from ui.compute import (
    DENSE_MAX_N,
    Analysis,
    inputs,
    may_be_indefinite,
    reference_gamma_for,
)
from ui.exports import view_name
from ui.sidebar import (
    K_STANDARDIZE,
    K_VIEW_AXES,
    K_VIEW_DIMS,
    apply_gamma,
    current_settings,
    sync_url,
)
from ui.state import (
    VIEW_2D,
    VIEW_3D,
    Settings,
    dataset_gamma,
    format_gamma,
    format_multiple,
)

SELECTION = "explorer_selection"  # row indices picked by box/lasso in any chart
SELECTABLE_CHARTS = ("chart_input", "chart_kpca", "chart_pca")
# Set by a selection in the projections fragment's charts; the fragment then reruns the
# whole page, so the selection is highlighted in the charts outside it too.
_SELECTION_CHANGED = "_explorer_selection_changed"
_FRAGMENT_CHARTS = ("chart_kpca", "chart_pca")
MAX_DIGITS_SHOWN = 60
SAMPLES_PER_DIGIT = 8
SCATTERGL_ABOVE = 1000  # WebGL from here: measured faster to draw at 2,000 points, slower at 400
PROJECTION_HEIGHT = 400  # px: both projections and their controls fit a 1280 × 800 screen
TRIPLES_FROM = 8  # 3-D axes: any three of the first 8 components


def _class_names(data) -> list[str]:
    if data.y is None:
        return ["all points"]
    return [figures.class_name(data.target_names, int(c), data.y) for c in np.unique(data.y)]


def _remember_selection(chart_key: str, data_key: tuple) -> None:
    """on_select callback: keep the points picked in one chart to highlight them in all.

    The data it belongs to is stored with it, so a selection never outlives its dataset.
    """
    event = st.session_state.get(chart_key)
    points = (event or {}).get("selection", {}).get("points", [])
    st.session_state[SELECTION] = (data_key, selected_indices(points))
    if chart_key in _FRAGMENT_CHARTS:
        st.session_state[_SELECTION_CHANGED] = True


def selected_indices(points: list[dict]) -> list[int]:
    """Row indices of selected points (each trace carries its rows as customdata)."""
    indices = []
    for point in points:
        value = point.get("customdata")
        if isinstance(value, list | tuple):
            value = value[0] if value else None
        if value is not None:
            indices.append(int(value))
    return sorted(set(indices))


def spread_sample(indices: list[int], limit: int) -> list[int]:
    """At most ``limit`` of ``indices``, evenly spread over the whole list (not its start).

    Selected rows come sorted, and USPS rows are grouped by digit, so the first 60 of a
    selection would often all be one digit.
    """
    if len(indices) <= limit:
        return list(indices)
    picks = np.linspace(0, len(indices) - 1, limit).round().astype(int)
    return [indices[i] for i in picks]


def _data_key(settings: Settings) -> tuple:
    return (settings.dataset, settings.dataset_options)


def _selection(settings: Settings) -> list[int]:
    data_key, indices = st.session_state.get(SELECTION, (None, []))
    return indices if data_key == _data_key(settings) else []


def _plot(fig, key: str, settings: Settings | None = None) -> None:
    """Draw a chart; with ``settings`` it is selectable and its selection is shared.

    Its PNG is named after the view, like the page's CSVs: ``circles-rbf-gamma5-kpca``.
    """
    on_select = None
    if settings is not None:
        on_select = partial(_remember_selection, key, _data_key(settings))
    name = f"{view_name(current_settings())}-{key.removeprefix('chart_')}"
    show_chart(fig, key=key, name=name, on_select=on_select)


def _params_text(settings: Settings) -> str:
    shown = []
    for name, value in settings.kernel_params().items():
        label = {"gamma": "γ", "degree": "d", "coef0": "c₀"}[name]
        shown.append(f"{label} = {format_gamma(value) if name == 'gamma' else value}")
    return (", " + ", ".join(shown)) if shown else ""


# --------------------------------------------------------------------------- first screen

# Side-by-side charts wrap onto separate rows when the main area is too narrow for two
# readable charts (e.g. an 800-px window with the sidebar open), instead of squeezing
# them: a chart column keeps at least 22 rem (352 px) or the full width. Only the rows
# made by :func:`chart_columns` (keyed containers, plain class selectors: no costly
# :has() matching while Plotly draws) are affected.
WRAP_KEY = "explorer_wrap"
_WRAPPING_COLUMNS = f"""<style>
[class*="st-key-{WRAP_KEY}"] [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
[class*="st-key-{WRAP_KEY}"] [data-testid="stColumn"] {{ min-width: min(100%, 22rem); }}
</style>"""


def wrapping_columns() -> None:
    """Let this page's chart rows wrap instead of squeezing (see ``_WRAPPING_COLUMNS``)."""
    st.html(_WRAPPING_COLUMNS)


def chart_columns(name: str, spec) -> list:
    """``st.columns(spec)`` in a row that wraps on narrow windows (see :func:`wrapping_columns`)."""
    with st.container(key=f"{WRAP_KEY}_{name}"):
        return st.columns(spec)


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
    dims_col, axes_col, _ = st.columns([1, 1, 1], vertical_alignment="bottom")
    with dims_col:
        if ss.get(K_VIEW_DIMS) not in (VIEW_2D, VIEW_3D):
            ss[K_VIEW_DIMS] = VIEW_2D
        dims_label = st.segmented_control(
            "View", [VIEW_2D, VIEW_3D], key=K_VIEW_DIMS, required=True
        )
    dims = 3 if dims_label == VIEW_3D and k >= 3 else 2
    choices = axis_choices(k, dims)
    ss[K_VIEW_AXES] = _fit_axes(ss.get(K_VIEW_AXES, (1, 2)), choices, dims)
    with axes_col:
        axes = st.selectbox(
            "Components on the axes",
            choices,
            key=K_VIEW_AXES,
            format_func=lambda t: " · ".join(f"{i}" for i in t),
            help="Which kernel principal components (1 = largest eigenvalue) to draw; "
            "linear PCA shows the same component numbers when it has that many.",
        )
    if dims_label == VIEW_3D and k < 3:
        st.caption("3-D needs at least 3 components: raise 'Number of components'.")
    return dims, tuple(axes)


@st.fragment
def projections(result: Analysis, data, settings: Settings) -> None:
    """Kernel PCA beside linear PCA, on the chosen components, and their separability.

    A fragment: switching 2-D/3-D or the components on the axes reruns only this block,
    not the page's other sections. A box or lasso selection reruns the whole page, to
    highlight the points in every chart.
    """
    if st.session_state.pop(_SELECTION_CHANGED, False):
        st.rerun(scope="app")
    k = result.projection.shape[1]
    dims, axes = projection_view(k)
    sync_url()  # the view widgets travel in the link; the sidebar did not run
    columns = [a - 1 for a in axes]
    n_linear = result.pca_projection.shape[1]
    linear_columns = columns if max(columns) < n_linear else list(range(min(dims, n_linear)))
    highlight = _selection(settings)
    webgl = result.n > SCATTERGL_ABOVE
    title_3d = dims == 3
    kpca_col, pca_col = chart_columns("projections", 2)
    with kpca_col:
        fig = figures.point_scatter(
            result.projection[:, columns],
            data.y,
            data.target_names,
            # Two lines, so the title never clips in a narrow column.
            title=(
                f"Kernel PCA<br><span style='font-size:13px'>{KERNELS[settings.kernel].title}"
                f"{_params_text(settings)}</span>"
            ),
            axis_titles=[
                f"component {a}" if title_3d else f"KPCA component {a}" for a in axes
            ],
            highlight=highlight,
            webgl=webgl,
            height=PROJECTION_HEIGHT,
        )
        _plot(fig, key="chart_kpca", settings=settings if dims == 2 else None)
    with pca_col:
        linear = result.pca_projection[:, linear_columns]
        names = [f"PCA {c + 1}" if title_3d else f"PCA component {c + 1}" for c in linear_columns]
        if linear.shape[1] < dims:  # fewer input features than axes: pad with zeros
            pad = dims - linear.shape[1]
            linear = np.column_stack([linear, np.zeros((len(linear), pad))])
            names += [""] * pad
        fig = figures.point_scatter(
            linear,
            data.y,
            data.target_names,
            title="Linear PCA<br><span style='font-size:13px'>of the same inputs</span>",
            axis_titles=names,
            highlight=highlight,
            webgl=webgl,
            height=PROJECTION_HEIGHT,
        )
        _plot(fig, key="chart_pca", settings=settings if dims == 2 else None)
    separability_caption(result, data, settings, columns, linear_columns)
    if n_linear < dims or linear_columns != columns:
        st.caption(
            f"The inputs have {n_linear} dimension(s), so linear PCA has only {n_linear} "
            "component(s): it shows its first ones."
        )
    if highlight:
        _selected_points(highlight, data)
    elif dims == 2:
        st.caption("Drag a lasso or box around points to highlight them in every chart.")


@st.cache_data(max_entries=64, show_spinner=False)
def _separability(_Z: np.ndarray, _y: np.ndarray | None, key: tuple) -> float | None:
    # ``key`` identifies (settings, columns, which projection); the arrays are not hashed.
    return linear_separability(_Z, _y)


def separability_caption(result, data, settings, columns, linear_columns) -> None:
    """Cross-validated linear separability of what is drawn, for KPCA and PCA alike."""
    if data.y is None or len(np.unique(data.y)) < 2:
        st.caption("No class labels: hover a point to see its row number.")
        return
    kpca = _separability(result.projection[:, columns], data.y, (settings, tuple(columns), "k"))
    linear = _separability(
        result.pca_projection[:, linear_columns], data.y, (settings, tuple(linear_columns), "p")
    )
    if kpca is None or linear is None:
        st.caption("A class has a single point: no cross-validated score.")
        return
    chance = float(np.max(np.bincount(data.y)) / len(data.y))
    shown = ", ".join(str(c + 1) for c in columns)
    text = (
        f"**Linearly separable on components {shown}: kernel PCA {100 * kpca:.0f}%, "
        f"linear PCA {100 * linear:.0f}%** (largest class alone: {100 * chance:.0f}%). "
    )
    first = columns[0]
    alone = _separability(
        result.projection[:, [first]], data.y, (settings, (first,), "k")
    )
    if alone is not None and alone >= 0.95 and alone - linear >= 0.1:
        text += f"Component {first + 1} alone already separates {100 * alone:.0f}%. "
    elif kpca + 0.05 < linear:
        text += "Here the kernel makes the classes harder to tell apart, not easier. "
    st.caption(text + f"Score: {METHOD}, on the drawn coordinates.")


def gamma_hints(result: Analysis, data, settings: Settings) -> None:
    """Is γ right for these data? One hint per problem, each with a one-click fix."""
    if result.stats is None:
        return
    reference = reference_gamma_for(
        settings.dataset, settings.dataset_options, settings.standardize, settings.kernel
    )
    suggestion = None if settings.standardize else dataset_gamma(settings.dataset, settings.kernel)
    findings = diagnose(
        settings.kernel,
        settings.gamma,
        result.stats,
        reference=reference,
        suggestion=suggestion,
        scale_ratio=feature_scale_ratio(data.X),
        standardized=settings.standardize,
    )
    for number, finding in enumerate(findings):
        text_col, button_col = st.columns([5, 1], vertical_alignment="center")
        if finding.kind == "scales_differ":
            text_col.info(finding.message, icon=":material/straighten:")
            button_col.button(
                "Standardise", key=f"hint_{number}", on_click=_standardise, width="stretch"
            )
            continue
        text_col.warning(finding.message, icon=":material/tune:")
        if finding.suggested_gamma is not None:
            button_col.button(
                f"Use γ = {format_gamma(finding.suggested_gamma)}",
                key=f"hint_{number}",
                on_click=apply_gamma,
                args=(finding.suggested_gamma,),
                width="stretch",
            )


def _standardise() -> None:
    st.session_state[K_STANDARDIZE] = True


# --------------------------------------------------------------------------- the steps


def input_space(data, settings: Settings) -> None:
    if data.image_shape is not None:
        labels = np.unique(data.y)
        picks = [np.flatnonzero(data.y == c)[:SAMPLES_PER_DIGIT] for c in labels]
        rows = np.concatenate(picks)
        fig = figures.digit_mosaic(
            data.X[rows],
            data.image_shape,
            columns=SAMPLES_PER_DIGIT,
            hover_labels=[f"point {i}, digit {data.target_names[data.y[i]]}" for i in rows],
            row_labels=[str(data.target_names[c]) for c in labels],
            title=f"Sample digits ({len(data.X):,} used, {data.X.shape[1]} pixels each)",
        )
        _plot(fig, key="chart_input_digits")
        st.caption(
            "Each digit is a point in a 256-dimensional space, one axis per pixel; "
            "the kernel compares whole images."
        )
        return
    X = inputs(settings)
    dims = min(3, X.shape[1])
    names = list(data.feature_names)[:dims] or [f"x{i + 1}" for i in range(dims)]
    extra = f" (first {dims} of {X.shape[1]} features)" if X.shape[1] > dims else ""
    if dims == 1:  # a single feature: draw it along a line
        X, dims, names, extra = _with_zero_column(X), 2, [names[0], ""], " (one feature)"
    scaled = " — standardised" if settings.standardize else ""
    fig = figures.point_scatter(
        X[:, :dims],
        data.y,
        data.target_names,
        title=f"Input space: {len(X):,} points{extra}{scaled}",
        axis_titles=names,
        highlight=_selection(settings),
        webgl=len(X) > SCATTERGL_ABOVE,
    )
    _plot(fig, key="chart_input", settings=settings if dims == 2 else None)
    st.caption("Same colour = same class, in every chart on this page.")


def about_data(data, settings: Settings) -> None:
    """What the data is and what the kernel does to it, in numbers a lecturer can quote."""
    n, d = data.X.shape
    classes = "no class labels" if data.y is None else f"{len(np.unique(data.y))} classes"
    st.markdown(f"**{n:,} points · {d} input feature(s) · {classes}**")
    st.write(data.description)
    kernel = KERNELS[settings.kernel]
    st.latex(kernel.formula)
    note = getattr(kernel, "note", "")
    st.caption(f"{kernel.title} kernel{_params_text(settings)}. {note}".strip())
    reference = reference_gamma_for(
        settings.dataset, settings.dataset_options, settings.standardize, settings.kernel
    )
    if reference and "gamma" in kernel.params:
        st.caption(
            f"Scale of these data for this kernel: {REFERENCE_NAMES[settings.kernel]} = "
            f"{reference:.3g}; γ = {format_gamma(settings.gamma)} is "
            f"{format_multiple(settings.gamma / reference)} times that."
        )
    if data.citation:
        st.caption(f"Source: {data.citation}")


def _with_zero_column(Z: np.ndarray) -> np.ndarray:
    return np.column_stack([Z[:, 0], np.zeros(len(Z))])


def kernel_matrix(result: Analysis, data, *, centered: bool) -> None:
    matrix = result.centered_display if centered else result.kernel_display
    name = "Centred K̃" if centered else "Kernel matrix K"
    fig = figures.kernel_heatmap(
        matrix,
        result.class_sizes,
        _class_names(data),
        centered=centered,
        block_size=result.block_size,
        title=f"{name} ({matrix.shape[0]} × {matrix.shape[0]} cells)",
        point_index=result.order,
    )
    _plot(fig, key="chart_centered" if centered else "chart_kernel")
    if centered:
        st.caption(
            "K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ: the same similarities measured from the centre of "
            "the data in feature space. Red: more alike than average; blue: less; every "
            "row sums to 0."
        )
    else:
        st.caption(
            "Rows and columns sorted by class. Bright blocks on the diagonal mean points "
            "of one class are similar to each other under this kernel."
        )


def heatmap_note(result: Analysis) -> None:
    if result.block_size > 1:
        side = result.kernel_display.shape[0]
        st.info(
            f"n = {result.n:,} points would be {result.n:,}² cells, more than a screen can "
            f"show: each heatmap cell is the mean of a {result.block_size} × "
            f"{result.block_size} block of points in class order ({side} × {side} cells). "
            "The computation uses the full matrix.",
            icon=":material/grid_view:",
        )


def spectrum(result: Analysis, settings: Settings) -> None:
    fig = figures.spectrum_figure(
        result.eigenvalues,
        result.eigenvalue_ranks,
        result.explained_ratio,
        result.pca_ratio,
        n_components=settings.n_components,
        negative=result.negative,
    )
    _plot(fig, key="chart_spectrum")
    k = settings.n_components
    kept = 100 * float(np.sum(result.explained_ratio[:k]))
    linear = 100 * float(np.sum(result.pca_ratio[:k]))
    indefinite_base = bool(np.any(result.negative)) and result.spectrum_complete
    base = (
        "Explained variance = λ / (sum of the positive λ): with negative eigenvalues, "
        "trace(K̃) = Σλ is smaller than the positive part, and λ / trace(K̃) would "
        "exceed 100%."
        if indefinite_base
        else "Explained variance = λ / trace(K̃) (trace = sum of all n eigenvalues)."
    )
    st.caption(
        f"The first {k} kernel components (dark bars) carry {kept:.1f}% of the variance in "
        f"feature space; the first {min(k, len(result.pca_ratio))} linear components carry "
        f"{linear:.1f}% of the input variance. {base}"
    )
    kernel = KERNELS[settings.kernel].title
    if not result.spectrum_complete:
        st.caption(
            f"n = {result.n:,} is large: only the {len(result.eigenvalues)} leading eigenvalues "
            "were computed (iteratively); trace(K̃) still counts all of them. "
            + (
                f"The {kernel} kernel can have negative eigenvalues here: use at most "
                f"{DENSE_MAX_N:,} points to see the whole spectrum."
                if may_be_indefinite(settings.kernel, settings.kernel_params())
                else ""
            )
        )
    negatives = result.eigenvalues[result.negative]
    if len(negatives):
        st.warning(
            f"K̃ has {len(negatives)} negative eigenvalue(s) (red; the smallest is "
            f"{negatives.min():.4g}). The {kernel} kernel is not positive semi-definite here, so "
            "no feature space makes it an inner product. Components with λ < 0 have no real "
            "projection.",
            icon=":material/warning:",
        )
    elif not result.spectrum_complete and result.negative_mass_bound > 0:
        st.warning(
            f"The leading eigenvalues add up to more than trace(K̃), so the ones not computed "
            f"include negative eigenvalues summing to at most −{result.negative_mass_bound:.4g}: "
            f"the {kernel} kernel is not positive semi-definite here.",
            icon=":material/warning:",
        )


def _selected_points(indices: list[int], data) -> None:
    cols = st.columns([4, 1])
    cols[0].markdown(f"**{len(indices)} point(s) selected:** highlighted in every chart.")
    cols[1].button("Clear selection", on_click=lambda: st.session_state.pop(SELECTION, None))
    if data.image_shape is None:
        return
    valid = [i for i in indices if 0 <= i < len(data.X)]
    shown = spread_sample(valid, MAX_DIGITS_SHOWN)
    what = (
        f"all {len(shown)}"
        if len(shown) == len(valid)
        else f"{len(shown)} of {len(valid)}, spread over the selection"
    )
    fig = figures.digit_mosaic(
        data.X[shown],
        data.image_shape,
        columns=min(12, max(1, len(shown))),
        hover_labels=[f"point {i}, digit {data.target_names[data.y[i]]}" for i in shown],
        title=f"Selected digits ({what})",
    )
    _plot(fig, key="chart_selected_digits")
