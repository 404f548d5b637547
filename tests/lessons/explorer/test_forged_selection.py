"""A selection is browser input: a made-up one highlights nothing instead of failing
(issue 34: crafted Explorer selections gave tracebacks)."""

from __future__ import annotations

import math

import numpy as np
import pytest

from lessons.explorer.charts import MAX_ROW, selected_indices
from shell.figures import faded, point_scatter


@pytest.mark.parametrize("points", [None, "x", 5, {"customdata": 1}, [1, 2], ["a"], [None]])
def test_anything_but_a_list_of_points_selects_nothing(points):
    assert selected_indices(points) == []


@pytest.mark.parametrize("customdata", ["abc", math.nan, math.inf, -5, True, 2.5, [[1]],
                                         [], {"a": 1}, MAX_ROW + 1, 10**30, None])
def test_a_point_whose_customdata_is_not_a_row_number_is_left_out(customdata):
    assert selected_indices([{"customdata": customdata}, {"customdata": 3}]) == [3]


def test_row_numbers_as_plotly_sends_them_are_kept():
    points = [{"customdata": 4}, {"customdata": [7]}, {"customdata": 2.0}, {"customdata": 4}]
    assert selected_indices(points) == [2, 4, 7]


def test_rows_beyond_the_data_highlight_nothing():
    Z = np.zeros((5, 2))
    fig = point_scatter(Z, np.zeros(5, dtype=int), ["a"], title="t", axis_titles=("x", "y"),
                        highlight=[1, 10**6, -3])
    colours = list(fig.data[0].marker.color)
    assert colours.count(faded(colours[1])) == 4 and colours[1] != faded(colours[1])
