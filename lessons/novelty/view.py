"""The novelty page's sections: which points are normal, the error formula and its check,
the error over the plane, the ROC curves beside the baselines, and a threshold to move.

Which class is normal and the threshold travel in the link (``normal=all``, ``normal=2``,
``threshold=95``), the page's own parameters in ``shell/registry.py``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from experiments.checks import Check
from experiments.novelty import (
    BASELINES,
    NU,
    OFF_SHAPE,
    SEED,
    Split,
    novelty_split,
    off_shape_candidates,
    off_shape_search_bytes,
    off_shape_search_copies,
)
from lessons.common.page_link import asked_by_link, written
from lessons.novelty.experiment import (
    CHECKED_MAX,
    EXPLICIT_MAX_TRAIN,
    KPCA,
    Novelty,
    comparison_sentence,
    flagged,
    nothing_to_score,
    novelty,
    rates,
    threshold,
    threshold_sentence,
)
from lessons.novelty.figures import error_map, roc_figure
from server import costs
from server.admission import queued, taking_turn
from server.memory import guard_memory
from shell import findings
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption
from shell.figures import digit_mosaic, plot_text, shown_class_label
from shell.registry import NOVELTY_MAX_TRAIN, novelty_training
from shell.state import KernelKey, Settings
from words.i18n import N_, _, format_number, join_sentences, ngettext
from words.text import quoted

Q_NORMAL, Q_THRESHOLD = "normal", "threshold"  # the page's link parameters
K_NORMAL, K_THRESHOLD = "w_novelty_normal", "w_novelty_threshold"
_WRITTEN = "_novelty_link"  # what the page last wrote to the address bar
ALL = "all"
THRESHOLD_DEFAULT, THRESHOLD_MIN, THRESHOLD_MAX = 95.0, 50.0, 100.0
CHECK_TOLERANCE = 1e-8  # relative to the largest ‖φ̃(x)‖²
SEARCH_WHAT = N_("the search for outliers off the shape")  # as the guard and the queue name it
# Kernel PCA's K and its solver's copy, the test kernels (n × n blocks), the one-class
# SVM's kernel: at most 2.2 n × n float64 at once, measured with tracemalloc at 1,000
# training points (the registry states 3).
COPIES = 3
# The explicit check holds about ten arrays of (its training points + checked points)²,
# at most (EXPLICIT_MAX_TRAIN + CHECKED_MAX)²: below ~600 training points that is more
# than COPIES n × n (measured: 7.8 MB at 300 training points). The turn asks for it.
CHECK_ENTRIES = 10 * (EXPLICIT_MAX_TRAIN + CHECKED_MAX) ** 2


def copies_for(side: int) -> float:
    """n × n matrices a turn of ``side`` training points asks for: COPIES, or the explicit
    check's fixed size when that is more."""
    return max(COPIES, CHECK_ENTRIES / max(side, 1) ** 2)


def default_normal(data) -> str:
    """Digits: one class is normal (the others are the outliers); other data: all points
    (the outliers are drawn off their shape)."""
    return "1" if data.image_shape is not None and data.y is not None else ALL


def from_link(query: Mapping[str, Any], n_classes: int) -> tuple[dict[str, Any], list[str]]:
    """The normal class (``all`` or 1 … c) and the threshold (a percentile of the training
    errors, 50 … 100) a link asks for, with one warning per bad value."""
    query = {str(k): (v[-1] if isinstance(v, list | tuple) and v else v)
             for k, v in query.items()}
    chosen: dict[str, Any] = {}
    warnings = []
    if Q_NORMAL in query:
        raw = str(query[Q_NORMAL]).strip().lower()
        if raw == ALL or (raw.isdigit() and 1 <= int(raw) <= n_classes):
            chosen["normal"] = raw
        else:
            warnings.append(
                _("Link parameter `{name}` should be all or a class from 1 to {classes}, not "
                  "{value}.").format(name=Q_NORMAL, classes=n_classes, value=quoted(raw))
                if n_classes else
                _("Link parameter `{name}` should be all, not {value}.").format(
                    name=Q_NORMAL, value=quoted(raw)))
    if Q_THRESHOLD in query:
        raw = str(query[Q_THRESHOLD]).strip()
        try:
            value = float(raw)
        except ValueError:
            value = float("nan")
        if THRESHOLD_MIN <= value <= THRESHOLD_MAX:
            chosen["threshold"] = value
        else:
            warnings.append(_("Link parameter `{name}` should be a percentage from {low} to "
                              "{high}, not {value}; using {default}.").format(
                name=Q_THRESHOLD, low=format_number(THRESHOLD_MIN, "g"),
                high=format_number(THRESHOLD_MAX, "g"), value=quoted(raw),
                default=format_number(THRESHOLD_DEFAULT, "g")))
    return chosen, warnings


def normal_choice(data) -> int | None:
    """Which points are normal: a select box (all points, or one class), from the link
    when it asks (``lessons.common.page_link``). Returns the class label, or None for all."""
    ss = st.session_state
    names = [] if data.y is None else [shown_class_label(data.target_names, int(c), data.y)
                                       for c in np.unique(data.y)]
    labels = [] if data.y is None else [int(c) for c in np.unique(data.y)]
    first = K_NORMAL not in ss or K_THRESHOLD not in ss
    asked = asked_by_link((Q_NORMAL, Q_THRESHOLD), _WRITTEN, first=first)
    if asked or first:  # the first run, or a link asking for another view
        chosen, warnings = from_link(asked, len(labels))
        for warning in warnings:
            st.warning(warning, icon=":material/link_off:")
        if "normal" in chosen or first:
            ss[K_NORMAL] = chosen.get("normal", ss.get(K_NORMAL, default_normal(data)))
        if "threshold" in chosen or first:
            ss[K_THRESHOLD] = chosen.get("threshold", ss.get(K_THRESHOLD, THRESHOLD_DEFAULT))
    options = [ALL] + [str(i + 1) for i in range(len(labels))]
    if ss[K_NORMAL] not in options:  # other data: fall back
        ss[K_NORMAL] = default_normal(data) if default_normal(data) in options else ALL
    one_class = (_("digit {name} (outliers: the other classes)")
                 if data.image_shape is not None else
                 _("{name} (outliers: the other classes)"))
    titles = {ALL: _("all points (outliers: drawn off their shape)")} | {
        option: one_class.format(name=plot_text(names[int(option) - 1]))
        for option in options[1:]}
    left, _right = st.columns(2)
    with left:
        picked = st.selectbox(
            _("Normal data"), options, key=K_NORMAL, format_func=titles.__getitem__,
            help=_("Kernel PCA is fitted on normal points only; a quarter of them is held out "
                   "and scored against as many outliers."))
    written({**st.session_state.get(_WRITTEN, {}), Q_NORMAL: picked}, _WRITTEN)
    return None if picked == ALL else labels[int(picked) - 1]


def threshold_slider() -> float:
    value = st.slider(
        _("Threshold: the training error's percentile"), THRESHOLD_MIN, THRESHOLD_MAX,
        key=K_THRESHOLD, step=0.5, format="%g %%",
        help=_("A point is flagged as novel when its error exceeds the error of this share of "
               "the training points."))
    written({**st.session_state.get(_WRITTEN, {}), Q_THRESHOLD: f"{value:g}"}, _WRITTEN)
    return float(value)


def training_size(n_normal: int) -> int:
    """Normal points fitted on: those not held out, at most the cap (the registry's)."""
    return novelty_training(n_normal)


def estimate(n: int, d: int, q: int) -> costs.Estimate:
    """Kernel PCA on n points (q + 1 components), the test kernels of ~n scored points
    and of the map, the one-class SVM on the same kernel (about an eigendecomposition's
    worth), the explicit check's whole eigendecomposition of n + 200 points."""
    return (costs.kernel_pca(n, d, q + 1) + 3 * costs.kernel_matrix(n, n, d)
            + costs.leading_dense(n) + 3 * costs.all_eigenvalues(n + 200))


def split(inputs: Inputs, normal: int | None) -> Split:
    """The training points, the held-out normal points and the outliers (``normal``: the
    normal class, or None for all points)."""
    return _split(inputs, normal)


# An entry: two index arrays and at most a quarter of the points as outliers.
@bounded_cache(max_entries=12)
def _split(inputs: Inputs, normal: int | None) -> Split:
    X, y = inputs.X, inputs.y
    if normal is not None:  # the other classes' points: nothing to search
        return novelty_split(X, y, normal, max_train=NOVELTY_MAX_TRAIN)
    # The search off the shape: rounds of 10 m candidates against the n points (m, the
    # held-out quarter), their nearest distances (scikit-learn's kneighbors); at least one.
    candidates = off_shape_candidates(len(X))
    with taking_turn(off_shape_search_bytes(len(X), X.shape[1]),
                     estimate=costs.kernel_matrix(candidates, len(X), X.shape[1]).lower_bound(),
                     what=SEARCH_WHAT):
        return novelty_split(X, y, normal, max_train=NOVELTY_MAX_TRAIN)


def guard_search(X: np.ndarray) -> None:
    """The memory guard's refusal when the search for outliers off the shape would hold
    more than one computation may: its own turn, over before the fit starts, so the page's
    peak is the larger of the two and each is guarded alone."""
    d = X.shape[1]
    guard_memory(off_shape_candidates(len(X)), d, copies=off_shape_search_copies(d),
                 what=SEARCH_WHAT)


def require_something_to_score(split: Split, data) -> None:
    """Stop the page, saying why and what to change, when the split leaves nothing to fit
    on or nothing to score (:func:`lessons.novelty.experiment.nothing_to_score`)."""
    classes = 0 if data.y is None else len(np.unique(data.y))
    problem = nothing_to_score(split, classes)
    if problem is not None:
        st.warning(problem, icon=":material/search_off:")
        st.stop()


def compute(inputs: Inputs, settings: Settings, normal: int | None) -> Novelty:
    return _novelty(inputs, settings.kernel_key, settings.n_components, normal)


# An entry: the errors and scores of ≤ 2,000 points, three ROC curves and a 100² map:
# well under 1 MB.
@bounded_cache(max_entries=12)
def _novelty(inputs: Inputs, kernel: KernelKey, q: int, normal: int | None) -> Novelty:
    X, y = inputs.X, inputs.y
    n_normal = len(X) if normal is None else int(np.sum(y == normal))
    side = training_size(n_normal)
    with queued(side, copies=copies_for(side), estimate=estimate(side, X.shape[1], q),
                what=N_("novelty detection and its two baselines")):
        return novelty(X, y, kernel=kernel.kernel, kernel_params=kernel.kernel_params(),
                       q=q, normal=normal, max_train=NOVELTY_MAX_TRAIN,
                       split=_split(inputs, normal))


def formula(result: Novelty) -> None:
    """Hoffmann's error, and its live check against explicit feature vectors."""
    st.latex(r"p(x) = \underbrace{k(x,x) - \tfrac{2}{n}\sum_i k(x, x_i) + \tfrac{1}{n^2}"
             r"\sum_{i,j} k(x_i, x_j)}_{\lVert \varphi(x) - \bar\varphi \rVert^2}"
             r" \;-\; \sum_{l=1}^{q} f_l(x)^2,\qquad f_l(x) = \sum_i \alpha_i^l\,"
             r"\tilde k(x_i, x)")
    st.caption(_(
        "The squared distance from φ(x) to the mean of the training points, minus the part "
        "of it along the first q = {q} components: what is left is the distance to "
        "the principal subspace, the reconstruction error in feature space (Hoffmann 2007). "
        "It needs only k(x, x), the kernel row of x to the training points and the training "
        "statistics.").format(q=result.q))
    check = result.check
    if check.gap is None:
        number_caption(_("Not checked against an explicit computation here: {why}.").format(
            why=check.why_text()))
        return
    label = (_("largest |p(x) from the kernel formula − p(x) from explicit feature vectors and "
               "scikit-learn's PCA| / max ‖φ(x) − φ̄‖², over {points} held-out and outlier "
               "points, on a fit to a sample of {sample} of the {of} training points")
             if check.sample else
             _("largest |p(x) from the kernel formula − p(x) from explicit feature vectors and "
               "scikit-learn's PCA| / max ‖φ(x) − φ̄‖², over {points} held-out and outlier "
               "points"))
    show_check(Check(label.format(points=check.points, sample=check.sample,
                                  of=format_number(check.of, ",")),
                     check.gap, CHECK_TOLERANCE))
    st.caption(_("Explicit feature vectors: {how}; PCA with {q} components fitted "
                 "on the training points' vectors, each point's vector minus its "
                 "reconstruction (inverse_transform).").format(how=_(check.how), q=result.q))


def plane_map(result: Novelty, data, X: np.ndarray, cut: float, settings: Settings) -> None:
    xs, ys, values = result.grid
    split = result.split
    names = [plot_text(name) for name in data.feature_names[:2]]
    if settings.standardize:
        names = [_("{name} (standardised)").format(name=name) for name in names]
    fig = error_map(xs, ys, values, train=X[split.train], held=X[split.held_out],
                    outliers=split.outliers, cut=cut,
                    title=_("Reconstruction error p(x) over the plane, q = {q}").format(
                        q=result.q),
                    axis_titles=names)
    show_chart(fig, key="novelty_map")
    number_caption(_("Colour: p(x) on a {columns} × {rows} grid (pale: close to the "
                     "principal subspace of the training points; dark: far from it). Green "
                     "line: the threshold p(x) = {cut}; points outside it are flagged as "
                     "novel.").format(columns=len(xs), rows=len(ys),
                                      cut=format_number(cut, ".4g")))


def components_note(result: Novelty, asked: int) -> None:
    """What q is and does: the sidebar's number of components (fewer when fewer carry
    variance), and p(x) falling with each one more."""
    if not result.eigenvalues[0] > 0:
        number_caption(_("The sidebar asks for {asked} components, and no eigenvalue of K̃ "
                         "rises above the rounding of K: no component is kept, and p(x) is "
                         "all of ‖φ(x) − φ̄‖².").format(asked=asked))
        return
    where = (_("q = {q}, the sidebar's number of components: the dimension of the principal "
               "subspace the points are measured against.").format(q=result.q)
             if result.q == asked else
             ngettext("q = {q}: the sidebar asks for {asked} components, and only {q} has "
                      "an eigenvalue above the rounding of K.",
                      "q = {q}: the sidebar asks for {asked} components, and only {q} have "
                      "an eigenvalue above the rounding of K.", result.q).format(
                 q=result.q, asked=asked))
    role = _("With each component more, p(x) falls for every point: its part along that "
             "component leaves the error. An outlier is found when more of it lies outside "
             "the subspace than of the normal points.")
    number_caption(join_sentences((where, role)))


def seeds_note() -> None:
    number_caption(_("The random choices are seeded (seed {seed}), so the same settings give "
                     "the same page: which normal points are held out, the outliers drawn or "
                     "sampled, the isolation forest's trees and the eigensolver's start "
                     "vector.").format(seed=SEED))


def outliers_note(result: Novelty, data) -> None:
    split = result.split
    n, held = len(split.outliers), len(split.held_out)
    if split.kind == "off the shape":
        st.caption(ngettext(
            "Outliers: {n} point drawn uniformly in the data's box (with a margin), kept only "
            "if farther from every normal point than {factor} × the normal points' median "
            "nearest-neighbour distance.",
            "Outliers: {n} points drawn uniformly in the data's box (with a margin), kept only "
            "if farther from every normal point than {factor} × the normal points' median "
            "nearest-neighbour distance.", n).format(
            n=n, factor=format_number(OFF_SHAPE, "g")))
        if n < held:
            st.warning(ngettext(
                "Only {n} such point could be drawn (the shape fills its box): the ROC curve "
                "compares fewer outliers than normal points.",
                "Only {n} such points could be drawn (the shape fills its box): the ROC curve "
                "compares fewer outliers than normal points.", n).format(n=n),
                icon=":material/scatter_plot:")
    elif n < held:  # the other classes have fewer points than are held out: all of them
        st.caption(ngettext(
            "Outliers: {n} point, the only one of the other classes, fewer than the {held} "
            "held-out normal points.",
            "Outliers: all {n} points of the other classes, fewer than the {held} held-out "
            "normal points.", n).format(n=n, held=held))
    else:
        st.caption(ngettext(
            "Outliers: {n} point of the other classes, a seeded sample as large as the "
            "held-out normal points.",
            "Outliers: {n} points of the other classes, a seeded sample as large as the "
            "held-out normal points.", n).format(n=n))


def roc(result: Novelty, cut: float) -> None:
    false_alarm, found = rates(result, cut)
    fig = roc_figure(result.curves, result.aucs, marker=(false_alarm, found),
                     title=_("ROC curves<br><sup>held-out normal points against "
                             "outliers</sup>"))
    show_chart(fig, key="novelty_roc")
    table = pd.DataFrame({_("method"): [_(KPCA), *(_(b) for b in BASELINES)],
                          "AUC": [result.aucs[KPCA], *(result.aucs[b] for b in BASELINES)],
                          _("fit"): [
                              _("the training points' kernel PCA, q = {q}").format(q=result.q),
                              _("the same kernel (scikit-learn's), ν = {nu}").format(
                                  nu=format_number(NU, "g")) if result.svm_gamma is None else
                              _("an RBF kernel, γ = {gamma} (median heuristic), ν = {nu}")
                              .format(gamma=format_number(result.svm_gamma, ".3g"),
                                      nu=format_number(NU, "g")),
                              _("the inputs, 100 trees")]})
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"AUC": st.column_config.NumberColumn(format="%.3f")})
    text = comparison_sentence(result)
    findings.publish("novelty_auc", text)
    number_caption(text)


def threshold_section(result: Novelty, percent: float) -> None:
    text = threshold_sentence(result, percent)
    findings.publish("novelty_threshold", text)
    number_caption(text)


def cut_for(result: Novelty, percent: float) -> float:
    return threshold(result.train_errors, percent)


MOST_NOVEL = 12


def most_novel(result: Novelty, data, X: np.ndarray, cut: float) -> None:
    """Images: the scored digits with the largest errors, and how many are outliers."""
    if data.image_shape is None:
        return
    split = result.split
    images = np.vstack([X[split.held_out], split.outliers])
    errors = np.r_[result.held_errors, result.outlier_errors]
    outlier = np.r_[np.zeros(len(split.held_out), bool), np.ones(len(split.outliers), bool)]
    rows = np.r_[split.held_out, split.outlier_rows if split.outlier_rows is not None
                 else np.full(len(split.outliers), -1)]
    top = np.argsort(-errors, kind="stable")[:MOST_NOVEL]

    def label(i: int) -> str:
        error = format_number(errors[i], ".4g")
        if rows[i] >= 0 and data.y is not None:
            digit = shown_class_label(data.target_names, int(data.y[rows[i]]), data.y)
            return (_("outlier, digit {digit}, p(x) = {error}") if outlier[i] else
                    _("held-out normal, digit {digit}, p(x) = {error}")).format(
                digit=digit, error=error)
        return (_("outlier, p(x) = {error}") if outlier[i] else
                _("held-out normal, p(x) = {error}")).format(error=error)

    fig = digit_mosaic(images[top], data.image_shape, columns=min(MOST_NOVEL, len(top)),
                       hover_labels=[label(i) for i in top],
                       title=_("The {count} scored digits with the largest error").format(
                           count=len(top)))
    show_chart(fig, key="novelty_most_novel")
    found = int(outlier[top].sum())
    above = int(flagged(errors[top], cut, result.rounding).sum())
    number_caption(_("{found} of these {count} are outliers and {normal} held-out "
                     "normal digits; {flagged} are flagged as novel.").format(
        found=found, count=len(top), normal=len(top) - found, flagged=above))
