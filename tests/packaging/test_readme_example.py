"""The README's "Using the core on its own" section: its install command is the one the
packaging test uses, and its example runs as printed (so it cannot rot)."""

from __future__ import annotations

import subprocess
import sys

from tests.packaging.tools import ROOT, code_blocks, readme_section

SECTION = "Using the core on its own"


def example_code() -> str:
    """The section's Python blocks, joined: together they are one complete script."""
    blocks = code_blocks(readme_section(SECTION), "python")
    assert blocks, f"README section '{SECTION}' has no ```python block"
    return "\n".join(blocks)


def test_the_section_shows_how_to_install_the_library():
    commands = "\n".join(code_blocks(readme_section(SECTION), "bash"))
    assert "pip install ." in commands
    assert "pip install git+" in commands.replace('"', "")


def test_the_readme_example_runs_as_printed():
    # A fresh interpreter, as a reader would run it; the checkout's kpca_core is imported
    # (the installed-wheel run is in test_wheel.py).
    done = subprocess.run(
        [sys.executable, "-c", example_code()], cwd=ROOT, capture_output=True, text=True,
        timeout=120, check=False,
    )
    assert done.returncode == 0, done.stderr
    # The example prints the eigenvalues both ways, then what scikit-learn found.
    assert "same as scikit-learn" in done.stdout, done.stdout
