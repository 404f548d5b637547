r"""The Gram matrices that make classical MDS, Isomap, Laplacian eigenmaps and spectral
clustering kernel PCA.

Each of these methods builds an n × n matrix from the data and keeps its leading
eigenvectors: it is kernel PCA on that matrix (Ham, Lee, Mika & Schölkopf 2004, "A
kernel view of the dimensionality reduction of manifolds", ICML; Bengio et al. 2004,
Neural Computation 16(10)). Only the matrix changes:

* **classical MDS** (Torgerson 1952): K = −½ D², D the Euclidean distances; centred,
  −½ J D² J is the Gram matrix of the centred inputs, so classical MDS is linear PCA;
* **Isomap** (Tenenbaum, de Silva & Langford 2000): the same on the geodesic distances
  D_G, shortest paths through the k-nearest-neighbour graph;
* **Laplacian eigenmaps**: K = L⁺, the pseudo-inverse of the graph Laplacian L = D − A
  (Ham et al. 2004): its leading eigenvectors are the Laplacian's smallest non-trivial
  ones, L f = λ f, and L⁺ is already centred (L 1 = 0). Belkin & Niyogi (2003) solve
  L f = λ D f instead, each point weighed by its degree (scikit-learn's
  ``SpectralEmbedding``): the same when every degree is the same;
* **spectral clustering** (Ng, Jordan & Weiss 2002): K = D^{−½} A D^{−½}, the normalised
  affinity, then k-means on its leading eigenvectors.

Plain functions of arrays (no Streamlit): the lesson "One eigenproblem" draws them, the
classroom's questions compute verdicts with them, and the tests hold them to
scikit-learn's own estimators.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from scipy import linalg, sparse
from scipy.sparse.csgraph import connected_components, shortest_path
from scipy.stats import spearmanr
from sklearn.metrics import pairwise_distances
from sklearn.neighbors import kneighbors_graph

from kpca_core import squared_euclidean_distances
from words.i18n import N_


@dataclass(frozen=True)
class Method:
    """One method as kernel PCA on a matrix it builds.

    Attributes
    ----------
    code : str
        Its name in a link (``method=isomap``).
    title : str
    matrix : str
        The matrix in words.
    latex : str
        K as a formula.
    code_line : str
        The one line of Python that builds K with this module's functions (the rest of
        the recipe is the same for every method); ``{k}`` and ``{kernel}`` are filled in.
    graph : bool
        Whether K comes from the k-nearest-neighbour graph.
    """

    code: str
    title: str
    matrix: str
    latex: str
    code_line: str
    graph: bool


METHODS: dict[str, Method] = {m.code: m for m in (
    Method("kpca", N_("Kernel PCA"), N_("the kernel matrix of the sidebar's kernel"),
           r"K_{ij} = k(x_i, x_j)", "K = compute_kernel(X, {kernel})", False),
    Method("mds", N_("Classical MDS"),
           N_("−½ × the squared Euclidean distances ‖xᵢ − xⱼ‖²"), r"K = -\tfrac12\, D^{(2)}",
           "K = classical_mds_kernel(X)", False),
    Method("isomap", "Isomap", N_("−½ × the squared geodesic distances: the lengths of the "
           "shortest paths between points along the k-nearest-neighbour graph"),
           r"K = -\tfrac12\, D_G^{(2)}",
           "K = mds_kernel(geodesic_distances(X, neighbour_graph(X, k={k})))", True),
    Method("laplacian", N_("Laplacian eigenmaps"), N_("the pseudo-inverse of the graph "
           "Laplacian L = D − A, with A the k-nearest-neighbour graph and D its degrees"),
           r"K = L^{+},\quad L = D - A",
           "K = laplacian_pinv(neighbour_affinity(X, k={k}))", True),
    Method("spectral", N_("Spectral clustering"), N_("the normalised affinity of the "
           "k-nearest-neighbour graph A, D its degrees; k-means then runs on its leading "
           "components"),
           r"K = D^{-1/2} A\, D^{-1/2}",
           "K = normalised_affinity(neighbour_affinity(X, k={k}))", True),
)}


# --------------------------------------------------------------------------- the graph


def neighbour_graph(X: np.ndarray, k: int) -> sparse.csr_matrix:
    """The k-nearest-neighbour graph of the rows of X, edges weighted by their length.

    Each point is joined to its k nearest other points (the point itself is not its own
    neighbour, also when another point sits at the same place); an edge exists when
    either end counts the other among its k nearest, as in scikit-learn's Isomap
    (``kneighbors_graph`` then ``shortest_path(directed=False)``). Returned symmetric.

    Two copies of one point are joined by an edge of length 0, stored as an explicit zero
    (SciPy's graph routines count a stored zero as an edge, and scikit-learn's Isomap
    keeps it), so the graph is symmetrised from its edge lists: sparse arithmetic
    (``maximum``, ``+``) would drop those zeros and split the graph into more pieces.
    """
    directed = kneighbors_graph(np.asarray(X, dtype=np.float64), k, mode="distance",
                                include_self=False).tocoo()
    return _undirected(directed.row, directed.col, directed.data, len(X))


def _undirected(rows: np.ndarray, cols: np.ndarray, lengths: np.ndarray,
                n: int) -> sparse.csr_matrix:
    """The symmetric graph with an edge i–j for every listed i → j, stored zeros kept.

    Where both directions are listed with lengths that differ by rounding, the shorter
    is kept: the one Dijkstra takes (``shortest_path(directed=False)``)."""
    rows, cols = np.concatenate([rows, cols]), np.concatenate([cols, rows])
    lengths = np.concatenate([lengths, lengths])
    order = np.lexsort((lengths, cols, rows))  # each pair's shortest listing first
    rows, cols, lengths = rows[order], cols[order], lengths[order]
    first = np.ones(len(rows), dtype=bool)
    first[1:] = (rows[1:] != rows[:-1]) | (cols[1:] != cols[:-1])
    return sparse.csr_matrix((lengths[first], (rows[first], cols[first])), shape=(n, n))


def neighbour_affinity(X: np.ndarray, k: int) -> sparse.csr_matrix:
    """A = ½ (C + Cᵀ), C the 0/1 k-nearest-neighbour graph: 1 for a pair that are each
    other's neighbours, ½ for a pair where only one is the other's.

    Built as scikit-learn's ``SpectralEmbedding`` and ``SpectralClustering`` build theirs
    with ``affinity="nearest_neighbors"`` and ``n_neighbors = k + 1``: each point's k + 1
    nearest, itself included, the self-loop then dropped (the Laplacian ignores it), so
    that both decompose the same graph. A point with copies is tied with them at distance
    0, and the tie goes by order: it may count a copy in its own place, and then has k + 1
    neighbours besides itself (the graph of :func:`neighbour_graph`, Isomap's, gives it k).
    """
    C = kneighbors_graph(np.asarray(X, dtype=np.float64), k + 1, mode="connectivity",
                         include_self=True)
    A = (0.5 * (C + C.T)).tocsr()
    A.setdiag(0)
    A.eliminate_zeros()
    return A


@dataclass(frozen=True)
class Pieces:
    """The connected pieces of a graph.

    Attributes
    ----------
    labels : (n,) int
        Each point's piece, numbered by size (0 = the largest).
    sizes : (c,) int
        Points per piece, largest first.
    """

    labels: np.ndarray
    sizes: np.ndarray

    @property
    def count(self) -> int:
        return len(self.sizes)


def graph_pieces(graph: sparse.spmatrix) -> Pieces:
    """The connected components of an undirected graph, largest first."""
    count, labels = connected_components(graph, directed=False)
    sizes = np.bincount(labels, minlength=count)
    order = np.argsort(-sizes, kind="stable")
    rank = np.empty(count, dtype=int)
    rank[order] = np.arange(count)
    return Pieces(labels=rank[labels], sizes=sizes[order])


def join_pieces(X: np.ndarray, graph: sparse.spmatrix, pieces: Pieces) -> sparse.csr_matrix:
    """The graph with every two pieces joined by one edge between their closest points.

    What scikit-learn's Isomap does to a graph that falls apart, so that every pair of
    points has a path (``sklearn.utils.graph._fix_connected_components``, a private
    function, written out here): for each pair of pieces, the shortest straight line
    between them becomes an edge of that length. Where several pairs of points are
    equally close (points on a drawing's grid), the one it picks is the first in its
    order: pieces numbered by their first point (SciPy's ``connected_components``), the
    later piece's points as rows, distances by ``pairwise_distances`` of the two pieces.
    """
    members = [np.flatnonzero(pieces.labels == p) for p in range(pieces.count)]
    members.sort(key=lambda points: points[0])
    ends, lengths = [], []
    for i in range(pieces.count):
        for j in range(i):
            D = pairwise_distances(X[members[i]], X[members[j]])
            a, b = np.unravel_index(int(D.argmin()), D.shape)
            ends.append((members[i][a], members[j][b]))
            lengths.append(D[a, b])
    coo = sparse.coo_matrix(graph)
    ends = np.array(ends, dtype=np.int64).reshape(-1, 2)
    return _undirected(np.concatenate([coo.row, ends[:, 0]]),
                       np.concatenate([coo.col, ends[:, 1]]),
                       np.concatenate([coo.data, lengths]), graph.shape[0])


def geodesic_distances(X: np.ndarray, graph: sparse.spmatrix) -> np.ndarray:
    """Shortest-path lengths between all pairs of points along ``graph`` (Dijkstra):
    Isomap's estimate of the distances along the manifold. An n × n array; ∞ between
    points in different pieces."""
    return shortest_path(graph, method="D", directed=False)


# --------------------------------------------------------------------------- the matrices


def mds_kernel(distances: np.ndarray, *, squared: bool = False) -> np.ndarray:
    """K = −½ D² from a distance matrix D, in place (``distances`` is overwritten):
    centred, it is −½ J D² J, the Gram matrix classical MDS decomposes. ``squared``: the
    entries are already squared distances."""
    if not squared:
        np.square(distances, out=distances)
    distances *= -0.5
    return distances


def classical_mds_kernel(X: np.ndarray) -> np.ndarray:
    """−½ × the squared Euclidean distances between the rows of X (a new n × n array)."""
    return mds_kernel(squared_euclidean_distances(np.asarray(X, dtype=np.float64)),
                      squared=True)


def laplacian(affinity: sparse.spmatrix) -> np.ndarray:
    """L = D − A, D = diag(A1), as a dense array (the diagonal of A is ignored, as
    ``scipy.sparse.csgraph.laplacian`` does)."""
    A = sparse.csr_matrix(affinity, dtype=np.float64)
    A.setdiag(0)
    A.eliminate_zeros()
    L = -A.toarray()
    L[np.diag_indices_from(L)] = np.asarray(A.sum(axis=1)).ravel()
    return L


def laplacian_pinv(affinity: sparse.spmatrix) -> np.ndarray:
    """K = L⁺, the Moore–Penrose pseudo-inverse of the graph Laplacian (Ham et al. 2004).

    L = V Λ Vᵀ; L⁺ = V Λ⁺ Vᵀ with 1/λ for the non-zero λ and 0 for the zero ones (one
    per connected piece, 0 to within the rounding of L: below 10 · n · ε · λ_max).
    Computed as (V Λ^{+½})(V Λ^{+½})ᵀ, so two n × n arrays are held, not four.
    """
    L = laplacian(affinity)
    n = L.shape[0]
    values, V = linalg.eigh(L, overwrite_a=True, check_finite=False)
    del L
    floor = 10 * n * np.finfo(np.float64).eps * max(float(values.max()), 0.0)
    scale = np.zeros_like(values)
    positive = values > floor
    scale[positive] = 1.0 / np.sqrt(values[positive])
    V *= scale
    return V @ V.T


def normalised_affinity(affinity: sparse.spmatrix) -> np.ndarray:
    """K = D^{−½} A D^{−½}, D = diag(A1), as a dense array (diagonal of A ignored).

    Its leading eigenvector is D^{½}1 with eigenvalue 1 (one per connected piece); the
    next ones are the normalised Laplacian's smallest non-trivial eigenvectors, on which
    Ng, Jordan & Weiss (2002) run k-means. A point without neighbours has degree 0 and
    gets a zero row.
    """
    A = sparse.csr_matrix(affinity, dtype=np.float64)
    A.setdiag(0)
    A.eliminate_zeros()
    degree = np.asarray(A.sum(axis=1)).ravel()
    inverse_root = np.zeros_like(degree)
    inverse_root[degree > 0] = 1.0 / np.sqrt(degree[degree > 0])
    scaled = sparse.diags(inverse_root) @ A @ sparse.diags(inverse_root)
    return scaled.toarray()


def degrees(affinity: sparse.spmatrix) -> np.ndarray:
    """Each point's degree in the affinity graph (its row sum, the diagonal ignored)."""
    A = sparse.csr_matrix(affinity, dtype=np.float64)
    return np.asarray(A.sum(axis=1)).ravel() - A.diagonal()


# --------------------------------------------------------------------------- measures


def rank_correlation(a: np.ndarray, b: np.ndarray) -> float:
    """|Spearman's ρ| between two vectors (ranks, ties averaged): 1 when one is a
    monotone function of the other, whatever its sign or shape."""
    a, b = np.asarray(a, dtype=float), np.asarray(b, dtype=float)
    if np.ptp(a) == 0 or np.ptp(b) == 0:
        return 0.0
    return float(abs(spearmanr(a, b).statistic))
