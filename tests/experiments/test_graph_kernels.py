"""The matrices that make MDS, Isomap, Laplacian eigenmaps and spectral clustering kernel
PCA, each against scikit-learn's or SciPy's own construction, or a closed form."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy import sparse
from scipy.sparse.csgraph import connected_components
from scipy.sparse.csgraph import laplacian as scipy_laplacian
from scipy.stats import spearmanr
from sklearn.manifold import Isomap
from sklearn.neighbors import kneighbors_graph
from sklearn.utils.graph import _fix_connected_components

import datasets
from datasets import drawn
from experiments.graph_kernels import (
    METHODS,
    classical_mds_kernel,
    degrees,
    geodesic_distances,
    graph_pieces,
    join_pieces,
    laplacian,
    laplacian_pinv,
    mds_kernel,
    neighbour_affinity,
    neighbour_graph,
    normalised_affinity,
    rank_correlation,
)


def centred(K: np.ndarray) -> np.ndarray:
    n = len(K)
    J = np.eye(n) - 1.0 / n
    return J @ K @ J


@pytest.fixture(scope="module", params=["swiss_roll", "circles"])
def points(request):
    return datasets.load(request.param, n=300).X


def test_classical_mds_kernel_centred_is_the_gram_matrix_of_the_centred_inputs(points):
    # −½ J D² J = (X − x̄)(X − x̄)ᵀ: classical MDS is linear PCA.
    Xc = points - points.mean(axis=0)
    np.testing.assert_allclose(centred(classical_mds_kernel(points)), Xc @ Xc.T,
                               atol=1e-9 * np.abs(Xc @ Xc.T).max())


@pytest.mark.parametrize("k", [3, 6, 15])
def test_geodesic_distances_are_scikit_learns_isomap_distances(points, k):
    # Joined as Isomap joins a graph in pieces (the circles at small k).
    graph = neighbour_graph(points, k)
    pieces = graph_pieces(graph)
    if pieces.count > 1:
        graph = join_pieces(points, graph, pieces)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = Isomap(n_neighbors=k, n_components=2).fit(points).dist_matrix_
    np.testing.assert_allclose(geodesic_distances(points, graph), reference, rtol=1e-12,
                               atol=1e-12)


def with_copies(X: np.ndarray) -> np.ndarray:
    """X with its first ten points repeated: edges of length 0 between the copies."""
    return np.vstack([X, X[:10], X[:3]])


def edge_set(graph) -> set[tuple[int, int]]:
    """The edges a graph stores, both directions, stored zeros included (SciPy's csgraph
    counts a stored zero as an edge of length 0)."""
    coo = graph.tocoo()
    return set(zip(coo.row.tolist(), coo.col.tolist(), strict=True)) | set(
        zip(coo.col.tolist(), coo.row.tolist(), strict=True))


def graph_points(name: str, n: int | None, copies: bool) -> np.ndarray:
    """A data set's points; "drawn moons" is the Draw page's preset, whose points sit on a
    grid (many pairs of pieces equally far apart)."""
    if name == "drawn moons":
        X = drawn.preset("moons", n, seed=1)[0]
    else:
        X = datasets.load(name, **({} if n is None else {"n": n})).X
    return with_copies(X) if copies else X


GRAPHS = [("iris", None, k) for k in (1, 2, 3, 6)] + [
    ("circles", 120, k) for k in (1, 3)] + [("swiss_roll", 200, k) for k in (2, 6)] + [
    ("drawn moons", 150, 1), ("drawn moons", 80, 2)]


@pytest.mark.sweep
@pytest.mark.parametrize(("name", "n", "k"), GRAPHS)
@pytest.mark.parametrize("copies", [False, True])
def test_the_graph_and_its_geodesics_are_scikit_learns_isomaps(name, n, k, copies):
    # Iris has two identical flowers; with_copies adds more: the edge between two copies
    # has length 0, and scikit-learn's Isomap keeps it (a graph in one piece fewer). On a
    # grid, pieces are joined by the pair of points scikit-learn picks among equals.
    X = graph_points(name, n, copies)
    theirs = kneighbors_graph(X, k, mode="distance")
    ours = neighbour_graph(X, k)
    assert edge_set(ours) == edge_set(theirs)
    assert graph_pieces(ours).count == connected_components(theirs)[0]
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = Isomap(n_neighbors=k, n_components=2).fit(X).dist_matrix_
    pieces = graph_pieces(ours)
    joined = join_pieces(X, ours, pieces) if pieces.count > 1 else ours
    np.testing.assert_allclose(geodesic_distances(X, joined), reference, rtol=1e-12,
                               atol=1e-12)


def test_joining_pieces_is_what_scikit_learns_private_fix_does():
    X = datasets.load("circles").X
    graph = neighbour_graph(X, 3)
    pieces = graph_pieces(graph)
    assert pieces.count > 2  # several pieces: every pair gets its edge
    count, labels = connected_components(graph, directed=False)
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        theirs = _fix_connected_components(X, graph.tolil(), count, labels,
                                           mode="distance").toarray()
    ours = join_pieces(X, graph, pieces).toarray()
    np.testing.assert_allclose(ours, theirs, rtol=1e-12)
    assert graph_pieces(sparse.csr_matrix(ours)).count == 1


def test_the_graph_joins_each_point_to_its_k_nearest_others_and_is_symmetric():
    X = datasets.load("moons", n=120).X
    k = 5
    graph = neighbour_graph(X, k)
    assert (graph != graph.T).nnz == 0
    D = np.linalg.norm(X[:, None] - X[None], axis=-1)
    np.fill_diagonal(D, np.inf)
    nearest = np.argsort(D, axis=1)[:, :k]
    expected = np.zeros_like(D, dtype=bool)
    expected[np.repeat(np.arange(len(X)), k), nearest.ravel()] = True
    expected |= expected.T
    np.testing.assert_array_equal(graph.toarray() > 0, expected)
    np.testing.assert_allclose(graph.toarray()[expected], D[expected])


def test_the_affinity_is_half_for_a_one_way_neighbour_and_one_for_a_mutual_one():
    X = np.array([[0.0], [1.0], [1.5], [10.0]])
    A = neighbour_affinity(X, 1).toarray()
    # 0 → 1, 1 → 2, 2 → 1, 3 → 2: 1 and 2 are mutual neighbours, the others one way.
    np.testing.assert_array_equal(A, [[0, 0.5, 0, 0], [0.5, 0, 1, 0], [0, 1, 0, 0.5],
                                      [0, 0, 0.5, 0]])
    np.testing.assert_array_equal(degrees(A), [0.5, 1.5, 1.5, 0.5])


def test_pieces_are_numbered_largest_first():
    graph = sparse.csr_matrix(np.array([[0, 1, 0, 0, 0], [1, 0, 0, 0, 0], [0, 0, 0, 1, 1],
                                        [0, 0, 1, 0, 0], [0, 0, 1, 0, 0]], dtype=float))
    pieces = graph_pieces(graph)
    assert pieces.sizes.tolist() == [3, 2] and pieces.count == 2
    assert pieces.labels.tolist() == [1, 1, 0, 0, 0]


def test_the_laplacian_is_scipys_and_its_pseudo_inverse_numpys(points):
    A = neighbour_affinity(points, 4)
    L = laplacian(A)
    np.testing.assert_allclose(L, scipy_laplacian(A.toarray()), atol=1e-14)
    np.testing.assert_allclose(laplacian_pinv(A), np.linalg.pinv(L, hermitian=True),
                               atol=1e-9 * np.abs(np.linalg.pinv(L)).max())


def test_a_pseudo_inverse_is_centred_already_also_for_a_graph_in_pieces():
    X = datasets.load("circles", n=200).X
    A = neighbour_affinity(X, 4)
    assert graph_pieces(A).count > 1
    K = laplacian_pinv(A)
    np.testing.assert_allclose(K.sum(axis=1), 0.0, atol=1e-10 * np.abs(K).max() * len(K))
    np.testing.assert_allclose(centred(K), K, atol=1e-10 * np.abs(K).max())


def test_normalised_affinity_is_one_minus_scipys_normalised_laplacian(points):
    A = neighbour_affinity(points, 6)
    S = normalised_affinity(A)
    np.testing.assert_allclose(S, np.eye(len(S)) - scipy_laplacian(A.toarray(), normed=True),
                               atol=1e-14)
    # Its leading eigenvector is D^½ 1 with the eigenvalue 1.
    root = np.sqrt(degrees(A))
    np.testing.assert_allclose(S @ root, root, atol=1e-12)


def test_the_normalised_affinity_leaves_a_point_without_neighbours_at_zero():
    A = sparse.csr_matrix(np.array([[0, 1, 0], [1, 0, 0], [0, 0, 0]], dtype=float))
    np.testing.assert_array_equal(normalised_affinity(A), [[0, 1, 0], [1, 0, 0], [0, 0, 0]])


def test_mds_kernel_works_in_place_on_distances():
    D = np.array([[0.0, 3.0], [3.0, 0.0]])
    K = mds_kernel(D)
    assert K is D and K.tolist() == [[0.0, -4.5], [-4.5, 0.0]]


def test_rank_correlation_is_spearmans_and_zero_for_a_constant():
    rng = np.random.default_rng(0)
    a, b = rng.normal(size=50), rng.normal(size=50)
    assert rank_correlation(a, -b) == pytest.approx(abs(spearmanr(a, b).statistic))
    assert rank_correlation(a, np.exp(a)) == pytest.approx(1.0)
    assert rank_correlation(a, np.ones(50)) == 0.0


def test_every_method_names_its_matrix_and_its_one_line():
    assert list(METHODS) == ["kpca", "mds", "isomap", "laplacian", "spectral"]
    for method in METHODS.values():
        assert method.title and method.latex and method.code_line.startswith("K = ")
        assert ("{k}" in method.code_line) == method.graph


@pytest.mark.parametrize("copies", [False, True])
@pytest.mark.parametrize("k", [1, 2, 6])
def test_the_graph_affinity_is_scikit_learns_spectral_one_with_the_self_loop_dropped(k,
                                                                                    copies):
    # SpectralEmbedding counts each point among its n_neighbors: k + 1 there is k here.
    # A point with copies is tied with them at distance 0 and may not count itself: it
    # then has k + 1 others; the affinity is still the library's.
    X = datasets.load("moons", n=150).X
    X = with_copies(X) if copies else X
    C = kneighbors_graph(X, k + 1, include_self=True)
    theirs = (0.5 * (C + C.T)).toarray()
    np.fill_diagonal(theirs, 0)
    np.testing.assert_array_equal(neighbour_affinity(X, k).toarray(), theirs)
