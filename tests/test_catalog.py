"""The catalogs of the app's words (locale/, scripts/i18n.py): complete, up to date, and
every translation keeping what the code fills in or the renderer reads."""

from __future__ import annotations

import csv
import importlib.util
import re
import shutil
import string
import subprocess
import sys
from pathlib import Path

import pytest
from babel.messages.pofile import read_po

from words import i18n

ROOT = Path(__file__).resolve().parents[1]


def load_catalog_script():
    """scripts/i18n.py, loaded from its file (the tests put no script folder on sys.path)."""
    spec = importlib.util.spec_from_file_location("i18n_catalogs", ROOT / "scripts" / "i18n.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules["i18n_catalogs"] = module
    spec.loader.exec_module(module)
    return module


catalogs = load_catalog_script()


def read(path: Path, locale: str | None = None):
    with path.open("rb") as po:
        return read_po(po, locale=locale)


TEMPLATE = read(catalogs.TEMPLATE)
EXTRACTED, WARNINGS = catalogs.extract()
TRANSLATED = {code: read(i18n.catalog_path(code), code.replace("-", "_"))
              for code in i18n.LANGUAGES if code != "en"}


def ids(catalog) -> set:
    """The messages: their ids, with the context of a word with two senses (pgettext)."""
    return {(message.context, message.id) if message.context else message.id
            for message in catalog if message.id}


def brace_fields(text: str) -> list[str]:
    """The ``{fields}`` ``str.format`` fills, with their format specs (Python's own parser)."""
    return sorted(f"{name}:{spec}" for _, name, spec, _ in string.Formatter().parse(text)
                  if name is not None)


PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifgeErx]")
MATH = re.compile(r"\$[^$]+\$")  # inline LaTeX, as Streamlit's Markdown reads it
CODE = re.compile(r"`[^`]+`")  # inline code: link parameters, names of things


def translations(code: str):
    """(msgid, context, the translation's entry or None) of every message of the template in
    ``code``'s catalog."""
    for message in TEMPLATE:
        if message.id:
            yield message.id, message.context, TRANSLATED[code].get(message.id,
                                                                     context=message.context)


def strings(entry) -> tuple:
    """An entry's translations: its one msgstr, or each plural form's."""
    return entry.string if isinstance(entry.string, tuple) else (entry.string,)


def listed(found: list) -> str:
    """``found`` one item a line: an assertion's message that names every bad message."""
    return f"{len(found)}:\n" + "\n".join(map(repr, found))


def test_extraction_reads_every_wrapped_string():
    """Babel warns about what it cannot read inside ``_()`` (an f-string with values, an
    empty string): nothing of the kind in the code."""
    assert WARNINGS == []


def test_extraction_catches_an_f_string_and_an_empty_msgid(tmp_path):
    (tmp_path / "babel.cfg").write_text("[python: **.py]\n")
    (tmp_path / "page.py").write_text(
        'a = _(f"{n} points")\nb = _("")\nc = _("Fine {n}").format(n=1)\n')
    catalog, warnings = catalogs.extract(tmp_path, ground=False)
    assert ids(catalog) == {"Fine {n}"}
    assert len(warnings) == 2
    assert "page.py:1" in warnings[0] and "f-string" in warnings[0]
    assert "page.py:2" in warnings[1] and "Empty msgid" in warnings[1]


def test_extraction_reads_contexts_and_translators_notes(tmp_path):
    """pgettext's context makes a second message of the same word; a ``# Translators:``
    comment on the line above a message is its note in the template."""
    (tmp_path / "babel.cfg").write_text("[python: **.py]\n")
    (tmp_path / "page.py").write_text(
        'a = pgettext("unit of an angle", "degrees")\nb = _("degrees")\n'
        '# Translators: {n} counts points.\nc = _("{n} drawn")\n# A note for the code.\n'
        'd = _("Kernel")\n')
    catalog, warnings = catalogs.extract(tmp_path, ground=False)
    assert warnings == []
    assert ids(catalog) == {("unit of an angle", "degrees"), "degrees", "{n} drawn", "Kernel"}
    assert catalog.get("{n} drawn").auto_comments == ["{n} counts points."]
    assert catalog.get("Kernel").auto_comments == []


def test_the_committed_template_is_up_to_date_with_the_code():
    new, gone = ids(EXTRACTED) - ids(TEMPLATE), ids(TEMPLATE) - ids(EXTRACTED)
    assert not new and not gone, (
        f"run python scripts/i18n.py extract && python scripts/i18n.py update: "
        f"{len(new)} new {sorted(new)[:5]}, {len(gone)} gone {sorted(gone)[:5]}")


def test_the_ground_layers_titles_are_in_the_template():
    """The kernels' and datasets' titles the sidebar translates, which their own code
    cannot mark."""
    import datasets
    from kpca_core import KERNELS

    assert {kernel.title for kernel in KERNELS.values()} <= ids(TEMPLATE)
    assert {info.title for info in datasets.available().values()} <= ids(TEMPLATE)


@pytest.mark.parametrize("code", sorted(TRANSLATED))
def test_every_message_is_translated(code):
    """Every message of the template has a translation that is not fuzzy, and each of its
    plural forms is filled in: all that are not are named at once."""
    missing = [(context, msgid) for msgid, context, entry in translations(code)
               if entry is None or entry.fuzzy or not all(strings(entry))]
    assert missing == [], f"{code}: not translated, {listed(missing)}"


# What a translation keeps of its English message as it is: the fields ``str.format``
# fills, printf directives, inline LaTeX, inline code (link parameters, names of things).
KEPT = {
    "str.format fields": brace_fields,
    "printf directives": lambda text: sorted(PRINTF.findall(text)),
    "LaTeX": lambda text: sorted(MATH.findall(text)),
    "code spans": lambda text: sorted(CODE.findall(text)),
}


@pytest.mark.parametrize("code", sorted(TRANSLATED))
@pytest.mark.parametrize("kept", KEPT)
def test_every_translation_keeps_what_the_code_fills_in_or_the_renderer_reads(kept, code):
    """Each translation (each plural form, against the English plural) keeps the English
    message's ``kept``: every message that does not is named at once, with what it has and
    what it should. A message not translated is test_every_message_is_translated's."""
    of = KEPT[kept]
    changed = [(context, msgid, translated, of(translated), of(source))
               for msgid, context, entry in translations(code) if entry is not None
               for source in [msgid[-1] if isinstance(msgid, tuple) else msgid]
               for translated in strings(entry)
               if translated and of(translated) != of(source)]
    assert changed == [], (f"{code}: {kept} changed (context, msgid, translation, its "
                           f"{kept}, the English's), {listed(changed)}")


# Placeholders that hold a web address: Markdown turns it into a link that ends only at a
# space (an ASCII full stop or comma before it is left out), so a Chinese character or
# full-width bracket or full stop right after it joins the link.
ADDRESS = re.compile(r"\{(?:url|address)\}(?![.,:;!?]?(?:\s|$))")


def test_a_web_address_is_followed_by_a_space_in_every_translation():
    joined = [(code, message.id, message.string) for code, catalog in TRANSLATED.items()
              for message in catalog if isinstance(message.string, str)
              and ADDRESS.search(message.string)]
    assert joined == []


@pytest.mark.skipif(shutil.which("msgfmt") is None, reason="GNU gettext's msgfmt is missing")
@pytest.mark.parametrize("code", sorted(TRANSLATED))
def test_gnu_msgfmt_accepts_the_catalog(code):
    """Standard tools read the catalog as it is: ``msgfmt --check`` compiles it, checking
    each flagged format. A "%" in an English message is a percent sign, never a printf
    directive (the app fills messages with str.format): scripts/i18n.py marks such a
    message no-python-format, which Babel would flag python-format."""
    path = i18n.catalog_path(code)
    result = subprocess.run(["msgfmt", "--check", "-o", "/dev/null", str(path)],
                            capture_output=True, text=True, check=False)
    assert result.returncode == 0, result.stderr


def test_the_check_command_reports_a_missing_translation(monkeypatch, tmp_path):
    """``scripts/i18n.py check``, as a contributor runs it, fails on an untranslated
    string and on a translation that drops a placeholder."""
    assert catalogs.problems() == []
    broken = tmp_path / "messages.po"
    text = i18n.catalog_path("zh-CN").read_text(encoding="utf-8")
    text = text.replace('msgid "Number of components"\nmsgstr "主成分个数"',
                        'msgid "Number of components"\nmsgstr ""')
    text = text.replace('msgstr "{value} 不是整数。"', 'msgstr "不是整数。"')
    broken.write_text(text, encoding="utf-8")
    monkeypatch.setattr(catalogs, "catalog_path", lambda code: broken)
    found = catalogs.problems()
    assert any("not translated: 'Number of components'" in line for line in found)
    assert any("'{value} is not a whole number.'" in line and "placeholders" in line
               for line in found)
    assert len(found) == 2


def glossary() -> list[tuple[str, list[str]]]:
    """(English term, its Chinese terms) from locale/glossary.tsv (alternatives " / "). A
    word with several senses ("classes (of points)" 类别, "classes (of students)" 课堂)
    is one term whose Chinese is any of its senses'."""
    with (ROOT / "locale" / "glossary.tsv").open(encoding="utf-8") as tsv:
        rows = list(csv.DictReader(tsv, delimiter="\t"))
    terms: dict[str, list[str]] = {}
    for row in rows:
        english = re.sub(r"\s*\(.*?\)", "", row["English"]).strip().lower()
        terms.setdefault(english, []).extend(
            term.strip() for term in row["中文"].split(" / "))
    return list(terms.items())


def english_words(msgid) -> str:
    """A msgid's own words, lowercase: its placeholders, file paths and "kernel" after a
    kernel's title ("the {kernel} kernel": the title, 多项式核, carries its 核) left out."""
    text = re.sub(r"\{kernel\} kernel", "", str(msgid))
    return re.sub(r"\{[^{}]*\}|\S+/\S+", "", text).lower()


def test_the_glossary_is_used_wherever_its_terms_are():
    """A msgid that uses a glossary term, singular or plural (outside its placeholders), has
    one of the term's Chinese forms in its msgstr (spaces and a parenthesis like （高斯）
    aside): "component" is 主成分 in every message, never a bare 成分 (issue 48)."""
    def bare(text: str) -> str:
        return re.sub(r"（.*?）", "", text).replace(" ", "")

    assert len(glossary()) >= 40
    misses = []
    for english, chinese in glossary():
        # A word, not part of a hyphenated one ("de-noises" is not "noise").
        pattern = re.compile(r"(?<![\w-])" + re.escape(english) + r"(?:s|es)?(?![\w-])")
        for message in TRANSLATED["zh-CN"]:
            source = english_words(message.id)
            # A plural's forms (a tuple; Chinese has one) each have the term.
            strings = message.string if isinstance(message.string, tuple) else (message.string,)
            if message.id and pattern.search(source):
                if not all(any(bare(term) in string.replace(" ", "") for term in chinese)
                           for string in strings):
                    misses.append((english, message.id, message.string))
    assert misses == []


# A multiple after a comparative ("低于 X 1,000 倍", "多出 4 倍") reads as one more than it
# says to many readers (多出 4 倍 = 5 ×): Chinese says "X 的 N 倍" or "变为原来的 N 倍".
COMPARATIVE = re.compile("多出|高出|低于|高于|超出|超过|大于|小于|多于|少于|相差|拉伸了|缩放")
CLAUSE_END = re.compile("[，。；：？！、（）]")


def ambiguous_multiples(text: str) -> list[str]:
    """The clauses of ``text`` that put a multiple (… N 倍) after a comparative without
    "的" before the N, and any "多出多少" / "多出几" question."""
    found = re.findall("多出(?:多少|几)", text)
    for match in re.finditer(r"(\S+)\s*倍", text):
        clause = CLAUSE_END.split(text[:match.start(1)])[-1]
        if COMPARATIVE.search(clause) and not clause.rstrip().endswith("的"):
            found.append(clause + match.group())
    return found


def test_ambiguous_multiples_are_found():
    assert ambiguous_multiples("K 需要多出多少内存？") == ["多出多少"]
    assert ambiguous_multiples("特征值低于 K 元素舍入误差 1,000 倍的主成分") != []
    assert ambiguous_multiples("特征值低于 K 元素舍入误差的 1,000 倍的主成分") == []
    assert ambiguous_multiples("所需的内存变为原来的几倍？通常是它的 {ratio} 倍") == []


def test_a_multiple_says_how_many_times_as_much():
    """Issue 48: "核矩阵 K 需要多出多少内存？" with "4 倍" right read as 5 ×, "低于 K 元素
    舍入误差 1,000 倍" as the rounding ÷ 1,000."""
    unclear = [(message.id, ambiguous_multiples(string))
               for message in TRANSLATED["zh-CN"] if message.id
               for string in (message.string if isinstance(message.string, tuple)
                              else (message.string,))
               if ambiguous_multiples(string)]
    assert unclear == []


# A fragment: a message that is not a whole sentence, label or title, but a piece glued to
# others in the code (its translation cannot reorder it): punctuation only, placeholders
# joined by spaces, ends of sentences or a separator alone; one that starts mid-sentence (a
# space or separator glued to what comes before, a lowercase conjunction); one that ends
# mid-sentence (a separator, an article or conjunction). Short labels are whole ("Kernel",
# "γ", "2 ×"), and a Markdown block may start with a line break.
CONJUNCTIONS = {"and", "or", "but", "nor", "so", "yet", "if", "else", "then", "than",
                "because", "unless", "whereas", "plus"}
DANGLING = CONJUNCTIONS | {"a", "an", "the", "of"}


def fragment(message: str) -> str | None:
    """Why ``message`` is a fragment, or None."""
    outside = re.sub(r"\{[^{}]*\}", "", message)
    if not re.search(r"\w", message):
        return "punctuation only"
    if outside != message and re.fullmatch(r"[\s.;]*", outside):
        return "placeholders glued"
    if message[:1] in " \t,;.)" or re.match(r"\s*[a-z]+", message) and re.match(
            r"\s*([a-z]+)", message).group(1) in CONJUNCTIONS:
        return "starts mid-sentence"
    last = re.search(r"(\w+)\W*$", message)
    if message.rstrip("\n")[-1:] in " \t,;" or last and last.group(1) in DANGLING and (
            message.rstrip().endswith(last.group(1))):
        return "ends mid-sentence"
    return None


@pytest.mark.parametrize(("message", "why"), [
    (".", "punctuation only"), (", ", "punctuation only"), ("{first} {second}",
                                                             "placeholders glued"),
    ("{sentence}.", "placeholders glued"), (" Both separate them.", "starts mid-sentence"),
    ("; each cell averages {size} entries", "starts mid-sentence"), ("if", "starts mid-sentence"),
    ("then centred", "starts mid-sentence"), ("Points drawn. ", "ends mid-sentence"),
    ("fitted on the", "ends mid-sentence"), ("K of {method} and", "ends mid-sentence"),
    ("Kernel", None), ("γ", None), ("2 ×", None), ("{label}: {value}", None),
    ("{kernel}, {params}", None), ("What to look for", None), ("class A", None),
    ("\n**What the Explorer does.** It computes.\n", None), (":red[**Wrong**]", None),
])
def test_a_fragment_is_told_from_a_short_label(message, why):
    assert fragment(message) == why


def test_every_message_is_whole():
    """Issue 48: 34 messages were pieces of sentences (", ", ".", an "if" and an "else"
    translated alone, a sentence ending in _(".")...): a translation can neither reorder
    nor punctuate them. Sentences are joined with words.i18n's join_sentences, join_list,
    join_and, join_clauses, end_sentence; a choice of wording is a choice of whole
    messages (docs/translating.md)."""
    fragments = [(fragment(text), text) for message in TEMPLATE if message.id
                 for text in (message.id if isinstance(message.id, tuple) else (message.id,))
                 if fragment(text)]
    assert fragments == []


# Placeholders that a kernel's title fills ("the {kernel} kernel"): the title, RBF（高斯）核,
# 多项式核, already ends in 核.
KERNEL_TITLE_FIELDS = ("kernel", "title", "suggested")


def test_a_kernels_title_is_not_followed_or_preceded_by_another_kernel():
    """Issue 48: "the {kernel} kernel" was "核函数 {kernel}" or "{kernel} 核", which reads
    "核函数 RBF（高斯）核" or "RBF（高斯）核核"."""
    doubled = []
    for message in TRANSLATED["zh-CN"]:
        source = str(message.id)
        strings = message.string if isinstance(message.string, tuple) else (message.string,)
        for field in KERNEL_TITLE_FIELDS:
            if f"{{{field}}} kernel" not in source:
                continue
            beside = re.compile(rf"核(?:函数)?\s*\{{{field}\}}|\{{{field}\}}\s*核")
            doubled += [(message.id, string) for string in strings if beside.search(string)]
    assert doubled == []
