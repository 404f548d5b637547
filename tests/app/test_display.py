"""Projector mode enlarges a copy of each figure and leaves the original alone."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from tests.app.plotly_json import decode
from ui import display
from ui.figures import point_scatter


def test_projector_figure_is_larger_and_the_original_is_untouched():
    Z = np.random.default_rng(0).normal(size=(30, 2))
    y = np.repeat([0, 1, 2], 10)
    original = point_scatter(Z, y, ["a", "b", "c"], title="t", axis_titles=["x", "y"])
    before = original.to_plotly_json()
    big = display.for_projector(original)
    assert original.to_plotly_json() == before
    assert big.layout.font.size == display.FONT
    assert big.layout.xaxis.title.font.size == display.FONT
    sizes = [trace.marker.size for trace in big.data]
    assert sizes == [original.data[0].marker.size * display.MARKER_SCALE] * 3
    # Same numbers (plotly's copy keeps arrays in the typed-array form the browser reads).
    np.testing.assert_array_equal(decode(big.to_plotly_json()["data"][0]["x"]),
                                  decode(original.to_plotly_json()["data"][0]["x"]))


def test_lines_get_thicker_and_3d_titles_grow():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], mode="lines"))
    assert display.for_projector(fig).data[0].line.width >= display.MIN_LINE_WIDTH
    Z = np.random.default_rng(1).normal(size=(10, 3))
    cube = point_scatter(Z, None, [], title="t", axis_titles=["a", "b", "c"])
    big = display.for_projector(cube)
    assert big.layout.scene.xaxis.title.font.size == display.FONT


def test_a_long_legend_moves_below_the_plot_instead_of_scrolling():
    Z = np.random.default_rng(2).normal(size=(100, 2))
    y = np.arange(100) % 10
    ten = point_scatter(Z, y, [str(i) for i in range(10)], title="t", axis_titles=["x", "y"])
    big = display.for_projector(ten)
    assert big.layout.legend.orientation == "h"
    assert big.layout.height == int(display.DEFAULT_HEIGHT * 1.3)
    two = point_scatter(Z, y % 2, ["a", "b"], title="t", axis_titles=["x", "y"])
    assert display.for_projector(two).layout.legend.orientation != "h"
