"""A chart's text alternative (shell.chart_text) states what the figure's data show, and
the mode bar keeps few buttons (shell.charts.chart_config)."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from plotly.subplots import make_subplots

from shell import charts
from shell.chart_text import LISTED_VALUES, describe, number, plain
from shell.figures import plot_text, point_scatter


def test_scatter_gives_title_axes_and_each_class_count_and_range():
    Z = np.array([[-1.5, 0.25], [2.0, -0.5], [0.125, 3.0], [0.5, 1.0], [-0.75, 2.5]])
    y = np.array([0, 0, 0, 1, 1])
    fig = point_scatter(Z, y, ["inner", "outer"], title="Kernel PCA (γ = 5)",
                        axis_titles=["component 1", "component 2"])
    text = describe(fig)
    assert text.startswith("Chart: Kernel PCA (γ = 5).")
    assert "inner: 3 points, x (component 1) −1.5 to 2, y (component 2) −0.5 to 3." in text
    assert "outer: 2 points, x (component 1) −0.75 to 0.5, y (component 2) 1 to 2.5." in text


def test_other_data_other_numbers():
    # The same builder at other data: the sentence follows the data, nothing is fixed.
    Z = np.array([[10.0, -20.0], [30.0, 40.0]])
    text = describe(point_scatter(Z, None, [], title="t", axis_titles=["a", "b"]))
    assert "2 points, x (a) 10 to 30, y (b) −20 to 40" in text


def test_short_series_are_read_out_and_long_ones_summarised():
    fig = go.Figure(go.Bar(x=[1, 2, 3], y=[0.5, 0.25, 1e-5], name="eigenvalues"))
    fig.update_layout(title="Spectrum", xaxis_title="k", yaxis_title="λ")
    assert describe(fig) == (
        "Chart: Spectrum. eigenvalues (bars, y (λ) against x (k)): 1: 0.5, 2: 0.25, "
        "3: 1 × 10^−5."
    )
    values = np.linspace(1.0, 0.0, LISTED_VALUES + 1)
    long = go.Figure(go.Scatter(y=values, mode="lines", name="error"))
    assert f"error (line, y against x): {LISTED_VALUES + 1} values from 0 to 1, first 1, " \
           "last 0." in describe(long)


def test_heatmaps_in_panels_give_their_size_and_value_range():
    fig = make_subplots(1, 2, subplot_titles=["K", "K̃"])
    fig.add_trace(go.Heatmap(z=np.eye(3), name="K"), 1, 1)
    fig.add_trace(go.Heatmap(z=-np.arange(6.0).reshape(2, 3), name="K̃"), 1, 2)
    text = describe(fig)
    assert "Labels on the chart: K; K̃." in text
    assert "K: a 3 × 3 grid, values from 0 to 1." in text
    assert "K̃: a 2 × 3 grid, values from −5 to 0." in text  # no "−0"


def test_hidden_series_are_left_out_and_uploaded_names_read_as_typed():
    fig = go.Figure([go.Scatter(x=[0, 1], y=[0, 1], mode="markers", name=plot_text("<b>a&b")),
                     go.Scatter(x=[5], y=[5], mode="markers", name="gone", visible=False)])
    text = describe(fig)
    assert "<b>a&b: 2 points" in text and "gone" not in text


@pytest.mark.parametrize(("value", "text"), [
    (0.5123, "0.512"), (-2.0, "−2"), (1234.0, "1.23 × 10^3"), (-0.0, "0"), (float("inf"), "∞"),
])
def test_numbers_read_as_the_ticks_show_them(value, text):
    assert number(value) == text


def test_plain_reads_rich_text():
    assert plain("Title<br><sup>small &amp; note</sup>") == "Title. small & note"


def test_mode_bar_keeps_few_buttons():
    still = charts.chart_config("x")["modeBarButtonsToRemove"]
    selectable = charts.chart_config("x", selectable=True)["modeBarButtonsToRemove"]
    for button in ("zoomIn2d", "zoomOut2d", "autoScale2d", "pan2d", "pan3d"):
        assert button in still and button in selectable
    assert {"zoom2d", "select2d", "lasso2d"} <= set(still)
    assert not {"zoom2d", "select2d", "lasso2d"} & set(selectable)
    assert "toImage" not in still and "resetScale2d" not in still
