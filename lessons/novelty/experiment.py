r"""Novelty detection with kernel PCA: fit on normal points, score new ones by their
reconstruction error in feature space (Hoffmann 2007), beside scikit-learn's one-class SVM
and isolation forest on the same split.

:func:`novelty` fits kernel PCA on the normal training points
(:func:`experiments.kpca_steps.fit_kpca`), scores the held-out normal points and the
outliers with :func:`experiments.novelty.reconstruction_errors`, scores the same points
with the two baselines, and draws the ROC curves. It checks the error formula against an
explicit computation (:func:`explicit_errors`): PCA by scikit-learn on explicit feature
vectors, reconstructed by ``inverse_transform``; for points in the plane it also maps the
error over a grid.

The page (``app_pages/novelty.py``), its benchmark and the tests call these functions.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg
from sklearn.decomposition import PCA
from sklearn.metrics import roc_curve
from threadpoolctl import threadpool_limits

from experiments.feature_maps import n_monomials, poly_feature_map
from experiments.kpca_steps import genuinely_negative
from experiments.novelty import (
    BASELINES,
    OFF_SHAPE,
    Split,
    auc,
    baseline_scores,
    error_rounding,
    normal_fit,
    novelty_split,
    reconstruction_errors,
    svm_kernel,
    vanishing,
)
from experiments.plane_grid import grid_points, grid_side, plane_grid
from experiments.sampling import sample_rows
from kpca_core import KERNELS, compute_kernel
from words.i18n import N_, _, current_language, format_number, join_sentences, ngettext

KPCA = N_("Kernel PCA")  # a method's name (a key of the scores), translated where shown
CHECKED_MAX = 100  # points whose error is recomputed explicitly
EXPLICIT_MAX_TRAIN = 300  # training points of the explicit check's fit, at most
MAX_MONOMIALS = 2000  # the polynomial kernel's explicit φ, when it has at most this many
# ExplicitCheck.why when μ_q and μ_{q+1} are equal to within the rounding of K: "the first
# q components" is then no single subspace, and the error is not defined by the data alone
# (said with ngettext, in ExplicitCheck.why_text).
REPEATED = "repeated"
THREADS = 1  # BLAS and OpenMP threads: small matrices on a shared host
MIN_TRAIN = 3  # normal points to fit on, at least: fewer leave no subspace to learn
MAP_CELLS = 10_000  # grid points of the map at most (100 × 100)


@dataclass(frozen=True)
class ExplicitCheck:
    """The kernel formula's errors against the explicit ones at the same points.

    ``how``: the explicit map used; ``gap``: max |p_kernel − p_explicit| / max ‖φ̃(x)‖²; None
    when no real feature map exists (an indefinite kernel) or the subspace is not defined
    (``why`` says which). ``sample``: past EXPLICIT_MAX_TRAIN training points, the check
    runs on a fit to a sample of this many of the ``of`` training points.
    """

    how: str  # an English phrase marked with N_: the page translates it
    gap: float | None
    points: int
    why: str = ""  # an English message marked with N_, or REPEATED
    sample: int = 0  # training points of the fit checked, when a sample (0: the page's fit)
    of: int = 0  # ... of this many
    q: int = 0  # the components of the fit checked (REPEATED's q)
    rounding: float = 0.0  # the rounding of K the eigenvalues were compared to (REPEATED's)

    def why_text(self) -> str:
        """``why`` in the run's language, its numbers filled in."""
        if self.why != REPEATED:
            return _(self.why)
        return ngettext(
            "μ{q} and μ{next} are equal to within the rounding of K (10·n·ε·max|K| = "
            "{rounding}): the first component is no single direction, and the error depends "
            "on which is taken",
            "μ{q} and μ{next} are equal to within the rounding of K (10·n·ε·max|K| = "
            "{rounding}): the first {q} components are no single subspace, and the error "
            "depends on which is taken",
            self.q).format(q=self.q, next=self.q + 1,
                           rounding=format_number(self.rounding, ".2g"))


@dataclass(frozen=True, eq=False)
class Novelty:
    """One novelty detection: the split, the errors, the baselines, the curves, the map.

    Attributes
    ----------
    split : Split
    q : int
        Components kept (those of the requested with μ > 0).
    eigenvalues : (q,) float
    train_errors, held_errors, outlier_errors : float arrays
        p(x) of the training points, the held-out normal points and the outliers.
    scores : dict name → (held-out scores, outlier scores)
        Kernel PCA's errors and the two baselines' scores (larger = more novel).
    aucs : dict name → float
    curves : dict name → (false-positive rates, true-positive rates)
    check : ExplicitCheck
    grid : (xs, ys, values) or None
        The error over the plane (points in the plane only).
    kernel : str
        Kernel PCA's kernel.
    svm_kernel : (str, dict)
        The one-class SVM's kernel and its parameters
        (:func:`experiments.novelty.svm_kernel`): kernel PCA's, or an RBF kernel.
    rounding : float
        The size below which an error is rounding (:func:`experiments.novelty.error_rounding`).
    vanishing : bool
        Every scored point's error is 0 to within ``rounding``: the q components hold all of
        these points' variance in feature space, and the errors rank nothing.
    """

    split: Split
    q: int
    eigenvalues: np.ndarray
    train_errors: np.ndarray
    held_errors: np.ndarray
    outlier_errors: np.ndarray
    scores: dict
    aucs: dict
    curves: dict
    check: ExplicitCheck
    grid: tuple[np.ndarray, np.ndarray, np.ndarray] | None
    kernel: str
    svm_kernel: tuple[str, dict]
    rounding: float
    vanishing: bool = False

    @property
    def svm_gamma(self) -> float | None:
        """The RBF γ the one-class SVM was given instead of kernel PCA's kernel, or None
        when it has kernel PCA's own."""
        name, params = self.svm_kernel
        return None if name == self.kernel else float(params["gamma"])


def explicit_features(Z: np.ndarray, kernel: str, kernel_params: dict
                      ) -> tuple[np.ndarray | None, str]:
    """Feature vectors Φ with Φ Φᵀ = K for the rows of Z, and how they were made.

    Linear kernel: the inputs. Polynomial kernel with c₀ ≥ 0 and few monomials: its
    explicit φ (one coordinate per monomial, ``experiments.feature_maps``). Any other
    positive semi-definite kernel: Φ = V √Λ from the eigendecomposition K = V Λ Vᵀ of the
    kernel matrix of these very points (a finite feature map for them). None for a kernel
    with genuinely negative eigenvalues (no real feature map): below the rounding of K's
    entries (:func:`experiments.kpca_steps.genuinely_negative`), not below a share of the
    largest eigenvalue. A saturated sigmoid (iris, γ = 0.3, c₀ = 0) has K ≈ all ones, whose
    largest eigenvalue (n) hid a −3.5e-7 that is as large as K̃'s own eigenvalues: the map
    with it clipped to 0 was no map of these points, and the check failed.
    """
    if kernel == "linear":
        return Z, N_("the inputs themselves (the linear kernel's φ)")
    d = Z.shape[1]
    if (kernel == "poly" and kernel_params["coef0"] >= 0
            and n_monomials(d, int(kernel_params["degree"])) <= MAX_MONOMIALS):
        features, _ = poly_feature_map(Z, degree=int(kernel_params["degree"]),
                                       gamma=float(kernel_params["gamma"]),
                                       coef0=float(kernel_params["coef0"]))
        return features, N_("the polynomial kernel's explicit φ (one coordinate per monomial)")
    K = compute_kernel(Z, kernel=kernel, **kernel_params)
    values, vectors = linalg.eigh(K)
    if genuinely_negative(values, len(Z), np.abs(K).max()).any():
        return None, N_("this kernel has negative eigenvalues: no real feature map exists")
    return (vectors * np.sqrt(np.clip(values, 0.0, None)),
            N_("Φ = V√Λ from the eigendecomposition of the kernel matrix of these points"))


def explicit_errors(X_train: np.ndarray, X_check: np.ndarray, *, kernel: str,
                    kernel_params: dict, q: int
                    ) -> tuple[np.ndarray | None, np.ndarray | None, str]:
    """‖φ̃(x) − P_q φ̃(x)‖² computed explicitly: scikit-learn's PCA with q components on
    the training points' feature vectors, then each checked point's feature vector minus
    its reconstruction (``inverse_transform(transform(·))``). Also ‖φ̃(x)‖², the squared
    distance to the training mean (what the error is a part of). (None, None, why)
    without a real feature map."""
    features, how = explicit_features(np.vstack([X_train, X_check]), kernel, kernel_params)
    if features is None:
        return None, None, how
    train, check = features[: len(X_train)], features[len(X_train):]
    pca = PCA(n_components=q, svd_solver="full").fit(train)
    residual = check - pca.inverse_transform(pca.transform(check))
    centred = check - train.mean(axis=0)
    return (np.einsum("ij,ij->i", residual, residual), np.einsum("ij,ij->i", centred, centred),
            how)


def nothing_to_score(split: Split, n_classes: int) -> str | None:
    """Why ``split`` leaves kernel PCA nothing to fit on or nothing to score, and what to
    change, in the run's language; None when it can be scored.

    ``n_classes``: the data's classes (with two or more, one of them made normal leaves
    the others as outliers). Decided from the split alone, before anything is fitted.
    """
    if len(split.train) < MIN_TRAIN:
        n = len(split.train) + len(split.held_out)
        return ngettext(
            "The normal class has {n} point: too few to fit kernel PCA on once a quarter is "
            "held out to be scored (at least {least} must be left). Choose a larger class, "
            "or all points, as the normal data.",
            "The normal class has {n} points: too few to fit kernel PCA on once a quarter is "
            "held out to be scored (at least {least} must be left). Choose a larger class, "
            "or all points, as the normal data.", n).format(n=n, least=MIN_TRAIN)
    if len(split.outliers):
        return None
    if split.kind == "other classes":
        return _("Every point belongs to the normal class: no other class is left to be the "
                 "outliers, so there is nothing to score. Choose all points as the normal "
                 "data: the outliers are then drawn off their shape.")
    why = _("No outlier could be drawn: no point drawn uniformly in the data's box (with a "
            "margin) lies farther than {factor} × the normal points' median "
            "nearest-neighbour distance from every normal point, so there is nothing to "
            "score the held-out normal points against.").format(
        factor=format_number(OFF_SHAPE, "g"))
    change = (_("Choose one class as the normal data: the other classes are then the "
                "outliers.") if n_classes > 1 else
              _("Use more points, or data in fewer dimensions: both leave room off the "
                "shape."))
    return join_sentences((why, change))


def novelty(X: np.ndarray, y: np.ndarray | None, *, kernel: str, kernel_params: dict,
            q: int, normal: int | None, max_train: int, grid: bool = True,
            seed: int = 0, split: Split | None = None) -> Novelty:
    """Fit on the normal points of X, score held-out normal points against outliers.

    Parameters
    ----------
    X, y : the inputs as the kernel sees them, and their classes (or None).
    kernel, kernel_params : the kernel.
    q : components kept (at most the training points' count − 1).
    normal : the class that is normal, or None for all points (outliers then are drawn
        uniformly off the shape).
    max_train : at most this many training points.
    grid : map the error over the plane (X with two columns only).
    split : the split of these arguments (:func:`experiments.novelty.novelty_split`) when
        the caller has made it already (the page, to say first whether there is anything
        to score: :func:`nothing_to_score`), else None.
    """
    X = np.asarray(X, dtype=np.float64)
    if split is None:
        split = novelty_split(X, y, normal, max_train=max_train, seed=seed)
    problem = nothing_to_score(split, 0 if y is None else len(np.unique(y)))
    if problem is not None:
        raise ValueError(problem)
    train = X[split.train]
    with threadpool_limits(limits=THREADS):
        fitted = normal_fit(train, kernel=kernel, kernel_params=kernel_params, q=q, seed=seed)
        fit, kept, following = fitted.fit, fitted.q, fitted.next_eigenvalue
        held, outliers = X[split.held_out], split.outliers
        errors = [reconstruction_errors(fit, part) for part in (train, held, outliers)]
        others = baseline_scores(train, np.vstack([held, outliers]), kernel=kernel,
                                 kernel_params=kernel_params, seed=seed)
        check = _check(fit, train, held, outliers, errors, kernel, kernel_params, kept,
                       following, seed)
        plane = _grid(fit, X) if grid and X.shape[1] == 2 else None
    scores = {KPCA: (errors[1], errors[2])}
    scores.update({name: (s[: len(held)], s[len(held):]) for name, s in others.items()})
    aucs, curves = {}, {}
    for name, (normal_scores, outlier_scores) in scores.items():
        aucs[name] = auc(normal_scores, outlier_scores)
        labels = np.r_[np.zeros(len(normal_scores)), np.ones(len(outlier_scores))]
        fpr, tpr, _ = roc_curve(labels, np.r_[normal_scores, outlier_scores])
        curves[name] = (fpr, tpr)
    rounding = error_rounding(fit)
    return Novelty(split=split, q=kept, eigenvalues=fit.eigenvalues, train_errors=errors[0],
                   held_errors=errors[1], outlier_errors=errors[2], scores=scores, aucs=aucs,
                   curves=curves, check=check, grid=plane, kernel=kernel,
                   svm_kernel=svm_kernel(train, kernel, kernel_params), rounding=rounding,
                   vanishing=vanishing(np.r_[errors[1], errors[2]], rounding))


def _check(fit, train, held, outliers, errors, kernel, params, q, following,
           seed) -> ExplicitCheck:
    """The page's errors against explicit ones at up to CHECKED_MAX scored points.

    The explicit feature vectors of n training points and m checked ones have up to n + m
    coordinates, and PCA of them holds several (n + m)² arrays: past EXPLICIT_MAX_TRAIN
    training points the check runs on a fit to a seeded sample of that many instead (the
    same formula, the same code, on fewer points), and says so.
    """
    checked = np.vstack([held, outliers])[:CHECKED_MAX]
    ours = np.r_[errors[1], errors[2]][: len(checked)]
    fitted_on = len(train)
    if len(train) > EXPLICIT_MAX_TRAIN:
        train = train[sample_rows(len(train), EXPLICIT_MAX_TRAIN, seed)]
        small = normal_fit(train, kernel=kernel, kernel_params=params, q=q, seed=seed)
        fit, q, following = small.fit, small.q, small.next_eigenvalue
        ours = reconstruction_errors(fit, checked)
    if not fit.eigenvalues[0] > 0:  # every eigenvalue cut as rounding: no component at all
        return ExplicitCheck("", None, 0, q=q, why=N_(
            "no eigenvalue of K̃ rises above the rounding of K: no component carries "
            "variance, and there is no subspace to check"))
    # Two eigenvalues are told apart when they differ by more than the rounding of K's
    # entries (experiments.kpca_steps.rounding_floor), not by a share of μ₁: on the moons at
    # γ = 1e-6, μ₃ = 5.9e-10 and μ₄ = 1.1e-10 lie within 1e-6 × μ₁ of each other, yet 80 %
    # apart and far above the rounding (6.7e-13): component 3 is one direction.
    if following is not None and fit.eigenvalues[-1] - following <= fit.eigenvalue_floor:
        return ExplicitCheck("", None, 0, q=q, why=REPEATED, rounding=fit.eigenvalue_floor)
    explicit, spread, how = explicit_errors(train, checked, kernel=kernel, kernel_params=params,
                                            q=q)
    if explicit is None:
        return ExplicitCheck(how, None, 0, why=how, q=q)
    # Relative to ‖φ̃(x)‖², of which the error is the part outside the subspace: the
    # subtraction p = ‖φ̃‖² − Σ f² leaves rounding of that size, whatever p is.
    scale = max(float(spread.max()), np.finfo(float).tiny)
    return ExplicitCheck(how, float(np.abs(ours - explicit).max() / scale), len(checked),
                         sample=len(train) if len(train) < fitted_on else 0,
                         of=fitted_on)


def _grid(fit, X: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    side = min(grid_side(len(fit.X)), int(np.sqrt(MAP_CELLS)))
    xs, ys = plane_grid(X, side)
    values = reconstruction_errors(fit, grid_points(xs, ys)).reshape(side, side)
    return xs, ys, values


# --------------------------------------------------------------------------- the threshold


def threshold(train_errors: np.ndarray, percent: float) -> float:
    """The smallest training error that at least ``percent`` % of the training points do
    not exceed (a point is flagged above it)."""
    return float(np.percentile(train_errors, percent, method="inverted_cdf"))


def flagged(errors: np.ndarray, cut: float, rounding: float) -> np.ndarray:
    """Which errors lie above ``cut`` by more than ``rounding``: flagged as novel. An error
    above it by less is not told from the cut (where the cut is 0 to within rounding, an
    error of ~1e-14 above a cut of 3e-15 is no more novel than the cut)."""
    return np.asarray(errors) - cut > rounding


def rates(result: Novelty, cut: float) -> tuple[float, float]:
    """(share of held-out normal points flagged, share of outliers flagged) by kernel PCA's
    errors at ``cut`` (:func:`flagged`)."""
    return (float(np.mean(flagged(result.held_errors, cut, result.rounding))),
            float(np.mean(flagged(result.outlier_errors, cut, result.rounding))))


# --------------------------------------------------------------------------- the sentences

ABOUT_THE_SAME = 0.02  # AUCs closer than this: "about as well"


def _named(name: str) -> str:
    """A method's name inside a sentence ("the one-class SVM"), in the run's language."""
    name = _(name)
    return name[:1].lower() + name[1:] if current_language() in ("en", "en-XA") else name


def comparison_sentence(result: Novelty) -> str:
    """Kernel PCA's AUC beside the baselines', and which does better, from the numbers."""
    ours = result.aucs[KPCA]
    aucs = {name: format_number(result.aucs[name], ".3f") for name in result.aucs}
    svm, forest = BASELINES
    if result.vanishing and not result.eigenvalues[0] > 0:  # K̃ = 0: a saturated kernel
        return _("Every error is 0 to within rounding here: no eigenvalue of K̃ rises above "
                 "the rounding of K, and every scored point sits at the training points' "
                 "mean in feature space (the kernel gives every pair the same value), so "
                 "nothing is left to score, and kernel PCA's AUC ({ours}) is rounding noise. "
                 "Use another kernel setting. The baselines: {svm} {svm_auc}, {forest} "
                 "{forest_auc}.").format(
            ours=aucs[KPCA], svm=_named(svm), svm_auc=aucs[svm], forest=_named(forest),
            forest_auc=aucs[forest])
    if result.vanishing:  # one component cannot be fewer: a sentence of its own
        text = (_("Every error is 0 to within rounding here: one component holds all the "
                  "variance of these points in feature space, so nothing is left to score, "
                  "and kernel PCA's AUC ({ours}) is rounding noise. Use another kernel "
                  "setting. The baselines: {svm} {svm_auc}, {forest} {forest_auc}.")
                if result.q == 1 else
                _("Every error is 0 to within rounding here: {q} components hold all "
                  "the variance of these points in feature space, so nothing is left to "
                  "score, and kernel PCA's AUC ({ours}) is rounding noise. Use fewer "
                  "components or another kernel setting. The baselines: {svm} {svm_auc}, "
                  "{forest} {forest_auc}."))
        return text.format(q=format_number(result.q), ours=aucs[KPCA], svm=_named(svm),
                           svm_auc=aucs[svm], forest=_named(forest), forest_auc=aucs[forest])
    text = _("AUC: kernel PCA {ours}, {svm} {svm_auc}, {forest} {forest_auc} (1 = every "
             "outlier scores above every normal point, 0.5 = no better than chance).").format(
        ours=aucs[KPCA], svm=_named(svm), svm_auc=aucs[svm], forest=_named(forest),
        forest_auc=aucs[forest])
    sentences = [text]
    if result.svm_gamma is not None:
        sentences.append(_(
            "The one-class SVM is fitted with an RBF kernel here, γ = {gamma} (the median "
            "heuristic, 1/median ‖x − y‖² of the training points), not with the {kernel} "
            "kernel: only a kernel of x − y alone makes it estimate where the data are dense, "
            "and with the {kernel} kernel it can rank outliers as more normal than the normal "
            "points.").format(gamma=format_number(result.svm_gamma, ".3g"),
                              kernel=_named(KERNELS[result.kernel].title)))
    for name in BASELINES:
        theirs = result.aucs[name]
        if abs(ours - theirs) < ABOUT_THE_SAME:
            sentences.append(_("Kernel PCA does about as well as the {method}.").format(
                method=_named(name)))
        elif ours > theirs:
            sentences.append(_("Kernel PCA does better than the {method} (by {by}).").format(
                method=_named(name), by=format_number(ours - theirs, ".3f")))
        else:
            sentences.append(_("The {method} does better than kernel PCA (by {by}).").format(
                method=_named(name), by=format_number(theirs - ours, ".3f")))
    return join_sentences(sentences)


def threshold_sentence(result: Novelty, percent: float) -> str:
    """What a cut at the training errors' ``percent``-th percentile flags: the points above
    it by more than the rounding of p(x) (:func:`flagged`), and how many more lie above it
    by less."""
    cut = threshold(result.train_errors, percent)
    scored = (result.held_errors, result.outlier_errors)
    alarms, found = (int(flagged(errors, cut, result.rounding).sum()) for errors in scored)
    above = sum(int(np.sum(errors > cut)) for errors in scored)
    held, outliers = len(result.held_errors), len(result.outlier_errors)
    within = int(np.sum(result.train_errors <= cut))
    train = len(result.train_errors)
    text = _("Flag a point when p(x) > {cut}, an error that {within} of the {train} "
             "training points ({within_share} %) do not exceed: "
             "{alarms} of the {held} held-out normal points are flagged "
             "({alarm_share} %, false alarms) and {found} of the "
             "{outliers} outliers ({found_share} %).").format(
        cut=format_number(cut, ".4g"), within=within, train=train,
        within_share=format_number(100 * within / train, ".1f"),
        alarms=alarms, held=held, alarm_share=format_number(100 * alarms / held, ".1f"),
        found=found, outliers=outliers, found_share=format_number(100 * found / outliers, ".1f"))
    by_rounding = above - alarms - found
    if not by_rounding:
        return text
    return join_sentences((text, ngettext(
        "{n} more scored point lies above the threshold by less than the rounding of K "
        "(10·n·ε·max|K| = {rounding}), too little to tell, and is not counted.",
        "{n} more scored points lie above the threshold by less than the rounding of K "
        "(10·n·ε·max|K| = {rounding}), too little to tell, and are not counted.",
        by_rounding).format(
        n=by_rounding, rounding=format_number(result.rounding, ".2g"))))
