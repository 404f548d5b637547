"""The Explorer's kernel PCA as a plain function of arrays: what the pages draw.

:func:`analyse` runs kernel PCA with ``kpca_core`` (and linear PCA for comparison) and
returns only what the pages show: K and K̃ block-averaged for the heatmaps, the
spectrum and the projections. No Streamlit: the tests check it
against ``kpca_core`` and scikit-learn, and :mod:`shell.caches` keeps its results in
bounded caches.
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse
import scipy.sparse.linalg
from sklearn.decomposition import PCA

from experiments.kpca_steps import genuinely_negative, rounding_floor, variance_share_problem
from kpca_core import (
    KERNELS,
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
    explained_variance_ratio,
    kernel_spectrum,
)
from words.i18n import _, format_number

# Never send more than MAX_HEATMAP_SIDE² cells of a kernel matrix to the browser.
MAX_HEATMAP_SIDE = 500
# The Explorer draws K and K̃ at most this many cells a side: a heatmap is ~450 px wide,
# so 200 cells are 2 px each, as fine as the eye can see, at a sixth of 500²'s bytes.
DISPLAY_HEATMAP_SIDE = 200
# Up to this n the whole spectrum is computed (kpca_core.kernel_spectrum, ~0.4 s at
# n = 2000). Above it (e.g. the full USPS) only the leading and the most negative
# eigenvalues are computed iteratively, and K̃ is centred in place to halve memory.
DENSE_MAX_N = 2500
# How many leading eigenvalues the iterative path computes for the spectrum plot.
ITERATIVE_TOP = 40

ProgressCallback = Callable[[float, str], None]


@dataclass(frozen=True)
class Analysis:
    """What the Explorer draws for one dataset + kernel (all arrays read-only).

    Attributes
    ----------
    order : (n,) int
        Permutation that sorts points by class (stable); heatmaps use this order.
    class_sizes : (c,) int
        Number of points in each class, in the order of ``order``.
    kernel_display, centered_display : (m, m) float
        K and K̃ in class order, block-averaged to at most ``MAX_HEATMAP_SIDE``.
    block_size : int
        Points per heatmap cell along each axis (1 = the matrix itself).
    eigenvalues : (p,) float
        Eigenvalues μ of K̃, descending. All n of them when ``spectrum_complete``;
        otherwise only the leading ones: ``ITERATIVE_TOP`` (or k, if larger) beyond
        ``DENSE_MAX_N`` points, k when the spectrum was not asked for.
    spectrum_complete : bool
    eigenvalue_ranks : (p,) int
        1-based rank of each entry of ``eigenvalues`` among all n.
    trace : float
        trace(K̃) = sum of all n eigenvalues; explained variance = μ / trace.
    projection : (n, k) float
        KPCA scores on the first k components: unit eigenvector × sqrt(μ), signs
        fixed so the largest-|.| entry of each eigenvector is positive.
    pca_projection : (n, min(k, d)) float
        Linear PCA scores of the same inputs, for comparison.
    pca_ratio : (min(n, d),) float
        Linear PCA's explained variance ratio, all components.
    negative : (p,) bool
        Which eigenvalues are genuinely negative, below the rounding of K's entries
        (``experiments.kpca_steps.genuinely_negative``): the kernel is indefinite.
    class_means : (c, c) float or None
        Mean of K over each block of the heatmap (rows of class a, columns of class b,
        in class order), from the full matrix; None without labels.
        :attr:`centered_class_means` gives K̃'s.
    """

    order: np.ndarray
    class_sizes: np.ndarray
    kernel_display: np.ndarray
    centered_display: np.ndarray
    block_size: int
    eigenvalues: np.ndarray
    spectrum_complete: bool
    eigenvalue_ranks: np.ndarray
    trace: float
    projection: np.ndarray
    pca_projection: np.ndarray
    pca_ratio: np.ndarray
    negative: np.ndarray
    class_means: np.ndarray | None = None
    eigenvalue_floor: float = 0.0  # the rounding of K's entries in μ (rounding_floor)

    @property
    def n(self) -> int:
        return int(self.projection.shape[0])

    @property
    def centered_class_means(self) -> np.ndarray | None:
        """The block means of K̃, from those of K: centring is linear, so the mean of
        K̃ = K − (row means) − (column means) + (grand mean) over a block is the same
        expression in block means (weighted by the class sizes)."""
        if self.class_means is None:
            return None
        B, w = self.class_means, self.class_sizes / self.class_sizes.sum()
        rows = B @ w  # mean over all columns of the rows of class a, per class a
        return B - rows[:, None] - rows[None, :] + float(w @ rows)

    @property
    def variance_base(self) -> float:
        """What "explained variance" is a share of.

        trace(K̃) = Σμ, the total variance in feature space, for a positive
        semi-definite kernel. With genuinely negative eigenvalues (sigmoid) Σμ is smaller
        than the positive part alone, so μ / trace would exceed 100 %; the base is then
        the sum of the positive eigenvalues, the variance of the real part of the
        embedding (shares add up to 100 %). When only the leading eigenvalues are known,
        the largest base they certify: max(trace, Σ held positive μ).
        """
        positive = float(np.clip(self.eigenvalues, 0.0, None).sum())
        if self.spectrum_complete:
            return positive if bool(np.any(self.negative)) else self.trace
        return max(self.trace, positive)

    @property
    def share_problem(self) -> str | None:
        """Why μ / trace(K̃) is no share of variance here (None: it is one)."""
        return variance_share_problem(self.trace, self.eigenvalue_floor)

    @property
    def explained_ratio(self) -> np.ndarray:
        """μ / :attr:`variance_base` for the eigenvalues held; NaN where trace(K̃) is
        no variance (:attr:`share_problem`)."""
        if self.share_problem is not None:
            return np.full(self.eigenvalues.shape, np.nan)
        return explained_variance_ratio(self.eigenvalues, self.variance_base)

    @property
    def negative_mass_bound(self) -> float:
        """−(sum of the negative eigenvalues of K̃): exact when the spectrum is complete.

        Otherwise a certified lower bound from what is known: trace(K̃) = Σ all μ, so if
        the positive eigenvalues held add up to more than the trace, the others must
        include negatives summing to at most trace − Σ held positives. 0 when nothing
        can be concluded.
        """
        if self.spectrum_complete:
            return -float(self.eigenvalues[self.eigenvalues < 0].sum())
        held_positive = float(np.clip(self.eigenvalues, 0.0, None).sum())
        return max(held_positive - self.trace, 0.0)


def class_order(y: np.ndarray | None, n: int) -> tuple[np.ndarray, np.ndarray]:
    """Stable permutation grouping points by class, and the class sizes in that order."""
    if y is None:
        return np.arange(n), np.array([n])
    order = np.argsort(y, kind="stable")
    _, sizes = np.unique(y, return_counts=True)
    return order, sizes


def block_average(M: np.ndarray, order: np.ndarray, max_side: int) -> tuple[np.ndarray, int]:
    """``M[order][:, order]`` averaged over square blocks so the side is ≤ ``max_side``.

    Done as P · M · Pᵀ with a sparse averaging matrix P (one non-zero per column), so
    the permuted n × n copy is never made. Returns the matrix and the block size.
    """
    n = M.shape[0]
    if n <= max_side:
        return M[np.ix_(order, order)], 1
    block = math.ceil(n / max_side)
    blocks = math.ceil(n / block)
    group = np.arange(n) // block  # position in class order → block number
    sizes = np.bincount(group, minlength=blocks).astype(np.float64)
    P = scipy.sparse.csr_matrix(
        (1.0 / sizes[group], (group, order)), shape=(blocks, n)
    )  # row b averages the points that sit in block b after ordering
    left = P @ M  # (blocks, n)
    return np.asarray((P @ left.T).T), block


def class_block_means(K: np.ndarray, y: np.ndarray) -> np.ndarray:
    """Mean of K over rows of class a and columns of class b, for every pair (classes in
    sorted order, as :func:`class_order`): two products with a class-indicator matrix."""
    _, inverse = np.unique(y, return_inverse=True)
    indicator = np.eye(int(inverse.max()) + 1)[inverse]  # (n, c)
    counts = indicator.sum(axis=0)
    return (indicator.T @ K @ indicator) / np.outer(counts, counts)


def standardized(X: np.ndarray) -> np.ndarray:
    """Zero mean, unit variance per column; constant columns are only centred."""
    std = X.std(axis=0)
    std[std == 0] = 1.0
    return (X - X.mean(axis=0)) / std


def analyse(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int,
    on_progress: ProgressCallback | None = None,
    display_side: int = DISPLAY_HEATMAP_SIDE,
    spectrum: bool = True,
) -> Analysis:
    """Kernel PCA of X for the Explorer, plus linear PCA for comparison.

    ``n_components`` must already be ≤ n − 1 (the sidebar validates it).
    ``spectrum``: up to ``DENSE_MAX_N`` points, all n eigenvalues of K̃ (an n³ solve for
    the spectrum's picture: at n = 2,000 three quarters of the analysis); False, only the
    leading ``n_components`` (:attr:`Analysis.spectrum_complete` is then False), every other
    field the same.
    For large n only the leading eigenvalues are computed: Lanczos needs minutes to
    find the most negative ones of an indefinite kernel among thousands of near-zero
    ones (measured: no convergence in 20 s on the full USPS with a sigmoid kernel), so
    instead :attr:`Analysis.negative_mass_bound` gives a certified lower bound.
    """
    report = on_progress or (lambda fraction, text: None)
    n = X.shape[0]
    k = n_components
    order, sizes = class_order(y, n)

    # The steps' words in the language of the thread that computes (a session's run shows
    # them; a background thread's, in English, are seen by no one).
    report(0.05, _("Kernel matrix K ({n} × {n})").format(n=format_number(n, ",")))
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    kernel_scale = max(float(K.max()), -float(K.min()))  # max|K|, without an n × n |K|
    K_display, block = block_average(K, order, min(display_side, MAX_HEATMAP_SIDE))
    class_means = None if y is None else class_block_means(K, y)

    report(0.3, _("Centring K in feature space"))
    dense = n <= DENSE_MAX_N
    complete = dense and spectrum
    # K is only needed for its heatmap, already made: overwrite it with K̃ so a single
    # n × n matrix is alive (kernel_spectrum still makes one working copy).
    Kc = center_kernel(K, copy=False)
    del K
    Kc_display, _block = block_average(Kc, order, min(display_side, MAX_HEATMAP_SIDE))
    trace = float(np.trace(Kc))

    if dense:
        if complete:
            report(0.45, _("All eigenvalues of K̃"))
            values = kernel_spectrum(Kc)
        report(0.7, _("Leading {k} eigenvectors of K̃").format(k=k))
        # K̃ is symmetric by construction: skip the core's check (two passes over K̃).
        leading = eigendecompose(Kc, k, random_state=0, check_symmetry=False)
        if not complete:
            values = leading.eigenvalues
        ranks = np.arange(1, len(values) + 1)
    else:
        report(0.45, _("Leading {k} eigenvalues of K̃ (iterative)").format(k=ITERATIVE_TOP))
        n_top = max(ITERATIVE_TOP, k)
        leading = eigendecompose(
            Kc, n_top, solver="arpack", random_state=0, check_symmetry=False
        )
        values, ranks = leading.eigenvalues, np.arange(1, n_top + 1)
    del Kc

    report(0.9, _("Projections and linear PCA"))
    # Scores = unit eigenvector × sqrt(μ) (= KernelPCA.fit_transform); a component with
    # μ ≤ 0 has no real axis and scores 0, as in kpca_core.scale_eigenvectors. μ within
    # round-off of 0 (relative to the largest) counts as 0: its sign is noise, and a
    # sqrt(1e-16) score would be drawn as structure.
    top_values = clean_eigenvalues(leading.eigenvalues[:k])[0]
    projection = leading.eigenvectors[:, :k] * np.sqrt(np.clip(top_values, 0.0, None))
    # One full linear PCA gives both its whole spectrum and the scores.
    pca = PCA(svd_solver="full").fit(X)
    pca_projection = pca.transform(X)[:, : min(k, pca.n_components_)]
    pca_ratio = pca.explained_variance_ratio_

    negative = genuinely_negative(values, n, kernel_scale)
    result = Analysis(
        order=order,
        class_sizes=sizes,
        kernel_display=K_display,
        centered_display=Kc_display,
        block_size=block,
        eigenvalues=np.ascontiguousarray(values),
        spectrum_complete=complete,
        eigenvalue_ranks=ranks,
        trace=trace,
        projection=np.ascontiguousarray(projection),
        pca_projection=pca_projection,
        pca_ratio=pca_ratio,
        negative=negative,
        class_means=class_means,
        eigenvalue_floor=rounding_floor(n, kernel_scale),
    )
    for value in vars(result).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    report(1.0, _("Done"))
    return result


# All n eigenvalues of K̃ (the spectrum step, the take-home files) cost an n³ solve the
# Explorer's first screen does not show: on 2,000 USPS digits 0.49 of a first view's 0.64
# CPU s on one core (benchmarks/profile_lab_view.py, issue 50). From this many points a
# first screen leaves them until they are asked for, unless the kernel may be indefinite:
# then the first screen says whether K̃ has negative eigenvalues, and needs them all.
SPECTRUM_ON_REQUEST_FROM = 1000


def spectrum_at_once(n: int, kernel: str, kernel_params: dict) -> bool:
    """Whether the Explorer's first screen computes all n eigenvalues of K̃
    (``analyse(..., spectrum=...)``)."""
    return n < SPECTRUM_ON_REQUEST_FROM or may_be_indefinite(kernel, kernel_params)


def may_be_indefinite(kernel: str, kernel_params: dict) -> bool:
    """Whether K̃ can have genuinely negative eigenvalues for this kernel."""
    if not KERNELS[kernel].positive_definite:
        return True
    # (γ xᵀy + c₀)ᵈ is only guaranteed positive semi-definite for c₀ ≥ 0.
    return kernel == "poly" and kernel_params.get("coef0", 0.0) < 0
