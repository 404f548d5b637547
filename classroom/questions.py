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
from dataclasses import dataclass, replace

import numpy as np

from experiments import novelty
from experiments.alignment import centred_alignment
from experiments.feature_maps import quadratic_lift
from experiments.graph_kernels import (
    classical_mds_kernel,
    geodesic_distances,
    graph_pieces,
    join_pieces,
    mds_kernel,
    neighbour_graph,
    rank_correlation,
)
from experiments.kernel_diagnostics import format_gamma
from experiments.kpca_steps import fit_kpca
from experiments.separability import linear_separability
from kpca_core import KERNELS, KernelPCA, center_kernel, compute_kernel, eigendecompose
from shell.registry import NOVELTY_MAX_TRAIN
from shell.state import Settings

MAX_N = 1000
SEPARATES = 0.95  # "separates": cross-validated accuracy of a linear classifier
PARTLY = 0.70
ZERO = 1e-10  # an eigenvalue is numerically zero below this fraction of the largest
BEST_GAMMAS = (0.05, 5.0, 500.0)


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


# id → (prompt, option texts). Fixed: the class tally counts by option number.
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
        "Which γ separates the classes best on components 1 and 2?",
        tuple(f"γ = {format_gamma(g)}" for g in BEST_GAMMAS),
    ),
    "components_needed": (
        "How many leading components does it take to tell the classes apart (≥ 95 %)?",
        ("1", "2", "3 or more"),
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


def _asked(question_id: str, rights: list[bool], whys: list[str]) -> Question:
    prompt, texts = CATALOGUE[question_id]
    return Question(question_id, prompt,
                    tuple(Option(t, r, w) for t, r, w in zip(texts, rights, whys, strict=True)))


def _projection(X: np.ndarray, settings: Settings, k: int) -> np.ndarray:
    """The first ``k`` kernel principal components of X: the pages' own fit."""
    return fit_kpca(X, kernel=settings.kernel, kernel_params=settings.kernel_params(),
                    n_components=k).projection


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
    return f"{100 * score:.0f} %"


def _separation(X, y, settings):
    score = _score(_projection(X, settings, 2), y)
    bands = [score >= SEPARATES, PARTLY <= score < SEPARATES, score < PARTLY]
    shown = _pct(score)
    whys = [f"components 1–2 score {shown} here{'' if bands[0] else ', below 95 %'} "
            "(a linear classifier, cross-validated)",
            f"{shown} is {'' if bands[1] else 'not '}between 70 and 95 %",
            f"{shown} is {'' if bands[2] else 'not '}below 70 %"]
    return [bands, [("Right: " if b else "No: ") + w + "." for b, w in zip(bands, whys,
                                                                        strict=True)]]


def _zero_eigenvalues(X, y, settings):
    K = center_kernel(compute_kernel(X[:3], kernel=settings.kernel, **settings.kernel_params()))
    mu = np.linalg.eigvalsh(K)
    scale = max(float(np.abs(mu).max()), np.finfo(float).tiny)
    zeros = int(np.sum(np.abs(mu) <= ZERO * scale)) if np.abs(mu).max() > 0 else 3
    shown = ", ".join(f"{m:.2g}" for m in sorted(mu, key=abs, reverse=True))
    seen = f"here K̃'s eigenvalues are {shown}: {zeros} numerically zero"
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
    return [[yes, not yes], [("Right: " if yes else "No: ") + seen + ".",
                             ("No: " if yes else "Right: ") + seen + "."]]


def _best_gamma(X, y, settings):
    if "gamma" not in settings.kernel_params():
        return None
    scores = [_score(_projection(X, replace(settings, gamma=g), 2), y) for g in BEST_GAMMAS]
    best = max(scores)
    rights = [s >= best - 0.02 for s in scores]  # within 2 points of the best: a tie
    whys = []
    for g, s, right in zip(BEST_GAMMAS, scores, rights, strict=True):
        verdict = "Right" if right else "No"
        reason = ""
        if not right and g == min(BEST_GAMMAS):
            reason = " Tiny γ: the kernel is nearly linear."
        elif not right and g == max(BEST_GAMMAS):
            reason = " Huge γ: each point resembles only itself."
        whys.append(f"{verdict}: γ = {format_gamma(g)} scores {_pct(s)} "
                    f"(best {_pct(best)}).{reason}")
    return [rights, whys]


def _components_needed(X, y, settings):
    Z = _projection(X, settings, 2)
    one, two = _score(Z[:, :1], y), _score(Z, y)
    needed = 0 if one >= SEPARATES else 1 if two >= SEPARATES else 2
    whys = [f"component 1 alone scores {_pct(one)} here",
            f"component 1 alone already scores {_pct(one)}" if needed == 0 else
            f"components 1–2 score {_pct(two)} here",
            f"components 1–2 {'already' if needed < 2 else 'only'} score {_pct(two)}"]
    return [[needed == i for i in range(3)],
            [("Right: " if needed == i else "No: ") + w + "." for i, w in enumerate(whys)]]


def _forget_centring(X, y, settings):
    K = compute_kernel(X, kernel=settings.kernel, **settings.kernel_params())
    spans = [_top(center_kernel(K), 2)[1], _top(K, 2)[1]]
    # The cosine of the largest angle between the two planes of eigenvectors.
    cosine = float(np.linalg.svd(spans[0].T @ spans[1], compute_uv=False).min())
    changed = cosine < 0.95
    angle = math.degrees(math.acos(min(cosine, 1.0)))
    seen = f"the two planes of eigenvectors meet at up to {angle:.0f}° here"
    return [[changed, not changed], [("Right: " if changed else "No: ") + seen + ".",
                                     ("No: " if changed else "Right: ") + seen + "."]]


def _preimage(X, y, settings):
    return [[False, True], [
        "No: the span of a few φ(x) holds points no single image maps to; the pre-image "
        "methods on this page approximate one, and their error is never exactly 0.",
        "Right: which is why the page compares pre-image methods by their error."]]


def _classifier_boundary(X, y, settings):
    straight = settings.kernel == "linear"
    why = ("with the linear kernel the components are linear in x" if straight else
           f"with the {KERNELS[settings.kernel].title} kernel each component is a nonlinear "
           "function of x")
    return [[straight, not straight], [("Right: " if straight else "No: ") + why + ".",
                                       ("No: " if straight else "Right: ") + why + "."]]


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
_FACTS = {"preimage", "classifier_boundary", "memory_doubling"}
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
    if len(X) > MAX_N and question_id not in _FACTS:
        return None
    if question_id in _NEEDS_LABELS and (y is None or len(np.unique(y)) < 2):
        return None
    try:
        made = _BUILDERS[question_id](np.asarray(X, dtype=float), y, settings)
    except (ValueError, np.linalg.LinAlgError, TypeError):
        return None  # a kernel that overflows here: the view says why
    return None if made is None else _asked(question_id, *made)
