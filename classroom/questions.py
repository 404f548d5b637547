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

from experiments.feature_maps import quadratic_lift
from experiments.kernel_diagnostics import format_gamma
from experiments.kpca_steps import fit_kpca
from experiments.separability import linear_separability
from kpca_core import KERNELS, center_kernel, compute_kernel, eigendecompose
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


_BUILDERS = {
    "separation": _separation, "zero_eigenvalues": _zero_eigenvalues,
    "lift_plane": _lift_plane, "best_gamma": _best_gamma,
    "components_needed": _components_needed, "forget_centring": _forget_centring,
    "preimage": _preimage, "classifier_boundary": _classifier_boundary,
    "memory_doubling": _memory_doubling,
}
# Questions on a fact of the algorithm, said with this view's n or kernel: no n × n work.
_FACTS = {"preimage", "classifier_boundary", "memory_doubling"}
# Questions that need class labels (a separability score): without them, not asked.
_NEEDS_LABELS = {"separation", "lift_plane", "best_gamma", "components_needed"}


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
