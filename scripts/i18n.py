"""The catalogs of the app's words: extract them from the code, merge them into each
language's ``.po``, check them.

    python scripts/i18n.py extract   # the code's strings → locale/messages.pot
    python scripts/i18n.py update    # messages.pot merged into each language's .po
    python scripts/i18n.py check     # what the tests check: nothing to extract that
                                     # cannot be read, the .pot up to date, every
                                     # language complete with its placeholders kept

Extraction is Babel's (``pybabel extract`` with ``babel.cfg`` and the keywords ``_``,
``N_``, ``ngettext:1,2``), plus the words of the ground layer, which imports nothing of the
app and so cannot mark its strings: the kernels' titles (``kpca_core.KERNELS``) and the
datasets' titles, summaries and options' help (``datasets.available()``), translated
where the sidebar shows them. See docs/translating.md.
"""

from __future__ import annotations

import argparse
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
from shell.i18n import LANGUAGES, catalog_path  # noqa: E402

TEMPLATE = ROOT / "locale" / "messages.pot"
KEYWORDS = {"_": None, "N_": None, "ngettext": (1, 2)}
PROJECT = "KPCA Lab"
# {name}, {0}, {n:,}, {value:.3g}; printf-style %s, %(name)s, %d (none are used, but a
# translation must not add or drop one either).
_BRACES = re.compile(r"(?<!\{)\{([^{}]*)\}(?!\})")
_PRINTF = re.compile(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdifgeErx%]")


def placeholders(text: str) -> list[str]:
    """The placeholders of a message, sorted (``{name}``, ``{n:,}``, ``%s``…)."""
    return sorted([f"{{{m}}}" for m in _BRACES.findall(text)] + _PRINTF.findall(text))


def ground_messages() -> Iterator[tuple[str, str]]:
    """(message, where) for the ground layer's words that the sidebar shows."""
    import datasets
    from kpca_core import KERNELS

    for name, kernel in KERNELS.items():
        yield kernel.title, f"kpca_core.KERNELS[{name!r}].title"
    for name, info in datasets.available().items():
        yield info.title, f"datasets.available()[{name!r}].title"
        yield info.summary, f"datasets.available()[{name!r}].summary"
        for option in info.options:
            if option.help:
                yield option.help, f"datasets.available()[{name!r}].options.{option.name}.help"


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
                root, method_map, options_map, keywords=KEYWORDS, strip_comment_tags=True):
            catalog.add(message, None, [(filename, lineno)], auto_comments=comments,
                        context=context)
    for message, where in ground_messages() if ground else ():
        catalog.add(message, None, [(where, 0)])
    return catalog, [line for line in warnings.getvalue().splitlines() if line.strip()]


def write_template(catalog: Catalog, path: Path = TEMPLATE) -> None:
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
        path.parent.mkdir(parents=True, exist_ok=True)
        with path.open("wb") as out:
            write_po(out, catalog, width=100, include_lineno=False)


def message_ids(catalog: Catalog) -> set:
    return {message.id for message in catalog if message.id}


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
            entry = translated.get(message.id)
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


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("command", choices=("extract", "update", "check"))
    command = parser.parse_args().command
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
