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
from lessons.explorer import sections
from lessons.explorer.charts import SCATTERGL_ABOVE, plot, selection
from shell import figures, findings
from shell.caches import reference_gamma_for
from shell.display import number_caption
from shell.state import (
    Settings,
    format_gamma,
    format_multiple,
    params_text,
    with_suggested_kernel,
)
from words.i18n import (
    N_,
    _,
    format_number,
    join_sentences,
    said_text,
)
from words.text import inert

SAMPLES_PER_DIGIT = 8
# An upload's description names a label column: longer than any name, never 100 kB.
DESCRIPTION_CHARS = 1000


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
            hover_labels=[_("point {i}, digit {digit}").format(
                i=i, digit=data.target_names[data.y[i]]) for i in rows],
            row_labels=[str(data.target_names[c]) for c in labels],
            title=_("Sample digits ({n} used, {pixels} pixels each)").format(
                n=format_number(len(data.X), ","), pixels=format_number(data.X.shape[1])),
        )
        plot(fig, key="chart_input_digits", settings=settings)
        st.caption(_(
            "Each digit is a point in a 256-dimensional space, one axis per pixel; "
            "the kernel compares whole images."
        ))
        return
    dims = min(3, X.shape[1])
    names = ([figures.plot_text(name) for name in data.feature_names[:dims]]
             or [f"x{i + 1}" for i in range(dims)])
    shape = "one" if dims == 1 else "some" if X.shape[1] > dims else "all"
    features = X.shape[1]
    if dims == 1:  # a single feature: draw it along a line
        X, dims, names = _with_zero_column(X), 2, [names[0], ""]
    title = _(_INPUT_TITLES[shape, settings.standardize]).format(
        n=format_number(len(X), ","), dims=format_number(dims),
        features=format_number(features))
    fig = figures.point_scatter(
        X[:, :dims],
        data.y,
        data.target_names,
        title=title,
        axis_titles=names,
        highlight=selection(settings),
        webgl=len(X) > SCATTERGL_ABOVE,
    )
    plot(fig, key="chart_input", settings=settings, selectable=dims == 2)
    st.caption(_("Same colour = same class, in every chart on this page."))


# The input chart's title: (which features are drawn, standardised?) → the whole title.
_INPUT_TITLES = {
    ("all", False): N_("Input space: {n} points"),
    ("all", True): N_("Input space: {n} points — standardised"),
    ("some", False): N_("Input space: {n} points (first {dims} of {features} features)"),
    ("some", True): N_("Input space: {n} points (first {dims} of {features} features) — "
                       "standardised"),
    ("one", False): N_("Input space: {n} points (one feature)"),
    ("one", True): N_("Input space: {n} points (one feature) — standardised"),
}


def description_text(data) -> str:
    """The dataset's paragraph in the session's language: its sentences' messages
    translated and filled with their values (the ground layer cannot translate)."""
    return said_text(data.description_sentences)


def about_data(data, settings: Settings) -> None:
    """What the data is and what the kernel does to it, in numbers a lecturer can quote."""
    n, d = data.X.shape
    if data.y is None:
        line = _("**{n} points · {d} input feature(s) · no class labels**")
    else:
        line = _("**{n} points · {d} input feature(s) · {classes} classes**")
    st.markdown(line.format(n=format_number(n, ","), d=format_number(d),
                            classes=format_number(len(np.unique(data.y))) if data.y is not None
                            else ""))
    # An upload's description names its columns and classes: text, never Markdown.
    st.write(inert(data.description, DESCRIPTION_CHARS) if data.name == "csv"
             else description_text(data))
    suggestion_note(settings)
    kernel = KERNELS[settings.kernel]
    st.latex(kernel.formula)
    params = params_text(settings)
    named = (_("{kernel} kernel, {params}.") if params else _("{kernel} kernel.")).format(
        kernel=_(kernel.title), params=params)
    st.caption(join_sentences([named, _(kernel.note) if kernel.note else ""]))
    reference = reference_gamma_for(settings.data_key, settings.kernel)
    if reference and "gamma" in kernel.params:
        st.caption(_(
            "Scale of these data for this kernel: {reference} = {value}; γ = {gamma} is "
            "{multiple} times that.").format(
            reference=_(REFERENCE_NAMES[settings.kernel]), value=format_gamma(reference),
            gamma=format_gamma(settings.gamma),
            multiple=format_multiple(settings.gamma / reference)))
    if data.citation:
        st.caption(_("Source: {citation}").format(citation=data.citation))


def suggestion_note(settings: Settings) -> None:
    """When the view's kernel is not the one the dataset's description suggests, say so."""
    suggested = with_suggested_kernel(settings)
    if suggested.kernel == settings.kernel:
        return
    st.caption(_("These data suggest the {suggested} kernel ({params}); this view uses the "
                 "{kernel} kernel. '{button}' in the sidebar switches to it.").format(
        suggested=_(KERNELS[suggested.kernel].title),
        params=params_text(suggested),
        kernel=_(KERNELS[settings.kernel].title),
        button=_("Use this dataset's suggested kernel")))


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
    picked = selection(settings)
    fig = sections.kernel_figure(result, data, centered=centered,
                                 highlight=heatmap_positions(result, picked))
    plot(fig, key="chart_centered" if centered else "chart_kernel", settings=settings)
    number_caption(sections.kernel_caption(result, data, centered=centered))
    if picked:
        bands = (_("Amber bands: the rows and columns (cells) of the {n} selected point(s).")
                 if result.block_size == 1 else
                 _("Amber bands: the rows and columns (blocks of points) of the {n} selected "
                   "point(s)."))
        st.caption(bands.format(n=format_number(len(picked))))


def publish_findings(result: Analysis, data) -> None:
    """The sentences the tour reads off this view (``shell.findings``)."""
    blocks = sections.kernel_blocks(result, data)
    if blocks:
        findings.publish("kernel_blocks", join_sentences(blocks))


def heatmap_note(result: Analysis) -> None:
    if result.block_size > 1:
        side = result.kernel_display.shape[0]
        st.info(
            _("n = {n} points would be {n}² cells, more than a screen can show: each heatmap "
              "cell is the mean of a {block} × {block} block of points in class order ({side} "
              "× {side} cells). The computation uses the full matrix.").format(
                n=format_number(result.n, ","), block=format_number(result.block_size),
                side=format_number(side)),
            icon=":material/grid_view:",
        )


def spectrum(result: Analysis, settings: Settings) -> None:
    fig = sections.spectrum_figure(result, settings.n_components)
    plot(fig, key="chart_spectrum", settings=settings)
    number_caption(sections.spectrum_caption(result, settings.n_components))
    kernel = _(KERNELS[settings.kernel].title)
    if not result.spectrum_complete:
        st.caption(join_sentences((
            _("n = {n} is large: only the {leading} leading eigenvalues were computed "
              "(iteratively); trace(K̃) still counts all of them.").format(
                n=format_number(result.n, ","), leading=format_number(len(result.eigenvalues))),
            _("The {kernel} kernel can have negative eigenvalues here: use at most "
              "{max_n} points to see the whole spectrum.").format(
                kernel=kernel, max_n=format_number(DENSE_MAX_N, ","))
            if may_be_indefinite(settings.kernel, settings.kernel_params()) else "",
        )))


def negative_eigenvalues(result: Analysis, settings: Settings) -> None:
    """Warn, on the first screen, when the kernel is not positive semi-definite here.

    Next to the projections, because components with μ < 0 have no real projection.
    """
    kernel = _(KERNELS[settings.kernel].title)
    negatives = result.eigenvalues[result.negative]
    if len(negatives):
        st.warning(
            _("K̃ has {n} negative eigenvalue(s) beyond the rounding of K's entries (below "
              "{floor}; the red bars of step 3; the smallest is {smallest}). The {kernel} "
              "kernel is not positive semi-definite here, so no feature space makes it an "
              "inner product. Components with μ < 0 have no real projection.").format(
                n=format_number(len(negatives)), floor=signed(-result.eigenvalue_floor, ".2g"),
                smallest=signed(negatives.min(), ".4g"), kernel=kernel),
            icon=":material/warning:",
        )
    elif not result.spectrum_complete and result.negative_mass_bound > 0:
        st.warning(
            _("The leading eigenvalues add up to more than trace(K̃), so the ones not computed "
              "include negative eigenvalues summing to at most −{bound}: the {kernel} kernel "
              "is not positive semi-definite here.").format(
                bound=format_number(result.negative_mass_bound, ".4g"), kernel=kernel),
            icon=":material/warning:",
        )

