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
    join_and,
    join_list,
    join_sentences,
    said_text,
)
from words.text import inert

SAMPLES_PER_DIGIT = 8
# An upload's description names a label column: longer than any name, never 100 kB.
DESCRIPTION_CHARS = 1000


def _class_names(data) -> list[str]:
    if data.y is None:
        return [_("all points")]
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
    matrix = result.centered_display if centered else result.kernel_display
    name = _("Centred K̃") if centered else _("Kernel matrix K")
    picked = selection(settings)
    fig = kernel_figures.kernel_heatmap(
        matrix,
        result.class_sizes,
        _class_names(data),
        centered=centered,
        block_size=result.block_size,
        title=_("{name} ({side} × {side} cells)").format(
            name=name, side=format_number(matrix.shape[0])),
        point_index=result.order,
        highlight=heatmap_positions(result, picked),
    )
    plot(fig, key="chart_centered" if centered else "chart_kernel", settings=settings)
    blocks = kernel_blocks(result, data)
    if centered:
        number_caption(join_sentences((_(
            "K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ: the same similarities measured from the centre of "
            "the data in feature space. Red: more alike than average; blue: less; every "
            "row sums to 0."), blocks[1] if blocks else "")))
    else:
        number_caption(join_sentences((_("Rows and columns sorted by class."),
                                       blocks[0] if blocks else "")))
    if picked:
        bands = (_("Amber bands: the rows and columns (cells) of the {n} selected point(s).")
                 if result.block_size == 1 else
                 _("Amber bands: the rows and columns (blocks of points) of the {n} selected "
                   "point(s)."))
        st.caption(bands.format(n=format_number(len(picked))))


# A class's block of K is bright when its mean lies this far up the heatmap's colour scale
# and this much (of the scale) above every block between two classes.
BRIGHT = 0.4
STANDS_OUT = 0.1
# Block means of K̃ below this share of its colour scale (±max|K̃|) are faint to the eye.
FAINT = 0.05


def _range(values: np.ndarray, fmt: str) -> str:
    low, high = float(values.min()), float(values.max())
    return (signed(low, fmt) if np.isclose(low, high) else
            _("{low} to {high}").format(low=signed(low, fmt), high=signed(high, fmt)))


COUNTS = {2: N_("two"), 3: N_("three"), 4: N_("four"), 5: N_("five"), 6: N_("six"),
          7: N_("seven"), 8: N_("eight"), 9: N_("nine"), 10: N_("ten")}

# "Only the block(s) of … stand(s) out": (several bright?, several dull?) → the sentence.
_ONLY_BRIGHT = {
    (False, False): N_("Only the block of {bright} stands out as bright; that of {dull} does "
                       "not stand out from the blocks between classes."),
    (False, True): N_("Only the block of {bright} stands out as bright; those of {dull} do "
                      "not stand out from the blocks between classes."),
    (True, False): N_("Only the blocks of {bright} stand out as bright; that of {dull} does "
                      "not stand out from the blocks between classes."),
    (True, True): N_("Only the blocks of {bright} stand out as bright; those of {dull} do "
                     "not stand out from the blocks between classes."),
}


def kernel_blocks(result: Analysis, data) -> tuple[str, str] | None:
    """What the class blocks of K and of K̃ show, from their means (None without classes).

    The means are over the full matrices (``Analysis.class_means``), the colour scales
    those of the heatmaps: K from its smallest to its largest drawn value, K̃ ±max|K̃|.
    """
    B, Bc = result.class_means, result.centered_class_means
    if B is None or len(B) < 2:
        return None
    # Markdown text: a name from an upload is shown as typed, never as a link or markup.
    names = [inert(figures.shown_class_label(data.target_names, int(label), data.y))
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
    means = join_list([f"{names[a]} {format_number(within[a], '.3g')}" for a in range(c)])
    k_text = _("Mean of K in each class's diagonal block: {means}; between classes "
               "{between} (colour scale {low} to {high}).").format(
        means=means, between=_range(between, ".3g"), low=format_number(low, ".2f"),
        high=format_number(high, ".2f"))
    if not dull:
        k_verdict = (_("Every class's block is bright: points of one class resemble each other "
                     "more than points of different classes.") if c > 2 else
                   _("Both blocks are bright: points of one class resemble each other more "
                     "than points of different classes."))
    elif bright:
        k_verdict = _(_ONLY_BRIGHT[len(bright) > 1, len(dull) > 1]).format(
            bright=join_and(bright), dull=join_and(dull))
    elif (between.max() - low) / span >= BRIGHT:
        k_verdict = _("No class block stands out: K is bright between classes too, so points "
                    "of different classes look about as alike as points of one class.")
    else:
        k_verdict = _("No block is bright: off its diagonal K is dark, each point resembling "
                    "only its nearest neighbours.")
    c_within, c_between = np.diag(Bc), Bc[off]
    bound = float(np.abs(result.centered_display).max()) or 1.0
    within = join_list([f"{names[a]} {signed(c_within[a], '+.3g')}" for a in range(c)])
    c_text = _("Mean of K̃ in each class's diagonal block: {means}; between classes "
               "{between} (colour scale ±{bound}).").format(
        means=within, between=_range(c_between, "+.3g"), bound=format_number(bound, ".2f"))
    faint = max(np.abs(c_within).max(), np.abs(c_between).max()) < FAINT * bound
    if np.all(c_within > 0) and np.all(c_between < 0):
        count = _(COUNTS[c]) if c in COUNTS else format_number(c)
        c_verdict = (_("Every class's block is red and every block between classes blue: K̃ "
                     "shows {count} blocks, though faintly (under {share} % of the colour "
                     "scale).") if faint else
                   _("Every class's block is red and every block between classes blue: K̃ "
                     "shows {count} blocks.")).format(count=count,
                                                       share=format_number(100 * FAINT, ".0f"))
    else:
        red = [names[a] for a in range(c) if c_within[a] > 0]
        c_verdict = (_("Red (above average) diagonal blocks: {red}; {m} of {total} blocks "
                     "between classes are red too, so K̃ does not split cleanly by class, "
                     "though faintly (under {share} % of the colour scale).") if faint else
                   _("Red (above average) diagonal blocks: {red}; {m} of {total} blocks "
                     "between classes are red too, so K̃ does not split cleanly by class.")
                   ).format(red=join_and(red) if red else _("none"),
                            m=format_number(int(np.sum(c_between > 0))),
                            total=format_number(len(c_between)),
                            share=format_number(100 * FAINT, ".0f"))
    return join_sentences((k_text, k_verdict)), join_sentences((c_text, c_verdict))


def publish_findings(result: Analysis, data) -> None:
    """The sentences the tour reads off this view (``shell.findings``)."""
    blocks = kernel_blocks(result, data)
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
        _("Explained variance = μ / (sum of the positive μ): with negative eigenvalues, "
          "trace(K̃) = Σμ is smaller than the positive part, and μ / trace(K̃) would "
          "exceed 100%.")
        if indefinite_base
        else _("Explained variance = μ / trace(K̃) (trace = sum of all n eigenvalues).")
    )
    numbers = dict(k=format_number(k), linear_k=format_number(min(k, len(result.pca_ratio))),
                   kept=format_number(kept, ".1f"), linear=format_number(linear, ".1f"))
    if result.share_problem:
        kernel_share = join_sentences((_(result.share_problem), _(
            "The first {linear_k} linear components carry {linear}% of the input "
            "variance.").format(**numbers)))
    else:
        kernel_share = _("The first {k} kernel components (dark bars) carry {kept}% of the "
                         "variance in feature space; the first {linear_k} linear components "
                         "carry {linear}% of the input variance.").format(**numbers)
    number_caption(join_sentences((
        kernel_share, _("μ is an eigenvalue of K̃ itself (scikit-learn's `eigenvalues_`); the "
                        "paper's λ = μ / n is the variance along that axis in feature space."),
        "" if result.share_problem is not None else base)))
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

