"""The Draw page's sections: the editor with its presets, then kernel PCA of the drawing.

The analysis is the Explorer's function (``experiments.analysis.analyse``) with smaller
heatmaps, cached by the settings, which hold the drawn points' code, in this session only
(``shell.caches.results_store``); the figures are the ones every page shares
(``shell.figures``, ``lessons.common.kernel_figures``).
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from datasets import drawn
from experiments.analysis import Analysis, analyse
from lessons.common import kernel_figures
from lessons.draw import editor
from lessons.draw.experiment import points_csv, separation, separation_sentence
from server.admission import queued
from shell import exports, figures, locks
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.display import number_caption
from shell.sidebar import apply_kernel_params
from shell.state import KernelKey, Settings
from words.i18n import N_, _, format_number, join_sentences, ngettext

PROJECTION_HEIGHT = 420  # px: about the editor's plane beside it
# K and K̃ are sent again after every edit: one cell per point up to this many points, then
# block means. 100² float32 cells are ~53 kB a heatmap on the wire; 300² would be ~480 kB.
HEATMAP_SIDE = 100
PRESET_TITLES = {"circles": N_("Circles"), "moons": N_("Moons"), "spiral": N_("Spiral")}


# An entry: two ≤ 100² heatmaps, ≤ 300 × 20 projections and 300 eigenvalues (< 0.3 MB).
@bounded_cache(max_entries=4)
def analysis(inputs: Inputs, kernel: KernelKey, n_components: int) -> Analysis:
    """The Explorer's analysis of the drawing, with heatmaps of at most HEATMAP_SIDE cells.

    Kept in this session (the inputs are drawn points: ``shell.caches.results_store``).
    At most ``drawn.MAX_POINTS`` points, but it takes its turn like every computation:
    many small ones add up (``server.admission``).
    """
    with queued(len(inputs.X), copies=2, what=N_("kernel PCA of your drawing")):
        return analyse(inputs.X, inputs.y, kernel=kernel.kernel,
                       kernel_params=kernel.kernel_params(), n_components=n_components,
                       display_side=HEATMAP_SIDE)


def _preset(name: str, kernel: str) -> None:
    editor.replace_points(*drawn.preset(name))
    if kernel == "rbf":  # the shape's own γ (another kernel: kept)
        apply_kernel_params(drawn.PRESET_GAMMA[name])


def _clear() -> None:
    editor.replace_points(np.empty((0, 2)), np.empty(0, dtype=np.int64))


def starting_points(kernel: str) -> None:
    """Presets and Clear: each replaces the drawing (the editor reloads it); with the RBF
    ``kernel`` a preset sets its own γ. Not while a link locks the dataset."""
    locked = locks.locked("dataset")
    with st.container(horizontal=True, key="draw_presets"):
        for name in drawn.PRESETS:
            st.button(_(PRESET_TITLES[name]), key=f"draw_preset_{name}", on_click=_preset,
                      args=(name, kernel), icon=":material/scatter_plot:", disabled=locked,
                      help=_("Start again from {n} points in this shape; with the RBF kernel, "
                             "γ = {gamma}, where it separates best.").format(
                          n=drawn.PRESET_POINTS,
                          gamma=format_number(drawn.PRESET_GAMMA[name], "g")))
        st.button(_("Clear"), key="draw_clear", on_click=_clear, icon=":material/delete:",
                  disabled=locked)


def not_yet(X: np.ndarray) -> str:
    """Why kernel PCA waits for more points (``drawn.analysis_problem``'s two cases), in the
    run's language."""
    n = len(X)
    if n < drawn.MIN_POINTS:
        return ngettext("So far {n} point drawn: kernel PCA needs at least {least}. Click the "
                        "plane to add some, or start from a shape above.",
                        "So far {n} points drawn: kernel PCA needs at least {least}. Click the "
                        "plane to add some, or start from a shape above.", n).format(
            n=n, least=drawn.MIN_POINTS)
    return _("So far all {n} points drawn are at the same place: kernel PCA needs at least two "
             "different points. Click the plane to add some, or start from a shape above."
             ).format(n=n)


def drawing(data) -> None:
    """The editor with the session's points, and how to take them away."""
    locked = locks.locked("dataset")
    if locked:
        message = (_("This link locks the dataset: the plane shows its {n} points and takes no "
                     "clicks, so every page shows the same drawing. To draw your own, press "
                     "**Unlock the controls** above.") if locks.can_unlock() else
                   _("This link locks the dataset: the plane shows its {n} points and takes no "
                     "clicks, so every page shows the same drawing. To draw your own, open the "
                     "Draw page in a new browser tab, without this link."))
        st.info(message.format(n=len(data.X)), icon=":material/lock:")
    editor.editor(data.X, data.y, locked=locked)
    exports.csv_download(_("These points (CSV)"), points_csv(data.X, data.y), "drawn-points")
    st.caption(_("The address bar holds your drawing (the link parameter `points`): copy it "
                 "to share it. The CSV opens with 'Your own CSV' in the sidebar, its label "
                 "column 'class'."))


def _class_names(data) -> list[str]:
    return [figures.class_name(data.target_names, int(c), data.y) for c in np.unique(data.y)]


def projection(result: Analysis, data, *, kernel: bool) -> None:
    Z = result.projection[:, :2] if kernel else result.pca_projection[:, :2]
    title = (_("Kernel PCA: {n} points on components 1 and 2") if kernel else
             _("Linear PCA: {n} points on components 1 and 2"))
    fig = figures.point_scatter(
        Z, data.y, data.target_names,
        title=title.format(n=len(Z)),
        axis_titles=(_("component 1"), _("component 2")), height=PROJECTION_HEIGHT,
    )
    show_chart(fig, key="draw_kpca" if kernel else "draw_pca", columns=2)


def separability(result: Analysis, data) -> None:
    sentence = separation_sentence(separation(result, data.y))
    if sentence is None:
        number_caption(_("Draw at least two points in each of two classes to score how well "
                         "a straight line separates them in each projection."))
    else:
        number_caption(sentence)


def kernel_matrices(result: Analysis, data) -> None:
    left, right = st.columns(2)
    for column, centered in ((left, False), (right, True)):
        matrix = result.centered_display if centered else result.kernel_display
        title = (_("Centred K̃ ({side} × {side})") if centered else
                 _("Kernel matrix K ({side} × {side})"))
        fig = kernel_figures.kernel_heatmap(
            matrix, result.class_sizes, _class_names(data), centered=centered,
            block_size=result.block_size,
            title=title.format(side=matrix.shape[0]),
            point_index=result.order,
        )
        with column:
            show_chart(fig, key="draw_centered" if centered else "draw_kernel", columns=2)
    per = (_("Rows and columns sorted by class, one row and one column per point you drew.")
           if result.block_size == 1 else
           _("Rows and columns sorted by class, one cell per block of {size} × {size} points "
             "(more than {side} points: block means).").format(size=result.block_size,
                                                                side=HEATMAP_SIDE))
    number_caption(join_sentences([per, _(
        "K̃ = K − 1ₙK − K1ₙ + 1ₙK1ₙ is K measured from the data's centre in feature space "
        "(red: more alike than average, blue: less).")]))


def spectrum(result: Analysis, settings: Settings) -> None:
    fig = kernel_figures.spectrum_figure(
        result.eigenvalues, result.eigenvalue_ranks, result.explained_ratio,
        result.pca_ratio, n_components=settings.n_components, negative=result.negative,
    )
    show_chart(fig, key="draw_spectrum")
    share = float(np.sum(result.explained_ratio[:2]))
    kernel_share = (_(result.share_problem) if result.share_problem is not None else
                    _("The first two kernel principal components (the chart at the top) hold "
                      "{share} of the variance in feature space.").format(
                        share=format_number(share, ".0%")))
    number_caption(_("{kernel_share} Linear PCA's two hold all of the plane's.").format(
        kernel_share=kernel_share))
