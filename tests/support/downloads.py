"""Read back the files an AppTest run offers with ``st.download_button``.

AppTest stores them in a media storage that lives only for one run; the ``downloads``
fixture records every file as it is stored, keyed by the id in the button's URL.
"""

from __future__ import annotations

import io

import pandas as pd
import pytest
from streamlit.runtime.memory_media_file_storage import MemoryMediaFileStorage


class Downloads:
    def __init__(self) -> None:
        self.files: dict[str, tuple[str | None, bytes]] = {}

    def button(self, at, label: str) -> tuple[str, bytes]:
        """(file name, content) of the one download button labelled ``label``."""
        buttons = [b for b in at.get("download_button") if b.proto.label == label]
        labels = [b.proto.label for b in at.get("download_button")]
        assert len(buttons) == 1, f"expected one button {label!r}, got {labels}"
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
