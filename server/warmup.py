"""Import every module of the app once, under one lock, before the first page runs.

Streamlit runs each browser session's script in its own thread. On a cold server the
first students arrive together, and their threads import the pages' modules at the
same moment; CPython then fails in two ways, both seen by the classroom load test
(``loadtest/load_classroom.py``, 12 sessions): ``from lessons.explorer import view``
raises ImportError while another thread is still executing that module, and two threads
importing a package and its submodule in different orders hit a module-lock
``_DeadlockError``. Importing everything once, serially, removes both: afterwards every
import is a lookup in ``sys.modules``.

This module imports nothing of the app at load time, so importing it is itself safe.
"""

from __future__ import annotations

import importlib
import pkgutil
import threading

PACKAGES = ("words", "kpca_core", "datasets", "experiments", "server", "shell", "lessons",
            "classroom",
            "lecture_pack")
_lock = threading.Lock()
_done = False


def app_modules() -> list[str]:
    """Every module of the app's packages, packages first."""
    names = []
    for package_name in PACKAGES:
        package = importlib.import_module(package_name)
        names.append(package_name)
        names += [
            info.name
            for info in pkgutil.walk_packages(package.__path__, prefix=f"{package_name}.")
        ]
    return names


def import_app_modules() -> None:
    """Import every app module exactly once per process (later calls return at once)."""
    global _done
    if _done:
        return
    with _lock:
        if _done:
            return
        for name in app_modules():
            importlib.import_module(name)
        _done = True
