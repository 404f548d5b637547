"""The sidebar's controls for an uploaded CSV: the file, its label column, missing values.

Drawn by :func:`shell.sidebar.settings_sidebar` when the dataset is "Your own CSV". The file
itself is kept in the student's session (:mod:`shell.uploads`).
"""

from __future__ import annotations

import csv

import streamlit as st

import datasets
from shell import uploads

# No "w_" prefix: an uploader's value cannot be re-committed through session state.
K_CSV_FILE, K_CSV_LABEL, _CSV_LAST_GOOD = "upload_csv", "w_csv_label", "_kpca_csv_last_good"
K_CSV_DROP, _CSV_LAST_NAME, _CSV_SEEN = "w_csv_drop", "_kpca_csv_last_name", "_kpca_csv_seen"
NO_LABEL = "(no labels)"


def csv_controls() -> tuple[tuple[str, object], ...]:
    """Upload widgets; returns the options of the upload to show (the last good one).

    A file that fails to parse shows its error here and leaves the previous upload in
    place, so a typo in a CSV never costs the student the data already on screen; the
    sidebar always names the file that is on screen.
    """
    ss = st.session_state
    last_good = ss.get(_CSV_LAST_GOOD, ())
    upload = st.file_uploader(
        "CSV file",
        type=["csv", "tsv", "txt"],
        key=K_CSV_FILE,
        help="Numeric columns (at most 5,000 rows), optionally one column of class labels. "
        "Comma, semicolon or tab separated; decimal commas are fine in semicolon files. "
        "The file stays on the server only while this browser tab's session lasts; links "
        "cannot carry it.",
    )
    if upload is None:
        _name_shown_file(last_good)
        return last_good
    content = upload.getvalue()
    fingerprint = uploads.csv_options(content, None)[0][1]
    if ss.get(_CSV_SEEN) != fingerprint:  # a new file: offer its obvious label column
        ss[_CSV_SEEN] = fingerprint
        ss[K_CSV_LABEL] = datasets.guess_label_column(content) or NO_LABEL
    choices = [NO_LABEL, *_csv_column_names(content)]
    if ss.get(K_CSV_LABEL) not in choices:
        ss[K_CSV_LABEL] = NO_LABEL
    label = st.selectbox("Label column", choices, key=K_CSV_LABEL)
    drop = st.checkbox(
        "Drop rows with missing values",
        key=K_CSV_DROP,
        help="Rows with an empty, NA, NaN or infinite cell are left out (the page says how "
        "many) instead of refusing the file.",
    )
    try:
        options = uploads.load_upload(content, None if label == NO_LABEL else label, drop)
    except datasets.CSVError as error:
        previous = ss.get(_CSV_LAST_NAME)
        keep = f" Still showing the previous upload, **{previous}**." if last_good else ""
        st.error(f"**{upload.name}** cannot be used: {error}{keep}")
        return last_good
    ss[_CSV_LAST_GOOD] = options
    ss[_CSV_LAST_NAME] = upload.name
    _name_shown_file(options)
    return options


def _name_shown_file(options) -> None:
    if options and st.session_state.get(_CSV_LAST_NAME):
        st.caption(f"On screen: **{st.session_state[_CSV_LAST_NAME]}**")


def _csv_column_names(content: bytes) -> list[str]:
    """Column names to offer as the label column (best effort: errors come later).

    A binary file (a workbook renamed .csv) has no columns to offer: its bytes never
    end up in the label box; load_csv's message says what it is.
    """
    head = content[:8192]
    if b"\x00" in head or any(head.startswith(m) for m in datasets.BINARY_SIGNATURES):
        return []
    try:
        head.decode("utf-8")
    except UnicodeDecodeError as error:
        if error.start < len(head) - 4:  # not just a character cut at the 8 KB edge
            return []
    try:
        return list(datasets.load_csv(content).feature_names)
    except datasets.CSVError:  # e.g. a text label column: read the header line instead
        pass
    first_line = content[:65536].decode("utf-8-sig", errors="replace").splitlines()[:1]
    if not first_line:
        return []
    try:
        dialect = csv.Sniffer().sniff(first_line[0], delimiters=",;\t")
    except csv.Error:
        return [first_line[0].strip()] if first_line[0].strip() else []
    return [name.strip() for name in next(csv.reader(first_line, dialect)) if name.strip()]
