"""The layering of the house, read from the imports (every import, also inside functions).

- floors, bottom up: ``words`` (translation, text, declarations) → ``kpca_core``,
  ``datasets`` → ``experiments`` (pure numbers) → ``server`` (the process's runtime) →
  ``shell`` (the page UI every page needs) → ``classroom``, ``lessons`` → ``lecture_pack``;
  no import points to a higher floor (:data:`FLOORS`);
- ``words`` imports nothing of the app; ground: ``kpca_core`` and ``datasets`` import
  nothing of the app but the words;
- ``experiments/`` (what several lessons share) and every lesson's pure modules (its
  experiment, figures, formulas) import neither Streamlit nor anything that does: they can be
  tested and benchmarked without a UI. The only shell modules they may use are the pure
  ones (the figure builders every page shares, the settings, the registry);
- no lesson imports another lesson (``lessons.common``, what lessons share, aside), and
  ``lessons.common`` imports no lesson;
- the shell imports no lesson and no classroom; the classroom imports no lesson; only the
  router, the page scripts and ``lecture_pack`` (the tour as an offline file, built from the
  lessons' and the classroom's own code) import the classroom; only the page scripts import
  ``lecture_pack``;
- the app's modules import each other in no circle;
- benchmarks import experiments and pure modules, never a view;
- page scripts never import each other;
- nothing outside ``tests/`` imports ``tests``, and the tests reach no script folder through
  ``sys.path``.
"""

from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("words", "kpca_core", "datasets", "experiments", "server", "shell", "lessons",
            "classroom", "lecture_pack")
# Each package's floor: a module may import its own floor and those below, never above.
FLOORS = {"words": 0, "kpca_core": 1, "datasets": 1, "experiments": 2, "server": 3,
          "shell": 4, "classroom": 5, "lessons": 5, "lecture_pack": 6}


def lesson_file_roles() -> dict[str, str]:
    """File name → role, from the table of a lesson's files in CONTRIBUTING.md (the one
    place they are named): numbers, figures, shown or page."""
    section = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8").split(
        "### A lesson's files", 1)[1].split("\n## ", 1)[0]
    roles = {}
    for line in section.splitlines():
        cells = [c.strip() for c in line.strip().strip("|").split("|")]
        if len(cells) == 4 and cells[0] in ("numbers", "figures", "shown", "page"):
            roles |= {name: cells[0] for name in re.findall(r"`([\w.]+\.py)`", cells[1])}
    return roles


LESSON_FILE_ROLES = lesson_file_roles()
# Modules of a lesson without Streamlit: its numbers, its figures, and what it shows as the
# page and the offline lecture build it.
PURE_LESSON_MODULES = {name.removesuffix(".py") for name, role in LESSON_FILE_ROLES.items()
                       if role != "page"} - {"__init__"}
# The server's and the shell's modules without Streamlit: the cost model of the server's
# queue, the memory budget's numbers, the CPUs the process may use, the figures every page
# shares, the registry, the settings model with its link parsing. (Every module of
# ``words`` is pure.)
PURE_SHELL_MODULES = {"server", "server.budget", "server.costs", "server.cpu", "shell",
                      "shell.figures", "shell.registry", "shell.state"}
# The classroom's modules without Streamlit: the questions asked before a view, the tally
# and its stores, the tour's steps.
PURE_CLASSROOM_MODULES = {"classroom", "classroom.questions", "classroom.tally",
                          "classroom.store", "classroom.tally_redis", "classroom.tour"}


def module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def app_modules() -> dict[str, Path]:
    found = {}
    for package in PACKAGES:
        for path in (ROOT / package).rglob("*.py"):
            found[module_name(path)] = path
    return found


MODULES = app_modules()


def imports_of(path: Path) -> set[str]:
    """Every module ``path`` imports (absolute, as written; ``from a import b`` gives a.b
    when a.b is a module of the app, else a)."""
    names = set()
    for node in ast.walk(ast.parse(path.read_text(), filename=str(path))):
        if isinstance(node, ast.Import):
            names |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                names.add(full if full in MODULES else node.module)
    return names


def closure(start: str) -> set[str]:
    """``start`` and every module it imports, directly or through other app modules."""
    seen, todo = set(), [start]
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        if name in MODULES:
            todo += [m for m in imports_of(MODULES[name]) if m not in seen]
            parent = name.rpartition(".")[0]  # importing a.b runs a/__init__.py first
            if parent:
                todo.append(parent)
    return seen


def is_pure(name: str) -> bool:
    parts = name.split(".")
    if parts[0] in ("words", "kpca_core", "datasets", "experiments"):
        return True
    if parts[0] == "lessons":
        return len(parts) <= 2 or parts[2] in PURE_LESSON_MODULES
    return name in PURE_SHELL_MODULES | PURE_CLASSROOM_MODULES


def lesson_of(name: str) -> str | None:
    """The lesson that owns module ``name`` (None: not a lesson's; ``lessons.common`` is
    what lessons share, no lesson's own)."""
    parts = name.split(".")
    return parts[1] if parts[0] == "lessons" and len(parts) > 1 and parts[1] != "common" else None


def uses_streamlit(names: set[str]) -> bool:
    return any(n == "streamlit" or n.startswith("streamlit.") for n in names)


def test_the_tree_is_found():
    assert "kpca_core.estimator" in MODULES and "shell.sidebar" in MODULES
    assert any(lesson_of(m) == "explorer" for m in MODULES)


@pytest.mark.parametrize("name", sorted(m for m in MODULES if is_pure(m)))
def test_pure_modules_need_no_streamlit_and_no_shell(name):
    reached = closure(name)
    assert not uses_streamlit(reached), f"{name} reaches Streamlit"
    shell = {m for m in reached if m.split(".")[0] in ("server", "shell")} - PURE_SHELL_MODULES
    assert not shell, f"{name} reaches {sorted(shell)}"
    if name.split(".")[0] in ("words", "kpca_core", "datasets"):
        app = {m for m in reached if m.split(".")[0] in PACKAGES} - {name}
        own = {name.split(".")[0], "words"}
        assert all(m.split(".")[0] in own for m in app), sorted(app)
    if name.split(".")[0] == "experiments":
        assert not any(lesson_of(m) for m in reached), f"{name} reaches a lesson"


def test_experiments_import_no_floor_above_them():
    """``experiments/`` sits below the server, the shell, the lessons and the classroom: a
    size it needs is declared there and imported upwards, never read from the registry."""
    above = ("server", "shell", "lessons", "classroom", "lecture_pack")
    crossings = {name: sorted(m for m in closure(name) if m.split(".")[0] in above)
                 for name in MODULES if name.split(".")[0] == "experiments"}
    assert {name: reached for name, reached in crossings.items() if reached} == {}


def test_no_import_points_to_a_higher_floor():
    upward = []
    for name, path in MODULES.items():
        floor = FLOORS[name.split(".")[0]]
        upward += [f"{name} → {m}" for m in imports_of(path)
                   if m.split(".")[0] in FLOORS and FLOORS[m.split(".")[0]] > floor]
    assert upward == []


def test_the_words_import_nothing_of_the_app():
    for name, path in MODULES.items():
        if name.split(".")[0] == "words":
            app = [m for m in imports_of(path) if m.split(".")[0] in PACKAGES]
            assert all(m.split(".")[0] == "words" for m in app), (name, app)


def test_every_file_of_a_lesson_has_a_role():
    """A lesson's files are named once, in CONTRIBUTING.md: a new kind of file is added
    there (with its role) before it is added to a lesson."""
    unlisted = sorted(path.relative_to(ROOT).as_posix()
                      for path in (ROOT / "lessons").rglob("*.py")
                      if path.name not in LESSON_FILE_ROLES and path.parent != ROOT / "lessons")
    assert unlisted == [], "add these to CONTRIBUTING.md's table of a lesson's files"


@pytest.mark.parametrize("name", sorted(m for m in MODULES if m.count(".") == 2
                                        and m.startswith("lessons.")))
def test_each_file_of_a_lesson_keeps_to_its_role(name):
    role = LESSON_FILE_ROLES[MODULES[name].name]
    reached = closure(name)
    above = {m for m in reached if m.split(".")[0] in ("server", "shell")}
    if role == "numbers":
        assert not uses_streamlit(reached) and not above, (name, sorted(above))
    elif role == "figures":
        assert not uses_streamlit(reached) and above <= {"shell", "shell.figures"}, (
            name, sorted(above))
    elif role == "shown":
        assert not uses_streamlit(reached) and above <= PURE_SHELL_MODULES, (
            name, sorted(above - PURE_SHELL_MODULES))


def test_no_lesson_imports_another():
    crossings = []
    for name, path in MODULES.items():
        own = lesson_of(name)
        if own:
            crossings += [(name, m) for m in imports_of(path) if lesson_of(m) not in (None, own)]
    assert crossings == []


def test_lessons_common_imports_no_lesson():
    for name, path in MODULES.items():
        if name.startswith("lessons.common"):
            assert not [m for m in imports_of(path) if lesson_of(m)], name


def test_the_shell_imports_no_lesson_and_no_classroom():
    for name, path in MODULES.items():
        if name.split(".")[0] == "shell":
            wrong = [m for m in imports_of(path)
                     if m.split(".")[0] in ("lessons", "classroom")]
            assert not wrong, (name, wrong)


def test_the_classroom_imports_no_lesson():
    for name, path in MODULES.items():
        if name.split(".")[0] == "classroom":
            assert not [m for m in imports_of(path) if m.split(".")[0] == "lessons"], name


def test_only_the_router_the_pages_and_the_lecture_pack_import_the_classroom():
    for name, path in MODULES.items():
        if name.split(".")[0] not in ("classroom", "lecture_pack"):
            assert not [m for m in imports_of(path) if m.split(".")[0] == "classroom"], name


def test_only_the_pages_import_the_lecture_pack():
    outside = [path for path in python_files_outside_tests()
               if path.relative_to(ROOT).parts[0] not in ("app_pages", "lecture_pack")]
    assert ROOT / "app.py" in outside and ROOT / "shell" / "sidebar.py" in outside
    for path in outside:
        wrong = [m for m in imports_of(path) if m.split(".")[0] == "lecture_pack"]
        assert not wrong, (path.relative_to(ROOT), wrong)


def import_circles() -> list[list[str]]:
    """The circles of the app's import graph (Tarjan's strongly connected components)."""
    graph = {name: {m for m in imports_of(path) if m in MODULES and m != name}
             for name, path in MODULES.items()}
    index, low, stack, on_stack, circles = {}, {}, [], set(), []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        on_stack.add(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in on_stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while True:
                member = stack.pop()
                on_stack.discard(member)
                component.append(member)
                if member == node:
                    break
            if len(component) > 1:
                circles.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return circles


def test_no_import_circles():
    assert import_circles() == []


def python_files_outside_tests() -> list[Path]:
    skip = {".venv", ".git", "tests", "build", "dist"}
    return [path for path in ROOT.rglob("*.py")
            if not skip & set(path.relative_to(ROOT).parts)]


def test_nothing_outside_the_tests_imports_them():
    for path in python_files_outside_tests():
        wrong = [m for m in imports_of(path) if m.split(".")[0] == "tests"]
        assert not wrong, (path.relative_to(ROOT), wrong)


def test_the_tests_put_no_script_folder_on_sys_path():
    for path in (ROOT / "tests").rglob("*.py"):
        for line in path.read_text(encoding="utf-8").splitlines():
            if "sys.path" in line and ("insert" in line or "append" in line or "[:0]" in line):
                assert "benchmarks" not in line and "loadtest" not in line, (path, line)


def test_benchmarks_import_no_view():
    for path in sorted((ROOT / "benchmarks").glob("*.py")):
        for imported in imports_of(path):
            if imported.split(".")[0] in PACKAGES:
                assert is_pure(imported), f"{path.name} imports {imported}"


def test_page_scripts_import_no_other_page():
    for path in sorted((ROOT / "app_pages").glob("*.py")):
        assert not [m for m in imports_of(path) if m.startswith("app_pages")], path.name


def test_the_checks_can_fail():
    """The rules above see a violation when there is one (a guard against a vacuous test)."""
    assert uses_streamlit(closure("shell.sidebar"))
    assert not is_pure("lessons.explorer.view") and is_pure("lessons.denoising.experiment")
    assert lesson_of("lessons.explorer.view") == "explorer" and lesson_of("shell.state") is None
    assert lesson_of("lessons.common.motion") is None and is_pure("classroom.tally")
    assert "classroom" in {m.split(".")[0] for m in imports_of(ROOT / "app.py")}
    assert LESSON_FILE_ROLES["experiment.py"] == "numbers" and "view" not in PURE_LESSON_MODULES
    assert LESSON_FILE_ROLES["sections.py"] == "shown" and "pack" in PURE_LESSON_MODULES
    assert FLOORS["words"] < FLOORS["experiments"] < FLOORS["server"] < FLOORS["shell"]
    assert "words.i18n" in imports_of(MODULES["experiments.kpca_steps"])
    assert FLOORS["shell"] > FLOORS["server"] and "server.admission" in closure("shell.uploads")


def test_the_import_graph_script_reports_the_house_without_a_circle():
    """``scripts/import_graph.py``, which anyone can run to measure the house, reads the
    same tree: every package, and no circle."""
    import subprocess
    import sys

    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "import_graph.py"), "shell"],
                          capture_output=True, text=True, check=True, timeout=60)
    rows = {line.split()[0]: line.split()
            for line in done.stdout.splitlines()[1:1 + len(PACKAGES)]}
    assert set(rows) == set(PACKAGES)
    assert all(row[-1] == "-" for row in rows.values()), done.stdout
    assert int(rows["shell"][1]) == sum(1 for m in MODULES if m.split(".")[0] == "shell")
