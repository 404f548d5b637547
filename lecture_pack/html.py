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

from plotly.offline import get_plotlyjs_version

from shell.figures import PALETTE
from shell.registry import LESSONS
from words.i18n import DEFAULT_LANGUAGE, _, current_language, pgettext

# The parts of a frame that are figures' data (the rest of the JSON is words and settings).
FIGURE_KEYS = ("traces", "figures")
_ASSETS = Path(__file__).with_name("assets")
# A word of the file's own in lecture.html: __W:name__ (words_of_the_file, below).
_WORD = re.compile(r"__W:(?P<name>[a-z_]+)__")


# Plotly.js with only the trace types the file draws (plotly_bundle/build.js): 1.9 MB
# against the full library's 4.8 MB, which Chromium takes more than 2 s to evaluate here.
PARTIAL_BUNDLE = _ASSETS / "plotly-lecture.min.js"
_BANNER = re.compile(r"/\*! plotly\.js v(?P<version>\S+) \|.*\| traces: (?P<traces>[a-z0-9,]+) \|")


def partial_bundle() -> tuple[str, frozenset[str]]:
    """The partial build's Plotly.js version and trace types, read from its banner."""
    with PARTIAL_BUNDLE.open(encoding="utf-8") as bundle:
        match = _BANNER.match(bundle.readline())
    if match is None:
        raise RuntimeError(f"{PARTIAL_BUNDLE} has lost its banner: rebuild it (plotly_bundle/)")
    return match["version"], frozenset(match["traces"].split(","))


def trace_types(pack: dict) -> frozenset[str]:
    """Every Plotly trace type the file draws: its lessons' figures'."""
    return frozenset(trace.get("type", "scatter")
                     for step in pack["steps"] for trace in step["traces"])


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
    """The whole file's text, in the pack's language (its ``language`` and ``words``, from
    :func:`lecture_pack.build.assemble`; the title in the language of this run)."""
    template = (_ASSETS / "lecture.html").read_text(encoding="utf-8")
    words = pack.get("words") or words_of_the_file()
    parts = {
        "__LANG__": html.escape(pack.get("language", DEFAULT_LANGUAGE)),
        "__TITLE__": html.escape(_("KPCA Lab · the guided tour, offline ({version})").format(
            version=pack["version"])),
        "__STYLE__": (_ASSETS / "lecture.css").read_text(encoding="utf-8"),
        "__PLOTLY__": plotly_js(pack).replace("</script", "<\\/script"),
        # The app's own colours: the classes' (the figures' colourway).
        "__PACK__": pack_json({**pack, "palette": list(PALETTE)}),
        "__SCRIPT__": (_ASSETS / "lecture.js").read_text(encoding="utf-8"),
    }
    # The file's own words first (the parts inserted next are not searched for them).
    links = {"view": f'<a id="view-link" href="#">{html.escape(words["view_link"])}</a>',
             "tour": f'<a id="tour-link" href="#">{html.escape(words["tour_link"])}</a>'}
    template = _WORD.sub(lambda m: html.escape(words[m["name"]]).format(**links)
                         if m["name"] == "live" else html.escape(words[m["name"]]), template)
    for name, text in parts.items():  # each placeholder once, in this order
        head, found, tail = template.partition(name)
        assert found, name
        template = head + text + tail
    return template


def words_of_the_file() -> dict[str, str]:
    """The file's own words (lecture.html's and lecture.js's), in the language of this run;
    ``{name}`` placeholders are filled by the script."""
    return {
        # lecture.html
        "brand": _("KPCA Lab · guided tour"),
        "steps_nav": _("Steps"),
        "theme_switch": _("Switch light or dark"),
        "dark": pgettext("colour theme", "Dark"),
        "light": pgettext("colour theme", "Light"),
        "options": _("Options"),
        "reveal": _("Reveal the answer"),
        "answer": _("The answer"),
        "look_for": _("What to look for"),
        "live": _("Live: {view} · {tour} (when a server is there)."),
        "view_link": _("this view in KPCA Lab"),
        "tour_link": _("this step of the tour"),
        "back_next": _("Back and next"),
        "back": _("← Back"),
        "next": _("Next →"),
        # lecture.js
        "no_question": _("No prediction question at this setting."),
        "at_own": _("At the step's own setting: {look_for}"),
        "differs": _("This view differs from the step's: {changes}. The sentence above "
                     "describes the step's setting; the charts, numbers and sentences on "
                     "this screen read this one."),
        "where": _("Step {number} of {count} · about {minutes} min · the {page} page"),
        "settings": _("This step's settings: {settings}. KPCA Lab {version}, computed by the "
                      "app's own code when this file was built."),
        "lesson_charts": _("The charts are the {page} page's own, built by its code when this "
                           "file was built; where they draw fewer points or cells than the "
                           "page, their titles or sentences say so."),
        "gamma_label": _("γ (log scale)"),
        "degree_label": _("Degree d"),
        "slider_note": _("The slider: {count} values, from {low} to {high}; the step's own: "
                         "{own}. Each was computed when the file was built."),
        "step_label": _("Step {number}: {title}"),
        # The pages by their titles; English keeps the file's names ("how it works").
        "page_names": {} if current_language() == DEFAULT_LANGUAGE else {
            lesson.url_path: _(lesson.title) for lesson in LESSONS},
    }


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
