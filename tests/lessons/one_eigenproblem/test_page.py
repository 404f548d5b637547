"""One eigenproblem (AppTest): the page shows kernel PCA of each method's K next to
scikit-learn's own method (computed here), its checks pass, and its sentences say what the
numbers say at the defaults and where a sentence could turn false: k too small (a graph in
pieces), k too large (short-circuits), γ at both ends, another data set, a drawing, a bad
link."""

from __future__ import annotations

import warnings

import numpy as np
import pytest
from scipy.sparse.csgraph import connected_components
from scipy.stats import spearmanr
from sklearn.cluster import SpectralClustering
from sklearn.decomposition import KernelPCA as SklearnKernelPCA
from sklearn.manifold import ClassicalMDS, Isomap, SpectralEmbedding
from sklearn.metrics import adjusted_rand_score
from sklearn.neighbors import kneighbors_graph

import datasets
from datasets import drawn
from lessons.one_eigenproblem import view
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import checks_shown, shown_float
from tests.support.plotly_json import chart_specs, decode

PAGE = "one_eigenproblem"


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def shown_points(at, key: str) -> np.ndarray:
    """The coordinates a scatter chart draws, back in row order (customdata)."""
    spec = next(spec for element, spec in zip(at.get("plotly_chart"), chart_specs(at),
                                              strict=True) if element.proto.id.endswith(key)
                or key in element.proto.id)
    rows, coords = [], []
    for trace in spec["data"]:
        if trace.get("mode") != "markers":
            continue
        rows.append(np.atleast_1d(decode(trace["customdata"])).astype(int))
        coords.append(np.column_stack([decode(trace["x"]), decode(trace["y"])]))
    rows, coords = np.concatenate(rows), np.concatenate(coords)
    return coords[np.argsort(rows)]


def abs_correlations(A, B) -> np.ndarray:
    return np.array([abs(np.corrcoef(a, b)[0, 1]) for a, b in zip(A.T, B.T, strict=True)])


def quiet(fit):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        return fit()


def test_the_default_is_kernel_pca_of_the_sidebars_kernel_beside_scikit_learns():
    at = open_app(PAGE, {"dataset": "circles", "kernel": "rbf", "gamma": 5})
    assert_clean(at)
    data = datasets.load("circles")
    theirs = SklearnKernelPCA(3, kernel="rbf", gamma=5.0).fit_transform(data.X)
    ours = shown_points(at, "eigen_ours")
    assert abs_correlations(ours, theirs[:, :2]).min() >= 0.9999
    shown = checks_shown(at)
    label = next(label for label in shown if "ours against KernelPCA" in label)
    assert shown_float(shown[label]) <= 1e-4
    assert at.query_params["method"] == "kpca" and at.query_params["neighbours"] == "6"
    # The intro says which methods agree with scikit-learn's and which differ by design,
    # as the experiment's comparisons do (tests/lessons/one_eigenproblem/test_experiment.py).
    intro = next(m.value for m in at.markdown if m.value.startswith("Classical MDS, Isomap"))
    assert "For classical MDS and Isomap, kernel PCA of K gives what scikit-learn's" in intro
    assert "For Laplacian eigenmaps and spectral clustering the two differ by design" in intro


def test_isomap_on_the_swiss_roll_unrolls_it_at_k_6_and_says_so():
    at = open_app(PAGE, {"dataset": "swiss_roll", "method": "isomap", "neighbours": 6})
    assert_clean(at)
    data = datasets.load("swiss_roll")
    theirs = Isomap(n_neighbors=6, n_components=3).fit_transform(data.X)
    ours = shown_points(at, "eigen_ours")
    assert abs_correlations(ours, theirs[:, :2]).min() >= 0.9999
    rho = abs(spearmanr(theirs[:, 0], data.unrolled[:, 0]).statistic)
    text = text_of(at)
    assert rho >= 0.95 and f"follows the distance along the sheet (|ρ| = {rho:.3f}" in text
    assert "joins all 600 points in one piece" in text and "None of its edges jumps" in text
    assert any("ours against Isomap" in label for label in checks_shown(at))


def test_a_large_k_short_circuits_the_roll_and_the_page_counts_the_jumps():
    at = open_app(PAGE, {"dataset": "swiss_roll", "method": "isomap", "neighbours": 40})
    assert_clean(at)
    data = datasets.load("swiss_roll")
    C = kneighbors_graph(data.X, 40, include_self=False)
    i, j = ((C + C.T) > 0).nonzero()
    upper = i < j
    i, j = i[upper], j[upper]
    jumps = int(np.sum(np.linalg.norm(data.unrolled[i] - data.unrolled[j], axis=1)
                       > 2 * np.linalg.norm(data.X[i] - data.X[j], axis=1)))
    theirs = Isomap(n_neighbors=40, n_components=2).fit_transform(data.X)
    rho = abs(spearmanr(theirs[:, 0], data.unrolled[:, 0]).statistic)
    text = text_of(at)
    assert jumps > 100 and f"{jumps:,} edges (" in text and "jump between layers" in text
    assert rho < 0.5 and f"does not follow the distance along the sheet (|ρ| = {rho:.3f}" in text
    # The graph draws them in red, all of them.
    graph = next(spec for spec in chart_specs(at) if "nearest-neighbour graph" in
                 spec["layout"]["title"]["text"])
    red = next(t for t in graph["data"] if t["name"].startswith("short-circuit"))
    assert red["name"] == f"short-circuit ({jumps:,})"


def test_a_small_k_breaks_the_graph_and_isomap_still_matches_scikit_learn():
    at = open_app(PAGE, {"dataset": "swiss_roll", "method": "isomap", "neighbours": 3})
    assert_clean(at)
    data = datasets.load("swiss_roll")
    C = kneighbors_graph(data.X, 3, include_self=False)
    count, labels = connected_components(C + C.T, directed=False)
    text = text_of(at)
    assert count > 1 and f"falls apart into {count} pieces" in text
    assert f"({count * (count - 1) // 2} edge" in text  # the edges that join them
    theirs = quiet(lambda: Isomap(n_neighbors=3, n_components=2).fit_transform(data.X))
    assert abs_correlations(shown_points(at, "eigen_ours"), theirs).min() >= 0.9999


def test_laplacian_eigenmaps_on_the_circles_explains_the_librarys_first_component():
    at = open_app(PAGE, {"dataset": "circles", "method": "laplacian", "neighbours": 6})
    assert_clean(at)
    text = text_of(at)
    assert "falls apart into 2 pieces of 200 and 200 points" in text
    assert "L then has 2 zero eigenvalues" in text
    assert "the table and the check above compare ours with the library's components from 2 on" \
        in text
    # The table's SpectralEmbedding column: its components 2–4 (its first only says which
    # ring a point is on), here by its own ARPACK, against ours as drawn.
    data = datasets.load("circles")
    theirs = quiet(lambda: SpectralEmbedding(4, affinity="nearest_neighbors", n_neighbors=7,
                                             random_state=0).fit_transform(data.X))
    table = at.dataframe[0].value
    np.testing.assert_allclose(table["|corr| with SpectralEmbedding"][:2],
                               abs_correlations(shown_points(at, "eigen_ours"), theirs[:, 1:3]),
                               atol=1e-6)
    shown = checks_shown(at)
    label = next(label for label in shown if "spectral_embedding, unnormalised" in label)
    assert "its components 2–4" in label and shown_float(shown[label]) <= 1e-4
    assert any("L⁺" in label for label in shown)  # its rows sum to 0
    C = kneighbors_graph(data.X, 6, include_self=False)
    A = 0.5 * (C + C.T)
    d = np.asarray(A.sum(axis=1)).ravel()
    assert f"degrees here range from {d.min():g} to {d.max():g}" in text


def test_laplacian_eigenmaps_on_a_graph_in_116_pieces_passes_its_check():
    # L's zero eigenvalue 116 times: scikit-learn's ARPACK cannot be relied on there.
    at = open_app(PAGE, {"dataset": "circles", "method": "laplacian", "neighbours": 1})
    assert_clean(at)  # a failed check is an error box
    data = datasets.load("circles")
    count, _ = connected_components(kneighbors_graph(data.X, 1), directed=False)
    text = text_of(at)
    assert f"L's zero eigenvalue is repeated {count} times here" in text
    label = next(label for label in checks_shown(at) if "unnormalised" in label)
    assert f"its components {count}–{count + 2}" in label


@pytest.mark.parametrize("k", [1, 2, 3])
def test_isomap_on_iris_counts_scikit_learns_pieces_and_matches_it(k):
    # Two identical flowers: their edge has length 0 and joins them, as in scikit-learn.
    at = open_app(PAGE, {"dataset": "iris", "method": "isomap", "neighbours": k})
    assert_clean(at)  # the check against Isomap passes
    data = datasets.load("iris")
    count, _ = connected_components(kneighbors_graph(data.X, k, mode="distance"))
    assert f"falls apart into {count} pieces" in text_of(at)
    theirs = quiet(lambda: Isomap(n_neighbors=k, n_components=2).fit_transform(data.X))
    assert abs_correlations(shown_points(at, "eigen_ours"), theirs).min() >= 0.9999


def test_classical_mds_is_drawn_and_checked_beside_scikit_learns_classical_mds():
    at = open_app(PAGE, {"dataset": "iris", "method": "mds"})
    assert_clean(at)
    data = datasets.load("iris")
    theirs = ClassicalMDS(n_components=3).fit_transform(data.X)
    assert abs_correlations(shown_points(at, "eigen_theirs"), theirs[:, :2]).min() >= 0.9999
    assert abs_correlations(shown_points(at, "eigen_ours"), theirs[:, :2]).min() >= 0.9999
    assert "ClassicalMDS (scikit-learn)" in [spec["layout"]["title"]["text"]
                                             for spec in chart_specs(at)]
    shown = checks_shown(at)
    label = next(label for label in shown if label.endswith("ours against ClassicalMDS"))
    assert shown_float(shown[label]) <= 1e-4


def test_spectral_clustering_finds_the_rings_and_k_means_does_not():
    at = open_app(PAGE, {"dataset": "circles", "method": "spectral", "neighbours": 6})
    assert_clean(at)
    data = datasets.load("circles")
    theirs = quiet(lambda: SpectralClustering(2, affinity="nearest_neighbors",
                                              n_neighbors=7, random_state=0).fit_predict(data.X))
    text = text_of(at)
    assert f"the library's {adjusted_rand_score(data.y, theirs):.3f}" in text
    assert "Against the classes: ours 1.000" in text
    assert "For clustering this is welcome" in text


@pytest.mark.parametrize("gamma", ["1e-06", "10000"])
def test_kernel_pca_at_both_ends_of_gamma_keeps_its_checks_true(gamma):
    at = open_app(PAGE, {"dataset": "moons", "kernel": "rbf", "gamma": gamma})
    assert_clean(at)
    shown = checks_shown(at)
    assert shown  # what is compared, passes
    assert all(shown_float(v) <= 1e-4 for label, v in shown.items() if "1 − |correlation|" in label)
    if gamma == "1e-06":  # the third component's eigenvalue is repeated: said, not checked
        assert "Component 3: the eigenvalue is repeated" in text_of(at)


def test_a_drawing_is_the_data_too():
    X, y = drawn.preset("moons", 80, seed=3)
    code = drawn.encode(X, y)
    at = open_app(PAGE, {"dataset": "drawn", "points": code, "method": "isomap",
                         "neighbours": 5})
    assert_clean(at)
    X, _ = drawn.decode(code)
    theirs = quiet(lambda: Isomap(n_neighbors=5, n_components=2).fit_transform(X))
    assert abs_correlations(shown_points(at, "eigen_ours"), theirs).min() >= 0.9999
    assert "5-nearest-neighbour graph" in text_of(at)


def test_spectral_clustering_with_every_point_a_neighbour_says_why_it_stops():
    X, y = drawn.preset("moons", 12, seed=0)
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(X, y),
                         "method": "spectral", "neighbours": 11})
    assert_clean(at)
    warned = " ".join(w.value for w in at.warning)
    assert "With k = 11 every point is a neighbour of every other (12 points)" in warned
    assert "negative_eigenvalues" not in warned
    at.session_state[view.K_NEIGHBOURS] = 10  # one fewer: it clusters
    at.run()
    assert_clean(at)
    assert "Adjusted Rand index" in text_of(at)


def test_a_bad_link_warns_and_falls_back():
    at = open_app(PAGE, {"dataset": "moons", "method": "lle", "neighbours": "0"})
    assert not at.exception
    warned = " ".join(w.value for w in at.warning)
    assert "`method`" in warned and "`neighbours`" in warned
    assert at.query_params["method"] == view.DEFAULT_METHOD


def test_k_is_kept_below_n_on_tiny_data():
    X, y = drawn.preset("circles", 8, seed=0)
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(X, y),
                         "method": "isomap", "neighbours": 50})
    assert_clean(at)
    assert at.query_params["neighbours"] == "7"


def test_a_later_link_wins_over_the_last_choice_as_the_tours_next_does():
    # The tour opens this page twice in a row with other methods: the second link must win,
    # and a link without the parameters keeps the student's choice.
    at = open_app(PAGE, {"dataset": "circles", "method": "isomap", "neighbours": 6})
    assert_clean(at)
    at.query_params["method"] = "spectral"
    at.run()
    assert_clean(at)
    titles = [spec["layout"]["title"]["text"] for spec in chart_specs(at)]
    assert "K of Spectral clustering" in titles
    assert at.session_state[view.K_METHOD] == "spectral"
    at.session_state[view.K_NEIGHBOURS] = 9  # the student moves k
    at.run()
    assert at.query_params["neighbours"] == "9" and at.query_params["method"] == "spectral"
