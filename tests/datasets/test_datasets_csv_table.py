"""The compact table behind the loader: one float per cell, the odd cells as text. What it
keeps must give the same data and messages as reading every cell as a string did, in
less memory."""

from __future__ import annotations

import io
import tracemalloc

import numpy as np
import pandas as pd
import pytest

from datasets import CSVError, load_csv


@pytest.mark.parametrize("header", [True, False])
def test_numeric_labels_keep_their_own_spelling(header):
    rows = "1,2,1\n3,5,1.0\n4,4,01\n6,1,1\n"
    content = ("a,b,kind\n" + rows if header else rows).encode()
    data = load_csv(content, label_column="kind" if header else "x3")
    assert data.target_names == ("01", "1", "1.0")  # by value, then by spelling
    assert [data.target_names[k] for k in data.y] == ["1", "1.0", "01", "1"]


def test_decimal_comma_labels_in_a_semicolon_file_read_as_numbers():
    data = load_csv(b"a;b;size\n1,5;2;0,5\n3;4,25;1,5\n5;6;0,5\n", label_column="size")
    assert data.target_names == ("0.5", "1.5")
    np.testing.assert_array_equal(data.X, [[1.5, 2], [3, 4.25], [5, 6]])


def test_a_wide_file_with_a_text_label_and_scattered_gaps_reads_as_pandas_does():
    rng = np.random.default_rng(3)
    values = np.round(rng.normal(size=(60, 40)), 3).astype(object)
    for i, j in zip(rng.integers(0, 60, 25), rng.integers(0, 40, 25), strict=True):
        values[i, j] = rng.choice(["", "NA", "nan", "null"])
    species = rng.choice(["setosa", "virginica", "=1+2"], size=60)
    frame = pd.DataFrame(values, columns=[f"c{j}" for j in range(40)])
    frame.insert(7, "species", species)
    content = frame.to_csv(index=False).encode()
    data = load_csv(content, label_column="species", drop_nonfinite=True)
    expected = pd.read_csv(io.BytesIO(content), na_values=["NA", "null"], keep_default_na=True)
    expected = expected.dropna()
    np.testing.assert_array_equal(data.X, expected.drop(columns="species").to_numpy(float))
    assert [data.target_names[k] for k in data.y] == expected["species"].tolist()
    assert f"{60 - len(expected)} rows with missing" in data.description


def test_text_after_many_numbers_is_found_on_its_line():
    rows = "".join(f"{i},{i * 2}\n" for i in range(200))
    with pytest.raises(CSVError, match="non-numeric value 'oops' on line 202"):
        load_csv(f"a,b\n{rows}7,oops\n".encode())
    text_later = "".join(f"{i},{'t' if i >= 50 else i}\n" for i in range(200))
    with pytest.raises(CSVError, match=r"Column 'b' holds text \(e.g. 't' on line 52\)"):
        load_csv(f"a,b\n{text_later}".encode())


def test_a_valid_wide_file_costs_a_few_float_matrices_not_a_string_per_cell():
    rng = np.random.default_rng(0)
    table = np.round(rng.uniform(-9, 9, size=(5000, 200)), 1)
    content = pd.DataFrame(table).to_csv(index=False, header=[f"c{j}" for j in range(200)])
    content = content.encode()
    tracemalloc.start()
    try:
        data = load_csv(content)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    np.testing.assert_array_equal(data.X, table)
    floats = table.nbytes  # 8 MB
    # The text, the table's floats, X: ~4 floats' worth. One string per cell (~55 bytes
    # each, the previous design) took ~9.
    assert peak < len(content) + 4 * floats, f"{peak / 2**20:.0f} MiB"
