"""The catalogs of the app's words: extract them from the code, merge them into each
language's ``.po``, check them.

    python scripts/i18n.py extract   # the code's strings → locale/messages.pot
    python scripts/i18n.py update    # messages.pot merged into each language's .po
    python scripts/i18n.py check     # what the tests check: nothing to extract that
                                     # cannot be read, the .pot up to date, every
                                     # language complete with its placeholders kept
    python scripts/i18n.py todo [--lines] [PATH...]  # sentence-like strings not yet
                                     # wrapped, per file (--lines: each one)

Extraction is Babel's (``pybabel extract`` with ``babel.cfg`` and the keywords ``_``,
``N_``, ``ngettext:1,2``, ``pgettext:1c,2`` and ``said``, the datasets' descriptions, with
the ``# Translators:`` comment just above a message as its note), plus the words of
the ground layer, which imports nothing of the app and so cannot mark its strings: the
kernels' titles and notes (``kpca_core.KERNELS``) and the datasets' titles, summaries and
options' help (``datasets.available()``), translated where a page shows them, and the class
names the app gives its built-in data sets (``datasets.CLASS_NAMES``), translated where a
figure shows them. See docs/translating.md.
"""

from __future__ import annotations

import argparse
import ast
import contextlib
import io
import re
import sys
from collections.abc import Iterator
from pathlib import Path

from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.frontend import parse_mapping_cfg
from babel.messages.pofile import read_po, write_po

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
from words.i18n import LANGUAGES, catalog_path  # noqa: E402

TEMPLATE = ROOT / "locale" / "messages.pot"
# said(...): a sentence of a dataset's description in the ground layer (datasets/_types.py);
# pgettext(context, message): a word with two senses, one message per sense.
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2), "pgettext": ((1, "c"), 2), "said": None}
# A comment starting so on the line just above a message is the translators' note on it.
COMMENT_TAGS = ("Translators:",)
PROJECT = "KPCA Lab"
# {name}, {0}, {n:,}, {value:.3g}; printf-style %s, %(name)s, %d (none are used, but a
# translation must not add or drop one either).
_BRACES = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifgeErx%]")


def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted (``{name}``, ``{n:,}``, ``%s``…)."""
    return sorted([f"{{{m}}}" for m in _BRACES.findall(text)] + _PRINTF.findall(text))


def ground_messages() -> Iterator[tuple[str, str]]:
    """(message, where) for the ground layer's words that the app shows: the sidebar's
    titles, summaries and help, the built-in data sets' class names (legends, hovers), and
    the core's refusal of an overflowed kernel matrix (shell.page.kernel_errors)."""
    import datasets
    from kpca_core import KERNELS
    from kpca_core.centering import NON_FINITE_KERNEL

    for name, kernel in KERNELS.items():
        yield kernel.title, f"kpca_core.KERNELS[{name!r}].title"
        if kernel.note:
            yield kernel.note, f"kpca_core.KERNELS[{name!r}].note"
    for name, info in datasets.available().items():
        yield info.title, f"datasets.available()[{name!r}].title"
        yield info.summary, f"datasets.available()[{name!r}].summary"
        for option in info.options:
            if option.help:
                yield option.help, f"datasets.available()[{name!r}].options.{option.name}.help"
            for choice in option.choices or ():  # the words a choice shows (USPS: "train")
                yield choice, f"datasets.available()[{name!r}].options.{option.name}.choices"
    for name, class_names in datasets.CLASS_NAMES.items():
        for class_name in class_names:
            yield class_name, f"datasets.CLASS_NAMES[{name!r}]"
    yield NON_FINITE_KERNEL, "kpca_core.centering.NON_FINITE_KERNEL"


def extract(root: Path = ROOT, *, ground: bool = True) -> tuple[Catalog, list[str]]:
    """The template catalog of the code under ``root`` (its ``babel.cfg``) as it is, and
    Babel's warnings: a string in ``_()`` it could not read (an f-string with values) or
    an empty one. ``ground``: add the ground layer's words."""
    with (root / "babel.cfg").open() as cfg:
        method_map, options_map = parse_mapping_cfg(cfg)
    catalog = Catalog(project=PROJECT, copyright_holder="the KPCA Lab contributors",
                      charset="utf-8")
    warnings = io.StringIO()
    with contextlib.redirect_stderr(warnings):
        for filename, lineno, message, comments, context in extract_from_dir(
                root, method_map, options_map, keywords=KEYWORDS, comment_tags=COMMENT_TAGS,
                strip_comment_tags=True):
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                        context=context)
    for message, where in ground_messages() if ground else ():
        catalog.add(message, None, [(where, 0)])
    return catalog, [line for line in warnings.getvalue().splitlines() if line.strip()]


def without_printf_flags(catalog: Catalog) -> Catalog:
    """The catalog with every ``python-format`` flag turned into ``no-python-format``.

    The app fills its messages with ``str.format`` only (``python-brace-format``): a "%" in
    one is a percent sign ("{share} % of the variance"). Babel flags any message whose
    text looks like a printf directive ("% o" does) as ``python-format`` each time it reads
    or makes one, and GNU ``msgfmt --check`` then rejects a translation that writes the
    sign elsewhere ("{share} %的方差"); standard tools must accept the catalog as it is.
    """
    for message in catalog:
        if "python-format" in message.flags:
            message.flags.discard("python-format")
            message.flags.add("no-python-format")
    return catalog


def write_template(catalog: Catalog, path: Path = TEMPLATE) -> None:
    without_printf_flags(catalog)
    path.parent.mkdir(parents=True, exist_ok=True)
    with path.open("wb") as out:
        # Sorted, files without line numbers: a moved line does not change the template.
        write_po(out, catalog, width=100, sort_output=True, include_lineno=False)


def read(path: Path, locale: str | None = None) -> Catalog:
    with path.open("rb") as po:
        return read_po(po, locale=locale)


def update() -> None:
    """Merge the template into each language's catalog (new strings empty, gone ones
    kept as obsolete ``#~`` entries, changed ones marked fuzzy for a translator)."""
    template = read(TEMPLATE)
    for code in LANGUAGES:
        if code == "en":
            continue
        path, locale = catalog_path(code), code.replace("-", "_")
        if path.exists():
            catalog = read(path, locale)
        else:
            catalog = Catalog(locale=locale, project=PROJECT, charset="utf-8")
        catalog.update(template, update_header_comment=False)
        without_printf_flags(catalog)
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=100, include_lineno=False)


def message_ids(catalog: Catalog) -> set:
    """The catalog's messages: (id, context), the context None but for a word with two
    senses (``pgettext``)."""
    return {(message.id, message.context) for message in catalog if message.id}


def problems() -> list[str]:
    """Everything wrong with the catalogs, one sentence each (empty: all is well)."""
    found = []
    catalog, warnings = extract()
    found += [f"extraction: {warning}" for warning in warnings]
    committed = read(TEMPLATE)
    if message_ids(catalog) != message_ids(committed):
        new = message_ids(catalog) - message_ids(committed)
        gone = message_ids(committed) - message_ids(catalog)
        found.append(f"locale/messages.pot is out of date ({len(new)} new, {len(gone)} gone): "
                     "run python scripts/i18n.py extract && python scripts/i18n.py update")
    for code in LANGUAGES:
        if code == "en":
            continue
        translated = read(catalog_path(code), code.replace("-", "_"))
        for message in catalog:
            if not message.id:
                continue
            entry = translated.get(message.id, context=message.context)
            strings = entry and (entry.string if isinstance(entry.string, tuple)
                                 else (entry.string,))
            if not entry or not all(strings) or entry.fuzzy:
                found.append(f"{code}: not translated: {message.id!r}")
                continue
            ids = message.id if isinstance(message.id, tuple) else (message.id,)
            wanted = placeholders(ids[-1])
            for string in strings:
                if placeholders(string) != wanted:
                    found.append(f"{code}: {message.id!r} → {string!r} has the placeholders "
                                 f"{placeholders(string)}, not {wanted}")
    return found


# Where the app's words are (``todo``): the router, the pages, the lessons, the shell, the
# classroom.
UI_PATHS = ("app.py", "app_pages", "lessons", "shell", "classroom")
_WORD = re.compile(r"[A-Za-z]{2,}")
# Calls whose string arguments are not shown to a student.
_NOT_SHOWN = {"key", "icon", "format", "width", "height", "type", "vertical_alignment",
              "border", "label_visibility", "on_click", "help_format", "mime", "file_name",
              "data", "unsafe_allow_html", "name", "layout", "page_icon"}
_QUIET_CALLS = {"getLogger", "debug", "info_log", "warning_log", "exception", "getenv", "get",
                "startswith", "endswith", "split", "join", "replace", "compile", "sub",
                "match", "search", "fullmatch", "findall", "format_exc", "setdefault", "pop",
                "isinstance", "open", "Path", "ValueError", "TypeError", "KeyError",
                "RuntimeError", "AssertionError", "NotImplementedError", "html", "markdown_css"}


def sentence_like(text: str) -> bool:
    """A string a person reads: two words or more, not a path, code or a CSS/HTML block."""
    stripped = text.strip()
    if len(_WORD.findall(stripped)) < 2 or " " not in stripped:
        return False
    return not (stripped.startswith(("<", "{", ".", "#", "/", "@", "http", "var ", "const ",
                                     "function", "window.", "document."))
                or "\n  " in repr(stripped) and ("{" in stripped and ";" in stripped))


def ui_strings(path: Path, unwrapped: list | None = None) -> tuple[int, int]:
    """(sentence-like strings, of them wrapped in _/N_/ngettext) in one file, and the
    unwrapped ones' (line, text) appended to ``unwrapped`` when given: string
    literals and f-strings, docstrings, logging and exception messages aside (a heuristic:
    a count for planning, not a test)."""
    tree = ast.parse(path.read_text(encoding="utf-8"))
    parents = {child: node for node in ast.walk(tree) for child in ast.iter_child_nodes(node)}
    total = wrapped = 0
    for node in ast.walk(tree):
        if isinstance(node, ast.JoinedStr):
            text = "".join(v.value if isinstance(v, ast.Constant) else "{}" for v in node.values)
        elif (isinstance(node, ast.Constant) and isinstance(node.value, str)
              and not isinstance(parents.get(node), ast.JoinedStr)):
            text = node.value
        else:
            continue
        parent = parents.get(node)
        if isinstance(parent, ast.Expr):  # a docstring or a bare string
            continue
        if isinstance(parent, ast.keyword) and parent.arg in _NOT_SHOWN:
            continue
        call = parent if isinstance(parent, ast.Call) else parents.get(parent)
        name = getattr(getattr(call, "func", None), "id", None) or getattr(
            getattr(call, "func", None), "attr", None)
        if isinstance(call, ast.Call) and name in _QUIET_CALLS:
            continue
        if isinstance(parent, ast.Raise) or isinstance(parents.get(parent), ast.Raise):
            continue
        if not sentence_like(text):
            continue
        total += 1
        is_wrapped = isinstance(call, ast.Call) and name in KEYWORDS
        wrapped += is_wrapped
        if not is_wrapped and unwrapped is not None:
            unwrapped.append((node.lineno, text))
    return total, wrapped


def todo(paths: list[str], *, lines: bool = False) -> int:
    files = [file for name in paths or UI_PATHS
             for file in ([ROOT / name] if name.endswith(".py") else
                          sorted((ROOT / name).rglob("*.py")))]
    total = wrapped = 0
    for file in files:
        left: list[tuple[int, str]] = []
        count, done = ui_strings(file, left)
        total, wrapped = total + count, wrapped + done
        if count - done:
            print(f"{count - done:5d} of {count:5d}  {file.relative_to(ROOT)}")
        for lineno, text in left if lines else ():
            print(f"         {lineno:5d}: {text[:100]!r}")
    print(f"{total - wrapped:5d} of {total:5d}  unwrapped, in {len(files)} files")
    return 0


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check", "todo"))
    parser.add_argument("paths", nargs="*", help="for todo: files or folders (default: the UI)")
    parser.add_argument("--lines", action="store_true",
                        help="for todo: each unwrapped string with its line")
    arguments = parser.parse_intermixed_args()
    command = arguments.command
    if command == "todo":
        return todo(arguments.paths, lines=arguments.lines)
    if command == "extract":
        catalog, warnings = extract()
        for warning in warnings:
            print(warning, file=sys.stderr)
        write_template(catalog)
        print(f"{len(message_ids(catalog))} messages → {TEMPLATE.relative_to(ROOT)}")
        return 1 if warnings else 0
    if command == "update":
        update()
        return 0
    found = problems()
    print("\n".join(found) or "the catalogs are complete and up to date")
    return 1 if found else 0


if __name__ == "__main__":
    sys.exit(main())
