"""Load the user's own CSV file into a :class:`Dataset`, or say exactly what is wrong.

The loader is pure: it reads its input and returns a new :class:`Dataset` or
raises :class:`CSVError`, and keeps no state, so a failed upload never touches
what was loaded before. Line numbers in messages are the file's physical lines,
counting from 1 (the header, when there is one, is line 1), as a text editor
shows them.
"""

from __future__ import annotations

import csv
import hashlib
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from ._types import Dataset

# The app's limits: the kernel matrix is n × n and must stay interactive.
MAX_ROWS = 5000
MAX_COLUMNS = 1000
MAX_BYTES = 200 * 2**20  # Streamlit's default upload limit
MIN_ROWS = 3
# A row of the largest table the app takes (1,000 long numbers) is ~25 kB; a row
# longer than this is refused before it is split, so one huge line costs no more
# than the file itself.
MAX_ROW_CHARS = 2**20

# Tried in this order; on a tie the rarer separators win, because a file with the
# same number of semicolons on every line is semicolon-separated even if it also
# has decimal commas.
DELIMITERS = {"\t": "tab", ";": "semicolon", ",": "comma"}
MISSING = {"", "na", "nan", "n/a", "null"}
BINARY_SIGNATURES = {
    b"\x89PNG": "a PNG image",
    b"\xff\xd8\xff": "a JPEG image",
    b"GIF8": "a GIF image",
    b"%PDF": "a PDF document",
    b"PK\x03\x04": "a zip archive or an Excel (.xlsx) workbook",
    b"\xd0\xcf\x11\xe0": "an old Excel (.xls) workbook",
}
EXPORT_HINT = "Export the data as CSV (comma-separated values) and upload that."


class CSVError(ValueError):
    """The file cannot be used; the message is meant for the user as it is."""


@dataclass(frozen=True)
class _Table:
    names: list[str]
    rows: list[list[str]]
    lines: list[int]  # physical line number of each row
    has_header: bool
    delimiter: str


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
    table = _parse_table(_decode(data), label_column)
    _check_rows_limit(len(table.rows))

    label = _label_index(table, label_column)
    features = [j for j in range(len(table.names)) if j != label]
    if not features:
        raise CSVError(
            f"{table.names[label]!r} is the only column; KPCA needs at least one column of "
            "numbers besides the labels."
        )
    X = _numeric_columns(table, features)
    _check_some_number(table, X, features)
    keep = _complete_rows(table, X, features, label, drop_nonfinite)
    X, dropped = X[keep], int(np.count_nonzero(~keep))
    _check_rows(X, dropped)

    y, target_names = None, ()
    if label is not None:
        kept_rows = [row for row, kept in zip(table.rows, keep, strict=True) if kept]
        y, target_names = _encode_labels([row[label] for row in kept_rows])
    return Dataset(
        name="csv",
        X=X,
        y=y,
        target_names=target_names,
        feature_names=tuple(table.names[j] for j in features),
        description=_describe(table, origin, X, label, target_names, dropped),
        citation="Your own data, uploaded to KPCA Lab.",
    )


def _read_bytes(source: bytes | str | os.PathLike) -> tuple[bytes, str]:
    if isinstance(source, bytes | bytearray | memoryview):
        data, origin = bytes(source), "the uploaded file"
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
        f"The file is {size / 2**20:.1f} MB; the app's limit is {MAX_BYTES // 2**20} MB. "
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


def _parse_table(text: str, label_column: str | None) -> _Table:
    """Split text into equally long rows of stripped cells and find the header."""
    delimiter = _detect_delimiter(text)
    rows, lines = _read_rows(text, delimiter)
    if not rows:
        raise CSVError("The file is empty.")
    if delimiter != ",":
        # Semicolon or tab files from a European-locale spreadsheet write 1,5 for 1.5.
        rows = [[_decimal_point(cell) for cell in cells] for cells in rows]

    width = len(rows[0])
    for cells, line in zip(rows, lines, strict=True):
        if len(cells) != width:
            raise CSVError(
                f"Line {line} has {len(cells)} values but line {lines[0]} has {width} "
                f"(reading the {DELIMITERS[delimiter]} as the separator). Every row needs the "
                "same number of columns."
            )
    # A column that is empty everywhere, header included, is an artefact of a
    # trailing separator, not data.
    keep = [j for j in range(width) if any(cells[j] for cells in rows)]
    rows = [[cells[j] for j in keep] for cells in rows]

    # Naming the label column in the first row marks a header even when no column is
    # numeric, so that the messages can use the user's names.
    has_header = _has_header(rows) or (label_column is not None and label_column in rows[0])
    if not has_header and len(rows) == 1 and any(_is_text(cell) for cell in rows[0]):
        raise CSVError(
            f"The file has only a header row ({', '.join(rows[0])}) and no data rows."
        )
    if has_header:
        names = [name or f"x{j + 1}" for j, name in enumerate(rows[0])]
        rows, lines = rows[1:], lines[1:]
        _check_unique(names)
    else:
        names = [f"x{j + 1}" for j in range(len(rows[0]))]
    return _Table(names, rows, lines, has_header, delimiter)


_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+(?:[eE][+-]?\d+)?")


def _decimal_point(cell: str) -> str:
    """``1,5`` → ``1.5`` (a lone decimal comma); any other cell unchanged."""
    return cell.replace(",", ".") if _DECIMAL_COMMA.fullmatch(cell) else cell


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
        table = _parse_table(_decode(data), None)
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


def _label_guess(table: _Table) -> str | None:
    if not table.has_header or len(table.names) < 2:
        return None
    text = [name for j, name in enumerate(table.names) if _mostly_text(table, j)]
    if len(text) == 1:
        return text[0]
    named = [name for name in table.names if name.strip().lower() in LABEL_NAMES]
    return named[0] if len(named) == 1 else None


def _mostly_text(table: _Table, j: int) -> bool:
    column = [row[j] for row in table.rows]
    try:
        np.array(column, dtype=float)  # fast path: a column of plain numbers
        return False
    except ValueError:
        return sum(map(_is_text, column)) > len(column) / 2


# One physical line and its ending, split as io.StringIO(newline="") splits them (the
# csv module's contract); it matches the empty string only at the end of the text.
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _read_rows(text: str, delimiter: str) -> tuple[list[list[str]], list[int]]:
    """The non-blank rows of stripped cells and the line number where each ends.

    The limits are checked while reading, so that an over-limit file costs little more
    than its text: at most ``MAX_ROWS + 2`` rows are kept (a header and one row too
    many, for an exact message), a line with more than ``MAX_COLUMNS`` separators and
    no quotes is refused before it is split, and a row longer than ``MAX_ROW_CHARS``
    is refused before the csv module holds it.
    """
    since_row = 0  # characters handed to the csv reader since it last returned a row
    row_start = 1  # the line on which that row started

    def lines() -> Iterator[str]:
        nonlocal since_row, row_start
        for number, match in enumerate(_PHYSICAL_LINE.finditer(text), start=1):
            start, end = match.span()
            if start == end:
                return
            if since_row == 0:
                row_start = number
                # On a line that starts a row and has no quotes, every separator splits.
                if text.find('"', start, end) < 0:
                    _check_columns(text.count(delimiter, start, end) + 1, number)
            since_row += end - start
            if since_row > MAX_ROW_CHARS:
                _refuse_long_row(text, match, row_start, number)
            yield match.group()

    reader = csv.reader(lines(), delimiter=delimiter)
    rows, numbers = [], []
    try:
        for cells in reader:
            since_row = 0
            _check_columns(len(cells), reader.line_num)
            if any(cell.strip() for cell in cells):  # blank lines carry no data
                if len(rows) == MAX_ROWS + 2:  # a header and MAX_ROWS + 1 rows are kept
                    _refuse_rows(text)
                rows.append([cell.strip() for cell in cells])
                numbers.append(reader.line_num)
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise CSVError(
                f"Line {reader.line_num:,} holds a value of more than "
                f"{csv.field_size_limit():,} characters: a quote (\") is probably not "
                "closed. Close it, or remove the stray quote, and upload again."
            ) from None
        raise CSVError(f"Line {reader.line_num} cannot be read as CSV: {exc}.") from None
    return rows, numbers


def _check_columns(n_columns: int, line: int) -> None:
    if n_columns > MAX_COLUMNS:
        raise CSVError(
            f"The file has {n_columns:,} columns (line {line:,}); the app's limit is "
            f"{MAX_COLUMNS:,} columns. Keep the columns you need and upload again."
        )


def _refuse_rows(text: str) -> None:
    lines = max(text.count("\n"), text.count("\r")) + (not text.endswith(("\n", "\r")))
    raise CSVError(
        f"The file has more than {MAX_ROWS:,} data rows ({lines:,} lines); the app's limit "
        f"is {MAX_ROWS:,} rows, so that the n × n kernel matrix stays quick. Upload a sample "
        f"of at most {MAX_ROWS:,} rows."
    )


def _refuse_long_row(text: str, line: re.Match, row_start: int, number: int) -> None:
    limit = f"{MAX_ROW_CHARS // 2**20} MB"
    if row_start < number:
        raise CSVError(
            f"The row that starts on line {row_start:,} runs on past line {number:,}, for "
            f"more than {limit}: a quote (\") is probably not closed. Close it, or remove "
            "the stray quote, and upload again."
        )
    start, end = line.span()
    while end > start and text[end - 1] in "\r\n":  # without its ending, and no copy
        end -= 1
    length = end - start
    raise CSVError(
        f"Line {number:,} is {length:,} characters long; the app reads rows of at most "
        f"{limit}. Check that the file has one row per line, and upload a table of at most "
        f"{MAX_ROWS:,} rows and {MAX_COLUMNS:,} columns."
    )


def _detect_delimiter(text: str) -> str:
    """The separator found the same number of times on each of the first lines."""
    sample = [line for line in _head(text, 50) if line.strip()][:20]
    consistent = {}
    for delimiter in DELIMITERS:
        counts = {line.count(delimiter) for line in sample}
        if len(counts) == 1 and min(counts) > 0:
            consistent[delimiter] = counts.pop()
    if consistent:
        return max(consistent, key=consistent.get)  # first in DELIMITERS on a tie
    # Ragged or single-column: the most frequent separator gives the clearest error.
    return max(",;\t", key=lambda d: sum(line.count(d) for line in sample))


def _head(text: str, count: int, clip: int = 65536) -> list[str]:
    """The first ``count`` lines, each cut at ``clip`` characters (enough to count
    separators), without splitting the rest of the text."""
    head = []
    for match in _PHYSICAL_LINE.finditer(text):
        start, end = match.span()
        if start == end or len(head) == count:
            break
        head.append(text[start : min(end, start + clip)].rstrip("\r\n"))
    return head


def _has_header(rows: list[list[str]]) -> bool:
    """True if some first-row cell is text above a column that is mostly numbers, or if
    the first row is all text and some column below it holds only missing values (an
    empty or all-NaN column still has its name: the name is not a bad value)."""
    if not all(_is_text(cell) for cell in rows[0]):
        return _text_above_numbers(rows)
    below = [[row[j] for row in rows[1:] if row[j].lower() not in MISSING]
             for j in range(len(rows[0]))]
    return len(rows) > 1 and not all(below) or _text_above_numbers(rows)


def _text_above_numbers(rows: list[list[str]]) -> bool:
    for j, cell in enumerate(rows[0]):
        if _is_text(cell):
            below = [row[j] for row in rows[1:] if row[j].lower() not in MISSING]
            if below and sum(_to_float(value) is not None for value in below) > len(below) / 2:
                return True
    return False


def _check_unique(names: list[str]) -> None:
    seen: dict[str, int] = {}
    for j, name in enumerate(names):
        if name in seen:
            raise CSVError(
                f"The column name {name!r} appears twice in the header (columns {seen[name] + 1} "
                f"and {j + 1}). Give each column a different name."
            )
        seen[name] = j


def _check_rows_limit(n_rows: int) -> None:
    # Columns were checked while reading (_read_rows), and so were rows past MAX_ROWS + 1.
    if n_rows > MAX_ROWS:
        raise CSVError(
            f"The file has {n_rows:,} data rows; the app's limit is {MAX_ROWS:,} rows, so that "
            f"the n × n kernel matrix stays quick. Upload a sample of at most {MAX_ROWS:,} rows."
        )


def _check_some_number(table: _Table, X: np.ndarray, features: list[int]) -> None:
    """Refuse a file without a single finite number (e.g. all NaN): no rows to drop."""
    if X.size and not np.isfinite(X).any():
        besides = " besides the labels" if len(features) < len(table.names) else ""
        raise CSVError(
            f"The file holds no numbers: every value in its columns{besides} is missing, "
            f"NaN or infinite (e.g. {table.rows[0][features[0]]!r} on line {table.lines[0]}, "
            f"column {table.names[features[0]]!r}). Check that this is the file you meant "
            "to upload, with its values filled in."
        )


def _complete_rows(
    table: _Table, X: np.ndarray, features: list[int], label: int | None, drop: bool
) -> np.ndarray:
    """Mask of rows without missing, NaN or infinite values; refuse the others unless
    ``drop``."""
    complete = np.isfinite(X).all(axis=1)
    if label is not None:
        complete &= np.array([row[label].lower() not in MISSING for row in table.rows])
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
    if len(np.unique(X, axis=0)) == 1:
        raise CSVError(
            f"All {len(X)} rows have the same values; KPCA needs at least two different rows."
        )


def _label_index(table: _Table, label_column: str | None) -> int | None:
    if label_column is None:
        return None
    if label_column not in table.names:
        unnamed = "" if table.has_header else " (the file has no header row, so they are numbered)"
        raise CSVError(
            f"There is no column named {label_column!r}. The columns are: "
            f"{', '.join(table.names)}{unnamed}."
        )
    return table.names.index(label_column)


def _numeric_columns(table: _Table, columns: list[int]) -> np.ndarray:
    """Parse the feature columns as float64; missing cells become NaN."""
    X = np.empty((len(table.rows), len(columns)))
    text_columns = []
    for k, j in enumerate(columns):
        column = [row[j] for row in table.rows]
        try:
            X[:, k] = np.array(column, dtype=float)  # fast path: every cell a plain number
            continue
        except ValueError:
            pass
        values = [_to_float(cell) for cell in column]
        bad = [i for i, value in enumerate(values) if value is None]
        if len(bad) > len(values) / 2:
            # Show a decimal comma if there is one: it is the likeliest cause.
            example = next((i for i in bad if _decimal_comma_hint(table.rows[i][j])), bad[0])
            text_columns.append((j, example))
        elif bad:
            raise CSVError(_stray_text_message(table, j, bad[0]))
        else:
            X[:, k] = values
    if not text_columns:
        return X
    j, i = text_columns[0]
    value, line = table.rows[i][j], table.lines[i]
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


def _stray_text_message(table: _Table, j: int, i: int) -> str:
    value, name = table.rows[i][j], table.names[j]
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


def _to_float(cell: str) -> float | None:
    """The cell's number, NaN for a missing value, or None for text."""
    if cell.lower() in MISSING:
        return float("nan")
    try:
        return float(cell)
    except ValueError:
        return None


def _is_text(cell: str) -> bool:
    return _to_float(cell) is None


def _encode_labels(labels: list[str]) -> tuple[np.ndarray, tuple[str, ...]]:
    """Map labels to 0..k-1 in sorted order (numerically if they are all numbers)."""
    distinct = set(labels)
    numeric = all(_to_float(value) is not None for value in distinct)
    names = sorted(distinct, key=float if numeric else str)
    index = {name: k for k, name in enumerate(names)}
    return np.array([index[value] for value in labels], dtype=np.int64), tuple(names)


def _describe(
    table: _Table, origin: str, X: np.ndarray, label: int | None,
    target_names: tuple[str, ...], dropped: int,
) -> str:
    parts = [f"Your data from {origin}: {X.shape[0]} rows and {X.shape[1]} numeric columns"]
    parts.append(
        "named in the header row" if table.has_header
        else f"named x1..x{X.shape[1]} because the file has no header row"
    )
    if len(table.names) > 1:
        parts.append(f"separated by {DELIMITERS[table.delimiter]}s")
    if label is not None:
        parts.append(f"classes from column {table.names[label]!r} ({len(target_names)} classes)")
    if dropped:
        parts.append(f"{dropped} rows with missing, NaN or infinite values were dropped")
    return (
        "; ".join(parts) + ". The columns are used as they are: if their scales differ "
        "a lot, the largest one dominates both linear and RBF kernels."
    )
