"""The shell's shared words in zh-CN (issue 37): a chart's text alternative ends its
sentences with 。 and no space, a link's page number refused in whole sentences; the
English as it was."""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots

from shell.chart_text import describe, plain
from shell.figures import point_scatter
from shell.state import parse_page_number
from tests.support.page_language import numbers
from words import i18n


def test_a_titles_lines_end_as_sentences_of_the_runs_language():
    rich = "核矩阵 K（γ = 5）。<br><sup>对角线为 1 &amp; 对称</sup>"
    assert plain("Title.<br><sup>small &amp; note</sup>") == "Title. small & note"
    with i18n.use_language("zh-CN"):
        assert plain(rich) == "核矩阵 K（γ = 5）。对角线为 1 & 对称"
        assert plain("Title<br>note") == "Title。note"


def test_a_charts_text_alternative_in_chinese_has_no_gap_after_its_full_stops():
    Z = np.array([[-1.5, 0.25], [2.0, -0.5], [0.125, 3.0], [0.5, 1.0], [-0.75, 2.5]])
    y = np.array([0, 0, 0, 1, 1])
    panels = make_subplots(1, 2, subplot_titles=["K", "K̃"])
    panels.add_trace(go.Heatmap(z=np.eye(3), name="K"), 1, 1)
    panels.add_trace(go.Heatmap(z=-np.arange(6.0).reshape(2, 3), name="K̃"), 1, 2)
    texts = {}
    for code in ("en", "zh-CN"):
        with i18n.use_language(code):
            scatter = point_scatter(Z, y, ["inner", "outer"], title="核 PCA<br>第二行",
                                    axis_titles=["component 1", "component 2"])
            texts[code] = (describe(scatter), describe(panels))
    en_scatter, en_panels = texts["en"]
    zh_scatter, zh_panels = texts["zh-CN"]
    assert en_scatter.startswith("Chart: 核 PCA. 第二行. inner: 3 points")
    assert "Labels on the chart: K; K̃." in en_panels
    assert zh_scatter.startswith("图表：核 PCA。第二行。")
    assert "。 " not in zh_scatter and "。 " not in zh_panels and ". " not in zh_panels
    assert "K；K̃。" in zh_panels
    assert numbers(zh_scatter) == numbers(en_scatter)
    assert numbers(zh_panels) == numbers(en_panels)


def test_a_links_page_number_is_refused_in_whole_sentences():
    sentences = dict(
        not_a_number=i18n.N_("`step=`{value} is not a step number; starting at step 1."),
        out_of_range=i18n.N_("The tour has steps 1 to {count}, not {value}; starting at "
                             "step 1."))
    assert parse_page_number("3", count=12, **sentences) == (3, None)
    assert parse_page_number("x", count=12, **sentences) == (
        1, "`step=`“x” is not a step number; starting at step 1.")
    assert parse_page_number("99", count=12, **sentences) == (
        1, "The tour has steps 1 to 12, not 99; starting at step 1.")
    with i18n.use_language("zh-CN"):
        number, problem = parse_page_number("99", count=12, **sentences)
        assert number == 1 and "99" in problem and "12" in problem
        assert "The tour" not in problem and "starting" not in problem
        number, problem = parse_page_number("x", count=12, **sentences)
        assert number == 1 and "`step=`“x”" in problem and "is not" not in problem
