"""A student's uploaded CSV: parsed once, kept in their own session, gone when it ends.

The parsed upload (and its standardised copy, when asked for) lives in the session's
``st.session_state``, never in a server-wide store. Streamlit drops a session's state
when the session ends: a closed tab's session is kept for
``server.disconnectedSessionTTL`` seconds (120 by default) so that a network blip can
reconnect to it, then discarded, and the upload with it. So a class of thirty never
evicts each other's files (a server-wide store of the last few uploads did), and no
session can reach another's data: even a forged cache key finds nothing here.

Results computed from an upload that hold its rows (fitted models, projections) are
kept with the upload as well: :func:`shell.caches.results_store` gives each of the
server's stores a small per-session twin in :attr:`SessionUpload.results`, dropped with
the upload. Results kept by ``st.cache_data`` are pickled copies in its bounded caches
(every one has ``max_entries``); they never hold the session's arrays.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

import numpy as np
import streamlit as st

import datasets
from shell import costs
from shell.admission import taking_turn

# Session-state key of the session's upload (no "w_" prefix: not a widget).
UPLOAD_KEY = "_kpca_upload"


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


class NoUploadError(ValueError):
    """'Your own CSV' is chosen but no usable file is in memory; the message says what to do."""


def csv_options(
    content: bytes, label_column: str | None, drop_missing: bool = False
) -> tuple[tuple[str, object], ...]:
    """The cache key of an upload: a fingerprint of its bytes plus how it was read."""
    fingerprint = hashlib.sha256(content).hexdigest()[:20]
    options = (("file", fingerprint), ("label", label_column or ""))
    # Sorted, as Settings.dataset_options are: the same upload is one cache key.
    return tuple(sorted(options + ((("drop", True),) if drop_missing else ())))


def load_upload(
    content: bytes, label_column: str | None, drop_missing: bool = False
) -> tuple[tuple[str, object], ...]:
    """Parse an upload (raises ``datasets.CSVError``) into this session; returns its options.

    The session keeps one upload: a new file (or the same file read with another label
    column) replaces the previous one and everything computed from it. A file that fails
    to parse changes nothing. ``drop_missing`` drops rows with missing, NaN or infinite
    values instead of refusing the file (``datasets.load_csv(drop_nonfinite=True)``).
    """
    options = csv_options(content, label_column, drop_missing)
    current = st.session_state.get(UPLOAD_KEY)
    if current is None or current.options != options:
        # One parse at a time server-wide (shell.admission's upload lane): ten students
        # uploading at once queue instead of multiplying memory; small views never wait.
        with taking_turn(len(content), estimate=costs.csv_parse(len(content)),
                         what="reading your file", upload=True):
            data = datasets.load_csv(
                content, label_column=label_column or None, drop_nonfinite=drop_missing
            )
        st.session_state[UPLOAD_KEY] = SessionUpload(options, data)
    return options


def session_upload(options: tuple[tuple[str, object], ...]) -> SessionUpload:
    """This session's upload named by ``options``; NoUploadError (with what to do) if none."""
    if not options:
        raise NoUploadError("Upload a CSV file in the sidebar to explore your own data.")
    upload = st.session_state.get(UPLOAD_KEY)
    if upload is None or upload.options != options:
        raise NoUploadError(
            "This session holds no uploaded file with these settings (uploads live only in "
            "the session that uploaded them). Upload the file again in the sidebar."
        )
    return upload
