"""Take the view home: CSV downloads of what a page shows, and its 'Reproduce in Python' script.

The CSV builders are plain functions (tests parse their output back); the two
``*_downloads`` functions draw the buttons.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

import numpy as np
import streamlit as st

from experiments.reproduce import explorer_script
from ui.state import CSV, Settings

REPRODUCE_KEY = "reproduce_open"  # the 'Reproduce in Python' expander's open state


def _csv(header: Sequence[str], rows) -> str:
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\n")
    writer.writerow(header)
    writer.writerows(rows)
    return buffer.getvalue()


def projections_csv(
    Z: np.ndarray,
    Z_pca: np.ndarray,
    y: np.ndarray | None,
    target_names: Sequence[str],
) -> str:
    """One row per point: its index, class, kernel PCA and linear PCA coordinates."""
    header = ["point", "class"]
    header += [f"kpca_{j + 1}" for j in range(Z.shape[1])]
    header += [f"pca_{j + 1}" for j in range(Z_pca.shape[1])]
    names = list(target_names)
    rows = []
    for i in range(Z.shape[0]):
        label = "" if y is None else (names[int(y[i])] if int(y[i]) < len(names) else int(y[i]))
        rows.append([i, label, *(repr(float(v)) for v in Z[i]),
                     *(repr(float(v)) for v in Z_pca[i])])
    return _csv(header, rows)


def eigenvalues_csv(eigenvalues: np.ndarray, ranks: np.ndarray, trace: float) -> str:
    """One row per eigenvalue of K̃: its rank, value and share of trace(K̃)."""
    rows = [
        [int(r), repr(float(v)), repr(float(v) / trace) if trace > 0 else ""]
        for r, v in zip(ranks, eigenvalues, strict=True)
    ]
    return _csv(["rank", "eigenvalue", "share_of_trace"], rows)


def view_name(settings: Settings) -> str:
    """A file-name stem for the view: 'circles-rbf-gamma10'."""
    params = "-".join(f"{k}{v:g}" if isinstance(v, float) else f"{k}{v}"
                      for k, v in settings.kernel_params().items())
    return "-".join(part for part in (settings.dataset, settings.kernel, params) if part)


def projection_downloads(result, data, settings: Settings) -> None:
    """Download buttons for the projections and the eigenvalues shown (Explorer's Analysis)."""
    stem = view_name(settings)
    left, right = st.columns(2)
    left.download_button(
        "Projections (CSV)",
        projections_csv(result.projection, result.pca_projection, data.y, data.target_names),
        file_name=f"kpca-lab-{stem}-projections.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
    )
    right.download_button(
        "Eigenvalues (CSV)",
        eigenvalues_csv(result.eigenvalues, result.eigenvalue_ranks, result.trace),
        file_name=f"kpca-lab-{stem}-eigenvalues.csv",
        mime="text/csv",
        icon=":material/download:",
        on_click="ignore",
    )


def settings_script(settings: Settings, csv_name: str | None = None) -> str:
    """The 'Reproduce in Python' script of the current sidebar settings."""
    options = dict(settings.dataset_options)
    return explorer_script(
        dataset=settings.dataset,
        options={} if settings.dataset == CSV else options,
        kernel=settings.kernel,
        kernel_params=settings.kernel_params(),
        n_components=settings.n_components,
        standardize=settings.standardize,
        csv_name=csv_name,
        csv_label=(options.get("label") or None) if settings.dataset == CSV else None,
    )


def reproduce_in_python(settings: Settings) -> None:
    """An expander with the script of the current view, copyable and downloadable."""
    with st.expander("Reproduce in Python", icon=":material/terminal:", key=REPRODUCE_KEY,
                     on_change="rerun") as expander:
        if not expander.open:  # lazy, like ui.source.show_source: sent once opened
            return
        script = settings_script(settings)
        st.caption(
            "The same numbers on your own machine: run this from a clone of KPCA Lab "
            "(it uses the app's `datasets` package and `kpca_core`)."
        )
        st.code(script, language="python")
        st.download_button(
            "Download the script",
            script,
            file_name=f"kpca-lab-{view_name(settings)}.py",
            mime="text/x-python",
            icon=":material/download:",
            on_click="ignore",
        )
