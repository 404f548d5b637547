"""The Explorer's first screen for the offline lecture (lessons/explorer/pack.py): the page's
own figures, drawn on at most SHOWN_POINTS points and K, K̃ binned to at most HEATMAP_SIDE
cells a side, with every number computed on all the points and the sampling said."""

from __future__ import annotations

from dataclasses import replace
from types import SimpleNamespace

import numpy as np
import pytest

from experiments.analysis import analyse
from experiments.separability import linear_separability
from lessons.common.pack import HEATMAP_SIDE, SHOWN_POINTS
from lessons.explorer import pack
from shell.state import default_settings

N = 900  # more than the file draws
SETTINGS = replace(default_settings("circles"), kernel="rbf", gamma=2.0, n_components=2)


@pytest.fixture(scope="module")
def blobs():
    rng = np.random.default_rng(3)
    y = np.repeat([0, 1], [600, 300])
    X = rng.normal(size=(N, 2)) + np.where(y[:, None] == 1, 3.0, 0.0)
    data = SimpleNamespace(target_names=("left", "right"), image_shape=None, y=y)
    return X, y, data


def test_the_projections_draw_a_stratified_sample_each_point_at_its_row(blobs):
    X, y, data = blobs
    (frame,) = pack.frames(X, y, data, [SETTINGS])
    figures = dict(frame.figures)
    assert list(figures) == ["kpca", "pca", "spectrum"]  # K and K̃ only in their section
    result = analyse(X, y, kernel="rbf", kernel_params={"gamma": 2.0}, n_components=2)
    for name, Z in (("kpca", result.projection), ("pca", result.pca_projection)):
        traces = figures[name].data
        rows = np.concatenate([t.customdata for t in traces])
        assert len(rows) == len(set(rows)) == SHOWN_POINTS
        # Each class keeps its share: 2 to 1.
        assert [len(t.customdata) for t in traces] == [400, 200]
        drawn = np.column_stack([np.concatenate([t.x for t in traces]),
                                 np.concatenate([t.y for t in traces])])
        np.testing.assert_allclose(drawn, Z[rows, :2], rtol=1e-6, atol=1e-6)
    # The numbers and the caption are of all N points; the sample is said.
    assert frame.numbers["separability"] == linear_separability(result.projection[:, :2], y)
    assert ("The charts draw a stratified sample of 600 of the 900 points; every number and "
            "sentence is computed on all of them.") in frame.sentences
    assert frame.sentences[0].startswith("**Cross-validated accuracy")


def test_k_and_k_tilde_in_their_section_binned_and_said_in_their_titles(blobs):
    X, y, data = blobs
    (frame,) = pack.frames(X, y, data, [SETTINGS], section=pack.KERNEL_SECTION)
    figures = dict(frame.figures)
    assert list(figures) == ["kpca", "pca", "K", "Kc", "spectrum"]
    for name in ("K", "Kc"):
        (heat,) = figures[name].data
        assert np.asarray(heat.z).shape[0] <= HEATMAP_SIDE
        assert f"({np.asarray(heat.z).shape[0]} × " in figures[name].layout.title.text
        assert "blocks)" in figures[name].layout.title.text
    assert any(s.startswith("Rows and columns sorted by class.") for s in frame.sentences)


def test_a_small_data_set_is_drawn_whole_and_says_nothing_of_a_sample(blobs):
    X, y, data = blobs
    keep = np.r_[0:200, 600:700]
    (frame,) = pack.frames(X[keep], y[keep], data, [SETTINGS])
    assert sum(len(t.x) for t in dict(frame.figures)["kpca"].data) == len(keep)
    assert not any("stratified sample" in s for s in frame.sentences)
