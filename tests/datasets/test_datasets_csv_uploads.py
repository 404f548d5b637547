"""An upload is parsed once per file, keyed by its content: check_csv says what the sidebar
needs, UploadReader remembers checks, refusals and the last load across reruns."""

from __future__ import annotations

import re
import sys

import pytest

import datasets
from datasets import CSVError, UploadReader, check_csv, csv_digest

loader = sys.modules["datasets.csv_loader"]

LABELLED = b"sepal,petal,species\n1,2,setosa\n3,4,virginica\n5,7,setosa\n"
NO_HEADER = b"1,2,a\n3,4,b\n5,7,a\n"
TOO_MANY_ROWS = b"v\n" + b"1\n" * 6000


@pytest.fixture
def parses(monkeypatch):
    """Counts the parses of a file's text (the costly step of both check and load)."""
    calls = []
    parse = loader.parse_table

    def counting(text, label_column):
        calls.append(label_column)
        return parse(text, label_column)

    monkeypatch.setattr(loader, "parse_table", counting)
    return calls


def test_the_digest_depends_only_on_the_bytes():
    assert csv_digest(LABELLED) == csv_digest(bytes(bytearray(LABELLED)))
    assert csv_digest(LABELLED) != csv_digest(LABELLED + b"\n")
    assert len(csv_digest(LABELLED)) == 20
    assert check_csv(LABELLED).digest == csv_digest(LABELLED)


def test_check_gives_the_columns_and_the_obvious_label():
    check = check_csv(LABELLED)
    assert check.column_names == ("sepal", "petal", "species")
    assert check.label_guess == "species" and check.error is None
    headerless = check_csv(NO_HEADER)
    assert headerless.column_names == ("x1", "x2", "x3") and headerless.label_guess is None
    # Each offered name loads: the names are the ones load_csv uses.
    assert datasets.load_csv(NO_HEADER, label_column="x3").target_names == ("a", "b")


@pytest.mark.parametrize(
    ("content", "fragment"),
    [(TOO_MANY_ROWS, "the app's limit is 5,000 rows"), (b"", "The file is empty"),
     (b"PK\x03\x04rest", "Excel (.xlsx) workbook"), (b"a,b\n1,2\n3\n", "Line 3 has 1 values")],
)
def test_check_returns_a_refusal_instead_of_raising(content, fragment):
    check = check_csv(content)
    assert fragment in check.error
    assert check.column_names == () and check.label_guess is None
    with pytest.raises(CSVError, match=re.escape(fragment)):
        datasets.load_csv(content)


def test_the_reader_checks_each_file_once(parses):
    reader = UploadReader()
    first = reader.check(LABELLED)
    for _ in range(3):  # reruns
        assert reader.check(LABELLED) is first
    assert parses == [None]
    reader.check(NO_HEADER)
    assert parses == [None, None]


def test_a_refused_file_is_parsed_once_and_its_refusal_remembered(parses):
    reader = UploadReader()
    for _ in range(3):
        with pytest.raises(CSVError, match="the app's limit is 5,000 rows"):
            reader.load(TOO_MANY_ROWS, label_column=None)
        assert "5,000 rows" in reader.check(TOO_MANY_ROWS).error
    assert parses == [None]


def test_a_refused_label_choice_is_remembered_and_others_still_load(parses):
    reader = UploadReader()
    for _ in range(2):
        with pytest.raises(CSVError, match="Column 'species' holds text"):
            reader.load(LABELLED)  # no label column: the text column is refused
    assert parses == [None, None]  # the check, then one load
    data = reader.load(LABELLED, label_column="species")
    assert data.target_names == ("setosa", "virginica")
    assert reader.load(LABELLED, label_column="species") is data  # a rerun: no parse
    assert parses == [None, None, "species"]


def test_the_reader_keeps_only_a_few_files_and_can_forget(parses):
    reader = UploadReader(max_files=2)
    files = [b"a,b\n1,2\n3,4\n5,%d\n" % k for k in range(3)]
    for content in files:
        reader.check(content)
    reader.check(files[0])  # the oldest was dropped: parsed again
    assert len(parses) == 4
    reader.clear()
    reader.check(files[2])
    assert len(parses) == 5


def test_a_caller_key_replaces_the_digest():
    reader = UploadReader()
    reader.check(LABELLED, key="upload-1")
    # Same key: the remembered check, whatever the bytes (the caller's key promises
    # to change when the bytes do).
    assert reader.check(NO_HEADER, key="upload-1").column_names == ("sepal", "petal", "species")
