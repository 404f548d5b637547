"""The lecture as one self-contained HTML file: Plotly's JavaScript (once: the partial
build of :file:`plotly_bundle/build.js` when it covers the file, else the installed
plotly package's whole library), the frames of :mod:`lecture_pack.build` as JSON, and a small script
that draws a step, moves its slider and reveals its answer. No request leaves the file:
no CDN, no web font, no image from elsewhere.
"""

from __future__ import annotations

import html
import json
import re
from importlib.resources import files
from pathlib import Path

from plotly.colors import get_colorscale
from plotly.offline import get_plotlyjs_version

from shell.figures import CENTERED_SCALE, KERNEL_SCALE, PALETTE

# The parts of a frame that are figures' data (the rest of the JSON is words and settings).
FIGURE_KEYS = ("kpca", "pca", "K", "Kc", "spectrum", "y", "traces", "figures")
_ASSETS = Path(__file__).with_name("assets")


# Plotly.js with only the trace types the file draws (plotly_bundle/build.js): 1.9 MB
# against the full library's 4.8 MB, which Chromium takes more than 2 s to evaluate here.
PARTIAL_BUNDLE = _ASSETS / "plotly-lecture.min.js"
_BANNER = re.compile(r"/\*! plotly\.js v(?P<version>\S+) \|.*\| traces: (?P<traces>[a-z0-9,]+) \|")
# The charts lecture.js draws itself from a step's numbers (the Explorer's steps).
_SCRIPT_TRACE = re.compile(r'\{\s*type:\s*"([a-z0-9]+)"')


def partial_bundle() -> tuple[str, frozenset[str]]:
    """The partial build's Plotly.js version and trace types, read from its banner."""
    with PARTIAL_BUNDLE.open(encoding="utf-8") as bundle:
        match = _BANNER.match(bundle.readline())
    if match is None:
        raise RuntimeError(f"{PARTIAL_BUNDLE} has lost its banner: rebuild it (plotly_bundle/)")
    return match["version"], frozenset(match["traces"].split(","))


def trace_types(pack: dict) -> frozenset[str]:
    """Every Plotly trace type the file draws: its lessons' figures' and its script's own."""
    script = (_ASSETS / "lecture.js").read_text(encoding="utf-8")
    return frozenset(_SCRIPT_TRACE.findall(script)) | frozenset(
        trace.get("type", "scatter") for step in pack["steps"] for trace in step.get("traces", ()))


def plotly_js(pack: dict) -> str:
    """Plotly.js for the file: the partial build when it is the installed plotly's version
    (the figures are that version's JSON) and holds every trace type the file draws; else
    the plotly package's own whole library. A stale partial build makes the file slower,
    never wrong."""
    version, traces = partial_bundle()
    if version == get_plotlyjs_version() and trace_types(pack) <= traces:
        return PARTIAL_BUNDLE.read_text(encoding="utf-8")
    return files("plotly").joinpath("package_data", "plotly.min.js").read_text(encoding="utf-8")


def pack_json(pack: dict) -> str:
    """The pack as JSON safe inside a <script> element (no "</" can close it early)."""
    text = json.dumps(pack, ensure_ascii=False, separators=(",", ":"), allow_nan=False)
    return text.replace("</", "<\\/")


def render(pack: dict) -> str:
    """The whole file's text."""
    template = (_ASSETS / "lecture.html").read_text(encoding="utf-8")
    parts = {
        "__TITLE__": html.escape(f"KPCA Lab · the guided tour, offline ({pack['version']})"),
        "__STYLE__": (_ASSETS / "lecture.css").read_text(encoding="utf-8"),
        "__PLOTLY__": plotly_js(pack).replace("</script", "<\\/script"),
        # The app's own colours: the classes', K's and K̃'s scales (as Plotly.py spells them).
        "__PACK__": pack_json({**pack, "palette": list(PALETTE),
                               "scales": {"K": get_colorscale(KERNEL_SCALE),
                                          "Kc": get_colorscale(CENTERED_SCALE)}}),
        "__SCRIPT__": (_ASSETS / "lecture.js").read_text(encoding="utf-8"),
    }
    for name, text in parts.items():  # each placeholder once, in this order
        head, found, tail = template.partition(name)
        assert found, name
        template = head + text + tail
    return template


def write(pack: dict, path: str | Path) -> int:
    """Write the file; returns its size in bytes."""
    data = render(pack).encode("utf-8")
    Path(path).write_bytes(data)
    return len(data)


def _figure_part(value):
    if isinstance(value, dict):
        return {k: (v if k in FIGURE_KEYS else _figure_part(v)) for k, v in value.items()
                if k in FIGURE_KEYS or isinstance(v, (dict, list))}
    if isinstance(value, list):
        return [_figure_part(v) for v in value if isinstance(v, (dict, list))]
    return None


def sizes(pack: dict) -> dict[str, int]:
    """Bytes of the file by part: Plotly's library, the figures' data, and the rest (the
    words, settings, links, and the page's own HTML, CSS and script)."""
    total = len(render(pack).encode("utf-8"))
    library = len(plotly_js(pack).encode("utf-8"))
    figures = len(json.dumps(_figure_part(pack["steps"]), separators=(",", ":")).encode())
    return {"library": library, "figures": figures, "text": total - library - figures,
            "total": total}
