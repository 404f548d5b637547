"""Over-limit uploads are refused while reading, at a cost bounded by the file's own size;
what the limits must not break (line endings, quotes) still reads; an all-NaN file gets its
own message."""

from __future__ import annotations

import tracemalloc

import numpy as np
import pytest

from datasets import CSVError, check_csv, load_csv
from datasets.csv_loader import MAX_BYTES, MAX_COLUMNS, MAX_ROW_CHARS

MiB = 2**20

# Files at the app's upload limit, 20 MB (issue 27's three hostile shapes, and one cell).
OVER_LIMIT = {
    "tiny rows": (lambda: b"v\n" + b"12\n" * 6_660_000,
                  ["more than 5,000 data rows", "6,660,001 lines",
                   "the app's limit is 5,000 rows"]),
    "many columns": (lambda: (b"12," * 66_599 + b"12\n") * 100,
                     ["66,600 columns (line 1)", "the app's limit is 1,000 columns"]),
    "one huge line": (lambda: b"12," * 6_659_999 + b"12\n",
                      ["6,660,000 columns (line 1)", "the app's limit is 1,000 columns"]),
    "one huge cell": (lambda: b"1" * (MAX_BYTES - 1) + b"\n",
                      ["Line 1 is 19,999,999 characters long",
                       f"rows of at most {MAX_ROW_CHARS:,} characters"]),
}


def refusal_and_traced_peak(function, data: bytes) -> tuple[str, int]:
    tracemalloc.start()
    try:
        with pytest.raises(CSVError) as error:
            function(data)
        return str(error.value), tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


@pytest.mark.parametrize("shape", list(OVER_LIMIT))
def test_an_over_limit_file_is_refused_with_memory_bounded_by_its_size(shape):
    make, fragments = OVER_LIMIT[shape]
    data = make()
    assert 0.99 * MAX_BYTES < len(data) <= MAX_BYTES
    message, peak = refusal_and_traced_peak(load_csv, data)
    for fragment in fragments:
        assert fragment in message
    assert len(message) < 300
    # The decoded text (one byte per character here) and a few rows: parsing the whole
    # file took 1.3-2.0 GiB (benchmarks/bench_csv_limits.py).
    assert peak < 1.5 * len(data), f"{peak / MiB:.0f} MiB traced for {len(data) / MiB:.0f} MiB"


def test_the_check_refuses_an_over_limit_file_the_same_way():
    data = OVER_LIMIT["tiny rows"][0]()
    tracemalloc.start()
    try:
        check = check_csv(data)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert "the app's limit is 5,000 rows" in check.error
    assert check.column_names == () and check.label_guess is None
    assert peak < 1.5 * len(data)


def test_exactly_the_column_limit_is_read_and_one_more_is_refused():
    header = ",".join(f"c{j}" for j in range(MAX_COLUMNS))
    rows = "\n".join(",".join(str(i + j) for j in range(MAX_COLUMNS)) for i in range(3))
    assert load_csv(f"{header}\n{rows}\n".encode()).X.shape == (3, MAX_COLUMNS)
    with pytest.raises(CSVError, match=r"1,001 columns \(line 2\)"):
        load_csv(f"{header}\n{rows.replace(chr(10), ',1' + chr(10), 1)}\n".encode())


def test_a_quoted_row_past_the_column_limit_is_refused_after_the_csv_reader():
    # Quotes may hide separators, so this row is counted by the csv module itself.
    row = ",".join(f'"{j}"' for j in range(MAX_COLUMNS + 1))
    with pytest.raises(CSVError, match=r"1,001 columns \(line 1\)"):
        load_csv(f"{row}\n{row}\n{row}\n".encode())


def test_an_unclosed_quote_is_refused_at_the_csv_field_limit():
    data = b'a,b\n1,"2\n' + b"3,4\n" * (MAX_ROW_CHARS // 4 + 10)
    message, peak = refusal_and_traced_peak(load_csv, data)
    assert "more than 131,072 characters" in message
    assert 'a quote (") is probably not closed' in message
    assert peak < 3 * len(data)


def test_a_row_of_many_quoted_line_breaks_is_refused_once_it_runs_past_the_row_limit():
    # Each value is short, so the csv module's field limit never fires: the row's length
    # does, before the csv module has split the row.
    data = b'1,"\n' + b'",1,"\n' * (16 * MAX_ROW_CHARS // 6) + b'"\n'
    message, peak = refusal_and_traced_peak(load_csv, data)
    assert message.startswith("The row that starts on line 1 runs on past line 174,764,")
    assert "probably not closed" in message
    assert peak < 1.5 * len(data)  # the text, and one row of at most MAX_ROW_CHARS


def test_separators_inside_quotes_on_a_row_of_many_lines_are_not_columns():
    commas = "," * (2 * MAX_COLUMNS)
    data = f'x,note\n1,"a\n{commas}\nb"\n2,c\n3,d\n'.encode()
    assert check_csv(data).column_names == ("x", "note")
    assert load_csv(data, label_column="note").X.tolist() == [[1.0], [2.0], [3.0]]


@pytest.mark.parametrize("ending", ["\n", "\r\n", "\r"])
def test_every_line_ending_still_splits_rows(ending):
    data = ending.join(["a,b", "1,2", "3,5", "4,4"]).encode() + ending.encode()
    loaded = load_csv(data)
    assert loaded.feature_names == ("a", "b")
    np.testing.assert_array_equal(loaded.X, [[1, 2], [3, 5], [4, 4]])


def test_blank_lines_do_not_count_towards_the_row_limit():
    data = b"v\n" + b"\n\n".join(str(i).encode() for i in range(5000)) + b"\n"
    assert load_csv(data).X.shape == (5000, 1)


@pytest.mark.parametrize("rows", [5001, 5002, 5003])
def test_one_row_past_the_limit_is_refused_without_or_with_a_header(rows):
    values = "".join(f"{i}\n" for i in range(rows))
    for data in (values, "v\n" + values):
        with pytest.raises(CSVError, match="the app's limit is 5,000 rows"):
            load_csv(data.encode())
        assert "the app's limit is 5,000 rows" in check_csv(data.encode()).error


# --- a file without a single number (issue 28) -------------------------------------


@pytest.mark.parametrize(
    ("content", "example"),
    [
        (b"a,b\nnan,nan\nnan,nan\nnan,nan\n", "'nan' on line 2, column 'a'"),
        (b"nan,NaN\nNA,nan\nnan,\n", "'nan' on line 1, column 'x1'"),
        (b"a,b\n,NA\nNA,\nnull,n/a\n", "'' on line 2, column 'a'"),
    ],
)
@pytest.mark.parametrize("drop", [False, True])
def test_an_all_nan_file_is_told_it_holds_no_numbers(content, example, drop):
    with pytest.raises(CSVError) as error:
        load_csv(content, drop_nonfinite=drop)
    message = str(error.value)
    assert message.startswith("The file holds no numbers") and example in message
    assert "non-numeric" not in message and "header" not in message


def test_all_nan_features_beside_a_label_column_are_named_as_such():
    content = b"a,b,kind\nnan,nan,x\nnan,nan,y\nnan,nan,x\n"
    assert check_csv(content).column_names == ("a", "b", "kind")
    with pytest.raises(CSVError, match="columns besides the labels is missing"):
        load_csv(content, label_column="kind")


def test_a_text_first_row_over_numbers_is_still_a_header_and_stray_text_still_stray():
    loaded = load_csv(b"a,b\n1,2\n3,nan\n5,6\n7,9\n", drop_nonfinite=True)
    assert loaded.feature_names == ("a", "b") and loaded.X.shape == (3, 2)
    with pytest.raises(CSVError, match="non-numeric value 'foo' on line 1"):
        load_csv(b"1,foo\n2,\n3,\n4,\n")
