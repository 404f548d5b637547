"""The sidebar's controls for an uploaded CSV: the file, its label column, missing values.

Drawn by :func:`shell.sidebar.settings_sidebar` when the dataset is "Your own CSV". The file
itself is kept in the student's session (:mod:`shell.uploads`).
"""

from __future__ import annotations

import streamlit as st

import datasets
from shell import uploads
from words.i18n import N_, _, format_number, said_text
from words.text import inert

# No "w_" prefix: an uploader's value cannot be re-committed through session state.
K_CSV_FILE, K_CSV_LABEL, _CSV_LAST_GOOD = "upload_csv", "w_csv_label", "_kpca_csv_last_good"
K_CSV_DROP, _CSV_LAST_NAME, _CSV_SEEN = "w_csv_drop", "_kpca_csv_last_name", "_kpca_csv_seen"
NO_LABEL = N_("(no labels)")  # an option kept in the session: shown translated
# The uploader's limit, in the megabytes (10^6 bytes) the browser counts and shows; the
# loader refuses anything larger (datasets.MAX_BYTES) in the same unit.
UPLOAD_LIMIT_MB = datasets.MAX_BYTES // 10**6
# A refusal quotes a few cells; a longer message (a huge cell) is shortened.
MESSAGE_CHARS = 600


def csv_controls() -> tuple[tuple[str, object], ...]:
    """Upload widgets; returns the options of the upload to show (the last good one).

    Each uploaded file is read once (:mod:`shell.uploads`): later reruns, a click on any
    widget, cost no parse, and a refused file costs nothing more. A file that cannot be
    used shows why here and leaves the previous upload in place, so a typo in a CSV never
    costs the student the data already on screen; the sidebar always names the file that
    is on screen. Names from the file are shown as text (:func:`words.text.inert`).
    """
    ss = st.session_state
    last_good = ss.get(_CSV_LAST_GOOD, ())
    upload = st.file_uploader(
        _("CSV file"),
        type=["csv", "tsv", "txt"],
        key=K_CSV_FILE,
        max_upload_size=UPLOAD_LIMIT_MB,
        help=_("Numeric columns (at most {rows} rows and {columns} columns, {mb} MB), "
               "optionally one column of class labels. Comma, semicolon or tab separated; "
               "decimal commas are fine in semicolon files. The file stays on the server "
               "only while this browser tab's session lasts; links cannot carry it.").format(
            rows=format_number(datasets.MAX_ROWS, ","),
            columns=format_number(datasets.MAX_COLUMNS, ","), mb=UPLOAD_LIMIT_MB),
    )
    if refused := uploads.refused_upload_message():
        st.warning(refused, icon=":material/cloud_off:")
    if upload is None:
        _name_shown_file(last_good)
        return last_good
    content = upload.getvalue()
    check = uploads.check_upload(content, upload.file_id)
    if check.refusal:
        _refuse(upload.name, said_text(check.refusal), last_good)
        return last_good
    if ss.get(_CSV_SEEN) != check.digest:  # a new file: offer its obvious label column
        ss[_CSV_SEEN] = check.digest
        ss[K_CSV_LABEL] = check.label_guess or NO_LABEL
    choices = [NO_LABEL, *check.column_names]
    if ss.get(K_CSV_LABEL) not in choices:
        ss[K_CSV_LABEL] = NO_LABEL
    no_label = _(NO_LABEL)  # in this run's language (a format_func may run outside it)
    label = st.selectbox(_("Label column"), choices, key=K_CSV_LABEL,
                         format_func=lambda choice: no_label if choice == NO_LABEL else choice)
    drop = st.checkbox(
        _("Drop rows with missing values"),
        key=K_CSV_DROP,
        help=_("Rows with an empty, NA, NaN or infinite cell are left out (the page says how "
               "many) instead of refusing the file."),
    )
    try:
        options = uploads.load_upload(content, check, upload.file_id,
                                      None if label == NO_LABEL else label, drop)
    except datasets.CSVError as error:
        _refuse(upload.name, said_text(error.sentences), last_good)
        return last_good
    ss[_CSV_LAST_GOOD] = options
    ss[_CSV_LAST_NAME] = upload.name
    _name_shown_file(options)
    return options


def _refuse(name: str, message: str, last_good) -> None:
    """Why the uploaded file cannot be used, and which upload stays on screen."""
    previous = st.session_state.get(_CSV_LAST_NAME)
    # The message quotes the file's cells and names: text, never Markdown.
    if last_good:
        st.error(_("**{name}** cannot be used: {why} Still showing the previous upload, "
                   "**{previous}**.").format(name=inert(name), why=inert(message, MESSAGE_CHARS),
                                             previous=inert(previous)))
    else:
        st.error(_("**{name}** cannot be used: {why}").format(
            name=inert(name), why=inert(message, MESSAGE_CHARS)))


def _name_shown_file(options) -> None:
    if options and st.session_state.get(_CSV_LAST_NAME):
        st.caption(_("On screen: **{name}**").format(
            name=inert(st.session_state[_CSV_LAST_NAME])))
