"""Novelty detection (AppTest): the AUCs shown are those of scikit-learn's estimators and
of the errors computed with explicit feature vectors, the check passes, and the sentences
follow the numbers at the defaults, at a moved threshold, at γ's ends, with an indefinite
kernel, with digits of one class, with a drawing, in 3-D and with a bad link."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.decomposition import PCA
from sklearn.ensemble import IsolationForest
from sklearn.metrics import roc_auc_score
from sklearn.svm import OneClassSVM

import datasets
from datasets import drawn
from experiments.novelty import novelty_split
from kpca_core import compute_kernel
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.lessons import checks_shown, shown_float
from tests.support.plotly_json import chart_specs, decode

PAGE = "novelty"


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def auc(normal, outliers) -> float:
    return roc_auc_score(np.r_[np.zeros(len(normal)), np.ones(len(outliers))],
                         np.r_[normal, outliers])


def test_the_polynomial_kernels_auc_is_that_of_explicit_monomials_and_scikit_learns():
    # (x·y + 1)² in the plane: six monomials, PCA by scikit-learn on them.
    at = open_app(PAGE, {"dataset": "moons", "kernel": "poly", "gamma": 1, "degree": 2,
                         "coef0": 1, "components": 3})
    assert_clean(at)
    data = datasets.load("moons")
    split = novelty_split(data.X, data.y, None, max_train=1000)

    def phi(Z):
        x1, x2 = Z.T
        return np.column_stack([np.ones(len(Z)), np.sqrt(2) * x1, np.sqrt(2) * x2, x1**2,
                                np.sqrt(2) * x1 * x2, x2**2])

    pca = PCA(3, svd_solver="full").fit(phi(data.X[split.train]))

    def error(Z):
        F = phi(Z)
        return np.sum((F - pca.inverse_transform(pca.transform(F))) ** 2, axis=1)

    held, outliers = data.X[split.held_out], split.outliers
    ours = auc(error(held), error(outliers))
    # The one-class SVM gets an RBF kernel, γ by the median heuristic (the polynomial
    # kernel would make it no detector).
    gamma = 1 / np.median(pdist(data.X[split.train], "sqeuclidean"))
    svm = OneClassSVM(kernel="rbf", gamma=gamma, nu=0.1).fit(data.X[split.train])
    theirs = auc(-svm.decision_function(held), -svm.decision_function(outliers))
    forest = IsolationForest(random_state=0).fit(data.X[split.train])
    trees = auc(-forest.score_samples(held), -forest.score_samples(outliers))
    text = text_of(at)
    assert (f"AUC: kernel PCA {ours:.3f}, one-class SVM {theirs:.3f}, isolation forest "
            f"{trees:.3f}") in text
    label = next(label for label in checks_shown(at) if "explicit feature vectors" in label)
    assert shown_float(checks_shown(at)[label]) < 1e-8
    assert "the polynomial kernel's explicit φ" in text
    assert (f"The one-class SVM is fitted with an RBF kernel here, γ = {gamma:.3g} (the median "
            "heuristic") in text
    fitted_on = list(at.dataframe[0].value["fit"])
    assert fitted_on[1] == f"an RBF kernel, γ = {gamma:.3g} (median heuristic), ν = 0.1"
    roc = next(s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith("ROC curves"))
    assert [t["name"] for t in roc["data"]][1] == f"Kernel PCA (AUC {ours:.3f})"


def test_a_cubic_kernel_gives_the_one_class_svm_an_rbf_kernel_and_a_fair_comparison():
    # With (x·y + 1)³ itself, scikit-learn's one-class SVM ranks the outliers as more normal
    # than the normal points (AUC 0.274 here): no detector to compare kernel PCA with.
    at = open_app(PAGE, {"dataset": "moons", "kernel": "poly", "degree": 3})
    assert_clean(at)
    data = datasets.load("moons")
    split = novelty_split(data.X, data.y, None, max_train=1000)
    train, held, outliers = data.X[split.train], data.X[split.held_out], split.outliers
    same = OneClassSVM(kernel="precomputed", nu=0.1)
    params = dict(kernel="poly", gamma=float(at.query_params["gamma"]), degree=3,
                  coef0=float(at.query_params["coef0"]))
    same.fit(compute_kernel(train, **params))
    assert auc(-same.decision_function(compute_kernel(held, train, **params)),
               -same.decision_function(compute_kernel(outliers, train, **params))) < 0.5
    gamma = 1 / np.median(pdist(train, "sqeuclidean"))
    rbf = OneClassSVM(kernel="rbf", gamma=gamma, nu=0.1).fit(train)
    theirs = auc(-rbf.decision_function(held), -rbf.decision_function(outliers))
    assert theirs > 0.5
    text = text_of(at)
    assert f"one-class SVM {theirs:.3f}" in text
    assert "not with the polynomial kernel" in text


def test_the_default_view_maps_the_error_and_the_threshold_moves_by_link():
    at = open_app(PAGE, {"dataset": "circles", "threshold": 80})
    assert_clean(at)
    assert at.query_params["normal"] == "all" and at.query_params["threshold"] == "80"
    text = text_of(at)
    assert "Flag a point when p(x) >" in text and "240 of the 300 training points (80.0 %)" in text
    spec = next(s for s in chart_specs(at) if s["layout"]["title"]["text"].startswith(
        "Reconstruction error"))
    names = [t.get("name", "") for t in spec["data"]]
    assert any(name.startswith("threshold p(x) =") for name in names)
    assert {"training (normal)", "held-out normal", "outlier"} <= set(names)
    # q and the seed, said; the outliers drawn are seed 0's.
    assert "q = 3, the sidebar's number of components" in text
    assert "p(x) falls for every point" in text
    assert "The random choices are seeded (seed 0)" in text
    data = datasets.load("circles")
    drawn_off = novelty_split(data.X, data.y, None, max_train=1000, seed=0).outliers
    shown = next(t for t in spec["data"] if t.get("name") == "outlier")
    np.testing.assert_allclose(decode(shown["x"]), drawn_off[:, 0], rtol=1e-6)


@pytest.mark.parametrize(("dataset", "gamma"), [
    # μ₃ and μ₄ within 1e-6 × μ₁ of each other, yet 80 % apart and far above the rounding
    # of K (tests/lessons/novelty/test_experiment.py): component 3 is one direction.
    ("moons", "1e-06"),
    ("circles", "1e-06"),
    ("circles", "10000"),
])
def test_gamma_at_its_ends_keeps_the_check_honest(dataset, gamma):
    at = open_app(PAGE, {"dataset": dataset, "kernel": "rbf", "gamma": gamma})
    assert_clean(at)
    shown = checks_shown(at)
    assert len(shown) == 1 and shown_float(next(iter(shown.values()))) < 1e-8
    assert "are equal" not in text_of(at)


def test_equal_eigenvalues_are_said_and_not_checked_where_k_is_the_identity():
    # The Laplacian kernel at γ = 1e4 on a drawing: K = I to within 1e-25, so K̃ = I − 1/n
    # and μ₃ = μ₄: "the first 3 components" is no single subspace.
    X, y = drawn.preset("moons", 120, seed=0)
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(X, y),
                         "kernel": "laplacian", "gamma": "10000"})
    assert_clean(at)
    assert not checks_shown(at)
    assert ("Not checked against an explicit computation here: μ3 and μ4 are equal to within "
            "the rounding of K") in text_of(at)


def test_an_indefinite_kernel_is_said_to_have_no_feature_map():
    at = open_app(PAGE, {"dataset": "moons", "kernel": "sigmoid", "gamma": 0.5,
                         "coef0": -1})
    assert_clean(at)
    assert "no real feature map exists" in text_of(at)


def test_a_saturated_sigmoid_is_said_to_have_no_feature_map_not_a_failed_check():
    # tanh(0.3 xᵀy) on iris: K ≈ all ones, K̃ ~ 1e-8 with eigenvalues of −3.5e-7, far below
    # the rounding of K; a test relative to K's largest eigenvalue (~n) let them through.
    at = open_app(PAGE, {"dataset": "iris", "kernel": "sigmoid", "gamma": 0.3, "coef0": 0})
    assert_clean(at)  # no red "Check failed"
    assert not checks_shown(at)
    assert ("Not checked against an explicit computation here: this kernel has negative "
            "eigenvalues: no real feature map exists") in text_of(at)


def test_a_kernel_saturated_to_one_value_says_every_point_sits_at_the_mean():
    # tanh(3 xᵀy) on iris is 1.0 for every pair of training points: K̃ = 0.
    at = open_app(PAGE, {"dataset": "iris", "kernel": "sigmoid", "gamma": 3, "coef0": 0})
    assert_clean(at)
    text = text_of(at)
    assert ("Not checked against an explicit computation here: no eigenvalue of K̃ rises "
            "above the rounding of K") in text
    assert "every scored point sits at the training points' mean in feature space" in text
    assert ("The sidebar asks for 3 components, and no eigenvalue of K̃ rises above the "
            "rounding of K: no component is kept") in text
    assert "components hold all the variance" not in text and "are equal" not in text


def test_too_many_components_leave_no_error_and_the_page_says_so():
    at = open_app(PAGE, {"dataset": "circles", "kernel": "poly", "gamma": 1, "degree": 2,
                         "coef0": 1, "components": 10})
    assert_clean(at)
    text = text_of(at)
    assert "Every error is 0 to within rounding here: 5 components" in text
    assert ("q = 5: the sidebar asks for 10 components, and only 5 have an eigenvalue above "
            "the rounding of K") in text
    # Every error is 0 (the explicit check: PCA of the six monomials keeps all five
    # directions), so the threshold flags none; those above it by rounding are said apart.
    assert shown_float(next(iter(checks_shown(at).values()))) < 1e-8
    assert ("0 of the 100 held-out normal points are flagged (0.0 %, false alarms) and 0 of "
            "the 100 outliers (0.0 %)") in text
    assert "lie above the threshold by less than the rounding of K" in text


def test_a_drawing_with_its_second_class_as_outliers():
    X, y = drawn.preset("moons", 120, seed=0)
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(X, y), "normal": 1})
    assert_clean(at)
    text = text_of(at)
    assert "points of the other classes" in text and "15 held-out normal" in text


@pytest.mark.parametrize(("labels", "said"), [
    # 37 normal points, 10 held out, and only 3 of the other class to score against them.
    (np.r_[np.zeros(37, int), np.ones(3, int)],
     "Outliers: all 3 points of the other classes, fewer than the 10 held-out normal points."),
    # 30 normal points, 8 held out, 10 others: a sample of 8 of them.
    (np.r_[np.zeros(30, int), np.ones(10, int)],
     "Outliers: 8 points of the other classes, a seeded sample as large as the held-out "
     "normal points."),
], ids=["fewer-others", "sampled"])
def test_the_outliers_of_the_other_classes_are_counted_as_they_are(labels, said):
    X = drawn.preset("moons", 40, seed=0)[0]
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(X, labels), "normal": 1})
    assert_clean(at)
    assert said in text_of(at)


def test_three_dimensional_data_get_curves_and_no_map():
    at = open_app(PAGE, {"dataset": "swiss_roll"})
    assert_clean(at)
    titles = [s["layout"]["title"]["text"] for s in chart_specs(at)]
    assert not any(t.startswith("Reconstruction error") for t in titles)
    assert any(t.startswith("ROC curves") for t in titles)


def test_a_bad_link_warns_and_falls_back():
    at = open_app(PAGE, {"dataset": "circles", "normal": "7", "threshold": "12"})
    assert not at.exception
    warned = " ".join(w.value for w in at.warning)
    assert "`normal`" in warned and "`threshold`" in warned
    assert at.query_params["normal"] == "all" and at.query_params["threshold"] == "95"


@needs_usps
def test_digits_of_one_class_against_the_others_show_the_most_novel_ones():
    at = open_app(PAGE, {"dataset": "usps", "n": 600, "kernel": "rbf", "gamma": 0.0078125})
    assert_clean(at)
    assert at.query_params["normal"] == "1"  # digits: the first class is normal
    text = text_of(at)
    data = datasets.load("usps", n=600)
    zeros = int(np.sum(data.y == 0))
    held = zeros - (zeros - int(np.ceil(0.25 * zeros)))
    assert f"{held} held-out normal points" in text
    assert "of these 12 are outliers" in text


def test_a_later_link_wins_and_the_students_threshold_stays_otherwise():
    at = open_app(PAGE, {"dataset": "circles", "threshold": 80})
    assert_clean(at)
    at.query_params["normal"] = "2"
    at.run()
    assert_clean(at)
    text = text_of(at)
    assert "points of the other classes" in text
    assert "240 of the 300 training points" not in text  # one class: 150 normal points
    assert at.query_params["threshold"] == "80" and at.query_params["normal"] == "2"


# --------------------------------------------------------------------------- nothing to score


def warned(at) -> str:
    return " ".join(w.value for w in at.warning)


@needs_usps
@pytest.mark.parametrize("kernel", ["rbf", "laplacian", "poly", "sigmoid", "linear", "cosine"])
def test_usps_with_all_points_normal_says_why_nothing_is_scored(kernel):
    # In 256-D no point of the digits' box lies 3 median neighbour spacings from every
    # digit: no outlier can be drawn, whatever the kernel (the page stops before using it).
    at = open_app(PAGE, {"dataset": "usps", "normal": "all", "kernel": kernel})
    assert_clean(at)
    data = datasets.load("usps")
    assert not len(novelty_split(data.X, data.y, None, max_train=1000).outliers)
    assert "No outlier could be drawn" in warned(at)
    assert "Choose one class as the normal data" in warned(at)
    assert not any(s["layout"]["title"]["text"].startswith("ROC") for s in chart_specs(at))


@needs_usps
def test_picking_usps_in_the_sidebar_keeps_all_points_and_says_what_to_change():
    at = open_app(PAGE, {"dataset": "moons"})
    assert_clean(at)
    at.selectbox(key="w_dataset").set_value("usps").run()
    assert_clean(at)
    assert at.query_params["normal"] == "all"  # the student's choice, kept
    assert "No outlier could be drawn" in warned(at)
    at.selectbox(key="w_novelty_normal").set_value("2").run()  # the advice, followed
    assert_clean(at)
    assert "points of the other classes" in text_of(at) and not warned(at)


@needs_usps
def test_the_memory_guard_counts_the_search_for_outliers_off_the_shape(monkeypatch):
    # 2,000 digits, all normal: the fit's 1,000 training points (3 copies, 24 MB) fit a
    # 30 MiB budget; the search among all 2,000 (5,000 candidates × 256, 5 copies: 51.2 MB)
    # does not, and is refused before it runs, naming itself.
    from server import memory

    monkeypatch.setenv(memory.BUDGET_ENV, "30")
    at = open_app(PAGE, {"dataset": "usps", "n": 2000, "normal": "all"})
    assert not at.exception, [e.value for e in at.exception]
    refusals = [e.value for e in at.error if "the search for outliers off the shape" in e.value]
    assert refusals, [e.value for e in at.error]
    assert refusals[0].startswith("a 5,000 × 256 matrix needs 51.2 MB")
    assert "No outlier could be drawn" not in warned(at)  # stopped before searching


@pytest.mark.parametrize(("points", "normal", "said"), [
    # 8 drawn points: their median spacing is so wide that no point of their box is 3
    # spacings from all of them; of two classes, one can be made normal.
    (drawn.preset("moons", 8, seed=0), "all",
     ("No outlier could be drawn", "Choose one class as the normal data")),
    # ... and drawn as one class: no class to choose, more points make room.
    ((drawn.preset("moons", 8, seed=0)[0], np.zeros(8, int)), "all",
     ("No outlier could be drawn", "Use more points, or data in fewer dimensions")),
    # One class drawn, and it is normal: no class is left to be the outliers.
    ((drawn.preset("moons", 40, seed=0)[0], np.zeros(40, int)), "1",
     ("Every point belongs to the normal class", "Choose all points as the normal data")),
    # A class of 3 points: 2 are left to fit on once one is held out.
    ((drawn.preset("moons", 40, seed=0)[0], np.r_[np.zeros(37, int), np.ones(3, int)]), "2",
     ("The normal class has 3 points: too few to fit kernel PCA on",)),
], ids=["8-points", "8-points-one-class", "one-class", "class-of-3"])
def test_a_drawing_with_nothing_to_score_says_why(points, normal, said):
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(*points), "normal": normal})
    assert_clean(at)
    assert all(phrase in warned(at) for phrase in said), warned(at)


# --------------------------------------------------------------------------- the edges

SMALL = drawn.preset("moons", 40, seed=0)
EDGES = {
    **{f"{kernel}-gamma-{gamma}": {"kernel": kernel, "gamma": gamma}
       for kernel in ("rbf", "laplacian", "poly", "sigmoid") for gamma in ("1e-06", "10000")},
    "poly-degree-1": {"kernel": "poly", "degree": 1},
    "linear": {"kernel": "linear"},
    "cosine": {"kernel": "cosine"},
    # Two distinct points, each drawn 10 times: K̃ of rank 1, one class of identical points.
    "duplicates": {"points": drawn.encode(np.repeat([[0.3, 0.4], [0.6, 0.7]], 10, axis=0),
                                          np.repeat([0, 1], 10))},
    "duplicates-one-class": {"points": drawn.encode(
        np.repeat([[0.3, 0.4], [0.6, 0.7]], 10, axis=0), np.repeat([0, 1], 10)), "normal": 2},
}


@pytest.mark.parametrize("query", EDGES.values(), ids=EDGES.keys())
def test_the_page_at_the_edges_shows_its_numbers_or_says_why_not(query):
    at = open_app(PAGE, {"dataset": "drawn", "points": drawn.encode(*SMALL), **query})
    assert_clean(at)
    text = text_of(at)
    assert "AUC: kernel PCA" in text or "Every error is 0 to within rounding here" in text
    assert "Flag a point when p(x) >" in text


def test_an_upload_is_scored_against_points_off_its_shape():
    at = open_app(PAGE)
    at.selectbox(key="w_dataset").set_value("csv").run()
    rows = np.random.default_rng(0).normal(size=(40, 3))
    content = "a,b,c\n" + "\n".join(",".join(f"{v:.4f}" for v in row) for row in rows) + "\n"
    at.file_uploader(key="upload_csv").set_value(("points.csv", content.encode(), "text/csv"))
    at.run()
    assert_clean(at)
    text = text_of(at)
    assert "Outliers: 10 points drawn uniformly" in text and "10 held-out normal" in text
    assert "AUC: kernel PCA" in text
