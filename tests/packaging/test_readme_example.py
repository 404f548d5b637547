"""The library's examples: the README's "Using the core on its own" and the complete one
in docs/core.md. Their install commands are the ones the packaging test uses, and each
example runs as printed (so neither can rot)."""

from __future__ import annotations

import subprocess
import sys

import pytest

from tests.packaging.tools import DOCS, README, ROOT, code_blocks, markdown_section

# (file, section, what the example prints when scikit-learn agrees with it)
EXAMPLES = {
    "readme": (README, "Using the core on its own", "same projections as scikit-learn"),
    "core": (DOCS / "core.md", "A complete example", "same as scikit-learn"),
}
INSTALLS = [(README, "Using the core on its own"), (DOCS / "core.md", "Install")]


def example_code(name: str) -> str:
    """The section's Python blocks, joined: together they are one complete script."""
    path, section, _ = EXAMPLES[name]
    blocks = code_blocks(markdown_section(path, section), "python")
    assert blocks, f"{path.name} section '{section}' has no ```python block"
    return "\n".join(blocks)


def expected_output(name: str) -> str:
    return EXAMPLES[name][2]


@pytest.mark.parametrize(("path", "heading"), INSTALLS, ids=["readme", "core"])
def test_the_docs_show_how_to_install_the_library(path, heading):
    commands = "\n".join(code_blocks(markdown_section(path, heading), "bash"))
    assert "pip install ." in commands
    assert "pip install git+" in commands.replace('"', "")


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_the_example_runs_as_printed(name):
    # A fresh interpreter, as a reader would run it; the checkout's kpca_core is imported
    # (the installed-wheel run is in test_wheel.py).
    done = subprocess.run(
        [sys.executable, "-c", example_code(name)], cwd=ROOT, capture_output=True, text=True,
        timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    assert expected_output(name) in done.stdout, done.stdout
