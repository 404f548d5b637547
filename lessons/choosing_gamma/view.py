"""The choosing-γ page's sections: the cached sweep, its small multiples, scores and spectra.

The sweep runs on the γ guidance's sample (``lessons.common.gamma_hint``, the Explorer's hint): a
γ both try gets the same score in both, and the page shows the same hint under its scores.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from experiments.sampling import stratified_rows
from kpca_core import KERNELS, median_heuristic_gamma
from lessons.choosing_gamma.experiment import (
    COEF0_VALUES,
    DEGREES,
    PANELS,
    SWEEP_MAX_N,
    Sweep,
    gamma_grid,
    rescaling_gap,
    sweep,
)
from lessons.choosing_gamma.figures import format_swept_number
from lessons.choosing_gamma.sections import (  # noqa: F401 - has_gamma: the page's
    NO_LABELS,
    gamma_only_rescales,
    has_gamma,
    in_text,
    panels_figure,
    scores_at,
    scores_figure,
    smoothing_figures,
)
from server.admission import queued
from server.memory import guard_memory
from shell import exports
from shell.caches import Inputs, bounded_cache, reference_gamma_for
from shell.charts import show_chart
from shell.checks import Check, show_check
from shell.display import number_caption
from shell.sidebar import apply_settings
from shell.state import Settings, format_gamma
from words.i18n import N_, _, format_number


@bounded_cache(max_entries=16)  # one float an entry
def _rescaling_gap(inputs: Inputs, degree: int, gamma: float, _rows: np.ndarray) -> float:
    return rescaling_gap(inputs.X[_rows], degree=degree, gamma=gamma)


def rescaling_note(settings: Settings, inputs: Inputs) -> None:
    """Why there is no γ sweep for (γ xᵀy)ᵈ, checked on these data."""
    d = settings.degree
    st.info(
        _("With c₀ = 0 the kernel is (γ xᵀy)^{d} = γ^{d} · (xᵀy)^{d}: γ only multiplies K "
          "by a number. K̃ scales with it, its eigenvectors stay, and every projection is "
          "the same picture, stretched by γ^({d}/2) — so a sweep of γ would show "
          "{panels} identical panels with identical scores. The feature space "
          "holds the monomials of degree exactly {d} (with c₀ > 0: every degree up to "
          "{d}). What changes the picture is the degree and c₀: both are swept below.").format(
            d=format_number(d), panels=format_number(PANELS)),
        icon=":material/functions:",
    )
    gap = _rescaling_gap(inputs, d, settings.gamma, _rows=_rows(inputs))
    show_check(Check(_("components 1–2 at 10γ against those at γ = {gamma} times 10^({d}/2): "
                       "largest difference / largest entry").format(
        gamma=format_gamma(settings.gamma), d=format_number(d)), gap, 1e-6))


def offer_rbf(settings: Settings, X: np.ndarray) -> None:
    """The kernel has no γ: say so and offer the RBF kernel at the median heuristic."""
    gamma = float(f"{median_heuristic_gamma(X):.2g}")
    st.info(
        _("The {kernel} kernel has no γ to choose: its feature space is fixed. Switch to a "
          "kernel with a width, for example the RBF kernel at the median heuristic "
          "(γ ≈ {gamma}).").format(kernel=_(KERNELS[settings.kernel].title),
                                   gamma=format_gamma(gamma)),
        icon=":material/tune:",
    )
    st.button(_("Use the RBF kernel"), key="gamma_use_rbf", on_click=apply_settings,
              args=(replace(settings, kernel="rbf", gamma=gamma),))


def _rows(inputs: Inputs) -> np.ndarray:
    return stratified_rows(len(inputs.X), inputs.y, SWEEP_MAX_N)


def cached_sweep(settings: Settings, inputs: Inputs, param: str) -> Sweep:
    """The sweep for these data and kernel, computed once with a progress bar."""
    rows = _rows(inputs)
    guard_memory(len(rows), copies=2)
    # The swept parameter is not part of the key: the others are.
    others = tuple(sorted((k, v) for k, v in settings.kernel_params().items() if k != param))
    y = None if inputs.y is None else inputs.y[rows]
    return _sweep(inputs, settings.kernel, others, settings.n_components, param,
                  _rows=rows, _y=y)


def _values(param: str, gamma_reference: float | None) -> np.ndarray:
    if param == "gamma":
        return gamma_grid(gamma_reference or 1.0)
    return np.array(DEGREES if param == "degree" else COEF0_VALUES, dtype=float)


# A sweep holds 12 projections (n × 2, n ≤ 600) and 12 × 20 eigenvalue shares: about
# 0.2 MB.
@bounded_cache(max_entries=24)
def _sweep(inputs: Inputs, kernel: str, others: tuple, n_components: int, param: str,
           _rows: np.ndarray, _y: np.ndarray | None) -> Sweep:
    X = inputs.X[_rows]
    gamma_reference = reference_gamma_for(inputs.key, kernel)
    values = _values(param, gamma_reference)
    # One fit at a time: K and the solver's copy (small up to SWEEP_MAX_N: no wait).
    with queued(len(_rows), copies=2, what=N_("this sweep")):
        bar = st.progress(0.0, text=_("Starting the sweep…"))
        try:
            return sweep(X, _y, kernel=kernel, kernel_params=dict(others), param=param,
                         values=values, n_components=n_components,
                         on_progress=lambda f, text: bar.progress(min(f, 1.0), text=text),
                         reference=gamma_reference)
        finally:
            bar.empty()


def file_stem(settings: Settings, swept: str | None = None) -> str:
    """File names of this page: 'circles-rbf-gamma-sweep' for a file covering every value of
    the swept parameter, 'circles-rbf-gamma3.16-choosing-gamma' for one value."""
    if swept is None:
        return exports.view_name(settings, "choosing-gamma")
    return exports.view_name(settings, f"{swept}-sweep", swept=swept)


def panels(result: Sweep, data, settings: Settings) -> None:
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    y = None if data.y is None else data.y[rows]
    fig, text, aligned = panels_figure(result, y, data.target_names, settings, len(data.X))
    param = result.param
    show_chart(fig, key=f"chart_multiples_{param}",
               name=f"{file_stem(settings, swept=param)}-panels")
    st.caption(text)
    current, _exact = scores_at(result, getattr(settings, param))
    shown = result.values[current]
    at = replace(settings, **{param: int(shown) if param == "degree" else float(shown)})
    exports.csv_download(
        _("Projection at {symbol} = {value}, the red panel (CSV)").format(
            symbol=in_text(param), value=format_swept_number(param, shown)),
        exports.projections_csv(aligned[current], None, y, data.target_names, points=rows),
        f"{file_stem(at)}-projection",
    )


def scores(result: Sweep, data, settings: Settings) -> None:
    shown = scores_figure(result, settings, len(data.X))
    if shown is None:
        st.info(_(NO_LABELS), icon=":material/label_off:")
        return
    fig, text = shown
    show_chart(fig, key=f"chart_scores_{result.param}",
               name=f"{file_stem(settings, swept=result.param)}-scores")
    number_caption(text)


def smoothing_lesson(result: Sweep, settings: Settings) -> None:
    """Plain words on under- and over-smoothing, with the numbers that show them."""
    spectra, share, lines, indefinite = smoothing_figures(result, settings)
    stem = file_stem(settings, swept="gamma")
    show_chart(spectra, key="chart_spectra_gamma", name=f"{stem}-spectra")
    show_chart(share, key="chart_top_share_gamma", name=f"{stem}-top-share")
    exports.csv_download(
        _("Eigenvalues at every γ (CSV)"),
        exports.spectra_csv("gamma", [(value, e.eigenvalues, e.trace)
                                      for value, e in zip(result.values, result.evaluations,
                                                          strict=True)]),
        f"{stem}-eigenvalues",
    )
    for line in lines:
        st.markdown(line)
    if indefinite:
        st.caption(indefinite)
