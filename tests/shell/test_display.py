"""Projector mode enlarges a copy of each figure and leaves the original alone."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
import pytest
from streamlit.testing.v1 import AppTest

from shell import display
from shell.figures import digit_mosaic, point_scatter
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import decode


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
    # Ten one-character names and the legend's title ("class", on their left) fill one
    # row: the figure grows by that row.
    assert display.legend_rows(["class"] + [str(i) for i in range(10)],
                               display.LEGEND_CHARS) == 1
    assert big.layout.legend.title.side == "left"
    assert big.layout.height == int(display.DEFAULT_HEIGHT + display.FONT * display.LINE_HEIGHT)
    two = point_scatter(Z, y % 2, ["a", "b"], title="t", axis_titles=["x", "y"])
    assert display.for_projector(two).layout.legend.orientation != "h"


def test_one_of_a_pair_fills_the_projectors_screen():
    # The issue: the Explorer's kernel PCA plot was 197 × 240 px in a 593-px column, the
    # chart 400 px tall (its height limits a plot drawn to scale).
    Z = np.random.default_rng(2).normal(size=(100, 2))
    two = point_scatter(Z, np.arange(100) % 2, ["a", "b"], title="t", axis_titles=["x", "y"],
                        height=400)
    alone, paired = display.for_projector(two), display.for_projector(two, columns=2)
    assert alone.layout.height == 400 and alone.layout.legend.orientation != "h"
    assert paired.layout.height == display.PAIR_HEIGHT > 400
    cube = point_scatter(np.eye(3), None, [], title="t", axis_titles=["a", "b", "c"])
    assert display.for_projector(cube, columns=3).layout.height is None  # not a pair


def test_a_legend_below_the_plot_goes_to_the_bottom_edge_clear_of_the_axis_title():
    fig = go.Figure(go.Scatter(x=[1, 2], y=[3, 4], name="a"))
    fig.update_layout(legend=dict(orientation="h", yanchor="top", y=-0.2, x=0))
    big = display.for_projector(fig)
    assert (big.layout.legend.yref, big.layout.legend.y, big.layout.legend.yanchor) == (
        "container", 0, "bottom")
    assert big.layout.legend.title.font.size == display.FONT
    # Half a row each: long names stack, one to a row, and the figure grows by them.
    names = ["kernel PCA, components 1–2", "linear PCA, components 1–2", "your γ = 5"]
    assert display.legend_rows(names, display.LEGEND_CHARS // 2) == 3
    above = go.Figure(go.Scatter(x=[1], y=[1], name="a"))
    above.update_layout(legend=dict(orientation="h", yanchor="bottom", y=1.0))
    assert display.for_projector(above).layout.legend.y == 1.0  # above the plot: kept


def test_titles_wrap_to_their_chart_and_subtitles_become_readable():
    long = "Projections on the first 200 points: eigh, sorted (left) vs eig as returned (right)"
    lines, subtitle = display.projector_title(long, display.TITLE_CHARS)
    assert len(lines) == 2 and all(len(line) <= display.TITLE_CHARS for line in lines)
    assert " ".join(lines) == long and subtitle is None
    assert abs(len(lines[0]) - len(lines[1])) <= 10  # balanced, not a word left alone
    assert display.title_width(2) < display.TITLE_CHARS // 2
    fig = go.Figure(go.Scatter(x=[1], y=[1]), layout=dict(title="Kernel PCA<br><sup>RBF</sup>"))
    big = display.for_projector(fig)
    assert big.layout.title.text == "Kernel PCA"
    assert big.layout.title.subtitle.text == "RBF"
    assert big.layout.title.subtitle.font.size == display.SUBTITLE_FONT
    _, subtitle = display.projector_title(
        "Kernel PCA<br><span style='font-size:13px'>RBF (Gaussian), γ = 5</span>", 64)
    assert subtitle == "RBF (Gaussian), γ = 5"
    # Half a row: a shorter line; the top margin holds the title's lines.
    fig = go.Figure(go.Scatter(x=[1], y=[1]), layout=dict(title="Largest principal angle "
                                                                 "against m or D"))
    big = display.for_projector(fig, columns=2)
    assert big.layout.title.text.count("<br>") == 1
    assert big.layout.margin.t >= 2 * display.TITLE_FONT * display.LINE_HEIGHT


def test_subplot_titles_get_room_between_the_title_and_the_plot():
    from plotly.subplots import make_subplots

    fig = make_subplots(rows=1, cols=2, subplot_titles=["y1<br>λ = 3", "y2<br>λ = 1"])
    fig.update_layout(title="Maps<br><sup>RBF</sup>", margin=dict(t=50))
    big = display.for_projector(fig)
    title = display.TITLE_FONT * display.LINE_HEIGHT + display.SUBTITLE_FONT * (
        display.SUBTITLE_GAP)
    assert big.layout.margin.t >= title + 2 * display.FONT * display.LINE_HEIGHT
    assert (big.layout.title.yref, big.layout.title.y, big.layout.title.yanchor) == (
        "container", 1, "top")


def test_digits_grow_taller_in_projector_mode_and_charts_keep_their_height():
    images = np.random.default_rng(3).uniform(-1, 1, size=(8, 16 * 16))
    digits = digit_mosaic(images, (16, 16), columns=8, hover_labels=["d"] * 8, title="digits")
    digits.update_layout(height=260, margin=dict(t=60))
    big = display.for_projector(digits)
    # The images get IMAGE_SCALE times their height; the title its own room on top.
    assert big.layout.height == int((260 - 60) * display.IMAGE_SCALE + big.layout.margin.t)
    scatter = point_scatter(np.zeros((3, 2)), None, [], title="t", axis_titles=["x", "y"],
                            height=400)
    assert display.for_projector(scatter).layout.height == 400  # to scale, but not an image
    # A square kernel matrix already fills its column's width: more height would only
    # add space around it (the Explorer's K beside K̃).
    matrix = go.Figure(go.Heatmap(z=np.eye(50)))
    matrix.update_layout(height=400, xaxis=dict(range=[-0.5, 49.5]),
                         yaxis=dict(scaleanchor="x", range=[49.5, -0.5]))
    assert display.for_projector(matrix).layout.height == 400


def test_projector_mode_keeps_the_numbers_and_hides_the_prose():
    # The Explorer's separability score is the number tour step 1 points at: written as
    # body text in projector mode; the prose captions stay captions, which its CSS hides.
    score = "Cross-validated accuracy of a linear classifier on components 1 and 2"
    plain = open_app("explorer", {"n": 100})
    assert any(score in c.value for c in plain.caption)
    projector = open_app("explorer", {"n": 100, "projector": 1})
    assert_clean(projector)
    assert not any(score in c.value for c in projector.caption)
    assert any(score in m.value for m in projector.markdown)
    assert any("Drag a lasso" in c.value for c in projector.caption)  # prose: hidden by CSS
    css = "".join(m.value for m in projector.get("html"))
    assert '[data-testid="stCaptionContainer"] { display: none; }' in css


def _sidebar_script():
    import streamlit as st

    from shell.display import initial_sidebar_state

    st.write(initial_sidebar_state())


@pytest.mark.parametrize(("query", "state"), [({"projector": "1"}, "collapsed"),
                                               ({"projector": "0"}, "auto"), ({}, "auto")])
def test_a_projector_link_opens_with_the_sidebar_collapsed(query, state):
    at = AppTest.from_function(_sidebar_script)
    at.query_params = query
    assert at.run().markdown[0].value == state


@pytest.mark.parametrize("sidebar_open", [False, True])
def test_a_pair_sits_side_by_side_on_a_1280_px_projector(sidebar_open):
    content = display.projector_content_px(1280, sidebar_open=sidebar_open)
    assert display.pair_fits(content, display.PROJECTOR_ROOT_PX)
    # Streamlit's own wide-layout margins (5 rem a side) at the projector's font would not
    # leave the room with the sidebar open: the projector margins are what keeps the pair.
    streamlit_margins = 1280 - display.SIDEBAR_PX - 2 * 5 * display.PROJECTOR_ROOT_PX
    assert not display.pair_fits(streamlit_margins, display.PROJECTOR_ROOT_PX)


def test_a_pair_stacks_on_a_phone():
    # 390 px wide, Streamlit's 1 rem margins at its 16-px root font.
    assert not display.pair_fits(390 - 2 * 16, 16)
    assert display.pair_fits(1280 - 2 * 5 * 16, 16)  # a laptop, sidebar closed


def test_touch_screens_get_charts_a_swipe_scrolls_past():
    fig = point_scatter(np.zeros((3, 2)), None, [], title="t", axis_titles=["x", "y"])
    fig.update_layout(dragmode="lasso")
    touch = display.for_touch(fig)
    assert touch.layout.dragmode is False
    assert fig.layout.dragmode == "lasso"  # the caller's figure is left as it was


def test_a_3d_scene_takes_a_finger_only_when_asked():
    cube = point_scatter(np.eye(3), None, [], title="t", axis_titles=["x", "y", "z"])
    flat = point_scatter(np.eye(2), None, [], title="t", axis_titles=["x", "y"])
    assert display.is_3d(cube) and not display.is_3d(flat)
    assert display.for_touch(cube).layout.scene.dragmode is False
    assert display.for_touch(cube, turn=True).layout.scene.dragmode == "orbit"
    assert display.for_touch(flat, turn=True).layout.dragmode is False  # no scene to turn
    # On a phone the legend goes under the scene, which gets the width, and the chart is
    # no taller than that width needs; a shorter one keeps its height, a 2-D one its legend.
    cube.update_layout(height=520)
    touch = display.for_touch(cube)
    assert touch.layout.height == display.TOUCH_3D_HEIGHT < 520
    assert touch.layout.legend.orientation == "h" and touch.layout.legend.y == 0
    cube.update_layout(height=300)
    assert display.for_touch(cube).layout.height == 300
    assert display.for_touch(flat).layout.legend.orientation is None


@pytest.mark.parametrize(("key", "css_class"), [
    ("lift_3d", "st-key-lift_3d"), ("chart kpca", "st-key-chart-kpca"),
    (" motion.γ ", "st-key-motion--"),
])
def test_the_still_scene_rule_names_the_class_streamlit_gives_the_key(key, css_class):
    # Streamlit's frontend: "st-key-" + key.trim(), each character outside [A-Za-z0-9_-]
    # a hyphen (one per UTF-16 unit; γ is one).
    assert display.still_scene_css(key) == f".{css_class} .gl-container {{ pointer-events: none; }}"


def test_charts_in_a_row_keep_their_plots_level_when_one_title_wraps():
    # One eigenproblem's pair: "K̃ = J K J, what kernel PCA decomposes" wraps to two lines
    # beside a one-line "K of Kernel PCA", and its heatmap sat a line lower.
    short, long_ = (go.Figure(go.Heatmap(z=[[1]]), layout=dict(title=text))
                    for text in ("K of Kernel PCA", "K̃ = J K J, what kernel PCA decomposes"))
    left, right = (display.for_projector(f, columns=2) for f in (short, long_))
    assert right.layout.title.text.count("<br>") == 1
    assert left.layout.margin.t == right.layout.margin.t
    alone = display.for_projector(short)
    assert alone.layout.margin.t < left.layout.margin.t  # alone, no room is kept


def test_log_axes_and_a_motion_slider_read_from_the_back_of_the_hall():
    fig = go.Figure(go.Scatter(x=[0.01, 1000], y=[1, 2]))
    fig.update_xaxes(type="log", dtick=1, exponentformat="power")
    fig.update_layout(sliders=[dict(font=dict(size=12), steps=[dict(label="1")])],
                      updatemenus=[dict(type="buttons", buttons=[dict(label="▶ Play")])])
    big = display.for_projector(fig)
    # Powers of ten drew their exponents at 70 % of the tick font: plain numbers instead.
    assert big.layout.xaxis.exponentformat == "none" and big.layout.xaxis.tickformat == "~g"
    assert big.layout.yaxis.tickformat is None  # a linear axis keeps its labels
    assert big.layout.sliders[0].font.size == display.TICK_FONT > 12
    assert big.layout.updatemenus[0].font.size == display.TICK_FONT
    assert fig.layout.xaxis.exponentformat == "power"  # the original is kept


def test_a_pair_beside_a_pinned_column_keeps_its_plot_and_fits_the_screen():
    # The tour's prompt pinned beside the view (issue 35) narrows a pair's charts: a side
    # legend would take a third of such a chart's width from a plot drawn to scale, so it
    # goes below; a chart taller than the screen's room is brought down to it.
    Z = np.random.default_rng(2).normal(size=(100, 2))
    two = point_scatter(Z, np.arange(100) % 2, ["a", "b"], title="t", axis_titles=["x", "y"])
    wide = display.for_projector(two, columns=2)
    narrow = display.for_projector(two, columns=2, share=0.75)
    assert wide.layout.legend.orientation != "h"
    assert narrow.layout.legend.orientation == "h" and narrow.layout.legend.y == 0
    assert wide.layout.height == display.PAIR_HEIGHT <= display.SCREEN_ROOM_PX
    tall = point_scatter(Z, None, [], title="t", axis_titles=["x", "y"], height=900)
    assert display.for_projector(tall).layout.height == 900  # the page scrolls to it
    assert display.for_projector(tall, share=0.75).layout.height == display.SCREEN_ROOM_PX
    # Titles wrap to the narrower chart.
    assert display.title_width(2, 0.75) < display.title_width(2)
