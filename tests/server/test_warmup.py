"""The router imports every app module once, serially, before pages run in parallel."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from server import warmup

ROOT = Path(__file__).resolve().parents[2]


def test_every_module_of_the_app_packages_is_listed():
    names = warmup.app_modules()
    for path in (ROOT / "ui").rglob("*.py"):
        module = ".".join(path.relative_to(ROOT).with_suffix("").parts)
        assert module.removesuffix(".__init__") in names, module
    assert "kpca_core.estimator" in names and "experiments.separability" in names


def test_twelve_sessions_arriving_together_on_a_cold_process_import_cleanly():
    # A fresh interpreter, so nothing is imported yet: twelve threads warm up at once
    # and then import a page's modules, as twelve students' first runs do.
    script = """
import threading
errors = []
def session():
    try:
        from server import warmup
        warmup.import_app_modules()
        from lessons.denoising import view as denoising_view  # noqa: F401
        from lessons.explorer import view as explorer_view
        from shell import figures  # noqa: F401
    except Exception as error:
        errors.append(repr(error))
threads = [threading.Thread(target=session) for _ in range(12)]
[t.start() for t in threads]
[t.join() for t in threads]
print(len(errors), errors[:2])
"""
    result = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True,
                            text=True, timeout=300)
    assert result.returncode == 0, result.stderr[-2000:]
    assert result.stdout.split()[0] == "0", result.stdout
