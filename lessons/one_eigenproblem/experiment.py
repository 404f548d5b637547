r"""One eigenproblem: each method's matrix K, its kernel PCA, and the library's own method.

For the method chosen, :func:`eigenproblem` builds the matrix K the method decomposes
(:mod:`experiments.graph_kernels`: −½ D² for classical MDS, −½ D_G² for Isomap, L⁺ for
Laplacian eigenmaps, D^{−½} A D^{−½} for spectral clustering, or the sidebar's kernel),
hands it to ``kpca_core.KernelPCA(kernel="precomputed")``, and runs scikit-learn's own
implementation of the method beside it on the same points: ``Isomap``,
``SpectralEmbedding`` (and ``spectral_embedding`` without its normalisation),
``SpectralClustering``, ``KernelPCA``, ``ClassicalMDS`` (Torgerson's eigendecomposition of
−½ J D² J; scikit-learn's ``MDS`` is SMACOF, another method) and linear PCA. How far the
two agree is measured per component, up to sign and scale: |correlation| (the cosine
between the centred columns).

Where the two are the same mathematics the correlation is 1 to rounding. Where the
library normalises differently (``SpectralEmbedding`` decomposes the normalised Laplacian
and divides by √degree; ``SpectralClustering`` keeps the trivial eigenvector D^{½}1
where kernel PCA removes the plain mean) :class:`Comparison` says so, and measures how
much it matters here.

The graph methods also report their k-nearest-neighbour graph (:class:`GraphReport`):
how many pieces it falls into, and which edges are short-circuits — edges whose ends are
far apart along the sheet the data were rolled from (when the data set knows it:
``Dataset.unrolled``), or, for labelled data, edges between classes.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse
from scipy.optimize import linear_sum_assignment
from scipy.sparse import SparseEfficiencyWarning
from scipy.sparse.csgraph import laplacian as csgraph_laplacian
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.decomposition import PCA
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.manifold import ClassicalMDS, Isomap, SpectralEmbedding, spectral_embedding
from sklearn.metrics import adjusted_rand_score, pairwise_kernels
from sklearn.neighbors import kneighbors_graph
from threadpoolctl import threadpool_limits

from experiments.analysis import block_average
from experiments.graph_kernels import (
    METHODS,
    Pieces,
    classical_mds_kernel,
    degrees,
    geodesic_distances,
    graph_pieces,
    join_pieces,
    laplacian_pinv,
    mds_kernel,
    neighbour_affinity,
    neighbour_graph,
    normalised_affinity,
    rank_correlation,
)
from experiments.kpca_steps import rounding_floor
from kpca_core import IndefiniteKernelWarning, KernelPCA, center_kernel, compute_kernel
from kpca_core.centering import NON_FINITE_KERNEL
from words.i18n import _, format_number, join_and, join_list, join_sentences, ngettext

# Isomap warns when it joins the pieces of a graph that falls apart, and the spectral
# methods when theirs does: the page says it in words, from the numbers. (A filter set
# once: ``catch_warnings`` is not thread-safe, and every session's script runs in a
# thread of one process.)
warnings.filterwarnings("ignore", message="The number of connected components of the "
                        "neighbors graph", category=UserWarning)
warnings.filterwarnings("ignore", message="Graph is not fully connected", category=UserWarning)
# scikit-learn's Isomap writes the joining edges into a CSR matrix, and SciPy says so.
warnings.filterwarnings("ignore", category=SparseEfficiencyWarning)
# kpca_core's word on a negative eigenvalue of a precomputed K (only this lesson fits one
# with negative_eigenvalues="warn"): the page says it, from the numbers.
warnings.filterwarnings("ignore", message=r".* the 'precomputed' kernel is not positive "
                        "semi-definite", category=IndefiniteKernelWarning)

# Neighbours in the graph. By default 6: the swiss roll's and the S-curve's graphs are
# whole and have no short-circuit, the circles' fall into one piece per ring.
K_DEFAULT, K_MIN, K_MAX = 6, 1, 100
COMPARED_MAX = 4  # components compared with the library (the sidebar's, up to this)
DISPLAY_SIDE = 200  # K and K̃ drawn at most this many cells a side (as the Explorer)
SAME = 0.9999  # |correlation| per component where the two are the same mathematics
# Components whose eigenvalues differ by less than this (relative to the largest) span a
# plane whose axes no solver can tell apart: they are compared as a plane (the cosine of
# the largest principal angle between the two planes).
DEGENERATE = 1e-6
# An edge is a short-circuit when its ends are more than this many times its length apart
# along the sheet (a true neighbour on a smooth sheet: about once its length).
SHORT_CIRCUIT = 2.0
# Threads for BLAS and OpenMP (k-means): the matrices are small (n ≤ the page's cap) and
# the host is shared. Measured on the swiss roll (600 points, 2 cores, load average 10):
# k-means with its default OpenMP threads took 2.5 s, with one well under a second.
THREADS = 1
# A component whose eigenvalue is below this share of the largest, or below the rounding
# of K's entries (experiments.kpca_steps.rounding_floor), carries no direction (classical
# MDS of points in the plane has two): it is not compared.
ZERO_SHARE = 1e-9
SEED = 0


@dataclass(frozen=True)
class GraphReport:
    """The k-nearest-neighbour graph a method builds, and what is wrong with it.

    Attributes
    ----------
    k : int
        Neighbours per point.
    edges : (m, 2) int
        Its undirected edges (i < j), before any joining.
    pieces : Pieces
        Its connected pieces, largest first.
    joins : (p, 2) int
        Edges added to join the pieces (Isomap, as scikit-learn's does); empty otherwise.
    flagged : (m,) bool or None
        Edges that jump: short-circuits across the sheet (``kind == "short-circuit"``) or
        edges between classes (``kind == "between classes"``); None when neither is known.
    kind : str
        "short-circuit", "between classes" or "".
    """

    k: int
    edges: np.ndarray
    pieces: Pieces
    joins: np.ndarray
    flagged: np.ndarray | None
    kind: str

    @property
    def n_flagged(self) -> int:
        return 0 if self.flagged is None else int(self.flagged.sum())

    @property
    def flagged_share(self) -> float:
        return self.n_flagged / len(self.edges) if len(self.edges) else 0.0


@dataclass(frozen=True)
class Clusters:
    """Spectral clustering: k-means on our components, the library's, and k-means on the
    raw inputs, with the labels matched to ours (for colours) and their agreements.

    ``ours``, ``library``, ``raw``: (n,) cluster labels. ``*_truth``: adjusted Rand index
    against the data's classes (None without labels).
    """

    n_clusters: int
    ours: np.ndarray
    library: np.ndarray
    raw: np.ndarray
    agreement: float  # adjusted Rand index, ours against the library's
    ours_truth: float | None
    library_truth: float | None
    raw_truth: float | None


@dataclass(frozen=True)
class Comparison:
    """Ours against one library implementation.

    Attributes
    ----------
    library : str
        What ran, as code ("sklearn.manifold.Isomap(n_neighbors=10)").
    projection : (n, c) float
        Its coordinates.
    correlations : (c,) float
        |correlation| with our component of the same rank (components with equal
        eigenvalues compared as a plane; NaN where the axes are not determined: see
        :func:`component_agreement`).
    same : bool
        Whether the two are the same mathematics (then every correlation should be ≥
        :data:`SAME`); otherwise ``differs`` says how they differ by design.
    differs : str
    offset : int
        Library components skipped before the compared ones (Laplacian eigenmaps on a
        graph in pieces: the piece indicators, which L⁺ has no axis for).
    dense : bool
        Whether the library's eigenvectors were found by its dense solver
        (:func:`dense_spectral_embedding`) rather than by its default, ARPACK.
    """

    library: str
    projection: np.ndarray
    correlations: np.ndarray
    same: bool
    differs: str = ""
    offset: int = 0
    dense: bool = False

    @property
    def determined(self) -> np.ndarray:
        """Components whose axes are determined (not part of a repeated eigenvalue that
        runs past the compared components)."""
        return ~np.isnan(self.correlations)

    @property
    def worst(self) -> float:
        """The smallest |correlation| over the determined components (NaN if none)."""
        shown = self.correlations[self.determined]
        return float(shown.min()) if len(shown) else float("nan")

    @property
    def agrees(self) -> bool:
        return bool(self.worst >= SAME)


@dataclass(frozen=True, eq=False)
class Eigenproblem:
    """One method on one data set: its K, our kernel PCA of K, the library's method.

    Attributes
    ----------
    method : str
        A key of :data:`experiments.graph_kernels.METHODS`.
    order, class_sizes : the heatmaps' point order (by class, then along the sheet when
        known) and the classes' sizes in it.
    kernel_display, centered_display : (m, m) float
        K and K̃ = J K J in that order, block-averaged to at most DISPLAY_SIDE a side.
    block_size : int
    row_sum : float
        max |row sum of K| / (n max |K|): 0 when K is already centred (L⁺).
    eigenvalues : (c,) float
        The leading eigenvalues μ of K̃ (those above ZERO_SHARE · μ₁: the others carry no
        direction to compare).
    projection : (n, c) float
        Our kernel PCA coordinates √μ v.
    comparisons : tuple of Comparison
        The library's method first; a second where it adds an exact check or a known
        equivalence (``spectral_embedding`` without normalisation, linear PCA).
    graph : GraphReport or None
    clusters : Clusters or None
    sheet_correlation : float or None
        |Spearman ρ| between our component 1 and the distance along the sheet (data
        rolled from a sheet only).
    piece_share : float or None
        Share of our component 1's variance between the graph's pieces (a graph in
        pieces only).
    degree_range : (float, float) or None
        The smallest and largest degree of the affinity graph (Laplacian eigenmaps and
        spectral clustering: where the library's normalisation makes a difference).
    asked : int
        Components asked for; ``eigenvalues`` holds those above ``floor``, the leading
        ones (none when K̃ has no direction: then nothing is compared).
    left_out : float or None
        The largest eigenvalue left out among those asked for (None: none left out):
        negative (K not positive semi-definite) or 0 to within ``floor``.
    floor : float
        Eigenvalues at or below it count as 0: ZERO_SHARE of the largest, or the rounding
        of K's entries if more.
    lowest : float or None
        K̃'s smallest eigenvalue, when no component is kept (None otherwise).
    """

    method: str
    order: np.ndarray
    class_sizes: np.ndarray
    kernel_display: np.ndarray
    centered_display: np.ndarray
    block_size: int
    row_sum: float
    eigenvalues: np.ndarray
    projection: np.ndarray
    comparisons: tuple[Comparison, ...]
    graph: GraphReport | None = None
    clusters: Clusters | None = None
    sheet_correlation: float | None = None
    piece_share: float | None = None
    degree_range: tuple[float, float] | None = None
    asked: int = 0
    left_out: float | None = None
    floor: float = 0.0
    lowest: float | None = None

    @property
    def n(self) -> int:
        return len(self.projection)


# --------------------------------------------------------------------------- measures


def component_agreement(ours: np.ndarray, theirs: np.ndarray, eigenvalues: np.ndarray,
                        next_eigenvalue: float | None = None) -> np.ndarray:
    """|correlation| of each of our components with the library's of the same rank.

    Both are centred; a column's correlation is then the cosine between the two columns,
    whatever their signs and scales. Components whose eigenvalues μ differ by less than
    ``DEGENERATE`` · max|μ| form a plane (or more) in which any axes are right: each of
    them gets the cosine of the largest principal angle between the two planes. When the
    last such group's eigenvalue is shared by the next component too (``next_eigenvalue``,
    not compared), the group is part of a larger eigenspace whose leading axes no solver
    can tell: those components get NaN (not determined).
    """
    ours = np.asarray(ours, dtype=float) - np.mean(ours, axis=0)
    theirs = np.asarray(theirs, dtype=float) - np.mean(theirs, axis=0)
    mu = np.asarray(eigenvalues, dtype=float)
    if next_eigenvalue is not None:
        mu = np.append(mu, next_eigenvalue)
    scale = max(float(np.abs(mu).max()), np.finfo(float).tiny)
    groups, start = [], 0
    for j in range(1, len(mu) + 1):
        if j == len(mu) or abs(mu[j] - mu[j - 1]) > DEGENERATE * scale:
            groups.append(slice(start, j))
            start = j
    c = ours.shape[1]
    result = np.zeros(c)
    for group in groups:
        if group.stop > c:  # runs on past the compared components
            result[group.start:c] = np.nan
            continue
        a, b = ours[:, group], theirs[:, group]
        if np.linalg.norm(a) == 0 or np.linalg.norm(b) == 0:
            continue  # a zero column agrees with nothing
        qa, qb = linalg.orth(a), linalg.orth(b)
        if qa.shape[1] < a.shape[1] or qb.shape[1] < b.shape[1]:
            continue  # a column is a combination of the others: no such axis
        cosines = linalg.svdvals(qa.T @ qb)
        result[group] = float(np.clip(cosines.min(), 0.0, 1.0))
    return result


def between_share(z: np.ndarray, groups: np.ndarray) -> float:
    """Share of the variance of ``z`` that lies between the group means (η²)."""
    z = np.asarray(z, dtype=float)
    total = float(np.sum((z - z.mean()) ** 2))
    if total == 0:
        return 0.0
    between = sum(float(np.sum(groups == g)) * (float(z[groups == g].mean()) - z.mean()) ** 2
                  for g in np.unique(groups))
    return between / total


def heatmap_order(y: np.ndarray | None, unrolled: np.ndarray | None, n: int) -> np.ndarray:
    """Points by class, and along the sheet inside a class when the sheet is known (so
    that K's blocks show how it changes along the roll)."""
    keys = [np.arange(n)]
    if unrolled is not None:
        keys.insert(0, unrolled[:, 0])
    if y is not None:
        keys.insert(0, y)
    return np.lexsort(keys[::-1]) if len(keys) > 1 else np.arange(n)


def displays(K: np.ndarray, order: np.ndarray, max_side: int = DISPLAY_SIDE
             ) -> tuple[np.ndarray, np.ndarray, int]:
    """K and K̃ = J K J in ``order``, block-averaged, without an n × n copy of K̃.

    Centring is linear: a block mean of K̃ is the block mean of K minus the block means of
    its row means (rows and columns) plus the grand mean.
    """
    shown, block = block_average(K, order, max_side)
    rows = K.mean(axis=1)
    grand = float(rows.mean())
    group = np.arange(len(order)) // block
    counts = np.bincount(group)
    row_blocks = np.bincount(group, weights=rows[order]) / counts
    centred = shown - row_blocks[:, None] - row_blocks[None, :] + grand
    return shown, centred, block


def short_circuits(edges: np.ndarray, X_raw: np.ndarray, unrolled: np.ndarray) -> np.ndarray:
    """Edges whose ends lie more than SHORT_CIRCUIT times the edge's length apart on the
    sheet the data were rolled from (a jump between layers of the roll)."""
    i, j = edges[:, 0], edges[:, 1]
    length = np.linalg.norm(X_raw[i] - X_raw[j], axis=1)
    along = np.linalg.norm(unrolled[i] - unrolled[j], axis=1)
    return along > SHORT_CIRCUIT * np.maximum(length, np.finfo(float).tiny)


def _edges(graph) -> np.ndarray:
    upper = graph.tocoo()
    keep = upper.row < upper.col
    return np.column_stack([upper.row[keep], upper.col[keep]]).astype(np.int64)


def matched_labels(labels: np.ndarray, reference: np.ndarray) -> np.ndarray:
    """``labels`` (values 0 … c − 1) renumbered to agree with ``reference`` (the same
    values) as far as possible: a Hungarian matching of the clusters' overlaps, so that a
    cluster keeps its colour from one chart to the next."""
    c = int(max(labels.max(), reference.max())) + 1
    overlap = np.zeros((c, c), dtype=int)
    np.add.at(overlap, (labels, reference), 1)
    rows, cols = linear_sum_assignment(-overlap)
    mapping = np.empty(c, dtype=int)
    mapping[rows] = cols
    return mapping[labels]


# --------------------------------------------------------------------------- the methods


def _our_kpca(K: np.ndarray, c: int) -> tuple[np.ndarray, np.ndarray, float | None]:
    """Kernel PCA of the precomputed K: (√μ v, μ) for c components, and the next
    eigenvalue (to tell whether the last one compared is repeated past them). K is left
    as it was.

    Isomap's K and the normalised affinity need not be positive semi-definite: an
    eigenvalue asked for may be negative (the fifth of five points, say). It is kept, so
    that the caller can leave that component out and say why, rather than refused.
    """
    extra = 1 if c < len(K) else 0
    model = KernelPCA(n_components=c + extra, kernel="precomputed", copy_X=False,
                      negative_eigenvalues="warn", random_state=SEED)
    Z = model.fit_transform(K)
    mu = model.eigenvalues_
    return Z[:, :c], mu[:c], (float(mu[c]) if extra else None)


def _library_kpca(X, kernel: str, params: dict, c: int) -> np.ndarray:
    # scikit-learn's kernel (pairwise_kernels knows the Laplacian kernel, its KernelPCA
    # only by a slow callable) and scikit-learn's eigensolver.
    metric = "polynomial" if kernel == "poly" else kernel
    K = pairwise_kernels(X, metric=metric, **params)
    return SklearnKernelPCA(n_components=c, kernel="precomputed",
                            random_state=SEED).fit_transform(K)


def dense_spectral_embedding(adjacency, n_components: int, *, norm_laplacian: bool = True,
                             drop_first: bool = True) -> np.ndarray:
    """scikit-learn's ``spectral_embedding`` by its dense solver, for a graph of any size.

    What ``sklearn.manifold.spectral_embedding`` computes when it takes its dense branch
    (``eigen_solver="lobpcg"`` on a graph of fewer than 5 × n_components nodes), written
    out: every eigenvector of the Laplacian by ``scipy.linalg.eigh``, smallest first, the
    first dropped, each divided by √degree when the Laplacian is normalised (Belkin &
    Niyogi's L f = λ D f). Its default solver, ARPACK in shift-invert mode, is a Lanczos
    iteration: it cannot be relied on to find every eigenvector of a repeated eigenvalue
    (a graph in p pieces: the zero eigenvalue, p times; it returned the next ones in their
    place on the circles at k = 1 and the four rings at k = 3), and it cannot return as
    many eigenvectors as the graph has nodes. Signs are left as LAPACK gives them.
    """
    laplacian, root_degrees = csgraph_laplacian(adjacency, normed=norm_laplacian,
                                                return_diag=True)
    if sparse.issparse(laplacian):
        laplacian = laplacian.toarray()
    _, vectors = linalg.eigh(laplacian, overwrite_a=True, check_finite=False)
    start = 1 if drop_first else 0
    embedding = vectors[:, start:start + n_components]
    return embedding / root_degrees[:, None] if norm_laplacian else embedding


def arpack_unreliable(n: int, pieces: int, wanted: int) -> bool:
    """Whether scikit-learn's ARPACK cannot be trusted with ``wanted`` eigenvectors of the
    Laplacian past its first, on n points in ``pieces`` pieces: a repeated zero
    eigenvalue, or as many eigenvectors as points (eigsh needs fewer)."""
    return pieces > 1 or wanted + 1 >= n


def nothing_to_cluster(method: str, k: int, n: int) -> bool:
    """Whether spectral clustering meets the complete graph: at k = n − 1 every point is
    every other's neighbour, D^(−½) A D^(−½) = (11ᵀ − I)/(n − 1), and K̃ = −J/(n − 1):
    no direction with a positive eigenvalue, every one alike."""
    return method == "spectral" and k >= n - 1


def eigenproblem(
    X: np.ndarray,
    y: np.ndarray | None,
    *,
    method: str,
    kernel: str,
    kernel_params: dict,
    k: int,
    n_components: int,
    unrolled: np.ndarray | None = None,
    X_raw: np.ndarray | None = None,
) -> Eigenproblem:
    """Build ``method``'s K on X, its kernel PCA, and the library's method beside it.

    Parameters
    ----------
    X : (n, d) the inputs as the kernel sees them.
    y : (n,) class labels or None (spectral clustering's number of clusters, the
        heatmaps' order, the edges between classes).
    method : a key of ``METHODS``.
    kernel, kernel_params : the sidebar's kernel (method "kpca" only).
    k : neighbours per point (graph methods), 1 ≤ k < n.
    n_components : components compared (at most n − 1).
    unrolled : (n, 2) the points' coordinates on the sheet they were rolled from, if known.
    X_raw : (n, d) the inputs before standardising (the lengths short-circuits are
        measured against, in the sheet's units); X when not given.

    Holds at most two n × n arrays of its own at a time (K and KernelPCA's private copy;
    the library's estimators hold their own, up to four, once ours are freed).
    """
    X = np.asarray(X, dtype=np.float64)
    n = len(X)
    X_raw = X if X_raw is None else np.asarray(X_raw, dtype=np.float64)
    spec = METHODS[method]
    if spec.graph and not 1 <= k < n:
        raise ValueError(f"The graph needs 1 ≤ k < n neighbours per point; got k = {k} "
                         f"for n = {n} points.")
    if nothing_to_cluster(method, k, n):
        raise ValueError(f"Spectral clustering needs k < n − 1: with k = {k} for n = {n} "
                         "points the graph is complete and there is nothing to cluster.")
    n_classes = len(np.unique(y)) if y is not None else 0
    n_clusters = n_classes if n_classes >= 2 else 2
    c = min(n_components, n - 1)
    if method == "spectral":
        c = max(1, min(n_clusters - 1, n - 1))  # the trivial direction is centred away
    order = heatmap_order(y, unrolled, n)
    graph = None
    degree_range = None
    with threadpool_limits(limits=THREADS):
        if method == "kpca":
            K = compute_kernel(X, kernel=kernel, **kernel_params)
        elif method == "mds":
            K = classical_mds_kernel(X)
        elif method == "isomap":
            edges_graph = neighbour_graph(X, k)
            pieces = graph_pieces(edges_graph)
            joined = (join_pieces(X, edges_graph, pieces) if pieces.count > 1
                      else edges_graph)
            joins = _edges(joined - edges_graph) if pieces.count > 1 else np.zeros((0, 2), int)
            K = mds_kernel(geodesic_distances(X, joined))
            graph = (_edges(edges_graph), pieces, joins)
        else:
            affinity = neighbour_affinity(X, k)
            pieces = graph_pieces(affinity)
            K = laplacian_pinv(affinity) if method == "laplacian" else \
                normalised_affinity(affinity)
            graph = (_edges(affinity), pieces, np.zeros((0, 2), int))
            spread = degrees(affinity)
            degree_range = (float(spread.min()), float(spread.max()))
        # An overflowed K (a polynomial kernel on large inputs) is refused as the core's
        # centring refuses it, before scikit-learn's check words it otherwise.
        if not np.isfinite(K.mean(axis=0)).all():
            raise ValueError(NON_FINITE_KERNEL)
        scale = max(float(np.abs(K).max()), np.finfo(float).tiny)
        row_sum = float(np.abs(K.sum(axis=1)).max()) / (n * scale)
        kernel_display, centered_display, block = displays(K, order)
        ours, mu, following = _our_kpca(K, c)
        floor = max(ZERO_SHARE * max(float(mu[0]), 0.0), rounding_floor(n, scale))
        kept = int(np.sum(mu > floor))  # μ descending: the leading ones
        left_out = float(mu[kept]) if kept < len(mu) else None
        # With no component left, the bottom of the spectrum says why: K̃ is 0 to
        # rounding (every point alike), or negative beyond it (K not PSD here).
        lowest = None if kept else float(linalg.eigvalsh(
            center_kernel(K), subset_by_index=[0, 0], overwrite_a=True)[0])
        del K
        if kept < len(mu):
            following = float(mu[kept])
        ours, mu = ours[:, :kept], mu[:kept]
        comparisons, clusters = (), None
        if kept:
            comparisons = _library(method, X, y, kernel, kernel_params, k, ours, mu,
                                   following, graph[1] if graph else None, n_clusters)
            if method == "spectral":
                clusters = _clusters(X, y, ours, n_clusters, k)
    report = None
    sheet = None
    share = None
    if graph is not None:
        edges, pieces, joins = graph
        flagged, kind = None, ""
        if unrolled is not None:
            flagged, kind = short_circuits(edges, X_raw, unrolled), "short-circuit"
        elif n_classes >= 2:
            flagged, kind = y[edges[:, 0]] != y[edges[:, 1]], "between classes"
        report = GraphReport(k=k, edges=edges, pieces=pieces, joins=joins,
                             flagged=flagged, kind=kind)
        if pieces.count > 1 and kept:
            share = between_share(ours[:, 0], pieces.labels)
    if unrolled is not None and kept:
        sheet = rank_correlation(ours[:, 0], unrolled[:, 0])
    class_sizes = np.bincount(y[order] if y is not None else np.zeros(n, int))
    class_sizes = class_sizes[class_sizes > 0]
    return Eigenproblem(method=method, order=order, class_sizes=class_sizes,
                        kernel_display=kernel_display, centered_display=centered_display,
                        block_size=block, row_sum=row_sum, eigenvalues=mu, projection=ours,
                        comparisons=comparisons, graph=report, clusters=clusters,
                        sheet_correlation=sheet, piece_share=share,
                        degree_range=degree_range, asked=c, left_out=left_out, floor=floor,
                        lowest=lowest)


def _library(method, X, y, kernel, params, k, ours, mu, following, pieces,
             n_clusters) -> tuple[Comparison, ...]:
    # As many components as ours keeps: past them μ is 0 or negative (no axis), and the
    # library may refuse them or give NaN (√μ).
    m = ours.shape[1]

    def compare(name, Z, *, same=True, differs="", offset=0, dense=False) -> Comparison:
        Z = np.asarray(Z, dtype=float)[:, offset:offset + ours.shape[1]]
        return Comparison(name, Z, component_agreement(ours, Z, mu, following), same,
                          differs, offset, dense)

    if method == "kpca":
        arguments = "".join(f", {name}={value!r}" for name, value in params.items())
        return (compare(f"sklearn.decomposition.KernelPCA(kernel={kernel!r}{arguments})",
                        _library_kpca(X, kernel, params, m)),)
    if method == "mds":
        return (compare(f"sklearn.manifold.ClassicalMDS(n_components={m})",
                        ClassicalMDS(n_components=m).fit_transform(X)),
                compare("sklearn.decomposition.PCA", PCA(n_components=m).fit_transform(X)))
    if method == "isomap":
        return (compare(f"sklearn.manifold.Isomap(n_neighbors={k})",
                        Isomap(n_neighbors=k, n_components=m).fit_transform(X)),)
    if method == "laplacian":
        # Past the first (dropped), the library returns L's other zero eigenvalues' vectors,
        # which only say which piece a point is in, then the ones compared with ours.
        extra = pieces.count - 1
        wanted = m + extra
        C = kneighbors_graph(X, k + 1, include_self=True)
        affinity = 0.5 * (C + C.T)  # SpectralEmbedding's affinity_matrix_
        dense = arpack_unreliable(len(X), pieces.count, wanted)
        if dense:
            library = dense_spectral_embedding(affinity, wanted)
            exact = dense_spectral_embedding(affinity, wanted, norm_laplacian=False)
        else:
            library = SpectralEmbedding(n_components=wanted, affinity="nearest_neighbors",
                                        n_neighbors=k + 1, random_state=SEED).fit_transform(X)
            exact = spectral_embedding(affinity, n_components=wanted, norm_laplacian=False,
                                       random_state=SEED)
        return (compare(f"sklearn.manifold.SpectralEmbedding(n_neighbors={k + 1})", library,
                        same=False, differs="normalised", offset=extra, dense=dense),
                compare("sklearn.manifold.spectral_embedding(norm_laplacian=False)", exact,
                        offset=extra, dense=dense))
    # Spectral clustering: the library's embedding is not kept by SpectralClustering;
    # spectral_embedding on the same graph, with the same solver, is what it clusters.
    A = kneighbors_graph(X, k + 1, include_self=True)
    library = spectral_embedding(0.5 * (A + A.T), n_components=n_clusters, drop_first=False,
                                 eigen_solver=_clustering_solver(len(X), n_clusters),
                                 random_state=SEED)
    return (compare("sklearn.manifold.spectral_embedding (what SpectralClustering clusters)",
                    library, same=False, differs="trivial", offset=1),)


def _clustering_solver(n: int, n_clusters: int) -> str:
    """SpectralClustering's eigensolver: its default, ARPACK, unless it would be asked for
    as many eigenvectors as points (as many classes as points: the digits at n = 10); then
    "lobpcg", which on a graph this small is scikit-learn's dense solver (scipy.linalg.eigh
    of the whole Laplacian)."""
    return "lobpcg" if arpack_unreliable(n, 1, n_clusters - 1) else "arpack"


def _clusters(X, y, ours, n_clusters, k) -> Clusters:
    found = KMeans(n_clusters=n_clusters, n_init=10, random_state=SEED).fit_predict(ours)
    library = SpectralClustering(n_clusters=n_clusters, affinity="nearest_neighbors",
                                 n_neighbors=k + 1,
                                 eigen_solver=_clustering_solver(len(X), n_clusters),
                                 random_state=SEED).fit_predict(X)
    raw = KMeans(n_clusters=n_clusters, n_init=10, random_state=SEED).fit_predict(X)

    def truth(labels):
        return None if y is None or len(np.unique(y)) < 2 else float(
            adjusted_rand_score(y, labels))

    return Clusters(n_clusters=n_clusters, ours=found,
                    library=matched_labels(library, found), raw=matched_labels(raw, found),
                    agreement=float(adjusted_rand_score(found, library)),
                    ours_truth=truth(found), library_truth=truth(library), raw_truth=truth(raw))



# --------------------------------------------------------------------------- the sentences

FOLLOWS, PARTLY = 0.95, 0.5  # |ρ| with the distance along the sheet


def _percent(share: float) -> str:
    if share == 0:
        return "0 %"
    return "< 0.1 %" if share < 0.001 else f"{format_number(100 * share, '.1f')} %"


def _sizes(sizes: np.ndarray) -> str:
    """The pieces' sizes: "1,000, 20 and 5 points"; beyond five, the five largest and how
    many smaller pieces there are besides."""
    shown = [format_number(s, ",") for s in sizes[:5]]
    if len(sizes) > 5:
        # Translators: {listed} is a list of the five largest pieces' sizes ("1,000, 20, 9,
        # 7, 5"); {more} counts the smaller pieces left out.
        return _("{listed} points and {more} smaller pieces").format(
            listed=join_list(shown), more=format_number(len(sizes) - 5, ","))
    return _("{listed} points").format(listed=join_and(shown))


def sheet_sentence(rho: float) -> str:
    """Whether component 1 follows the distance along the sheet, from |ρ|."""
    value = _("|ρ| = {rho}, Spearman's rank correlation").format(rho=format_number(rho, ".3f"))
    if rho >= FOLLOWS:
        return _("Component 1 follows the distance along the sheet ({value}).").format(
            value=value)
    if rho >= PARTLY:
        return _("Component 1 follows the distance along the sheet only partly ({value}).")\
            .format(value=value)
    return _("Component 1 does not follow the distance along the sheet ({value}).").format(
        value=value)


def graph_sentence(result: Eigenproblem) -> str:
    """The graph's edges, pieces and flagged edges, in numbers."""
    report = result.graph
    if report is None:
        return ""
    m, pieces = len(report.edges), report.pieces
    values = dict(k=report.k, m=format_number(m, ","), n=format_number(result.n, ","),
                  pieces=format_number(pieces.count, ","), sizes=_sizes(pieces.sizes),
                  count=format_number(report.n_flagged, ","),
                  share=_percent(report.flagged_share),
                  factor=format_number(SHORT_CIRCUIT, "g"))
    if pieces.count == 1:
        text = ngettext("The {k}-nearest-neighbour graph has {m} edge and joins all {n} points "
                        "in one piece.",
                        "The {k}-nearest-neighbour graph has {m} edges and joins all {n} "
                        "points in one piece.", m).format(**values)
    else:
        text = ngettext("The {k}-nearest-neighbour graph has {m} edge and falls apart into "
                        "{pieces} pieces of {sizes}: no path leads from one piece to another.",
                        "The {k}-nearest-neighbour graph has {m} edges and falls apart into "
                        "{pieces} pieces of {sizes}: no path leads from one piece to another.",
                        m).format(**values)
    edges = ""
    if report.kind == "short-circuit":
        if report.n_flagged == 0:
            edges = _("None of its edges jumps between layers of the roll: no edge's ends "
                      "are more than {factor} times its length apart along the sheet.").format(
                **values)
        else:
            edges = ngettext(
                "{count} edge ({share}) jumps between layers of the roll: its ends are more "
                "than {factor} times its length apart along the sheet, a short cut through "
                "the air.",
                "{count} edges ({share}) jump between layers of the roll: their ends are more "
                "than {factor} times their length apart along the sheet, a short cut through "
                "the air.", report.n_flagged).format(**values)
    elif report.kind == "between classes":
        edges = ngettext("{count} edge ({share}) joins points of different classes.",
                         "{count} edges ({share}) join points of different classes.",
                         report.n_flagged).format(**values)
    return join_sentences([text, edges])


def pieces_sentence(result: Eigenproblem) -> str:
    """What a graph in pieces does to this method's K, from the numbers ('' in one piece)."""
    report = result.graph
    if report is None or report.pieces.count == 1:
        return ""
    p = report.pieces.count
    if result.method == "isomap":
        share = result.piece_share or 0.0
        joins = len(report.joins)
        values = dict(joins=format_number(joins, ","), share=_percent(share))
        if share >= 0.5:
            return ngettext(
                "Between pieces the geodesic distance is infinite, and −½ D_G² is not "
                "defined. scikit-learn's Isomap (with a warning) adds an edge between the "
                "closest points of every two pieces ({joins} edge, dashed), and so does K "
                "here. Component 1 then has {share} of its variance between the pieces: it "
                "mostly says which piece a point is in.",
                "Between pieces the geodesic distance is infinite, and −½ D_G² is not "
                "defined. scikit-learn's Isomap (with a warning) adds an edge between the "
                "closest points of every two pieces ({joins} edges, dashed), and so does K "
                "here. Component 1 then has {share} of its variance between the pieces: it "
                "mostly says which piece a point is in.", joins).format(**values)
        return ngettext(
            "Between pieces the geodesic distance is infinite, and −½ D_G² is not "
            "defined. scikit-learn's Isomap (with a warning) adds an edge between the "
            "closest points of every two pieces ({joins} edge, dashed), and so does K "
            "here. Component 1 then has {share} of its variance between the pieces: most "
            "of it lies inside them.",
            "Between pieces the geodesic distance is infinite, and −½ D_G² is not "
            "defined. scikit-learn's Isomap (with a warning) adds an edge between the "
            "closest points of every two pieces ({joins} edges, dashed), and so does K "
            "here. Component 1 then has {share} of its variance between the pieces: most "
            "of it lies inside them.", joins).format(**values)
    if result.method == "laplacian":
        return _("L then has {p} zero eigenvalues, one per piece, whose eigenvectors are "
                 "constant on each piece: they only say which piece a point is in. L⁺ has "
                 "no axis for them (1/0 is left out); scikit-learn's SpectralEmbedding and "
                 "spectral_embedding return {extra} of them before their other components "
                 "(the first is dropped), so the table and the check above compare ours "
                 "with the library's components from {first} on.").format(
            p=format_number(p, ","), extra=format_number(p - 1, ","),
            first=format_number(p, ","))
    if result.clusters is not None and p > result.clusters.n_clusters:
        return _("For clustering this is welcome: D^(−½) A D^(−½) has the eigenvalue 1 once "
                 "per piece ({p} times), with an eigenvector that lives on that piece alone, "
                 "so the leading components tell the pieces apart; with {p} pieces and "
                 "{clusters} clusters wanted, k-means must merge pieces, and which it merges "
                 "is arbitrary.").format(p=format_number(p, ","),
                                         clusters=result.clusters.n_clusters)
    return _("For clustering this is welcome: D^(−½) A D^(−½) has the eigenvalue 1 once "
             "per piece ({p} times), with an eigenvector that lives on that piece alone, "
             "so the leading components tell the pieces apart.").format(
        p=format_number(p, ","))


def differs_sentence(comparison: Comparison, result: Eigenproblem) -> str:
    """How the library's method differs by design, and by how much here."""
    values = join_list([format_number(r, ".4f") for r in comparison.correlations])
    low, high = result.degree_range or (0.0, 0.0)
    degrees_text = (_("here every point has degree {low}").format(low=format_number(low, "g"))
                    if low == high else
                    _("degrees here range from {low} to {high}").format(
                        low=format_number(low, "g"), high=format_number(high, "g")))
    if comparison.differs == "normalised":
        text = _("{library} is Laplacian eigenmaps as Belkin & Niyogi (2003) wrote them: it "
                 "solves L f = λ D f (it decomposes the normalised Laplacian "
                 "I − D^(−½) A D^(−½) and divides its eigenvectors by √degree), where kernel "
                 "PCA of L⁺ solves L f = λ f (Ham et al. 2004). The two coincide when every "
                 "point has the same degree; {degrees}.").format(
            library=comparison.library, degrees=degrees_text)
        if not comparison.offset:
            return join_sentences((text, _("Its |correlation| with ours, component by "
                                           "component: {values}.").format(values=values)))
        first, last = comparison.offset + 1, comparison.offset + len(comparison.correlations)
        return join_sentences((text, ngettext(
            "Its component {span} (the ones before it only say which piece a point is in) "
            "against ours, |correlation| component by component: {values}.",
            "Its components {span} (the ones before them only say which piece a point is "
            "in) against ours, |correlation| component by component: {values}.",
            last - first + 1).format(span=_span(first, last), values=values)))
    return _("SpectralClustering runs k-means on spectral_embedding's columns: the "
             "eigenvectors of the normalised Laplacian divided by √degree, the trivial one "
             "(constant) included. Kernel PCA of D^(−½) A D^(−½) removes the plain mean "
             "(J K J) instead of that eigenvector, D^(½)1: the two coincide when every point "
             "has the same degree; {degrees}. |correlation| of our components with the "
             "library's next ones: {values}.").format(degrees=degrees_text, values=values)


def left_out_sentence(result: Eigenproblem) -> str:
    """Why fewer components than asked for are shown, from the first one left out ('' when
    none is): its eigenvalue is negative, or 0 to within the page's floor."""
    if result.left_out is None:
        return ""
    kept, value = len(result.eigenvalues), result.left_out
    values = dict(kept=format_number(kept, ","), asked=format_number(result.asked, ","),
                  value=format_number(value, ".3g"), floor=format_number(result.floor, ".3g"),
                  share=format_number(ZERO_SHARE, "g"))
    if kept == 0 and result.lowest < -result.floor:
        return _("K̃ = J K J has no positive eigenvalue here: the largest is μ = {value}, the "
                 "smallest μ = {lowest}. K is not positive semi-definite for these points, no "
                 "component has an axis (√μ is not real), and kernel PCA finds no "
                 "direction.").format(lowest=format_number(result.lowest, ".3g"), **values)
    if kept == 0:
        text = _("Every eigenvalue of K̃ = J K J is 0 here to within {floor}, the rounding of "
                 "K's entries (the largest is μ = {value}): to this matrix every point looks "
                 "alike, and kernel PCA finds no direction.").format(**values)
        if result.method == "kpca":  # the sidebar's kernel saturates: its setting is why
            text = join_sentences((text, _("Move γ, or choose another kernel.")))
        return text
    if value < -result.floor:
        return ngettext(
            "Only {kept} of the {asked} components asked for has a positive eigenvalue: the "
            "next, μ = {value}, is negative. K is not positive semi-definite for these "
            "points, and a component with a negative eigenvalue has no axis (√μ is not "
            "real), so the rest are left out.",
            "Only {kept} of the {asked} components asked for have a positive eigenvalue: the "
            "next, μ = {value}, is negative. K is not positive semi-definite for these "
            "points, and a component with a negative eigenvalue has no axis (√μ is not "
            "real), so the rest are left out.", kept).format(**values)
    return ngettext(
        "Only {kept} of the {asked} components asked for carries variance: the next "
        "eigenvalue, μ = {value}, counts as 0, being at most {floor} (the rounding of K's "
        "entries, or {share} of the largest eigenvalue if more), so the rest are left out.",
        "Only {kept} of the {asked} components asked for carry variance: the next "
        "eigenvalue, μ = {value}, counts as 0, being at most {floor} (the rounding of K's "
        "entries, or {share} of the largest eigenvalue if more), so the rest are left out.",
        kept).format(**values)


def _span(first: int, last: int) -> str:
    """Components first to last: "3" or "3–5"."""
    return format_number(first, ",") if first == last else _("{first}–{last}").format(
        first=format_number(first, ","), last=format_number(last, ","))


def solver_sentence(result: Eigenproblem) -> str:
    """Why the library's eigenvectors were found by its dense solver, when they were."""
    if not any(comparison.dense for comparison in result.comparisons):
        return ""
    dense = _("The library's embeddings are therefore computed as its dense solver computes "
              "them: every eigenvector of the Laplacian, by scipy.linalg.eigh.")
    if result.graph is not None and result.graph.pieces.count > 1:
        return join_sentences((_(
            "L's zero eigenvalue is repeated {p} times here, once per piece, and ARPACK, "
            "scikit-learn's default eigensolver, cannot be relied on to find every "
            "eigenvector of a repeated eigenvalue (scikit-learn warns that the embedding of a "
            "graph in pieces may not work as expected).").format(
            p=format_number(result.graph.pieces.count, ",")), dense))
    return join_sentences((_("ARPACK, scikit-learn's default eigensolver, cannot return as "
                             "many eigenvectors as there are points ({n}).").format(
        n=format_number(result.n, ",")), dense))


def complete_graph_sentence(k: int, n: int) -> str:
    """Why spectral clustering stops at k = n − 1 (:func:`nothing_to_cluster`)."""
    return _("With k = {k} every point is a neighbour of every other ({n} points): the graph "
             "joins all pairs alike, D^(−½) A D^(−½) is (11ᵀ − I)/(n − 1), and K̃ = J K J is "
             "−J/(n − 1), the same negative eigenvalue in every direction. There is nothing "
             "to cluster on: choose k below {k}.").format(k=format_number(k, ","),
                                                          n=format_number(n, ","))


def clusters_sentence(clusters: Clusters) -> str:
    """The clusters found, against the library's, the classes and plain k-means."""
    text = _("Adjusted Rand index (1 = the same partition, about 0 = no better than chance) "
             "between our {clusters} clusters and scikit-learn's "
             "SpectralClustering: {agreement}.").format(
        clusters=clusters.n_clusters, agreement=format_number(clusters.agreement, ".3f"))
    if clusters.ours_truth is None:
        return text
    return join_sentences([text, _(
        "Against the classes: ours {ours}, the library's {library}, and k-means on the "
        "inputs themselves {raw}.").format(
            ours=format_number(clusters.ours_truth, ".3f"),
            library=format_number(clusters.library_truth, ".3f"),
            raw=format_number(clusters.raw_truth, ".3f"))])
