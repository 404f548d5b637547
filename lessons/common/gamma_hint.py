"""Is γ right for these data? The γ guidance of ``experiments.gamma_guidance`` on a page.

The Explorer and Choosing γ show the same verdict from the same evidence: one search per
dataset, options, standardisation, kernel and kernel parameters other than γ (a quick,
bounded sweep on a stratified sample of at most ``gamma_guidance.SAMPLE_SIZE`` points),
shipped with the code for built-in data at their default options
(``experiments/shipped.py``), else cached server-wide for built-in data and in the
uploading session for an upload; then the verdict on the γ on screen
(:func:`experiments.gamma_guidance.advise`), also shipped or cached.

Where it is not shipped, the search costs 0.3–1 s of CPU the first time, so a page asks
for it *after* its first screen is drawn: :func:`slot` reserves the hint's place under the
charts and :func:`fill` draws into it at the end of the script (at once when the search is
shipped or cached).
"""

from __future__ import annotations

import streamlit as st

from experiments import gamma_guidance
from experiments.gamma_guidance import Guidance, Search
from experiments.kernel_diagnostics import GAMMA_KERNELS
from server import costs
from server.admission import queued
from server.memory import guard_memory
from shell.caches import Inputs, bounded_cache, shipped_for
from shell.sidebar import apply_kernel_params
from shell.state import KernelKey, Settings
from words.i18n import N_, _, format_number

PENDING = N_("Trying other values of γ on these data…")


def _without_gamma(kernel: KernelKey) -> KernelKey:
    """What the search depends on besides the data: everything but γ (one search serves
    every γ)."""
    return KernelKey(kernel.kernel, tuple((k, v) for k, v in kernel.params if k != "gamma"))


# An entry is small: the sample's row numbers, linear PCA's plane on it (≤ 600 × 2) and
# about a dozen trials of a few numbers each.
@bounded_cache(max_entries=32, shared=True)
def _search(inputs: Inputs, kernel: KernelKey, _params: dict) -> Search | None:
    X = inputs.X
    size = min(len(X), gamma_guidance.SAMPLE_SIZE)
    # K and K̃ of the sample (K̃ overwrites K) plus the eigensolver's working copy.
    guard_memory(size, copies=2, what=N_("the γ search's kernel matrix"))
    with queued(size, copies=2, what=N_("the γ search")):
        return gamma_guidance.search(X, inputs.y, kernel=kernel.kernel, kernel_params=_params)


def search(inputs: Inputs, kernel: KernelKey) -> Search | None:
    """The search for these data and kernel (None for kernels without γ): shipped with the
    code for built-in data at their default options, else cached."""
    if kernel.kernel not in GAMMA_KERNELS:
        return None
    return (_shipped_search(inputs, kernel)
            or _search(inputs, _without_gamma(kernel), _params=kernel.kernel_params()))


def _shipped_search(inputs: Inputs, kernel: KernelKey) -> Search | None:
    found = shipped_for(inputs.key)
    return None if found is None else found.search(kernel.kernel, kernel.kernel_params())


def is_cached(inputs: Inputs, kernel: KernelKey) -> bool:
    return (kernel.kernel not in GAMMA_KERNELS
            or _shipped_search(inputs, kernel) is not None
            or _search.cached(inputs, _without_gamma(kernel), _params={}) is not None)


def guidance(inputs: Inputs, kernel: KernelKey, shown_score: float | None) -> Guidance | None:
    """The verdict on the γ (and degree) of ``kernel``. ``shown_score``: what the page
    shows for components 1–2 on all points.

    Where the trial at these parameters is known (the search tried them, or the code
    ships it: a γ of the grid on built-in data) the verdict is a comparison of numbers,
    made here; else one more kernel PCA of the sample (:func:`_guidance`, cached). Numbers
    only: the hint's words are written when it is shown, in the reader's language
    (:class:`experiments.gamma_guidance.Hint`, :func:`no_hint_text`)."""
    found = search(inputs, kernel)
    if found is None:
        return None
    current = gamma_guidance.tried_at(found, kernel.kernel_params())
    if current is None and (shipped := shipped_for(inputs.key)) is not None:
        current = shipped.trial(kernel.kernel, kernel.kernel_params())
    if current is not None:
        return gamma_guidance.verdict(found, current, shown_score=shown_score)
    return _guidance(inputs, kernel, shown_score)


@bounded_cache(max_entries=64, shared=True)  # a handful of numbers an entry
def _guidance(inputs: Inputs, kernel: KernelKey, shown_score: float | None) -> Guidance:
    """The verdict when the trial at the γ on screen has to be computed: cached for every
    session."""
    found = search(inputs, kernel)
    # The trial at the γ on screen: K and K̃ of the sample and its leading pair, a turn
    # like the search's. (Cached values are fetched above: a turn never waits for another
    # computation's key.)
    size = len(found.rows)
    with queued(size, copies=2, estimate=costs.kernel_pca(size, inputs.X.shape[1], 2),
                what=N_("the verdict on this γ")):
        return gamma_guidance.advise(found, inputs.X, inputs.y,
                                     kernel_params=kernel.kernel_params(),
                                     shown_score=shown_score)


def slot(inputs: Inputs, settings: Settings):
    """The hint's place on the page, saying it is on its way when it is not cached."""
    place = st.empty()
    if not is_cached(inputs, settings.kernel_key):
        place.caption(_(PENDING))
    return place


def fill(place, inputs: Inputs, settings: Settings, shown_score: float | None, *,
         key: str) -> Guidance | None:
    """Draw the verdict into ``place``: the hint with its one-click fix, or a line saying
    that nothing tried does clearly better (labelled data)."""
    verdict = guidance(inputs, settings.kernel_key, shown_score)
    with place.container():
        show(verdict, settings, key=key, shown_score=shown_score)
    return verdict


def show(verdict: Guidance | None, settings: Settings, *, key: str,
         shown_score: float | None = None) -> None:
    if verdict is None:
        return
    hint = verdict.hint
    if hint is None:
        if verdict.from_labels:
            st.caption(no_hint_text(verdict, shown_score))
        return
    text_col, button_col = st.columns([5, 1], vertical_alignment="center")
    # A "linear" symptom without labels is an observation, not a fault.
    box = text_col.info if hint.kind == "linear" else text_col.warning
    box(hint.text, icon=":material/tune:")
    degree = hint.degree if hint.degree is not None and hint.degree != settings.degree else None
    button_col.button(hint.button, key=key, on_click=apply_kernel_params,
                      args=(hint.gamma, degree), width="stretch")


# "γ check: … none separates components 1–2 clearly better": (on a sample?, the score
# here known?, the page's own score beside it?) → the sentence.
_NO_HINT = {
    (False, False, False): N_(
        "γ check: {n_tried} settings tried; none separates components 1–2 clearly better than "
        "this one (best: {best} with {what}; linear PCA {linear})."),
    (False, True, False): N_(
        "γ check: {n_tried} settings tried; none separates components 1–2 clearly better than "
        "this one (best: {best} with {what}; here {here}; linear PCA {linear})."),
    (True, False, False): N_(
        "γ check: {n_tried} settings tried on a stratified sample of {n_sample} of the "
        "{n_total} points; none separates components 1–2 clearly better than this one (best: "
        "{best} with {what}; linear PCA {linear})."),
    (True, True, False): N_(
        "γ check: {n_tried} settings tried on a stratified sample of {n_sample} of the "
        "{n_total} points; none separates components 1–2 clearly better than this one (best: "
        "{best} with {what}; here {here}; linear PCA {linear})."),
    (True, True, True): N_(
        "γ check: {n_tried} settings tried on a stratified sample of {n_sample} of the "
        "{n_total} points; none separates components 1–2 clearly better than this one (best: "
        "{best} with {what}; here {here} on the sample, {shown} on all {n_total} points as "
        "shown above; linear PCA {linear})."),
}


def no_hint_text(verdict: Guidance, shown_score: float | None = None) -> str:
    """Labelled data, no hint: what was tried and how the γ on screen compares.

    ``shown_score``: the page's own score on all the points; on a sample the sample's
    score differs from it, and the sentence says which is which."""
    best = verdict.best
    sampled = verdict.n_sample != verdict.n_total
    here = verdict.current_score is not None
    beside = sampled and here and shown_score is not None

    def percent(score: float | None) -> str:
        return "" if score is None else format_number(100 * score, ".0f") + "%"

    return _(_NO_HINT[sampled, here, beside]).format(
        n_tried=verdict.n_tried, n_sample=format_number(verdict.n_sample, ","),
        n_total=format_number(verdict.n_total, ","), best=percent(verdict.best_score),
        what=gamma_guidance.params_text(best.gamma, best.degree),
        here=percent(verdict.current_score), shown=percent(shown_score),
        linear=percent(verdict.linear_score))
