"""What the Explorer shows, made without Streamlit: its charts (the projections, K and K̃,
the spectrum) and the sentences under them, each computed from the numbers it talks about.

The page (:mod:`lessons.explorer.projections`, :mod:`lessons.explorer.view`) draws them
with its selection and its caches; the offline lecture (:mod:`lessons.explorer.pack`)
draws the same figures on a sample of the points.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np
import plotly.graph_objects as go

from experiments.analysis import Analysis, block_average
from experiments.kernel_diagnostics import signed
from experiments.separability import METHOD
from kpca_core import KERNELS
from lessons.common import kernel_figures
from shell import figures
from shell.state import Settings, params_text
from words.i18n import N_, _, format_number, join_and, join_list, join_sentences
from words.text import inert

PROJECTION_HEIGHT = 400  # px: both projections and their controls fit a 1280 × 800 screen


def kernel_words(settings: Settings) -> str:
    """The kernel and its parameters: "RBF (Gaussian), γ = 5"."""
    title, params = _(KERNELS[settings.kernel].title), params_text(settings)
    if not params:
        return title
    # Translators: {kernel} is a kernel's title (RBF (Gaussian)), {params} its parameters
    # ("γ = 5, c₀ = 1").
    return _("{kernel}, {params}").format(kernel=title, params=params)


def two_lines(title: str) -> str:
    """A chart's title whose lines are split by "\n", the second smaller: two lines, so the
    title never clips in a narrow column."""
    first, _newline, second = title.partition("\n")
    return first + (f"<br><span style='font-size:13px'>{second}</span>" if second else "")


def separability_sentence(kpca: float, linear: float, alone: float | None, y: np.ndarray,
                          columns: tuple[int, ...] | list[int]) -> str:
    """The caption's words (Markdown, bold numbers) for the scores of kernel PCA's and
    linear PCA's ``columns`` and of kernel PCA's first drawn column ``alone``: also what the
    offline lecture (``lecture_pack``) prints under the same charts."""
    chance = float(np.max(np.bincount(y)) / len(y))
    numbers = [c + 1 for c in columns]  # two components, or three in 3-D
    shown = (_("{first} and {second}").format(first=numbers[0], second=numbers[1])
             if len(numbers) == 2 else
             _("{first} and {second} and {third}").format(
                 first=numbers[0], second=numbers[1], third=numbers[2]))
    text = _(
        "**Cross-validated accuracy of a linear classifier on components {shown}: kernel "
        "PCA {kpca}%, linear PCA {linear}%** (the largest class alone: {chance}%)."
    ).format(shown=shown, kpca=format_number(100 * kpca, ".0f"),
             linear=format_number(100 * linear, ".0f"),
             chance=format_number(100 * chance, ".0f"))
    if alone is not None and alone >= 0.95 and alone - linear >= 0.1:
        return join_sentences((text, _("Component {c} alone already separates {alone}%.").format(
            c=columns[0] + 1, alone=format_number(100 * alone, ".0f"))))
    if kpca + 0.05 < linear:
        return join_sentences((text, _("Here the kernel makes the classes harder to tell "
                                       "apart, not easier.")))
    return text


def scored(sentence: str) -> str:
    """The separability sentence with what the score is (the caption under the charts)."""
    return join_sentences((sentence, _("Score: {method}, on the drawn coordinates.").format(
        method=_(METHOD))))


def class_names(data) -> list[str]:
    if data.y is None:
        return [_("all points")]
    return [figures.class_name(data.target_names, int(c), data.y) for c in np.unique(data.y)]




def class_noun(data) -> str:
    """What the hover calls a class: "digit" for images (USPS: "digit: 3"), else "class"."""
    return _("digit") if data.image_shape is not None else _("class")


def kpca_figure(Z: np.ndarray, data, y: np.ndarray | None, settings: Settings,
                axes: Sequence[int], *, highlight: Sequence[int] | None = None,
                webgl: bool = False, rows: np.ndarray | None = None) -> go.Figure:
    """Kernel PCA's components ``axes`` (1-based; ``Z`` holds them as columns) of the points
    (``rows`` of the data when ``Z`` and ``y`` hold a sample of them)."""
    three_d = len(axes) == 3
    return figures.point_scatter(
        Z, y, data.target_names,
        # Two lines, so the title never clips in a narrow column.
        title=two_lines(_("Kernel PCA") + "\n" + kernel_words(settings)),
        axis_titles=[(_("component {a}") if three_d else _("KPCA component {a}")).format(a=a)
                     for a in axes],
        highlight=highlight, webgl=webgl, height=PROJECTION_HEIGHT, rows=rows,
        noun=class_noun(data),
    )


def pca_figure(linear: np.ndarray, data, y: np.ndarray | None, columns: Sequence[int],
               dims: int, *, highlight: Sequence[int] | None = None, webgl: bool = False,
               rows: np.ndarray | None = None) -> go.Figure:
    """Linear PCA's ``columns`` (0-based; ``linear`` holds them), padded with zeros to
    ``dims`` axes when the inputs have fewer dimensions."""
    three_d = dims == 3
    names = [(_("PCA {c}") if three_d else _("PCA component {c}")).format(c=c + 1)
             for c in columns]
    if linear.shape[1] < dims:  # fewer input features than axes: pad with zeros
        pad = dims - linear.shape[1]
        linear = np.column_stack([linear, np.zeros((len(linear), pad))])
        names += [""] * pad
    return figures.point_scatter(
        linear, y, data.target_names,
        # Translators: a chart's title on two lines (the second smaller): keep the line
        # break.
        title=two_lines(_("Linear PCA\nof the same inputs")),
        axis_titles=names, highlight=highlight, webgl=webgl, height=PROJECTION_HEIGHT,
        rows=rows, noun=class_noun(data),
    )

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


def kernel_figure(result: Analysis, data, *, centered: bool, highlight: Sequence[int] = (),
                  side: int | None = None) -> go.Figure:
    """K (or K̃) as the page draws it: the analysis's display (block means past its side,
    in class order). ``side``: averaged again over square blocks to at most ``side`` cells
    a side (the offline lecture's), said in the title, on the page's colour scale (the
    one its captions quote)."""
    matrix = result.centered_display if centered else result.kernel_display
    name = _("Centred K̃") if centered else _("Kernel matrix K")
    block_size, drawn = result.block_size, matrix
    binned = side is not None and matrix.shape[0] > side
    if binned:
        drawn, extra = block_average(matrix, np.arange(matrix.shape[0]), side)
        block_size *= extra
    cells = format_number(drawn.shape[0])
    title = (_("{name} ({side} × {side} cells)").format(name=name, side=cells)
             if not binned else
             _("{name} ({side} × {side} cells, {block}×{block} blocks)").format(
                 name=name, side=cells, block=format_number(block_size)))
    return kernel_figures.kernel_heatmap(
        drawn, result.class_sizes, class_names(data), centered=centered,
        block_size=block_size, title=title, point_index=result.order, highlight=highlight,
        scale_of=matrix if binned else None,
    )


def kernel_caption(result: Analysis, data, *, centered: bool) -> str:
    """The sentences under K (or K̃): what it is, and what its class blocks show."""
    blocks = kernel_blocks(result, data)
    if centered:
        return join_sentences((_(
            "K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ: the same similarities measured from the centre of "
            "the data in feature space. Red: more alike than average; blue: less; every "
            "row sums to 0."), blocks[1] if blocks else ""))
    return join_sentences((_("Rows and columns sorted by class."), blocks[0] if blocks else ""))



def spectrum_figure(result: Analysis, n_components: int) -> go.Figure:
    """The eigenvalues of K̃ and the cumulative explained variance beside linear PCA's."""
    return kernel_figures.spectrum_figure(
        result.eigenvalues, result.eigenvalue_ranks, result.explained_ratio,
        result.pca_ratio, n_components=n_components, negative=result.negative)


def spectrum_caption(result: Analysis, n_components: int) -> str:
    """The sentence under the spectrum: the share the first components carry, kernel and
    linear, and what μ and the share are."""
    k = n_components
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
    return join_sentences((
        kernel_share, _("μ is an eigenvalue of K̃ itself (scikit-learn's `eigenvalues_`); the "
                        "paper's λ = μ / n is the variance along that axis in feature space."),
        "" if result.share_problem is not None else base))
