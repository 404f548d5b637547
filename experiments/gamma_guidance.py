"""γ guidance from evidence: try the kernel's other γ values (and degrees), keep what works.

The Explorer shows kernel PCA's components 1–2 and how well a linear classifier separates
the classes on them (:func:`experiments.separability.linear_separability`). Whether γ
suits the data is therefore a question the data can answer: :func:`search` runs a quick,
bounded sweep of kernel PCA over γ (and over the degree for a polynomial kernel) on a
seeded stratified sample, scoring each value exactly as the page scores what it shows;
:func:`advise` compares the γ on screen with the best value found and with linear PCA,
and words a hint only when the shown components separate clearly worse (by
``HINT_MARGIN``) than a value it has measured. It never names a value that scored lower
than the current one, and it explains *why* the current γ fails from numbers measured
at that γ (K ≈ I: every point its own cluster; K ≈ all ones or nearly linear: nothing
beyond linear PCA; a saturated sigmoid; …).

Without labels (a CSV without a label column) there is no score. The same search then
measures spectral symptoms at every half-decade (cheap: no classifier), calibrated on
the labelled data sets to fire where the labelled score says the view is poor and not
where it is near its best (``benchmarks/gamma_grid.py --calibrate``):

* **K ≈ I** (RBF, Laplacian; γ too large): the mean similarity of two different points,
  mean k(x, y), is below 0.01, or K̃'s variance is spread over more than 40 % of its
  directions — every point is its own cluster;
* **saturated** (sigmoid, γ above its reference): tanh(γ xᵀy + c₀) = ±1 for most pairs;
* **nearly linear** (γ well below the reference): components 1–2 span linear PCA's
  plane (:func:`experiments.kernel_diagnostics.subspace_similarity`). Whether that is
  bad cannot be told without labels (linear PCA is as good as any γ on iris and the
  USPS digits, useless on the circles), so this hint says what is seen and offers a γ
  to look at rather than calling the view poor.

Cost: each value is one kernel PCA of the sample (at most ``SAMPLE_SIZE`` = 600 points)
with a partial eigensolver (2 components) plus one 5-fold cross-validated logistic
regression; a search is 9–13 of them (the coarse decades, extended past an edge while
the score improves, then at most 4 half-decades where the score changes). Measured with
``benchmarks/gamma_grid.py --cost`` on 2 busy cores (medians of 5, CPU time): circles
n = 400 0.27 s, USPS n = 1,000 0.87 s, n = 2,000 0.95 s.

Everything here is a pure function of arrays (no Streamlit): the Explorer caches
:func:`search` per dataset and kernel and calls :func:`advise` for the γ on screen.
"""

from __future__ import annotations

import math
import warnings
from dataclasses import dataclass, field

import numpy as np
from scipy.sparse.linalg import ArpackNoConvergence
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from experiments.kernel_diagnostics import (
    DISTANCE_KERNELS,
    GAMMA_KERNELS,
    REFERENCE_SHORT,
    effective_rank,
    format_gamma,
    format_ratio,
    reference_gamma,
    saturated_share,
    subspace_similarity,
)
from experiments.sampling import stratified_rows
from experiments.separability import linear_separability
from kpca_core import (
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
    project_training_points,
)
from words.i18n import N_, _, format_number, join_sentences
from words.kernel_params import GAMMA

# Points a search looks at: larger data are swept on a seeded stratified sample of this
# size (every built-in data set at its default size but USPS fits; USPS-1000 and
# -2000: 600 digits, their class shares kept).
SAMPLE_SIZE = 600
# "Clearly worse": the shown components must separate at least this much worse (in
# accuracy, on the sample) than a value the search measured before a hint is shown.
HINT_MARGIN = 0.05
# Scores within this of the best are equally good; among them the hint names the value
# closest to the current one (the smallest change that does as well).
TIE = 0.01
# The coarse grid: whole decades from 10^-3 to 10^3 times the kernel's reference γ,
# extended by up to EXTEND more decades while the best value sits at its edge.
COARSE_DECADES = 3
EXTEND = 2
# Half-decades tried after the coarse grid: at most MAX_FINE, next to the best decade
# and inside steps of the coarse grid where the score changes by at least CLIFF.
MAX_FINE = 4
CLIFF = 0.1
# The sidebar's range (words.kernel_params): every suggestion must be reachable.
GAMMA_MIN, GAMMA_MAX = GAMMA.low, GAMMA.high
# Degrees tried for a polynomial kernel (the sidebar offers 1–10; beyond 5 the picture
# is dominated by the few largest inner products).
DEGREES = (1, 2, 3, 4, 5)
# BLAS threads while searching: the matrices are small (n ≤ SAMPLE_SIZE) and on a busy
# 2-core host waiting OpenBLAS threads cost far more than they gain (see
# experiments.gamma_sweep.SWEEP_BLAS_THREADS).
BLAS_THREADS = 1

# Spectral symptoms, calibrated with ``benchmarks/gamma_grid.py --calibrate`` on the
# labelled data sets (every γ of the grid, on the search's sample): where the labelled
# score says the view is poor, the symptom should fire, and not where it is near best.
# K ≈ I (RBF, Laplacian; k in (0, 1]): the mean similarity of two different points below
# IDENTITY_SIMILARITY, or K̃'s variance spread over more than FLAT_RANK_SHARE of its n − 1
# directions.
IDENTITY_SIMILARITY = 0.01
FLAT_RANK_SHARE = 0.4
# Saturated sigmoid (γ above its reference): tanh(γ xᵀy + c₀) = ±1 (to 0.99) for more
# than this share of the pairs.
SATURATED_SHARE = 0.9
# Nearly linear: components 1–2 span linear PCA's plane to this subspace similarity, at
# a γ at most the reference / LINEAR_BELOW.
LINEAR_SIMILARITY = 0.95
LINEAR_BELOW = 3


@dataclass(frozen=True)
class Trial:
    """Kernel PCA with one γ (and degree) on the sample: its score and its symptoms.

    Attributes
    ----------
    gamma : float
    degree : int or None
        The polynomial degree tried (None for other kernels).
    score : float or None
        Separability of components 1–2 (None without labels, or when the kernel
        overflowed: ``error`` says so).
    mean_similarity : float
        Mean k(x, y) over pairs of different points.
    effective_rank : float
        (tr K̃)² / ‖K̃‖²_F: how many directions share the variance (n − 1 when K = I).
    linear_similarity : float
        Subspace similarity of components 1–2 with linear PCA's first two (1 = same plane).
    saturated_share : float
        Share of pairs with |k(x, y)| ≥ 0.99 (sigmoid only, else 0).
    typical_product : float
        Median |γ xᵀy| over pairs (polynomial and sigmoid: how large γ xᵀy is next to c₀).
    error : str or None
        Why kernel PCA could not be computed (the kernel overflowed).
    """

    gamma: float
    degree: int | None
    score: float | None
    mean_similarity: float = math.nan
    effective_rank: float = math.nan
    linear_similarity: float = math.nan
    saturated_share: float = 0.0
    typical_product: float = math.nan
    error: str | None = None

    def same_params(self, gamma: float, degree: int | None) -> bool:
        return math.isclose(self.gamma, gamma, rel_tol=1e-9) and self.degree == degree


@dataclass(frozen=True)
class Search:
    """What :func:`search` measured for one dataset and kernel (independent of the γ shown).

    Attributes
    ----------
    kernel : str
    fixed_params : dict
        The kernel's parameters other than γ (and the degree, for a polynomial).
    rows : (m,) int
        The sample's rows of X (all rows when n ≤ ``SAMPLE_SIZE``).
    n_total : int
    reference : float or None
        The kernel's reference γ (:func:`experiments.kernel_diagnostics.reference_gamma`),
        the centre of the coarse grid.
    trials : tuple of Trial
        Every value tried, in the order tried.
    linear_score : float or None
        Linear PCA's separability on its first two components, on the sample.
    linear_plane : (m, 2) float
        Linear PCA's first two components on the sample (for ``linear_similarity``).
    sweeps_degree : bool
        A polynomial kernel: the degree was searched too.
    gamma_matters : bool
        False for a polynomial with c₀ = 0: γ only rescales K, so the picture (and every
        score) is the same for every γ, and only the degree was searched.
    """

    kernel: str
    fixed_params: dict
    rows: np.ndarray
    n_total: int
    reference: float | None
    trials: tuple[Trial, ...]
    linear_score: float | None
    linear_plane: np.ndarray = field(repr=False)
    sweeps_degree: bool = False
    gamma_matters: bool = True

    @property
    def n_sample(self) -> int:
        return int(len(self.rows))

    @property
    def labelled(self) -> bool:
        return self.linear_score is not None

    @property
    def scored(self) -> list[Trial]:
        return [t for t in self.trials if t.score is not None]

    @property
    def best_score(self) -> float | None:
        scored = self.scored
        return max(t.score for t in scored) if scored else None


@dataclass(frozen=True)
class Context:
    """What a hint's words need of its :class:`Search`: numbers, no sample (small to cache)."""

    kernel: str
    fixed_params: dict
    n_sample: int
    n_total: int
    reference: float | None
    linear_score: float | None
    gamma_matters: bool

    @classmethod
    def of(cls, found: Search) -> Context:
        return cls(found.kernel, dict(found.fixed_params), found.n_sample, found.n_total,
                   found.reference, found.linear_score, found.gamma_matters)


@dataclass(frozen=True)
class Hint:
    """A γ (and degree) that does clearly better, and why the current one does not.

    ``kind`` is "too_small" (the better γ is larger), "too_large" (smaller) or "degree"
    (same γ, another degree); without labels "too_large", "saturated" or "linear"
    (``from_labels`` False). Only numbers are kept (the trials at the current and the
    chosen values, what the search measured): the hint is cached for every session, and
    its words are written when they are read, in the language of the run that reads
    them. ``title`` is one bold line; ``message`` the measured comparison; ``why`` the
    explanation from the numbers at the current γ. ``button`` is the label of the
    one-click fix, which sets ``gamma`` (and ``degree``).
    """

    kind: str
    gamma: float
    degree: int | None
    current: Trial
    chosen: Trial
    found: Context
    from_labels: bool = True
    shown_score: float | None = None

    def _words(self) -> tuple[str, str, str, str]:
        if self.from_labels:
            return _hint_words(self)
        return _unlabelled_words(self)

    @property
    def title(self) -> str:
        return self._words()[0]

    @property
    def message(self) -> str:
        return self._words()[1]

    @property
    def why(self) -> str:
        return self._words()[2]

    @property
    def button(self) -> str:
        return self._words()[3]

    @property
    def text(self) -> str:
        """The whole hint as one Markdown paragraph."""
        title, message, why, _button = self._words()
        # A space after the bold title whatever the language: CommonMark closes ** after
        # a full stop only before a space or punctuation ("**γ 太小。**消息" stays open).
        return " ".join(part for part in (f"**{title}**", join_sentences((message, why)))
                        if part)


@dataclass(frozen=True)
class Guidance:
    """The verdict on the γ on screen.

    Attributes
    ----------
    current : Trial
        The current γ (and degree) on the sample.
    best : Trial or None
        The best value the search found (None without labels).
    linear_score : float or None
        Linear PCA on the sample.
    n_sample, n_total : int
    hint : Hint or None
        None when the current γ does about as well as anything tried (labelled data),
        or when no symptom fires (unlabelled data).
    from_labels : bool
        True when the verdict rests on the separability scores, False when it rests on
        the spectral symptoms (no labels).
    n_tried : int
        How many values (γ, and degrees) the search tried.
    """

    current: Trial
    best: Trial | None
    linear_score: float | None
    n_sample: int
    n_total: int
    hint: Hint | None
    from_labels: bool
    n_tried: int = 0

    @property
    def current_score(self) -> float | None:
        return self.current.score

    @property
    def best_score(self) -> float | None:
        return None if self.best is None else self.best.score

    @property
    def best_gamma(self) -> float | None:
        return None if self.best is None else self.best.gamma

    @property
    def best_degree(self) -> int | None:
        return None if self.best is None else self.best.degree


# --------------------------------------------------------------------------- one trial


def _leading_pair(Kc: np.ndarray):
    """The two leading eigenpairs of K̃ (a partial solver; LAPACK when ARPACK gives up)."""
    with warnings.catch_warnings():
        # ARPACK fails on exactly repeated spectra (K = I) and kpca_core falls back to
        # LAPACK with a warning; that is expected here.
        warnings.simplefilter("ignore")
        try:
            return eigendecompose(Kc, 2, random_state=0, check_finite=False,
                                  check_symmetry=False)
        except ArpackNoConvergence:
            return eigendecompose(Kc, 2, solver="dense", check_finite=False,
                                  check_symmetry=False)


def trial(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel: str,
    params: dict,
    linear_plane: np.ndarray,
) -> Trial:
    """Kernel PCA of X with these parameters: components 1–2, their score and symptoms.

    ``X`` is the sample (n ≤ ``SAMPLE_SIZE``); K and K̃ are the only n × n matrices (K̃
    overwrites K).
    """
    gamma = float(params["gamma"])
    degree = int(params["degree"]) if kernel == "poly" else None
    n = X.shape[0]
    K = compute_kernel(X, kernel=kernel, **params)
    with np.errstate(over="ignore", invalid="ignore"):
        mean_similarity = float((K.sum() - np.trace(K)) / (n * (n - 1)))
    saturated = saturated_share(K) if kernel == "sigmoid" else 0.0
    typical = math.nan
    if kernel in ("poly", "sigmoid"):
        inner = X @ X.T
        typical = float(gamma * np.median(np.abs(inner[np.triu_indices(n, k=1)])))
    try:
        Kc = center_kernel(K, copy=False)
    except ValueError as error:  # the kernel overflowed (a polynomial with a huge γ)
        return Trial(gamma, degree, None, error=str(error))
    rank = effective_rank(float(np.trace(Kc)), float(np.linalg.norm(Kc)))
    eig = _leading_pair(Kc)
    del K, Kc
    values, _vectors = clean_eigenvalues(eig.eigenvalues)
    Z = project_training_points(eig.eigenvectors, values)
    return Trial(
        gamma=gamma,
        degree=degree,
        score=linear_separability(Z, y),
        mean_similarity=mean_similarity,
        effective_rank=rank,
        linear_similarity=subspace_similarity(Z, linear_plane),
        saturated_share=saturated,
        typical_product=typical,
    )


# --------------------------------------------------------------------------- the search


def _clip(gamma: float) -> float:
    return float(min(max(gamma, GAMMA_MIN), GAMMA_MAX))


def _round(value: float) -> float:
    return float(f"{value:.1g}")


def _decades(reference: float, *, halves: bool = False, extra: int = 0) -> list[float]:
    """10ᵉ (and 3 × 10ᵉ with ``halves``) for e within COARSE_DECADES (+ extra) of the
    reference's decade, inside the sidebar's range."""
    centre = round(math.log10(reference))
    low = max(centre - COARSE_DECADES - extra, math.ceil(math.log10(GAMMA_MIN)))
    high = min(centre + COARSE_DECADES + extra, math.floor(math.log10(GAMMA_MAX)))
    values = []
    for e in range(low, high + 1):
        values.append(10.0**e)
        if halves and e < high:
            values.append(3 * 10.0**e)
    return values


def _search_scored(run, reference: float) -> float:
    """Coarse decades, extended past an edge while improving, then the half-decades where
    something happens: either side of the best decade, and inside every step between
    neighbouring decades whose scores differ by at least ``CLIFF`` (a narrow optimum can
    hide between two decades that both score poorly, e.g. the Swiss roll with the
    Laplacian kernel: 0.69 at γ = 0.1, 0.38 at 1, 0.87 at 0.316). At most ``MAX_FINE``
    half-decades, those next to the best decade first, then the steepest steps.
    Returns the best γ tried (ties: the one closest to the reference)."""
    seen: dict[float, float] = {}

    def score(gamma: float) -> float:
        result = run(gamma).score
        seen[gamma] = -math.inf if result is None else result
        return seen[gamma]

    coarse = {round(math.log10(v)): score(v) for v in _decades(reference)}
    for _step in range(EXTEND):
        best_e = max(coarse, key=coarse.get)
        step = -1 if best_e == min(coarse) else 1 if best_e == max(coarse) else 0
        e = best_e + step
        if step == 0 or not GAMMA_MIN <= 10.0**e <= GAMMA_MAX:
            break
        coarse[e] = score(10.0**e)
        if coarse[e] <= coarse[best_e]:
            break
    best_e = max(coarse, key=coarse.get)
    steps = sorted(coarse)
    between = [
        (best_e in (low, high), abs(coarse[high] - coarse[low]), low)
        for low, high in zip(steps, steps[1:], strict=False)
        if best_e in (low, high) or abs(coarse[high] - coarse[low]) >= CLIFF
    ]
    for _size, _edge, low in sorted(between, reverse=True)[:MAX_FINE]:
        score(3 * 10.0**low)
    top = max(seen.values())
    return min((g for g, v in seen.items() if v >= top - TIE),
               key=lambda g: abs(math.log10(g / reference)))


def linear_plane(Xs: np.ndarray) -> np.ndarray:
    """Linear PCA's first two components of the sample, the same on every call.

    Seeded: on a sample of more than 500 rows scikit-learn picks its randomized solver,
    which otherwise draws from NumPy's global random state (the subspace similarities of
    a USPS search changed in their sixth digit from one search to the next)."""
    return PCA(n_components=min(2, Xs.shape[1]), random_state=0).fit_transform(Xs)


def search(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel: str,
    kernel_params: dict,
    sample_size: int = SAMPLE_SIZE,
    seed: int = 0,
) -> Search | None:
    """Sweep γ (and the degree) for this dataset and kernel; None for kernels without γ.

    Parameters
    ----------
    X : (n, d) the inputs as the kernel sees them (standardised if the page is).
    y : (n,) labels, or None (then only the spectral symptoms are measured).
    kernel : one of ``experiments.kernel_diagnostics.GAMMA_KERNELS``.
    kernel_params : the page's parameters; γ is ignored (the search does not depend on
        it, so one search serves every γ), c₀ is kept, and so is the degree.
    sample_size, seed : the sample (:func:`experiments.sampling.stratified_rows`: all rows
        up to ``sample_size``, else a sorted seeded sample keeping each class's share).

    The values tried: whole decades from 10⁻³ to 10³ × the kernel's reference γ
    (clipped to the sidebar's range), extended by up to ``EXTEND`` decades while the
    best sits at an edge and keeps improving, then the half-decades (3 × 10ᵉ) either
    side of the best decade. For a polynomial kernel the degrees 1–5 are then tried at
    the best γ; with c₀ = 0 only the degrees (γ merely rescales K).
    """
    if kernel not in GAMMA_KERNELS:
        return None
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    if n < 4:
        return None
    reference = reference_gamma(X, kernel)
    if reference is None:
        return None
    y = None if y is None else np.asarray(y)
    rows = stratified_rows(n, y, sample_size, seed)
    Xs, ys = X[rows], (None if y is None else y[rows])
    if ys is not None and linear_separability(np.zeros((len(ys), 1)), ys) is None:
        ys = None  # a single class, or a class of one point: no score

    fixed = {k: v for k, v in kernel_params.items() if k not in ("gamma",)}
    poly = kernel == "poly"
    gamma_matters = not (poly and float(fixed.get("coef0", 0.0)) == 0.0)
    current_degree = int(fixed["degree"]) if poly else None

    with threadpool_limits(limits=BLAS_THREADS, user_api="blas"):
        plane = linear_plane(Xs)
        linear_score = linear_separability(plane, ys)
        tried: dict[tuple[float, int | None], Trial] = {}

        def run(gamma: float, degree: int | None = current_degree) -> Trial:
            gamma = _clip(gamma)
            key = (gamma, degree)
            if key not in tried:
                params = {**fixed, "gamma": gamma}
                if poly:
                    params["degree"] = degree
                tried[key] = trial(Xs, ys, kernel=kernel, params=params, linear_plane=plane)
            return tried[key]

        best_gamma = _round(reference)  # with c₀ = 0 any γ shows the same picture
        if gamma_matters and ys is None:
            # Without labels a trial is cheap (no classifier): every half-decade.
            for value in _decades(reference, halves=True):
                run(value)
        elif gamma_matters:
            best_gamma = _search_scored(run, reference)
        if poly and ys is not None:
            for degree in DEGREES:
                run(best_gamma, degree)

    return Search(
        kernel=kernel,
        fixed_params=fixed,
        rows=rows,
        n_total=n,
        reference=reference,
        trials=tuple(tried.values()),
        linear_score=linear_score,
        linear_plane=plane,
        sweeps_degree=poly,
        gamma_matters=gamma_matters,
    )


# --------------------------------------------------------------------------- the verdict


def advise(
    found: Search,
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel_params: dict,
    shown_score: float | None = None,
) -> Guidance:
    """The verdict on the γ (and degree) on screen, from a :func:`search` of the same data.

    Parameters
    ----------
    found : the :func:`search` of these data and this kernel.
    X, y : the same arrays the search was given.
    kernel_params : the parameters on screen.
    shown_score : the separability the page shows for components 1–2 (on all n points).
        When the search ran on a sample, a hint also has to beat this number by
        ``HINT_MARGIN``, so a hint never contradicts the caption beside it.

    One more kernel PCA of the sample at the current parameters (none when the search
    already tried them). With labels: a :class:`Hint` when a value the search tried
    scores at least ``HINT_MARGIN`` more than the current one; it names, among the
    values within ``TIE`` of the best, the one closest to the current γ, and never one
    that scored no better than the current one. Without labels:
    :func:`diagnose_unlabelled`.
    """
    return verdict(found, trial_at(found, X, y, kernel_params=kernel_params),
                   shown_score=shown_score)


def tried_at(found: Search, kernel_params: dict) -> Trial | None:
    """The search's own trial at these parameters (γ clipped to the sidebar's range), or
    None when it did not try them."""
    gamma = _clip(float(kernel_params["gamma"]))
    degree = int(kernel_params["degree"]) if found.kernel == "poly" else None
    return next((t for t in found.trials if t.same_params(gamma, degree)), None)


def trial_at(found: Search, X: np.ndarray, y: np.ndarray | None, *,
             kernel_params: dict) -> Trial:
    """The trial at the parameters on screen: the search's own when it tried them, else
    one more kernel PCA of the search's sample (``X``, ``y``: the arrays it was given)."""
    current = tried_at(found, kernel_params)
    if current is not None:
        return current
    X = np.asarray(X, dtype=np.float64)
    rows = found.rows
    ys = None if (y is None or not found.labelled) else np.asarray(y)[rows]
    params = {**found.fixed_params, **kernel_params,
              "gamma": _clip(float(kernel_params["gamma"]))}
    with threadpool_limits(limits=BLAS_THREADS, user_api="blas"):
        return trial(X[rows], ys, kernel=found.kernel, params=params,
                     linear_plane=found.linear_plane)


def verdict(found: Search, current: Trial, *, shown_score: float | None = None) -> Guidance:
    """The verdict from the trial at the parameters on screen (:func:`trial_at`, or the
    same numbers shipped with the code: ``experiments.shipped``): nothing is computed
    here, only compared. ``shown_score`` as in :func:`advise`."""
    if not found.labelled:
        return Guidance(current, None, None, found.n_sample, found.n_total,
                        diagnose_unlabelled(found, current), from_labels=False,
                        n_tried=len(found.trials))
    # The best value; on a tie the smallest γ (the smoothest kernel), then the smallest
    # degree, as Choosing γ marks its best panel.
    top = max(t.score for t in found.scored)
    best = min((t for t in found.scored if t.score >= top - 1e-12),
               key=lambda t: (t.gamma, t.degree or 0))
    floor = -math.inf if current.score is None else current.score
    if shown_score is not None and found.n_sample < found.n_total:
        floor = max(floor, shown_score)
    hint = None
    if best.score - floor >= HINT_MARGIN:
        candidates = [t for t in found.scored if t.score >= best.score - TIE and t.score > floor]
        chosen = min(candidates, key=lambda t: _distance(t, current))
        hint = _hint(found, current, chosen, shown_score)
    return Guidance(current, best, found.linear_score, found.n_sample, found.n_total, hint,
                    from_labels=True, n_tried=len(found.trials))


def guide(X: np.ndarray, y: np.ndarray | None, *, kernel: str, kernel_params: dict,
          shown_score: float | None = None, sample_size: int = SAMPLE_SIZE,
          seed: int = 0) -> Guidance | None:
    """:func:`search` then :func:`advise` in one call (None for kernels without γ)."""
    found = search(X, y, kernel=kernel, kernel_params=kernel_params,
                   sample_size=sample_size, seed=seed)
    if found is None:
        return None
    return advise(found, X, y, kernel_params=kernel_params, shown_score=shown_score)


def _distance(t: Trial, current: Trial) -> tuple[float, float]:
    return (abs(math.log10(t.gamma / current.gamma)),
            0.0 if t.degree is None else abs(t.degree - (current.degree or 0)))


def _percent(score: float) -> str:
    return format_number(100 * score, ".0f") + "%"


def params_text(gamma: float | None, degree: int | None) -> str:
    """"γ = 2", "γ = 2, degree 3" or "degree 3" (``gamma`` None: γ is not said)."""
    if gamma is not None and degree is not None:
        return _("γ = {gamma}, degree {degree}").format(gamma=format_gamma(gamma),
                                                       degree=degree)
    if gamma is not None:
        return _("γ = {gamma}").format(gamma=format_gamma(gamma))
    return _("degree {degree}").format(degree=degree) if degree is not None else ""


def _params_text(t: Trial, *, with_gamma: bool = True) -> str:
    return params_text(t.gamma if with_gamma else None, t.degree)


def _hint(found: Search, current: Trial, chosen: Trial, shown_score: float | None) -> Hint:
    """A labelled hint: which value to offer (its words: :func:`_hint_words`).

    "degree" only when the degree is all that changes: γ is the one on screen (or does
    not matter: with c₀ = 0 every γ shows the same picture). A γ that moves, however
    little, is named, and so is the degree with it: the hint offers exactly the values
    whose score it quotes (a kernel without a degree has only γ to offer).
    """
    same_gamma = (not found.gamma_matters
                  or math.isclose(chosen.gamma, current.gamma, rel_tol=1e-9))
    if chosen.degree != current.degree and same_gamma:
        kind = "degree"
    elif chosen.gamma > current.gamma:
        kind = "too_small"
    else:
        kind = "too_large"
    gamma = current.gamma if kind == "degree" else chosen.gamma
    return Hint(kind, gamma, chosen.degree, current, chosen, Context.of(found),
                from_labels=True, shown_score=shown_score)


# A labelled hint's measured comparison: (on a sample?, the current score known?) → words.
_SAMPLED_MESSAGES = {
    True: N_("{now}; with {there} they separate {chosen} (on a stratified sample of {n_sample} "
             "of the {n_total} points, {current} here; linear PCA: {linear})."),
    False: N_("{now}; with {there} they separate {chosen} (on a stratified sample of "
              "{n_sample} of the {n_total} points; linear PCA: {linear})."),
}


def _hint_words(hint: Hint) -> tuple[str, str, str, str]:
    """(title, message, why, button) of a labelled hint, in this run's language."""
    found, current, chosen, kind = hint.found, hint.current, hint.chosen, hint.kind
    gamma, shown_score = hint.gamma, hint.shown_score
    here = _params_text(current, with_gamma=found.gamma_matters) or _("here")
    there = _params_text(chosen, with_gamma=found.gamma_matters and kind != "degree")
    both = kind != "degree" and chosen.degree is not None and chosen.degree != current.degree
    if both:  # the fix changes the degree too: the title says so, not "γ is too small"
        title = _("γ = {chosen} with degree {chosen_degree} separates the classes better "
                  "than γ = {current} with degree {current_degree}.").format(
            chosen=format_gamma(chosen.gamma), chosen_degree=chosen.degree,
            current=format_gamma(current.gamma), current_degree=current.degree)
    elif kind == "too_small":
        title = _("γ = {gamma} is too small for these data.").format(
            gamma=format_gamma(current.gamma))
    elif kind == "too_large":
        title = _("γ = {gamma} is too large for these data.").format(
            gamma=format_gamma(current.gamma))
    else:
        title = _("Degree {chosen} separates the classes better than degree {current}.").format(
            chosen=chosen.degree, current=current.degree)
    sampled = found.n_sample < found.n_total
    if current.score is None:
        now = _("Kernel PCA cannot be computed with {here}").format(here=here)
    elif sampled and shown_score is not None:
        now = _("Components 1–2 separate the classes {score} with {here} (the score "
                "shown)").format(score=_percent(shown_score), here=here)
    else:
        now = _("Components 1–2 separate the classes {score} with {here}").format(
            score=_percent(current.score), here=here)
    numbers = dict(now=now, there=there, chosen=_percent(chosen.score),
                   linear=_percent(found.linear_score),
                   n_sample=format_number(found.n_sample, ","),
                   n_total=format_number(found.n_total, ","),
                   current="" if current.score is None else _percent(current.score))
    if sampled:
        message = _(_SAMPLED_MESSAGES[current.score is not None]).format(**numbers)
    elif current.score is None:
        message = _("{now}; with {there} they separate {chosen} (linear PCA: {linear}).").format(
            **numbers)
    else:
        message = _("{now}; with {there} they separate {chosen}, {gain} percentage points "
                    "more (linear PCA: {linear}).").format(
            gain=format_number(100 * (chosen.score - current.score), ".0f"), **numbers)
    why = _why(found, current, kind)
    if both:
        why = join_sentences((why, _(
            "The degree changes too, from {current} to {chosen}: it sets which products of "
            "input coordinates the features hold.").format(
                current=current.degree, chosen=chosen.degree)))
    if chosen.score <= found.linear_score + TIE:
        why = join_sentences((why, _(
            "At its best this kernel only matches linear PCA here ({linear}).").format(
                linear=_percent(found.linear_score))))
    if kind == "degree":
        button = _("Use degree {degree}").format(degree=chosen.degree)
    elif chosen.degree is not None and chosen.degree != current.degree:
        button = _("Use γ = {gamma}, degree {degree}").format(gamma=format_gamma(gamma),
                                                              degree=chosen.degree)
    else:
        button = _("Use γ = {gamma}").format(gamma=format_gamma(gamma))
    return title, message, why, button


def looks_like_identity(kernel: str, t: Trial, n_sample: int) -> bool:
    """K ≈ I (RBF, Laplacian): two different points hardly resemble each other (mean
    k(x, y) < ``IDENTITY_SIMILARITY``) or K̃'s variance is spread over more than
    ``FLAT_RANK_SHARE`` of its n − 1 directions (a flat spectrum)."""
    return kernel in DISTANCE_KERNELS and (
        t.mean_similarity < IDENTITY_SIMILARITY
        or t.effective_rank > FLAT_RANK_SHARE * (n_sample - 1)
    )


def _words(t: Trial) -> tuple[str, str]:
    similarity = _("mean k(x, y) of two different points = {value}").format(
        value=format_number(t.mean_similarity, ".2g"))
    # Three decimals: 0.946 must not read as the threshold 0.95.
    plane = _("subspace similarity with linear PCA's components 1–2: {value}").format(
        value=format_number(t.linear_similarity, ".3f"))
    return similarity, plane


def _because(reason: str) -> str:
    return _("Why: {reason}").format(reason=reason)


def _identity_why(current: Trial, n_sample: int) -> str:
    similarity, _plane = _words(current)
    return _(
        "each point resembles almost only itself ({similarity}), so K ≈ I: every point is "
        "its own cluster, the variance of K̃ is spread over about {rank} of {directions} "
        "directions, and components 1–2 pick out a few points instead of any larger "
        "structure.").format(similarity=similarity,
                             rank=format_number(current.effective_rank, ".0f"),
                             directions=format_number(n_sample - 1))


# At a γ that makes the kernel nearly linear: (which kernel, K ≈ all ones?) → the reason.
_LINEAR_WHY = {
    "plain": N_("at this γ components 1–2 span the plane linear PCA finds ({plane}; 1 = the "
                "same): kernel PCA shows nothing beyond linear PCA."),
    "rbf": N_("at this γ every pair of points looks alike ({similarity}): K ≈ all ones, k ≈ "
              "1 − γ‖x − y‖² is a linear kernel in disguise, and components 1–2 span the "
              "plane linear PCA finds ({plane}; 1 = the same): kernel PCA shows nothing "
              "beyond linear PCA."),
    "laplacian": N_("at this γ every pair of points looks alike ({similarity}): K ≈ all ones, "
                    "k ≈ 1 − γ‖x − y‖₁ (not a linear kernel, but close to one on these data), "
                    "and components 1–2 span the plane linear PCA finds ({plane}; 1 = the "
                    "same): kernel PCA shows nothing beyond linear PCA."),
}


def _linear_why(kernel: str, current: Trial) -> str:
    similarity, plane = _words(current)
    case = "plain"
    if kernel in DISTANCE_KERNELS and current.mean_similarity > 0.9:
        # RBF: 1 − γ‖x − y‖² centres to 2γ x̃ᵀỹ, a linear kernel. Laplacian: 1 − γ‖x − y‖₁
        # does not (double-centred L1 distances); only the measured plane says how close.
        case = "rbf" if kernel == "rbf" else "laplacian"
    return _(_LINEAR_WHY[case]).format(similarity=similarity, plane=plane)


def _saturated_why(current: Trial) -> str:
    similarity, _plane = _words(current)
    share = format_number(100 * current.saturated_share, ".0f")
    if current.mean_similarity > 0.9:
        return _("the sigmoid is saturated: tanh(γ xᵀy + c₀) is ±1 for {share}% of the pairs, "
                 "so the kernel only sees the sign of γ xᵀy + c₀ ({similarity}): K ≈ all ones, "
                 "K̃ ≈ 0 and every point is projected close to the origin.").format(
            share=share, similarity=similarity)
    return _("the sigmoid is saturated: tanh(γ xᵀy + c₀) is ±1 for {share}% of the pairs, so "
             "the kernel only sees the sign of γ xᵀy + c₀.").format(share=share)


def _why(found: Search | Context, current: Trial, kind: str) -> str:
    """Why the current parameters fail, from what was measured at them."""
    kernel = found.kernel
    c0 = float(found.fixed_params.get("coef0", 0.0))
    similarity, plane = _words(current)
    if current.error is not None:
        return _because(current.error)
    if kind == "too_large":
        if looks_like_identity(kernel, current, found.n_sample):
            return _because(_identity_why(current, found.n_sample))
        if kernel in DISTANCE_KERNELS:
            return _("Why: points resemble only their close neighbours ({similarity}), so "
                     "components 1–2 follow local detail rather than the classes.").format(
                similarity=similarity)
        if kernel == "sigmoid" and current.saturated_share > SATURATED_SHARE:
            return _because(_saturated_why(current))
        if kernel in ("poly", "sigmoid") and c0 != 0 and math.isfinite(current.typical_product):
            ratio = format_ratio(current.typical_product / abs(c0))
            if kernel == "poly":
                return _("Why: γ xᵀy is typically {ratio} × c₀ here, so c₀ hardly counts: K ≈ "
                         "(γ xᵀy)ᵈ weighs only the monomials of degree exactly d, most of all "
                         "on the points with the largest inner products.").format(ratio=ratio)
            return _("Why: γ xᵀy is typically {ratio} × c₀ here, so c₀ hardly counts.").format(
                ratio=ratio)
        return _neither(similarity, plane)
    if kind == "too_small":
        if current.linear_similarity >= LINEAR_SIMILARITY:
            return _because(_linear_why(kernel, current))
        if kernel == "sigmoid" and current.saturated_share > SATURATED_SHARE:
            return _because(_saturated_why(current))
        return _neither(similarity, plane)
    if c0 == 0:
        return _("Why: the degree sets which products of input coordinates the features hold "
                 "(with c₀ = 0 only those of degree exactly d, and γ merely rescales K); here "
                 "another degree brings the classes apart on components 1–2.")
    return _("Why: the degree sets which products of input coordinates the features hold; "
             "here another degree brings the classes apart on components 1–2.")


def _neither(similarity: str, plane: str) -> str:
    return _(
        "Why: K is neither close to I nor close to linear here ({similarity}; {plane}); at "
        "this γ the two directions of largest variance in feature space are simply not the "
        "ones that separate the classes.").format(similarity=similarity, plane=plane)


# --------------------------------------------------------------------------- no labels


def symptom(found: Search, t: Trial) -> str | None:
    """The spectral symptom of one trial: "too_large", "saturated", "linear" or None.

    * "too_large": :func:`looks_like_identity` (RBF, Laplacian);
    * "saturated": a sigmoid at γ above its reference with more than
      ``SATURATED_SHARE`` of the pairs at ±1;
    * "linear": components 1–2 span linear PCA's plane (``LINEAR_SIMILARITY``) at a γ at
      most the reference / ``LINEAR_BELOW``.
    """
    reference = found.reference or 0.0
    if t.error is not None:
        return None
    if looks_like_identity(found.kernel, t, found.n_sample):
        return "too_large"
    if found.kernel == "sigmoid" and t.saturated_share > SATURATED_SHARE and t.gamma > reference:
        return "saturated"
    if t.linear_similarity >= LINEAR_SIMILARITY and t.gamma * LINEAR_BELOW <= reference:
        return "linear"
    return None


def diagnose_unlabelled(found: Search, current: Trial) -> Hint | None:
    """Spectral symptoms for data without labels, and the nearest γ free of them.

    Calibrated on the labelled data sets (``benchmarks/gamma_grid.py``): "K ≈ I" and
    "saturated" fire on views whose labelled score is poor and almost never on good
    ones, so their hints say "too large". "Linear" cannot tell on its own whether that
    is bad (on iris or the USPS digits linear PCA is as good as any γ; on the circles
    it is useless), so its hint says what is seen and offers a γ at which the kernel
    stops being linear, to look at. The γ offered is the tried value closest to the
    current one, in the direction that cures the symptom, where none of the symptoms
    shows; none when there is no such value.
    """
    if not found.gamma_matters or current.error is not None:
        return None
    kind = symptom(found, current)
    if kind is None:
        return None
    lower = kind in ("too_large", "saturated")
    healthy = [
        t for t in found.trials
        if t.degree == current.degree and t.error is None and symptom(found, t) is None
        and (t.gamma < current.gamma if lower else (
            t.gamma > current.gamma and t.linear_similarity < LINEAR_SIMILARITY))
    ]
    if not healthy:
        return None
    chosen = min(healthy, key=lambda t: abs(math.log10(t.gamma / current.gamma)))
    # No measured comparison without labels: the symptom, why, then the fix
    # (:func:`_unlabelled_words`).
    return Hint(kind, chosen.gamma, chosen.degree, current, chosen, Context.of(found),
                from_labels=False)


# Without labels, the symptom's title: kind → words ({now}: "γ = 5 (230 × reference)").
_UNLABELLED_TITLES = {
    "too_large": N_("{now} looks too large for these data."),
    "saturated": N_("{now} saturates the sigmoid."),
    "linear": N_("With {now} kernel PCA shows what linear PCA shows."),
}
# The fix: (γ lower cures it?, on a sample?) → words.
_UNLABELLED_FIXES = {
    (True, False): N_("At γ = {gamma} this symptom is gone. Without class labels this rests "
                      "on the kernel matrix alone."),
    (True, True): N_("At γ = {gamma} this symptom is gone (on a sample of {n_sample} of the "
                     "{n_total} points). Without class labels this rests on the kernel matrix "
                     "alone."),
    (False, False): N_("At γ = {gamma} the kernel is no longer linear: look whether the "
                       "picture there shows structure linear PCA misses. Without class labels "
                       "nobody can tell whether it will; on some data linear PCA is as good as "
                       "any γ."),
    (False, True): N_("At γ = {gamma} the kernel is no longer linear (on a sample of "
                      "{n_sample} of the {n_total} points): look whether the picture there "
                      "shows structure linear PCA misses. Without class labels nobody can tell "
                      "whether it will; on some data linear PCA is as good as any γ."),
}


def _unlabelled_words(hint: Hint) -> tuple[str, str, str, str]:
    """(title, message, why, button) of a symptom's hint (no labels), in this run's
    language: no measured comparison, so the message is empty."""
    found, current, chosen, kind = hint.found, hint.current, hint.chosen, hint.kind
    if found.reference:
        now = _("γ = {gamma} ({ratio} × {reference})").format(
            gamma=format_gamma(current.gamma),
            ratio=format_ratio(current.gamma / found.reference),
            reference=_(REFERENCE_SHORT[found.kernel]))
    else:
        now = _("γ = {gamma}").format(gamma=format_gamma(current.gamma))
    title = _(_UNLABELLED_TITLES[kind]).format(now=now)
    if kind == "too_large":
        why = _because(_identity_why(current, found.n_sample))
    elif kind == "saturated":
        why = _because(_saturated_why(current))
    else:
        why = _because(_linear_why(found.kernel, current))
    lower = kind in ("too_large", "saturated")
    fix = _(_UNLABELLED_FIXES[lower, found.n_sample != found.n_total]).format(
        gamma=format_gamma(chosen.gamma), n_sample=format_number(found.n_sample, ","),
        n_total=format_number(found.n_total, ","))
    return title, "", f"{why} {fix}", _("Use γ = {gamma}").format(
        gamma=format_gamma(chosen.gamma))
