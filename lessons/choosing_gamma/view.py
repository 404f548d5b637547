"""The choosing-γ page's sections: the cached sweep, its small multiples, scores and spectra.

The sweep runs on the γ guidance's sample (``lessons.common.gamma_hint``, the Explorer's hint): a
γ both try gets the same score in both, and the page shows the same hint under its scores.
"""

from __future__ import annotations

from dataclasses import replace

import numpy as np
import streamlit as st

from experiments.gamma_guidance import LINEAR_SIMILARITY
from experiments.kernel_diagnostics import REFERENCE_SHORT
from experiments.kernel_params import KERNEL_PARAMS, SYMBOLS
from experiments.sampling import stratified_rows
from experiments.separability import METHOD
from kpca_core import KERNELS, median_heuristic_gamma
from lessons.choosing_gamma.experiment import (
    COEF0_VALUES,
    DEGREES,
    PANELS,
    SWEEP_MAX_N,
    Sweep,
    align_signs,
    gamma_grid,
    nearest_index,
    rescaling_gap,
    sweep,
)
from lessons.choosing_gamma.figures import (
    format_swept_number,
    format_swept_value,
    separability_vs_value,
    share_vs_value,
    small_multiples,
    spectra_lines,
)
from shell import exports
from shell.admission import queued
from shell.caches import Inputs, bounded_cache, reference_gamma_for
from shell.charts import show_chart
from shell.checks import Check, show_check
from shell.display import number_caption
from shell.memory import guard_memory
from shell.sidebar import apply_settings
from shell.state import Settings, format_gamma


def has_gamma(settings: Settings) -> bool:
    return "gamma" in KERNELS[settings.kernel].params


def gamma_only_rescales(settings: Settings) -> bool:
    """The polynomial kernel with c₀ = 0: (γ xᵀy)ᵈ = γᵈ (xᵀy)ᵈ, every γ the same picture."""
    return settings.kernel == "poly" and settings.coef0 == 0


@bounded_cache(max_entries=16)  # one float an entry
def _rescaling_gap(inputs: Inputs, degree: int, gamma: float, _rows: np.ndarray) -> float:
    return rescaling_gap(inputs.X[_rows], degree=degree, gamma=gamma)


def rescaling_note(settings: Settings, inputs: Inputs) -> None:
    """Why there is no γ sweep for (γ xᵀy)ᵈ, checked on these data."""
    d = settings.degree
    st.info(
        f"With c₀ = 0 the kernel is (γ xᵀy)^{d} = γ^{d} · (xᵀy)^{d}: γ only multiplies K "
        f"by a number. K̃ scales with it, its eigenvectors stay, and every projection is "
        f"the same picture, stretched by γ^({d}/2) — so a sweep of γ would show "
        f"{PANELS} identical panels with identical scores. The feature space "
        f"holds the monomials of degree exactly {d} (with c₀ > 0: every degree up to "
        f"{d}). What changes the picture is the degree and c₀: both are swept below.",
        icon=":material/functions:",
    )
    gap = _rescaling_gap(inputs, d, settings.gamma, _rows=_rows(inputs))
    show_check(Check(f"components 1–2 at 10γ against those at γ = {format_gamma(settings.gamma)} "
                     f"times 10^({d}/2): largest difference / largest entry", gap, 1e-6))


def offer_rbf(settings: Settings, X: np.ndarray) -> None:
    """The kernel has no γ: say so and offer the RBF kernel at the median heuristic."""
    gamma = float(f"{median_heuristic_gamma(X):.2g}")
    st.info(
        f"The {KERNELS[settings.kernel].title} kernel has no γ to choose: its feature space "
        "is fixed. Switch to a kernel with a width, for example the RBF kernel at the "
        f"median heuristic (γ ≈ {format_gamma(gamma)}).",
        icon=":material/tune:",
    )
    st.button("Use the RBF kernel", key="gamma_use_rbf", on_click=apply_settings,
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
    with queued(len(_rows), copies=2, what="this sweep"):
        bar = st.progress(0.0, text="Starting the sweep…")
        try:
            return sweep(X, _y, kernel=kernel, kernel_params=dict(others), param=param,
                         values=values, n_components=n_components,
                         on_progress=lambda f, text: bar.progress(min(f, 1.0), text=text),
                         reference=gamma_reference)
        finally:
            bar.empty()


def scores_at(result: Sweep, value: float) -> tuple[int, bool]:
    """The panel for the user's value (nearest on a log scale for γ) and whether it is exact.

    A γ change only moves the highlight: the sweep is never recomputed for it.
    """
    index = nearest_index(result.values, value, log=result.param == "gamma")
    return index, bool(np.isclose(result.values[index], value, rtol=1e-9, atol=1e-12))


def file_stem(settings: Settings, swept: str | None = None) -> str:
    """File names of this page: 'circles-rbf-gamma-sweep' for a file covering every value of
    the swept parameter, 'circles-rbf-gamma3.16-choosing-gamma' for one value."""
    if swept is None:
        return exports.view_name(settings, "choosing-gamma")
    return exports.view_name(settings, f"{swept}-sweep", swept=swept)


def _subsample_note(result: Sweep, data) -> str:
    if result.n < len(data.X):
        return (f" The sweep uses a stratified sample of {result.n:,} of the {len(data.X):,} "
                f"points, to keep {len(result.values)} fits quick (the γ hint uses the same "
                "sample).")
    return ""




def panel_mark(kernel: str) -> str:
    """The short label of the reference panel: the median heuristic for RBF."""
    return "median" if kernel == "rbf" else "reference"


def _bounded(settings: Settings) -> bool:
    """k(x, x) = 1 and 0 < k ≤ 1: a flat spectrum then means K ≈ I."""
    return settings.kernel in ("rbf", "laplacian")


def flat_panel_label(settings: Settings) -> str:
    return "K ≈ I" if _bounded(settings) else "flat spectrum"


def flat_note(result: Sweep, settings: Settings) -> str:
    """What the panels marked flat show, from their numbers ('' when none is flat)."""
    flat = np.flatnonzero(result.flat)
    if not len(flat):
        return ""
    values = ", ".join(format_swept_value(result.param, result.values[i]) for i in flat)
    spread = max(result.evaluations[i].leading_share[0] / result.flat_share - 1 for i in flat)
    text = (f" Panels marked '{flat_panel_label(settings)}' ({values}): the largest "
            f"eigenvalue μ₁ of K̃ is within {100 * spread:.1f} % of trace(K̃)/(n − 1), "
            "the value every eigenvalue takes when all directions are alike")
    if _bounded(settings):
        similarity = max(result.evaluations[i].mean_similarity for i in flat)
        text += (f"; the mean k(xᵢ, xⱼ) of two different points is at most {similarity:.2g}, "
                 "so K is nearly the identity: every point resembles only itself")
    return text + (". Their pictures are one arbitrary pair of many equal directions: "
                   "what this kernel width gives, not an error.")


def no_share_label(evaluation) -> str:
    """A panel's short word for why it has no share of variance (the caption says more)."""
    zero = evaluation.share_problem.startswith("trace(K̃) is 0")
    return "trace(K̃) ≈ 0" if zero else "trace(K̃) < 0"


def no_share_note(result: Sweep) -> str:
    """Why some panels show no share of variance ('' when every panel has one)."""
    none = np.flatnonzero(result.no_share)
    if not len(none):
        return ""
    by_reason: dict[str, list[str]] = {}
    for i in none:
        by_reason.setdefault(result.evaluations[i].share_problem, []).append(
            format_swept_number(result.param, result.values[i]))
    symbol = SYMBOLS[result.param]
    return " Panels marked 'trace(K̃) < 0' or '≈ 0' have no share of variance: " + " ".join(
        f"at {symbol} = {', '.join(values)}, {reason}" for reason, values in by_reason.items())


def panels(result: Sweep, data, settings: Settings) -> None:
    param = result.param
    value = getattr(settings, param)
    current, exact = scores_at(result, value)
    marked = (nearest_index(result.values, result.reference)
              if param == "gamma" and result.reference else None)
    aligned = align_signs(result.projections, anchor=current)
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    y = None if data.y is None else data.y[rows]
    symbol = KERNEL_PARAMS[param].in_text
    flat_label = flat_panel_label(settings)
    fig = small_multiples(
        aligned, result.values, y, data.target_names, param=param, current=current,
        current_exact=exact, reference=marked,
        reference_label=panel_mark(settings.kernel), columns=4,
        notes=[flat_label if flat else no_share_label(e) if none else ""
               for flat, none, e in zip(result.flat, result.no_share, result.evaluations,
                                        strict=True)],
        title=f"Components 1 and 2 of kernel PCA<br><sup>{KERNELS[settings.kernel].title}, "
              f"{len(result.values)} values of {symbol}</sup>",
    )
    show_chart(fig, key=f"chart_multiples_{param}",
               name=f"{file_stem(settings, swept=param)}-panels")
    where = (f"your {symbol} = {format_swept_number(param, value)} (red frame)" if exact else
             f"the panel nearest your {symbol} = {format_swept_number(param, value)} (red frame)")
    text = (f"Each panel is the same data projected with a different {symbol}; {where}. "
            "Signs are matched between neighbouring panels (an eigenvector's sign is "
            "arbitrary), so a change you see is a change in shape, not a flip.")
    if marked is not None:
        text += (f" '{panel_mark(settings.kernel)}' marks the panel nearest this kernel's "
                 f"reference for these data, γ = {REFERENCE_FORMULA[settings.kernel]} = "
                 f"{format_gamma(result.reference)} (the sidebar's reference too).")
    st.caption(text + flat_note(result, settings) + no_share_note(result)
               + _subsample_note(result, data))
    shown = result.values[current]
    at = replace(settings, **{param: int(shown) if param == "degree" else float(shown)})
    exports.csv_download(
        f"Projection at {symbol} = {format_swept_number(param, shown)}, the red panel (CSV)",
        exports.projections_csv(aligned[current], None, y, data.target_names, points=rows),
        f"{file_stem(at)}-projection",
    )


REFERENCE_FORMULA = {
    "rbf": "1 / median ‖xᵢ − xⱼ‖²",
    "laplacian": "1 / median ‖xᵢ − xⱼ‖₁",
    "poly": "1 / median |xᵢᵀxⱼ|",
    "sigmoid": "1 / median |xᵢᵀxⱼ|",
}


def scores(result: Sweep, data, settings: Settings) -> None:
    param = result.param
    symbol = SYMBOLS[param]
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
        reference_value=result.reference if param == "gamma" else None,
        reference_label=REFERENCE_SHORT.get(settings.kernel, ""),
        title=f"How well a straight line separates the classes, against {symbol}",
    )
    show_chart(fig, key=f"chart_scores_{param}",
               name=f"{file_stem(settings, swept=param)}-scores")
    best_value, best_score = result.values[best], result.score_two[best]
    linear = result.linear_two
    text = (
        f"Score: {METHOD}, on the kernel PCA coordinates. "
        f"Best {symbol} = {format_swept_number(param, best_value)} "
        f"(of these {len(result.values)} panels): {100 * best_score:.0f} % on components 1–2"
    )
    ties = int(np.sum(result.score_two >= best_score - 1e-12))
    if ties > 1:
        smallest = "the smallest, i.e. the smoothest kernel," if param == "gamma" else \
            "the smallest"
        text += f" ({ties} values tie; {smallest} is marked)"
    text += f". Linear PCA scores {100 * linear:.0f} % on its first two components"
    if best_score > linear + 0.05:
        text += ", so the kernel adds something linear PCA cannot."
    elif best_score < linear - 0.05:
        text += ", better than any kernel width here: the kernel does not help on these data."
    else:
        text += ", about the same: the kernel does not beat linear PCA on these data."
    at = (f"At your {symbol} = {format_swept_number(param, value)}" if exact else
          f"At {symbol} = {format_swept_number(param, result.values[yours])}, the panel "
          f"nearest your {format_swept_number(param, value)}")
    text += (f" {at}: {100 * yours_two:.0f} % on components 1–2, "
             f"{100 * yours_k:.0f} % on components 1–{result.k}.")
    number_caption(text + _subsample_note(result, data))


def spectrum_title(result: Sweep) -> str:
    """What the spectra do as γ grows, from the leading share at both ends."""
    shares = result.top_share[~result.no_share]
    if len(shares) < 2:  # trace(K̃) ≤ 0 at all but one value: no shape to compare
        return "The spectrum as γ grows (your γ in red)"
    first, last = shares[0], shares[-1]
    trend = ("flattens" if last < 0.8 * first else "sharpens" if last > 1.25 * first
             else "keeps its shape")
    return f"The spectrum {trend} as γ grows (your γ in red)"


def small_gamma_text(result: Sweep, settings: Settings) -> str:
    """The smallest γ of the sweep, in words that hold for this kernel, from its numbers.

    RBF: k ≈ 1 − γ‖x − y‖², which centres to 2γ x̃ᵀỹ, a linear kernel. Laplacian:
    k ≈ 1 − γ‖x − y‖₁, which centres to γ times the double-centred L1 distances: no
    linear kernel, and the measured similarity with linear PCA's plane says how far.
    Polynomial (c₀ ≠ 0) and sigmoid: affine in xᵀy to first order, hence linear.
    """
    low, g_low = result.evaluations[0], result.values[0]
    kernel = settings.kernel
    top_two = 100 * float(np.sum(low.leading_share[:2]))
    linear_two = 100 * result.linear_share_two
    plane = (f"components 1–2 against linear PCA's plane: subspace similarity "
             f"{low.linear_similarity:.3f} (1 = the same)")
    shares = (f"the first two eigenvalues hold {top_two:.1f} % of trace(K̃), against "
              f"{linear_two:.1f} % for linear PCA's first two components"
              if low.share_problem is None else
              low.share_problem[0].lower() + low.share_problem[1:].rstrip("."))
    linear_now = low.linear_similarity >= LINEAR_PLANE
    if kernel in ("rbf", "laplacian") and low.mean_similarity > 0.9:
        head = (f"**γ too small ({format_gamma(g_low)}): over-smoothing.** Every pair of "
                f"points looks alike (mean k(xᵢ, xⱼ) = {low.mean_similarity:.3f}), and ")
        if kernel == "rbf":
            body = ("k(x, y) ≈ 1 − γ‖x − y‖², which centres to 2γ x̃ᵀỹ: a linear kernel in "
                    "disguise. " + (f"Measured: {plane}; {shares}." if linear_now else
                                    f"At this γ it is not there yet: {plane}."))
        else:
            body = ("k(x, y) ≈ 1 − γ‖x − y‖₁, with the L1 distance: centred, that is γ times "
                    "the double-centred L1 distances, not a linear kernel. The picture stops "
                    "changing as γ shrinks, " + (
                        f"and on these data it lies close to linear PCA's plane: {plane}."
                        if linear_now else
                        f"but it is not linear PCA's: {plane}; {shares}."))
        return head + body
    if kernel in ("poly", "sigmoid"):
        expansion = ("(γ xᵀy + c₀)ᵈ ≈ c₀ᵈ + d c₀ᵈ⁻¹ γ xᵀy" if kernel == "poly"
                     else "tanh(γ xᵀy + c₀) ≈ tanh c₀ + (1 − tanh² c₀) γ xᵀy")
        typical = (f" (γ |xᵀy| is typically {g_low / result.reference:.2g} there)"
                   if result.reference else "")
        return (f"At the smallest γ = {format_gamma(g_low)}{typical}, {expansion} is affine "
                "in xᵀy, a linear kernel to first order: "
                + (f"measured, {plane}." if linear_now else
                   f"not reached at this γ: {plane}; {shares}."))
    return f"At the smallest γ = {format_gamma(g_low)}, {shares}; {plane}."


# Components 1–2 "span linear PCA's plane" from this subspace similarity on (the γ
# guidance's threshold, experiments.gamma_guidance.LINEAR_SIMILARITY).
LINEAR_PLANE = LINEAR_SIMILARITY


def smoothing_lesson(result: Sweep, settings: Settings) -> None:
    """Plain words on under- and over-smoothing, with the numbers that show them."""
    current = nearest_index(result.values, settings.gamma)
    similarity = np.array([e.mean_similarity for e in result.evaluations])
    bounded = settings.kernel in ("rbf", "laplacian")  # k(x, x) = 1 and 0 < k ≤ 1
    fig = spectra_lines(
        result.values, [e.leading_share for e in result.evaluations],
        flat_share=result.flat_share, param="gamma", current=current,
        title=spectrum_title(result),
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
    high, g_high = result.evaluations[-1], result.values[-1]
    flat = result.flat_share
    lines = [small_gamma_text(result, settings)]
    top_high = 100 * high.leading_share[0]
    if high.share_problem is not None:
        lines.append(f"At the largest γ = {format_gamma(g_high)}: {high.share_problem}")
    elif bounded and high.leading_share[0] < 5 * flat and similarity[-1] < 0.05:
        lines.append(
            f"**γ too large ({format_gamma(g_high)}): under-smoothing, every point its own "
            "cluster.** "
            f"Points look unlike each other (mean k(xᵢ, xⱼ) = {similarity[-1]:.2g}), K "
            "approaches the identity and K̃ a scaled I − 1/n, whose eigenvalues are all "
            f"equal: μ₁ holds {top_high:.2f} % of trace(K̃), falling towards the flat "
            f"1/(n − 1) = {100 * flat:.2f} %. No direction stands out, so the "
            "projection says nothing about the data's shape."
        )
    elif bounded:
        lines.append(
            f"At the largest γ = {format_gamma(g_high)}, μ₁ still holds {top_high:.2f} % of "
            f"trace(K̃) (a flat spectrum would give {100 * flat:.2f} %): this kernel does not "
            "reach the 'every point its own cluster' limit in the range swept."
        )
    else:  # k is not bounded by k(x, x): no "K ≈ I" limit to speak of
        lines.append(
            f"At the largest γ = {format_gamma(g_high)}, μ₁ holds {top_high:.3g} % of trace(K̃) "
            f"(a flat spectrum would give {100 * flat:.3g} %)."
        )
    lines.append(
        "In between, the kernel's width matches the scale of the structure, and the leading "
        "components pick it up. (μ: an eigenvalue of K̃; μ / trace(K̃) is its share of the "
        "variance in feature space"
        + (", where trace(K̃) > 0: the charts draw no share at "
           + ", ".join(f"γ = {format_gamma(v)}" for v in result.values[result.no_share])
           + ")." if result.no_share.any() else ".)")
    )
    for line in lines:
        st.markdown(line)
    if any(e.n_negative for e in result.evaluations):
        st.caption(f"The {KERNELS[settings.kernel].title} kernel is indefinite: some values "
                   "give negative eigenvalues among the leading ones (drawn at the bottom edge "
                   "of the log scale).")
