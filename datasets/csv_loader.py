"""Load the user's own CSV file into a :class:`Dataset`, or say exactly what is wrong.

The loader is pure: it reads its input and returns a new :class:`Dataset` or
raises :class:`CSVError`, and keeps no state, so a failed upload never touches
what was loaded before. Reading the text within the app's limits is
:mod:`datasets.csv_table`'s part; this module checks bytes and encodings, picks the
columns and labels, and says what is wrong in the user's terms. Line numbers in
messages are the file's physical lines, counting from 1 (the header, when there is
one, is line 1), as a text editor shows them.
"""

from __future__ import annotations

import hashlib
import os
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._types import Dataset, Sentence, described, said
from .csv_table import (
    MAX_COLUMNS,
    MAX_ROW_CHARS,
    MAX_ROWS,
    MISSING,
    CSVError,
    Table,
    parse_table,
    to_float,
)

__all__ = [
    "BINARY_SIGNATURES", "CSVCheck", "CSVError", "MAX_BYTES", "MAX_COLUMNS", "MAX_ROWS",
    "MAX_ROW_CHARS", "MIN_ROWS", "check_csv", "csv_digest", "guess_label_column", "load_csv",
]

# The app's upload limit: 20 MB, in the 10^6-byte megabytes the browser's uploader counts
# and shows (.streamlit/config.toml's server.maxUploadSize is in those MB as well; the
# server itself lets 20 MiB through, so this is the limit that holds, and says so).
MAX_BYTES = 20 * 10**6
MIN_ROWS = 3

BINARY_SIGNATURES = {
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"%PDF": "a PDF document",
    b"PK\x03\x04": "a zip archive or an Excel (.xlsx) workbook",
    b"\xd0\xcf\x11\xe0": "an old Excel (.xls) workbook",
}
EXPORT_HINT = "Export the data as CSV (comma-separated values) and upload that."

# What an upload is called when it has no file name of its own.
UPLOADED = "the uploaded file"


def load_csv(
    source: bytes | str | os.PathLike,
    *,
    label_column: str | None = None,
    drop_nonfinite: bool = False,
) -> Dataset:
    """Read numeric columns, and optionally a label column, from CSV text.

    A first row is taken as a header when it has a text cell above a column of
    numbers; otherwise the columns are named ``x1 .. xd``. Comma, semicolon and
    tab separators are recognised.

    Parameters
    ----------
    source : bytes, str or PathLike
        The file's content (an upload), or a path to read.
    label_column : str, optional
        Name of the column holding class labels (numbers or text). Without a
        header the names are ``x1 .. xd``.
    drop_nonfinite : bool
        Drop rows with missing, NaN or infinite values instead of refusing them.

    Returns
    -------
    Dataset
        ``name="csv"``; ``y`` holds indices into ``target_names`` (sorted labels),
        or is None without a label column.

    Raises
    ------
    CSVError
        With a short message naming the line or column at fault and the fix.
    """
    data, origin = _read_bytes(source)
    table = parse_table(_decode(data), label_column)
    _check_rows_limit(table.n_rows)

    label = _label_index(table, label_column)
    features = [j for j in range(len(table.names)) if j != label]
    if not features:
        raise CSVError(
            f"{table.names[label]!r} is the only column; KPCA needs at least one column of "
            "numbers besides the labels."
        )
    X = _numeric_columns(table, features)
    _check_some_number(table, X, features)
    labels = None if label is None else table.column_cells(label)
    keep = _complete_rows(table, X, features, labels, label, drop_nonfinite)
    dropped = int(np.count_nonzero(~keep))
    if dropped:
        X = X[keep]
    _check_rows(X, dropped)

    y, target_names = None, ()
    if labels is not None:
        y, target_names = _encode_labels(
            [cell for cell, kept in zip(labels, keep, strict=True) if kept])
    return Dataset(
        name="csv",
        X=X,
        y=y,
        target_names=target_names,
        feature_names=tuple(table.names[j] for j in features),
        **described(*_describe(table, origin, X, label, target_names, dropped)),
        citation="Your own data, uploaded to KPCA Lab.",
    )


def _read_bytes(source: bytes | str | os.PathLike) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        data, origin = bytes(source), UPLOADED
    else:
        path = Path(source)
        origin = path.name
        try:
            if path.stat().st_size > MAX_BYTES:
                _refuse_size(path.stat().st_size)
            data = path.read_bytes()
        except FileNotFoundError:
            raise CSVError(f"There is no file {str(path)!r}.") from None
        except OSError as exc:
            raise CSVError(f"Cannot read {str(path)!r}: {exc.strerror}.") from None
    if len(data) > MAX_BYTES:
        _refuse_size(len(data))
    return data, origin


def _refuse_size(size: int) -> None:
    raise CSVError(
        f"The file is {size / 10**6:.1f} MB; the app's limit is {MAX_BYTES // 10**6} MB. "
        "Upload a smaller sample."
    )


def _decode(data: bytes) -> str:
    """Bytes to text, refusing binary files and encodings other than UTF-8."""
    if not data or data.isspace():
        raise CSVError("The file is empty.")
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CSVError("The file is UTF-16 text. Save it as 'CSV UTF-8' and upload it again.")
    for signature, kind in BINARY_SIGNATURES.items():
        if data.startswith(signature):
            raise CSVError(f"This is {kind}, not a CSV text file. {EXPORT_HINT}")
    if b"\x00" in data[:8192]:
        raise CSVError(f"The file holds binary data, not CSV text. {EXPORT_HINT}")
    try:
        # utf-8-sig reads plain UTF-8 too, and drops the byte-order mark Excel writes.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CSVError(
            f"The file is not UTF-8 text: byte 0x{data[exc.start]:02X} on line {line} cannot "
            "be read. Save it as 'CSV UTF-8' (in Excel: Save As, CSV UTF-8) and upload it again."
        ) from None


# Not "y": in a file with columns x, y it is a coordinate.
LABEL_NAMES = ("label", "labels", "class", "classes", "target", "species", "category")


@dataclass(frozen=True)
class CSVCheck:
    """What the sidebar needs of an uploaded file before loading it: one bounded parse.

    Small (names and a message, never the file's rows), so that a caller can remember
    it for as long as the file is in the uploader: a refused file is refused once.

    Attributes
    ----------
    digest : str
        :func:`csv_digest` of the bytes ("" when a path could not be read).
    column_names : tuple of str
        The columns, as :func:`load_csv` names them (``x1 .. xd`` without a header):
        the choices for the label column. Empty when the file is refused.
    label_guess : str or None
        The column that obviously holds class labels (see :func:`guess_label_column`).
    error : str or None
        Why the file cannot be used whatever its label column (too big, not UTF-8 text,
        ragged, ...), as :class:`CSVError` would say it; None if it can be tried.
    """

    digest: str
    column_names: tuple[str, ...] = ()
    label_guess: str | None = None
    error: str | None = None


def csv_digest(content: bytes) -> str:
    """A short fingerprint of an upload's bytes: equal bytes, equal digest (SHA-256)."""
    return hashlib.sha256(content).hexdigest()[:20]


def check_csv(source: bytes | str | os.PathLike) -> CSVCheck:
    """Read the file once, within the app's limits, and say what :func:`load_csv` may ask.

    Never raises for a bad file: the refusal is :attr:`CSVCheck.error`. The errors that
    depend on the label column (a text column that is not the label, missing values)
    come from :func:`load_csv`.
    """
    try:
        data, _ = _read_bytes(source)
    except CSVError as error:
        return CSVCheck(digest="", error=str(error))
    digest = csv_digest(data)
    try:
        table = parse_table(_decode(data), None)
        _check_rows_limit(table.n_rows)
    except CSVError as error:
        return CSVCheck(digest=digest, error=str(error))
    return CSVCheck(digest, tuple(table.names), _label_guess(table))


def guess_label_column(source: bytes | str | os.PathLike) -> str | None:
    """The column that obviously holds class labels, or None.

    The only column holding text (e.g. species names), else a column named like a label
    (``label``, ``class``, ``target``, ...; case-insensitive). Never raises: a file that
    cannot be read has no guess, and :func:`load_csv` says what is wrong with it.
    """
    return check_csv(source).label_guess


def _label_guess(table: Table) -> str | None:
    if not table.has_header or len(table.names) < 2:
        return None
    text = [name for j, name in enumerate(table.names)
            if len(table.text_rows(j)) > table.n_rows / 2]
    if len(text) == 1:
        return text[0]
    named = [name for name in table.names if name.strip().lower() in LABEL_NAMES]
    return named[0] if len(named) == 1 else None


def _check_rows_limit(n_rows: int) -> None:
    # Columns were checked while reading, and so were rows past MAX_ROWS + 1.
    if n_rows > MAX_ROWS:
        raise CSVError(
            f"The file has {n_rows:,} data rows; the app's limit is {MAX_ROWS:,} rows, so that "
            f"the n × n kernel matrix stays quick. Upload a sample of at most {MAX_ROWS:,} rows."
        )


def _check_some_number(table: Table, X: np.ndarray, features: list[int]) -> None:
    """Refuse a file without a single finite number (e.g. all NaN): no rows to drop."""
    if X.size and not np.isfinite(X).any():
        besides = " besides the labels" if len(features) < len(table.names) else ""
        raise CSVError(
            f"The file holds no numbers: every value in its columns{besides} is missing, "
            f"NaN or infinite (e.g. {table.odd[features[0]][0]!r} on line {table.lines[0]}, "
            f"column {table.names[features[0]]!r}). Check that this is the file you meant "
            "to upload, with its values filled in."
        )


def _complete_rows(
    table: Table, X: np.ndarray, features: list[int], labels: list[str] | None,
    label: int | None, drop: bool,
) -> np.ndarray:
    """Mask of rows without missing, NaN or infinite values; refuse the others unless
    ``drop``."""
    complete = np.isfinite(X).all(axis=1)
    if labels is not None:
        complete &= np.array([cell.lower() not in MISSING for cell in labels], dtype=bool)
    n_bad = len(X) - int(np.count_nonzero(complete))
    if n_bad and not drop:
        first = int(np.argmin(complete))
        bad = [table.names[j] for j, v in zip(features, X[first], strict=True)
               if not np.isfinite(v)]
        column = bad[0] if bad else table.names[label]
        these = "that row" if n_bad == 1 else f"these {n_bad} rows"
        raise CSVError(
            f"{_rows(n_bad)} of {len(X)} with missing, NaN or infinite values (the first on "
            f"line {table.lines[first]}, column {column!r}). Fill in those cells, or choose "
            f"to drop {these}."
        )
    return complete


def _check_rows(X: np.ndarray, dropped: int) -> None:
    if len(X) < MIN_ROWS:
        if dropped:
            raise CSVError(
                f"Only {_rows(len(X))} left after dropping {_rows(dropped)} with missing "
                f"values; KPCA needs at least {MIN_ROWS}."
            )
        raise CSVError(f"The file has {_rows(len(X))} of data; KPCA needs at least {MIN_ROWS}.")
    if (X == X[0]).all():  # not np.unique(X, axis=0): that sorts a copy of X
        raise CSVError(
            f"All {len(X)} rows have the same values; KPCA needs at least two different rows."
        )


def _label_index(table: Table, label_column: str | None) -> int | None:
    if label_column is None:
        return None
    if label_column not in table.names:
        unnamed = "" if table.has_header else " (the file has no header row, so they are numbered)"
        raise CSVError(
            f"There is no column named {label_column!r}. The columns are: "
            f"{', '.join(table.names)}{unnamed}."
        )
    return table.names.index(label_column)


def _numeric_columns(table: Table, columns: list[int]) -> np.ndarray:
    """The feature columns as float64 (missing cells NaN); refuse columns of text."""
    text_columns = []
    for j in columns:
        text = table.text_rows(j)
        if len(text) > table.n_rows / 2:
            # Show a decimal comma if there is one: it is the likeliest cause.
            example = next((i for i in text if _decimal_comma_hint(table.odd[j][i])), text[0])
            text_columns.append((j, example))
        elif text:
            raise CSVError(_stray_text_message(table, j, text[0]))
    if not text_columns:
        return table.values[:, columns]  # a copy: the table is not the caller's
    j, i = text_columns[0]
    value, line = table.odd[j][i], table.lines[i]
    if len(text_columns) == len(columns):
        message = (
            f"No numeric columns found: every column holds text (e.g. {value!r} on line {line}). "
            "KPCA needs at least one column of numbers."
        )
    else:
        message = (
            f"Column {table.names[j]!r} holds text (e.g. {value!r} on line {line}), not "
            "numbers. Choose it as the label column, or remove it."
        )
    raise CSVError(message + _decimal_comma_hint(value))


def _stray_text_message(table: Table, j: int, i: int) -> str:
    value, name = table.odd[j][i], table.names[j]
    return (
        f"Column {name!r} has a non-numeric value {value!r} on line {table.lines[i]} of the "
        f"file. Correct that cell or delete its row, or choose {name!r} as the label column."
        + _decimal_comma_hint(value)
    )


def _decimal_comma_hint(value: str) -> str:
    if re.fullmatch(r"[-+]?\d*,\d+", value):
        return " It looks like a decimal comma: write numbers as 1.5, not 1,5."
    return ""


def _rows(k: int) -> str:
    return "1 row" if k == 1 else f"{k} rows"


def _encode_labels(labels: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Map labels to 0..k-1 in sorted order (numerically if they are all numbers)."""
    distinct = set(labels)
    numeric = all(to_float(value) is not None for value in distinct)
    # Ties in value ("1" and "1.0" are two labels) are broken by spelling: a set's order
    # changes from run to run.
    names = sorted(distinct, key=(lambda value: (float(value), value)) if numeric else str)
    index = {name: k for k, name in enumerate(names)}
    return np.array([index[value] for value in labels], dtype=np.int64), tuple(names)


def _describe(
    table: Table, origin: str, X: np.ndarray, label: int | None,
    target_names: tuple[str, ...], dropped: int,
) -> tuple[Sentence, ...]:
    """The upload's description, sentence by sentence (a page translates each)."""
    rows, columns = X.shape
    sentences = [
        said("Your data from the uploaded file: {rows} rows and {columns} numeric columns.",
             rows=rows, columns=columns) if origin == UPLOADED else
        said("Your data from {origin}: {rows} rows and {columns} numeric columns.",
             origin=origin, rows=rows, columns=columns),
        said("The columns are named in the header row.") if table.has_header else
        said("The file has no header row, so the columns are named x1 to x{columns}.",
             columns=columns),
    ]
    if len(table.names) > 1:
        sentences.append({
            "\t": said("Its values are separated by tabs."),
            ";": said("Its values are separated by semicolons."),
            ",": said("Its values are separated by commas."),
        }[table.delimiter])
    if label is not None:
        sentences.append(said("The classes come from column {column} ({count} classes).",
                              column=repr(table.names[label]), count=len(target_names)))
    if dropped:
        sentences.append(said("{dropped} rows with missing, NaN or infinite values were "
                              "dropped.", dropped=dropped))
    sentences.append(said("The columns are used as they are: if their scales differ a lot, "
                          "the largest one dominates both linear and RBF kernels."))
    return tuple(sentences)
