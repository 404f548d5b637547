"""The Explorer's sections: each draws one figure from ``ui.figures`` plus its caption.

Kept out of the page file so the page reads like the lesson (data → K → spectrum →
projections) and these pieces can be reused by later pages.
"""

from __future__ import annotations

from functools import partial

import numpy as np
import streamlit as st

from kpca_core import KERNELS, median_heuristic_gamma
from ui import figures
from ui.charts import show_chart
from ui.compute import (
    DENSE_MAX_N,
    MAX_HEATMAP_SIDE,
    Analysis,
    inputs,
    may_be_indefinite,
    nearest_mean_accuracy,
)
from ui.state import Settings, format_gamma

SELECTION = "explorer_selection"  # row indices picked by box/lasso in any chart
SELECTABLE_CHARTS = ("chart_input", "chart_kpca", "chart_pca")
MAX_DIGITS_SHOWN = 60
SAMPLES_PER_DIGIT = 8
SCATTERGL_ABOVE = 2500  # SVG scatter is smoother below this; WebGL scales beyond it


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


def _data_key(settings: Settings) -> tuple:
    return (settings.dataset, settings.dataset_options)


def _selection(settings: Settings) -> list[int]:
    data_key, indices = st.session_state.get(SELECTION, (None, []))
    return indices if data_key == _data_key(settings) else []


def _plot(fig, key: str, settings: Settings | None = None) -> None:
    """Draw a chart; with ``settings`` it is selectable and its selection is shared."""
    on_select = None
    if settings is not None:
        on_select = partial(_remember_selection, key, _data_key(settings))
    show_chart(fig, key=key, on_select=on_select)


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
        st.info(
            f"n = {result.n:,} is too many cells to draw: each heatmap cell is the average of "
            f"a {result.block_size} × {result.block_size} block of points (at most "
            f"{MAX_HEATMAP_SIDE} × {MAX_HEATMAP_SIDE} cells). The computation uses the full "
            "matrix.",
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
    st.caption(
        f"The first {k} kernel components (dark bars) carry {kept:.1f}% of the variance in "
        f"feature space; the first {min(k, len(result.pca_ratio))} linear components carry "
        f"{linear:.1f}% of the input variance. Explained variance = λ / trace(K̃)."
    )
    kernel = KERNELS[settings.kernel].title
    flat_spectrum_hint(result, settings)
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
            "no feature space makes it an inner product, and 'explained variance' can exceed "
            "100%. Components with λ < 0 have no real projection.",
            icon=":material/warning:",
        )
    elif not result.spectrum_complete and result.negative_mass_bound > 0:
        st.warning(
            f"The leading eigenvalues add up to more than trace(K̃), so the ones not computed "
            f"include negative eigenvalues summing to at most −{result.negative_mass_bound:.4g}: "
            f"the {kernel} kernel is not positive semi-definite here.",
            icon=":material/warning:",
        )


def flat_spectrum_hint(result: Analysis, settings: Settings) -> None:
    """Say so when γ is so large that K ≈ I and every component is as good as any other."""
    if "gamma" not in KERNELS[settings.kernel].params or settings.kernel == "poly":
        return
    if result.n < 3 or result.explained_ratio[0] > 1.5 / (result.n - 1):
        return
    gamma = median_heuristic_gamma(inputs(settings))
    st.info(
        f"The spectrum is almost flat: with γ = {format_gamma(settings.gamma)} every point looks "
        "unlike every other (K ≈ identity), so no direction stands out and the projections "
        f"are arbitrary. Try a smaller γ; the median heuristic suggests γ ≈ {gamma:.3g}.",
        icon=":material/lightbulb:",
    )


def projections(result: Analysis, data, settings: Settings) -> None:
    k = result.projection.shape[1]
    dims = st.segmented_control(
        "View", ["2-D", "3-D"], default="2-D", key="explorer_dims", required=True
    )
    want_3d = dims == "3-D"
    if want_3d and k < 3:
        st.info("3-D needs at least 3 components: raise 'Number of components' in the sidebar.")
        want_3d = False
    n_dims = 3 if want_3d else 2
    linear_dims = min(n_dims, result.pca_projection.shape[1])
    highlight = _selection(settings)
    webgl = result.n > SCATTERGL_ABOVE
    kpca_col, pca_col = st.columns(2)
    with kpca_col:
        fig = figures.point_scatter(
            result.projection[:, :n_dims],
            data.y,
            data.target_names,
            title=f"Kernel PCA ({KERNELS[settings.kernel].title}{_params_text(settings)})",
            axis_titles=[f"KPCA component {i + 1}" for i in range(n_dims)],
            highlight=highlight,
            webgl=webgl,
        )
        _plot(fig, key="chart_kpca", settings=settings if n_dims == 2 else None)
    with pca_col:
        linear = result.pca_projection[:, :linear_dims]
        if linear_dims == 1:  # one input feature: one linear component
            linear, linear_dims = _with_zero_column(linear), 2
        fig = figures.point_scatter(
            linear,
            data.y,
            data.target_names,
            title="Linear PCA",
            axis_titles=[f"PCA component {i + 1}" for i in range(linear_dims)]
            if result.pca_projection.shape[1] > 1
            else ["PCA component 1", ""],
            highlight=highlight,
            webgl=webgl,
        )
        _plot(fig, key="chart_pca", settings=settings if linear_dims == 2 else None)
        n_linear = result.pca_projection.shape[1]
        if n_linear < n_dims:
            st.caption(
                f"The inputs have {n_linear} dimension(s), so linear PCA has only {n_linear} "
                "component(s)."
            )
    st.caption(_projection_lesson(result, data, settings))
    if n_dims == 2:
        st.caption("Drag a box or lasso around points in a 2-D chart to highlight them everywhere.")
    if highlight:
        _selected_points(highlight, data)


def _params_text(settings: Settings) -> str:
    shown = []
    for name, value in settings.kernel_params().items():
        label = {"gamma": "γ", "degree": "d", "coef0": "c₀"}[name]
        shown.append(f"{label} = {format_gamma(value) if name == 'gamma' else value}")
    return (", " + ", ".join(shown)) if shown else ""


def _projection_lesson(result: Analysis, data, settings: Settings) -> str:
    kpca = nearest_mean_accuracy(result.projection[:, :2], data.y)
    linear = nearest_mean_accuracy(result.pca_projection[:, :2], data.y)
    if kpca is None or linear is None:
        return "Each point keeps its index: hover to see it."
    kpca_1 = nearest_mean_accuracy(result.projection[:, :1], data.y)
    text = (
        f"Assigning each point to the nearest class mean in the first two components gets "
        f"{100 * kpca:.0f}% right with kernel PCA and {100 * linear:.0f}% with linear PCA"
    )
    if kpca_1 is not None and kpca_1 >= 0.9 and kpca_1 - linear >= 0.1:
        text += f"; with {_params_text(settings).lstrip(', ') or 'this kernel'} the classes "
        text += "already come apart along component 1 alone"
    elif kpca + 0.05 < linear:
        text += "; here the kernel makes the classes harder to tell apart, not easier"
    return text + "."


def _selected_points(indices: list[int], data) -> None:
    cols = st.columns([4, 1])
    cols[0].markdown(f"**{len(indices)} point(s) selected:** highlighted in every chart.")
    cols[1].button("Clear selection", on_click=lambda: st.session_state.pop(SELECTION, None))
    if data.image_shape is None:
        return
    shown = [i for i in indices if 0 <= i < len(data.X)][:MAX_DIGITS_SHOWN]
    fig = figures.digit_mosaic(
        data.X[shown],
        data.image_shape,
        columns=min(12, max(1, len(shown))),
        hover_labels=[f"point {i}, digit {data.target_names[data.y[i]]}" for i in shown],
        title=f"Selected digits (first {len(shown)} of {len(indices)})",
    )
    _plot(fig, key="chart_selected_digits")
