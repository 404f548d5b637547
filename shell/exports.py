"""Take the view home: CSV downloads of what a page shows, and its 'Reproduce in Python' script.

The CSV builders are plain functions (tests parse their output back), one per kind of
table: projections (one row per point), eigenvalues (one row per eigenvalue) and the
eigenvalues of a sweep (the same, keyed by the swept value). Every page that shows
projections or spectra offers them with :func:`csv_download`, named by :func:`view_name`.
Text from an upload (class names) is written so that no spreadsheet runs it as a formula.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import numpy as np
import streamlit as st

from datasets import spreadsheet_safe_row
from experiments.reproduce import explorer_script
from shell.caches import load_data
from shell.state import Settings
from words.i18n import _

REPRODUCE_KEY = "reproduce_open"  # the 'Reproduce in Python' expander's open state


def _csv(header: Sequence[str], rows) -> str:
    """The table as CSV text; a cell a spreadsheet would run as a formula (a class name
    from an upload such as ``=HYPERLINK(...)``) is written as text
    (:func:`datasets.spreadsheet_safe_row`)."""
    buffer = io.StringIO()
    # CRLF, as RFC 4180 has it: the csv module then quotes a cell holding a lone CR too
    # (with "\n" it would not, and a class name with a CR would start a row of its own).
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(spreadsheet_safe_row(header))
    writer.writerows(spreadsheet_safe_row(row) for row in rows)
    return buffer.getvalue()


def class_labels(y, target_names: Sequence[str]) -> list[str]:
    """Each row's class name ('' where a row has no label); [] for data without classes."""
    if y is None:
        return []
    names = list(target_names)
    return ["" if label is None else
            str(names[int(label)]) if 0 <= int(label) < len(names) else str(int(label))
            for label in y]


def projections_csv(
    Z: np.ndarray,
    Z_pca: np.ndarray | None,
    y,
    target_names: Sequence[str],
    *,
    points: Sequence | None = None,
    roles: Sequence[str] | None = None,
    pca_prefix: str = "pca",
) -> str:
    """One row per point: its index, class, kernel PCA and linear PCA coordinates.

    Parameters
    ----------
    Z, Z_pca : (n, k) and (n, p) arrays
        The coordinates shown; ``Z_pca`` is None when the page shows no linear PCA.
    y : (n,) labels, or None
        Entries may be None (a point without a label, e.g. one typed in).
    points : (n,), optional
        Each row's index in the data ('' for a point not in it); default 0 … n − 1.
    roles : (n,) str, optional
        Adds a ``set`` column, e.g. 'training' / 'held out'.
    pca_prefix : str
        Name of the linear PCA columns (``pca_phi`` for PCA on explicit features).
    """
    n = Z.shape[0]
    points = range(n) if points is None else points
    labels = class_labels(y, target_names) or [""] * n
    header = ["point", *(["set"] if roles is not None else []), "class"]
    header += [f"kpca_{j + 1}" for j in range(Z.shape[1])]
    blocks = [Z]
    if Z_pca is not None:
        header += [f"{pca_prefix}_{j + 1}" for j in range(Z_pca.shape[1])]
        blocks.append(Z_pca)
    rows = [
        [point, *([roles[i]] if roles is not None else []), labels[i],
         *(repr(float(v)) for block in blocks for v in block[i])]
        for i, point in enumerate(points)
    ]
    return _csv(header, rows)


EIGENVALUE_HEADER = ("rank", "eigenvalue", "share_of_trace")


def _eigenvalue_rows(eigenvalues: np.ndarray, ranks, trace: float) -> list[list]:
    return [
        [int(r), repr(float(v)), repr(float(v) / trace) if trace > 0 else ""]
        for r, v in zip(ranks, eigenvalues, strict=True)
    ]


def eigenvalues_csv(eigenvalues: np.ndarray, ranks: np.ndarray, trace: float) -> str:
    """One row per eigenvalue of K̃: its rank, value and share of trace(K̃)."""
    return _csv(EIGENVALUE_HEADER, _eigenvalue_rows(eigenvalues, ranks, trace))


def spectra_csv(param: str, spectra: Sequence[tuple[float, np.ndarray, float]]) -> str:
    """The eigenvalue table for several values of ``param`` (a sweep), keyed by the value.

    ``spectra`` holds (value, leading eigenvalues of K̃, trace(K̃)); ranks start at 1.
    An integer value (a degree) is written as one.
    """
    rows = [
        [value if isinstance(value, int) else repr(float(value)), *row]
        for value, eigenvalues, trace in spectra
        for row in _eigenvalue_rows(eigenvalues, range(1, len(eigenvalues) + 1), trace)
    ]
    return _csv([param, *EIGENVALUE_HEADER], rows)


def view_name(settings: Settings, page: str = "", *, swept: str | None = None) -> str:
    """A file-name stem for the view: 'circles-rbf-gamma10', then the page ('-new-points').

    ``swept`` leaves out the parameter a file covers a range of (a sweep's spectra).
    """
    params = "-".join(f"{k}{v:g}" if isinstance(v, float) else f"{k}{v}"
                      for k, v in settings.kernel_params().items() if k != swept)
    dataset = settings.dataset.replace("_", "-")  # as a chart's PNG name spells it
    return "-".join(part for part in (dataset, settings.kernel, params, page) if part)


def csv_download(label: str, text: str, file_stem: str, *, container=st) -> None:
    """A download button for ``text``, saved as ``kpca-lab-<file_stem>.csv``."""
    container.download_button(
        label,
        text,
        file_name=f"kpca-lab-{file_stem}.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
    )


def projection_downloads(result, data, settings: Settings) -> None:
    """Download buttons for the projections and the eigenvalues shown (Explorer's Analysis)."""
    stem = view_name(settings)
    left, right = st.columns(2)
    csv_download(
        _("Projections (CSV)"),
        projections_csv(result.projection, result.pca_projection, data.y, data.target_names),
        f"{stem}-projections", container=left,
    )
    csv_download(
        _("Eigenvalues (CSV)"),
        eigenvalues_csv(result.eigenvalues, result.eigenvalue_ranks, result.trace),
        f"{stem}-eigenvalues", container=right,
    )


def settings_script(settings: Settings) -> str:
    """The 'Reproduce in Python' script of the current sidebar settings, with its data."""
    return explorer_script(
        dataset=settings.dataset,
        options=settings.options,
        kernel=settings.kernel,
        kernel_params=settings.kernel_params(),
        n_components=settings.n_components,
        standardize=settings.standardize,
        data=load_data(settings.dataset, settings.dataset_options),
    )


def reproduce_in_python(settings: Settings) -> None:
    """An expander with the script of the current view, copyable and downloadable."""
    with st.expander(_("Reproduce in Python"), icon=":material/terminal:", key=REPRODUCE_KEY,
                     on_change="rerun") as expander:
        if not expander.open:  # lazy, like shell.source.show_source: sent once opened
            return
        script = settings_script(settings)
        st.caption(_(
            "The same numbers on your own machine: save the script anywhere and run it "
            "with Python. It needs only NumPy and scikit-learn (it uses `kpca_core` if "
            "installed); its first lines say where its data come from."
        ))
        st.code(script, language="python")
        st.download_button(
            _("Download the script"),
            script,
            file_name=f"kpca-lab-{view_name(settings)}.py",
            mime="text/x-python",
            icon=":material/download:",
            on_click="ignore",
        )
