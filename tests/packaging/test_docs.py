"""The README and the guides in docs/ agree with the code.

The README stays a five-minute read; every page of the registry is in its table and every
folder of the house in its layout; every benchmark and load-test script is in a guide;
every relative link, and every file or test named in backquotes, exists; every example
link (``/explorer?dataset=…``) opens its view without a warning.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path
from urllib.parse import parse_qsl, urlsplit

import pytest

from tests.packaging.tools import DOCS, README, ROOT, markdown_section

GUIDES = sorted(DOCS.glob("*.md"))
# What a newcomer reads: links and named files are checked in all of them. (CHANGELOG.md
# names files as they were when each entry was written.)
READ = [README, ROOT / "CONTRIBUTING.md", *GUIDES]
MAX_README_LINES = 150


def _ids(paths: list[Path]) -> list[str]:
    return [str(path.relative_to(ROOT)) for path in paths]


def _table_rows(section: str) -> list[list[str]]:
    """The cells of a Markdown table's body rows (header and rule left out)."""
    rows = [[cell.strip() for cell in line.strip().strip("|").split("|")]
            for line in section.splitlines() if line.startswith("|")]
    return rows[2:]


def test_the_guides_are_there():
    names = {path.name for path in GUIDES}
    assert {"classroom.md", "deploy.md", "load.md", "data.md", "core.md",
            "benchmarks.md"} <= names


def test_the_readme_is_a_five_minute_read():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines"


def test_the_readme_lists_every_page_in_menu_order():
    from shell.registry import LESSONS

    table = [row[0] for row in _table_rows(markdown_section(README, "The pages"))]
    assert table == [lesson.title for lesson in LESSONS]


def test_the_readme_layout_names_every_folder_of_the_house():
    done = subprocess.run(["git", "ls-files"], cwd=ROOT, capture_output=True, text=True,
                          check=False)
    if done.returncode != 0:
        pytest.skip("not a git checkout")
    folders = sorted({name.split("/")[0] for name in done.stdout.splitlines()
                      if "/" in name and not name.startswith(".")})
    assert "classroom" in folders and "loadtest" in folders
    layout = " ".join(row[0] for row in _table_rows(markdown_section(README, "The house")))
    missing = [folder for folder in folders if f"`{folder}/" not in layout]
    assert missing == []
    assert "`lessons/common/`" in layout and "`app.py`" in layout


@pytest.mark.parametrize(("folder", "guide"), [("benchmarks", "benchmarks.md"),
                                               ("loadtest", "load.md")])
def test_every_script_is_in_its_guide(folder, guide):
    text = (DOCS / guide).read_text(encoding="utf-8")
    scripts = sorted(p.name for p in (ROOT / folder).glob("*.py") if p.name != "__init__.py")
    assert scripts
    missing = [name for name in scripts
               if f"`{name}`" not in text and f"`{folder}/{name}`" not in text]
    assert missing == []


# ---------------------------------------------------------------- links and named files

LINK = re.compile(r"\]\(([^)\s]+)\)")
HEADING = re.compile(r"^#{1,6} (.+)$", re.M)
CODE_SPAN = re.compile(r"`([^`\n]+)`")
FENCE = re.compile(r"^```.*?^```", re.M | re.S)


def github_anchor(heading: str) -> str:
    """The fragment GitHub gives a heading: lower case, punctuation dropped (letters of any
    script, digits, ``_`` and ``-`` kept), spaces as hyphens."""
    return re.sub(r"[^\w\- ]", "", heading.strip().lower()).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return {github_anchor(heading) for heading in HEADING.findall(text)}


def relative_links(path: Path) -> list[str]:
    text = FENCE.sub("", path.read_text(encoding="utf-8"))
    return [target for target in LINK.findall(text)
            if not re.match(r"[a-z]+:", target)]  # http:, https:, mailto:


def broken_links(path: Path) -> list[str]:
    """The relative links of ``path`` whose file, or heading in a Markdown file, is missing."""
    broken = []
    for target in relative_links(path):
        file_part, _, fragment = target.partition("#")
        where = (path.parent / file_part).resolve() if file_part else path
        if not where.exists():
            broken.append(target)
        elif fragment and where.suffix == ".md" and fragment not in anchors(where):
            broken.append(target)
    return broken


@pytest.mark.parametrize("path", READ, ids=_ids(READ))
def test_every_relative_link_points_to_a_file_and_heading_that_exist(path):
    assert relative_links(path) or path.name == "CONTRIBUTING.md"
    assert broken_links(path) == []


def test_the_link_check_finds_a_missing_file_and_a_missing_heading(tmp_path):
    (tmp_path / "guide.md").write_text("# A guide\n\n## `kpca_core` against scikit-learn\n")
    page = tmp_path / "page.md"
    page.write_text("[ok](guide.md), [ok](guide.md#kpca_core-against-scikit-learn), "
                    "[ok](https://example.org/x), ![gone](gone.png), "
                    "[gone](guide.md#no-such-heading)\n```\n[in code](nowhere.md)\n```\n")
    assert broken_links(page) == ["gone.png", "guide.md#no-such-heading"]


def _ignored_folders() -> tuple[str, ...]:
    """Folders git ignores (benchmarks/results/, tests/artifacts/): a fresh clone lacks
    them until a run writes them, so a guide may name them."""
    lines = (ROOT / ".gitignore").read_text().splitlines()
    return tuple(line for line in lines if line.endswith("/") and "/" in line[:-1])


def named_files(path: Path) -> list[str]:
    """Repository paths named in backquotes (``shell/registry.py``, ``docs/``,
    ``tests/x.py::test_y``): a first folder that exists at the root, no placeholder."""
    top = {p.name for p in ROOT.iterdir() if p.is_dir() and p.name not in (".git", ".venv")}
    names = []
    for span in CODE_SPAN.findall(path.read_text(encoding="utf-8")):
        if " " in span or any(c in span for c in "<>*…{}$~|"):
            continue  # a command, a pattern or a placeholder, not one file
        if "/" in span and span.split("/")[0] in top:
            names.append(span)
    return names


def missing_files(path: Path) -> list[str]:
    """The repository paths named in ``path`` that do not exist (for ``file::test``: a file
    without that test)."""
    missing = []
    for name in named_files(path):
        file_part, _, test = name.partition("::")
        where = ROOT / file_part
        if file_part.startswith(_ignored_folders()):
            continue
        if not where.exists() or (test and f"def {test}(" not in where.read_text()):
            missing.append(name)
    return missing


@pytest.mark.parametrize("path", READ, ids=_ids(READ))
def test_every_file_and_test_named_exists(path):
    assert named_files(path)
    assert missing_files(path) == []


def test_the_file_check_finds_a_moved_file_and_a_renamed_test(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("`shell/registry.py`, `benchmarks/results/run.json` (ignored by git), "
                    "`lessons/<name>/view.py`, `pip install .`, "
                    "`benchmarks/results_store/table1.json`, "
                    "`tests/shell/test_browser.py::test_cold_deep_link_on_a_fresh_server_keeps_"
                    "the_shared_sidebar`, `tests/shell/test_browser.py::test_gone`\n")
    assert missing_files(page) == ["benchmarks/results_store/table1.json",
                                   "tests/shell/test_browser.py::test_gone"]


def test_the_readme_names_the_test_of_its_deep_link_claim():
    # The "Why app_pages/" section rests on a test: it must name one that exists.
    named = [n for n in named_files(README) if "::" in n]
    assert any(n.endswith("::test_cold_deep_link_on_a_fresh_server_keeps_the_shared_sidebar")
               for n in named)


# ---------------------------------------------------------------- example links

EXAMPLE_LINK = re.compile(r"^(/[a-z][a-z_]*(\?\S+)?|\?\S+)$")


def example_links(path: Path) -> list[str]:
    """Links to a view written in backquotes: ``/tour?step=5``, ``/explorer?…``,
    ``?projector=1`` (any page)."""
    return [span for span in CODE_SPAN.findall(path.read_text(encoding="utf-8"))
            if EXAMPLE_LINK.match(span)]


def link_problems(link: str) -> list[str]:
    """What the app would warn about when ``link`` opens, from the same parsers: the
    settings, the classroom's parameters, the page's own parameters, a lock."""
    from classroom.hooks import WING
    from classroom.tour import parse_step
    from lessons.explorer.steps import parse_section
    from lessons.explorer.view_link import view_from_query
    from shell.locks import parse_lock
    from shell.registry import HOME, LESSONS
    from shell.state import PAGE_PARAMS, Q_LOCK, settings_from_query

    parts = urlsplit(link)
    page = parts.path.strip("/") or HOME.url_path
    pages = {lesson.url_path for lesson in LESSONS} | {HOME.url_path}
    if page not in pages:
        return [f"no page {page!r}"]
    query = dict(parse_qsl(parts.query, keep_blank_values=True))
    _, problems = settings_from_query(query, WING.link_checks)
    # A page's own parameters are kept only on that page.
    others = {name for path, names in PAGE_PARAMS.items() if path != page for name in names}
    problems += [f"{name} belongs to another page" for name in others & set(query)
                 if name not in PAGE_PARAMS.get(page, ())]
    own_checks = {
        "step": lambda raw: parse_step(raw)[1],
        "section": lambda raw: parse_section(raw)[1],
        "view": lambda raw: " ".join(view_from_query({"view": raw})[1]) or None,
        "axes": lambda raw: " ".join(view_from_query({"axes": raw})[1]) or None,
    }
    for name in set(PAGE_PARAMS.get(page, ())) & set(query):
        assert name in own_checks, f"no check here for {page}'s parameter {name!r}"
        if problem := own_checks[name](query[name]):
            problems.append(problem)
    if Q_LOCK in query:
        problems += parse_lock(query[Q_LOCK])[1]
    return problems


def test_the_readme_and_the_lecturers_guide_show_example_links():
    assert "/explorer?dataset=circles&n=400&kernel=rbf&gamma=5&components=3" in \
        example_links(README)
    assert len(example_links(DOCS / "classroom.md")) >= 5


def test_the_example_link_check_finds_what_the_app_would_warn_about():
    assert link_problems("/explorer?dataset=circles&gamma=5&section=2") == []
    assert link_problems("/explorer?gamma=-1")
    assert link_problems("/explorer?step=2")  # the tour's parameter
    assert link_problems("/tour?step=15")  # past the last step (the second part ends at 14)
    assert link_problems("/explorer?lock=colour")
    assert link_problems("/explorer?dataset=moons&…")
    assert link_problems("/nowhere?dataset=moons")


@pytest.mark.parametrize("path", [README, *GUIDES], ids=_ids([README, *GUIDES]))
def test_every_example_link_opens_its_view_without_a_warning(path):
    problems = {link: link_problems(link) for link in example_links(path)}
    assert {link: found for link, found in problems.items() if found} == {}
