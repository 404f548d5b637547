"""Choosing γ's first screen for the offline lecture: the page's sweep of panels, its
separability chart and its spectra, with the page's sentences, at each of the slider's γ.

As on the page, the sweep runs once over the grid around the kernel's reference γ; the
user's γ only moves the red frame and the sentences about "your γ" (the page never
recomputes the sweep for a change of γ). The slider therefore runs over the sweep's own
panels (and the step's γ).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.kernel_diagnostics import reference_gamma
from experiments.sampling import stratified_rows
from lessons.choosing_gamma.experiment import SWEEP_MAX_N, Sweep, gamma_grid, sweep
from lessons.choosing_gamma.sections import (
    gamma_only_rescales,
    has_gamma,
    panels_figure,
    scores_at,
    scores_figure,
    smoothing_figures,
)
from lessons.common.pack import PackFrame, Slider
from shell.state import Settings
from words.i18n import _


def _grid(X: np.ndarray, settings: Settings) -> tuple[np.ndarray, float | None]:
    """The page's γ values: its grid around the kernel's reference γ for these data."""
    if not has_gamma(settings) or gamma_only_rescales(settings):
        raise ValueError("the page sweeps γ only for a kernel where γ changes the picture")
    reference = reference_gamma(X, settings.kernel)
    return gamma_grid(reference or 1.0), reference


def page_sweep(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Sweep:
    """The page's γ sweep (``view.cached_sweep`` without its cache and progress bar): the
    same sample, grid, reference and fits."""
    values, reference = _grid(X, settings)
    rows = stratified_rows(len(X), y, SWEEP_MAX_N)
    others = {k: v for k, v in settings.kernel_params().items() if k != "gamma"}
    return sweep(X[rows], None if y is None else y[rows], kernel=settings.kernel,
                 kernel_params=others, param="gamma", values=values,
                 n_components=settings.n_components, reference=reference)


def slider(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Slider:
    grid, _reference = _grid(X, settings)
    values = tuple(sorted({float(v) for v in grid} | {float(settings.gamma)}))
    return Slider("gamma", values,
                  _("The slider is your γ, as the sidebar's on the page: it moves the red "
                    "frame and the sentences about your γ. The panels are the page's sweep "
                    "around the kernel's reference γ, the same at every position (the page "
                    "does not recompute them for a change of γ)."))


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    """The page's sections 1–3 at each of the settings ``at`` (which differ in γ only: the
    sweep is computed once)."""
    result = page_sweep(X, y, at[0])
    rows = stratified_rows(len(X), y, SWEEP_MAX_N)
    shown_y = None if y is None else y[rows]
    out = []
    for settings in at:
        panels, caption, _aligned = panels_figure(result, shown_y, data.target_names, settings,
                                                  len(X))
        figures, sentences = [("panels", panels)], [caption]
        scored = scores_figure(result, settings, len(X))
        if scored is not None:
            figures.append(("scores", scored[0]))
            sentences.append(scored[1])
        spectra, _share, lines, indefinite = smoothing_figures(result, settings)
        figures.append(("spectra", spectra))
        sentences += [*lines, *([indefinite] if indefinite else [])]
        current, exact = scores_at(result, settings.gamma)
        out.append(PackFrame(tuple(figures), tuple(sentences), {
            "values": [float(v) for v in result.values],
            "score_two": None if result.score_two is None else [float(s) for s in
                                                                result.score_two],
            "best": result.best_index(),
            "current": current,
            "exact": exact,
        }))
    return out
