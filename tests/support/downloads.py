"""Read back what an AppTest run offers to take home: the files of its
``st.download_button``s, the numbered columns and class names those CSVs hold, and the
names of its charts' PNG downloads.

AppTest stores the files in a media storage that lives only for one run; the ``downloads``
fixture records every file as it is stored, keyed by the id in the button's URL.
"""

from __future__ import annotations

import io
import json

import numpy as np
import pandas as pd
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


def download_labels(at) -> list[str]:
    """The labels of the page's download buttons, in page order."""
    return [b.proto.label for b in at.get("download_button")]


def png_names(at) -> list[str]:
    """The file name each chart's mode-bar button "Download plot as a png" gives, in page
    order."""
    return [json.loads(c.proto.config)["toImageButtonOptions"]["filename"]
            for c in at.get("plotly_chart")]


def numbered_columns(table: pd.DataFrame, prefix: str) -> np.ndarray:
    """The columns ``prefix``\\ 1, ``prefix``\\ 2, … of a downloaded table as floats; they
    must be numbered from 1 without a gap."""
    names = [c for c in table.columns if c.startswith(prefix)]
    assert names == [f"{prefix}{j + 1}" for j in range(len(names))], table.columns
    return table[names].to_numpy(dtype=float)


def class_names(data, rows) -> list[str]:
    """The class column a download holds for ``rows`` of the data set ``data``."""
    return [data.target_names[int(c)] for c in data.y[rows]]


class Downloads:
    def __init__(self) -> None:
        self.files: dict[str, tuple[str | None, bytes]] = {}

    def button(self, at, label: str) -> tuple[str, bytes]:
        """(file name, content) of the one download button labelled ``label``."""
        buttons = [b for b in at.get("download_button") if b.proto.label == label]
        assert len(buttons) == 1, f"expected one button {label!r}, got {download_labels(at)}"
        file_id = buttons[0].proto.url.rsplit("/", 1)[-1].split(".")[0]
        return self.files[file_id]

    def csv(self, at, label: str) -> tuple[str, pd.DataFrame]:
        """(file name, table) of a CSV download, parsed back (class names as text)."""
        name, content = self.button(at, label)
        return name, pd.read_csv(io.BytesIO(content), dtype={"class": str, "set": str},
                                 keep_default_na=False, na_values=[""])


@pytest.fixture
def downloads(monkeypatch) -> Downloads:
    recorded = Downloads()
    original = MemoryMediaFileStorage.load_and_get_id

    def load_and_get_id(self, path_or_data, mimetype, kind, filename=None):
        file_id = original(self, path_or_data, mimetype, kind, filename)
        recorded.files[file_id] = (filename, self.get_file(file_id).content)
        return file_id

    monkeypatch.setattr(MemoryMediaFileStorage, "load_and_get_id", load_and_get_id)
    return recorded
