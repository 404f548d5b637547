"""The choosing-γ page's sections: the cached sweep, its small multiples, scores and spectra."""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from experiments.sampling import stratified_rows
from experiments.separability import METHOD
from kpca_core import KERNELS, median_heuristic_gamma
from lessons.choosing_gamma.experiment import (
    DEGREES,
    SWEEP_MAX_N,
    Sweep,
    align_signs,
    gamma_grid,
    nearest_index,
    sweep,
)
from lessons.choosing_gamma.figures import (
    separability_vs_value,
    share_vs_value,
    small_multiples,
    spectra_lines,
)
from shell import exports
from shell.admission import queued
from shell.caches import bounded_cache, inputs
from shell.charts import show_chart
from shell.memory import guard_memory
from shell.sidebar import apply_settings
from shell.state import Settings


def has_gamma(settings: Settings) -> bool:
    return "gamma" in KERNELS[settings.kernel].params


def offer_rbf(settings: Settings, X: np.ndarray) -> None:
    """The kernel has no γ: say so and offer the RBF kernel at the median heuristic."""
    gamma = float(f"{median_heuristic_gamma(X):.2g}")
    st.info(
        f"The {KERNELS[settings.kernel].title} kernel has no γ to choose: its feature space "
        "is fixed. Switch to a kernel with a width, for example the RBF kernel at the "
        f"median heuristic (γ ≈ {gamma:g}).",
        icon=":material/tune:",
    )
    st.button("Use the RBF kernel", key="gamma_use_rbf", on_click=apply_settings,
              args=(replace(settings, kernel="rbf", gamma=gamma),))


def _rows(settings: Settings, data) -> np.ndarray:
    return stratified_rows(len(data.X), data.y, SWEEP_MAX_N)


def cached_sweep(settings: Settings, data, param: str) -> Sweep:
    """The sweep for these data and kernel, computed once with a progress bar."""
    rows = _rows(settings, data)
    guard_memory(len(rows), copies=2)
    params = dict(settings.kernel_params())
    params.pop(param, None)  # the swept parameter is not part of the key
    key = ("sweep", param, settings.dataset, settings.dataset_options, settings.standardize,
           settings.kernel, tuple(sorted(params.items())), settings.n_components)
    y = None if data.y is None else data.y[rows]
    return _sweep(key, param, _params=params, _settings=settings, _rows=rows, _y=y)


# A sweep holds 12 projections (n × 2, n ≤ 1,000) and 12 × 20 eigenvalue shares: about
# 0.2 MB.
@bounded_cache(max_entries=24)
def _sweep(key: tuple, param: str, _params: dict, _settings: Settings, _rows: np.ndarray,
           _y: np.ndarray | None) -> Sweep:
    X = inputs(_settings)[_rows]
    values = gamma_grid(X) if param == "gamma" else np.array(DEGREES, dtype=float)
    # One fit at a time: K and the solver's copy (small up to SWEEP_MAX_N: no wait).
    with queued(len(_rows), copies=2, what="this sweep"):
        bar = st.progress(0.0, text="Starting the sweep…")
        try:
            return sweep(X, _y, kernel=_settings.kernel, kernel_params=_params, param=param,
                         values=values, n_components=_settings.n_components,
                         on_progress=lambda f, text: bar.progress(min(f, 1.0), text=text))
        finally:
            bar.empty()


def scores_at(result: Sweep, value: float) -> tuple[int, bool]:
    """The panel for the user's value (nearest on a log scale for γ) and whether it is exact.

    A γ change only moves the highlight: the sweep is never recomputed for it.
    """
    index = nearest_index(result.values, value, log=result.param == "gamma")
    return index, bool(np.isclose(result.values[index], value, rtol=1e-9))


def file_stem(settings: Settings, swept: str | None = None) -> str:
    """File names of this page: 'circles-rbf-gamma-sweep' for a file covering every value of
    the swept parameter, 'circles-rbf-gamma3.16-choosing-gamma' for one value."""
    if swept is None:
        return exports.view_name(settings, "choosing-gamma")
    return exports.view_name(settings, f"{swept}-sweep", swept=swept)


def _subsample_note(result: Sweep, data) -> str:
    if result.n < len(data.X):
        return (f" The sweep uses a stratified sample of {result.n:,} of the {len(data.X):,} "
                "points, to keep 12 fits quick.")
    return ""


def panels(result: Sweep, data, settings: Settings) -> None:
    param = result.param
    value = getattr(settings, param)
    current = nearest_index(result.values, value, log=param == "gamma")
    median = nearest_index(result.values, result.median_gamma) if param == "gamma" else None
    aligned = align_signs(result.projections, anchor=current)
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    y = None if data.y is None else data.y[rows]
    symbol = "γ" if param == "gamma" else "degree d"
    exact = bool(np.isclose(result.values[current], value, rtol=1e-9))
    fig = small_multiples(
        aligned, result.values, y, data.target_names, param=param, current=current,
        current_exact=exact, median=median, columns=4,
        title=f"Components 1 and 2 of kernel PCA<br><sup>{KERNELS[settings.kernel].title}, "
              f"{len(result.values)} values of {symbol}</sup>",
    )
    show_chart(fig, key=f"chart_multiples_{param}",
               name=f"{file_stem(settings, swept=param)}-panels")
    where = (f"your {symbol} = {value:g} (red frame)" if exact else
             f"the panel nearest your {symbol} = {value:g} (red frame)")
    text = (f"Each panel is the same data projected with a different {symbol}; {where}. "
            "Signs are matched between neighbouring panels (an eigenvector's sign is "
            "arbitrary), so a change you see is a change in shape, not a flip.")
    if median is not None:
        text += (f" 'median' marks the panel nearest the median heuristic "
                 f"γ = 1 / median ‖xᵢ − xⱼ‖² = {result.median_gamma:.3g}.")
    st.caption(text + _subsample_note(result, data))
    shown = result.values[current]
    at = replace(settings, **{param: int(shown) if param == "degree" else float(shown)})
    exports.csv_download(
        f"Projection at {symbol} = {shown:g}, the red panel (CSV)",
        exports.projections_csv(aligned[current], None, y, data.target_names, points=rows),
        f"{file_stem(at)}-projection",
    )


def scores(result: Sweep, data, settings: Settings) -> None:
    param = result.param
    symbol = "γ" if param == "gamma" else "d"
    if result.score_two is None:
        st.info("These data have no class labels (or a single class), so there is nothing to "
                "separate: use the spectrum below to judge the kernel's width.",
                icon=":material/label_off:")
        return
    best = result.best_index()
    value = getattr(settings, param)
    yours, exact = scores_at(result, value)
    yours_two = result.evaluations[yours].score_two
    yours_k = result.evaluations[yours].score_k
    fig = separability_vs_value(
        result.values, result.score_two, result.score_k, k=result.k,
        linear_two=result.linear_two, param=param, best=best, current_value=value,
        median_value=result.median_gamma if param == "gamma" else None,
        title=f"How well a straight line separates the classes, against {symbol}",
    )
    show_chart(fig, key=f"chart_scores_{param}",
               name=f"{file_stem(settings, swept=param)}-scores")
    best_value, best_score = result.values[best], result.score_two[best]
    linear = result.linear_two
    text = (
        f"Score: {METHOD}, on the kernel PCA coordinates. Best {symbol} = {best_value:g}: "
        f"{100 * best_score:.0f} % on components 1–2"
    )
    ties = int(np.sum(result.score_two >= best_score - 1e-12))
    if ties > 1:
        text += f" ({ties} values tie; the smallest, i.e. the smoothest kernel, is marked)"
    text += f". Linear PCA scores {100 * linear:.0f} % on its first two components"
    if best_score > linear + 0.05:
        text += ", so the kernel adds something linear PCA cannot."
    elif best_score < linear - 0.05:
        text += ", better than any kernel width here: the kernel does not help on these data."
    else:
        text += ", about the same: the kernel does not beat linear PCA on these data."
    at = (f"At your {symbol} = {value:g}" if exact else
          f"At {symbol} = {result.values[yours]:g}, the panel nearest your {value:g}")
    text += (f" {at}: {100 * yours_two:.0f} % on components 1–2, "
             f"{100 * yours_k:.0f} % on components 1–{result.k}.")
    st.caption(text + _subsample_note(result, data))


def smoothing_lesson(result: Sweep, settings: Settings) -> None:
    """Plain words on under- and over-smoothing, with the numbers that show them."""
    current = nearest_index(result.values, settings.gamma)
    similarity = np.array([e.mean_similarity for e in result.evaluations])
    bounded = settings.kernel in ("rbf", "laplacian")  # k(x, x) = 1 and 0 < k ≤ 1
    fig = spectra_lines(
        result.values, [e.leading_share for e in result.evaluations],
        flat_share=result.flat_share, param="gamma", current=current,
        title="The spectrum flattens as γ grows (your γ in red)",
    )
    stem = file_stem(settings, swept="gamma")
    show_chart(fig, key="chart_spectra_gamma", name=f"{stem}-spectra")
    fig = share_vs_value(
        result.values, result.top_share, similarity if bounded else None,
        flat_share=result.flat_share, param="gamma",
        title="The largest eigenvalue's share" + (" and the mean similarity" if bounded else "")
        + ", against γ",
    )
    show_chart(fig, key="chart_top_share_gamma", name=f"{stem}-top-share")
    exports.csv_download(
        "Eigenvalues at every γ (CSV)",
        exports.spectra_csv("gamma", [(value, e.eigenvalues, e.trace)
                                      for value, e in zip(result.values, result.evaluations,
                                                          strict=True)]),
        f"{stem}-eigenvalues",
    )
    low, high = result.evaluations[0], result.evaluations[-1]
    g_low, g_high = result.values[0], result.values[-1]
    top_two_low = float(np.sum(low.leading_share[:2]))
    flat = result.flat_share
    lines = []
    if bounded and similarity[0] > 0.9:
        lines.append(
            f"**γ too small ({g_low:g}): over-smoothing.** "
            f"Every pair of points looks alike (mean k(xᵢ, xⱼ) = {similarity[0]:.3f}), and "
            "k(x, y) ≈ 1 − γ‖x − y‖² is a linear kernel in disguise: the first two eigenvalues "
            f"hold {100 * top_two_low:.1f} % of trace(K̃), against "
            f"{100 * result.linear_share_two:.1f} % for linear PCA's first two components."
        )
    else:
        lines.append(
            f"At the smallest γ = {g_low:g} the first two eigenvalues hold "
            f"{100 * top_two_low:.1f} % of trace(K̃) (linear PCA's first two components: "
            f"{100 * result.linear_share_two:.1f} %)."
        )
    if bounded and high.leading_share[0] < 5 * flat and similarity[-1] < 0.05:
        lines.append(
            f"**γ too large ({g_high:g}): under-smoothing, every point its own cluster.** "
            f"Points look unlike each other (mean k(xᵢ, xⱼ) = {similarity[-1]:.2g}), K "
            "approaches the identity and K̃ a scaled I − 1/n, whose eigenvalues are all "
            f"equal: λ₁ holds {100 * high.leading_share[0]:.2f} % of trace(K̃), falling "
            "towards the flat "
            f"1/(n − 1) = {100 * flat:.2f} %. No direction stands out, so the "
            "projection says nothing about the data's shape."
        )
    else:
        lines.append(
            f"At the largest γ = {g_high:g}, λ₁ still holds {100 * high.leading_share[0]:.2f} % "
            f"of trace(K̃) (a flat spectrum would give {100 * flat:.2f} %): this kernel does not "
            "reach the 'every point its own cluster' limit in the range swept."
        )
    lines.append(
        "In between, the kernel's width matches the scale of the structure, and the leading "
        "components pick it up."
    )
    for line in lines:
        st.markdown(line)
    if any(e.n_negative for e in result.evaluations):
        st.caption(f"The {KERNELS[settings.kernel].title} kernel is indefinite: some values "
                   "give negative eigenvalues among the leading ones (drawn at the bottom edge "
                   "of the log scale).")
