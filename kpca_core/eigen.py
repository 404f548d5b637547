r"""The eigenproblem of kernel PCA and what its solution means.

Kernel PCA solves  n lambda alpha = K~ alpha  (Schölkopf, Smola & Müller 1998, Neural
Computation 10(5), eq. 2.12). Here we work with the eigenpairs (mu, v) of K~ itself,
mu = n lambda, with ||v|| = 1 (the app writes mu as μ; lambda keeps the paper's meaning):

* The k-th feature-space axis is V^k = sum_i alpha_i^k phi~(x_i). It has unit length
  when alpha^T K~ alpha = 1 (the paper's normalisation, eq. 2.14), i.e.
  alpha = v / sqrt(mu).
* The coordinate of a point on that axis is <V^k, phi~(x)> = K~_x alpha; for the
  training points this is K~ v / sqrt(mu) = sqrt(mu) v.
* The variance along axis k is mu / n = lambda, and the total variance is trace(K~) / n,
  so the explained-variance ratio is mu / trace(K~).

Eigenvalues of a kernel that is not positive semi-definite (the sigmoid kernel, a
polynomial kernel with c0 < 0) can be negative. They are reported, never silently
dropped: :func:`eigendecompose` returns them, :func:`describe_spectrum` counts them, and
:class:`~kpca_core.KernelPCA` raises as scikit-learn does (or warns and keeps them with
``negative_eigenvalues="warn"``).
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass
from numbers import Integral

import numpy as np
from scipy import linalg
from scipy.sparse.linalg import ArpackError, ArpackNoConvergence, eigsh
from sklearn.utils import check_random_state
from sklearn.utils.extmath import randomized_range_finder

from ._validation import check_choice, check_n_components, check_square, check_symmetric

__all__ = [
    "EIGEN_SOLVERS",
    "DegenerateSpectrumError",
    "SolverFallbackWarning",
    "Eigendecomposition",
    "SpectrumReport",
    "choose_eigen_solver",
    "clean_eigenvalues",
    "describe_spectrum",
    "eigendecompose",
    "explained_variance_ratio",
    "flip_signs",
    "kernel_spectrum",
    "project_new_points",
    "project_training_points",
    "scale_eigenvectors",
]

EIGEN_SOLVERS = ("auto", "dense", "arpack", "randomized")

# Relative thresholds, as in scikit-learn's _check_psd_eigenvalues: below
# SMALL_RATIO * max the eigenvalue is rounding noise and counts as zero; a negative
# eigenvalue beyond NEGATIVE_RATIO * max is a genuine sign of an indefinite kernel.
SMALL_RATIO = 1e-12
NEGATIVE_RATIO = 1e-5
NEGATIVE_FLOOR = 1e-10


class IndefiniteKernelWarning(UserWarning):
    """The centred kernel matrix has significantly negative eigenvalues."""


class SolverFallbackWarning(UserWarning):
    """ARPACK did not answer (it failed, or "auto" chose it and it did not converge within
    its budget); LAPACK's dense solver answered instead."""


class DegenerateSpectrumError(np.linalg.LinAlgError):
    """LAPACK's index-range solver returned too few eigenpairs and the matrix is gone.

    Raised only with ``overwrite=True``: the caller must rebuild the matrix and call
    again with ``overwrite=False``, which falls back to the full decomposition.
    """


@dataclass(frozen=True)
class Eigendecomposition:
    """The leading eigenpairs of a centred kernel matrix.

    Attributes
    ----------
    eigenvalues : ndarray of shape (n_components,)
        Eigenvalues mu of K~, in descending order.
    eigenvectors : ndarray of shape (n_samples, n_components)
        Unit-norm eigenvectors v, signs fixed by :func:`flip_signs`.
    solver : str
        The solver that produced them ("dense", "arpack" or "randomized").
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    solver: str


def choose_eigen_solver(n_samples: int, n_components: int) -> str:
    """The faster exact solver for an n x n matrix and k leading eigenpairs.

    LAPACK's dense solver costs about (4/3) n^3 whatever k is; ARPACK's Lanczos
    iteration costs a number of n^2 matrix-vector products that grows with k.
    Measured on 2 cores with RBF kernels of USPS and of random 256-D data
    (seconds, ARPACK / dense, k = 100): n = 2000: 0.40 / 0.30; n = 4000: 2.2 / 3.3
    on USPS but 4.6 / 3.3 on random data; n = 7291: 6.1-13.6 / 20. ARPACK slows down
    on flat spectra (random data), so the threshold k <= n / 45 is set where it
    still wins on them.
    scikit-learn's rule (ARPACK only for k < 10) sends k = 10..100 at n = 7291 to the
    dense solver, several times slower for the same answer.
    """
    if n_samples <= 200 or n_components >= n_samples - 1:
        return "dense"
    return "arpack" if n_components <= max(9, n_samples // 45) else "dense"


# "auto" picks ARPACK because it is the faster exact solver, which it stops being when its
# iteration drags on. Nearly equal leading eigenvalues make it drag on for minutes and then
# fail (K~ close to a multiple of I - 1/n: an RBF gamma so large that K is nearly the
# identity; measured on 1,000 USPS digits at gamma = 10, k = 20: no convergence in 10 n
# restarts). So when "auto" chose it, ARPACK gets a budget of about this many dense
# solves' worth of work, then LAPACK answers.
AUTO_ARPACK_WORK = 2.0
AUTO_ARPACK_MIN_RESTARTS = 20


def auto_arpack_budget(n_samples: int, n_components: int) -> int:
    """ARPACK restarts (scipy's ``maxiter``) worth ``AUTO_ARPACK_WORK`` dense solves.

    A restart costs about ncv - k products with the n x n matrix (2 n^2 flops each;
    scipy's ncv = max(2k + 1, 20)); LAPACK's dense solver about (4/3) n^3 flops. Measured
    at n = 1,000, k = 20 (one BLAS thread): a restart 7 ms, a dense solve 0.2 s, so the
    budget of 64 restarts costs at most ~0.45 s before LAPACK takes over; well-separated
    spectra (USPS, circles, moons, Swiss roll over their gamma sweeps) converged within
    40 restarts.
    """
    ncv = min(n_samples, max(2 * n_components + 1, 20))
    per_restart = 2.0 * n_samples**2 * max(ncv - n_components, 1)
    dense = (4.0 / 3.0) * n_samples**3
    return max(AUTO_ARPACK_MIN_RESTARTS, int(np.ceil(AUTO_ARPACK_WORK * dense / per_restart)))


def eigendecompose(
    K_centered: np.ndarray,
    n_components: int,
    *,
    solver: str = "auto",
    tol: float = 0.0,
    max_iter: int | None = None,
    iterated_power: int | str = "auto",
    random_state=None,
    overwrite: bool = False,
    check_finite: bool = True,
    check_symmetry: bool = True,
) -> Eigendecomposition:
    """Leading (largest algebraic) eigenpairs of a symmetric matrix, largest first.

    Parameters
    ----------
    K_centered : ndarray of shape (n_samples, n_samples)
        Symmetric matrix. The solvers read it differently (LAPACK one triangle,
        ARPACK and the randomized solver all of it), so a matrix whose asymmetry
        exceeds 1e-8 of the matrix itself *and* a rounding floor of ~1e-13 per entry
        (measured on random vectors, see ``_validation.check_symmetric``) is refused:
        below that every solver answers for the same matrix to that accuracy. The
        floor accepts a centred kernel that nearly vanishes (K ≈ all ones, e.g. a
        saturated sigmoid) with the rounding it inherits from K's entries.
    n_components : int
        Number of eigenpairs, 1 <= n_components <= n_samples.
    solver : {"auto", "dense", "arpack", "randomized"}
        "dense" is LAPACK (exact), "arpack" is Lanczos iteration (exact to ``tol``;
        0 means machine precision), "randomized" is Halko et al.'s randomized range
        finder (approximate: its error depends on the spectrum's decay and on
        ``iterated_power``; never chosen by "auto"). On RBF kernels of USPS digits
        (n = 2000, gamma = 1/256, default iterated_power, k = 10) its eigenvalues
        agree with "dense" to about 1e-12 relative, as scikit-learn's do; on a flat
        spectrum (random 256-D data) both are far less accurate.
        "auto" uses :func:`choose_eigen_solver`.
    tol : float
        ARPACK's relative tolerance.
    max_iter : int, optional
        ARPACK's iteration limit. Given, or with ``solver="arpack"`` (default 10 n),
        reaching it raises scipy's ``ArpackNoConvergence``, as scikit-learn does. When
        "auto" chose ARPACK and ``max_iter`` is None, ARPACK gets the budget of
        :func:`auto_arpack_budget` (about two dense solves' work) and, should it not
        converge within it (nearly equal leading eigenvalues), LAPACK answers: "auto"
        promises the faster exact solver, never a failure. Any other ARPACK failure (it
        gives up on some exactly repeated spectra) also falls back to LAPACK. Both
        fallbacks warn (:class:`SolverFallbackWarning`) and the result's ``solver`` says
        "dense".
    iterated_power : int or "auto"
        Power iterations of the randomized solver ("auto": 7 if k < 0.1 n, else 4).
        Each one multiplies by K twice with a normalisation in between, exactly as
        :func:`sklearn.utils.extmath.randomized_range_finder` (which is used).
    random_state : int, RandomState or None
        Seeds ARPACK's start vector and the randomized solver; ``None`` uses NumPy's
        global generator (:func:`sklearn.utils.check_random_state`). An integer gives
        ARPACK the same start vector as scikit-learn's KernelPCA.
    overwrite : bool
        Let the dense solver destroy ``K_centered`` instead of copying it (saves one
        n x n matrix).
    check_finite, check_symmetry : bool
        Refuse NaN/inf entries, or an asymmetric matrix (one pass over the matrix
        each; skip them when the caller has built or checked the matrix itself).

    Raises
    ------
    ValueError
        For an asymmetric matrix, or when the randomized solver cannot separate the
        leading eigenvalues from large negative ones (see ``_randomized_eigh``).
    scipy.sparse.linalg.ArpackNoConvergence
        ARPACK reached ``max_iter`` (a given one, or with ``solver="arpack"``).
    DegenerateSpectrumError
        With ``overwrite=True`` only, in the rare case described in ``_dense_eigh``.

    Returns
    -------
    Eigendecomposition
    """
    K_centered = check_square(K_centered, name="K_centered", check_finite=check_finite)
    if check_symmetry:
        check_symmetric(K_centered, name="K_centered")
    n = K_centered.shape[0]
    k = check_n_components(n_components, n)
    check_choice(solver, "eigen_solver", EIGEN_SOLVERS)
    # "auto" with no iteration limit of the caller's: ARPACK on a budget, then LAPACK.
    budgeted = solver == "auto" and max_iter is None
    if solver == "auto":
        solver = choose_eigen_solver(n, k)
    if solver == "arpack" and k >= n:
        # ARPACK cannot return all n eigenpairs; the dense solver can.
        solver = "dense"

    if solver == "dense":
        values, vectors = _dense_eigh(K_centered, k, overwrite)
    elif solver == "arpack":
        # scikit-learn's _init_arpack_v0: the same seed gives the same Lanczos run.
        v0 = check_random_state(random_state).uniform(-1, 1, n)
        budget = auto_arpack_budget(n, k) if budgeted else max_iter
        try:
            values, vectors = eigsh(
                K_centered, k, which="LA", tol=tol, maxiter=budget, v0=v0
            )
        except ArpackNoConvergence:
            if not budgeted:
                # The caller's iteration budget is spent (or ARPACK was asked for by
                # name): switching to an O(n^3) solver behind the caller's back would
                # defeat it. scikit-learn raises the same error.
                raise
            warnings.warn(
                f"ARPACK did not converge within {budget} restarts (the leading "
                "eigenvalues are nearly equal); the leading eigenpairs were computed with "
                "LAPACK's dense solver instead.",
                SolverFallbackWarning,
                stacklevel=2,
            )
            solver = "dense"
            values, vectors = _dense_eigh(K_centered, k, overwrite)
        except ArpackError as error:
            # ARPACK gives up on some exactly repeated spectra (K~ = I - 1/n when a
            # huge gamma makes K the identity). It leaves the matrix untouched, so
            # LAPACK can still answer exactly; say so.
            warnings.warn(
                f"ARPACK failed ({error}); the leading eigenpairs were computed with "
                "LAPACK's dense solver instead.",
                SolverFallbackWarning,
                stacklevel=2,
            )
            solver = "dense"
            values, vectors = _dense_eigh(K_centered, k, overwrite)
    else:
        values, vectors = _randomized_eigh(K_centered, k, iterated_power, random_state)

    order = np.argsort(values)[::-1]
    return Eigendecomposition(
        eigenvalues=values[order], eigenvectors=flip_signs(vectors[:, order]), solver=solver
    )


def _dense_eigh(K: np.ndarray, k: int, overwrite: bool) -> tuple[np.ndarray, np.ndarray]:
    n = K.shape[0]
    # LAPACK wants Fortran order. K is symmetric, so K.T is the same matrix in the
    # layout LAPACK expects: passing it lets overwrite_a work in place instead of
    # f2py silently copying a C-ordered array. (eigh reads the lower triangle of
    # K.T, which is the upper triangle of K.)
    a = K.T if K.flags.c_contiguous else K
    if k == n:
        if not overwrite:  # NumPy releases the GIL (see kernel_spectrum); both copy K
            return np.linalg.eigh(K)
        return linalg.eigh(a, overwrite_a=True, check_finite=False, driver="evd")
    values, vectors = linalg.eigh(
        a, subset_by_index=(n - k, n - 1), overwrite_a=overwrite, check_finite=False,
        driver="evr",
    )
    if values.shape[0] == k:
        return values, vectors
    # dsyevr with an index range returns fewer pairs than asked when the wanted
    # eigenvalues are exactly repeated (e.g. K~ = I - 1/n when a huge RBF gamma
    # makes K the identity). The full decomposition has no such problem.
    if overwrite:
        raise DegenerateSpectrumError(
            f"LAPACK returned {values.shape[0]} of {k} eigenpairs: the leading "
            "eigenvalue is repeated. Call again with overwrite=False."
        )
    values, vectors = linalg.eigh(a, check_finite=False, driver="evr")
    return values[n - k:], vectors[:, n - k:]


# scikit-learn's n_oversamples: the range finder looks for k + 10 directions.
RANDOMIZED_OVERSAMPLES = 10
# The range finder finds the eigenvalues of largest *modulus*. When large negative
# ones crowd its subspace (an indefinite kernel), it retries with a subspace twice
# as large, at most this many times, before giving up.
RANDOMIZED_MAX_ENLARGEMENTS = 3


def _randomized_eigh(K, k, iterated_power, random_state) -> tuple[np.ndarray, np.ndarray]:
    """Randomized range finder, then Rayleigh-Ritz (Halko, Martinsson & Tropp 2011).

    The range finder is scikit-learn's own (Alg. 4.4 with its ``n_iter`` meaning: two
    products with K per power iteration, LU-normalised), so the subspace, and with it
    the accuracy, is the one scikit-learn gets from the same seed. Rayleigh-Ritz on
    that m-dimensional subspace Q gives m *signed* Ritz pairs (theta, Q y) at once
    (eigenvalues of Q^T K Q); the k largest algebraic ones are returned.

    Why they are the leading ones: the range finder captures the eigenvectors of
    largest |lambda|. If some Ritz value not returned has a modulus no larger than the
    k-th returned one, the subspace reaches past the wanted eigenvalues, and no
    eigenvalue it missed (all smaller in modulus) can exceed them. Otherwise large
    negative eigenvalues fill the subspace: retry with one twice as large, and after
    ``RANDOMIZED_MAX_ENLARGEMENTS`` retries raise rather than return eigenpairs that
    may not be the leading ones.
    """
    n = K.shape[0]
    if iterated_power == "auto":
        iterated_power = 7 if k < 0.1 * n else 4
    if isinstance(iterated_power, bool) or not isinstance(iterated_power, Integral) or (
        iterated_power < 0
    ):
        raise ValueError(f"iterated_power must be 'auto' or an integer >= 0; "
                         f"got {iterated_power!r}.")
    rng = check_random_state(random_state)
    size = min(n, k + RANDOMIZED_OVERSAMPLES)
    for attempt in range(RANDOMIZED_MAX_ENLARGEMENTS + 1):
        if attempt:
            size = min(n, 2 * size)
        Q = randomized_range_finder(K, size=size, n_iter=iterated_power, random_state=rng)
        ritz_values, ritz_vectors = linalg.eigh(Q.T @ (K @ Q))  # ascending
        unwanted = ritz_values[:-k]
        # Rounding noise: the eigenvalues of a rank-deficient K~ that are 0 in exact
        # arithmetic come out as +-1e-13-ish and must not count as "larger".
        noise = 1e-10 * np.abs(ritz_values).max()
        if size == n or unwanted.size == 0 or (
            np.abs(unwanted).min() <= ritz_values[-k] + noise
        ):
            return ritz_values[-k:], Q @ ritz_vectors[:, -k:]
    raise ValueError(
        f"The randomized solver cannot find the {k} largest eigenvalues of this matrix: "
        f"large negative eigenvalues (down to {ritz_values[0]:.3g}) fill its search "
        f"space even with {size} dimensions (the kernel is indefinite). Use "
        "eigen_solver='arpack' or 'dense'."
    )


def flip_signs(vectors: np.ndarray) -> np.ndarray:
    """Make the largest-magnitude entry of each column positive.

    An eigenvector is only defined up to sign; fixing it this way (scikit-learn's
    ``svd_flip`` convention) keeps the pictures from flipping between reruns.
    """
    vectors = np.array(vectors, dtype=np.float64, order="F")
    rows = np.argmax(np.abs(vectors), axis=0)
    signs = np.sign(vectors[rows, np.arange(vectors.shape[1])])
    signs[signs == 0] = 1.0
    vectors *= signs
    return vectors


def clean_eigenvalues(eigenvalues: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Set rounding-noise eigenvalues to exactly 0 and find the genuinely negative ones.

    Returns
    -------
    cleaned : ndarray
        Eigenvalues with |l| <= 1e-12 * max(l) set to 0, and small negative values
        (above -1e-5 * max(l) or -1e-10) set to 0.
    significantly_negative : ndarray of bool
        Which eigenvalues are negative beyond rounding: the kernel is indefinite.
    """
    values = np.array(eigenvalues, dtype=np.float64)
    largest = values.max() if values.size else 0.0
    scale = max(largest, 0.0)
    negative = (values < -NEGATIVE_RATIO * scale) & (values < -NEGATIVE_FLOOR)
    values[(~negative) & (values < 0)] = 0.0
    values[np.abs(values) <= SMALL_RATIO * scale] = 0.0
    if scale == 0.0:
        values[~negative] = 0.0
    return values, negative


def scale_eigenvectors(eigenvectors: np.ndarray, eigenvalues: np.ndarray) -> np.ndarray:
    """alpha = v / sqrt(mu), the expansion coefficients of unit-length feature-space axes.

    mu is the eigenvalue of K~ (n lambda in the paper). With this scaling
    alpha^T K~ alpha = 1 (the paper's normalisation). Components whose eigenvalue is
    zero or negative have no real axis; their coefficients are set to 0, so that
    projecting onto them gives 0 (as scikit-learn does for the null space).
    """
    alphas = np.zeros_like(eigenvectors, dtype=np.float64)
    positive = eigenvalues > 0
    alphas[:, positive] = eigenvectors[:, positive] / np.sqrt(eigenvalues[positive])
    return alphas


def project_training_points(eigenvectors: np.ndarray, eigenvalues: np.ndarray) -> np.ndarray:
    """Coordinates of the training points on the axes: K~ alpha = sqrt(mu) v.

    No kernel evaluation is needed: K~ v = mu v, so K~ v / sqrt(mu) = sqrt(mu) v.
    Components with mu <= 0 have no real axis and get coordinate 0.
    """
    return eigenvectors * np.sqrt(np.maximum(eigenvalues, 0.0))


def project_new_points(
    K_test_centered: np.ndarray, eigenvectors: np.ndarray, eigenvalues: np.ndarray
) -> np.ndarray:
    """Coordinates of new points: K~_t alpha, with K~_t centred by the training statistics."""
    return K_test_centered @ scale_eigenvectors(eigenvectors, eigenvalues)


def explained_variance_ratio(eigenvalues: np.ndarray, total_variance: float) -> np.ndarray:
    """l_k / trace(K~): the share of the feature-space variance along each axis.

    ``total_variance`` is trace(K~), the sum of *all* n eigenvalues, which is cheap
    to get without computing them. For an indefinite kernel the negative eigenvalues
    make the trace smaller than the sum of the positive ones, so the ratios of the
    positive components can add up to more than 1.
    """
    if total_variance <= 0:
        return np.zeros_like(eigenvalues, dtype=np.float64)
    return np.asarray(eigenvalues, dtype=np.float64) / total_variance


def kernel_spectrum(K_centered: np.ndarray) -> np.ndarray:
    """All n eigenvalues of a centred kernel matrix, largest first (O(n^3); for display)."""
    K_centered = check_square(K_centered, name="K_centered")
    # NumPy, not scipy.linalg: both call LAPACK's syevd, but scipy's f2py wrapper keeps
    # Python's GIL for the whole call, so on a server one student's spectrum of n = 2,000
    # (~0.3 s) stalled every other session's rerun; NumPy's releases it.
    values = np.linalg.eigvalsh(K_centered)
    return values[::-1].copy()


@dataclass(frozen=True)
class SpectrumReport:
    """How many eigenvalues are positive, numerically zero and genuinely negative."""

    n_positive: int
    n_zero: int
    n_negative: int
    most_negative: float
    negative_share: float  # sum of |negative| / sum of |all|

    @property
    def is_positive_semidefinite(self) -> bool:
        return self.n_negative == 0


def describe_spectrum(eigenvalues: np.ndarray) -> SpectrumReport:
    """Summarise a spectrum (e.g. from :func:`kernel_spectrum`) for display."""
    values = np.asarray(eigenvalues, dtype=np.float64)
    cleaned, negative = clean_eigenvalues(values)
    total = np.abs(values).sum()
    return SpectrumReport(
        n_positive=int((cleaned > 0).sum()),
        n_zero=int(((cleaned == 0) & ~negative).sum()),
        n_negative=int(negative.sum()),
        most_negative=float(values[negative].min()) if negative.any() else 0.0,
        negative_share=float(np.abs(values[negative]).sum() / total) if total > 0 else 0.0,
    )
