"""Everything the pages compute, and the bounded caches that keep it.

Two layers:

* :func:`analyse` is a plain function of arrays (no Streamlit) that does the kernel PCA
  for the Explorer with ``kpca_core`` and returns only what the pages draw. It is what
  the tests check against ``kpca_core`` and scikit-learn.
* :func:`load_data` and :func:`explorer_analysis` put those behind caches keyed by the
  small, hashable :class:`~ui.state.Settings`. Results hold read-only arrays and are
  shared by all sessions, never copied per rerun; results of an upload stay in the
  uploading session (:func:`results_store`, ``ui.uploads``).

Why a hand-made LRU for the analysis instead of ``st.cache_data``: ``st.cache_data``
pickles and copies its value on every hit, and a cached function cannot drive a
progress bar that lives outside it. The store below is itself held in
``st.cache_resource`` (one per server), is bounded by entry count, and computes each
key once even when several sessions ask at the same time.
"""

from __future__ import annotations

import math
import threading
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import scipy.sparse
import scipy.sparse.linalg
import streamlit as st
from sklearn.decomposition import PCA

import datasets
from experiments.kernel_diagnostics import (
    KernelStats,
    effective_rank,
    reference_gamma,
    saturated_share,
    subspace_similarity,
)
from kpca_core import (
    KERNELS,
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
    explained_variance_ratio,
    kernel_spectrum,
)
from ui import uploads
from ui.admission import queued
from ui.state import CSV, Settings

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
        Eigenvalues of K̃, descending. All n of them when ``spectrum_complete``;
        otherwise only the leading ``ITERATIVE_TOP`` (or k, if larger).
    spectrum_complete : bool
    eigenvalue_ranks : (p,) int
        1-based rank of each entry of ``eigenvalues`` among all n.
    trace : float
        trace(K̃) = sum of all n eigenvalues; explained variance = λ / trace.
    projection : (n, k) float
        KPCA scores on the first k components: unit eigenvector × sqrt(λ), signs
        fixed so the largest-|.| entry of each eigenvector is positive.
    pca_projection : (n, min(k, d)) float
        Linear PCA scores of the same inputs, for comparison.
    pca_ratio : (min(n, d),) float
        Linear PCA's explained variance ratio, all components.
    negative : (p,) bool
        Which eigenvalues are genuinely negative, beyond round-off (kpca_core's
        ``clean_eigenvalues`` rule): the kernel is indefinite.
    stats : KernelStats
        What the γ diagnostics need (``experiments.kernel_diagnostics``); its
        ``linear_similarity`` compares kernel and linear PCA on components 1 and 2.
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
    stats: KernelStats | None = None

    @property
    def n(self) -> int:
        return int(self.projection.shape[0])

    @property
    def variance_base(self) -> float:
        """What "explained variance" is a share of.

        trace(K̃) = Σλ, the total variance in feature space, for a positive
        semi-definite kernel. With genuinely negative eigenvalues (sigmoid) Σλ is smaller
        than the positive part alone, so λ / trace would exceed 100 %; the base is then
        the sum of the positive eigenvalues, the variance of the real part of the
        embedding (shares add up to 100 %). When only the leading eigenvalues are known,
        the largest base they certify: max(trace, Σ held positive λ).
        """
        positive = float(np.clip(self.eigenvalues, 0.0, None).sum())
        if self.spectrum_complete:
            return positive if bool(np.any(self.negative)) else self.trace
        return max(self.trace, positive)

    @property
    def explained_ratio(self) -> np.ndarray:
        """λ / :attr:`variance_base` for the eigenvalues held."""
        return explained_variance_ratio(self.eigenvalues, self.variance_base)

    @property
    def negative_mass_bound(self) -> float:
        """−(sum of the negative eigenvalues of K̃): exact when the spectrum is complete.

        Otherwise a certified lower bound from what is known: trace(K̃) = Σ all λ, so if
        the positive eigenvalues held add up to more than the trace, the others must
        include negatives summing to at most trace − Σ held positives. 0 when nothing
        can be concluded.
        """
        if self.spectrum_complete:
            return -float(self.eigenvalues[self.eigenvalues < 0].sum())
        held_positive = float(np.clip(self.eigenvalues, 0.0, None).sum())
        return max(held_positive - self.trace, 0.0)


# --------------------------------------------------------------------------- pure maths


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
) -> Analysis:
    """Kernel PCA of X for the Explorer, plus linear PCA for comparison.

    ``n_components`` must already be ≤ n − 1 (the sidebar validates it).
    For large n only the leading eigenvalues are computed: Lanczos needs minutes to
    find the most negative ones of an indefinite kernel among thousands of near-zero
    ones (measured: no convergence in 20 s on the full USPS with a sigmoid kernel), so
    instead :attr:`Analysis.negative_mass_bound` gives a certified lower bound.
    """
    report = on_progress or (lambda fraction, text: None)
    n = X.shape[0]
    k = n_components
    order, sizes = class_order(y, n)

    report(0.05, f"Kernel matrix K ({n:,} × {n:,})")
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    K_display, block = block_average(K, order, min(display_side, MAX_HEATMAP_SIDE))
    k_norm = float(np.linalg.norm(K))
    saturated = saturated_share(K) if kernel == "sigmoid" else 0.0

    report(0.3, "Centring K in feature space")
    dense = n <= DENSE_MAX_N
    # K is only needed for its heatmap, already made: overwrite it with K̃ so a single
    # n × n matrix is alive (kernel_spectrum still makes one working copy).
    Kc = center_kernel(K, copy=False)
    del K
    Kc_display, _ = block_average(Kc, order, min(display_side, MAX_HEATMAP_SIDE))
    trace = float(np.trace(Kc))
    kc_norm = float(np.linalg.norm(Kc))

    if dense:
        report(0.45, "All eigenvalues of K̃")
        values = kernel_spectrum(Kc)
        ranks = np.arange(1, n + 1)
        report(0.7, f"Leading {k} eigenvectors of K̃")
        # K̃ is symmetric by construction: skip the core's check (two passes over K̃).
        leading = eigendecompose(Kc, k, random_state=0, check_symmetry=False)
    else:
        report(0.45, f"Leading {ITERATIVE_TOP} eigenvalues of K̃ (iterative)")
        n_top = max(ITERATIVE_TOP, k)
        leading = eigendecompose(
            Kc, n_top, solver="arpack", random_state=0, check_symmetry=False
        )
        values, ranks = leading.eigenvalues, np.arange(1, n_top + 1)
    del Kc

    report(0.9, "Projections and linear PCA")
    # Scores = unit eigenvector × sqrt(λ) (= KernelPCA.fit_transform); a component with
    # λ ≤ 0 has no real axis and scores 0, as in kpca_core.scale_eigenvectors.
    top_values = leading.eigenvalues[:k]
    projection = leading.eigenvectors[:, :k] * np.sqrt(np.clip(top_values, 0.0, None))
    # One full linear PCA gives both its whole spectrum and the scores.
    pca = PCA(svd_solver="full").fit(X)
    pca_projection = pca.transform(X)[:, : min(k, pca.n_components_)]
    pca_ratio = pca.explained_variance_ratio_

    _, negative = clean_eigenvalues(values)
    m = min(2, k, pca_projection.shape[1])
    stats = KernelStats(
        n=n,
        effective_rank=effective_rank(trace, kc_norm),
        centred_share=kc_norm / k_norm if k_norm > 0 else 0.0,
        saturated_share=saturated,
        linear_similarity=subspace_similarity(projection[:, :m], pca_projection[:, :m]),
    )
    result = Analysis(
        order=order,
        class_sizes=sizes,
        kernel_display=K_display,
        centered_display=Kc_display,
        block_size=block,
        eigenvalues=np.ascontiguousarray(values),
        spectrum_complete=dense,
        eigenvalue_ranks=ranks,
        trace=trace,
        projection=np.ascontiguousarray(projection),
        pca_projection=pca_projection,
        pca_ratio=pca_ratio,
        negative=negative,
        stats=stats,
    )
    for value in vars(result).values():
        if isinstance(value, np.ndarray):
            value.setflags(write=False)
    report(1.0, "Done")
    return result


def may_be_indefinite(kernel: str, kernel_params: dict) -> bool:
    """Whether K̃ can have genuinely negative eigenvalues for this kernel."""
    if not KERNELS[kernel].positive_definite:
        return True
    # (γ xᵀy + c₀)ᵈ is only guaranteed positive semi-definite for c₀ ≥ 0.
    return kernel == "poly" and kernel_params.get("coef0", 0.0) < 0


def kernel_spectrum_reference(X: np.ndarray, kernel: str, kernel_params: dict) -> np.ndarray:
    """kpca_core's own spectrum path (used by tests to check :func:`analyse`)."""
    return kernel_spectrum(center_kernel(compute_kernel(X, kernel=kernel, **kernel_params)))


# --------------------------------------------------------------------------- caches


class BoundedStore:
    """A thread-safe LRU of at most ``max_entries`` values, each computed once.

    Concurrent requests for the same key wait for the first computation instead of
    starting their own (three students opening the same preset cost one eigensolve).
    """

    def __init__(self, max_entries: int) -> None:
        self.max_entries = max_entries
        self._values: OrderedDict = OrderedDict()
        self._lock = threading.Lock()
        self._key_locks: dict = {}

    def __len__(self) -> int:
        return len(self._values)

    def peek(self, key) -> bool:
        with self._lock:
            return key in self._values

    def get(self, key, default=None):
        with self._lock:
            return self._values.get(key, default)

    def get_or_compute(self, key, compute: Callable[[], object]):
        with self._lock:
            if key in self._values:
                self._values.move_to_end(key)
                return self._values[key]
            key_lock = self._key_locks.setdefault(key, threading.Lock())
        with key_lock:
            with self._lock:
                if key in self._values:
                    return self._values[key]
            value = compute()
            with self._lock:
                self._values[key] = value
                while len(self._values) > self.max_entries:
                    self._values.popitem(last=False)
                self._key_locks.pop(key, None)
            return value


@st.cache_resource(max_entries=1, show_spinner=False)
def _analysis_store() -> BoundedStore:
    # Each entry is small (heatmaps ≤ 500², n × k scores, n eigenvalues): ~5 MB at most.
    return BoundedStore(max_entries=12)


def load_data(dataset: str, options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    """The dataset itself (read-only arrays; built-in ones shared by all sessions).

    An upload comes from this session's own state (``ui.uploads``), never from another's.
    Raises ValueError (or ``datasets.UspsUnavailableError``) with a user-facing message.
    """
    if dataset == CSV:
        return uploads.session_upload(options).data
    return _load_builtin(dataset, options)


@st.cache_resource(max_entries=8, show_spinner=False)
def _load_builtin(dataset: str, options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    return datasets.load(dataset, **dict(options))


@st.cache_resource(max_entries=4, show_spinner=False)
def _standardized_builtin(dataset: str, options: tuple[tuple[str, object], ...]) -> np.ndarray:
    X = standardized(_load_builtin(dataset, options).X)
    X.setflags(write=False)
    return X


def inputs(settings: Settings) -> np.ndarray:
    """X as the kernel sees it (standardised if asked)."""
    if settings.dataset == CSV:
        upload = uploads.session_upload(settings.dataset_options)
        if settings.standardize and upload.standardized_X is None:
            X = standardized(upload.data.X)
            X.setflags(write=False)
            upload.standardized_X = X
        return upload.standardized_X if settings.standardize else upload.data.X
    if settings.standardize:
        return _standardized_builtin(settings.dataset, settings.dataset_options)
    return _load_builtin(settings.dataset, settings.dataset_options).X


# Per-session twin of a server-wide store, for results computed from an upload: the
# student's last few views (an Explorer analysis of the largest upload is ~2 MB).
SESSION_RESULTS_MAX = 4


def results_store(server: BoundedStore, settings: Settings) -> BoundedStore:
    """Where results computed from ``settings``' data are kept.

    Built-in data: ``server``, shared by every session. An upload: a small store owned by
    the session's upload (``ui.uploads.SessionUpload.results``), so that fitted models
    and projections holding its rows leave the server with the session (or with the
    upload, when a new file replaces it).
    """
    if settings.dataset != CSV:
        return server
    upload = uploads.session_upload(settings.dataset_options)
    store = upload.results.get(id(server))
    if store is None:
        store = upload.results[id(server)] = BoundedStore(
            max_entries=min(server.max_entries, SESSION_RESULTS_MAX)
        )
    return store


def analysis_is_cached(settings: Settings) -> bool:
    return results_store(_analysis_store(), settings).peek(settings)


def explorer_analysis(settings: Settings, on_progress: ProgressCallback | None = None) -> Analysis:
    data = load_data(settings.dataset, settings.dataset_options)
    X = inputs(settings)

    def compute() -> Analysis:
        # Big requests (the full USPS) take turns on the shared server; small ones never
        # wait (ui.admission). Up to DENSE_MAX_N the full spectrum needs a working copy.
        n = len(X)
        with queued(n, copies=2 if n <= DENSE_MAX_N else 1, what="this kernel PCA"):
            return analyse(
                X,
                data.y,
                kernel=settings.kernel,
                kernel_params=settings.kernel_params(),
                n_components=settings.n_components,
                on_progress=on_progress,
            )

    return results_store(_analysis_store(), settings).get_or_compute(settings, compute)


@st.cache_data(max_entries=64, show_spinner=False)
def _reference_gamma(dataset: str, options: tuple, standardize: bool, kernel: str) -> float | None:
    X = inputs(Settings(dataset=dataset, dataset_options=options, standardize=standardize))
    return reference_gamma(X, kernel)


def reference_gamma_for(
    dataset: str, options: dict | tuple, standardize: bool, kernel: str
) -> float | None:
    """:func:`experiments.kernel_diagnostics.reference_gamma` of a dataset as the kernel sees it.

    None when the data cannot be loaded (no upload yet, USPS unavailable: the page says
    why) or the kernel has no γ.
    """
    options = tuple(sorted(dict(options).items()))
    try:
        return _reference_gamma(dataset, options, bool(standardize), kernel)
    except (ValueError, OSError, datasets.UspsUnavailableError):
        return None
