"""A lesson page in another language (AppTest): every text it shows, what is left English
under the ``en-XA`` pseudo-locale, and the numbers its sentences hold, to compare the
zh-CN page with the English one at the same settings (issue 37).

The one helper of the zh-CN tests of the pages: under ``?lang=en-XA`` every visible text of
the main area (alerts, captions, Markdown, headers, labels, help, options, tabs, tables'
headers and text cells) and every chart's words (titles, axis and legend titles, legend
entries, subplot titles, hover templates) is bracketed; under ``?lang=zh-CN`` each sentence
carries the numbers the English page's does, in its own order, and no sentence follows a
Chinese full stop after a space.
"""

from __future__ import annotations

import re

import datasets
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import chart_specs

# Element kinds whose value is text a student reads.
_VALUED = ("markdown", "caption", "subheader", "title", "header", "alert", "warning", "info",
           "error", "success")
_OPTIONED = ("selectbox", "multiselect", "radio", "select_slider", "segmented_control")
# The Classroom box (an expander the classroom's wing draws, translated in its own sweep).
CLASSROOM_BOX = re.compile(r"Classroom|课堂")
# English left outside the brackets that is not a sentence: names and symbols.
NAMES = {"RBF", "PCA", "KPCA", "CSV", "USPS", "MSE", "AUC", "Lab", "exp", "trace", "max",
         "sup"}
# A word: two letters or more (Latin letters, accented ones too: "Nyström", "Schölkopf").
_WORD = re.compile(r"[A-Za-zÀ-ÖØ-öø-ÿ][A-Za-zÀ-ÖØ-öø-ÿ'’]+")


def page_texts(node):
    """(kind, text) of every text of the page's main area below ``node``, in order (the
    classroom's box left out): labels, help, placeholders, the texts of _VALUED elements,
    options, tabs' labels, tables' and dataframes' headers, row names and text cells."""
    kind = getattr(node, "type", "")
    if kind == "expander" and CLASSROOM_BOX.search(str(getattr(node, "label", "") or "")):
        return
    for attribute in ("label", "help", "placeholder"):
        value = getattr(node, attribute, None)
        if isinstance(value, str) and value:
            yield f"{kind}.{attribute}", value
    if kind in _VALUED:
        value = node.value
        if isinstance(value, str) and not value.startswith("<style"):
            yield kind, value
    if kind in _OPTIONED:
        for option in getattr(node, "options", ()):
            yield f"{kind}.option", str(option)
    if kind in ("dataframe", "table"):  # the headers, row names and text cells on screen
        frame = node.value
        for column in frame.columns:
            yield f"{kind}.column", str(column)
        for name in frame.index:
            if isinstance(name, str):
                yield f"{kind}.index", name
        for column in frame.columns:
            if frame[column].dtype == object:
                yield from ((f"{kind}.cell", str(cell)) for cell in frame[column])
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        yield from page_texts(child)


def _title_text(title) -> str:
    return title.get("text", "") if isinstance(title, dict) else str(title or "")


def chart_texts(at):
    """(kind, text) of the words of every chart: titles, axis titles (a 3-D scene's too),
    legend titles, subplot titles and annotations, hover templates and the names of the
    traces shown in a legend."""
    for spec in chart_specs(at):
        layout = spec.get("layout", {})
        title = _title_text(layout.get("title"))
        if title:
            yield "chart.title", title
        for key, value in layout.items():
            if re.fullmatch(r"[xy]axis\d*", key) and isinstance(value, dict):
                yield "chart.axis", _title_text(value.get("title"))
            if re.fullmatch(r"scene\d*", key) and isinstance(value, dict):
                for axis in ("xaxis", "yaxis", "zaxis"):
                    yield "chart.axis", _title_text((value.get(axis) or {}).get("title"))
        legend = _title_text((layout.get("legend") or {}).get("title"))
        # The shell's legend title ("class", shell.figures.BASE_LAYOUT, set when the module
        # is imported) is the shell's to translate: left out here.
        if legend and legend != "class":
            yield "chart.legend", legend
        for annotation in layout.get("annotations", []):  # subplot titles
            yield "chart.annotation", annotation.get("text", "")
        for trace in spec.get("data", []):
            yield "chart.hover", trace.get("hovertemplate", "")
            if trace.get("name") and trace.get("showlegend", True) is not False:
                yield "chart.trace", str(trace["name"])


def all_texts(at) -> list[tuple[str, str]]:
    """Every text of the page that is not empty: its main area's, then its charts'."""
    texts = list(page_texts(at.main)) + list(chart_texts(at))
    return [(kind, text) for kind, text in texts if text and str(text).strip()]


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
    formulas, code spans, hover fields, Markdown's colour directives and names aside)."""
    rest = re.sub(r"<[^>]*>|\$[^$]*\$|`[^`]*`|%\{[^}]*\}|:[a-z]+(?=\[)", " ", str(text))
    rest = _outside_brackets(rest)
    return [word for word in _WORD.findall(rest) if word not in NAMES and word not in allowed]


def unwrapped(at_or_texts, allowed: set[str] = frozenset()) -> list[tuple[str, str]]:
    """(kind, text) of every text with an English word outside the brackets: strings never
    wrapped. ``at_or_texts``: an AppTest, or (kind, text) pairs gathered from several runs
    (every tab open in turn); ``allowed``: words that are names (a class's, "Nyström")."""
    texts = all_texts(at_or_texts) if hasattr(at_or_texts, "main") else at_or_texts
    return [(kind, text) for kind, text in texts if english_left(text, allowed)]


def words(*names) -> set[str]:
    """The words of names (a class's "outer circle": "outer", "circle"), for ``allowed``."""
    return set(_WORD.findall(" ".join(map(str, names))))


def data_words(dataset: str = "circles", **options) -> set[str]:
    """A dataset's class and feature names, word by word: the data's own words, shown as
    they are (like a CSV's columns), not the app's."""
    data = datasets.load(dataset, **options)
    return words(*data.target_names, *data.feature_names)


def link_data_words(query: dict) -> set[str]:
    """:func:`data_words` of the data a page's link asks for (its ``dataset`` and ``n``)."""
    info = datasets.available()[query.get("dataset", "circles")]
    takes_n = "n" in query and any(option.name == "n" for option in info.options)
    return data_words(info.name, **({"n": int(query["n"])} if takes_n else {}))


# "2-D", "3-D": names of a space, not numbers (Chinese writes 二维 or 2 维).
_DIMENSIONS = re.compile(r"\b[23]-D\b|[23] ?维|[二三]维")


def numbers(text: str) -> list[str]:
    """The numbers of a text, sorted (a translation may order its clauses otherwise)."""
    text = _DIMENSIONS.sub(" ", re.sub(r"<[^>]*>", " ", str(text)))
    return sorted(re.findall(r"\d+(?:[.,]\d+)*(?:e[+-]?\d+)?", text))


def sentences(at) -> list[tuple[str, str]]:
    """(kind, text) of the texts whose numbers are results: sentences, headers, checks,
    metrics and chart titles."""
    texts = [(kind, text) for kind, text in all_texts(at)
             if kind in _VALUED or kind == "chart.title"]
    texts += [("metric", f"{m.label} {m.value} {m.delta or ''}") for m in at.metric]
    return texts


def open_in(page: str, query: dict, language: str, state: dict | None = None,
            open_page=open_app):
    """``page`` at ``query`` in ``language``, clean; ``open_page``: open_app, or the
    ``shared_page`` fixture for a test that only reads the page."""
    at = open_page(page, {**query, "lang": language} if language != "en" else query, state)
    assert_clean(at)
    return at


def same_numbers(english, chinese, skip=lambda text: False) -> None:
    """The zh-CN page's sentences hold the English page's numbers, text by text, and there
    are numbers to compare. ``skip(text)``: a pair of texts left out when either side's
    writes its numbers otherwise (53 million as 5300 万)."""
    en, zh = sentences(english), sentences(chinese)
    assert [kind for kind, _ in zh] == [kind for kind, _ in en], (en, zh)
    for (kind, en_text), (_, zh_text) in zip(en, zh, strict=True):
        if not (skip(en_text) or skip(zh_text)):
            assert numbers(zh_text) == numbers(en_text), (kind, en_text, zh_text)
    assert any(numbers(text) for _, text in en)


# A space after a Chinese full stop, before the next sentence: sentences glued with " ".
_STRAY_SPACE = re.compile(r"[。！？] +\S")


def stray_spaces(at) -> list[tuple[str, str]]:
    """(kind, text) of the texts where a space follows a Chinese full stop (or an
    exclamation or question mark): sentences glued with " " instead of join_sentences."""
    return [(kind, text) for kind, text in all_texts(at) if _STRAY_SPACE.search(text)]


# A Chinese character against a Latin letter or a digit without the space Chinese puts
# between them (docs/translating.md, "Spacing in Chinese"), outside tags, formulas, code
# and hover fields: often a placeholder whose value begins or ends in Latin ("Isomap的 K").
_UNSPACED = re.compile(r"[\u4e00-\u9fff][A-Za-z0-9]|[A-Za-z0-9][\u4e00-\u9fff]")
# Names written as one word: a cited document's own title.
WRITTEN_TOGETHER = ("核PCA原理解析",)


def unspaced(at) -> list[tuple[str, str]]:
    """(kind, text) of the texts where a Chinese character touches a Latin letter or a
    digit."""
    found = []
    for kind, text in all_texts(at):
        plain = re.sub(r"<[^>]*>|\$[^$]*\$|`[^`]*`|%\{[^}]*\}", " ", str(text))
        for name in WRITTEN_TOGETHER:
            plain = plain.replace(name, " ")
        if _UNSPACED.search(plain):
            found.append((kind, text))
    return found
