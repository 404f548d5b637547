"""A student's uploaded CSV: parsed once, kept in their own session, gone when it ends.

Each session holds one :class:`SessionFiles` in its ``st.session_state``, never in a
server-wide store: a :class:`datasets.UploadReader` (each uploaded file is parsed once,
not on every rerun, and a refused file is refused again without a parse) and the
:class:`SessionUpload` on screen. So a class of thirty never evicts each other's files,
and no session can reach another's data: even a forged cache key finds nothing here.

Results computed from an upload that hold its rows (fitted models, projections) are
kept with the upload as well: :func:`shell.caches.results_store` gives each of the
server's stores a small per-session twin in :attr:`SessionUpload.results`, dropped with
the upload. Results kept by ``st.cache_data`` are pickled copies in its bounded caches
(every one has ``max_entries``); they never hold the session's arrays.

Streamlit drops a session's state when the session ends (a closed tab's session is kept
for ``server.disconnectedSessionTTL`` seconds, 120 by default, so that a network blip can
reconnect to it), and the upload with it.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import datasets

# Session-state key of the session's files (no "w_" prefix: not a widget).
FILES_KEY = "_kpca_files"


@dataclass(eq=False)
class SessionUpload:
    """The session's parsed upload, the options that name it, and what was computed from it.

    Attributes
    ----------
    options : tuple
        The cache key of the upload (:func:`csv_options`): its fingerprint and how it was read.
    data : datasets.Dataset
        The parsed file (read-only arrays).
    results : dict
        Per-session result stores, one for each server-wide store (``shell.caches.results_store``).
    standardized_X : ndarray or None
        X with zero mean and unit variance per column, once a page has asked for it.
    """

    options: tuple[tuple[str, object], ...]
    data: datasets.Dataset
    results: dict = field(default_factory=dict)
    # X standardised per column, made on first use (shell.caches.inputs), read-only.
    standardized_X: np.ndarray | None = None


@dataclass(eq=False)
class SessionFiles:
    """Everything one session holds of its uploads: the reader and the upload on screen."""

    reader: datasets.UploadReader = field(default_factory=datasets.UploadReader)
    upload: SessionUpload | None = None


class NoUploadError(ValueError):
    """'Your own CSV' is chosen but no usable file is in memory; the message says what to do."""


def csv_options(
    digest: str, label_column: str | None, drop_missing: bool = False
) -> tuple[tuple[str, object], ...]:
    """The cache key of an upload: its fingerprint (``datasets.csv_digest``) and how it was read."""
    options = (("file", digest), ("label", label_column or ""))
    # Sorted, as Settings.dataset_options are: the same upload is one cache key.
    return tuple(sorted(options + ((("drop", True),) if drop_missing else ())))


def session_files() -> SessionFiles:
    """This session's :class:`SessionFiles`, made on first use."""
    files = st.session_state.get(FILES_KEY)
    if files is None:
        files = st.session_state[FILES_KEY] = SessionFiles()
    return files


def check_upload(content: bytes, file_id: str) -> datasets.CSVCheck:
    """What the uploaded file offers (columns, label guess) or why it is refused; parsed once
    per uploaded file (``file_id``: the uploader's id, new for every upload)."""
    return session_files().reader.check(content, key=file_id)


def load_upload(
    content: bytes, check: datasets.CSVCheck, file_id: str, label_column: str | None,
    drop_missing: bool = False,
) -> tuple[tuple[str, object], ...]:
    """Put the upload, read this way, on screen in this session; returns its options.

    Raises ``datasets.CSVError``. The session keeps one upload: a new file (or the same
    file read with another label column) replaces the previous one and everything
    computed from it; a file that fails to parse changes nothing. The same choice again
    (every rerun) costs nothing, a refused one is refused from memory.
    ``drop_missing`` drops rows with missing, NaN or infinite values instead of refusing
    the file (``datasets.load_csv(drop_nonfinite=True)``).
    """
    files = session_files()
    options = csv_options(check.digest, label_column, drop_missing)
    if files.upload is None or files.upload.options != options:
        data = files.reader.load(content, label_column or None, drop_missing, key=file_id)
        files.upload = SessionUpload(options, data)
    return options


def session_upload(options: tuple[tuple[str, object], ...]) -> SessionUpload:
    """This session's upload named by ``options``; NoUploadError (with what to do) if none."""
    if not options:
        raise NoUploadError("Upload a CSV file in the sidebar to explore your own data.")
    files = st.session_state.get(FILES_KEY)
    upload = files.upload if files is not None else None
    if upload is None or upload.options != options:
        raise NoUploadError(
            "This session holds no uploaded file with these settings (uploads live only in "
            "the session that uploaded them). Upload the file again in the sidebar."
        )
    return upload
