"""Names from an uploaded file (its columns, its classes, the file's own name) are shown as
text everywhere: never Markdown (links, images, bold), never Plotly's HTML subset, and
never a formula in a CSV download (issue 27). Values read off AppTest and the exports.
"""

from __future__ import annotations

import csv
import io
import json
import re

import numpy as np

from shell import exports, state
from tests.lessons.explorer.sections import KERNEL_TAB, SPECTRUM_TAB, TAKE_HOME_TAB, open_section
from tests.support.apptest import assert_clean, open_app
from tests.support.markdown import as_read, unescaped
from tests.support.plotly_json import chart_specs

LINK, IMAGE, BOLD, FORMULA, COMMAND = "[x](http://evil)", "<img src=x>", "**bold**", "=1+1", "-cmd"
CLASSES = (LINK, IMAGE, BOLD, COMMAND)
FILE_NAME = "[exam](http://evil.example).csv"


def hostile_csv(n: int = 48) -> bytes:
    """Two numeric columns named like a formula and a link; four classes named to attack."""
    rng = np.random.default_rng(27)
    rows = [f"{a:.4f},{b:.4f},{CLASSES[i % 4]}"
            for i, (a, b) in enumerate(rng.normal(size=(n, 2)) + np.repeat(
                [[0, 0], [4, 0], [0, 4], [4, 4]], n // 4, axis=0))]
    return (f"{FORMULA},{LINK},kind\n" + "\n".join(rows) + "\n").encode()


def upload(page: str):
    at = open_app(page, {"kernel": "rbf", "gamma": 0.5})
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value((FILE_NAME, hostile_csv(), "text/csv")).run()
    assert at.selectbox(key="w_csv_label").value == "kind"  # the only text column
    return at


def markdown_bodies(at) -> list[str]:
    """Every text Streamlit renders as Markdown: bodies, captions, alerts, widget labels."""
    bodies = [e.value for kind in ("markdown", "caption", "info", "warning", "error",
                                   "success", "title", "header", "subheader")
              for e in at.get(kind)]
    bodies += [w.label for kind in ("number_input", "selectbox", "checkbox", "slider",
                                    "select_slider", "radio", "button") for w in at.get(kind)]
    bodies += [w.label for w in at.sidebar.get("selectbox") + at.sidebar.get("checkbox")]
    return bodies + [e.value for e in at.sidebar.get("caption") + at.sidebar.get("error")]


def assert_names_are_text(at) -> None:
    assert_clean(at)
    for body in markdown_bodies(at):
        markup = unescaped(body)
        for opened in ("](", "<img", BOLD):
            assert opened not in markup, (opened, body)
        # GFM finds literal autolinks after escapes are resolved: none may be left whole.
        assert "http://" not in re.sub(r"\\(.)", r"\1", body), body
    texts = []

    def strings(node):
        if isinstance(node, dict):
            for value in node.values():
                strings(value)
        elif isinstance(node, list):
            for value in node:
                strings(value)
        elif isinstance(node, str):
            texts.append(node)

    for spec in chart_specs(at):
        strings(spec)
    for text in texts:  # Plotly's HTML subset: no tag from the file survives as a tag
        assert "<img" not in text and "<a " not in text, text
    return texts


def test_the_explorer_shows_every_name_from_the_upload_as_text():
    at = upload("explorer")
    texts = assert_names_are_text(at)
    assert "&lt;img src=x&gt;" in texts  # a legend entry, shown as typed
    assert "=1+1" in texts  # the formula-like column names an axis, as text
    shown = " ".join(as_read(c.value) for c in at.sidebar.caption)
    assert f"On screen: **{FILE_NAME}**" in shown
    for section in (KERNEL_TAB, SPECTRUM_TAB, TAKE_HOME_TAB):
        assert_names_are_text(open_section(at, section))


def test_other_pages_show_the_names_as_text():
    at = upload("new_points")
    assert_names_are_text(at)
    table = next(t.value for t in at.dataframe if "class" in t.value.columns)
    assert set(table["class"]) <= set(CLASSES)  # a table shows names exactly, as text
    labels = [as_read(w.label) for w in at.number_input]
    assert labels[:2] == [FORMULA, LINK]
    for page in ("component_maps", "classification", "choosing_gamma", "how_it_works",
                 "kernel_trick", "scale"):
        at.switch_page(f"app_pages/{page}.py").run()
        assert_names_are_text(at)


def test_exports_write_formula_like_names_as_text():
    names = (FORMULA, COMMAND, "@SUM(A1)", "+x1", "\tx", "\rx", LINK, "setosa", "-1.5", "+2")
    Z = np.arange(len(names) * 2, dtype=float).reshape(-1, 2) - 3.5
    text = exports.projections_csv(Z, None, np.arange(len(names)), names)
    rows = list(csv.reader(io.StringIO(text, newline="")))
    classes = [row[1] for row in rows[1:]]
    assert classes == ["'=1+1", "'-cmd", "'@SUM(A1)", "'+x1", "'\tx", "'\rx", LINK, "setosa",
                       "-1.5", "+2"]
    # Numbers, negative ones included, are written as numbers.
    np.testing.assert_array_equal([[float(v) for v in row[2:]] for row in rows[1:]], Z)
    assert rows[0] == ["point", "class", "kpca_1", "kpca_2"]


def test_a_file_refused_for_its_name_and_cells_shows_them_as_text():
    at = open_app("explorer")
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    bad = f"a,b\n1,2\n{LINK},4\n5,6\n".encode()  # a stray text cell: quoted in the refusal
    at.file_uploader(key="upload_csv").set_value((IMAGE + ".csv", bad, "text/csv")).run()
    assert not at.exception
    (error,) = [e.value for e in at.sidebar.error]
    assert LINK in as_read(error) and IMAGE in as_read(error)
    assert "](" not in unescaped(error) and "<img" not in unescaped(error)
    assert json.dumps(error)  # one plain string
