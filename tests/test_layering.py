"""The layering of the house, read from the imports (every import, also inside functions).

- ground: ``kpca_core`` and ``datasets`` import nothing of the app;
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
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("words", "kpca_core", "datasets", "experiments", "server", "shell", "lessons",
            "classroom",
            "lecture_pack")
# Modules of a lesson that hold numbers or figures, not Streamlit sections: also a page's
# sections as the offline lecture builds them (``sections``) and its frames (``pack``).
PURE_LESSON_MODULES = {"experiment", "figures", "formulas", "paper_table", "approximations",
                       "kernel_figures", "lucky_gamma", "alignment_figures", "sections",
                       "pack"}
# The shell modules without Streamlit: the figures every page shares, the registry, the
# settings model with its link parsing, text from outside made safe to show, the cost
# model of the server's queue, the memory budget's numbers, the translations.
PURE_SHELL_MODULES = {"shell", "server.budget", "server.costs", "shell.figures", "words.i18n",
                      "shell.registry", "shell.state", "words.text"}
# The classroom's modules without Streamlit: the questions asked before a view, the tally,
# the tour's steps.
PURE_CLASSROOM_MODULES = {"classroom", "classroom.questions", "classroom.tally",
                          "classroom.tour"}


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
    if parts[0] in ("kpca_core", "datasets", "experiments"):
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
    shell = {m for m in reached if m.split(".")[0] == "shell"} - PURE_SHELL_MODULES
    assert not shell, f"{name} reaches {sorted(shell)}"
    if name.split(".")[0] in ("kpca_core", "datasets"):
        app = {m for m in reached if m.split(".")[0] in PACKAGES} - {name}
        assert all(m.split(".")[0] == name.split(".")[0] for m in app), sorted(app)
    if name.split(".")[0] == "experiments":
        assert not any(lesson_of(m) for m in reached), f"{name} reaches a lesson"


def test_experiments_import_no_floor_above_them():
    """``experiments/`` sits below the server, the shell, the lessons and the classroom: a
    size it needs is declared there and imported upwards, never read from the registry."""
    above = ("server", "shell", "lessons", "classroom", "lecture_pack")
    crossings = {name: sorted(m for m in closure(name) if m.split(".")[0] in above)
                 for name in MODULES if name.split(".")[0] == "experiments"}
    assert {name: reached for name, reached in crossings.items() if reached} == {}


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
