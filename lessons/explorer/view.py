"""The Explorer's step-by-step sections: the data, K and K̃, and the eigen-spectrum.

Each draws one figure from ``shell.figures`` or ``shell.kernel_figures`` plus its caption;
every caption's claim is computed from the numbers it talks about. The first screen (the
projections and the γ hints) is :mod:`lessons.explorer.projections`; what the charts share,
:mod:`lessons.explorer.charts`.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from experiments.analysis import DENSE_MAX_N, Analysis, may_be_indefinite
from experiments.kernel_diagnostics import REFERENCE_NAMES
from kpca_core import KERNELS
from lessons.explorer.charts import SCATTERGL_ABOVE, params_text, plot, selection
from shell import figures, kernel_figures
from shell.caches import inputs, reference_gamma_for
from shell.display import number_caption
from shell.state import Settings, format_gamma, format_multiple

SAMPLES_PER_DIGIT = 8


def _class_names(data) -> list[str]:
    if data.y is None:
        return ["all points"]
    return [figures.class_name(data.target_names, int(c), data.y) for c in np.unique(data.y)]


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
        plot(fig, key="chart_input_digits")
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
        highlight=selection(settings),
        webgl=len(X) > SCATTERGL_ABOVE,
    )
    plot(fig, key="chart_input", settings=settings if dims == 2 else None)
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
    st.caption(f"{kernel.title} kernel{params_text(settings)}. {note}".strip())
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
    fig = kernel_figures.kernel_heatmap(
        matrix,
        result.class_sizes,
        _class_names(data),
        centered=centered,
        block_size=result.block_size,
        title=f"{name} ({matrix.shape[0]} × {matrix.shape[0]} cells)",
        point_index=result.order,
    )
    plot(fig, key="chart_centered" if centered else "chart_kernel")
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
    fig = kernel_figures.spectrum_figure(
        result.eigenvalues,
        result.eigenvalue_ranks,
        result.explained_ratio,
        result.pca_ratio,
        n_components=settings.n_components,
        negative=result.negative,
    )
    plot(fig, key="chart_spectrum")
    k = settings.n_components
    kept = 100 * float(np.sum(result.explained_ratio[:k]))
    linear = 100 * float(np.sum(result.pca_ratio[:k]))
    indefinite_base = bool(np.any(result.negative)) and result.spectrum_complete
    base = (
        "Explained variance = μ / (sum of the positive μ): with negative eigenvalues, "
        "trace(K̃) = Σμ is smaller than the positive part, and μ / trace(K̃) would "
        "exceed 100%."
        if indefinite_base
        else "Explained variance = μ / trace(K̃) (trace = sum of all n eigenvalues)."
    )
    number_caption(
        f"The first {k} kernel components (dark bars) carry {kept:.1f}% of the variance in "
        f"feature space; the first {min(k, len(result.pca_ratio))} linear components carry "
        f"{linear:.1f}% of the input variance. μ is an eigenvalue of K̃ itself (scikit-learn's "
        "`eigenvalues_`); the paper's λ = μ / n is the variance along that axis in feature "
        f"space. {base}"
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


def negative_eigenvalues(result: Analysis, settings: Settings) -> None:
    """Warn, on the first screen, when the kernel is not positive semi-definite here.

    Next to the projections, because components with μ < 0 have no real projection.
    """
    kernel = KERNELS[settings.kernel].title
    negatives = result.eigenvalues[result.negative]
    if len(negatives):
        st.warning(
            f"K̃ has {len(negatives)} negative eigenvalue(s) (the red bars of step 3; the "
            f"smallest is {negatives.min():.4g}). The {kernel} kernel is not positive "
            "semi-definite here, so "
            "no feature space makes it an inner product. Components with μ < 0 have no real "
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

