"""Choosing γ's sections as figures and words, without Streamlit: the page
(:mod:`lessons.choosing_gamma.view`) shows them, and the offline lecture
(:mod:`lessons.choosing_gamma.pack`) carries them at each of its slider's values.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from experiments.gamma_guidance import LINEAR_SIMILARITY
from experiments.kernel_diagnostics import REFERENCE_SHORT
from experiments.separability import METHOD
from kpca_core import KERNELS
from lessons.choosing_gamma.experiment import Sweep, align_signs, nearest_index
from lessons.choosing_gamma.figures import (
    format_swept_number,
    format_swept_value,
    separability_vs_value,
    share_vs_value,
    small_multiples,
    spectra_lines,
)
from shell.state import Settings, format_gamma
from words.i18n import N_, _, format_number, join_list, join_sentences
from words.kernel_params import KERNEL_PARAMS, SYMBOLS


def has_gamma(settings: Settings) -> bool:
    return "gamma" in KERNELS[settings.kernel].params


def gamma_only_rescales(settings: Settings) -> bool:
    """The polynomial kernel with c₀ = 0: (γ xᵀy)ᵈ = γᵈ (xᵀy)ᵈ, every γ the same picture."""
    return settings.kernel == "poly" and settings.coef0 == 0


def scores_at(result: Sweep, value: float) -> tuple[int, bool]:
    """The panel for the user's value (nearest on a log scale for γ) and whether it is exact.

    A γ change only moves the highlight: the sweep is never recomputed for it.
    """
    index = nearest_index(result.values, value, log=result.param == "gamma")
    return index, bool(np.isclose(result.values[index], value, rtol=1e-9, atol=1e-12))


def subsample_note(result: Sweep, total: int) -> str:
    """The caption's sentence on the sample swept ('' when every point was)."""
    if result.n < total:
        return _("The sweep uses a stratified sample of {n} of the {total} points, to keep "
                 "{fits} fits quick (the γ hint uses the same sample).").format(
            n=format_number(result.n, ","), total=format_number(total, ","),
            fits=format_number(len(result.values)))
    return ""


def panel_mark(kernel: str) -> str:
    """The short label of the reference panel: the median heuristic for RBF."""
    return _("median") if kernel == "rbf" else _("reference")


def _bounded(settings: Settings) -> bool:
    """k(x, x) = 1 and 0 < k ≤ 1: a flat spectrum then means K ≈ I."""
    return settings.kernel in ("rbf", "laplacian")


def flat_panel_label(settings: Settings) -> str:
    return "K ≈ I" if _bounded(settings) else _("flat spectrum")


def in_text(param: str) -> str:
    """The swept parameter as a sentence names it: γ, c₀, or the degree d (words)."""
    symbol = KERNEL_PARAMS[param].in_text
    return _(symbol) if param == "degree" else symbol


def flat_note(result: Sweep, settings: Settings) -> str:
    """What the panels marked flat show, from their numbers ('' when none is flat)."""
    flat = np.flatnonzero(result.flat)
    if not len(flat):
        return ""
    values = join_list([format_swept_value(result.param, result.values[i]) for i in flat])
    spread = max(result.evaluations[i].leading_share[0] / result.flat_share - 1 for i in flat)
    label, spread = flat_panel_label(settings), format_number(100 * spread, ".1f")
    if _bounded(settings):
        similarity = max(result.evaluations[i].mean_similarity for i in flat)
        return _("Panels marked '{label}' ({values}): the largest eigenvalue μ₁ of K̃ is "
                 "within {spread} % of trace(K̃)/(n − 1), the value every eigenvalue takes "
                 "when all directions are alike; the mean k(xᵢ, xⱼ) of two different points "
                 "is at most {similarity}, so K is nearly the identity: every point resembles "
                 "only itself. Their pictures are one arbitrary pair of many equal directions: "
                 "what this kernel width gives, not an error.").format(
            label=label, values=values, spread=spread,
            similarity=format_number(similarity, ".2g"))
    return _("Panels marked '{label}' ({values}): the largest eigenvalue μ₁ of K̃ is within "
             "{spread} % of trace(K̃)/(n − 1), the value every eigenvalue takes when all "
             "directions are alike. Their pictures are one arbitrary pair of many equal "
             "directions: what this kernel width gives, not an error.").format(
        label=label, values=values, spread=spread)


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
    # The reasons are experiments.kpca_steps.variance_share_problem's sentences.
    reasons = join_sentences([
        _("at {symbol} = {values}, {reason}").format(symbol=symbol, values=join_list(values),
                                                     reason=_(reason))
        for reason, values in by_reason.items()])
    return _("Panels marked 'trace(K̃) < 0' or '≈ 0' have no share of variance: "
             "{reasons}").format(reasons=reasons)


def panels_figure(result: Sweep, y: np.ndarray | None, target_names, settings: Settings,
                  total: int) -> tuple[go.Figure, str, np.ndarray]:
    """Section 1: one panel per swept value, the settings' own framed in red; its caption;
    and the projections drawn, signs aligned (the page offers the red one as a CSV).

    ``y``: the labels of the swept rows; ``total``: the points of the data."""
    param = result.param
    value = getattr(settings, param)
    current, exact = scores_at(result, value)
    marked = (nearest_index(result.values, result.reference)
              if param == "gamma" and result.reference else None)
    aligned = align_signs(result.projections, anchor=current)
    symbol = in_text(param)
    flat_label = flat_panel_label(settings)
    fig = small_multiples(
        aligned, result.values, y, target_names, param=param, current=current,
        current_exact=exact, reference=marked,
        reference_label=panel_mark(settings.kernel), columns=4,
        notes=[flat_label if flat else no_share_label(e) if none else ""
               for flat, none, e in zip(result.flat, result.no_share, result.evaluations,
                                        strict=True)],
        title=_("Components 1 and 2 of kernel PCA") + "<br><sup>"
        + _("{kernel}, {n} values of {symbol}").format(
            kernel=_(KERNELS[settings.kernel].title), n=format_number(len(result.values)),
            symbol=symbol) + "</sup>",
    )
    shown = format_swept_number(param, value)
    if exact:
        text = _("Each panel is the same data projected with a different {symbol}; your "
                 "{symbol} = {value} (red frame). Signs are matched between neighbouring "
                 "panels (an eigenvector's sign is arbitrary), so a change you see is a change "
                 "in shape, not a flip.").format(symbol=symbol, value=shown)
    else:
        text = _("Each panel is the same data projected with a different {symbol}; the panel "
                 "nearest your {symbol} = {value} (red frame). Signs are matched between "
                 "neighbouring panels (an eigenvector's sign is arbitrary), so a change you see "
                 "is a change in shape, not a flip.").format(symbol=symbol, value=shown)
    reference = ""
    if marked is not None:
        reference = _("'{mark}' marks the panel nearest this kernel's reference for these "
                      "data, γ = {formula} = {gamma} (the sidebar's reference too).").format(
            mark=panel_mark(settings.kernel), formula=REFERENCE_FORMULA[settings.kernel],
            gamma=format_gamma(result.reference))
    return (fig, join_sentences([text, reference, flat_note(result, settings),
                                 no_share_note(result), subsample_note(result, total)]),
            aligned)


REFERENCE_FORMULA = {
    "rbf": "1 / median ‖xᵢ − xⱼ‖²",
    "laplacian": "1 / median ‖xᵢ − xⱼ‖₁",
    "poly": "1 / median |xᵢᵀxⱼ|",
    "sigmoid": "1 / median |xᵢᵀxⱼ|",
}


NO_LABELS = N_("These data have no class labels (or a single class), so there is nothing to "
               "separate: use the spectrum below to judge the kernel's width.")


def _best_sentence(param: str, symbol: str, value: str, panels: int, score: str,
                   ties: int) -> str:
    """The best value of the sweep, and how many tie with it."""
    words = dict(symbol=symbol, value=value, n=format_number(panels), score=score,
                 ties=format_number(ties))
    if ties <= 1:
        return _("Best {symbol} = {value} (of these {n} panels): {score} % on components "
                 "1–2.").format(**words)
    if param == "gamma":
        return _("Best {symbol} = {value} (of these {n} panels): {score} % on components 1–2 "
                 "({ties} values tie; the smallest, i.e. the smoothest kernel, is "
                 "marked).").format(**words)
    return _("Best {symbol} = {value} (of these {n} panels): {score} % on components 1–2 "
             "({ties} values tie; the smallest is marked).").format(**words)


def scores_figure(result: Sweep, settings: Settings, total: int) -> tuple[go.Figure, str] | None:
    """Section 2: separability against the swept value, and its caption (None: no labels,
    the page says :data:`NO_LABELS`)."""
    param = result.param
    symbol = SYMBOLS[param]
    if result.score_two is None:
        return None
    best = result.best_index()
    value = getattr(settings, param)
    yours, exact = scores_at(result, value)
    yours_two = result.evaluations[yours].score_two
    yours_k = result.evaluations[yours].score_k
    reference_label = REFERENCE_SHORT.get(settings.kernel, "")
    fig = separability_vs_value(
        result.values, result.score_two, result.score_k, k=result.k,
        linear_two=result.linear_two, param=param, best=best, current_value=value,
        reference_value=result.reference if param == "gamma" else None,
        reference_label=_(reference_label) if reference_label else "",
        title=_("How well a straight line separates the classes, against {symbol}").format(
            symbol=symbol),
    )
    best_value, best_score = result.values[best], result.score_two[best]
    linear = result.linear_two
    ties = int(np.sum(result.score_two >= best_score - 1e-12))
    method = _("Score: {method}, on the kernel PCA coordinates.").format(method=_(METHOD))
    best_text = _best_sentence(param, symbol, format_swept_number(param, best_value),
                               len(result.values), format_number(100 * best_score, ".0f"),
                               ties)
    words = dict(linear=format_number(100 * linear, ".0f"))
    if best_score > linear + 0.05:
        verdict = _("Linear PCA scores {linear} % on its first two components, so the kernel "
                    "adds something linear PCA cannot.").format(**words)
    elif best_score < linear - 0.05:
        verdict = _("Linear PCA scores {linear} % on its first two components, better than "
                    "any kernel width here: the kernel does not help on these data.").format(
            **words)
    else:
        verdict = _("Linear PCA scores {linear} % on its first two components, about the "
                    "same: the kernel does not beat linear PCA on these data.").format(**words)
    scored = dict(symbol=symbol, value=format_swept_number(param, value),
                  two=format_number(100 * yours_two, ".0f"),
                  k_score=format_number(100 * yours_k, ".0f"), k=format_number(result.k))
    if exact:
        at = _("At your {symbol} = {value}: {two} % on components 1–2, {k_score} % on "
               "components 1–{k}.").format(**scored)
    else:
        at = _("At {symbol} = {shown}, the panel nearest your {value}: {two} % on components "
               "1–2, {k_score} % on components 1–{k}.").format(
            shown=format_swept_number(param, result.values[yours]), **scored)
    return fig, join_sentences([method, best_text, verdict, at, subsample_note(result, total)])


# What the spectra do as γ grows: one title per case.
_SPECTRUM_TITLES = {
    "flattens": N_("The spectrum flattens as γ grows (your γ in red)"),
    "sharpens": N_("The spectrum sharpens as γ grows (your γ in red)"),
    "keeps its shape": N_("The spectrum keeps its shape as γ grows (your γ in red)"),
}


def spectrum_title(result: Sweep) -> str:
    """What the spectra do as γ grows, from the leading share at both ends."""
    shares = result.top_share[~result.no_share]
    if len(shares) < 2:  # trace(K̃) ≤ 0 at all but one value: no shape to compare
        return _("The spectrum as γ grows (your γ in red)")
    first, last = shares[0], shares[-1]
    trend = ("flattens" if last < 0.8 * first else "sharpens" if last > 1.25 * first
             else "keeps its shape")
    return _(_SPECTRUM_TITLES[trend])


def _clause(problem: str) -> str:
    """A share problem's sentence (translated) as a clause: lower case, no full stop."""
    text = _(problem)
    return text[0].lower() + text[1:].rstrip(".。")


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
    plane = _("components 1–2 against linear PCA's plane: subspace similarity {similarity} "
              "(1 = the same)").format(similarity=format_number(low.linear_similarity, ".3f"))
    # The shares with their "%" (a "% f" in the message would read as a printf placeholder).
    shares = (_("the first two eigenvalues hold {top} of trace(K̃), against {linear} for "
                "linear PCA's first two components").format(
        top=format_number(top_two, ".1f") + " %", linear=format_number(linear_two, ".1f") + " %")
              if low.share_problem is None else _clause(low.share_problem))
    linear_now = low.linear_similarity >= LINEAR_PLANE
    words = dict(gamma=format_gamma(g_low), plane=plane, shares=shares)
    if kernel in ("rbf", "laplacian") and low.mean_similarity > 0.9:
        words["similarity"] = format_number(low.mean_similarity, ".3f")
        if kernel == "rbf" and linear_now:
            return _("**γ too small ({gamma}): over-smoothing.** Every pair of points looks "
                     "alike (mean k(xᵢ, xⱼ) = {similarity}), and k(x, y) ≈ 1 − γ‖x − y‖², "
                     "which centres to 2γ x̃ᵀỹ: a linear kernel in disguise. Measured: "
                     "{plane}; {shares}.").format(**words)
        if kernel == "rbf":
            return _("**γ too small ({gamma}): over-smoothing.** Every pair of points looks "
                     "alike (mean k(xᵢ, xⱼ) = {similarity}), and k(x, y) ≈ 1 − γ‖x − y‖², "
                     "which centres to 2γ x̃ᵀỹ: a linear kernel in disguise. At this γ it is "
                     "not there yet: {plane}.").format(**words)
        if linear_now:
            return _("**γ too small ({gamma}): over-smoothing.** Every pair of points looks "
                     "alike (mean k(xᵢ, xⱼ) = {similarity}), and k(x, y) ≈ 1 − γ‖x − y‖₁, with "
                     "the L1 distance: centred, that is γ times the double-centred L1 "
                     "distances, not a linear kernel. The picture stops changing as γ "
                     "shrinks, and on these data it lies close to linear PCA's plane: "
                     "{plane}.").format(**words)
        return _("**γ too small ({gamma}): over-smoothing.** Every pair of points looks alike "
                 "(mean k(xᵢ, xⱼ) = {similarity}), and k(x, y) ≈ 1 − γ‖x − y‖₁, with the L1 "
                 "distance: centred, that is γ times the double-centred L1 distances, not a "
                 "linear kernel. The picture stops changing as γ shrinks, but it is not "
                 "linear PCA's: {plane}; {shares}.").format(**words)
    if kernel in ("poly", "sigmoid"):
        words["expansion"] = ("(γ xᵀy + c₀)ᵈ ≈ c₀ᵈ + d c₀ᵈ⁻¹ γ xᵀy" if kernel == "poly"
                              else "tanh(γ xᵀy + c₀) ≈ tanh c₀ + (1 − tanh² c₀) γ xᵀy")
        if result.reference:
            words["typical"] = format_number(g_low / result.reference, ".2g")
            if linear_now:
                return _("At the smallest γ = {gamma} (γ |xᵀy| is typically {typical} there), "
                         "{expansion} is affine in xᵀy, a linear kernel to first order: "
                         "measured, {plane}.").format(**words)
            return _("At the smallest γ = {gamma} (γ |xᵀy| is typically {typical} there), "
                     "{expansion} is affine in xᵀy, a linear kernel to first order: not "
                     "reached at this γ: {plane}; {shares}.").format(**words)
        if linear_now:
            return _("At the smallest γ = {gamma}, {expansion} is affine in xᵀy, a linear "
                     "kernel to first order: measured, {plane}.").format(**words)
        return _("At the smallest γ = {gamma}, {expansion} is affine in xᵀy, a linear kernel "
                 "to first order: not reached at this γ: {plane}; {shares}.").format(**words)
    return _("At the smallest γ = {gamma}, {shares}; {plane}.").format(**words)


# Components 1–2 "span linear PCA's plane" from this subspace similarity on (the γ
# guidance's threshold, experiments.gamma_guidance.LINEAR_SIMILARITY).
LINEAR_PLANE = LINEAR_SIMILARITY


def _large_gamma_text(result: Sweep, similarity: np.ndarray, bounded: bool) -> str:
    """The largest γ of the sweep, from its numbers."""
    high, g_high = result.evaluations[-1], result.values[-1]
    flat = result.flat_share
    top_high = 100 * high.leading_share[0]
    gamma = format_gamma(g_high)
    if high.share_problem is not None:
        return _("At the largest γ = {gamma}: {problem}").format(
            gamma=gamma, problem=_(high.share_problem))
    if bounded and high.leading_share[0] < 5 * flat and similarity[-1] < 0.05:
        return _("**γ too large ({gamma}): under-smoothing, every point its own cluster.** "
                 "Points look unlike each other (mean k(xᵢ, xⱼ) = {similarity}), K approaches "
                 "the identity and K̃ a scaled I − 1/n, whose eigenvalues are all equal: μ₁ "
                 "holds {top} % of trace(K̃), falling towards the flat 1/(n − 1) = {flat} %. "
                 "No direction stands out, so the projection says nothing about the data's "
                 "shape.").format(gamma=gamma, similarity=format_number(similarity[-1], ".2g"),
                                  top=format_number(top_high, ".2f"),
                                  flat=format_number(100 * flat, ".2f"))
    if bounded:
        return _("At the largest γ = {gamma}, μ₁ still holds {top} % of trace(K̃) (a flat "
                 "spectrum would give {flat} %): this kernel does not reach the 'every point "
                 "its own cluster' limit in the range swept.").format(
            gamma=gamma, top=format_number(top_high, ".2f"),
            flat=format_number(100 * flat, ".2f"))
    # k is not bounded by k(x, x): no "K ≈ I" limit to speak of
    return _("At the largest γ = {gamma}, μ₁ holds {top} % of trace(K̃) (a flat spectrum "
             "would give {flat} %).").format(gamma=gamma, top=format_number(top_high, ".3g"),
                                             flat=format_number(100 * flat, ".3g"))


def smoothing_figures(result: Sweep, settings: Settings
                      ) -> tuple[go.Figure, go.Figure, list[str], str]:
    """Section 3: the spectra across γ, the largest share (and the mean similarity) against
    γ, plain words on under- and over-smoothing with the numbers that show them, and a
    note when the kernel is indefinite ('' otherwise)."""
    current = nearest_index(result.values, settings.gamma)
    similarity = np.array([e.mean_similarity for e in result.evaluations])
    bounded = settings.kernel in ("rbf", "laplacian")  # k(x, x) = 1 and 0 < k ≤ 1
    spectra = spectra_lines(
        result.values, [e.leading_share for e in result.evaluations],
        flat_share=result.flat_share, param="gamma", current=current,
        title=spectrum_title(result),
    )
    share = share_vs_value(
        result.values, result.top_share, similarity if bounded else None,
        flat_share=result.flat_share, param="gamma",
        title=_("The largest eigenvalue's share and the mean similarity, against γ") if bounded
        else _("The largest eigenvalue's share, against γ"),
    )
    lines = [small_gamma_text(result, settings), _large_gamma_text(result, similarity, bounded)]
    if result.no_share.any():
        lines.append(_(
            "In between, the kernel's width matches the scale of the structure, and the "
            "leading components pick it up. (μ: an eigenvalue of K̃; μ / trace(K̃) is its share "
            "of the variance in feature space, where trace(K̃) > 0: the charts draw no share at "
            "{values}).").format(values=join_list(
                [f"γ = {format_gamma(v)}" for v in result.values[result.no_share]])))
    else:
        lines.append(_(
            "In between, the kernel's width matches the scale of the structure, and the "
            "leading components pick it up. (μ: an eigenvalue of K̃; μ / trace(K̃) is its share "
            "of the variance in feature space.)"))
    indefinite = (_("The {kernel} kernel is indefinite: some values give negative eigenvalues "
                    "among the leading ones (drawn at the bottom edge of the log scale).").format(
        kernel=_(KERNELS[settings.kernel].title))
        if any(e.n_negative for e in result.evaluations) else "")
    return spectra, share, lines, indefinite
