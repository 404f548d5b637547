"""Common mistakes, mistake 3 (issue 22, item 6): the caption says why centring the inputs
did nothing from what it measured, on data whose mean is not 0 as on data whose mean is."""

from __future__ import annotations

import datasets
from lessons.mistakes.experiment import CentredInputs
from tests.support.apptest import assert_clean, open_app


def mistake_3_caption(at) -> str:
    return next(c.value for c in at.caption if "centring the inputs changes nothing" in c.value
                or "not translation-invariant" in c.value)


def test_degree_one_on_moons_is_harmless_for_its_own_reason_not_a_zero_mean():
    X = datasets.load("moons", n=60).X
    assert abs(X.mean(axis=0)).max() > 0.2  # moons: mean about (0.5, 0.25)
    at = open_app("mistakes", {"dataset": "moons", "n": 60, "kernel": "poly", "gamma": 1,
                               "degree": 1, "coef0": 0})
    assert_clean(at)
    caption = mistake_3_caption(at)
    assert "d = 1" in caption and "mean is already 0" not in caption


def test_a_zero_mean_is_said_only_where_it_is_measured():
    at = open_app("mistakes", {"dataset": "moons", "n": 60, "kernel": "cosine", "std": 1})
    assert_clean(at)
    caption = mistake_3_caption(at)
    assert "mean is already 0 here (mean (" in caption  # standardised: the mean is 0
    at = open_app("mistakes", {"dataset": "moons", "n": 60, "kernel": "cosine"})
    assert "not translation-invariant" in mistake_3_caption(at)


def test_the_linear_kernel_is_not_called_a_kernel_of_x_minus_y():
    text = CentredInputs.description
    assert "x − y only (RBF, Laplacian)" in text and "linear kernel (its feature space" in text


def test_mistake_2_says_where_the_spurious_eigenvalue_ranks_as_numpy_finds_it():
    """Issue 33: iris with the sigmoid kernel, where −2n·mean(K) is the smallest eigenvalue
    and nothing changed, was said to be 'among the leading ones'."""
    import numpy as np

    from lessons.mistakes.experiment import LastSign, Reference

    for name, kernel, params in (("iris", "sigmoid", {"gamma": 0.3, "coef0": 0.0}),
                                 ("iris", "sigmoid", {"gamma": 0.2, "coef0": 1.0}),
                                 ("circles", "rbf", {"gamma": 5.0})):
        X = datasets.load(name).X
        ref = Reference.compute(X, kernel=kernel, kernel_params=params, n_components=2,
                                test_fraction=0.25, seed=0, eig_max_n=200)
        mistake = LastSign.measure(ref)
        n = len(X)
        # Independently: the eigenvalues of K̃ − 2·mean(K)·11ᵀ, and where the one of the
        # constant vector (its Rayleigh quotient) falls among them.
        wrong = ref.Kc - 2 * ref.K.mean() * np.ones((n, n))
        values = np.sort(np.linalg.eigvalsh(wrong))[::-1]
        constant = np.ones(n) / np.sqrt(n)
        rank = 1 + int(np.sum(values > constant @ wrong @ constant + 1e-9 * abs(values).max()))
        caption = mistake.caption()
        if rank == n:
            assert "Here it is the smallest" in caption, caption
        assert ("not among the 2 leading ones" in caption) == (rank > 2), caption
        assert "-" not in caption.split("= ")[1][:12]  # a true minus sign


def test_mistake_5_says_shrinks_when_every_root_is_below_one():
    """Issue 33: 'the picture grows' where every √μ < 1 (iris, sigmoid)."""
    from lessons.mistakes.experiment import Reference, Scaling

    X = datasets.load("iris").X
    ref = Reference.compute(X, kernel="sigmoid", kernel_params={"gamma": 0.2, "coef0": 1.0},
                            n_components=2, test_fraction=0.25, seed=0, eig_max_n=200)
    mistake = Scaling.measure(ref)
    assert max(mistake.stretch_1, mistake.stretch_2) < 1
    assert "the picture shrinks" in mistake.caption() and "grows" not in mistake.caption()
    ref = Reference.compute(datasets.load("circles").X, kernel="rbf",
                            kernel_params={"gamma": 5.0}, n_components=2, test_fraction=0.25,
                            seed=0, eig_max_n=200)
    assert "the picture grows" in Scaling.measure(ref).caption()
