"""Predict, then reveal: the questions asked before a view is drawn, checked live.

Each question has a fixed id, prompt and option texts (:data:`CATALOGUE`: the class tally
counts options by number, and the lecturer's page shows them); *which* option is right,
and why each option is right or wrong, is computed by :func:`build` from the data and
settings on screen wherever it depends on them, so a student who moves γ or changes the
dataset gets the answer for the view they will see. A question whose answer is a fact of
the algorithm (n² memory, pre-images) still says it with the numbers of this view.

Plain Python (no Streamlit): ``classroom/predict.py`` draws the questions, the tour
(``classroom/tour.py``) names one per step and the registry one per lesson page.
Questions that compute are computed on at most :data:`MAX_N` points (a few
eigendecompositions of an n × n matrix); past that :func:`build` returns None and the
view is shown unasked.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

import numpy as np

from experiments import novelty
from experiments.alignment import centred_alignment
from experiments.feature_maps import quadratic_lift
from experiments.gamma_guidance import LINEAR_SIMILARITY, SAMPLE_SIZE
from experiments.graph_kernels import (
    classical_mds_kernel,
    geodesic_distances,
    graph_pieces,
    join_pieces,
    mds_kernel,
    neighbour_graph,
    rank_correlation,
)
from experiments.kernel_diagnostics import (
    SATURATED_VALUE,
    SPECTRUM_TOP,
    format_gamma,
    gamma_grid,
    nearest_gamma_index,
    reference_gamma,
    saturated_share,
    signed,
    subspace_similarity,
)
from experiments.kpca_steps import fit_kpca, rounding_floor
from experiments.sampling import stratified_rows
from experiments.separability import linear_separability
from kpca_core import KERNELS, KernelPCA, center_kernel, compute_kernel, eigendecompose
from shell.registry import NOVELTY_MAX_TRAIN
from shell.state import Settings
from words.i18n import N_, _, format_number, join_sentences, ngettext

MAX_N = 1000
SEPARATES = 0.95  # "separates": cross-validated accuracy of a linear classifier
PARTLY = 0.70
# "How many components": counted up to this many leading ones; beyond, "none of these".
MOST_COMPONENTS = 10
# Scores within this of the best are as good (the cross-validated score's own noise).
TIE = 0.02
# Components within this share of their size of affine functions of x: the classifier's
# boundary is a hyperplane to the eye (one pixel in a thousand), whatever the kernel.
NEARLY_AFFINE = 1e-3
AFFINE_PAIRS = 200  # pairs of points whose midpoints test whether a component is affine
# Two leading eigenvalues closer than this many times the rounding of K's entries leave
# the plane of components 1–2 undetermined (any pair in their eigenspace is as good).
UNDETERMINED_GAP = 100.0
# The γ question's options: the smallest, the reference and the largest of the page's panels.
GAMMA_OPTIONS = ("smallest", "reference", "largest")


@dataclass(frozen=True)
class Option:
    text: str
    right: bool
    why: str


@dataclass(frozen=True)
class Question:
    """One question as asked now: its options, each right or wrong with the reason."""

    id: str
    prompt: str
    options: tuple[Option, ...]

    @property
    def right(self) -> tuple[int, ...]:
        return tuple(i for i, option in enumerate(self.options) if option.right)


# id → (prompt, option texts), as messages (N_: translated where they are asked, with
# :func:`catalogue`); an option text with a value is (message, its values). Fixed: the
# class tally counts by option number, and the lecturer's page shows these texts (a
# question whose options name this view's numbers, the γ question, says here what each
# option is). A text that is only a number is not a message.
_MOST = {"most": MOST_COMPONENTS}
_TABLE: dict[str, tuple[str, tuple[str | tuple[str, dict], ...]]] = {
    "separation": (
        N_("How well will components 1 and 2 separate the classes in this view?"),
        (N_("Almost perfectly (≥ 95 %)"), N_("Partly (70–95 %)"), N_("Hardly (< 70 %)")),
    ),
    "zero_eigenvalues": (
        N_("Take the first 3 points: how many eigenvalues of their centred kernel matrix K̃ "
           "are (numerically) zero?"),
        ("0", "1", "2", "3"),
    ),
    "lift_plane": (
        N_("Lift the points to (x₁², √2 x₁x₂, x₂²). Can a flat plane separate the classes "
           "there?"),
        (N_("Yes, almost perfectly (≥ 95 %)"), N_("No, not that well")),
    ),
    "best_gamma": (
        N_("Of the γ values on this page's panels, which separates the classes best on "
           "components 1 and 2?"),
        (N_("The smallest γ of the panels"), N_("The panel at the kernel's reference γ"),
         N_("The largest γ of the panels"), N_("Another of the panels")),
    ),
    "components_needed": (
        N_("How many leading components does it take to tell the classes apart (≥ 95 %)?"),
        ("1", "2", (N_("3 to {most}"), _MOST), (N_("None of these: not even {most}"), _MOST)),
    ),
    "forget_centring": (
        N_("Forget to centre K. Do the first two components change?"),
        (N_("Yes, visibly"), N_("No, hardly")),
    ),
    "preimage": (
        N_("A point projected onto a few components in feature space: is it always φ of some "
           "image?"),
        (N_("Yes, exactly"), N_("No, in general no image maps there")),
    ),
    "classifier_boundary": (
        N_("A linear classifier on these kernel principal components: what boundary does it "
           "draw in the input space?"),
        (N_("A straight one (a hyperplane)"), N_("A curved one")),
    ),
    "memory_doubling": (
        N_("n doubles. How much more memory does the kernel matrix K need?"),
        (N_("2 ×"), N_("4 ×"), N_("8 ×")),
    ),
    # The tour's second part, "Beyond kernel PCA".
    "unroll": (
        N_("Classical MDS and Isomap (6 neighbours): whose component 1 lists the classes in "
           "their order, such as a roll's segments from its centre out (rank correlation ≥ "
           "0.9)?"),
        (N_("Isomap only"), N_("Classical MDS only"), N_("Both"), N_("Neither")),
    ),
    "graph_pieces": (
        N_("Join each point to its 6 nearest neighbours. Into how many pieces does the graph "
           "fall?"),
        ("1", "2", N_("3 or more")),
    ),
    "novelty_vs_svm": (
        N_("Fitted on normal points only: which flags the outliers better here (area under "
           "the ROC curve)?"),
        (N_("Kernel PCA's reconstruction error"), N_("The one-class SVM"),
         N_("About the same (within 0.02)")),
    ),
    "alignment_linear": (
        N_("Which kernel matrix is better aligned with the labels (centred kernel–target "
           "alignment): the linear kernel's, or this view's kernel's?"),
        (N_("The linear kernel's"), N_("This view's kernel's"),
         N_("About the same (within 0.02)")),
    ),
}


def _text(entry: str | tuple[str, dict], translate) -> str:
    message, values = entry if isinstance(entry, tuple) else (entry, {})
    shown = message if message.isdigit() else translate(message)
    return shown.format(**values) if values else shown


def _english(message: str) -> str:
    return message


def catalogue(question_id: str) -> tuple[str, tuple[str, ...]]:
    """The question's prompt and fixed option texts in the language of this run."""
    prompt, options = _TABLE[question_id]
    return _(prompt), tuple(_text(option, _) for option in options)


# id → (prompt, option texts) in English: the tally's and the tests' fixed words.
CATALOGUE: dict[str, tuple[str, tuple[str, ...]]] = {
    question_id: (prompt, tuple(_text(option, _english) for option in options))
    for question_id, (prompt, options) in _TABLE.items()
}


def _asked(question_id: str, rights: list[bool], whys: list[str],
           texts: list[str] | None = None) -> Question:
    prompt, fixed = catalogue(question_id)
    texts = list(fixed) if texts is None else texts
    return Question(question_id, prompt,
                    tuple(Option(t, r, w) for t, r, w in zip(texts, rights, whys, strict=True)))


def _verdict(right: bool, why: str) -> str:
    """An option's verdict: whether it is right, and why (a clause of this view's numbers)."""
    return (_("Right: {why}.") if right else _("No: {why}.")).format(why=why)


def _verdicts(rights: list[bool], whys: list[str]) -> list[str]:
    return [_verdict(r, w) for r, w in zip(rights, whys, strict=True)]


def _then(first: str, second: str) -> str:
    """Two sentences one after the other (English: a space between; Chinese: none)."""
    return join_sentences([first, second])


def _fit(X: np.ndarray, settings: Settings, k: int, **params):
    """The pages' own kernel PCA fit of X with ``k`` components (``params`` override the
    settings' kernel parameters): eigenvalues below the rounding of K count as 0."""
    return fit_kpca(X, kernel=settings.kernel,
                    kernel_params={**settings.kernel_params(), **params}, n_components=k)


def _projection(X: np.ndarray, settings: Settings, k: int) -> np.ndarray:
    """The first ``k`` kernel principal components of X: the pages' own fit."""
    return _fit(X, settings, k).projection


def _top(M: np.ndarray, k: int) -> tuple[np.ndarray, np.ndarray]:
    """The ``k`` largest eigenpairs of the symmetric ``M``, largest first (kpca_core's
    solver: ARPACK past 200 points, which lets other sessions run while it computes)."""
    pairs = eigendecompose(M, k, random_state=0, check_symmetry=False)
    return pairs.eigenvalues, pairs.eigenvectors


def _score(Z: np.ndarray, y: np.ndarray) -> float:
    # No warnings.catch_warnings() here: it is not thread-safe, and every session's
    # script runs in a thread of one process.
    return float(linear_separability(Z, y))


def _pct(score: float) -> str:
    return format_number(100 * score, ".0f") + "\u00a0%"  # no line break before the %


def affine_kernel(settings: Settings) -> bool:
    """Whether k(x, y) is an affine function of xᵀy, so that φ is affine in x: the linear
    kernel and the polynomial kernel of degree 1, (γ xᵀy + c₀)¹."""
    return settings.kernel == "linear" or (settings.kernel == "poly" and settings.degree == 1)


def _plane_undetermined(fit) -> bool:
    """Whether components 1–2 of ``fit`` (three or more components) are any pair of
    directions in one eigenspace: μ₂ is live and μ₃ equals it to within the rounding of K
    (at γ → ∞, K → I and K̃ → H, whose n − 1 eigenvalues are all 1)."""
    mu = fit.eigenvalues
    if len(mu) < 3 or fit.kernel_scale is None:
        return False
    floor = rounding_floor(len(fit.projection), fit.kernel_scale)
    return bool(mu[1] > floor and mu[1] - mu[2] <= UNDETERMINED_GAP * floor)


def _separation(X, y, settings):
    fit = _fit(X, settings, min(3, len(X)))
    if _plane_undetermined(fit):
        # Which pair of the eigenspace's directions the solver returns decides the score:
        # every answer is as good as the picture it would draw.
        why = _("μ₂ and μ₃ of K̃ are equal to within the rounding of K here, so components "
                "1–2 are any pair of directions in one eigenspace and their score is "
                "arbitrary: every answer is right")
        return [[True] * 3, _verdicts([True] * 3, [why] * 3)]
    score = _score(fit.projection[:, :2], y)
    bands = [score >= SEPARATES, PARTLY <= score < SEPARATES, score < PARTLY]
    shown = _pct(score)
    whys = [
        (_("components 1–2 score {score} here (a linear classifier, cross-validated)")
         if bands[0] else
         _("components 1–2 score {score} here, below 95 % (a linear classifier, "
           "cross-validated)")).format(score=shown),
        (_("{score} is between 70 and 95 %") if bands[1] else
         _("{score} is not between 70 and 95 %")).format(score=shown),
        (_("{score} is below 70 %") if bands[2] else
         _("{score} is not below 70 %")).format(score=shown),
    ]
    return [bands, _verdicts(bands, whys)]


def _zero_eigenvalues(X, y, settings):
    # "Zero" on the scale of K, whose entries' rounding every eigenvalue of K̃ carries
    # (experiments.kpca_steps.rounding_floor), not of K̃: when K ≈ all ones K̃ is tiny,
    # and a cut relative to K̃'s own largest eigenvalue misses the zero of K̃ 1 = 0.
    K = compute_kernel(X[:3], kernel=settings.kernel, **settings.kernel_params())
    floor = rounding_floor(3, float(np.abs(K).max()))
    mu = np.linalg.eigvalsh(center_kernel(K))
    zeros = int(np.sum(np.abs(mu) <= floor))
    shown = ", ".join(signed(m, ".2g") for m in sorted(mu, key=abs, reverse=True))
    if floor > 0:
        seen = ngettext(
            "here K̃'s eigenvalues are {values}, and the rounding of K's entries is about "
            "{floor} (10 · n · ε · max|K|): {zeros} is zero to within it",
            "here K̃'s eigenvalues are {values}, and the rounding of K's entries is about "
            "{floor} (10 · n · ε · max|K|): {zeros} are zero to within it",
            zeros).format(values=shown, floor=signed(floor, ".2g"), zeros=zeros)
    else:
        seen = _("here K is all zeros, and so are K̃ and its 3 eigenvalues")
    whys = []
    for count in range(4):
        if count == zeros:
            whys.append(_("Right: {seen}. Centring makes every row of K̃ sum to 0, so the "
                          "all-ones vector always has eigenvalue 0.").format(seen=seen))
        elif count == 0:
            whys.append(_("No: centring always costs one dimension (K̃ 1 = 0); {seen}.")
                        .format(seen=seen))
        else:
            whys.append(_verdict(False, seen))
    return [[c == zeros for c in range(4)], whys]


def _lift_plane(X, y, settings):
    if X.shape[1] != 2:
        return None
    score = _score(quadratic_lift(X, gamma=1.0), y)
    yes = score >= SEPARATES
    seen = _("a plane fitted in the lifted space scores {score} here").format(
        score=_pct(score))
    return [[yes, not yes], _verdicts([yes, not yes], [seen, seen])]


def _gamma_reasons(X, settings, fit, gamma, linear_plane, reference) -> str:
    """Why a panel at the end of the range separates badly, in words true for this kernel
    at this γ, measured (empty when no such reason is measured)."""
    kernel = settings.kernel
    tiny = gamma < reference
    if tiny and kernel == "laplacian" and fit.mean_similarity > 0.9:
        return _("Tiny γ: k ≈ 1 − γ‖x − y‖₁, every pair alike (mean k(xᵢ, xⱼ) = {mean}); "
                 "the picture is that of the L1 distances.").format(
            mean=format_number(fit.mean_similarity, ".3f"))
    if tiny and kernel != "laplacian":
        similarity = subspace_similarity(fit.projection[:, :2], linear_plane)
        if similarity >= LINEAR_SIMILARITY:
            return _("Tiny γ: the kernel is nearly linear here, and components 1–2 span "
                     "linear PCA's plane (subspace similarity {similarity}).").format(
                similarity=format_number(similarity, ".2f"))
        return ""
    if tiny:
        return ""
    if kernel in ("rbf", "laplacian") and fit.mean_similarity < 0.05:
        return _("Huge γ: each point resembles only itself (mean k(xᵢ, xⱼ) = {mean}), "
                 "K ≈ I.").format(mean=signed(fit.mean_similarity, ".2g"))
    if kernel == "sigmoid":
        K = compute_kernel(X, kernel=kernel, **{**settings.kernel_params(), "gamma": gamma})
        share = saturated_share(K)
        if share >= 0.5:
            return _("Huge γ: tanh saturates, |k| ≥ {value} for {share} % of the pairs: "
                     "points look alike or opposite, with nothing in between.").format(
                value=SATURATED_VALUE, share=format_number(100 * share, ".0f"))
    if kernel == "poly" and settings.coef0 != 0 and gamma / reference > 100 * abs(settings.coef0):
        return _("Huge γ: γ xᵀy dwarfs c₀ (typically {ratio} times it), so K ≈ "
                 "(γ xᵀy)^{degree}: the lower degrees no longer count.").format(
            ratio=format_number(gamma / reference / abs(settings.coef0), ",.0f"),
            degree=settings.degree)
    return ""


def _best_gamma(X, y, settings):
    # The page's own panels (lessons/choosing_gamma): the same grid around the same
    # reference γ, the same sample, the same fits and score, so that the room can check
    # the verdict on the panels and the score chart.
    if "gamma" not in settings.kernel_params() or (settings.kernel == "poly"
                                                   and settings.coef0 == 0):
        return None  # no γ, or (γ xᵀy)ᵈ: γ only rescales, and the page sweeps no γ
    reference = reference_gamma(X, settings.kernel)
    values = gamma_grid(reference or 1.0)
    rows = stratified_rows(len(X), y, SAMPLE_SIZE)
    Xs, ys = X[rows], y[rows]
    n = len(rows)
    fitted = min(n - 1, max(2, min(settings.n_components, n - 1), SPECTRUM_TOP))
    fits = [_fit(Xs, settings, fitted, gamma=float(g)) for g in values]
    scores = np.array([_score(f.projection[:, :2], ys) for f in fits])
    best = float(scores.max())
    good = scores >= best - TIE
    middle = nearest_gamma_index(values, reference or 1.0)
    if not 0 < middle < len(values) - 1:
        middle = len(values) // 2
    offered = (0, middle, len(values) - 1)
    where = (_("the panel marked 'median'") if settings.kernel == "rbf" and reference else
             _("the panel marked 'reference'") if reference else _("a middle panel"))
    names = (_("the smallest panel"), where, _("the largest panel"))
    top = int(np.flatnonzero(scores >= best - 1e-12)[0])
    best_text = _("the best of the {count} panels scores {score} (γ = {gamma})").format(
        count=len(values), score=_pct(best), gamma=format_gamma(values[top]))
    tie = format_number(100 * TIE, ".0f")
    linear_plane = _linear_plane(Xs)
    rights, whys, texts = [], [], []
    for i, name in zip(offered, names, strict=True):
        right = bool(good[i])
        reason = "" if right or i == middle else _gamma_reasons(
            Xs, settings, fits[i], float(values[i]), linear_plane, reference or 1.0)
        texts.append(f"γ = {format_gamma(values[i])}")
        rights.append(right)
        said = {"gamma": format_gamma(values[i]), "panel": name, "score": _pct(scores[i]),
                "best": best_text, "tie": tie}
        if right and scores[i] < best:
            why = _("Right: γ = {gamma}, {panel}, scores {score}; {best} (within {tie} "
                    "points of the best is a tie).").format(**said)
        elif right:
            why = _("Right: γ = {gamma}, {panel}, scores {score}; {best}.").format(**said)
        else:
            why = _("No: γ = {gamma}, {panel}, scores {score}; {best}.").format(**said)
        whys.append(_then(why, reason) if reason else why)
    others = [i for i in range(len(values)) if i not in offered]
    other = max(others, key=lambda i: scores[i])
    right = bool(good[other])
    texts.append(_("Another of the page's {count} panels").format(count=len(values)))
    rights.append(right)
    whys.append(_("Right: γ = {gamma}, not offered, scores {score}; {best}.").format(
                    gamma=format_gamma(values[other]), score=_pct(scores[other]),
                    best=best_text) if right else
                _("No: the other {count} panels score at most {score} (γ = {gamma}), more "
                  "than {tie} points below the best, {best}.").format(
                    count=len(others), score=_pct(scores[other]),
                    gamma=format_gamma(values[other]), tie=tie, best=_pct(best)))
    return [rights, whys, texts]


def _linear_plane(X: np.ndarray) -> np.ndarray:
    """Linear PCA's first two components of X (at most its number of features)."""
    centred = X - X.mean(axis=0)
    _u, _s, vt = np.linalg.svd(centred, full_matrices=False)
    return centred @ vt[: min(2, X.shape[1])].T


def _components_needed(X, y, settings):
    most = min(MOST_COMPONENTS, len(X) - 1)
    Z = _projection(X, settings, most)
    scores: dict[int, float] = {}
    needed = None
    for k in range(1, most + 1):  # the fewest leading components that reach 95 %
        scores[k] = _score(Z[:, :k], y)
        if scores[k] >= SEPARATES:
            needed = k
            break
    option = 3 if needed is None else min(needed, 3) - 1
    best_k = max(scores, key=lambda k: scores[k])
    one = _("component 1 alone scores {score}").format(score=_pct(scores[1]))
    reached = ("" if needed is None else
               _("component 1 alone reaches 95 % ({score})").format(score=_pct(scores[1]))
               if needed == 1 else
               _("components 1–{needed} are the fewest that reach 95 % ({score})").format(
                   needed=needed, score=_pct(scores[needed])))
    never = (_("no number of leading components from 1 to {most} reaches 95 %: the best is "
               "{score}, with component 1") if best_k == 1 else
             _("no number of leading components from 1 to {most} reaches 95 %: the best is "
               "{score}, with components 1–{best}")).format(
        most=most, score=_pct(scores[best_k]), best=best_k)
    if needed == 1:
        second = _("component 1 alone already scores {score}").format(score=_pct(scores[1]))
    elif 2 not in scores:
        second = ""
    elif needed == 2:
        second = _("components 1–2 score {score}, and component 1 alone scores {one}").format(
            score=_pct(scores[2]), one=_pct(scores[1]))
    else:
        second = _("components 1–2 score {score}").format(score=_pct(scores[2]))
    whys = [
        _("component 1 alone scores {score}, at least 95 %").format(score=_pct(scores[1]))
        if needed == 1 else one,
        second,
        reached if needed and needed >= 3 else (
            _("fewer do it: {reached}").format(reached=reached) if needed else never),
        never if needed is None else reached,
    ]
    rights = [option == i for i in range(4)]
    return [rights, _verdicts(rights, whys)]


def _forget_centring(X, y, settings):
    K = compute_kernel(X, kernel=settings.kernel, **settings.kernel_params())
    floor = rounding_floor(len(X), float(max(K.max(), -K.min())))
    k = min(3, len(X))
    (centred_mu, centred), (raw_mu, raw) = _top(center_kernel(K), k), _top(K, k)
    del K
    undetermined = [name for name, mu in (("K̃", centred_mu), ("K", raw_mu))
                    if k < 3 or mu[1] - mu[2] <= UNDETERMINED_GAP * floor]
    if undetermined:
        why = (_("μ₂ and μ₃ of K̃ and K are equal to within the rounding of K here, so their "
                 "first two components are any pair of directions in one eigenspace: the "
                 "picture is arbitrary either way") if len(undetermined) > 1 else
               _("μ₂ and μ₃ of {matrix} are equal to within the rounding of K here, so its "
                 "first two components are any pair of directions in one eigenspace: the "
                 "picture is arbitrary either way").format(matrix=undetermined[0]))
        return [[True, True], _verdicts([True, True], [why, why])]
    # The cosine of the largest angle between the two planes of eigenvectors.
    cosine = float(np.linalg.svd(centred[:, :2].T @ raw[:, :2], compute_uv=False).min())
    changed = cosine < 0.95
    angle = math.degrees(math.acos(min(cosine, 1.0)))
    seen = _("the two planes of eigenvectors meet at up to {angle}° here").format(
        angle=format_number(angle, ".0f"))
    return [[changed, not changed], _verdicts([changed, not changed], [seen, seen])]


def _preimage(X, y, settings):
    if affine_kernel(settings):
        why = (_("with the linear kernel φ is affine in x, so every point of the span is φ "
                 "of the point with those coordinates: the pre-image is exact")
               if settings.kernel == "linear" else
               _("with a degree-1 polynomial kernel, (γ xᵀy + c₀)¹, φ is affine in x, so "
                 "every point of the span is φ of the point with those coordinates: the "
                 "pre-image is exact"))
        return [[True, False], _verdicts([True, False], [why, why])]
    return [[False, True], [
        _("No: the span of a few φ(x) holds points no single image maps to; the pre-image "
          "methods on this page approximate one, and their error is never exactly 0."),
        _("Right: which is why the page compares pre-image methods by their error.")]]


def affine_deviation(X: np.ndarray, settings: Settings, *, y: np.ndarray | None = None
                     ) -> float | None:
    """How far the leading components are from affine functions of x: over pairs of
    points, the gap between a component at their midpoint and the mean of its values at
    the two points (0 for an affine function), relative to the component's spread; the
    largest over the components. None when every component is 0 (K̃ is rounding)."""
    rows = stratified_rows(len(X), y, MAX_N)
    X = X[rows]
    fit = _fit(X, settings, max(1, min(settings.n_components, len(X) - 1)))
    live = fit.eigenvalues > 0
    if not live.any():
        return None
    rng = np.random.default_rng(0)
    a, b = rng.integers(0, len(X), (2, AFFINE_PAIRS))
    middle = fit.project((X[a] + X[b]) / 2)[:, live]
    Z = fit.projection[:, live]
    gap = middle - (Z[a] + Z[b]) / 2
    spread = np.sqrt(np.mean(Z**2, axis=0))
    return float(np.max(np.sqrt(np.mean(gap**2, axis=0)) / spread))


def _classifier_boundary(X, y, settings):
    if affine_kernel(settings):
        why = (_("with the linear kernel every component is an affine function of x")
               if settings.kernel == "linear" else
               _("with a degree-1 polynomial kernel, (γ xᵀy + c₀)¹, every component is an "
                 "affine function of x"))
        return [[True, False], _verdicts([True, False], [why, why])]
    deviation = affine_deviation(X, settings, y=y)
    kernel = _(KERNELS[settings.kernel].title)
    if deviation is None:
        why = _("with the {kernel} kernel each component is a nonlinear function of x, but "
                "here every point projects to 0 (K̃ is rounding noise): the classifier has "
                "nothing to bend").format(kernel=kernel)
        return [[True, True], _verdicts([True, True], [why, why])]
    shown = format_number(100 * deviation, ".2g")
    curved = _("with the {kernel} kernel each component is a nonlinear function of x; at "
               "these settings a component at the midpoint of two points differs from their "
               "mean by {deviation} % of its spread").format(kernel=kernel, deviation=shown)
    if deviation < NEARLY_AFFINE:
        straight = _("to the eye; at these settings a component at the midpoint of two "
                     "points differs from their mean by {deviation} % of its spread, far too "
                     "little to see: the boundary looks straight").format(deviation=shown)
        return [[True, True], _verdicts([True, True], [straight, curved])]
    return [[False, True], _verdicts([False, True], [curved] * 2)]


def _memory_doubling(X, y, settings):
    n = len(X)
    now, doubled = 8 * n * n / 1e6, 8 * (2 * n) ** 2 / 1e6
    seen = _("K has n² entries: {now} MB at n = {n}, {doubled} MB at {twice}").format(
        now=format_number(now, ",.1f"), n=format_number(n, ","),
        doubled=format_number(doubled, ",.1f"), twice=format_number(2 * n, ","))
    return [[False, True, False], [_verdict(False, seen), _verdict(True, seen),
                                   _("No: that is time, up to n³; {seen}.").format(seen=seen)]]


# --------------------------------------------------------------------------- beyond kernel PCA

UNROLL_K = PIECES_K = 6  # neighbours in the questions' graphs (the tour's link sets the same)
UNROLLS = 0.9  # rank correlation with the classes' order that counts as "in order"
ABOUT_THE_SAME = 0.02  # AUCs or alignments closer than this: "about the same"


def _component_1(K: np.ndarray) -> np.ndarray:
    return KernelPCA(1, kernel="precomputed", copy_X=False,
                     random_state=0).fit_transform(K)[:, 0]


def _unroll(X, y, settings):
    if len(X) <= UNROLL_K:
        return None
    mds = rank_correlation(_component_1(classical_mds_kernel(X)), y)
    graph = neighbour_graph(X, UNROLL_K)
    pieces = graph_pieces(graph)
    if pieces.count > 1:  # as scikit-learn's Isomap (and the page) join them
        graph = join_pieces(X, graph, pieces)
    isomap = rank_correlation(_component_1(mds_kernel(geodesic_distances(X, graph))), y)
    iso_in, mds_in = isomap >= UNROLLS, mds >= UNROLLS
    answer = {(True, False): 0, (False, True): 1, (True, True): 2, (False, False): 3}[
        (iso_in, mds_in)]
    seen = _("component 1's rank correlation with the classes' order is {isomap} for "
             "Isomap and {mds} for classical MDS here").format(
        isomap=format_number(isomap, ".2f"), mds=format_number(mds, ".2f"))
    return [[i == answer for i in range(4)], [_verdict(i == answer, seen) for i in range(4)]]


def _graph_pieces(X, y, settings):
    if len(X) <= PIECES_K:
        return None
    pieces = graph_pieces(neighbour_graph(X, PIECES_K))
    answer = min(pieces.count, 3) - 1
    # A list of numbers: ", " in every language (the numbers read the same).
    sizes = ", ".join(format_number(s, ",") for s in pieces.sizes[:4]) + (
        ", …" if pieces.count > 4 else "")
    seen = ngettext("the {k}-nearest-neighbour graph has {count} piece here ({sizes} points)",
                    "the {k}-nearest-neighbour graph has {count} pieces here ({sizes} points)",
                    pieces.count).format(k=PIECES_K, count=pieces.count, sizes=sizes)
    return [[i == answer for i in range(3)], [_verdict(i == answer, seen) for i in range(3)]]


def _novelty_vs_svm(X, y, settings):
    # The novelty page's defaults: digits are one class against the others (the first
    # class normal), other data are all normal against points drawn off their shape.
    normal = int(np.unique(y)[0]) if settings.dataset == "usps" and y is not None else None
    split = novelty.novelty_split(X, y, normal, max_train=NOVELTY_MAX_TRAIN)
    if len(split.train) < 3 or not len(split.outliers):
        return None
    train, held = X[split.train], X[split.held_out]
    fitted = novelty.normal_fit(train, kernel=settings.kernel,
                                kernel_params=settings.kernel_params(), q=settings.n_components)
    held_errors = novelty.reconstruction_errors(fitted.fit, held)
    outlier_errors = novelty.reconstruction_errors(fitted.fit, split.outliers)
    if novelty.vanishing(np.r_[held_errors, outlier_errors],
                         novelty.error_rounding(fitted.fit)):
        return None  # every error is rounding: the page says so, there is nothing to ask
    ours = novelty.auc(held_errors, outlier_errors)
    svm = novelty.baseline_scores(train, np.vstack([held, split.outliers]), kernel=settings.kernel,
                          kernel_params=settings.kernel_params())["One-class SVM"]
    theirs = novelty.auc(svm[: len(held)], svm[len(held):])
    answer = 2 if abs(ours - theirs) < ABOUT_THE_SAME else 0 if ours > theirs else 1
    seen = _("AUC {ours} for kernel PCA with {q} components, {theirs} for the one-class SVM "
             "here").format(ours=format_number(ours, ".3f"), q=fitted.q,
                            theirs=format_number(theirs, ".3f"))
    return [[i == answer for i in range(3)], [_verdict(i == answer, seen) for i in range(3)]]


def _alignment_linear(X, y, settings):
    if settings.kernel == "linear":
        return None
    linear = centred_alignment(compute_kernel(X, kernel="linear"), y)
    own = centred_alignment(compute_kernel(X, kernel=settings.kernel,
                                           **settings.kernel_params()), y)
    if not (np.isfinite(linear) and np.isfinite(own)):
        return None
    answer = 2 if abs(linear - own) < ABOUT_THE_SAME else 0 if linear > own else 1
    seen = _("A = {linear} for the linear kernel, {own} for the {kernel} kernel here").format(
        linear=format_number(linear, ".3f"), own=format_number(own, ".3f"),
        kernel=_(KERNELS[settings.kernel].title))
    return [[i == answer for i in range(3)], [_verdict(i == answer, seen) for i in range(3)]]


_BUILDERS = {
    "separation": _separation, "zero_eigenvalues": _zero_eigenvalues,
    "lift_plane": _lift_plane, "best_gamma": _best_gamma,
    "components_needed": _components_needed, "forget_centring": _forget_centring,
    "preimage": _preimage, "classifier_boundary": _classifier_boundary,
    "memory_doubling": _memory_doubling,
    "unroll": _unroll, "graph_pieces": _graph_pieces, "novelty_vs_svm": _novelty_vs_svm,
    "alignment_linear": _alignment_linear,
}
# Questions on a fact of the algorithm, said with this view's n or kernel: no n × n work.
_FACTS = {"preimage", "memory_doubling"}
# Questions measured on a stratified sample of MAX_N points when the data are larger.
_SAMPLED = {"classifier_boundary"}
# Questions that need class labels (a separability score): without them, not asked.
_NEEDS_LABELS = {"separation", "lift_plane", "best_gamma", "components_needed", "unroll",
                 "alignment_linear"}


def build(question_id: str, X: np.ndarray, y: np.ndarray | None,
          settings: Settings) -> Question | None:
    """The question ``question_id`` for the view of ``X`` (as the kernel sees it), ``y``
    and ``settings``; None when it does not apply (no labels, not 2-D, more than
    :data:`MAX_N` points, a kernel it cannot score)."""
    if question_id not in _BUILDERS or len(X) < 3:
        return None
    if len(X) > MAX_N and question_id not in _FACTS | _SAMPLED:
        return None
    if question_id in _NEEDS_LABELS and (y is None or len(np.unique(y)) < 2):
        return None
    try:
        made = _BUILDERS[question_id](np.asarray(X, dtype=float), y, settings)
    except (ValueError, np.linalg.LinAlgError, TypeError):
        return None  # a kernel that overflows here: the view says why
    return None if made is None else _asked(question_id, *made)
