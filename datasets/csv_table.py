"""CSV text to a compact table, within the app's limits: the reading half of the loader.

Two costs are bounded here. A file past the limits is refused while it is read, so it
costs little more than its own text however it is shaped (millions of tiny rows, a
million columns, one huge line). A file within them is held as one float per cell plus
the text of the few cells that are not plain numbers (labels, missing values, stray
text), not as one Python string per cell: the largest table the app takes, 5,000 rows ×
1,000 columns, needs 40 MB instead of ~400 MB.

Line numbers are the file's physical lines, counting from 1 (the header, when there is
one, is line 1), as a text editor shows them.
"""

from __future__ import annotations

import csv
import re
from collections.abc import Iterator
from dataclasses import dataclass
from itertools import islice

import numpy as np

from ._types import SaidError, said

# The app's limits: the kernel matrix is n × n and must stay interactive.
MAX_ROWS = 5000
MAX_COLUMNS = 1000
# A row of the largest table the app takes (1,000 long numbers) is ~25 kB; a row
# longer than this is refused before it is split, so one huge line costs no more
# than the file itself.
MAX_ROW_CHARS = 2**20

# Tried in this order; on a tie the rarer separators win, because a file with the
# same number of semicolons on every line is semicolon-separated even if it also
# has decimal commas.
DELIMITERS = {"\t": "tab", ";": "semicolon", ",": "comma"}
MISSING = {"", "na", "nan", "n/a", "null"}


class CSVError(SaidError, ValueError):
    """The file cannot be used; the message (its sentences) is meant for the user."""


@dataclass(frozen=True)
class Table:
    """A file's data rows: each cell's number, and the cells that are not plain numbers.

    Attributes
    ----------
    names : list of str
        Column names: the header's, or ``x1 .. xd``.
    values : ndarray of shape (n_rows, n_columns)
        Each cell as a float; NaN where the cell is missing or text.
    odd : list of dict
        Per column, ``{row: cell}`` for every cell that is not a finite number (missing,
        text, NaN, infinite), as written: what messages quote.
    lines : list of int
        The physical line where each row ends.
    """

    names: list[str]
    values: np.ndarray
    odd: list[dict[int, str]]
    lines: list[int]
    has_header: bool
    delimiter: str
    text: str  # the whole text, to read a column's own spelling again (column_cells)
    raw_columns: list[int]  # each column's place in the file's rows (empty ones dropped)

    @property
    def n_rows(self) -> int:
        return len(self.lines)

    def text_rows(self, j: int) -> list[int]:
        """The rows, in order, where column ``j`` holds text (not a number, not missing)."""
        return [i for i, cell in self.odd[j].items() if is_text(cell)]

    def column_cells(self, j: int) -> list[str]:
        """Every cell of column ``j`` as written (a label's spelling: "1" is not "1.0")."""
        column = self.odd[j]
        if len(column) == self.n_rows:  # all text or missing: every cell was kept
            return [column[i] for i in range(self.n_rows)]
        # The numbers were kept as floats only: read the column again.
        raw, skip = self.raw_columns[j], int(self.has_header)
        cells = [cells[raw] for cells, _ in islice(_rows(self.text, self.delimiter), skip, None)]
        return _decimal_points(cells) if self.delimiter != "," else cells


def parse_table(text: str, label_column: str | None) -> Table:
    """Read the rows of ``text`` within the limits, drop empty columns, find the header."""
    delimiter = _detect_delimiter(text)
    first, values, odd, lines = _read_cells(text, delimiter)
    if first is None:
        raise CSVError(said("The file is empty."))
    n = len(lines)
    # A column that is empty everywhere, header included, is an artefact of a
    # trailing separator, not data.
    keep = [j for j in range(len(first)) if len(odd[j]) < n or any(odd[j].values())]
    if len(keep) < len(first):
        first, values, odd = [first[j] for j in keep], values[:, keep], [odd[j] for j in keep]

    # Naming the label column in the first row marks a header even when no column is
    # numeric, so that the messages can use the user's names.
    has_header = _has_header(first, odd, n) or (
        label_column is not None and label_column in first
    )
    if not has_header and n == 1 and any(is_text(cell) for cell in first):
        raise CSVError(said("The file has only a header row ({names}) and no data rows.",
                            names=", ".join(first)))
    if has_header:
        names = [name or f"x{j + 1}" for j, name in enumerate(first)]
        _check_unique(names)
        values, lines = values[1:], lines[1:]
        odd = [{i - 1: cell for i, cell in column.items() if i} for column in odd]
    else:
        names = [f"x{j + 1}" for j in range(len(first))]
    return Table(names, values, odd, lines, has_header, delimiter, text, keep)


def _read_cells(
    text: str, delimiter: str
) -> tuple[list[str] | None, np.ndarray | None, list[dict[int, str]], list[int]]:
    """The first row's cells, every row's numbers, the odd cells and the row lines."""
    first: list[str] | None = None
    values: np.ndarray | None = None
    odd: list[dict[int, str]] = []
    lines: list[int] = []
    for cells, line in _rows(text, delimiter):
        if delimiter != ",":
            # Semicolon or tab files from a European-locale spreadsheet write 1,5 for 1.5.
            cells = _decimal_points(cells)
        if first is None:
            first, odd = cells, [{} for _ in cells]
            # Pages are only touched as rows arrive: a small file costs what it uses.
            values = np.empty((MAX_ROWS + 2, len(cells)))
            converter = _Converter(len(cells))
        elif len(cells) != len(first):
            counts = {"line": line, "count": len(cells), "first_line": lines[0],
                      "first_count": len(first)}
            raise CSVError({
                "\t": said("Line {line} has {count} values but line {first_line} has "
                           "{first_count} (reading the tab as the separator). Every row needs "
                           "the same number of columns.", **counts),
                ";": said("Line {line} has {count} values but line {first_line} has "
                          "{first_count} (reading the semicolon as the separator). Every row "
                          "needs the same number of columns.", **counts),
                ",": said("Line {line} has {count} values but line {first_line} has "
                          "{first_count} (reading the comma as the separator). Every row needs "
                          "the same number of columns.", **counts),
            }[delimiter])
        converter.fill(cells, values[len(lines)], odd, len(lines))
        lines.append(line)
    return first, None if values is None else values[: len(lines)], odd, lines


class _Converter:
    """Parses a row's cells into floats: one numpy call for the columns that have held
    numbers so far, Python cell by cell for the columns that have held text."""

    def __init__(self, width: int) -> None:
        self.width = width
        self.text_columns: set[int] = set()
        self.numeric = np.arange(width)

    def fill(self, cells: list[str], out: np.ndarray, odd: list[dict[int, str]], i: int) -> None:
        try:
            if self.text_columns:
                out[self.numeric] = np.array([cells[j] for j in self.numeric], dtype=float)
                for j in self.text_columns:
                    out[j] = _number(cells[j])
            else:
                out[:] = np.array(cells, dtype=float)
        except ValueError:  # a missing value, or text where numbers were so far
            out[:] = [_number(cell) for cell in cells]
        for j in np.flatnonzero(~np.isfinite(out)).tolist():
            odd[j][i] = cells[j]
            if j not in self.text_columns and is_text(cells[j]):
                self.text_columns.add(j)
                self.numeric = np.setdiff1d(self.numeric, j)


def _number(cell: str) -> float:
    value = to_float(cell)
    return np.nan if value is None else value


def to_float(cell: str) -> float | None:
    """The cell's number, NaN for a missing value, or None for text."""
    if cell.lower() in MISSING:
        return float("nan")
    try:
        return float(cell)
    except ValueError:
        return None


def is_text(cell: str) -> bool:
    return to_float(cell) is None


_DECIMAL_COMMA = re.compile(r"[+-]?\d*,\d+(?:[eE][+-]?\d+)?")


def decimal_point(cell: str) -> str:
    """``1,5`` → ``1.5`` (a lone decimal comma); any other cell unchanged."""
    return cell.replace(",", ".") if _DECIMAL_COMMA.fullmatch(cell) else cell


def _decimal_points(cells: list[str]) -> list[str]:
    return [decimal_point(cell) if "," in cell else cell for cell in cells]


def _has_header(first: list[str], odd: list[dict[int, str]], n: int) -> bool:
    """True if some first-row cell is text above a column that is mostly numbers, or if
    the first row is all text and some column below it holds only missing values (an
    empty or all-NaN column still has its name: the name is not a bad value)."""
    some_column_all_missing = False
    for j, cell in enumerate(first):
        missing = text = 0
        for i, below in odd[j].items():
            if i and below.lower() in MISSING:
                missing += 1
            elif i and is_text(below):
                text += 1
        present = n - 1 - missing  # the rest are numbers or text
        if present and is_text(cell) and present - text > present / 2:
            return True
        some_column_all_missing |= n > 1 and not present
    return some_column_all_missing and all(is_text(cell) for cell in first)


def _check_unique(names: list[str]) -> None:
    seen: dict[str, int] = {}
    for j, name in enumerate(names):
        if name in seen:
            raise CSVError(said(
                "The column name {name} appears twice in the header (columns {first} and "
                "{second}). Give each column a different name.", name=repr(name),
                first=seen[name] + 1, second=j + 1))
        seen[name] = j


# --- reading rows within the limits --------------------------------------------------

# One physical line and its ending, split as io.StringIO(newline="") splits them (the
# csv module's contract); it matches the empty string only at the end of the text.
_PHYSICAL_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)?")


def _rows(text: str, delimiter: str) -> Iterator[tuple[list[str], int]]:
    """The non-blank rows of stripped cells and the line number where each ends.

    The limits are checked while reading, so that an over-limit file costs little more
    than its text: at most ``MAX_ROWS + 2`` rows are read (a header and one row too
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
    n_rows = 0
    try:
        for cells in reader:
            since_row = 0
            _check_columns(len(cells), reader.line_num)
            if any(cell.strip() for cell in cells):  # blank lines carry no data
                if n_rows == MAX_ROWS + 2:  # a header and MAX_ROWS + 1 rows were read
                    _refuse_rows(text)
                n_rows += 1
                yield [cell.strip() for cell in cells], reader.line_num
    except csv.Error as exc:
        if "field larger than field limit" in str(exc):
            raise CSVError(said(
                "Line {line} holds a value of more than {limit} characters: a quote (\") is "
                "probably not closed. Close it, or remove the stray quote, and upload again.",
                line=format(reader.line_num, ","), limit=format(csv.field_size_limit(), ",")),
            ) from None
        raise CSVError(said("Line {line} cannot be read as CSV: {error}.",
                            line=reader.line_num, error=str(exc))) from None


def _check_columns(n_columns: int, line: int) -> None:
    if n_columns > MAX_COLUMNS:
        raise CSVError(said(
            "The file has {columns} columns (line {line}); the app's limit is {limit} "
            "columns. Keep the columns you need and upload again.",
            columns=format(n_columns, ","), line=format(line, ","),
            limit=format(MAX_COLUMNS, ",")))


def _refuse_rows(text: str) -> None:
    lines = max(text.count("\n"), text.count("\r")) + (not text.endswith(("\n", "\r")))
    raise CSVError(said(
        "The file has more than {limit} data rows ({lines} lines); the app's limit is {limit} "
        "rows, so that the n × n kernel matrix stays quick. Upload a sample of at most "
        "{limit} rows.", limit=format(MAX_ROWS, ","), lines=format(lines, ",")))


def _refuse_long_row(text: str, line: re.Match, row_start: int, number: int) -> None:
    limit = format(MAX_ROW_CHARS, ",")
    if row_start < number:
        raise CSVError(said(
            "The row that starts on line {start} runs on past line {line}, for more than "
            "{limit} characters: a quote (\") is probably not closed. Close it, or remove the "
            "stray quote, and upload again.", start=format(row_start, ","),
            line=format(number, ","), limit=limit))
    start, end = line.span()
    while end > start and text[end - 1] in "\r\n":  # without its ending, and no copy
        end -= 1
    raise CSVError(said(
        "Line {line} is {length} characters long; the app reads rows of at most {limit} "
        "characters. Check that the file has one row per line, and upload a table of at most "
        "{rows} rows and {columns} columns.", line=format(number, ","),
        length=format(end - start, ","), limit=limit, rows=format(MAX_ROWS, ","),
        columns=format(MAX_COLUMNS, ",")))


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
