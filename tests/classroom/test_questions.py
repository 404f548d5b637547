"""The questions' verdicts (classroom/questions.py) follow the data and settings they are
asked for: each at a setting where the usual answer is right and one where it is not."""

from __future__ import annotations

from dataclasses import replace

import numpy as np

import datasets
from classroom.questions import CATALOGUE, MAX_N, build
from shell.state import default_settings

CIRCLES = datasets.load("circles", n=200, seed=0)


def right(question) -> list[str]:
    return [question.options[i].text for i in question.right]


def test_every_question_has_one_verdict_and_a_reason_per_option():
    settings = default_settings("circles")
    for question_id, (prompt, texts) in CATALOGUE.items():
        question = build(question_id, CIRCLES.X, CIRCLES.y, settings)
        assert question is not None and question.prompt == prompt, question_id
        assert len(question.options) == len(texts)  # the tally counts by option number
        if question_id != "best_gamma":  # whose options name this view's panels
            assert [o.text for o in question.options] == list(texts)
        assert question.right, question_id  # at least one option is right
        assert all(o.why.startswith("Right" if o.right else "No") for o in question.options)


def test_zero_eigenvalues_counts_what_centring_leaves():
    rbf = default_settings("circles")
    assert right(build("zero_eigenvalues", CIRCLES.X, CIRCLES.y, rbf)) == ["1"]
    # Three points on a line, linear kernel: centred, they span one direction only.
    line = np.array([[0.0, 0.0], [1.0, 1.0], [3.0, 3.0]])
    linear = replace(rbf, kernel="linear")
    assert right(build("zero_eigenvalues", line, None, linear)) == ["2"]


def test_the_boundary_is_straight_only_for_the_linear_kernel():
    rbf = default_settings("circles")
    assert right(build("classifier_boundary", CIRCLES.X, CIRCLES.y, rbf)) == ["A curved one"]
    linear = replace(rbf, kernel="linear")
    assert right(build("classifier_boundary", CIRCLES.X, CIRCLES.y, linear)) == [
        "A straight one (a hyperplane)"]


def test_best_gamma_and_components_follow_the_data():
    circles = default_settings("circles")
    best = build("best_gamma", CIRCLES.X, CIRCLES.y, circles)
    assert [o.text for o in best.options][-1] == "Another of the page's 12 panels"
    assert all("the best of the 12 panels scores" in o.why or "points below the best" in o.why
               for o in best.options)
    assert build("best_gamma", CIRCLES.X, CIRCLES.y, replace(circles, kernel="linear")) is None
    moons = datasets.load("moons", n=200, seed=0)
    needed = build("components_needed", moons.X, moons.y, replace(circles, gamma=0.05))
    assert right(needed) != ["1"]  # nearly linear: one component does not split the moons
    assert "component 1 alone scores" in needed.options[0].why


def test_questions_that_do_not_apply_are_not_asked():
    settings = default_settings("circles")
    assert build("separation", CIRCLES.X, None, settings) is None  # no labels
    assert build("lift_plane", np.c_[CIRCLES.X, CIRCLES.X], CIRCLES.y, settings) is None
    big = np.zeros((MAX_N + 1, 2))
    assert build("separation", big, np.arange(MAX_N + 1) % 2, settings) is None
    assert build("memory_doubling", big, None, settings) is not None  # a fact: no n × n
    assert build("no_such_question", CIRCLES.X, CIRCLES.y, settings) is None


# --------------------------------------------------------------------------- beyond kernel PCA


def test_unroll_follows_scikit_learns_isomap_and_pca_on_the_roll():
    from scipy.stats import spearmanr
    from sklearn.decomposition import PCA
    from sklearn.manifold import Isomap

    roll = datasets.load("swiss_roll")
    settings = replace(default_settings("swiss_roll"), gamma=0.005)
    question = build("unroll", roll.X, roll.y, settings)
    isomap = Isomap(n_neighbors=6, n_components=1).fit_transform(roll.X)[:, 0]
    mds = PCA(1).fit_transform(roll.X)[:, 0]
    rho = [abs(spearmanr(z, roll.y).statistic) for z in (isomap, mds)]
    assert rho[0] >= 0.9 > rho[1]
    assert right(question) == ["Isomap only"]
    assert f"{rho[0]:.2f} for Isomap and {rho[1]:.2f} for classical MDS" in question.options[0].why


def test_graph_pieces_counts_scipys_connected_components():
    from scipy.sparse.csgraph import connected_components
    from sklearn.neighbors import kneighbors_graph

    settings = default_settings("circles")
    for name, expected in (("circles", "2"), ("moons", "1")):
        data = datasets.load(name)
        C = kneighbors_graph(data.X, 6)
        count = connected_components(C + C.T, directed=False)[0]
        assert str(min(count, 3)) == expected[0]
        assert right(build("graph_pieces", data.X, data.y, settings)) == [expected]
    three = np.r_[np.zeros((8, 2)), np.ones((8, 2)), 2 * np.ones((8, 2))] + \
        np.random.default_rng(0).normal(0, 0.01, (24, 2))
    assert right(build("graph_pieces", three, None, settings)) == ["3 or more"]


def test_novelty_verdict_is_the_novelty_pages_own():
    from lessons.novelty.experiment import KPCA, novelty

    data = datasets.load("circles")
    for q in (3, 10):
        settings = replace(default_settings("circles"), gamma=5.0, n_components=q)
        question = build("novelty_vs_svm", data.X, data.y, settings)
        page = novelty(data.X, data.y, kernel="rbf", kernel_params={"gamma": 5.0}, q=q,
                       normal=None, max_train=1000, grid=False)
        ours, theirs = page.aucs[KPCA], page.aucs["One-class SVM"]
        expected = (2 if abs(ours - theirs) < 0.02 else 0 if ours > theirs else 1)
        assert question.right == (expected,)
        assert f"AUC {ours:.3f} for kernel PCA with {q} components" in question.options[0].why
    # Every error rounding (all five directions of (x·y + 1)² kept): nothing to ask.
    poly = replace(default_settings("circles"), kernel="poly", gamma=1.0, degree=2, coef0=1.0,
                   n_components=10)
    assert build("novelty_vs_svm", data.X, data.y, poly) is None


def test_alignment_linear_compares_the_definitions_on_the_moons_and_the_circles():
    from sklearn.metrics.pairwise import linear_kernel, rbf_kernel

    def alignment(K, y):
        n = len(y)
        J = np.eye(n) - 1 / n
        Y = (y[:, None] == y[None, :]).astype(float)
        Kc, Yc = J @ K @ J, J @ Y @ J
        return np.sum(Kc * Yc) / (np.linalg.norm(Kc) * np.linalg.norm(Yc))

    for name, gamma, expected in (("moons", 15.0, "The linear kernel's"),
                                  ("circles", 5.0, "This view's kernel's")):
        data = datasets.load(name)
        settings = replace(default_settings(name), kernel="rbf", gamma=gamma)
        linear = alignment(linear_kernel(data.X), data.y)
        own = alignment(rbf_kernel(data.X, gamma=gamma), data.y)
        assert (linear > own + 0.02) == (expected == "The linear kernel's")
        assert right(build("alignment_linear", data.X, data.y, settings)) == [expected]
    assert build("alignment_linear", data.X, data.y, replace(settings, kernel="linear")) is None
