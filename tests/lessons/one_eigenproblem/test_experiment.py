"""One eigenproblem: kernel PCA of each method's K is scikit-learn's own method (computed
here, in the test), on the swiss roll, the S-curve, the circles and the moons; the graph's
numbers and sentences against independent counts."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components
from scipy.stats import spearmanr
from sklearn.cluster import KMeans, SpectralClustering
from sklearn.datasets import make_blobs
from sklearn.decomposition import PCA
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.manifold import ClassicalMDS, Isomap, SpectralEmbedding, spectral_embedding
from sklearn.metrics import adjusted_rand_score
from sklearn.metrics.pairwise import laplacian_kernel
from sklearn.neighbors import kneighbors_graph

import datasets
from datasets import drawn
from experiments.graph_kernels import (
    geodesic_distances,
    mds_kernel,
    neighbour_affinity,
    neighbour_graph,
    normalised_affinity,
)
from experiments.kpca_steps import rounding_floor
from kpca_core import compute_kernel
from lessons.one_eigenproblem.experiment import (
    DEGENERATE,
    SAME,
    SHORT_CIRCUIT,
    complete_graph_sentence,
    component_agreement,
    dense_spectral_embedding,
    differs_sentence,
    displays,
    eigenproblem,
    graph_sentence,
    left_out_sentence,
    matched_labels,
    nothing_to_cluster,
    pieces_sentence,
    sheet_sentence,
    solver_sentence,
)
from words.i18n import format_number

ROLLED = ("swiss_roll", "s_curve")


def run(name: str, method: str, k: int = 6, n_components: int = 3, **kernel):
    data = datasets.load(name)
    result = eigenproblem(data.X, data.y, method=method, kernel=kernel.pop("kernel", "rbf"),
                          kernel_params=kernel, k=k, n_components=n_components,
                          unrolled=data.unrolled)
    return data, result


def abs_correlations(A: np.ndarray, B: np.ndarray) -> np.ndarray:
    return np.array([abs(np.corrcoef(a, b)[0, 1]) for a, b in zip(A.T, B.T, strict=True)])


def quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit()


@pytest.mark.parametrize("name", [*ROLLED, "circles", "moons"])
@pytest.mark.parametrize("k", [4, 6, 30])
def test_isomap_is_kernel_pca_of_minus_half_the_squared_geodesic_distances(name, k):
    data, result = run(name, "isomap", k=k)
    theirs = quiet(lambda: Isomap(n_neighbors=k, n_components=3).fit_transform(data.X))
    assert abs_correlations(result.projection, theirs).min() >= SAME
    assert result.comparisons[0].agrees and result.comparisons[0].same


@pytest.mark.parametrize("name", [*ROLLED, "circles", "moons", "iris"])
def test_classical_mds_is_kernel_pca_of_minus_half_the_squared_distances_and_linear_pca(name):
    data, result = run(name, "mds")
    c = result.projection.shape[1]
    assert c == min(3, data.X.shape[1])  # points in the plane: two components, not three
    pca = PCA(n_components=c).fit_transform(data.X)
    assert abs_correlations(result.projection, pca).min() >= SAME
    theirs = ClassicalMDS(n_components=c).fit_transform(data.X)
    assert abs_correlations(result.projection, theirs).min() >= SAME
    library = result.comparisons[0]
    assert library.library == f"sklearn.manifold.ClassicalMDS(n_components={c})"
    np.testing.assert_allclose(library.correlations, abs_correlations(result.projection,
                                                                      theirs), atol=1e-9)
    assert all(comparison.agrees for comparison in result.comparisons)


@pytest.mark.parametrize("name", ["swiss_roll", "circles"])
@pytest.mark.parametrize("kernel", [{"kernel": "rbf", "gamma": 5.0},
                                    {"kernel": "poly", "gamma": 1.0, "degree": 2, "coef0": 1.0},
                                    {"kernel": "laplacian", "gamma": 0.5}])
def test_kernel_pca_of_the_kernel_matrix_is_scikit_learns(name, kernel):
    data, result = run(name, "kpca", **dict(kernel))
    if kernel["kernel"] == "laplacian":  # not a kernel name scikit-learn's KernelPCA takes
        theirs = SklearnKernelPCA(3, kernel="precomputed").fit_transform(
            laplacian_kernel(data.X, gamma=0.5))
    else:
        theirs = SklearnKernelPCA(3, **kernel).fit_transform(data.X)
    assert abs_correlations(result.projection, theirs).min() >= SAME


@pytest.mark.parametrize("name", [*ROLLED, "moons"])
@pytest.mark.parametrize("k", [4, 6, 30])
def test_laplacian_eigenmaps_is_kernel_pca_of_the_laplacians_pseudo_inverse(name, k):
    data, result = run(name, "laplacian", k=k)
    C = kneighbors_graph(data.X, k + 1, include_self=True)
    theirs = quiet(lambda: spectral_embedding(0.5 * (C + C.T), n_components=3,
                                              norm_laplacian=False, random_state=0))
    assert abs_correlations(result.projection, theirs).min() >= SAME
    exact = result.comparisons[1]
    assert exact.same and exact.agrees and exact.offset == 0
    # SpectralEmbedding normalises: close on these near-regular graphs, not the same.
    normalised = quiet(lambda: SpectralEmbedding(3, affinity="nearest_neighbors",
                                                 n_neighbors=k + 1,
                                                 random_state=0).fit_transform(data.X))
    np.testing.assert_allclose(result.comparisons[0].correlations,
                               abs_correlations(result.projection, normalised), atol=1e-9)
    assert not result.comparisons[0].same


def test_laplacian_eigenmaps_on_a_graph_in_pieces_skips_the_librarys_piece_indicators():
    # The circles' 6-NN graph: one piece per ring. L has two zero eigenvalues; the library
    # returns the second (constant on each ring) first, L⁺ has no axis for it.
    data, result = run("circles", "laplacian", k=6)
    assert result.graph.pieces.count == 2
    C = kneighbors_graph(data.X, 7, include_self=True)
    theirs = quiet(lambda: spectral_embedding(0.5 * (C + C.T), n_components=4,
                                              norm_laplacian=False, random_state=0))
    rings = data.y
    first = theirs[:, 0]
    assert np.ptp(first[rings == 0]) < 1e-8 and np.ptp(first[rings == 1]) < 1e-8
    assert abs_correlations(result.projection, theirs[:, 1:]).min() >= SAME
    assert result.comparisons[1].offset == 1 and result.comparisons[1].agrees
    assert "2 zero eigenvalues" in pieces_sentence(result)


def in_pieces(name: str):
    """Points whose k-nearest-neighbour graph falls apart at a small k: a data set, or two
    Gaussian blobs far apart (no labels needed)."""
    if name == "two blobs":
        X, y = make_blobs(200, centers=[[-5.0, 0.0], [5.0, 0.0]], random_state=0)
        return X, y, None
    data = datasets.load(name)
    return data.X, data.y, data.unrolled


def dense_library(fit, n: int, wanted: int):
    """scikit-learn's own spectral embedding by its dense solver: with eigen_solver="lobpcg"
    it takes scipy.linalg.eigh when the graph has fewer than 5 × (n_components + 1) + 1
    nodes, so ask for enough components (the first ``wanted`` are kept)."""
    return quiet(lambda: fit(max(wanted, n // 5)))[:, :wanted]


@pytest.mark.parametrize(("name", "k"), [("circles", 6), ("circles", 15), ("two blobs", 5),
                                         ("swiss_roll", 3)])
def test_laplacian_eigenmaps_in_pieces_meets_spectral_embedding_past_its_piece_indicators(
        name, k):
    # SpectralEmbedding returns p − 1 vectors constant on each piece before its others:
    # compared from there, the normalisation is what is left of the difference.
    X, y, unrolled = in_pieces(name)
    result = eigenproblem(X, y, method="laplacian", kernel="rbf", kernel_params={}, k=k,
                          n_components=3, unrolled=unrolled)
    p = result.graph.pieces.count
    assert p > 1
    theirs = dense_library(lambda m: SpectralEmbedding(
        m, affinity="nearest_neighbors", n_neighbors=k + 1, eigen_solver="lobpcg",
        random_state=0).fit_transform(X), len(X), p + 2)
    rings = result.graph.pieces.labels
    for column in theirs[:, :p - 1].T:  # constant on each piece
        assert all(np.ptp(column[rings == piece]) < 1e-8 for piece in range(p))
    normalised = result.comparisons[0]
    assert normalised.offset == p - 1 and not normalised.same
    expected = abs_correlations(result.projection, theirs[:, p - 1:])
    np.testing.assert_allclose(normalised.correlations, expected, atol=1e-6)
    text = differs_sentence(normalised, result)
    assert f"Its components {p}–{p + 2} (the ones before them only say which piece" in text
    assert ", ".join(f"{r:.4f}" for r in expected) in text
    assert "Belkin & Niyogi" in text and "L f = λ D f" in text


@pytest.mark.parametrize(("name", "k"), [("circles", 1), ("four_classes", 3)])
def test_laplacian_eigenmaps_in_many_pieces_meets_the_librarys_dense_solver(name, k):
    # L's zero eigenvalue repeated 116 and 13 times: scikit-learn's ARPACK returned other
    # eigenvectors in place of some of its, and the page's check failed.
    data, result = run(name, "laplacian", k=k)
    p = result.graph.pieces.count
    C = kneighbors_graph(data.X, k + 1, include_self=True)
    theirs = dense_library(lambda m: spectral_embedding(
        0.5 * (C + C.T), n_components=m, norm_laplacian=False, eigen_solver="lobpcg",
        random_state=0), len(data.X), p + 2)[:, p - 1:]
    assert abs_correlations(result.projection, theirs).min() >= SAME
    exact = result.comparisons[1]
    assert exact.dense and exact.agrees and exact.offset == p - 1
    assert f"L's zero eigenvalue is repeated {p} times here" in solver_sentence(result)


@pytest.mark.parametrize("norm_laplacian", [True, False])
@pytest.mark.parametrize("drop_first", [True, False])
def test_the_dense_spectral_embedding_is_scikit_learns_dense_solver(norm_laplacian,
                                                                   drop_first):
    X = datasets.load("circles", n=60).X
    C = kneighbors_graph(X, 3, include_self=True)
    A = 0.5 * (C + C.T)
    assert connected_components(A)[0] > 1  # the repeated zero eigenvalue included
    m = 12  # 60 nodes < 5 × (12 + 1) + 1: scikit-learn's dense branch
    theirs = quiet(lambda: spectral_embedding(A, n_components=m,
                                              norm_laplacian=norm_laplacian,
                                              drop_first=drop_first, eigen_solver="lobpcg",
                                              random_state=0))
    ours = dense_spectral_embedding(A, m, norm_laplacian=norm_laplacian,
                                    drop_first=drop_first)
    signs = np.sign(np.sum(ours * theirs, axis=0))
    np.testing.assert_allclose(ours * signs, theirs, atol=1e-10)


def test_a_small_graph_in_one_piece_is_solved_densely_too():
    # Four components of five points: ARPACK cannot return all five eigenvectors.
    X = datasets.load("moons", n=20).X[:5]
    result = eigenproblem(X, None, method="laplacian", kernel="rbf", kernel_params={}, k=4,
                          n_components=4)
    assert result.graph.pieces.count == 1
    assert all(comparison.dense for comparison in result.comparisons)
    assert result.comparisons[1].agrees
    assert "as many eigenvectors as there are points (5)" in solver_sentence(result)


COPIED = {"two places": np.repeat([[0.0, 0.0], [1.0, 1.0]], 4, axis=0),
          "drawn moons, copied": np.vstack([drawn.preset("moons", 40, seed=0)[0]] * 2)}


@pytest.mark.parametrize("name", list(COPIED))
@pytest.mark.parametrize("k", [1, 2, 3])
def test_laplacian_eigenmaps_on_copied_points_decomposes_the_librarys_graph(name, k):
    # Copies are tied at distance 0: scikit-learn's graph (k + 1 nearest, itself included)
    # may give a point k + 1 others; K is built on that same graph.
    X = COPIED[name]
    result = eigenproblem(X, None, method="laplacian", kernel="rbf", kernel_params={}, k=k,
                          n_components=2)
    C = kneighbors_graph(X, k + 1, include_self=True)
    theirs = (0.5 * (C + C.T)).toarray()
    np.fill_diagonal(theirs, 0)
    assert len(result.graph.edges) == np.count_nonzero(np.triu(theirs))
    # Every component whose axes are determined (copies make eigenvalues repeat) agrees.
    exact = result.comparisons[1].correlations
    assert np.all(np.isnan(exact) | (exact >= SAME))


def test_isomap_on_the_circles_joins_the_rings_as_scikit_learn_does():
    data, result = run("circles", "isomap", k=6)
    assert result.graph.pieces.count == 2 and len(result.graph.joins) == 1
    theirs = quiet(lambda: Isomap(n_neighbors=6, n_components=3).fit_transform(data.X))
    assert abs_correlations(result.projection, theirs).min() >= SAME
    # Component 1 mostly says which ring a point is on: its between-ring share of variance.
    z = result.projection[:, 0]
    between = sum(np.sum(data.y == c) * (z[data.y == c].mean() - z.mean()) ** 2 for c in (0, 1))
    assert result.piece_share == pytest.approx(between / np.sum((z - z.mean()) ** 2))
    assert f"{100 * result.piece_share:.1f} %" in pieces_sentence(result)


@pytest.mark.parametrize("k", [1, 2, 3])
def test_isomap_on_iris_keeps_the_edge_between_its_two_identical_flowers(k):
    # Iris has two identical rows: joined by an edge of length 0, as in scikit-learn's graph.
    data, result = run("iris", "isomap", k=k)
    count, _ = connected_components(kneighbors_graph(data.X, k, mode="distance"))
    pieces = result.graph.pieces.count
    assert pieces == count and len(result.graph.joins) == pieces * (pieces - 1) // 2
    theirs = quiet(lambda: Isomap(n_neighbors=k, n_components=3).fit_transform(data.X))
    assert abs_correlations(result.projection, theirs).min() >= SAME
    assert result.comparisons[0].agrees


@pytest.mark.parametrize(("name", "k"), [("circles", 6), ("circles", 30), ("moons", 10)])
def test_spectral_clustering_is_k_means_on_kernel_pca_of_the_normalised_affinity(name, k):
    data, result = run(name, "spectral", k=k)
    clusters = result.clusters
    theirs = quiet(lambda: SpectralClustering(2, affinity="nearest_neighbors",
                                              n_neighbors=k + 1,
                                              random_state=0).fit_predict(data.X))
    ours = KMeans(2, n_init=10, random_state=0).fit_predict(result.projection)
    assert clusters.agreement == pytest.approx(adjusted_rand_score(ours, theirs))
    assert clusters.ours_truth == pytest.approx(adjusted_rand_score(data.y, ours))
    assert result.projection.shape[1] == 1  # two clusters: one component past the trivial
    assert not result.comparisons[0].same  # the library weighs points by degree (the intro)
    if name == "circles":  # the rings, both ways; k-means on the plane cannot
        assert clusters.ours_truth == clusters.library_truth == 1.0
        assert clusters.raw_truth < 0.1
    else:
        assert clusters.agreement > 0.9


def test_the_sheet_short_circuits_and_rank_correlation_follow_k():
    for k, flagged, follows in ((6, 0, True), (40, None, False)):
        data, result = run("swiss_roll", "isomap", k=k)
        edges = result.graph.edges
        i, j = edges.T
        along = np.linalg.norm(data.unrolled[i] - data.unrolled[j], axis=1)
        through = np.linalg.norm(data.X[i] - data.X[j], axis=1)
        expected = int(np.sum(along > SHORT_CIRCUIT * through))
        assert result.graph.n_flagged == expected
        if flagged is not None:
            assert expected == flagged
        rho = abs(spearmanr(result.projection[:, 0], data.unrolled[:, 0]).statistic)
        assert result.sheet_correlation == pytest.approx(rho)
        assert (rho >= 0.95) == follows
        assert ("does not follow" in sheet_sentence(rho)) == (not follows)


def test_the_graph_sentence_counts_edges_pieces_and_flags_independently():
    data, result = run("swiss_roll", "isomap", k=3)
    C = kneighbors_graph(data.X, 3, include_self=False)
    undirected = ((C + C.T) > 0)
    edges = undirected.nnz // 2
    count, labels = connected_components(undirected, directed=False)
    sizes = sorted(np.bincount(labels), reverse=True)
    text = graph_sentence(result)
    assert f"has {edges:,} edges" in text
    assert f"falls apart into {count} pieces" in text and count > 1
    assert ", ".join(f"{s:,}" for s in sizes[:-1]) + f" and {sizes[-1]:,} points" in text
    data, result = run("circles", "isomap", k=40)
    between = int(np.sum(data.y[result.graph.edges[:, 0]] != data.y[result.graph.edges[:, 1]]))
    assert between > 0 and f"{between:,} edges" in graph_sentence(result)
    assert "join points of different classes" in graph_sentence(result)


def test_agreement_compares_a_repeated_eigenvalue_as_a_plane_and_leaves_an_open_one_out():
    rng = np.random.default_rng(0)
    Q, _ = np.linalg.qr(rng.normal(size=(50, 3)))
    Q -= Q.mean(axis=0)
    rotation = np.array([[np.cos(1), -np.sin(1)], [np.sin(1), np.cos(1)]])
    other = Q.copy()
    other[:, :2] = Q[:, :2] @ rotation  # another pair of axes of the same plane
    equal = np.array([2.0, 2.0, 1.0])
    np.testing.assert_allclose(component_agreement(Q, other, equal), 1.0, atol=1e-12)
    distinct = np.array([3.0, 2.0, 1.0])
    assert component_agreement(Q, other, distinct)[:2].max() < 0.9
    # μ₃ equal to the next, uncompared one: component 3's axis is not determined.
    flags = component_agreement(Q, other, distinct, next_eigenvalue=1.0 + DEGENERATE)
    assert np.isnan(flags[2]) and not np.isnan(flags[:2]).any()


def test_the_centred_heatmap_is_the_block_average_of_j_k_j():
    rng = np.random.default_rng(1)
    X = rng.normal(size=(450, 3))
    K = X @ X.T
    order = rng.permutation(450)
    shown, centred, block = displays(K, order, max_side=200)
    J = np.eye(450) - 1 / 450
    Kc = (J @ K @ J)[np.ix_(order, order)]
    assert block == 3
    expected = Kc.reshape(150, 3, 150, 3).mean(axis=(1, 3))
    np.testing.assert_allclose(centred, expected, atol=1e-10)
    np.testing.assert_allclose(shown, K[np.ix_(order, order)].reshape(150, 3, 150, 3)
                               .mean(axis=(1, 3)), atol=1e-10)


def test_matched_labels_keep_colours_across_charts():
    reference = np.array([0, 0, 1, 1, 2, 2])
    labels = np.array([2, 2, 0, 0, 1, 1])
    np.testing.assert_array_equal(matched_labels(labels, reference), reference)


@pytest.mark.parametrize("n", [5, 20])
def test_spectral_clustering_on_the_complete_graph_has_nothing_to_cluster(n):
    # k = n − 1: every point is every other's neighbour, and K̃ = −J/(n − 1), as said.
    X = datasets.load("moons", n=20).X[:n]
    K = normalised_affinity(neighbour_affinity(X, n - 1))
    J = np.eye(n) - 1.0 / n
    np.testing.assert_allclose(J @ K @ J, -J / (n - 1), atol=1e-14)
    assert nothing_to_cluster("spectral", n - 1, n)
    assert not nothing_to_cluster("spectral", n - 2, n)
    assert not nothing_to_cluster("laplacian", n - 1, n)
    assert f"With k = {n - 1} every point is a neighbour of every other" in \
        complete_graph_sentence(n - 1, n)
    with pytest.raises(ValueError, match=f"k = {n - 1} for n = {n}"):
        eigenproblem(X, None, method="spectral", kernel="rbf", kernel_params={}, k=n - 1,
                     n_components=2)
    # One neighbour fewer, it clusters.
    result = eigenproblem(X, None, method="spectral", kernel="rbf", kernel_params={},
                          k=n - 2, n_components=2)
    assert len(result.clusters.ours) == n


def centred_spectrum(K: np.ndarray) -> np.ndarray:
    """The eigenvalues of J K J, largest first (NumPy's, independent of kpca_core)."""
    n = len(K)
    J = np.eye(n) - 1.0 / n
    return np.linalg.eigvalsh(J @ K @ J)[::-1]


@pytest.mark.parametrize(("method", "k"), [("isomap", 2), ("isomap", 3), ("spectral", 2)])
def test_components_with_a_negative_eigenvalue_are_left_out_and_said(method, k):
    # Five points, four components (and five classes: four for spectral clustering): K is
    # not positive semi-definite here, and kpca_core refused the whole page in its own
    # words ("pass negative_eigenvalues=...") for the eigenvalue past the ones compared.
    X = datasets.load("moons", n=20).X[:5]
    result = eigenproblem(X, np.arange(5), method=method, kernel="rbf", kernel_params={},
                          k=k, n_components=4)
    if method == "isomap":
        K = mds_kernel(geodesic_distances(X, neighbour_graph(X, k)))
    else:
        K = normalised_affinity(neighbour_affinity(X, k))
    spectrum = centred_spectrum(K)
    floor = rounding_floor(5, np.abs(K).max())
    positive = int(np.sum(spectrum[:4] > floor))
    assert len(result.eigenvalues) == positive
    np.testing.assert_allclose(result.eigenvalues, spectrum[:positive], atol=1e-10)
    assert all(comparison.projection.shape[1] == positive for comparison in result.comparisons)
    text = left_out_sentence(result)
    if positive < 4 and spectrum[positive] < -floor:
        assert f"Only {positive} of the 4 components asked for" in text
        assert result.left_out == pytest.approx(spectrum[positive], abs=1e-10)
        assert f"μ = {format_number(result.left_out, '.3g')}, is negative" in text
    elif positive < 4:
        assert f"Only {positive} of the 4 components asked for" in text and "negative" not in \
            text
    else:
        assert text == ""


def test_classical_mds_of_points_in_the_plane_says_why_it_has_two_components():
    data, result = run("moons", "mds", n_components=3)
    assert len(result.eigenvalues) == 2 and result.left_out is not None
    text = left_out_sentence(result)
    assert "Only 2 of the 3 components asked for carry variance" in text
    assert f"μ = {format_number(result.left_out, '.3g')}" in text


@pytest.mark.parametrize("gamma", [1.0, 10000.0])
def test_a_saturated_kernel_has_no_direction_and_says_so(gamma):
    # Iris' raw measurements in tanh(γ xᵀy + 1): every entry of K is 1 to rounding.
    data = datasets.load("iris")
    K = compute_kernel(data.X, kernel="sigmoid", gamma=gamma, coef0=1.0)
    assert centred_spectrum(K)[0] <= rounding_floor(len(K), np.abs(K).max())
    result = eigenproblem(data.X, data.y, method="kpca", kernel="sigmoid",
                          kernel_params={"gamma": gamma, "coef0": 1.0}, k=6, n_components=3)
    assert len(result.eigenvalues) == 0 and result.comparisons == ()
    assert "kernel PCA finds no direction" in left_out_sentence(result)


def test_a_centred_k_without_a_positive_eigenvalue_says_it_is_not_positive_semi_definite():
    # Six copies of one point: their spectral graph (ties broken by order) leaves K̃ with
    # no positive eigenvalue, and negative ones.
    X = np.ones((6, 2))
    result = eigenproblem(X, None, method="spectral", kernel="rbf", kernel_params={}, k=2,
                          n_components=2)
    spectrum = centred_spectrum(normalised_affinity(neighbour_affinity(X, 2)))
    assert spectrum[0] <= result.floor and spectrum[-1] < -result.floor
    assert len(result.eigenvalues) == 0 and result.clusters is None
    assert result.lowest == pytest.approx(spectrum[-1])
    text = left_out_sentence(result)
    assert "has no positive eigenvalue here" in text
    assert f"the smallest μ = {format_number(result.lowest, '.3g')}" in text


def test_a_k_as_large_as_n_is_refused_with_the_numbers():
    X = datasets.load("moons", n=20).X
    with pytest.raises(ValueError, match="k = 20 for n = 20"):
        eigenproblem(X, None, method="isomap", kernel="rbf", kernel_params={}, k=20,
                     n_components=2)
