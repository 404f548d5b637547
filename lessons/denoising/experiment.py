r"""De-noising digits with linear PCA and with RBF kernel PCA plus a pre-image.

The experiment of Mika et al. (1999), "Kernel PCA and de-noising in feature spaces",
as pure functions of arrays, shared by the page and by
``benchmarks/reproduce_mika1999.py`` so both print the same numbers:

1. fit linear PCA and RBF kernel PCA **once**, with the largest number of components
   M that will be asked for (:func:`fit_denoisers`);
2. project the noisy test digits on the first m <= M components: PCA's reconstruction
   is exact (mean + V_m V_m^T (x - mean)); kernel PCA's projection P_m phi(x) is a point
   of feature space that in general is the image of *no* digit, so it is mapped back
   by a pre-image method:

   * ``"learned"``: kernel ridge regression from the m projections of the training
     digits to the digits themselves (Bakır et al. 2004; scikit-learn's
     ``fit_inverse_transform``);
   * ``"fixed_point"``: Mika et al.'s iteration
     z <- sum_i c_i k(z, x_i) x_i / sum_i c_i k(z, x_i), started from the noisy digit
     and restarted from the nearest training digit (in feature space) when it fails;
   * ``"kwok_tsang"``: Kwok & Tsang (2004), distances to the k nearest training
     digits turned into input-space distances and placed by multidimensional scaling,
     here with a Tikhonov-regularised (trust-region) solve where those distances
     contradict each other (``kpca_core.kwok_tsang_preimage``; the original divides by
     the neighbours' singular values);

3. score each reconstruction by its mean squared error per pixel against the clean
   digits (:func:`mse`), for every m of a grid (:func:`method_curve`).

Nothing here imports Streamlit; the kpca_core steps do the kernel PCA.
"""

from __future__ import annotations

import time
import warnings
from collections.abc import Callable, Sequence
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field

import numpy as np
from scipy import linalg
from sklearn.decomposition import PCA
from threadpoolctl import threadpool_limits

from experiments.kpca_steps import KpcaFit, fit_kpca
from kpca_core import (
    compute_kernel,
    feature_space_coefficients,
    feature_space_sq_distances,
    fixed_point_preimage,
    kwok_tsang_preimage,
)
from words.i18n import N_

NOISE_KINDS = ("gaussian", "speckle")
# English messages (N_): said with _() where shown.
NOISE_TITLES = {"gaussian": N_("Gaussian"), "speckle": N_("speckle")}
PREIMAGE_METHODS = ("learned", "fixed_point", "kwok_tsang")
METHODS = ("pca", *PREIMAGE_METHODS)
METHOD_TITLES = {
    "pca": N_("linear PCA"),
    "learned": N_("KPCA · learned (kernel ridge)"),
    "fixed_point": N_("KPCA · fixed point (Mika)"),
    "kwok_tsang": N_("KPCA · Kwok–Tsang (regularised)"),
}
# m on a log scale up to the training size: m_grid adds n - 1, all of kernel PCA's
# components (K~ has rank <= n - 1), so a best m is never the grid's edge by accident.
# One decomposition serves every m. (Mika et al. report their optimum at m = 512 for
# Gaussian noise with 3,000 training digits: a grid that stopped at 256 missed it.)
M_GRID = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048)

# Mika et al. (1999), Section 4 (see benchmarks/reproduce_mika1999.py for the quotes).
PAPER_GAMMA = 1.0 / 128.0  # k(x, y) = exp(-||x - y||^2 / c), c = 0.5 * 256
PAPER_SIGMA = 0.5
PAPER_SPECKLE_P = 0.4
PAPER_TRAIN_PER_CLASS = 300
PAPER_TEST_PER_CLASS = 50
# What the paper reports for the fixed point: best MSE of linear PCA / best of kernel PCA
# (about 1.6 and 1.2), at its best m.
PAPER_RATIO = {"gaussian": 1.6, "speckle": 1.2}
PAPER_BEST_M = {"gaussian": 512, "speckle": 256}
# Defaults of the pre-image methods (the page starts from these).
DEFAULT_ALPHA = 1e-3
DEFAULT_NEIGHBORS = 10
DEFAULT_MAX_ITER = 100
DEFAULT_TOL = 1e-8

Progress = Callable[[int, int], None]

# BLAS threads for the fit and the reconstructions. On a busy 2-core host (a shared
# Streamlit server; this workplace at load ~15), multithreaded OpenBLAS spends most
# of its time waiting for its own threads. Measured at the page's default size (1,000
# training digits, 50 test digits): fit 3-27 s with 2 threads, 0.6 s with 1; the
# fixed-point curve 14 s and 1.0 s; the learned curve 8.6 s and 0.6 s. None: no cap.
BLAS_THREADS: int | None = 1


# ----------------------------------------------------------------------------- data


def add_noise(X: np.ndarray, kind: str, level: float, seed: int) -> np.ndarray:
    """A noisy copy of the digits (the caller's array is never written).

    Parameters
    ----------
    X : ndarray of shape (n, 256)
        Clean digits on the [-1, 1] scale (-1 paper, +1 ink).
    kind : {"gaussian", "speckle"}
        ``"gaussian"``: x + N(0, level^2) in every pixel, not clipped (as in the paper).
        ``"speckle"``: each pixel, with probability ``level``, is replaced by -1 or +1
        (each with probability 1/2), i.e. turned white or black at random.
    level : float
        sigma >= 0 for Gaussian noise, p in [0, 1] for speckle noise.
    seed : int
        Seed of the noise.
    """
    X = np.asarray(X, dtype=np.float64)
    rng = np.random.default_rng(seed)
    if kind == "gaussian":
        if not level >= 0:
            raise ValueError(f"The Gaussian noise level sigma must be >= 0; got {level!r}.")
        return X + level * rng.standard_normal(X.shape)
    if kind == "speckle":
        if not 0 <= level <= 1:
            raise ValueError(f"The speckle probability p must be in [0, 1]; got {level!r}.")
        hit = rng.random(X.shape) < level
        values = rng.choice(np.array([-1.0, 1.0]), size=X.shape)
        return np.where(hit, values, X)
    raise ValueError(f"Unknown noise {kind!r}; use one of {NOISE_KINDS}.")


def per_class_indices(y: np.ndarray, per_class: int, seed: int) -> np.ndarray:
    """``per_class`` rows of every class drawn without replacement, sorted by class.

    The paper's design (300 training and 50 test digits of each class), where
    :func:`datasets.usps.stratified_indices` would follow the class frequencies.
    """
    rng = np.random.default_rng(seed)
    picked = []
    for label in np.unique(y):
        rows = np.flatnonzero(y == label)
        if per_class > rows.size:
            raise ValueError(
                f"Class {label} has only {rows.size} digits; asked for {per_class}."
            )
        picked.append(np.sort(rng.choice(rows, size=per_class, replace=False)))
    return np.concatenate(picked)


def mse(reconstructed: np.ndarray, clean: np.ndarray) -> float:
    """Mean squared error per pixel, averaged over the digits: mean((z - x)^2)."""
    return float(np.mean((np.asarray(reconstructed) - np.asarray(clean)) ** 2))


# ------------------------------------------------------------------------------ fit


@dataclass(frozen=True, eq=False)
class DenoisingFit:
    """Linear PCA and RBF kernel PCA fitted once, with ``max_components`` components.

    Attributes
    ----------
    kpca : experiments.kpca_steps.KpcaFit
        RBF kernel PCA of the training digits: its eigenpairs, α, the centring
        statistics of K (to centre the kernels of new digits) and the training digits'
        coordinates sqrt(l) v.
    pca : sklearn.decomposition.PCA
        Linear PCA with ``max_components`` components.
    train_sq_norms : ndarray of shape (n,)
        ||phi~(x_i)||^2 = K~_ii = 1 - 2 colmean_i + grand mean (k(x, x) = 1 for RBF).
    seconds : float
        Time of the kernel PCA fit.
    """

    kpca: KpcaFit
    pca: PCA
    train_sq_norms: np.ndarray
    seconds: float

    @property
    def X_fit(self) -> np.ndarray:
        """The training digits (clean, or noisy when the page asks for it)."""
        return self.kpca.X

    @property
    def gamma(self) -> float:
        """RBF width, k(x, y) = exp(-gamma ||x - y||^2)."""
        return self.kpca.kernel_params["gamma"]

    @property
    def max_components(self) -> int:
        return int(self.kpca.eigenvalues.shape[0])


def largest_m(n_train: int) -> int:
    """The largest m kernel PCA can use: K~ has rank <= n - 1."""
    return max(1, n_train - 1)


def twice_variance_gamma(X: np.ndarray) -> float:
    """gamma = 1 / c with c = 2 d v: "twice the average variance" of the d pixels.

    Mika et al. describe their c = 0.5 d as twice the data's average variance per
    dimension. On these digits (pixels on -1 ... 1) the average variance v is about 0.47,
    so twice it is about 0.94 per pixel (c ~ 240, gamma ~ 1/240), not 0.5: the two
    readings of the paper differ by a factor of almost 2.
    """
    X = np.asarray(X, dtype=np.float64)
    return float(1.0 / (2.0 * X.shape[1] * X.var(axis=0).mean()))


def fit_denoisers(
    X_fit: np.ndarray, gamma: float, max_components: int, *,
    blas_threads: int | None = BLAS_THREADS,
) -> DenoisingFit:
    """Fit linear PCA and RBF kernel PCA once with ``max_components`` components.

    Kernel PCA runs the kpca_core steps (:func:`experiments.kpca_steps.fit_kpca`): K, its
    centring in place, and the leading eigenpairs with K as LAPACK's workspace, so the
    peak is one n x n matrix.
    ``blas_threads`` caps BLAS's threads (see :data:`BLAS_THREADS`).
    """
    with threadpool_limits(limits=blas_threads, user_api="blas"):
        return _fit_denoisers(X_fit, gamma, max_components)


def _fit_denoisers(X_fit: np.ndarray, gamma: float, max_components: int) -> DenoisingFit:
    X_fit = np.array(X_fit, dtype=np.float64)  # our own copy: kept in the result
    n, d = X_fit.shape
    if not 1 <= max_components <= n - 1:
        raise ValueError(
            f"max_components must be between 1 and {n - 1} for {n} training digits; "
            f"got {max_components}."
        )
    # Linear PCA has at most min(n, d) components; beyond them it reconstructs exactly.
    pca = PCA(n_components=min(max_components, n, d), svd_solver="full").fit(X_fit)
    start = time.perf_counter()
    kpca = fit_kpca(X_fit, kernel="rbf", kernel_params={"gamma": float(gamma)},
                    n_components=max_components, overwrite=True)
    centering = kpca.centering
    return DenoisingFit(
        kpca=kpca,
        pca=pca,
        train_sq_norms=1.0 - 2.0 * centering.column_means + centering.grand_mean,
        seconds=time.perf_counter() - start,
    )


def kpca_project(fit: DenoisingFit, X: np.ndarray) -> np.ndarray:
    """Coordinates of new digits on all ``max_components`` kernel axes (n_points x M).

    The first m columns are the projection on the first m axes, so one call serves
    every m.
    """
    return fit.kpca.project(X)


def _check_m(fit: DenoisingFit, m: int) -> int:
    if not 1 <= m <= fit.max_components:
        raise ValueError(f"m must be between 1 and {fit.max_components}; got {m}.")
    return int(m)


# ------------------------------------------------------------------- reconstructions


def pca_reconstruct(fit: DenoisingFit, X: np.ndarray, m: int) -> np.ndarray:
    """Linear PCA's exact reconstruction from the first m components.

    With m at least the rank of the data (all of PCA's components) this is the input
    itself.
    """
    m = _check_m(fit, m)
    V = fit.pca.components_[:m]
    return (np.asarray(X) - fit.pca.mean_) @ V.T @ V + fit.pca.mean_


def learned_preimage(
    fit: DenoisingFit, projections: np.ndarray, m: int, alpha: float
) -> np.ndarray:
    """Kernel ridge regression from the first m projections back to the digits.

    z(beta) = k(beta, B_m) (K_B + alpha I)^{-1} X, with K_B the RBF kernel (same gamma)
    between the training digits' projections B_m: exactly what
    ``KernelPCA(n_components=m, fit_inverse_transform=True, alpha=alpha)`` learns
    (scikit-learn's and kpca_core's ``_fit_inverse_transform``), but on the one
    decomposition shared by every m instead of a refit per m. The system is solved
    in place: one n x n matrix at the peak.
    """
    m = _check_m(fit, m)
    if not alpha >= 0:
        raise ValueError(f"alpha must be >= 0; got {alpha!r}.")
    B = fit.kpca.projection[:, :m]
    K = compute_kernel(B, kernel="rbf", gamma=fit.gamma)
    K.flat[:: K.shape[0] + 1] += alpha
    # K is symmetric, so K.T is the same matrix in the Fortran order LAPACK wants:
    # given the C-ordered K, SciPy 1.17's solve makes two n x n copies (measured: peak
    # 3.4 n x n matrices at n = 3000; with K.T, 1.4).
    dual = linalg.solve(K.T, fit.X_fit, assume_a="pos", overwrite_a=True)
    del K
    return compute_kernel(projections[:, :m], B, kernel="rbf", gamma=fit.gamma) @ dual


@dataclass(frozen=True)
class FixedPointReport:
    """How the fixed-point iteration went for a batch of digits.

    Attributes
    ----------
    iterations : ndarray of int, shape (n_points,)
        Steps taken per digit, first start and restart together.
    converged_first : int
        Digits that converged from the first starting point (the noisy digit).
    restarted : int
        Digits restarted from the nearest training digit after a failure.
    converged_after_restart : int
        Of those, how many converged.
    failed : ndarray of bool, shape (n_points,)
        Digits that did not converge at all; they keep their last well-defined
        position (never NaN).
    max_iter : int
        Step budget per start.
    """

    iterations: np.ndarray
    converged_first: int
    restarted: int
    converged_after_restart: int
    failed: np.ndarray
    max_iter: int

    @property
    def n_failed(self) -> int:
        return int(self.failed.sum())


def iterate_fixed_point(
    coefs: np.ndarray,
    X_fit: np.ndarray,
    gamma: float,
    init: np.ndarray,
    *,
    max_iter: int,
    tol: float,
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """kpca_core's fixed-point step, one step per call, counting the steps per point.

    Each call of :func:`kpca_core.fixed_point_preimage` with ``max_iter=1`` moves every
    still-active digit once: one kernel evaluation for the whole batch per step, as
    in a single call with ``max_iter`` steps (tests check the two agree exactly).

    Returns
    -------
    Z : ndarray (n_points, d), finite
    converged : ndarray of bool
    iterations : ndarray of int
    """
    Z = np.array(init, dtype=np.float64)
    n_points = Z.shape[0]
    converged = np.zeros(n_points, dtype=bool)
    iterations = np.zeros(n_points, dtype=int)
    active = np.ones(n_points, dtype=bool)
    for _ in range(max_iter):
        idx = np.flatnonzero(active)
        if idx.size == 0:
            break
        before = Z[idx]
        with warnings.catch_warnings():
            # Non-convergence after one step is expected here; it is counted below
            # and reported by the caller, so any per-call warning would be noise.
            warnings.simplefilter("ignore")
            Z_step, done = fixed_point_preimage(
                coefs[idx], X_fit, gamma, before, max_iter=1, tol=tol
            )
        finite = np.isfinite(Z_step).all(axis=1)
        # A vanished denominator (far from every training digit, all k(z, x_i)
        # underflow) leaves the point where it was: it cannot move any more.
        stuck = ~done & (~finite | (Z_step == before).all(axis=1))
        Z[idx[finite]] = Z_step[finite]
        iterations[idx] += 1
        converged[idx[done & finite]] = True
        active[idx[(done & finite) | stuck]] = False
    return Z, converged, iterations


def fixed_point_denoise(
    fit: DenoisingFit,
    projections: np.ndarray,
    m: int,
    init: np.ndarray,
    *,
    max_iter: int = DEFAULT_MAX_ITER,
    tol: float = DEFAULT_TOL,
    restart: bool = True,
) -> tuple[np.ndarray, FixedPointReport]:
    """Mika et al.'s fixed-point pre-image of the first m projections.

    Starts from ``init`` (the noisy digits); digits that fail (no convergence in
    ``max_iter`` steps, or a vanished denominator) are restarted from the training
    digit nearest to P_m phi(x) in feature space.
    """
    m = _check_m(fit, m)
    projections = projections[:, :m]
    coefs = feature_space_coefficients(projections, fit.kpca.alphas[:, :m])
    Z, converged, iterations = iterate_fixed_point(
        coefs, fit.X_fit, fit.gamma, init, max_iter=max_iter, tol=tol
    )
    converged_first = int(converged.sum())
    retry = np.flatnonzero(~converged) if restart else np.array([], dtype=int)
    converged_after = 0
    if retry.size:
        sq = feature_space_sq_distances(
            projections[retry], fit.kpca.projection[:, :m], fit.train_sq_norms
        )
        nearest = fit.X_fit[np.argmin(sq, axis=1)]
        Z_retry, conv_retry, it_retry = iterate_fixed_point(
            coefs[retry], fit.X_fit, fit.gamma, nearest, max_iter=max_iter, tol=tol
        )
        # Keep the restart's point only where it converged: a failed restart is no
        # better than the first attempt's last position.
        Z[retry[conv_retry]] = Z_retry[conv_retry]
        converged[retry[conv_retry]] = True
        iterations[retry] += it_retry
        converged_after = int(conv_retry.sum())
    report = FixedPointReport(
        iterations=iterations,
        converged_first=converged_first,
        restarted=int(retry.size),
        converged_after_restart=converged_after,
        failed=~converged,
        max_iter=max_iter,
    )
    return Z, report


def kwok_tsang_denoise(
    fit: DenoisingFit, projections: np.ndarray, m: int, n_neighbors: int
) -> np.ndarray:
    """Kwok & Tsang's pre-image of the first m projections from ``n_neighbors`` digits."""
    m = _check_m(fit, m)
    n_train = fit.X_fit.shape[0]
    if not 2 <= n_neighbors <= n_train:
        raise ValueError(
            f"Kwok–Tsang needs between 2 and {n_train} neighbours (the number of training "
            f"digits); got k = {n_neighbors}. Lower k or use more training digits."
        )
    sq = feature_space_sq_distances(
        projections[:, :m], fit.kpca.projection[:, :m], fit.train_sq_norms
    )
    return kwok_tsang_preimage(sq, fit.X_fit, fit.gamma, n_neighbors=n_neighbors)


# ---------------------------------------------------------------------------- curves


@dataclass(frozen=True)
class PreimageParams:
    """Parameters of the pre-image methods (hashable: part of the page's cache key)."""

    alpha: float = DEFAULT_ALPHA
    n_neighbors: int = DEFAULT_NEIGHBORS
    max_iter: int = DEFAULT_MAX_ITER
    tol: float = DEFAULT_TOL


@dataclass(frozen=True, eq=False)
class MethodCurve:
    """One method's reconstructions and errors for every m of a grid.

    Attributes
    ----------
    method : str
        "pca" or a pre-image method.
    m_values : tuple of int
    errors : ndarray of shape (len(m_values),)
        :func:`mse` against the clean digits.
    reconstructions : dict m -> ndarray (n_points, d)
    seconds : float
        Time for the whole grid (the shared fit not included).
    fixed_point : dict m -> FixedPointReport (fixed point only)
    """

    method: str
    m_values: tuple[int, ...]
    errors: np.ndarray
    reconstructions: dict[int, np.ndarray]
    seconds: float
    fixed_point: dict[int, FixedPointReport] = field(default_factory=dict)

    @property
    def best(self) -> tuple[int, float]:
        """(m, error) at the smallest error on the grid."""
        i = int(np.argmin(self.errors))
        return self.m_values[i], float(self.errors[i])


def m_grid(max_components: int, grid: Sequence[int] = M_GRID) -> tuple[int, ...]:
    """The grid's values below ``max_components``, then ``max_components`` itself (with
    ``largest_m``: all of kernel PCA's components)."""
    return tuple([m for m in grid if m < max_components] + [int(max_components)])


def reconstruct(
    fit: DenoisingFit,
    method: str,
    X_noisy: np.ndarray,
    projections: np.ndarray | None,
    m: int,
    params: PreimageParams,
) -> tuple[np.ndarray, FixedPointReport | None]:
    """One method's reconstruction of the noisy digits from m components."""
    if method == "pca":
        return pca_reconstruct(fit, X_noisy, m), None
    if projections is None:
        projections = kpca_project(fit, X_noisy)
    if method == "learned":
        return learned_preimage(fit, projections, m, params.alpha), None
    if method == "fixed_point":
        return fixed_point_denoise(
            fit, projections, m, X_noisy, max_iter=params.max_iter, tol=params.tol
        )
    if method == "kwok_tsang":
        return kwok_tsang_denoise(fit, projections, m, params.n_neighbors), None
    raise ValueError(f"Unknown method {method!r}; use one of {METHODS}.")


def method_curve(
    fit: DenoisingFit,
    method: str,
    X_clean: np.ndarray,
    X_noisy: np.ndarray,
    m_values: Sequence[int],
    params: PreimageParams = PreimageParams(),
    *,
    projections: np.ndarray | None = None,
    on_step: Progress | None = None,
    blas_threads: int | None = BLAS_THREADS,
    turn: Callable[[int], AbstractContextManager] | None = None,
) -> MethodCurve:
    """Reconstruct the noisy digits with one method for every m; errors against clean.

    The decomposition in ``fit`` (and the projections, computed once here if not
    given, with the first m) serve every m: nothing is refitted per m. ``blas_threads``
    caps BLAS's threads for the reconstructions (None: no cap). ``turn(m)`` is entered
    around each m's reconstruction (e.g. a turn in a server's queue); the time reported
    is the reconstructions' own, waits for a turn left out.
    """
    seconds = 0.0
    turn = turn or (lambda m: nullcontext())
    reconstructions, reports, errors = {}, {}, []
    with threadpool_limits(limits=blas_threads, user_api="blas"):  # see BLAS_THREADS
        for step, m in enumerate(m_values):
            with turn(int(m)):
                start = time.perf_counter()
                if method != "pca" and projections is None:
                    projections = kpca_project(fit, X_noisy)
                Z, report = reconstruct(fit, method, X_noisy, projections, m, params)
                seconds += time.perf_counter() - start
            reconstructions[int(m)] = Z
            if report is not None:
                reports[int(m)] = report
            errors.append(mse(Z, X_clean))
            if on_step is not None:
                on_step(step + 1, len(m_values))
    return MethodCurve(
        method=method,
        m_values=tuple(int(m) for m in m_values),
        errors=np.array(errors),
        reconstructions=reconstructions,
        seconds=seconds,
        fixed_point=reports,
    )


# ------------------------------------------------------------- where the noise goes


@dataclass(frozen=True)
class NoiseSplit:
    """Where kernel PCA's projection puts the noise of the test digits, in feature space.

    A noisy digit's centred feature vector φ̃(x̃) has a part outside the span of the
    training digits' φ̃ (every projection, at any m, removes it) and a part on the n − 1
    components. On the components, the noise is the difference y(x̃) − y(x) of the noisy
    and the clean digit's coordinates. Dropping the components past m removes the noise
    they carry and the digit they carry: it de-noises only where the first outweighs the
    second. All means are over the test digits, in feature-space squared length.

    Attributes
    ----------
    outside_clean, outside_noisy : float
        Share of ‖φ̃(x)‖² (clean digits) and of ‖φ̃(x̃)‖² (noisy digits) outside the span.
    m_values : tuple of int
    dropped_noise, dropped_digit : (len(m_values),) float
        The mean over the test digits of Σ (yₖ(x̃) − yₖ(x))² and of Σ yₖ(x)², summed
        over the components k > m: the noise and the digit that dropping them removes.
    """

    outside_clean: float
    outside_noisy: float
    m_values: tuple[int, ...]
    dropped_noise: np.ndarray
    dropped_digit: np.ndarray

    @property
    def drop_helps(self) -> np.ndarray:
        """For each m: the components past m carry more noise than digit (bool)."""
        return self.dropped_noise > self.dropped_digit


def noise_split(fit: DenoisingFit, X_clean: np.ndarray, X_noisy: np.ndarray,
                m_values: Sequence[int]) -> NoiseSplit:
    """:class:`NoiseSplit` of the test digits under ``fit``'s kernel PCA (all its
    components). ‖φ̃(x)‖² = k(x, x) − 2 meanᵢ k(x, xᵢ) + mean K (k(x, x) = 1: RBF)."""
    kpca = fit.kpca

    def coordinates(X: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        rows = kpca.kernel_rows(X)
        norms = 1.0 - 2.0 * rows.mean(axis=1) + kpca.centering.grand_mean
        return kpca.project_kernel_rows(rows, copy=False), norms

    with threadpool_limits(limits=BLAS_THREADS, user_api="blas"):
        clean, clean_norms = coordinates(X_clean)
        noisy, noisy_norms = coordinates(X_noisy)
    noise = (noisy - clean) ** 2
    digit = clean**2
    # Σ over the components past m, for each m: reversed cumulative sums.
    past_noise = np.cumsum(noise[:, ::-1], axis=1)[:, ::-1].mean(axis=0)
    past_digit = np.cumsum(digit[:, ::-1], axis=1)[:, ::-1].mean(axis=0)
    held = clean.shape[1]
    at = [m for m in m_values if m < held]
    return NoiseSplit(
        outside_clean=float(np.mean(1.0 - digit.sum(axis=1) / clean_norms)),
        outside_noisy=float(np.mean(1.0 - (noisy**2).sum(axis=1) / noisy_norms)),
        m_values=tuple(at),
        dropped_noise=np.array([past_noise[m] for m in at]),
        dropped_digit=np.array([past_digit[m] for m in at]),
    )
