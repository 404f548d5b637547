r"""Approximate kernel PCA with scikit-learn's feature maps, compared with the exact one.

Both approximations replace the n × n kernel matrix by explicit features
Φ ∈ R^{n × m} with Φ Φᵀ ≈ K, then run ordinary (linear) PCA on Φ:

* **Nyström** (``sklearn.kernel_approximation.Nystroem``, m landmarks drawn from the
  data): Φ Φᵀ = K_nm K_mm⁺ K_mn, exact when m = n. Any kernel scikit-learn's
  ``pairwise_kernels`` knows works (all of kpca_core's: linear, poly, rbf, sigmoid,
  laplacian, cosine); for an indefinite kernel (sigmoid) it builds a positive
  semi-definite approximation, so negative eigenvalues are lost.
* **Random Fourier features** (``sklearn.kernel_approximation.RBFSampler``, D
  features): z(x) = √(2/D) cos(Wx + b) with W ~ N(0, 2γ I), b ~ U[0, 2π], so that
  E[z(x)ᵀ z(y)] = exp(−γ‖x − y‖²). Only the RBF kernel.

**The eigenvalue scale.** kpca_core reports the eigenvalues μ of K̃ = H K H (H the
centring matrix). ``sklearn.decomposition.PCA`` centres Φ (Φ̃ = H Φ) and reports
``explained_variance_`` = σ² / (n − 1), σ the singular values of Φ̃. The non-zero
eigenvalues of Φ̃ Φ̃ᵀ and Φ̃ᵀ Φ̃ are the same σ², and Φ̃ Φ̃ᵀ = H Φ Φᵀ H ≈ H K H = K̃, so
the comparable number is

    μ̂ = (n − 1) · explained_variance_  (= σ²),

equal to μ up to rounding when Φ Φᵀ = K (Nyström with m = n; checked in the tests).

**The subspace.** The exact top-k kernel principal components of the training
points span the same subspace of R^n as the top-k eigenvectors of K̃; the
approximate ones span the column space of the PCA scores of Φ. The principal angles
between the two subspaces (``scipy.linalg.subspace_angles``) are all 0 when they
agree; they ignore signs and rotations inside the subspace, which are arbitrary when
eigenvalues are close.

**Timings** run with BLAS limited to one thread by default (``threads``), as in
:mod:`lessons.scale.experiment`, so that exact and approximate are timed alike and the
numbers do not depend on how busy the machine's other cores are.

**The projections.** The approximate scores are rotated onto the exact ones by the
orthogonal matrix R minimising ‖Z_approx R − Z_exact‖_F (orthogonal Procrustes,
``scipy.linalg.orthogonal_procrustes``); both have column norms √l, so no scaling.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np
from scipy.linalg import orthogonal_procrustes, subspace_angles
from sklearn.decomposition import PCA
from sklearn.kernel_approximation import Nystroem, RBFSampler
from sklearn.pipeline import Pipeline, make_pipeline
from threadpoolctl import threadpool_limits

from experiments.kpca_steps import fit_kpca
from kpca_core import KERNELS
from words.i18n import N_

FLOAT_BYTES = 8


@dataclass(frozen=True)
class Method:
    """One approximation: its name, its size parameter and the kernels it supports."""

    key: str
    title: str
    size_name: str  # "m" or "D"
    size_title: str
    kernels: tuple[str, ...]
    sklearn_class: str


METHODS: dict[str, Method] = {
    "nystroem": Method(
        "nystroem", "Nyström", "m", N_("landmarks"), tuple(KERNELS), "Nystroem"
    ),
    "rff": Method(
        "rff", N_("Random Fourier features"), "D", N_("features"), ("rbf",), "RBFSampler"
    ),
}


def supports(method: str, kernel: str) -> bool:
    """Whether ``method`` can approximate ``kernel`` (RBFSampler: RBF only)."""
    return kernel in METHODS[method].kernels


@dataclass(frozen=True)
class ExactKPCA:
    """Exact kernel PCA of the training points (kpca_core), timed.

    What the comparison keeps of :class:`experiments.kpca_steps.KpcaFit` (the page trims
    it further before caching it).

    Attributes
    ----------
    eigenvalues : (k,) eigenvalues μ of K̃, descending.
    eigenvectors : (n, k) unit eigenvectors.
    projection : (n, k) training scores √l v.
    seconds : build K + centre in place + eigensolver ("auto").
    solver : the solver "auto" used.
    next_eigenvalue : l_{k+1} (nan when k = n − 1): when it is close to l_k the top-k
        subspace is nearly undefined and principal angles say little.
    """

    eigenvalues: np.ndarray
    eigenvectors: np.ndarray
    projection: np.ndarray
    seconds: float
    solver: str
    next_eigenvalue: float = float("nan")

    @property
    def relative_gap(self) -> float:
        """(l_k − l_{k+1}) / l_k: how well separated the top-k subspace is."""
        last = float(self.eigenvalues[-1])
        return (last - self.next_eigenvalue) / last if last > 0 else float("nan")

    @property
    def n(self) -> int:
        return int(self.eigenvectors.shape[0])


@dataclass(frozen=True)
class Approximation:
    """An approximate kernel PCA and how close it is to the exact one.

    Attributes
    ----------
    method, size : which approximation, with m landmarks or D features.
    eigenvalues : (k,) μ̂ = (n − 1) · PCA's explained_variance_, descending.
    relative_errors : (k,) |μ̂ − μ| / μ (nan where μ is numerically 0).
    angles : (k,) principal angles in radians between the exact and approximate
        top-k subspaces, largest first.
    aligned : (n, k) approximate scores after orthogonal Procrustes alignment.
    procrustes_error : ‖aligned − exact‖_F / ‖exact‖_F.
    seconds : fit_transform of the scikit-learn pipeline (features + PCA).
    memory_bytes : modelled peak memory of the pipeline (:func:`approximation_bytes`).
    """

    method: str
    size: int
    eigenvalues: np.ndarray
    relative_errors: np.ndarray
    angles: np.ndarray
    aligned: np.ndarray
    procrustes_error: float
    seconds: float
    memory_bytes: int

    @property
    def max_relative_error(self) -> float:
        """Largest relative eigenvalue error over the top k (ignoring zero eigenvalues)."""
        finite = self.relative_errors[np.isfinite(self.relative_errors)]
        return float(finite.max()) if finite.size else float("nan")

    @property
    def largest_angle_degrees(self) -> float:
        """The largest principal angle (nan when no direction could be compared)."""
        return float(np.degrees(self.angles.max())) if self.angles.size else float("nan")


def exact_kpca(
    X: np.ndarray, k: int, *, kernel: str, kernel_params: dict, random_state: int = 0,
    threads: int | None = 1,
) -> ExactKPCA:
    """kpca_core's exact kernel PCA (:func:`experiments.kpca_steps.fit_kpca`): K, centred
    in place, top-k eigenpairs ("auto"), eigenvalues of rounding noise set to 0.

    One more eigenpair than k is computed when n allows, for :attr:`ExactKPCA.relative_gap`.
    """
    n = X.shape[0]
    asked = k + 1 if k + 1 <= n - 1 else k
    with threadpool_limits(limits=threads):
        start = time.perf_counter()
        fit = fit_kpca(X, kernel=kernel, kernel_params=kernel_params, n_components=asked,
                       random_state=random_state)
        seconds = time.perf_counter() - start
    following = float(fit.eigenvalues[k]) if asked > k else float("nan")
    return ExactKPCA(fit.eigenvalues[:k], fit.eigenvectors[:, :k], fit.projection[:, :k],
                     seconds, fit.solver, following)


def exact_bytes(n: int, k: int) -> int:
    """Modelled peak of :func:`exact_kpca`: K̃ plus the dense solver's copy (the worst case)."""
    return int((2 * n * n + 2 * n * k) * FLOAT_BYTES)


def pca_solver(n: int, size: int) -> str:
    """An exact PCA solver for n × size features: the size × size covariance when the
    features are tall (what scikit-learn's "auto" picks for them), else a full SVD."""
    return "covariance_eigh" if n >= size else "full"


def approximation_pipeline(
    method: str, size: int, k: int, *, kernel: str, kernel_params: dict, random_state: int = 0,
    n_samples: int | None = None,
) -> Pipeline:
    """scikit-learn's feature map followed by linear PCA on its k leading components.

    PCA uses an exact solver (:func:`pca_solver`, never the randomized one) so the only
    approximation is the feature map's.
    """
    if not supports(method, kernel):
        raise ValueError(
            f"{METHODS[method].title} does not approximate the {KERNELS[kernel].title} "
            f"kernel; it supports: "
            f"{', '.join(KERNELS[k].title for k in METHODS[method].kernels)}."
        )
    if method == "nystroem":
        features = Nystroem(kernel=kernel, n_components=size, random_state=random_state,
                            **kernel_params)
    else:
        features = RBFSampler(gamma=kernel_params["gamma"], n_components=size,
                              random_state=random_state)
    solver = pca_solver(n_samples if n_samples is not None else size, size)
    return make_pipeline(features, PCA(n_components=k, svd_solver=solver))


def approximation_bytes(method: str, n: int, d: int, size: int, k: int) -> int:
    """Modelled peak memory of the pipeline's fit_transform (checked against
    ``tracemalloc`` in the tests).

    Nyström's transform holds the n × m kernel block and the features made from it
    (2 n m) next to the m × m normalisation. PCA ("covariance_eigh") then holds the
    features, a finiteness mask of them (1 byte per entry: n m / 8 doubles), the
    m × m covariance with LAPACK's copy and eigenvectors (4 m²). RFF makes its n × D
    features in place (cos taken in place) from the d × D random weights; PCA adds
    the same as above. When D > n PCA takes a full SVD instead: the features, a centred
    copy, LAPACK's copy and workspace, U (n × n) and Vᵀ (n × D) — about 5.5 n D + n²
    as measured. The n × k scores come last.
    """
    if method == "nystroem":
        entries = max(2 * n * size + size * size, n * size * 9 / 8 + 5 * size * size)
    elif pca_solver(n, size) == "covariance_eigh":
        entries = n * size * 9 / 8 + 4 * size * size + d * size
    else:
        entries = 5.5 * n * size + n * n + d * size
    entries += n * k
    return int(entries * FLOAT_BYTES)


def approximate_kpca(
    X: np.ndarray, method: str, size: int, k: int, *, kernel: str, kernel_params: dict,
    random_state: int = 0, threads: int | None = 1,
) -> tuple[np.ndarray, np.ndarray, float]:
    """(μ̂, scores, seconds): the approximate eigenvalues on K̃'s scale, the n × k PCA
    scores of the features, and the time of the pipeline's fit_transform.

    Nyström needs k <= m <= n (at most n landmarks); RFF needs D >= k.
    """
    n = X.shape[0]
    upper = n if method == "nystroem" else np.inf
    if not k <= size <= upper:
        raise ValueError(f"{METHODS[method].size_name} must lie between k = {k} and "
                         f"{upper}; got {size}")
    pipeline = approximation_pipeline(method, size, k, kernel=kernel,
                                      kernel_params=kernel_params, random_state=random_state,
                                      n_samples=n)
    with threadpool_limits(limits=threads):
        start = time.perf_counter()
        scores = pipeline.fit_transform(X)
        seconds = time.perf_counter() - start
    eigenvalues = (n - 1) * pipeline[-1].explained_variance_
    return eigenvalues, scores, seconds


def compare(exact: ExactKPCA, eigenvalues: np.ndarray, scores: np.ndarray):
    """(relative eigenvalue errors, principal angles, aligned scores, Procrustes error)."""
    reference = exact.eigenvalues
    negligible = reference <= 1e-10 * max(reference.max(), 0.0)
    with np.errstate(divide="ignore", invalid="ignore"):
        errors = np.abs(eigenvalues - reference) / reference
    errors[negligible] = np.nan
    keep = ~negligible  # a zero eigenvalue has no well-defined direction
    angles = (subspace_angles(exact.eigenvectors[:, keep], scores[:, keep])
              if keep.any() else np.zeros(0))
    rotation, _ = orthogonal_procrustes(scores, exact.projection)
    aligned = scores @ rotation
    norm = np.linalg.norm(exact.projection)
    residual = float(np.linalg.norm(aligned - exact.projection) / norm) if norm > 0 else 0.0
    return errors, angles, aligned, residual


def approximate_and_compare(
    X: np.ndarray, exact: ExactKPCA, method: str, size: int, *, kernel: str,
    kernel_params: dict, random_state: int = 0,
) -> Approximation:
    """One approximation at one size, compared with ``exact``."""
    k = exact.eigenvalues.shape[0]
    eigenvalues, scores, seconds = approximate_kpca(
        X, method, size, k, kernel=kernel, kernel_params=kernel_params,
        random_state=random_state,
    )
    errors, angles, aligned, residual = compare(exact, eigenvalues, scores)
    return Approximation(
        method=method, size=int(size), eigenvalues=eigenvalues, relative_errors=errors,
        angles=angles, aligned=aligned, procrustes_error=residual, seconds=seconds,
        memory_bytes=approximation_bytes(method, X.shape[0], X.shape[1], size, k),
    )


def sweep(
    X: np.ndarray, exact: ExactKPCA, method: str, sizes, *, kernel: str, kernel_params: dict,
    random_state: int = 0,
) -> list[Approximation]:
    """:func:`approximate_and_compare` at each size (same seed: nested landmark sets for
    Nyström, as its landmarks are the first m of one seeded permutation)."""
    return [
        approximate_and_compare(X, exact, method, int(size), kernel=kernel,
                                kernel_params=kernel_params, random_state=random_state)
        for size in sizes
    ]


def usable_sizes(ladder, k: int, n: int) -> list[int]:
    """The sizes of ``ladder`` between k (PCA needs k features) and n (at most n landmarks)."""
    return [int(s) for s in ladder if k <= s <= n]
