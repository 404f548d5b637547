"""Helpers for the packaging and deployment tests: a clean copy of the checkout, fresh
virtual environments outside the repository, and the sections and code blocks of the
README and the guides in docs/."""

from __future__ import annotations

import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
README = ROOT / "README.md"
DOCS = ROOT / "docs"

# Never part of a clean clone: virtual environments, caches, build outputs, artefacts.
_NOT_IN_A_CLONE = shutil.ignore_patterns(
    ".git", ".venv", "__pycache__", "*.pyc", ".pytest_cache", ".ruff_cache", "build",
    "dist", "*.egg-info", "artifacts", "results", "*.npz",
)


def markdown_section(path: Path, heading: str) -> str:
    """The text of the section of Markdown file ``path`` whose ``##`` heading is
    ``heading``, up to the next ``##`` heading (its ``###`` subsections included)."""
    text = path.read_text(encoding="utf-8")
    match = re.search(rf"^## {re.escape(heading)}\n(.*?)(?=^## |\Z)", text, re.M | re.S)
    assert match, f"{path.relative_to(ROOT)} has no '## {heading}' section"
    return match.group(1)


def code_blocks(section: str, language: str) -> list[str]:
    """The fenced ```language blocks of a Markdown section, in order."""
    return re.findall(rf"^```{language}\n(.*?)^```", section, re.M | re.S)


def copy_checkout(dest: Path) -> Path:
    """Copy the working tree as a clean clone would have it (no venv, caches or builds),
    so a build can neither litter the repository nor pick up stale build outputs."""
    shutil.copytree(ROOT, dest, ignore=_NOT_IN_A_CLONE)
    return dest


def clean_env(**extra: str) -> dict[str, str]:
    """The environment for a child process that must see nothing of the test's venv."""
    keep = ("HOME", "LANG", "LC_ALL", "TMPDIR", "PIP_CERT", "PIP_DEFAULT_TIMEOUT",
            "PIP_DISABLE_PIP_VERSION_CHECK", "PIP_FIND_LINKS", "PIP_INDEX_URL",
            "PIP_EXTRA_INDEX_URL", "SSL_CERT_FILE", "http_proxy", "https_proxy",
            "HTTP_PROXY", "HTTPS_PROXY", "no_proxy", "NO_PROXY")
    env = {key: os.environ[key] for key in keep if key in os.environ}
    env["PATH"] = "/usr/local/bin:/usr/bin:/bin"
    env.update(extra)
    return env


def run(command: list[str | Path], *, cwd: Path, env: dict[str, str] | None = None,
        timeout: float = 600) -> subprocess.CompletedProcess[str]:
    """Run a command; on failure, fail with its output (not just its exit code)."""
    done = subprocess.run(
        [str(part) for part in command], cwd=cwd, env=env if env is not None else clean_env(),
        capture_output=True, text=True, timeout=timeout, check=False,
    )
    if done.returncode != 0:
        raise AssertionError(
            f"{' '.join(map(str, command))} exited with {done.returncode}\n"
            f"--- stdout\n{done.stdout[-4000:]}\n--- stderr\n{done.stderr[-4000:]}"
        )
    return done


def base_python() -> str:
    """The interpreter fresh venvs are made from: $KPCA_FRESH_VENV_PYTHON (to rehearse
    another Python version, e.g. /usr/bin/python3.13), else the one running the tests."""
    return os.environ.get("KPCA_FRESH_VENV_PYTHON") or sys.executable


def make_venv(path: Path) -> Path:
    """A fresh virtual environment (no system site-packages); returns its python."""
    # sys.executable may itself live in a venv: `-m venv` then builds on the base
    # interpreter, and the new venv sees none of the current one's packages.
    run([base_python(), "-m", "venv", path], cwd=path.parent)
    return path / "bin" / "python"


def pip_install(python: Path, *args: str | Path, cwd: Path) -> None:
    """``pip install`` into a fresh venv, without byte-compiling what it installs: faster,
    and like Community Cloud, which installs requirements.txt with uv (no bytecode by
    default), so the first imports compile what they use."""
    run([python, "-m", "pip", "install", "-q", "--no-compile", "--disable-pip-version-check",
         *args], cwd=cwd)
