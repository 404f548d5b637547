"""The Explorer's first screen for the offline lecture: kernel PCA beside linear PCA with
their separability, K and K̃ where the step opens them (``section=2``), and the spectrum,
each chart and sentence the page's own (:mod:`lessons.explorer.sections`), at each of the
slider's settings.

The file is smaller than the page's data: the projections draw a stratified sample of at
most :data:`~lessons.common.pack.SHOWN_POINTS` points (the figures take the sampled rows,
each point keeping its row number), and K and K̃ are binned again to at most
:data:`~lessons.common.pack.HEATMAP_SIDE` cells a side, on the page's colour scales. Every
number and sentence is computed on all the points; the step says so when it samples.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.analysis import Analysis, analyse
from experiments.sampling import stratified_rows
from experiments.separability import linear_separability
from lessons.common.pack import HEATMAP_SIDE, SHOWN_POINTS, PackFrame
from lessons.explorer.sections import (
    kernel_caption,
    kernel_figure,
    kpca_figure,
    pca_figure,
    scored,
    separability_sentence,
    spectrum_caption,
    spectrum_figure,
)
from shell.state import Settings
from words.i18n import _, format_number

FIRST = (0, 1)  # the first screen's axes: components 1 and 2
KERNEL_SECTION = "2"  # the page's tab "2 · K and K̃" (lessons/explorer/steps.py)


def analysis(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Analysis:
    """The Explorer's analysis at ``settings``, with at least the two components drawn."""
    return analyse(X, y, kernel=settings.kernel, kernel_params=settings.kernel_params(),
                   n_components=min(max(settings.n_components, 2), len(X) - 1))


def scores(result: Analysis, y: np.ndarray | None) -> dict:
    """The scores the page's caption quotes (components 1–2 of kernel and linear PCA, and
    component 1 alone), None without two classes; and kernel PCA's explained variance."""
    labelled = y is not None and len(np.unique(y)) >= 2

    def score(Z):
        return linear_separability(Z, y) if labelled else None

    return {"separability": score(result.projection[:, :2]),
            "linear": score(result.pca_projection[:, :2]),
            "first_alone": score(result.projection[:, :1]),
            "explained": [float(r) for r in result.explained_ratio[:2]]}


def frames(X: np.ndarray, y: np.ndarray | None, data, at: Sequence[Settings],
           *, section: str = "1") -> list[PackFrame]:
    """The page's first screen at each of the settings ``at``, with K and K̃ where the
    step's link opens their section (``section``: the page's link parameter)."""
    rows = stratified_rows(len(X), y, SHOWN_POINTS)
    shown = None if y is None else y[rows]
    note = (_("The charts draw a stratified sample of {shown} of the {n} points; every "
              "number and sentence is computed on all of them.").format(
        shown=format_number(len(rows), ","), n=format_number(len(X), ","))
        if len(rows) < len(X) else None)
    out = []
    for settings in at:
        result = analysis(X, y, settings)
        numbers = scores(result, y)
        charts = [("kpca", kpca_figure(result.projection[rows][:, FIRST], data, shown,
                                       settings, (1, 2), rows=rows)),
                  ("pca", pca_figure(result.pca_projection[rows][:, :2], data, shown,
                                     list(range(min(2, result.pca_projection.shape[1]))), 2,
                                     rows=rows))]
        sentences = []
        if numbers["separability"] is not None:
            sentences.append(scored(separability_sentence(
                numbers["separability"], numbers["linear"], numbers["first_alone"], y, FIRST)))
        if section == KERNEL_SECTION:
            for name, centered in (("K", False), ("Kc", True)):
                charts.append((name, kernel_figure(result, data, centered=centered,
                                                   side=HEATMAP_SIDE)))
                sentences.append(kernel_caption(result, data, centered=centered))
        charts.append(("spectrum", spectrum_figure(result, settings.n_components)))
        sentences.append(spectrum_caption(result, settings.n_components))
        if note:
            sentences.append(note)
        out.append(PackFrame(tuple(charts), tuple(sentences), numbers))
    return out
