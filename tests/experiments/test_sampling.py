"""experiments.sampling: the rows a page computes on when the data are too large."""

from __future__ import annotations

import numpy as np

from experiments.sampling import sample_rows, stratified_rows


def test_all_rows_up_to_the_limit_else_a_sorted_seeded_sample():
    np.testing.assert_array_equal(sample_rows(5, 10), np.arange(5))
    rows = sample_rows(1000, 100, seed=3)
    assert len(rows) == 100 and len(np.unique(rows)) == 100 and (np.diff(rows) > 0).all()
    assert rows.max() < 1000
    np.testing.assert_array_equal(rows, sample_rows(1000, 100, seed=3))
    assert not np.array_equal(rows, sample_rows(1000, 100, seed=4))


def test_stratified_rows_keep_each_class_share():
    y = np.repeat([0, 1, 2], [600, 300, 100])
    rows = stratified_rows(1000, y, limit=500)
    assert len(rows) == 500 and len(np.unique(rows)) == 500
    np.testing.assert_array_equal(np.bincount(y[rows]), [300, 150, 50])
    np.testing.assert_array_equal(stratified_rows(100, None, limit=500), np.arange(100))
    # A rare class keeps at least one row.
    y = np.repeat([0, 1], [999, 1])
    assert 1 in y[stratified_rows(1000, y, limit=10)]
