"""One student's uploaded CSV files, each parsed once however often the page reruns.

A Streamlit page reruns on every click, and the uploader hands it the same bytes each
time. :class:`UploadReader` remembers, by the content's digest, what each file gave:
its :class:`~datasets.csv_loader.CSVCheck` (column names, the guessed label column, or
why the file is refused), the refusals of :func:`~datasets.csv_loader.load_csv` for each
label column and missing-value choice, and the last data set loaded. What it keeps is
small (names and messages) apart from that one data set, and it keeps nothing but what
its owner gave it: one reader per session, held in the session's state, goes with it.
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from ._types import Dataset, Sentence
from .csv_loader import CSVCheck, CSVError, check_csv, csv_digest, load_csv


class UploadReader:
    """Check and load uploaded CSV files, parsing each (file, label, drop) at most once.

    Parameters
    ----------
    max_files : int
        How many files' checks to remember (a student going back and forth between two).
    max_refusals : int
        How many refused (file, label column, drop) combinations to remember.

    Examples
    --------
    >>> reader = UploadReader()
    >>> content = b"a,b,kind\\n1,2,p\\n3,5,q\\n4,4,p\\n"
    >>> reader.check(content).column_names
    ('a', 'b', 'kind')
    >>> reader.check(content).label_guess
    'kind'
    >>> reader.load(content, label_column="kind").target_names
    ('p', 'q')
    """

    def __init__(self, max_files: int = 2, max_refusals: int = 16) -> None:
        self.max_files = max_files
        self.max_refusals = max_refusals
        self._checks: OrderedDict[str, CSVCheck] = OrderedDict()
        self._refusals: OrderedDict[tuple, tuple[Sentence, ...]] = OrderedDict()
        self._last: tuple[tuple, Dataset] | None = None
        # A session's reruns do not overlap, but a stopped run may still be finishing.
        self._lock = threading.Lock()

    def check(self, content: bytes, *, key: str | None = None) -> CSVCheck:
        """:func:`~datasets.csv_loader.check_csv` of ``content``, parsed on the first call only.

        ``key`` names the content if the caller already has a name for it that changes
        whenever the bytes do (e.g. an upload's id); by default the digest of the bytes.
        """
        key = key or csv_digest(content)
        with self._lock:
            found = self._checks.get(key)
            if found is None:
                found = self._checks[key] = check_csv(content)
                _trim(self._checks, self.max_files)
            self._checks.move_to_end(key)
            return found

    def load(
        self,
        content: bytes,
        label_column: str | None = None,
        drop_nonfinite: bool = False,
        *,
        key: str | None = None,
    ) -> Dataset:
        """:func:`~datasets.csv_loader.load_csv` of ``content``, remembered.

        A file that :meth:`check` refuses is refused without another parse; a refusal of
        ``load_csv`` is remembered for its (file, label column, drop) and raised again at
        once; the last data set loaded is returned again without a parse.

        Raises
        ------
        CSVError
            With the message :func:`~datasets.csv_loader.load_csv` gives.
        """
        key = key or csv_digest(content)
        refused = self.check(content, key=key).refusal
        if refused is not None:
            raise CSVError(*refused)
        options: tuple[Any, ...] = (key, label_column or None, bool(drop_nonfinite))
        with self._lock:
            if self._last is not None and self._last[0] == options:
                return self._last[1]
            if options in self._refusals:
                self._refusals.move_to_end(options)
                raise CSVError(*self._refusals[options])
            try:
                data = load_csv(content, label_column=label_column or None,
                                drop_nonfinite=drop_nonfinite)
            except CSVError as error:
                self._refusals[options] = error.sentences
                _trim(self._refusals, self.max_refusals)
                raise
            self._last = (options, data)
            return data

    def clear(self) -> None:
        """Forget everything (e.g. when the student removes the file)."""
        with self._lock:
            self._checks.clear()
            self._refusals.clear()
            self._last = None


def _trim(entries: OrderedDict, size: int) -> None:
    while len(entries) > size:
        entries.popitem(last=False)
