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
