"""The separability score is scikit-learn's cross-validation, and it asks the right question."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import datasets
from experiments.separability import linear_separability
from kpca_core import KernelPCA


def test_score_is_sklearns_cross_validated_accuracy():
    data = datasets.load("moons", n=200)
    expected = cross_val_score(
        make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=2000)),
        data.X, data.y, cv=StratifiedKFold(5, shuffle=True, random_state=0),
    ).mean()
    assert linear_separability(data.X, data.y) == pytest.approx(expected)


def test_rings_score_low_in_input_space_and_perfect_after_rbf_kpca():
    # The nearest-class-mean rule calls separated rings ~77 %; a linear classifier says 100 %.
    data = datasets.load("circles", n=400)
    assert linear_separability(data.X, data.y) < 0.7
    Z = KernelPCA(2, kernel="rbf", gamma=5.0).fit_transform(data.X)
    assert linear_separability(Z, data.y) == 1.0


def test_no_score_without_classes():
    Z = np.random.default_rng(0).normal(size=(20, 2))
    assert linear_separability(Z, None) is None
    assert linear_separability(Z, np.zeros(20, dtype=int)) is None
    assert linear_separability(Z, np.r_[np.zeros(19, dtype=int), 1]) is None
