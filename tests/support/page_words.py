"""A page in another language (AppTest): what the en-XA pseudo-locale leaves unbracketed,
and the numbers a page's sentences show, to compare a zh-CN page with the English one.

The sweep of issue 37 tests each page with these: under ``?lang=en-XA`` every visible text
of the main area (alerts, captions, markdown, labels, help, options, headers) and every
chart's title, axis titles and legend entries is bracketed; under ``?lang=zh-CN`` each
sentence carries the numbers the English page's does, in its own order.
"""

from __future__ import annotations

import re

from streamlit.testing.v1 import AppTest

import datasets
from tests.shell.test_language import shell_texts
from tests.support.plotly_json import chart_specs, title

# Number-like texts and names carry no words to translate.
_NOT_WORDS = re.compile(r"[\d.,e+\-−%° ×]*")
_NUMBER = re.compile(r"\d+(?:[.,]\d+)*(?:e[+-]?\d+)?")
# Kinds whose value is a sentence the page computes or states.
SENTENCE_KINDS = ("markdown", "caption", "alert", "warning", "info", "error", "success")


def bracketed(text: str) -> bool:
    return text.startswith("[") and text.rstrip().endswith("]")


def chart_texts(at: AppTest) -> list[tuple[str, str, str]]:
    """(chart title, what, text) for every chart's title, axis titles and legend entries."""
    out = []
    for spec in chart_specs(at):
        layout, name = spec.get("layout", {}), title(spec)
        if name:
            out.append((name, "title", name))
        for key, axis in layout.items():
            if key.startswith(("xaxis", "yaxis")) and isinstance(axis, dict):
                text = axis.get("title", {})
                text = text.get("text", "") if isinstance(text, dict) else str(text or "")
                if text:
                    out.append((name, key, text))
        for trace in spec.get("data", []):
            if trace.get("name") and trace.get("showlegend", True) is not False:
                out.append((name, "legend", trace["name"]))
    return out


def unbracketed(at: AppTest, allowed: set[str] = frozenset()) -> list[tuple[str, str, str]]:
    """The main area's and the charts' texts the pseudo-locale left as they were: never
    wrapped. ``allowed``: names that are not words (a dataset's class names, "Nyström")."""
    texts = [(kind, attribute, text) for kind, attribute, text in shell_texts(at.main)]
    texts += chart_texts(at)
    return [(kind, attribute, text) for kind, attribute, text in texts
            if not bracketed(text) and text not in allowed and not _NOT_WORDS.fullmatch(text)
            and not any(bracketed(part) for part in text.split(" · "))]


def data_names(dataset: str = "circles", **options) -> set[str]:
    """A dataset's class and feature names: the data's own words, shown as they are (like a
    CSV's columns), not the app's; a figure draws them as plain text ("x₁" stays "x1")."""
    data = datasets.load(dataset, **options)
    return {str(name) for name in (*data.target_names, *data.feature_names)}


def numbers(text: str) -> list[str]:
    """The numbers in a text, sorted (a translation may put them in another order)."""
    return sorted(_NUMBER.findall(text.replace("\u2212", "-")))


def sentence_numbers(at: AppTest, skip=lambda text: False) -> list[list[str]]:
    """Each sentence's and metric's numbers, in the page's order (empty ones left out;
    ``skip(text)``: a text whose numbers a translation writes otherwise, e.g. "53 million"
    as 5300 万)."""
    values: list[str] = []

    def walk(node):
        kind = getattr(node, "type", "")
        if kind in SENTENCE_KINDS and isinstance(getattr(node, "value", None), str):
            if not node.value.startswith("<style"):
                values.append(node.value)
        if kind == "metric":
            values.append(f"{node.label} {node.value}")
        children = getattr(node, "children", None)
        for child in (children.values() if isinstance(children, dict) else ()):
            walk(child)

    walk(at.main)
    return [found for found in (numbers(v) for v in values if not skip(v)) if found]
