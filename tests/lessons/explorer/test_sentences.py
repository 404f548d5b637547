"""The Explorer's sentences about K, K̃ and the projections say what their numbers show
(issue 23: "K shows two bright blocks" where only one is bright; "Linearly separable" read
as an assertion). Expected values are computed here from the data with NumPy."""

from __future__ import annotations

import re

import numpy as np

import datasets
from experiments.kernel_diagnostics import signed
from kpca_core import center_kernel, compute_kernel
from tests.lessons.explorer.sections import DATA_TAB, KERNEL_TAB, open_section
from tests.support.apptest import assert_clean, open_app


def captions(at) -> str:
    return " ".join(c.value for c in at.caption)


def block_means(M: np.ndarray, y: np.ndarray) -> np.ndarray:
    labels = np.unique(y)
    return np.array([[M[np.ix_(y == a, y == b)].mean() for b in labels] for a in labels])


def opened(query: dict):
    at = open_app("explorer", query)
    assert_clean(at)
    open_section(at, KERNEL_TAB)
    assert_clean(at)
    return at


def test_k_at_the_tours_step_2_has_one_bright_block_and_k_tilde_two():
    at = opened({"dataset": "circles", "kernel": "rbf", "gamma": 5})
    data = datasets.load("circles")
    K = compute_kernel(data.X, kernel="rbf", gamma=5.0)
    B, Bc = block_means(K, data.y), block_means(center_kernel(K), data.y)
    text = captions(at)
    assert (f"Mean of K in each class's diagonal block: outer circle {B[0, 0]:.3g}, inner "
            f"circle {B[1, 1]:.3g}; between classes {B[0, 1]:.3g}") in text
    assert B[1, 1] > 0.4 > B[0, 0]  # the numbers behind the judgement
    assert ("Only the block of inner circle stands out as bright; that of outer circle does "
            "not stand out") in text
    assert (f"Mean of K̃ in each class's diagonal block: outer circle "
            f"{signed(Bc[0, 0], '+.3g')}, inner circle {signed(Bc[1, 1], '+.3g')}") in text
    assert "K̃ shows two blocks." in text


def test_a_small_gamma_makes_every_block_of_k_bright_between_classes_too():
    at = opened({"dataset": "circles", "kernel": "rbf", "gamma": 0.1})
    data = datasets.load("circles")
    Bc = block_means(center_kernel(compute_kernel(data.X, kernel="rbf", gamma=0.1)), data.y)
    text = captions(at)
    assert "Both blocks are bright" not in text
    assert abs(Bc[0, 0]) < 0.01  # under 5 % of K̃'s colour scale (±0.19)
    assert "K̃ shows two blocks, though faintly (under 5 % of the colour scale)." in text


def test_on_iris_k_tilde_does_not_split_cleanly_by_class():
    at = opened({"dataset": "iris", "kernel": "rbf", "gamma": 0.2})
    data = datasets.load("iris")
    Bc = block_means(center_kernel(compute_kernel(data.X, kernel="rbf", gamma=0.2)), data.y)
    red_between = int(np.sum(Bc[~np.eye(3, dtype=bool)] > 0))
    text = captions(at)
    assert red_between == 2
    assert "Every class's block is bright" in text
    assert (f"{red_between} of 6 blocks between classes are red too, so K̃ does not split "
            "cleanly by class") in text


def test_the_separability_reads_as_a_cross_validated_accuracy():
    at = open_app("explorer", {"dataset": "circles", "kernel": "linear"})
    assert_clean(at)
    text = captions(at)
    assert "Linearly separable" not in text
    assert "Cross-validated accuracy of a linear classifier on components 1 and 2: kernel " \
        "PCA" in text


def test_the_parabola_opens_with_the_kernel_its_text_asks_for():
    # Issue 23: the noisy parabola opened with RBF while its text says "use the polynomial
    # kernel (x·y)^d"; its suggestion (and Component maps' Fig. 3 preset) is (x·y)².
    from lessons.component_maps.experiment import FIG3

    at = open_app("explorer", {"dataset": "parabola"})
    assert_clean(at)
    suggested = datasets.available()["parabola"].suggested_kernel
    assert at.query_params["kernel"] == suggested["kernel"] == FIG3["kernel"] == "poly"
    assert int(at.query_params["degree"]) == suggested["degree"] == 2
    assert float(at.query_params["coef0"]) == FIG3["coef0"] == 0.0
    assert float(at.query_params["gamma"]) == FIG3["gamma"] == 1.0
    at = open_section(at, DATA_TAB)
    assert "suggest the" not in captions(at)


def test_a_view_with_another_kernel_says_which_one_the_data_suggest():
    at = open_app("explorer", {"dataset": "parabola", "kernel": "rbf", "gamma": 1})
    at = open_section(at, DATA_TAB)
    assert_clean(at)
    assert ("These data suggest the Polynomial kernel (γ = 1, d = 2, c₀ = 0.0); this view "
            "uses the RBF (Gaussian) kernel.") in captions(at)
    # A dataset whose suggestion is the kernel on screen gets no such note (circles: RBF).
    at = open_section(open_app("explorer", {"dataset": "circles", "kernel": "rbf"}), DATA_TAB)
    assert_clean(at)
    assert "These data suggest" not in captions(at)


def test_the_tours_step_2_says_what_the_explorers_captions_show_there():
    # The tour's answer said "K shows two bright blocks" (issue 23); it must agree with the
    # captions the Explorer computes at the step's own settings.
    from classroom.tour import STEPS

    step = STEPS[1]
    assert step.page == "app_pages/explorer.py" and step.settings().gamma == 5.0
    at = opened({"dataset": "circles", "kernel": "rbf", "gamma": 5})
    text = captions(at)
    assert "Only the block of inner circle stands out as bright" in text
    assert "K̃ shows two blocks" in text
    assert "In K only the inner ring's block is bright" in step.look_for
    assert "two bright blocks" not in step.look_for


def test_a_gamma_change_cross_validates_only_the_kernel_pca_coordinates(monkeypatch):
    # Linear PCA sees only the data: after a change of γ (the commonest click) its score
    # is the one already computed, and only kernel PCA's coordinates are scored again.
    from lessons.explorer import projections

    scored = []
    real = projections.linear_separability

    def counted(Z, y):
        scored.append(Z.shape)
        return real(Z, y)

    monkeypatch.setattr(projections, "linear_separability", counted)
    # A seed no other test opens, so the process-wide cache of scores starts empty.
    at = open_app("explorer", {"dataset": "moons", "kernel": "rbf", "gamma": "2", "seed": "31"})
    assert_clean(at)
    # Kernel PCA's components 1 and 2, linear PCA's, and kernel PCA's component 1 alone.
    assert len(scored) == 3, scored
    linear = re.search(r"linear PCA (\d+)%", captions(at)).group(1)
    scored.clear()
    at.select_slider(key="w_gamma").set_value(0.5).run()
    assert_clean(at)
    assert at.query_params["gamma"] == "0.5"
    assert len(scored) == 2, scored  # components 1 and 2, and component 1 alone
    assert re.search(r"linear PCA (\d+)%", captions(at)).group(1) == linear
