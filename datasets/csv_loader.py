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

from ._types import Dataset, Sentence, described, english, said
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

# The first bytes of files that are not text, and what each file is (said as a refusal).
BINARY_SIGNATURES = {
    b"\x89PNG": said("This is a PNG image, not a CSV text file."),
    b"\xff\xd8\xff": said("This is a JPEG image, not a CSV text file."),
    b"GIF8": said("This is a GIF image, not a CSV text file."),
    b"%PDF": said("This is a PDF document, not a CSV text file."),
    b"PK\x03\x04": said("This is a zip archive or an Excel (.xlsx) workbook, not a CSV text "
                         "file."),
    b"\xd0\xcf\x11\xe0": said("This is an old Excel (.xls) workbook, not a CSV text file."),
}
EXPORT_HINT = said("Export the data as CSV (comma-separated values) and upload that.")

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
        raise CSVError(said("{column} is the only column; KPCA needs at least one column of "
                            "numbers besides the labels.", column=repr(table.names[label])))
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
            raise CSVError(said("There is no file {path}.", path=repr(str(path)))) from None
        except OSError as exc:
            raise CSVError(said("Cannot read {path}: {error}.", path=repr(str(path)),
                                error=str(exc.strerror))) from None
    if len(data) > MAX_BYTES:
        _refuse_size(len(data))
    return data, origin


def _refuse_size(size: int) -> None:
    raise CSVError(said("The file is {size} MB; the app's limit is {limit} MB. Upload a "
                        "smaller sample.", size=format(size / 10**6, ".1f"),
                        limit=MAX_BYTES // 10**6))


def _decode(data: bytes) -> str:
    """Bytes to text, refusing binary files and encodings other than UTF-8."""
    if not data or data.isspace():
        raise CSVError(said("The file is empty."))
    if data.startswith((b"\xff\xfe", b"\xfe\xff")):
        raise CSVError(said("The file is UTF-16 text. Save it as 'CSV UTF-8' and upload it "
                            "again."))
    for signature, what in BINARY_SIGNATURES.items():
        if data.startswith(signature):
            raise CSVError(what, EXPORT_HINT)
    if b"\x00" in data[:8192]:
        raise CSVError(said("The file holds binary data, not CSV text."), EXPORT_HINT)
    try:
        # utf-8-sig reads plain UTF-8 too, and drops the byte-order mark Excel writes.
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise CSVError(said(
            "The file is not UTF-8 text: byte 0x{byte} on line {line} cannot be read. Save it "
            "as 'CSV UTF-8' (in Excel: Save As, CSV UTF-8) and upload it again.",
            byte=format(data[exc.start], "02X"), line=line)) from None


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
    refusal : tuple of sentences (:func:`said`) or None
        Why the file cannot be used whatever its label column (too big, not UTF-8 text,
        ragged, ...), as :class:`CSVError` says it; None if it can be tried.
        :attr:`error` is its English. The sentences, not the error: an error's traceback
        would keep the parse's frames, and the file with them, alive.
    """

    digest: str
    column_names: tuple[str, ...] = ()
    label_guess: str | None = None
    refusal: tuple[Sentence, ...] | None = None

    @property
    def error(self) -> str | None:
        """The refusal in English (logs, scripts); None if the file can be tried."""
        return None if self.refusal is None else english(self.refusal)


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
        return CSVCheck(digest="", refusal=error.sentences)
    digest = csv_digest(data)
    try:
        table = parse_table(_decode(data), None)
        _check_rows_limit(table.n_rows)
    except CSVError as error:
        return CSVCheck(digest=digest, refusal=error.sentences)
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
        raise CSVError(said(
            "The file has {rows} data rows; the app's limit is {limit} rows, so that the n × n "
            "kernel matrix stays quick. Upload a sample of at most {limit} rows.",
            rows=format(n_rows, ","), limit=format(MAX_ROWS, ",")))


def _check_some_number(table: Table, X: np.ndarray, features: list[int]) -> None:
    """Refuse a file without a single finite number (e.g. all NaN): no rows to drop."""
    if X.size and not np.isfinite(X).any():
        example = {"value": repr(table.odd[features[0]][0]), "line": table.lines[0],
                   "column": repr(table.names[features[0]])}
        raise CSVError(said(
            "The file holds no numbers: every value in its columns besides the labels is "
            "missing, NaN or infinite (e.g. {value} on line {line}, column {column}). Check "
            "that this is the file you meant to upload, with its values filled in.", **example)
            if len(features) < len(table.names) else said(
            "The file holds no numbers: every value in its columns is missing, NaN or "
            "infinite (e.g. {value} on line {line}, column {column}). Check that this is the "
            "file you meant to upload, with its values filled in.", **example))


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
        where = {"total": len(X), "line": table.lines[first],
                 "column": repr(bad[0] if bad else table.names[label])}
        raise CSVError(said(
            "1 row of {total} with missing, NaN or infinite values (the first on line {line}, "
            "column {column}). Fill in those cells, or choose to drop that row.", **where)
            if n_bad == 1 else said(
            "{count} rows of {total} with missing, NaN or infinite values (the first on line "
            "{line}, column {column}). Fill in those cells, or choose to drop these {count} "
            "rows.", count=n_bad, **where))
    return complete


def _check_rows(X: np.ndarray, dropped: int) -> None:
    if len(X) < MIN_ROWS:
        counts = {"left": len(X), "dropped": dropped, "minimum": MIN_ROWS}
        if dropped:  # English counts rows in the singular or the plural, either number
            raise CSVError({
                (True, True): said("Only 1 row left after dropping 1 row with missing values; "
                                   "KPCA needs at least {minimum}.", **counts),
                (True, False): said("Only 1 row left after dropping {dropped} rows with "
                                    "missing values; KPCA needs at least {minimum}.", **counts),
                (False, True): said("Only {left} rows left after dropping 1 row with missing "
                                    "values; KPCA needs at least {minimum}.", **counts),
                (False, False): said("Only {left} rows left after dropping {dropped} rows with "
                                     "missing values; KPCA needs at least {minimum}.", **counts),
            }[len(X) == 1, dropped == 1])
        raise CSVError(said("The file has 1 row of data; KPCA needs at least {minimum}.",
                            **counts) if len(X) == 1 else
                       said("The file has {left} rows of data; KPCA needs at least {minimum}.",
                            **counts))
    if (X == X[0]).all():  # not np.unique(X, axis=0): that sorts a copy of X
        raise CSVError(said("All {rows} rows have the same values; KPCA needs at least two "
                            "different rows.", rows=len(X)))


def _label_index(table: Table, label_column: str | None) -> int | None:
    if label_column is None:
        return None
    if label_column not in table.names:
        columns = {"name": repr(label_column), "columns": ", ".join(table.names)}
        raise CSVError(said("There is no column named {name}. The columns are: {columns}.",
                            **columns) if table.has_header else
                       said("There is no column named {name}. The columns are: {columns} (the "
                            "file has no header row, so they are numbered).", **columns))
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
            raise _stray_text_refusal(table, j, text[0])
    if not text_columns:
        return table.values[:, columns]  # a copy: the table is not the caller's
    j, i = text_columns[0]
    value, line = table.odd[j][i], table.lines[i]
    if len(text_columns) == len(columns):
        problem = said("No numeric columns found: every column holds text (e.g. {value} on "
                       "line {line}). KPCA needs at least one column of numbers.",
                       value=repr(value), line=line)
    else:
        problem = said("Column {column} holds text (e.g. {value} on line {line}), not numbers. "
                       "Choose it as the label column, or remove it.",
                       column=repr(table.names[j]), value=repr(value), line=line)
    raise CSVError(problem, *_decimal_comma_hint(value))


def _stray_text_refusal(table: Table, j: int, i: int) -> CSVError:
    value = table.odd[j][i]
    return CSVError(said(
        "Column {column} has a non-numeric value {value} on line {line} of the file. Correct "
        "that cell or delete its row, or choose {column} as the label column.",
        column=repr(table.names[j]), value=repr(value), line=table.lines[i]),
        *_decimal_comma_hint(value))


def _decimal_comma_hint(value: str) -> tuple[Sentence, ...]:
    """The hint when ``value`` looks like a number with a decimal comma, else nothing."""
    if re.fullmatch(r"[-+]?\d*,\d+", value):
        return (said("It looks like a decimal comma: write numbers as 1.5, not 1,5."),)
    return ()


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
