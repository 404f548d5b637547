"""The Explorer's step-by-step sections: the data, K and K̃, and the eigen-spectrum.

Each draws one figure from ``shell.figures`` or ``lessons.common.kernel_figures`` plus its caption;
every caption's claim is computed from the numbers it talks about. The first screen (the
projections and the γ hints) is :mod:`lessons.explorer.projections`; what the charts share,
:mod:`lessons.explorer.charts`.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from experiments.analysis import DENSE_MAX_N, Analysis, may_be_indefinite
from experiments.kernel_diagnostics import REFERENCE_NAMES, signed
from kpca_core import KERNELS
from lessons.common import kernel_figures
from lessons.explorer.charts import SCATTERGL_ABOVE, params_text, plot, selection
from shell import figures, findings
from shell.caches import reference_gamma_for
from shell.display import number_caption
from shell.state import Settings, format_gamma, format_multiple, with_suggested_kernel
from shell.text import inert

SAMPLES_PER_DIGIT = 8
# An upload's description names a label column: longer than any name, never 100 kB.
DESCRIPTION_CHARS = 1000


def _class_names(data) -> list[str]:
    if data.y is None:
        return ["all points"]
    return [figures.class_name(data.target_names, int(c), data.y) for c in np.unique(data.y)]


def input_space(data, X: np.ndarray, settings: Settings) -> None:
    """The inputs as the kernel sees them (``X``: standardised if asked)."""
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
        plot(fig, key="chart_input_digits", settings=settings)
        st.caption(
            "Each digit is a point in a 256-dimensional space, one axis per pixel; "
            "the kernel compares whole images."
        )
        return
    dims = min(3, X.shape[1])
    names = ([figures.plot_text(name) for name in data.feature_names[:dims]]
             or [f"x{i + 1}" for i in range(dims)])
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
    plot(fig, key="chart_input", settings=settings, selectable=dims == 2)
    st.caption("Same colour = same class, in every chart on this page.")


def about_data(data, settings: Settings) -> None:
    """What the data is and what the kernel does to it, in numbers a lecturer can quote."""
    n, d = data.X.shape
    classes = "no class labels" if data.y is None else f"{len(np.unique(data.y))} classes"
    st.markdown(f"**{n:,} points · {d} input feature(s) · {classes}**")
    # An upload's description names its columns and classes: text, never Markdown.
    st.write(inert(data.description, DESCRIPTION_CHARS) if data.name == "csv"
             else data.description)
    suggestion_note(settings)
    kernel = KERNELS[settings.kernel]
    st.latex(kernel.formula)
    note = getattr(kernel, "note", "")
    st.caption(f"{kernel.title} kernel{params_text(settings)}. {note}".strip())
    reference = reference_gamma_for(settings.data_key, settings.kernel)
    if reference and "gamma" in kernel.params:
        st.caption(
            f"Scale of these data for this kernel: {REFERENCE_NAMES[settings.kernel]} = "
            f"{format_gamma(reference)}; γ = {format_gamma(settings.gamma)} is "
            f"{format_multiple(settings.gamma / reference)} times that."
        )
    if data.citation:
        st.caption(f"Source: {data.citation}")


def suggestion_note(settings: Settings) -> None:
    """When the view's kernel is not the one the dataset's description suggests, say so."""
    suggested = with_suggested_kernel(settings)
    if suggested.kernel == settings.kernel:
        return
    st.caption(f"These data suggest the {KERNELS[suggested.kernel].title} kernel "
               f"({params_text(suggested).removeprefix(', ')}); this view uses the "
               f"{KERNELS[settings.kernel].title} kernel. 'Use this dataset's suggested "
               "kernel' in the sidebar switches to it.")


def _with_zero_column(Z: np.ndarray) -> np.ndarray:
    return np.column_stack([Z[:, 0], np.zeros(len(Z))])


def heatmap_positions(result: Analysis, rows: list[int]) -> np.ndarray:
    """Where the data's ``rows`` sit in the heatmaps: their place in class order (the
    heatmaps' order), divided by the block size when cells average blocks of points."""
    place = np.empty(result.n, dtype=int)
    place[result.order] = np.arange(result.n)
    rows = np.asarray([r for r in rows if 0 <= r < result.n], dtype=int)
    return np.unique(place[rows] // result.block_size)


def kernel_matrix(result: Analysis, data, settings: Settings, *, centered: bool) -> None:
    matrix = result.centered_display if centered else result.kernel_display
    name = "Centred K̃" if centered else "Kernel matrix K"
    picked = selection(settings)
    fig = kernel_figures.kernel_heatmap(
        matrix,
        result.class_sizes,
        _class_names(data),
        centered=centered,
        block_size=result.block_size,
        title=f"{name} ({matrix.shape[0]} × {matrix.shape[0]} cells)",
        point_index=result.order,
        highlight=heatmap_positions(result, picked),
    )
    plot(fig, key="chart_centered" if centered else "chart_kernel", settings=settings)
    blocks = kernel_blocks(result, data)
    if centered:
        number_caption(
            "K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ: the same similarities measured from the centre of "
            "the data in feature space. Red: more alike than average; blue: less; every "
            "row sums to 0." + (f" {blocks[1]}" if blocks else "")
        )
    else:
        number_caption("Rows and columns sorted by class." + (f" {blocks[0]}" if blocks else ""))
    if picked:
        cells = "cells" if result.block_size == 1 else "blocks of points"
        st.caption(f"Amber bands: the rows and columns ({cells}) of the {len(picked)} "
                   "selected point(s).")


# A class's block of K is bright when its mean lies this far up the heatmap's colour scale
# and this much (of the scale) above every block between two classes.
BRIGHT = 0.4
STANDS_OUT = 0.1
# Block means of K̃ below this share of its colour scale (±max|K̃|) are faint to the eye.
FAINT = 0.05


def _listed(names: list[str]) -> str:
    return names[0] if len(names) == 1 else f"{', '.join(names[:-1])} and {names[-1]}"


def _range(values: np.ndarray, fmt: str) -> str:
    low, high = float(values.min()), float(values.max())
    return (signed(low, fmt) if np.isclose(low, high) else
            f"{signed(low, fmt)} to {signed(high, fmt)}")


COUNTS = {2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight",
          9: "nine", 10: "ten"}


def kernel_blocks(result: Analysis, data) -> tuple[str, str] | None:
    """What the class blocks of K and of K̃ show, from their means (None without classes).

    The means are over the full matrices (``Analysis.class_means``), the colour scales
    those of the heatmaps: K from its smallest to its largest drawn value, K̃ ±max|K̃|.
    """
    B, Bc = result.class_means, result.centered_class_means
    if B is None or len(B) < 2:
        return None
    # Markdown text: a name from an upload is shown as typed, never as a link or markup.
    names = [inert(figures.class_label(data.target_names, int(label), data.y))
             for label in np.unique(data.y)]
    c = len(B)
    off = ~np.eye(c, dtype=bool)
    within, between = np.diag(B), B[off]
    low, high = float(result.kernel_display.min()), float(result.kernel_display.max())
    span = high - low if high > low else 1.0
    level = (within - low) / span
    stands_out = [level[a] >= BRIGHT and within[a] - between.max() >= STANDS_OUT * span
                  for a in range(c)]
    bright = [names[a] for a in range(c) if stands_out[a]]
    dull = [names[a] for a in range(c) if not stands_out[a]]
    means = ", ".join(f"{names[a]} {within[a]:.3g}" for a in range(c))
    k_text = (f"Mean of K in each class's diagonal block: {means}; between classes "
              f"{_range(between, '.3g')} (colour scale {low:.2f} to {high:.2f}). ")
    if not dull:
        k_text += ("Every class's block is bright: " if c > 2 else "Both blocks are bright: ")
        k_text += "points of one class resemble each other more than points of different classes."
    elif bright:
        k_text += (f"Only the block{'s' if len(bright) > 1 else ''} of {_listed(bright)} "
                   f"stand{'' if len(bright) > 1 else 's'} out as bright; "
                   f"{'those' if len(dull) > 1 else 'that'} of {_listed(dull)} "
                   f"do{'' if len(dull) > 1 else 'es'} not stand out from the blocks between "
                   "classes.")
    elif (between.max() - low) / span >= BRIGHT:
        k_text += ("No class block stands out: K is bright between classes too, so points "
                   "of different classes look about as alike as points of one class.")
    else:
        k_text += ("No block is bright: off its diagonal K is dark, each point resembling "
                   "only its nearest neighbours.")
    c_within, c_between = np.diag(Bc), Bc[off]
    bound = float(np.abs(result.centered_display).max()) or 1.0
    within = ", ".join(f"{names[a]} {signed(c_within[a], '+.3g')}" for a in range(c))
    c_text = (f"Mean of K̃ in each class's diagonal block: {within}; between classes "
              f"{_range(c_between, '+.3g')} (colour scale ±{bound:.2f}). ")
    if np.all(c_within > 0) and np.all(c_between < 0):
        c_text += (f"Every class's block is red and every block between classes blue: K̃ "
                   f"shows {COUNTS.get(c, str(c))} blocks")
    else:
        red = [names[a] for a in range(c) if c_within[a] > 0]
        c_text += (f"Red (above average) diagonal blocks: {_listed(red) if red else 'none'}; "
                   f"{int(np.sum(c_between > 0))} of {len(c_between)} blocks between classes "
                   "are red too, so K̃ does not split cleanly by class")
    if max(np.abs(c_within).max(), np.abs(c_between).max()) < FAINT * bound:
        c_text += f", though faintly (under {100 * FAINT:.0f} % of the colour scale)"
    return k_text, c_text + "."


def publish_findings(result: Analysis, data) -> None:
    """The sentences the tour reads off this view (``shell.findings``)."""
    blocks = kernel_blocks(result, data)
    if blocks:
        findings.publish("kernel_blocks", " ".join(blocks))


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
    plot(fig, key="chart_spectrum", settings=settings)
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
    linear_share = (f"he first {min(k, len(result.pca_ratio))} linear components carry "
                    f"{linear:.1f}% of the input variance.")
    kernel_share = (f"{result.share_problem} T{linear_share}" if result.share_problem else
                    f"The first {k} kernel components (dark bars) carry {kept:.1f}% of the "
                    f"variance in feature space; t{linear_share}")
    number_caption(
        f"{kernel_share} μ is an eigenvalue of K̃ itself (scikit-learn's "
        "`eigenvalues_`); the paper's λ = μ / n is the variance along that axis in feature "
        f"space." + ("" if result.share_problem is not None else f" {base}")
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
            f"K̃ has {len(negatives)} negative eigenvalue(s) beyond the rounding of K's "
            f"entries (below {signed(-result.eigenvalue_floor, '.2g')}; the red bars of step 3; "
            "the "
            f"smallest is {signed(negatives.min(), '.4g')}). The {kernel} kernel is not "
            "positive semi-definite here, so "
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

