"""The offline lecture's partial Plotly.js (lecture_pack/plotly_bundle/build.js): built for
the installed plotly's version and carried by the file only when it covers every trace
type the file draws, else the whole library (slower, never wrong). Its registered traces
and the ten steps drawn with it: tests/lecture_pack/test_lecture_browser.py."""

from __future__ import annotations

from plotly.offline import get_plotlyjs_version

from lecture_pack import html
from lecture_pack.html import PARTIAL_BUNDLE, partial_bundle, plotly_js, trace_types

WHOLE_LIBRARY_BANNER = f"plotly.js v{get_plotlyjs_version()}\n"  # the package's own header


def lesson_step(*types: str) -> dict:
    """A step's part that names trace types (the rest of a step is not read here)."""
    return {"traces": [{"type": t, "x": [0], "y": [0]} for t in types]}


def test_the_partial_build_is_the_installed_plotlys_version():
    version, _ = partial_bundle()
    assert version == get_plotlyjs_version(), (
        "plotly's Plotly.js changed: pin it in lecture_pack/plotly_bundle/package.json and "
        "rebuild (npm ci && npm run build there)")


def test_the_file_carries_the_partial_build_when_it_covers_the_files_traces():
    pack = {"steps": [lesson_step("scatter", "heatmap", "bar"), lesson_step("contour"),
                      lesson_step("scatter3d", "surface")]}
    assert trace_types(pack) == {"scatter", "heatmap", "bar", "contour", "scatter3d", "surface"}
    library = plotly_js(pack)
    assert library == PARTIAL_BUNDLE.read_text(encoding="utf-8")
    assert WHOLE_LIBRARY_BANNER not in library


def test_a_trace_type_the_partial_build_lacks_takes_the_whole_library():
    pack = {"steps": [lesson_step("scatter"), lesson_step("scatterpolar")]}
    assert "scatterpolar" not in partial_bundle()[1]
    assert WHOLE_LIBRARY_BANNER in plotly_js(pack)


def test_another_plotly_version_takes_the_whole_library(monkeypatch):
    monkeypatch.setattr(html, "get_plotlyjs_version", lambda: "0.0.1")
    assert WHOLE_LIBRARY_BANNER in plotly_js({"steps": [lesson_step("scatter")]})
