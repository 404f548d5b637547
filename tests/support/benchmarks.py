"""Load a script of benchmarks/ as a module, from its file.

benchmarks/ is a folder of scripts, not a package, and the tests do not put it on
``sys.path`` (tests/test_layering.py): each test loads the script it runs by its path.
"""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

BENCHMARKS = Path(__file__).resolve().parents[2] / "benchmarks"


def load_script(name: str) -> ModuleType:
    """A fresh module run from ``benchmarks/<name>.py``, registered in ``sys.modules`` under
    ``name`` (a script's dataclasses look their module up there)."""
    spec = importlib.util.spec_from_file_location(name, BENCHMARKS / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    sys.modules[name] = module
    spec.loader.exec_module(module)
    return module
