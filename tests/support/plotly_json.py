"""Read back the Plotly figures an AppTest run sent to the browser.

Plotly ≥ 6 writes NumPy arrays as base64 "typed arrays" ({"dtype", "bdata", "shape"});
these helpers decode them so tests can compare what is *shown* with what kpca_core says.
"""

from __future__ import annotations

import base64
import json

import numpy as np


def decode(value):
    """A typed-array dict → ndarray; lists → ndarray; anything else unchanged."""
    if isinstance(value, dict) and "bdata" in value:
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=np.dtype(value["dtype"]))
        if "shape" in value:
            shape = value["shape"]
            shape = [int(s) for s in (shape.split(",") if isinstance(shape, str) else shape)]
            array = array.reshape(shape)
        return array
    if isinstance(value, list):
        return np.asarray(value)
    return value


def chart_specs(at) -> list[dict]:
    """Every plotly chart of an AppTest run, as the JSON dict the browser receives."""
    return [json.loads(element.proto.spec) for element in at.get("plotly_chart")]


def title(spec: dict) -> str:
    text = spec.get("layout", {}).get("title", {})
    text = text.get("text", "") if isinstance(text, dict) else str(text)
    if not text:  # subplots: the annotations carry the titles
        text = " | ".join(a.get("text", "") for a in spec.get("layout", {}).get("annotations", []))
    return text


def find_chart(at, prefix: str) -> dict:
    """The one chart whose title starts with ``prefix``."""
    matches = [spec for spec in chart_specs(at) if title(spec).startswith(prefix)]
    titles = [title(spec) for spec in chart_specs(at)]
    assert len(matches) == 1, f"expected one chart titled {prefix!r}*, got titles {titles}"
    return matches[0]


def scatter_points(spec: dict) -> tuple[np.ndarray, np.ndarray]:
    """(row indices, coordinates) of a per-class scatter, reassembled in row order."""
    indices, coords = [], []
    for trace in spec["data"]:
        axes = [decode(trace[a]) for a in ("x", "y", "z") if a in trace]
        indices.append(np.atleast_1d(decode(trace["customdata"])).astype(int))
        coords.append(np.column_stack(axes))
    indices = np.concatenate(indices)
    coords = np.concatenate(coords)
    order = np.argsort(indices)
    return indices[order], coords[order]
