"""The app's import graph, read from the source with the standard library's ``ast``.

    python scripts/import_graph.py                 # every package: modules, lines, layers, circles
    python scripts/import_graph.py shell           # one package, with each module's layer
    python scripts/import_graph.py --rev 1f67bcf   # the same at an earlier commit (git show)

A module's layer is 1 when it imports no module of its own package, else one more than the
highest layer among those it imports (every import counts, also inside functions); a circle
is a set of modules that import each other (Tarjan's strongly connected components).
"""

from __future__ import annotations

import argparse
import ast
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("words", "kpca_core", "datasets", "experiments", "server", "shell", "lessons",
            "classroom",
            "lecture_pack")


def sources(rev: str | None) -> Iterator[tuple[str, str]]:
    """(path, text) of every Python file of the app's packages, in the work tree or at
    ``rev``."""
    if rev is None:
        for package in PACKAGES:
            for path in sorted((ROOT / package).rglob("*.py")):
                yield path.relative_to(ROOT).as_posix(), path.read_text(encoding="utf-8")
        return
    listed = subprocess.run(["git", "ls-tree", "-r", "--name-only", rev, "--", *PACKAGES],
                            cwd=ROOT, capture_output=True, text=True, check=True).stdout
    for path in listed.split():
        if path.endswith(".py"):
            yield path, subprocess.run(["git", "show", f"{rev}:{path}"], cwd=ROOT,
                                       capture_output=True, text=True, check=True).stdout


def module_name(path: str) -> str:
    parts = path.removesuffix(".py").split("/")
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def imports(text: str, modules: set[str]) -> set[str]:
    """The app's modules ``text`` imports (``from a import b`` counts a.b when it is one)."""
    found = set()
    for node in ast.walk(ast.parse(text)):
        if isinstance(node, ast.Import):
            found |= {alias.name for alias in node.names}
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            for alias in node.names:
                full = f"{node.module}.{alias.name}"
                found.add(full if full in modules else node.module)
    return found & modules


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in graph[node]:
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            component = []
            while (member := stack.pop()) != node:
                component.append(member)
            component.append(node)
            if len(component) > 1:
                found.append(sorted(component))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return found


def layers(graph: dict[str, set[str]]) -> dict[str, int]:
    """Each module's layer within its own package (a circle counts as one layer)."""
    done: dict[str, int] = {}

    def layer(node: str, seen: frozenset[str]) -> int:
        if node in done:
            return done[node]
        below = [m for m in graph[node] if m.split(".")[0] == node.split(".")[0]
                 and m not in seen and m != node]
        done[node] = 1 + max((layer(m, seen | {node}) for m in below), default=0)
        return done[node]

    for node in graph:
        layer(node, frozenset())
    return done


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("package", nargs="?", help="one package, with each module's layer")
    parser.add_argument("--rev", help="a git revision instead of the work tree")
    args = parser.parse_args(argv)
    texts = {module_name(path): (path, text) for path, text in sources(args.rev)}
    modules = set(texts)
    graph = {name: imports(text, modules) - {name} for name, (_, text) in texts.items()}
    level = layers(graph)
    print(f"{'package':<12} {'modules':>7} {'lines':>7} {'layers':>6}  circles")
    for package in PACKAGES:
        members = [m for m in texts if m.split(".")[0] == package]
        if not members:
            continue
        lines = sum(texts[m][1].count("\n") for m in members)
        inside = [c for c in circles(graph) if c[0].split(".")[0] == package]
        print(f"{package:<12} {len(members):>7} {lines:>7} {max(level[m] for m in members):>6}"
              f"  {'; '.join(' ⇄ '.join(c) for c in inside) or '-'}")
    if args.package:
        print()
        for name in sorted((m for m in texts if m.split(".")[0] == args.package),
                           key=lambda m: (-level[m], m)):
            print(f"  layer {level[name]}  {name}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
