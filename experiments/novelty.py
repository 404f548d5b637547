r"""Kernel PCA for novelty detection: the reconstruction error in feature space.

Hoffmann (2007, "Kernel PCA for novelty detection", Pattern Recognition 40(3), 863–874)
fits kernel PCA on normal data only and scores a new point x by how far φ(x) lies from
the principal subspace of the training points, measured from their mean φ̄:

    p(x) = ‖φ̃(x)‖² − Σ_{l=1}^{q} f_l(x)²,

    ‖φ̃(x)‖² = ‖φ(x) − φ̄‖² = k(x, x) − (2/n) Σᵢ k(x, xᵢ) + (1/n²) Σᵢⱼ k(xᵢ, xⱼ),

    f_l(x) = Σᵢ αᵢˡ k̃(xᵢ, x)   (the projection on component l, centred with the training
                               statistics: kernel PCA's transform).

Everything comes from k(x, x), the kernel row of x to the training points and the
training statistics; no φ is ever formed. A large p(x) says x is unlike the normal data.

Also here, for the page and the classroom's question to share: the split into training
points, held-out normal points and outliers (:func:`novelty_split`), and scikit-learn's
``OneClassSVM`` and ``IsolationForest`` scored on the same split (:func:`baseline_scores`).
Plain functions of arrays, no Streamlit.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
from sklearn.ensemble import IsolationForest
from sklearn.metrics import pairwise_kernels, roc_auc_score
from sklearn.neighbors import NearestNeighbors
from sklearn.svm import OneClassSVM

from experiments.kernel_diagnostics import reference_gamma
from experiments.kpca_steps import KpcaFit, fit_kpca
from experiments.plane_grid import MARGIN
from words.i18n import N_

# The share of the normal points kept out of the fit, to be scored beside the outliers. Stated
# here, where the split is made; the registry imports it for the page's n × n work.
HELD_OUT = 0.25
# "Off the shape": an outlier drawn uniformly is kept only if it is farther from every
# normal point than this many times the normal points' median nearest-neighbour distance.
OFF_SHAPE = 3.0
NU = 0.1  # OneClassSVM's ν: at most a tenth of the training points outside its boundary
# The one-class SVM estimates a region where the data are dense (a level set of their
# density) with a kernel that is a function of x − y: then k(x, x) is the same for every x,
# φ(X) lies on a sphere, the SVM is Tax & Duin's smallest enclosing ball, and at ν = 1 a
# thresholded Parzen window estimate (Schölkopf et al. 2001, "Estimating the support of a
# high-dimensional distribution"; Vert & Vert 2006 for its consistency with Gaussian
# kernels). With another kernel it separates the points from the origin of feature space,
# and points far out can score as the most normal: on the moons, (x·y + 1)³ gives it AUC
# 0.274 (outliers ranked as more normal than normal points). Those kernels give it an RBF
# kernel instead (:func:`svm_kernel`).
LEVEL_SET_KERNELS = ("rbf", "laplacian")
SEED = 0
# Names (keys of the scores and AUCs, English), translated where shown.
BASELINES = (N_("One-class SVM"), N_("Isolation forest"))


def kernel_diagonal(X: np.ndarray, kernel: str, kernel_params: dict) -> np.ndarray:
    """k(x, x) for each row x of X, without the m × m kernel matrix.

    RBF and Laplacian: 1; cosine: 1 (0 for a zero row, as ``compute_kernel``); the others
    are functions of ‖x‖²: ‖x‖², (γ‖x‖² + c₀)ᵈ, tanh(γ‖x‖² + c₀).
    """
    X = np.asarray(X, dtype=np.float64)
    if kernel in ("rbf", "laplacian"):
        return np.ones(len(X))
    squared = np.einsum("ij,ij->i", X, X)
    if kernel == "cosine":
        return (squared > 0).astype(float)
    if kernel == "linear":
        return squared
    gamma, coef0 = float(kernel_params["gamma"]), float(kernel_params.get("coef0", 0.0))
    if kernel == "poly":
        return (gamma * squared + coef0) ** int(kernel_params["degree"])
    if kernel == "sigmoid":
        return np.tanh(gamma * squared + coef0)
    raise ValueError(f"No diagonal known for the kernel {kernel!r}.")


def errors_and_spread(fit: KpcaFit, points: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Hoffmann's p(x) for each row x of ``points`` with the components of ``fit``, and
    ‖φ̃(x)‖², the squared distance to the training mean in feature space that p(x) is the
    part of outside the principal subspace.

    ``fit``'s components with μ = 0 (rounding) have α = 0 and add nothing. The points are
    taken a block of n at a time (n the training points), so the test-kernel matrix never
    holds more than n × n entries; no loop over single points.
    """
    points = np.asarray(points, dtype=np.float64)
    block = max(1, len(fit.X))
    errors, spreads = [], []
    for start in range(0, len(points), block):
        part = points[start:start + block]
        rows = fit.kernel_rows(part)
        spread = (kernel_diagonal(part, fit.kernel, fit.kernel_params)
                  - 2.0 * rows.mean(axis=1) + fit.centering.grand_mean)
        projections = fit.project_kernel_rows(rows, copy=False)
        errors.append(spread - np.einsum("ij,ij->i", projections, projections))
        spreads.append(spread)
    if not errors:
        return np.zeros(0), np.zeros(0)
    return np.concatenate(errors), np.concatenate(spreads)


def reconstruction_errors(fit: KpcaFit, points: np.ndarray) -> np.ndarray:
    """Hoffmann's p(x) = ‖φ̃(x)‖² − Σ_l f_l(x)² for each row x of ``points``."""
    return errors_and_spread(fit, points)[0]


@dataclass(frozen=True)
class Split:
    """Normal points to fit on and to score, and the outliers to score against them.

    Attributes
    ----------
    train, held_out : (·,) int
        Rows of the data: the normal points kernel PCA is fitted on, and those kept out.
    outliers : (m, d) float
        The outliers' inputs.
    outlier_rows : (m,) int or None
        Their rows in the data (other classes), or None (drawn uniformly off the shape).
    kind : str
        "off the shape" or "other classes".
    """

    train: np.ndarray
    held_out: np.ndarray
    outliers: np.ndarray
    outlier_rows: np.ndarray | None
    kind: str


# Candidates drawn per outlier sought, in each round of the search off the shape.
CANDIDATES_PER_OUTLIER = 10


def off_shape_candidates(n: int) -> int:
    """The candidates of one round of the search off the shape among ``n`` normal points
    (all of them: the search looks for as many outliers as there are held-out points)."""
    return CANDIDATES_PER_OUTLIER * max(1, math.ceil(HELD_OUT * n))


def off_shape_search_copies(d: int) -> int:
    """Copies of a round's candidates (an r × d float64 matrix, r = 10 m for m outliers
    sought) the search off the shape holds at its peak, at most, in d dimensions.

    Its arrays, in rows of d coordinates: the normal points' copy and the neighbour
    index's (the points, or a tree's bounds: 2 n ≤ 8 m rows, m = ⌈n / 4⌉); a round's
    candidates (10 m), those it keeps (up to all of them), those kept in earlier rounds
    (under m: the search stops once it has m) and their concatenation (up to 11 m). Besides
    the rows, at most 90 m numbers: each point's and each candidate's nearest distances
    and indices, as the neighbour search returns them and as it stacks them, the median's
    copy, the tree's order of the points. So at most 40 m d + 90 m numbers: 4 + ⌈9 / d⌉
    copies of 10 m × d. scikit-learn's neighbour search (a k-d tree in few dimensions,
    distances in chunks of rows in many) never forms the candidates' distances to all n
    points at once. Measured with tracemalloc: 7.3 MB for the 1,000 USPS digits (25.6 MB
    stated), 91 MB for all 7,291 (187 MB stated), 0.84 MB for 5,000 points in the plane
    (1.8 MB stated), and at the worst, 1,000 points in a tiny blob of 256-D whose box is
    all off the shape (a round keeps every candidate), 17.5 MB (25.6 MB stated).
    """
    return 4 + math.ceil(9 / max(d, 1))


def off_shape_search_bytes(n: int, d: int) -> int:
    """Bytes the search off the shape holds at its peak, at most, among ``n`` normal points
    in ``d`` dimensions (:func:`off_shape_search_copies`)."""
    return 8 * off_shape_candidates(n) * d * off_shape_search_copies(d)


def off_shape_points(X_normal: np.ndarray, m: int, *, box: np.ndarray,
                     seed: int = SEED) -> np.ndarray:
    """Up to ``m`` points drawn uniformly in ``box`` ((2, d): lowest and highest corner)
    that lie farther than OFF_SHAPE × the median nearest-neighbour distance from every
    normal point: outliers off the shape. Fewer when the box has too little room: the
    search ends after 20 rounds of 10 m candidates, or at a round that keeps none (off the
    shape is under about 1 in 10 m of the box; in the digits' 256-D box no uniform point is
    that far from every digit, and the 19 rounds left searched in vain for seconds)."""
    rng = np.random.default_rng(seed)
    neighbours = NearestNeighbors(n_neighbors=min(2, len(X_normal))).fit(X_normal)
    if len(X_normal) > 1:
        spacing = float(np.median(neighbours.kneighbors(X_normal)[0][:, 1]))
    else:
        spacing = float(np.ptp(box, axis=0).max()) / 10
    reach = OFF_SHAPE * spacing
    found: list[np.ndarray] = []
    count = 0
    for _ in range(20):  # 20 rounds of 10 m candidates
        candidates = rng.uniform(box[0], box[1],
                                 size=(CANDIDATES_PER_OUTLIER * m, box.shape[1]))
        distance = neighbours.kneighbors(candidates, n_neighbors=1)[0][:, 0]
        kept = candidates[distance > reach]
        found.append(kept)
        count += len(kept)
        if count >= m or not len(kept):
            break
    return np.concatenate(found)[:m]


def novelty_split(X: np.ndarray, y: np.ndarray | None, normal: int | None, *,
                  max_train: int, seed: int = SEED) -> Split:
    """Normal points (all, or the class ``normal``), a held-out quarter of them, and as
    many outliers: the other classes' points, or points drawn off the shape.

    At most ``max_train`` normal points are fitted on (a seeded sample of the rest is
    held out and scored).
    """
    X = np.asarray(X, dtype=np.float64)
    rng = np.random.default_rng(seed)
    rows = np.arange(len(X)) if normal is None else np.flatnonzero(y == normal)
    rows = rng.permutation(rows)
    n_held = max(1, math.ceil(HELD_OUT * len(rows)))
    held_out, train = np.sort(rows[:n_held]), np.sort(rows[n_held:][:max_train])
    if normal is None:
        low, high = X.min(axis=0), X.max(axis=0)
        span = np.where(high > low, high - low, 1.0)
        box = np.vstack([low - MARGIN * span, high + MARGIN * span])
        outliers = off_shape_points(X[rows], len(held_out), box=box, seed=seed)
        return Split(train, held_out, outliers, None, "off the shape")
    others = np.flatnonzero(y != normal)
    picked = np.sort(rng.choice(others, min(len(held_out), len(others)), replace=False))
    return Split(train, held_out, X[picked], picked, "other classes")


def svm_kernel(X_train: np.ndarray, kernel: str, kernel_params: dict) -> tuple[str, dict]:
    """The kernel the one-class SVM is fitted with: kernel PCA's when that makes it a density
    level-set estimator (LEVEL_SET_KERNELS), else an RBF kernel with γ by the median
    heuristic of its training points, 1 / median ‖x − y‖² (1 when they are all equal)."""
    if kernel in LEVEL_SET_KERNELS:
        return kernel, dict(kernel_params)
    gamma = reference_gamma(X_train, "rbf")
    return "rbf", {"gamma": 1.0 if gamma is None else gamma}


def baseline_scores(X_train: np.ndarray, X_test: np.ndarray, *, kernel: str,
                    kernel_params: dict, seed: int = SEED) -> dict[str, np.ndarray]:
    """Novelty scores (larger = more novel) of scikit-learn's ``OneClassSVM``, on the kernel
    :func:`svm_kernel` gives it for kernel PCA's ``kernel`` (computed by scikit-learn), and
    ``IsolationForest``, both fitted on ``X_train``."""
    kernel, kernel_params = svm_kernel(X_train, kernel, kernel_params)
    K_train = pairwise_kernels(X_train, metric=kernel, **kernel_params)
    K_test = pairwise_kernels(X_test, X_train, metric=kernel, **kernel_params)
    svm = OneClassSVM(kernel="precomputed", nu=NU).fit(K_train)
    forest = IsolationForest(random_state=seed).fit(X_train)
    return {"One-class SVM": -svm.decision_function(K_test),
            "Isolation forest": -forest.score_samples(X_test)}


def auc(normal_scores: np.ndarray, outlier_scores: np.ndarray) -> float:
    """Area under the ROC curve: the chance that an outlier scores above a normal point."""
    labels = np.r_[np.zeros(len(normal_scores)), np.ones(len(outlier_scores))]
    return float(roc_auc_score(labels, np.r_[normal_scores, outlier_scores]))


# --------------------------------------------------------------------------- the fit



@dataclass(frozen=True, eq=False)
class NormalFit:
    """Kernel PCA of the normal training points, cut to the q components kept.

    ``q``: the components asked for, at most those with μ > 0 (the others carry nothing);
    ``next_eigenvalue``: μ_{q+1}, to tell whether μ_q is repeated past them (None when
    there is none).
    """

    fit: KpcaFit
    q: int
    next_eigenvalue: float | None


def normal_fit(train: np.ndarray, *, kernel: str, kernel_params: dict, q: int,
               seed: int = SEED) -> NormalFit:
    """Fit kernel PCA on the normal points with q + 1 components; keep the first q (fewer
    when fewer have μ > 0)."""
    fit = fit_kpca(train, kernel=kernel, kernel_params=kernel_params,
                   n_components=min(q + 1, len(train)), random_state=seed)
    kept = max(1, min(q, int(np.sum(fit.eigenvalues > 0))))
    following = float(fit.eigenvalues[kept]) if kept < len(fit.eigenvalues) else None
    cut = replace(fit, eigenvalues=fit.eigenvalues[:kept], negative=fit.negative[:kept],
                  eigenvectors=fit.eigenvectors[:, :kept], alphas=fit.alphas[:, :kept],
                  projection=fit.projection[:, :kept])
    return NormalFit(cut, kept, following)


def error_rounding(fit: KpcaFit) -> float:
    """The size below which an error p(x) of ``fit`` is not told from rounding: the
    rounding of K's entries, 10 · n · ε · max|K| (:attr:`KpcaFit.eigenvalue_floor`).

    Directions of K̃ whose eigenvalue lies below it are not resolved (the fit counts them
    as 0), and what they leave in a training point's error, Σₗ μₗ vᵢₗ², lies below it too.
    Not a share of ‖φ̃(x)‖², which is ~1e-5 of max|K| at a tiny RBF γ (K ≈ all ones): p
    subtracts sums of the kernel's values, each rounded by about ε · max|K|. Where p is 0
    exactly (every direction of a polynomial kernel kept), |p| stayed under a hundredth of
    this on the data sets tried.
    """
    return fit.eigenvalue_floor


def vanishing(errors: np.ndarray, rounding: float) -> bool:
    """Every error is 0 to within ``rounding`` (:func:`error_rounding`)."""
    return bool(np.all(np.abs(errors) <= rounding))
