"""The CSV loader: a corpus of malformed files, each refused with its own message, and
good files read exactly as pandas reads them."""

from __future__ import annotations

from pathlib import Path

import numpy as np
import pandas as pd
import pytest

from datasets import CSVError, check_csv, guess_label_column, load_csv

from .helpers import said_in_chinese

CORPUS = Path(__file__).resolve().parents[1] / "data" / "csv"

# file, options, fragments the message must contain (line numbers are the file's lines)
MALFORMED = [
    ("empty.csv", {}, ["The file is empty"]),
    ("blank_lines.csv", {}, ["The file is empty"]),
    ("header_only.csv", {}, ["only a header row (sepal, petal, width)", "no data rows"]),
    ("two_rows.csv", {}, ["2 rows of data", "at least 3"]),
    ("identical_rows.csv", {}, ["All 4 rows have the same values", "two different rows"]),
    ("text_only.csv", {}, ["No numeric columns", "'name' on line 1"]),
    ("stray_text.csv", {}, ["Column 'b'", "'abc' on line 5", "choose 'b' as the label column"]),
    ("blank_line_then_bad.csv", {}, ["Column 'b'", "'x' on line 5"]),
    ("text_column.csv", {}, ["Column 'species' holds text", "'setosa' on line 2",
                             "label column"]),
    ("nan_values.csv", {}, ["2 rows of 6", "line 3, column 'a'", "drop these 2 rows"]),
    ("inf_values.csv", {}, ["2 rows of 4", "infinite", "line 2, column 'b'"]),
    ("empty_cells.csv", {}, ["1 row of 4", "line 4, column 'b'", "drop that row"]),
    ("mostly_nan.csv", {"drop_nonfinite": True},
     ["Only 1 row left after dropping 3 rows", "at least 3"]),
    ("missing_label.csv", {"label_column": "species"}, ["line 3, column 'species'"]),
    ("ragged.csv", {}, ["Line 4 has 3 values but line 1 has 2", "same number of columns"]),
    ("too_many_rows.csv", {}, ["5,001 data rows", "the app's limit is 5,000 rows"]),
    ("too_many_columns.csv", {}, ["1,001 columns", "the app's limit is 1,000 columns"]),
    ("latin1.csv", {}, ["not UTF-8", "byte 0xE9 on line 1", "CSV UTF-8"]),
    ("utf16.csv", {}, ["UTF-16", "CSV UTF-8"]),
    ("image_png.csv", {}, ["This is a PNG image, not a CSV text file", "Export the data as CSV"]),
    ("workbook_xlsx.csv", {}, ["Excel (.xlsx) workbook", "Export the data as CSV"]),
    ("nul_bytes.csv", {}, ["binary data"]),
    ("duplicate_header.csv", {}, ["'a' appears twice", "columns 1 and 3"]),
    ("label_only.csv", {"label_column": "species"}, ["'species' is the only column"]),
    ("good_labels.csv", {"label_column": "kind"},
     ["no column named 'kind'", "sepal length, sepal width, species"]),
    ("good_no_header.csv", {"label_column": "label"}, ["x1, x2", "no header row"]),
]


def test_the_corpus_has_at_least_15_distinct_malformed_files():
    files = {name for name, _, _ in MALFORMED if not name.startswith("good_")}
    assert len(files) >= 15
    assert all((CORPUS / name).is_file() for name in files)


@pytest.mark.parametrize(("filename", "options", "fragments"), MALFORMED)
def test_malformed_file_is_refused_with_its_message(filename, options, fragments):
    with pytest.raises(CSVError) as error:
        load_csv(CORPUS / filename, **options)
    message = str(error.value)
    for fragment in fragments:
        assert fragment in message
    assert isinstance(error.value, ValueError)
    assert len(message) < 300, "messages must stay short enough for a toast"


@pytest.mark.parametrize(("filename", "options", "fragments"), MALFORMED)
def test_malformed_file_is_refused_in_chinese_too(filename, options, fragments):
    """Every refusal's sentences are in the catalog: a Chinese page says each in Chinese,
    with the English numbers; the check before loading says the same."""
    content = (CORPUS / filename).read_bytes()
    with pytest.raises(CSVError) as error:
        load_csv(content, **options)
    said_in_chinese(error.value)
    refusal = check_csv(content).refusal
    if refusal is not None:  # refused whatever the label column: the same sentences
        assert refusal == error.value.sentences


def test_a_decimal_comma_and_a_path_are_refused_in_chinese_too(tmp_path):
    with pytest.raises(CSVError) as comma:
        load_csv(b'a,b\n1,2\n3,"4,5"\n5,6\n7,8\n')
    assert "这看起来是小数逗号" in said_in_chinese(comma.value)
    with pytest.raises(CSVError) as missing:
        load_csv(tmp_path / "nowhere.csv")
    assert said_in_chinese(missing.value) == f"没有文件 {str(tmp_path / 'nowhere.csv')!r}。"


@pytest.mark.parametrize(("filename", "options", "fragments"), MALFORMED)
def test_bytes_and_paths_give_the_same_message(filename, options, fragments):
    with pytest.raises(CSVError) as from_path:
        load_csv(CORPUS / filename, **options)
    with pytest.raises(CSVError) as from_bytes:
        load_csv((CORPUS / filename).read_bytes(), **options)
    assert str(from_bytes.value) == str(from_path.value)


# file, pandas.read_csv arguments that read it correctly
GOOD = [
    ("good_header.csv", {}),
    ("good_no_header.csv", {"header": None}),
    ("good_semicolon.csv", {"sep": ";"}),
    ("good_tab.tsv", {"sep": "\t"}),
    ("good_bom_crlf.csv", {"encoding": "utf-8-sig"}),
]


@pytest.mark.parametrize(("filename", "pandas_options"), GOOD)
def test_good_files_read_as_pandas_reads_them(filename, pandas_options):
    data = load_csv(CORPUS / filename)
    frame = pd.read_csv(CORPUS / filename, **pandas_options)
    np.testing.assert_array_equal(data.X, frame.to_numpy(dtype=float))
    if pandas_options.get("header", 0) is None:
        assert data.feature_names == tuple(f"x{j + 1}" for j in range(frame.shape[1]))
    else:
        assert data.feature_names == tuple(frame.columns)
    assert data.y is None and data.name == "csv"
    assert not data.X.flags.writeable


def test_text_labels_become_integers_in_sorted_order():
    data = load_csv(CORPUS / "good_labels.csv", label_column="species")
    frame = pd.read_csv(CORPUS / "good_labels.csv")
    assert data.target_names == ("setosa", "versicolor", "virginica")
    assert [data.target_names[k] for k in data.y] == frame["species"].tolist()
    assert data.feature_names == ("sepal length", "sepal width")
    np.testing.assert_array_equal(data.X, frame.drop(columns="species").to_numpy())
    assert "'species' (3 classes)" in data.description


def test_numeric_labels_are_sorted_by_value():
    data = load_csv(CORPUS / "good_bom_crlf.csv", label_column="class")
    assert data.target_names == ("1", "2", "10")
    assert data.y.tolist() == [1, 2, 1, 0]
    assert data.feature_names == ("height (cm)", "weight, kg")


def test_a_headerless_column_can_be_chosen_by_its_generated_name():
    data = load_csv(b"1,2,a\n3,4,b\n5,7,a\n", label_column="x3")
    assert data.target_names == ("a", "b") and data.y.tolist() == [0, 1, 0]


def test_dropping_nonfinite_rows_keeps_the_rest_and_says_how_many():
    data = load_csv(CORPUS / "good_missing.csv", drop_nonfinite=True)
    np.testing.assert_array_equal(data.X, [[1, 2], [5, 6], [9, 10]])
    assert "2 rows with missing, NaN or infinite values were dropped" in data.description


def test_dropping_rows_drops_their_labels_too():
    text = b"a,b,kind\n1,2,p\nnan,3,q\n4,5,q\n6,7,\n8,9,p\n"
    data = load_csv(text, label_column="kind", drop_nonfinite=True)
    assert [data.target_names[k] for k in data.y] == ["p", "q", "p"]
    np.testing.assert_array_equal(data.X, [[1, 2], [4, 5], [8, 9]])


@pytest.mark.parametrize(("rows", "refused"), [(5000, False), (5001, True)])
def test_the_row_limit_is_inclusive(rows, refused):
    text = "v\n" + "".join(f"{i}\n" for i in range(rows))
    if refused:
        with pytest.raises(CSVError, match="limit is 5,000 rows"):
            load_csv(text.encode())
    else:
        assert load_csv(text.encode()).X.shape == (5000, 1)


def test_a_missing_path_is_reported(tmp_path):
    with pytest.raises(CSVError, match="There is no file"):
        load_csv(tmp_path / "absent.csv")


def test_a_failed_upload_leaves_the_previous_dataset_intact():
    previous = load_csv(CORPUS / "good_header.csv")
    X_before = previous.X.copy()
    with pytest.raises(CSVError):
        load_csv(CORPUS / "stray_text.csv")
    np.testing.assert_array_equal(previous.X, X_before)
    # No hidden state either: loading the same file again gives the same data.
    np.testing.assert_array_equal(load_csv(CORPUS / "good_header.csv").X, X_before)


def test_semicolon_file_with_decimal_commas_parses():
    data = load_csv(CORPUS / "decimal_comma.csv")
    assert data.feature_names == ("a", "b")
    np.testing.assert_array_equal(data.X[:2], [[1.5, 2.5], [3.5, 4.5]])


def test_a_comma_separated_file_with_decimal_commas_is_still_refused():
    with pytest.raises(CSVError, match="decimal comma"):
        load_csv(b'a,b\n"1,5",2\n"3,5",4\n"5,5",6\n')


@pytest.mark.parametrize(
    ("content", "expected"),
    [
        (b"sepal,petal,species\n1,2,setosa\n3,4,virginica\n5,6,setosa\n", "species"),
        (b"x,y,target\n1,2,0\n3,4,1\n5,6,0\n", "target"),
        (b"a;Class;b\n1,5;1;2\n3,5;2;4\n5,5;1;6\n", "Class"),
        (b"a,b\n1,2\n3,4\n5,6\n", None),  # nothing looks like a label
        (b"PK\x03\x04binary", None),  # a workbook: no guess, load_csv explains
    ],
)
def test_the_obvious_label_column_is_guessed(content, expected):
    assert guess_label_column(content) == expected
