"""What the zh-CN tests of the lesson pages share: every text a page's main area shows
(alerts, captions, Markdown, labels, help, options, chart titles, axis titles, legend
titles, annotations and hover words), English left unwrapped under the en-XA
pseudo-locale, and the numbers of the zh-CN page against the English page's.

The sidebar is the shell's (tests/shell/test_language.py) and the Classroom box the
classroom's: neither is read here.
"""

from __future__ import annotations

import re
from collections import Counter

from tests.support.plotly_json import chart_specs

# The Classroom box (drawn by the classroom's wing, translated in its own sweep).
CLASSROOM_BOX = re.compile(r"Classroom|课堂|\[Classroom")
# Tags and Plotly's own placeholders in chart texts: not words.
_TAG = re.compile(r"<[^>]*>")
_PLOTLY_FIELD = re.compile(r"%\{[^}]*\}")
_BRACKETED = re.compile(r"\[[^\[\]]*\]")
_WORD = re.compile(r"[A-Za-z][A-Za-z'’]+")


def element_texts(node):
    """(kind, text) for every text of the page's main area below ``node``, in order."""
    kind = getattr(node, "type", "")
    if kind == "expander" and CLASSROOM_BOX.search(getattr(node, "label", "") or ""):
        return
    for attribute in ("label", "help", "placeholder"):
        value = getattr(node, attribute, None)
        if isinstance(value, str) and value:
            yield f"{kind}.{attribute}", value
    if kind in ("markdown", "caption", "subheader", "title", "header", "alert", "warning",
                "info", "error", "success", "latex"):
        value = node.value
        if not value.startswith("<style") and kind != "latex":
            yield kind, value
    if kind in ("selectbox", "multiselect", "radio", "select_slider", "segmented_control"):
        for option in getattr(node, "options", ()):
            yield f"{kind}.option", option
    if kind == "tab":
        yield "tab", node.label
    if kind in ("dataframe", "table"):  # the headers, row names and text cells on screen
        frame = node.value
        for text in (*map(str, frame.columns), *map(str, frame.index)):
            yield f"{kind}.header", text
        for column in frame.columns:
            if frame[column].dtype == object:
                yield from ((f"{kind}.cell", str(cell)) for cell in frame[column])
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        yield from element_texts(child)


def _axis_titles(layout: dict):
    for name, axis in layout.items():
        if name.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
            yield axis.get("title", {}).get("text", "") if isinstance(
                axis.get("title"), dict) else axis.get("title", "")
        if name.startswith("scene") and isinstance(axis, dict):
            for sub in ("xaxis", "yaxis", "zaxis"):
                title = axis.get(sub, {}).get("title", {})
                yield title.get("text", "") if isinstance(title, dict) else title


def chart_texts(at):
    """(kind, text) for every chart's title, axis titles, legend title, annotations and the
    words of its hover templates."""
    for spec in chart_specs(at):
        layout = spec.get("layout", {})
        title = layout.get("title", {})
        yield "chart.title", title.get("text", "") if isinstance(title, dict) else str(title)
        for text in _axis_titles(layout):
            yield "chart.axis", text
        legend = layout.get("legend", {}).get("title", {})
        yield "chart.legend", legend.get("text", "") if isinstance(legend, dict) else ""
        for annotation in layout.get("annotations", []):
            yield "chart.annotation", annotation.get("text", "")
        for trace in spec.get("data", []):
            yield "chart.hover", trace.get("hovertemplate", "")


def page_texts(at) -> list[tuple[str, str]]:
    """Every text of the page (main area and charts) that is not empty."""
    texts = list(element_texts(at.main)) + list(chart_texts(at))
    return [(kind, text) for kind, text in texts if text and str(text).strip()]


def unwrapped(texts, allowed: set[str] = frozenset()) -> list[tuple[str, str]]:
    """Texts with an English word outside every pseudo-locale bracket: strings never
    wrapped. ``allowed``: words that are names, not English (PCA, USPS, a class name)."""
    left = []
    for kind, text in texts:
        rest = _PLOTLY_FIELD.sub(" ", _TAG.sub(" ", str(text)))
        while _BRACKETED.search(rest):
            rest = _BRACKETED.sub(" ", rest)
        words = {w for w in _WORD.findall(rest) if w not in allowed}
        if words:
            left.append((kind, text))
    return left


# "2-D", "3-D": names of a space, not numbers (Chinese writes 二维, 三维).
_DIMENSIONS = re.compile(r"\b[23]-D\b")


def numbers(text: str) -> Counter:
    """The numbers a text states (as a multiset: a translation may reorder them)."""
    return Counter(re.findall(r"\d+(?:[.,]\d+)*", _DIMENSIONS.sub("", str(text))))


# The kinds of element whose sentences carry the page's numbers.
SENTENCE_KINDS = ("markdown", "caption", "warning", "info", "alert", "error", "success",
                  "subheader", "chart.title")


def sentences(at) -> list[str]:
    return [text for kind, text in page_texts(at) if kind in SENTENCE_KINDS]


def assert_same_numbers(english, chinese) -> None:
    """The zh-CN page states the English page's numbers, sentence by sentence."""
    en, zh = sentences(english), sentences(chinese)
    assert len(en) == len(zh), (en, zh)
    for en_text, zh_text in zip(en, zh, strict=True):
        assert numbers(zh_text) == numbers(en_text), (en_text, zh_text)
    assert sum(len(numbers(text)) for text in en) > 0
