"""A lesson page in another language (AppTest): every text it shows, what is left English
under the ``en-XA`` pseudo-locale, and the numbers its sentences hold, to compare the
zh-CN page with the English one at the same settings (issue 37)."""

from __future__ import annotations

import re

from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import chart_specs

# Element kinds whose value is text a student reads.
_VALUED = ("markdown", "caption", "subheader", "title", "header", "alert", "warning", "info",
           "error", "success")
# English left outside the brackets that is not a sentence: names and symbols.
NAMES = {"RBF", "PCA", "KPCA", "CSV", "USPS", "MSE", "Lab", "exp", "trace", "max", "sup"}


def page_texts(node):
    """(kind, text) of every text of the page's main area (the classroom's box, an
    expander of the wing, left out: it is translated elsewhere), each chart's title, axis
    titles, legend title, hover templates and subplot titles, and each table's columns."""
    kind = getattr(node, "type", "")
    if kind == "expander" and "Classroom" in str(getattr(node, "label", "")):
        return
    for attribute in ("label", "help", "placeholder"):
        value = getattr(node, attribute, None)
        if isinstance(value, str) and value:
            yield f"{kind}.{attribute}", value
    if kind in _VALUED:
        value = node.value
        if isinstance(value, str) and not value.startswith("<style"):
            yield kind, value
    if kind in ("selectbox", "multiselect", "radio", "select_slider"):
        for option in node.options:
            yield f"{kind}.option", str(option)
    if kind == "dataframe":
        for column in node.value.columns:
            yield "dataframe.column", str(column)
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        yield from page_texts(child)


def chart_texts(at):
    """(kind, text) of the words of every chart: titles, axis and legend titles, subplot
    titles, hover templates and trace names shown in a legend."""
    for spec in chart_specs(at):
        layout = spec.get("layout", {})
        title = layout.get("title", {})
        if isinstance(title, dict) and title.get("text"):
            yield "chart.title", title["text"]
        for key, value in layout.items():
            if re.fullmatch(r"[xy]axis\d*", key) and isinstance(value, dict):
                text = (value.get("title") or {}).get("text")
                if text:
                    yield "chart.axis", text
        legend = (layout.get("legend") or {}).get("title") or {}
        # The shell's legend title ("class", shell.figures.BASE_LAYOUT, set when the module
        # is imported) is the shell's to translate: left out here.
        if legend.get("text") and legend["text"] != "class":
            yield "chart.legend", legend["text"]
        for annotation in layout.get("annotations", []):  # subplot titles
            if annotation.get("text"):
                yield "chart.annotation", annotation["text"]
        for trace in spec.get("data", []):
            if trace.get("hovertemplate"):
                yield "chart.hover", trace["hovertemplate"]


def all_texts(at) -> list[tuple[str, str]]:
    return list(page_texts(at.main)) + list(chart_texts(at))


def _outside_brackets(text: str) -> str:
    """What is left of ``text`` once every bracketed span (nested ones too) is removed."""
    out, depth = [], 0
    for char in text:
        if char == "[":
            depth += 1
        elif char == "]" and depth:
            depth -= 1
        elif depth == 0:
            out.append(char)
    return "".join(out)


def english_left(text: str, allowed: set[str] = frozenset()) -> list[str]:
    """The English words of ``text`` outside the pseudo-locale's brackets (HTML tags,
    formulas, code spans, hover fields and names aside)."""
    rest = re.sub(r"<[^>]*>|\$[^$]*\$|`[^`]*`|%\{[^}]*\}|:[a-z]+(?=\[)", " ", text)
    rest = _outside_brackets(rest)
    return [word for word in re.findall(r"[A-Za-z]{3,}", rest)
            if word not in NAMES and word not in allowed]


def unwrapped(at, allowed: set[str] = frozenset()) -> list[tuple[str, str]]:
    """(kind, text) of every text with an English word outside the brackets."""
    return [(kind, text) for kind, text in all_texts(at) if english_left(text, allowed)]


def numbers(text: str) -> list[str]:
    """The numbers of a text, sorted (a translation may order its clauses otherwise)."""
    text = re.sub(r"<[^>]*>", " ", text)
    return sorted(re.findall(r"\d+(?:[.,]\d+)*(?:e[+-]?\d+)?", text))


def sentences(at) -> list[tuple[str, str]]:
    """(kind, text) of the texts whose numbers are results: sentences, checks, metrics and
    chart titles."""
    texts = [(kind, text) for kind, text in all_texts(at)
             if kind in _VALUED or kind in ("chart.title",)]
    texts += [("metric", f"{m.label} {m.value} {m.delta or ''}") for m in at.metric]
    return texts


def open_in(page: str, query: dict, language: str, state: dict | None = None):
    at = open_app(page, {**query, "lang": language} if language != "en" else query, state)
    assert_clean(at)
    return at


def same_numbers(english, chinese) -> None:
    """The zh-CN page's sentences hold the English page's numbers, text by text."""
    en, zh = sentences(english), sentences(chinese)
    assert [kind for kind, _ in zh] == [kind for kind, _ in en]
    for (kind, en_text), (_, zh_text) in zip(en, zh, strict=True):
        assert numbers(zh_text) == numbers(en_text), (kind, en_text, zh_text)
