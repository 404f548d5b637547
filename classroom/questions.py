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


# id → (prompt, option texts). Fixed: the class tally counts by option number, and the
# lecturer's page shows these texts (a question whose options name this view's numbers,
# the γ question, says here what each option is).
CATALOGUE: dict[str, tuple[str, tuple[str, ...]]] = {
    "separation": (
        "How well will components 1 and 2 separate the classes in this view?",
        ("Almost perfectly (≥ 95 %)", "Partly (70–95 %)", "Hardly (< 70 %)"),
    ),
    "zero_eigenvalues": (
        "Take the first 3 points: how many eigenvalues of their centred kernel matrix K̃ "
        "are (numerically) zero?",
        ("0", "1", "2", "3"),
    ),
    "lift_plane": (
        "Lift the points to (x₁², √2 x₁x₂, x₂²). Can a flat plane separate the classes "
        "there?",
        ("Yes, almost perfectly (≥ 95 %)", "No, not that well"),
    ),
    "best_gamma": (
        "Of the γ values on this page's panels, which separates the classes best on "
        "components 1 and 2?",
        ("The smallest γ of the panels", "The panel at the kernel's reference γ",
         "The largest γ of the panels", "Another of the panels"),
    ),
    "components_needed": (
        "How many leading components does it take to tell the classes apart (≥ 95 %)?",
        ("1", "2", f"3 to {MOST_COMPONENTS}", f"None of these: not even {MOST_COMPONENTS}"),
    ),
    "forget_centring": (
        "Forget to centre K. Do the first two components change?",
        ("Yes, visibly", "No, hardly"),
    ),
    "preimage": (
        "A point projected onto a few components in feature space: is it always φ of some "
        "image?",
        ("Yes, exactly", "No, in general no image maps there"),
    ),
    "classifier_boundary": (
        "A linear classifier on these kernel principal components: what boundary does it "
        "draw in the input space?",
        ("A straight one (a hyperplane)", "A curved one"),
    ),
    "memory_doubling": (
        "n doubles. How much more memory does the kernel matrix K need?",
        ("2 ×", "4 ×", "8 ×"),
    ),
    # The tour's second part, "Beyond kernel PCA".
    "unroll": (
        "Classical MDS and Isomap (6 neighbours): whose component 1 lists the classes in "
        "their order, such as a roll's segments from its centre out (rank correlation ≥ 0.9)?",
        ("Isomap only", "Classical MDS only", "Both", "Neither"),
    ),
    "graph_pieces": (
        "Join each point to its 6 nearest neighbours. Into how many pieces does the graph "
        "fall?",
        ("1", "2", "3 or more"),
    ),
    "novelty_vs_svm": (
        "Fitted on normal points only: which flags the outliers better here (area under "
        "the ROC curve)?",
        ("Kernel PCA's reconstruction error", "The one-class SVM",
         "About the same (within 0.02)"),
    ),
    "alignment_linear": (
        "Which kernel matrix is better aligned with the labels (centred kernel–target "
        "alignment): the linear kernel's, or this view's kernel's?",
        ("The linear kernel's", "This view's kernel's", "About the same (within 0.02)"),
    ),
}


def _asked(question_id: str, rights: list[bool], whys: list[str],
           texts: list[str] | None = None) -> Question:
    prompt, fixed = CATALOGUE[question_id]
    texts = list(fixed) if texts is None else texts
    return Question(question_id, prompt,
                    tuple(Option(t, r, w) for t, r, w in zip(texts, rights, whys, strict=True)))


def _verdicts(rights: list[bool], whys: list[str]) -> list[str]:
    return [("Right: " if r else "No: ") + w + "." for r, w in zip(rights, whys, strict=True)]


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
    return f"{100 * score:.0f}\u00a0%"  # no line break between the number and its %


def affine_kernel(settings: Settings) -> bool:
    """Whether k(x, y) is an affine function of xᵀy, so that φ is affine in x: the linear
    kernel and the polynomial kernel of degree 1, (γ xᵀy + c₀)¹."""
    return settings.kernel == "linear" or (settings.kernel == "poly" and settings.degree == 1)


def _affine_name(settings: Settings) -> str:
    return ("the linear kernel" if settings.kernel == "linear" else
            "a degree-1 polynomial kernel, (γ xᵀy + c₀)¹,")


def _separation(X, y, settings):
    score = _score(_projection(X, settings, 2), y)
    bands = [score >= SEPARATES, PARTLY <= score < SEPARATES, score < PARTLY]
    shown = _pct(score)
    whys = [f"components 1–2 score {shown} here{'' if bands[0] else ', below 95 %'} "
            "(a linear classifier, cross-validated)",
            f"{shown} is {'' if bands[1] else 'not '}between 70 and 95 %",
            f"{shown} is {'' if bands[2] else 'not '}below 70 %"]
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
        seen = (f"here K̃'s eigenvalues are {shown}, and the rounding of K's entries is "
                f"about {signed(floor, '.2g')} (10 · n · ε · max|K|): {zeros} "
                f"{'is' if zeros == 1 else 'are'} zero to within it")
    else:
        seen = "here K is all zeros, and so are K̃ and its 3 eigenvalues"
    whys = []
    for count in range(4):
        if count == zeros:
            whys.append(f"Right: {seen}. Centring makes every row of K̃ sum to 0, so the "
                        "all-ones vector always has eigenvalue 0.")
        elif count == 0:
            whys.append(f"No: centring always costs one dimension (K̃ 1 = 0); {seen}.")
        else:
            whys.append(f"No: {seen}.")
    return [[c == zeros for c in range(4)], whys]


def _lift_plane(X, y, settings):
    if X.shape[1] != 2:
        return None
    score = _score(quadratic_lift(X, gamma=1.0), y)
    yes = score >= SEPARATES
    seen = f"a plane fitted in the lifted space scores {_pct(score)} here"
    return [[yes, not yes], _verdicts([yes, not yes], [seen, seen])]


def _gamma_reasons(X, settings, fit, gamma, linear_plane, reference) -> str:
    """Why a panel at the end of the range separates badly, in words true for this kernel
    at this γ, measured (empty when no such reason is measured)."""
    kernel = settings.kernel
    tiny = gamma < reference
    if tiny and kernel == "laplacian" and fit.mean_similarity > 0.9:
        return (f" Tiny γ: k ≈ 1 − γ‖x − y‖₁, every pair alike (mean k(xᵢ, xⱼ) = "
                f"{fit.mean_similarity:.3f}); the picture is that of the L1 distances.")
    if tiny and kernel != "laplacian":
        similarity = subspace_similarity(fit.projection[:, :2], linear_plane)
        if similarity >= LINEAR_SIMILARITY:
            return (" Tiny γ: the kernel is nearly linear here, and components 1–2 span "
                    f"linear PCA's plane (subspace similarity {similarity:.2f}).")
        return ""
    if tiny:
        return ""
    if kernel in ("rbf", "laplacian") and fit.mean_similarity < 0.05:
        return (" Huge γ: each point resembles only itself (mean k(xᵢ, xⱼ) = "
                f"{signed(fit.mean_similarity, '.2g')}), K ≈ I.")
    if kernel == "sigmoid":
        K = compute_kernel(X, kernel=kernel, **{**settings.kernel_params(), "gamma": gamma})
        share = saturated_share(K)
        if share >= 0.5:
            return (f" Huge γ: tanh saturates, |k| ≥ {SATURATED_VALUE} for "
                    f"{100 * share:.0f} % of the pairs: points look alike or opposite, "
                    "with nothing in between.")
    if kernel == "poly" and settings.coef0 != 0 and gamma / reference > 100 * abs(settings.coef0):
        return (" Huge γ: γ xᵀy dwarfs c₀ (typically "
                f"{gamma / reference / abs(settings.coef0):,.0f} times it), so K ≈ "
                f"(γ xᵀy)^{settings.degree}: the lower degrees no longer count.")
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
    where = ("the panel marked 'median'" if settings.kernel == "rbf" and reference else
             "the panel marked 'reference'" if reference else "a middle panel")
    names = ("the smallest panel", where, "the largest panel")
    top = int(np.flatnonzero(scores >= best - 1e-12)[0])
    best_text = (f"the best of the {len(values)} panels scores {_pct(best)} "
                 f"(γ = {format_gamma(values[top])})")
    linear_plane = _linear_plane(Xs)
    rights, whys, texts = [], [], []
    for i, name in zip(offered, names, strict=True):
        right = bool(good[i])
        reason = "" if right or i == middle else _gamma_reasons(
            Xs, settings, fits[i], float(values[i]), linear_plane, reference or 1.0)
        texts.append(f"γ = {format_gamma(values[i])}")
        rights.append(right)
        whys.append(f"{'Right' if right else 'No'}: γ = {format_gamma(values[i])}, {name}, "
                    f"scores {_pct(scores[i])}; {best_text}"
                    + (f" (within {100 * TIE:.0f} points of the best is a tie)"
                       if right and scores[i] < best else "")
                    + f".{reason}")
    others = [i for i in range(len(values)) if i not in offered]
    other = max(others, key=lambda i: scores[i])
    right = bool(good[other])
    texts.append(f"Another of the page's {len(values)} panels")
    rights.append(right)
    whys.append(f"Right: γ = {format_gamma(values[other])}, not offered, scores "
                f"{_pct(scores[other])}; {best_text}." if right else
                f"No: the other {len(others)} panels score at most {_pct(scores[other])} "
                f"(γ = {format_gamma(values[other])}), more than {100 * TIE:.0f} points below "
                f"the best, {_pct(best)}.")
    return [rights, whys, texts]


def _linear_plane(X: np.ndarray) -> np.ndarray:
    """Linear PCA's first two components of X (at most its number of features)."""
    centred = X - X.mean(axis=0)
    _, _, vt = np.linalg.svd(centred, full_matrices=False)
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
    one = f"component 1 alone scores {_pct(scores[1])}"
    two = f"components 1–2 score {_pct(scores[2])}" if 2 in scores else ""
    reached = ("" if needed is None else
               f"component 1 alone reaches 95 % ({_pct(scores[1])})" if needed == 1 else
               f"components 1–{needed} are the fewest that reach 95 % ({_pct(scores[needed])})")
    never = (f"no number of leading components from 1 to {most} reaches 95 %: the best is "
             f"{_pct(scores[best_k])}, with " + (
                 "component 1" if best_k == 1 else f"components 1–{best_k}"))
    whys = [
        one + ("" if needed != 1 else ", at least 95 %"),
        (f"component 1 alone already scores {_pct(scores[1])}" if needed == 1 else
         two + ("" if needed != 2 else f", and {one}")),
        reached if needed and needed >= 3 else (
            f"fewer do it: {reached}" if needed else never),
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
        names = " and ".join(undetermined)
        why = (f"μ₂ and μ₃ of {names} are equal to within the rounding of K here, so "
               f"{'their' if len(undetermined) > 1 else 'its'} first two components are any "
               "pair of directions in one eigenspace: the picture is arbitrary either way")
        return [[True, True], _verdicts([True, True], [why, why])]
    # The cosine of the largest angle between the two planes of eigenvectors.
    cosine = float(np.linalg.svd(centred[:, :2].T @ raw[:, :2], compute_uv=False).min())
    changed = cosine < 0.95
    angle = math.degrees(math.acos(min(cosine, 1.0)))
    seen = f"the two planes of eigenvectors meet at up to {angle:.0f}° here"
    return [[changed, not changed], _verdicts([changed, not changed], [seen, seen])]


def _preimage(X, y, settings):
    if affine_kernel(settings):
        why = (f"with {_affine_name(settings)} φ is affine in x, so every point of the span "
               "is φ of the point with those coordinates: the pre-image is exact")
        return [[True, False], _verdicts([True, False], [why, why])]
    return [[False, True], [
        "No: the span of a few φ(x) holds points no single image maps to; the pre-image "
        "methods on this page approximate one, and their error is never exactly 0.",
        "Right: which is why the page compares pre-image methods by their error."]]


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
        why = f"with {_affine_name(settings)} every component is an affine function of x"
        return [[True, False], _verdicts([True, False], [why, why])]
    deviation = affine_deviation(X, settings, y=y)
    kernel = KERNELS[settings.kernel].title
    curved = f"with the {kernel} kernel each component is a nonlinear function of x"
    if deviation is None:
        why = (f"{curved}, but here every point projects to 0 (K̃ is rounding noise): the "
               "classifier has nothing to bend")
        return [[True, True], _verdicts([True, True], [why, why])]
    measured = (f"; at these settings a component at the midpoint of two points differs "
                f"from their mean by {100 * deviation:.2g} % of its spread")
    if deviation < NEARLY_AFFINE:
        straight = f"to the eye{measured}, far too little to see: the boundary looks straight"
        return [[True, True], _verdicts([True, True], [straight, curved + measured])]
    return [[False, True], _verdicts([False, True], [curved + measured] * 2)]


def _memory_doubling(X, y, settings):
    n = len(X)
    now, doubled = 8 * n * n / 1e6, 8 * (2 * n) ** 2 / 1e6
    seen = f"K has n² entries: {now:,.1f} MB at n = {n:,}, {doubled:,.1f} MB at {2 * n:,}"
    return [[False, True, False], [f"No: {seen}.", f"Right: {seen}.",
                                   f"No: that is time, up to n³; {seen}."]]


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
    seen = (f"component 1's rank correlation with the classes' order is {isomap:.2f} for "
            f"Isomap and {mds:.2f} for classical MDS here")
    return [[i == answer for i in range(4)],
            [("Right: " if i == answer else "No: ") + seen + "." for i in range(4)]]


def _graph_pieces(X, y, settings):
    if len(X) <= PIECES_K:
        return None
    pieces = graph_pieces(neighbour_graph(X, PIECES_K))
    answer = min(pieces.count, 3) - 1
    sizes = ", ".join(f"{s:,}" for s in pieces.sizes[:4]) + (", …" if pieces.count > 4 else "")
    seen = (f"the {PIECES_K}-nearest-neighbour graph has {pieces.count} "
            f"piece{'s' if pieces.count > 1 else ''} here ({sizes} points)")
    return [[i == answer for i in range(3)],
            [("Right: " if i == answer else "No: ") + seen + "." for i in range(3)]]


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
    held_errors, held_spread = novelty.errors_and_spread(fitted.fit, held)
    outlier_errors, outlier_spread = novelty.errors_and_spread(fitted.fit, split.outliers)
    if novelty.vanishing(np.r_[held_errors, outlier_errors],
                         np.r_[held_spread, outlier_spread]):
        return None  # every error is rounding: the page says so, there is nothing to ask
    ours = novelty.auc(held_errors, outlier_errors)
    svm = novelty.baseline_scores(train, np.vstack([held, split.outliers]), kernel=settings.kernel,
                          kernel_params=settings.kernel_params())["One-class SVM"]
    theirs = novelty.auc(svm[: len(held)], svm[len(held):])
    answer = 2 if abs(ours - theirs) < ABOUT_THE_SAME else 0 if ours > theirs else 1
    seen = (f"AUC {ours:.3f} for kernel PCA with {fitted.q} components, {theirs:.3f} for the "
            "one-class SVM here")
    return [[i == answer for i in range(3)],
            [("Right: " if i == answer else "No: ") + seen + "." for i in range(3)]]


def _alignment_linear(X, y, settings):
    if settings.kernel == "linear":
        return None
    linear = centred_alignment(compute_kernel(X, kernel="linear"), y)
    own = centred_alignment(compute_kernel(X, kernel=settings.kernel,
                                           **settings.kernel_params()), y)
    if not (np.isfinite(linear) and np.isfinite(own)):
        return None
    answer = 2 if abs(linear - own) < ABOUT_THE_SAME else 0 if linear > own else 1
    seen = (f"A = {linear:.3f} for the linear kernel, {own:.3f} for the "
            f"{KERNELS[settings.kernel].title} kernel here")
    return [[i == answer for i in range(3)],
            [("Right: " if i == answer else "No: ") + seen + "." for i in range(3)]]


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
