"""The class names the app gives its built-in data sets ("outer circle", "segment 1",
"ring r=0.25"…) are shown in the session's language where a figure draws them (legend,
hover), and stay English in what leaves the app (CSV exports, the reproduce script).
A drawing's "class A" is the app's name too. An upload's and the data's own names (iris's
species, the digits) pass through as they are (issue 37)."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from datasets import drawn
from experiments.reproduce import explorer_script
from shell import figures
from shell.exports import projections_csv
from words import i18n

ZH = {"circles": ("外圈", "内圈"), "moons": ("上方月牙", "下方月牙"),
      "swiss_roll": tuple(f"第 {k} 段" for k in range(1, 7)),
      "s_curve": tuple(f"第 {k} 段" for k in range(1, 7)),
      "scholkopf_toy": ("簇 1", "簇 2", "簇 3"),
      "four_classes": ("圆环 r=0.25", "圆环 r=0.5", "圆环 r=0.75", "圆环 r=1")}


# The data sets a loader makes (a drawing's classes are named by the Draw page's editor).
LOADED = sorted(set(datasets.CLASS_NAMES) - {"drawn"})


@pytest.mark.parametrize("name", LOADED)
def test_each_built_in_data_sets_class_names_are_the_loaders(name):
    data = datasets.load(name, n=60) if name != "four_classes" else datasets.load(name, n=40)
    assert data.target_names == datasets.CLASS_NAMES[name]


@pytest.mark.parametrize("name", LOADED)
def test_a_figure_names_a_built_in_data_sets_classes_in_the_runs_language(name):
    data = datasets.load(name, n=60)
    Z = data.X[:, :2]
    english = figures.point_scatter(Z, data.y, data.target_names, title="t",
                                    axis_titles=["a", "b"])
    assert [t.name for t in english.data] == list(datasets.CLASS_NAMES[name])
    with i18n.use_language("zh-CN"):
        chinese = figures.point_scatter(Z, data.y, data.target_names, title="t",
                                        axis_titles=["a", "b"])
        assert figures.class_label(data.target_names, 0, data.y) == data.target_names[0]
    assert [t.name for t in chinese.data] == list(ZH[name])
    for trace, shown in zip(chinese.data, ZH[name], strict=True):
        assert f"类别: {shown}" in trace.hovertemplate or f"类别：{shown}" in trace.hovertemplate
    # The same numbers drawn.
    for en, zh in zip(english.data, chinese.data, strict=True):
        np.testing.assert_array_equal(en.x, zh.x)
        np.testing.assert_array_equal(en.customdata, zh.customdata)


def test_names_the_app_did_not_give_pass_through_unchanged():
    y = np.array([0, 1, 1, 0])
    with i18n.use_language("zh-CN"):
        # An upload of the circles' export: its labels come sorted, as the app reads a CSV
        # file, so they are the upload's names, not the built-in data set's.
        upload = datasets.load_csv(b"x,y,kind\n0,0,outer circle\n1,1,inner circle\n"
                                   b"2,0,outer circle\n0,2,inner circle\n", label_column="kind")
        assert upload.target_names == ("inner circle", "outer circle")
        assert [figures.class_name(upload.target_names, c, upload.y) for c in (0, 1)] == \
            ["inner circle", "outer circle"]
        # A drawing's classes are the app's names, as the editor's buttons say them.
        assert [figures.class_name(drawn.CLASS_NAMES, c, y) for c in (0, 1)] == \
            ["类别 A", "类别 B"]
        assert figures.class_label(drawn.CLASS_NAMES, 0, y) == "class A"
        # Iris's species, the digits.
        iris = datasets.load("iris")
        assert [figures.class_name(iris.target_names, c, iris.y) for c in (0, 1, 2)] == \
            ["setosa", "versicolor", "virginica"]
        assert figures.class_name(tuple(str(d) for d in range(10)), 3, y) == "3"
        # Only a whole built-in tuple is translated: one of its names among others is not.
        assert figures.class_name(("outer circle", "something else"), 0, y) == "outer circle"
        # Data without labels: one "class", the app's words.
        assert figures.class_name((), 0, None) == "全部点"
        assert figures.shown_class_label((), 0, None) == "全部点"
        assert figures.class_label((), 0, None) == "all points"
    assert figures.class_name((), 0, None) == "all points"


def test_what_leaves_the_app_keeps_the_english_class_names():
    data = datasets.load("circles", n=40)
    Z = data.X[:, :2]
    with i18n.use_language("zh-CN"):
        csv = projections_csv(Z, None, data.y, data.target_names)
        script = explorer_script(dataset="circles", options={"n": 40}, kernel="rbf",
                                 kernel_params={"gamma": 5.0}, n_components=2)
    assert "outer circle" in csv and "inner circle" in csv and "外圈" not in csv
    assert "outer circle" in script and "外圈" not in script
