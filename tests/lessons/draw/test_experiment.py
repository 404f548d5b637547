"""The Draw page's pure parts: the CSV of a drawing reads back through the upload's loader,
and the separability sentence says what its two numbers show, whichever way they go."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from datasets import drawn
from lessons.draw.experiment import Separation, points_csv, separation_sentence


def test_the_drawing_as_csv_is_what_the_upload_reads_back():
    X, y = drawn.preset("spiral")
    text = points_csv(X, y)
    assert datasets.guess_label_column(text.encode()) == "class"
    data = datasets.load_csv(text.encode(), label_column="class")
    np.testing.assert_array_equal(data.X, X)  # repr: every bit
    names = [data.target_names[label] for label in data.y]
    assert names == [drawn.CLASS_NAMES[label] for label in y]


@pytest.mark.parametrize("kpca, pca, verdict", [
    (1.0, 0.43, "Kernel PCA has made your classes more linearly separable."),
    (0.55, 0.87, "Linear PCA separates them better here"),
    (0.97, 1.0, "Both separate them"),
    (0.6, 0.58, "Neither separates them much better"),
])
def test_the_sentence_follows_the_scores(kpca, pca, verdict):
    sentence = separation_sentence(Separation(kpca, pca))
    assert f"{kpca:.0%} accuracy on kernel PCA's first two components and {pca:.0%}" in sentence
    assert verdict in sentence


def test_no_sentence_without_two_scored_classes():
    assert separation_sentence(Separation(None, 0.5)) is None
    assert separation_sentence(Separation(0.5, None)) is None
