"""Fixtures shared across test folders: one Chromium and one app server per test session,
one page run per module and settings for the tests that only read it (``shared_page``).

Defined once here (not per folder) so that the browser tests and the deployment smoke
test share a single Playwright instance: two sync Playwright instances cannot run in one
thread. Every test in a browser module (``test_browser.py``, ``test_*_browser.py``) is
marked here, once: ``browser``, and skipped where Debian's chromium is missing.
"""

from __future__ import annotations

import functools
import math
import os
import random
from pathlib import Path

import pytest

# Nothing is computed ahead in the background while the suite runs (server/ahead.py): a
# tour page opened by one test would otherwise start minutes of work under the others.
# The servers the tests start inherit it; tests/lecture_pack/test_ahead.py turns it on.
os.environ["KPCA_PREPARE_AHEAD"] = "0"
# No machine-wide cache on disk either (server/shared_cache.py): a test reads only what it
# computed. tests/server/test_shared_cache.py sets its own directory.
os.environ["KPCA_SHARED_CACHE"] = "off"

from streamlit.components.v2 import manifest_scanner

from tests.support.browser import CHROMIUM, CHROMIUM_ARGS, HAS_CHROMIUM, Server, new_page
from tests.support.downloads import downloads  # noqa: F401  (a fixture: pytest finds it here)

# AppTest scans every installed distribution for Streamlit components on the first run of
# each new AppTest (streamlit 1.67: about 0.3 s, most of a warm page's run). What is
# installed cannot change while the suite runs, so the scan is done once per process.
manifest_scanner.scan_component_manifests = functools.cache(
    manifest_scanner.scan_component_manifests)


# Folders whose tests measure time or load: they run alone (scripts/test.sh), never beside
# another test worker that would skew what they measure.
SOLO_FOLDERS = ("loadtest", "deploy", "benchmarks")
# A property sweep (a test marked ``sweep``) runs whole by default and on CI; a quick run
# (KPCA_SWEEPS=sample, `scripts/test.sh --quick`) keeps SWEEP_SHARE of each sweep's cases,
# drawn with KPCA_SWEEP_SEED (else a new seed each run, printed in the header), in the
# manner of scikit-learn's global_random_seed: any case must pass, CI runs them all.
SWEEP_SHARE = 0.25
# Set here, before pytest-xdist starts its workers, so that they inherit it and sample alike.
os.environ.setdefault("KPCA_SWEEP_SEED", str(random.SystemRandom().randrange(10**6)))
_SWEEP_SEED = int(os.environ["KPCA_SWEEP_SEED"])


def _sampling_sweeps() -> bool:
    return os.environ.get("KPCA_SWEEPS", "all") == "sample"


def pytest_report_header(config):
    if _sampling_sweeps():
        return (f"property sweeps: a {SWEEP_SHARE:.0%} sample of each "
                f"(KPCA_SWEEP_SEED={_SWEEP_SEED} repeats it; KPCA_SWEEPS=all runs them whole)")
    return "property sweeps: whole"


def sample_sweeps(items: list, seed: int, share: float) -> tuple[list, list]:
    """(kept, dropped): every item not marked ``sweep``, and of each sweep (a test
    function's cases) a seeded sample of ``share`` of its cases, at least one."""
    sweeps: dict[str, list] = {}
    for item in items:
        if item.get_closest_marker("sweep"):
            sweeps.setdefault(item.nodeid.split("[")[0], []).append(item)
    dropped = set()
    for name, cases in sweeps.items():
        rng = random.Random(f"{seed}:{name}")
        keep = max(1, math.ceil(share * len(cases)))
        dropped |= {id(c) for c in cases} - {id(c) for c in rng.sample(cases, keep)}
    return ([i for i in items if id(i) not in dropped], [i for i in items if id(i) in dropped])


@pytest.hookimpl(tryfirst=True)  # before `-m` deselects by marker
def pytest_collection_modifyitems(config, items):
    """Mark every test of a browser module; refuse a test elsewhere that drives Chromium
    (the ``browser`` fixture, or ``page``) without the mark, which ``-m "not browser"``
    would then run on a machine with no browser. Mark the tests that measure time or load
    ``solo``; on a quick run, keep a sample of each property sweep."""
    needs_chromium = pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium")
    if _sampling_sweeps():
        items[:], dropped = sample_sweeps(items, _SWEEP_SEED, SWEEP_SHARE)
        if dropped:
            config.hook.pytest_deselected(items=dropped)
    tests_root = Path(__file__).resolve().parent
    for item in items:
        path = item.path.resolve()
        folder = path.relative_to(tests_root).parts[0] if path.is_relative_to(tests_root) else ""
        if folder in SOLO_FOLDERS:
            item.add_marker(pytest.mark.solo)
        if item.path.name.endswith("browser.py"):
            item.add_marker(pytest.mark.browser)
            item.add_marker(needs_chromium)
        elif "browser" in getattr(item, "fixturenames", ()) and not item.get_closest_marker(
            "browser"
        ):
            raise pytest.UsageError(
                f"{item.nodeid} drives Chromium: move it to a test_*_browser.py module or "
                "mark it pytest.mark.browser."
            )


@pytest.fixture(scope="session")
def browser():
    sync_api = pytest.importorskip("playwright.sync_api")
    with sync_api.sync_playwright() as p:
        chromium = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        yield chromium
        chromium.close()


@pytest.fixture(scope="session")
def server():
    running = Server()
    yield running
    running.stop()


@pytest.fixture
def page(browser):
    tab = new_page(browser)
    yield tab
    tab.context.close()


def _refuse_a_run(*_args, **_kwargs):
    raise AssertionError("this page run is shared by the module's tests (shared_page): it "
                         "is only read; a test that clicks, sets or runs opens its own "
                         "with open_app")


@pytest.fixture(scope="module")
def shared_page():
    """open_app for the tests of a module that only read what a page shows: each page at
    each settings runs once per module, and every test that asks for it again reads that
    run, in any order. The run refuses another (a click, a value set, a rerun), so that no
    test changes what another reads; a test that acts on the page opens its own."""
    runs: dict[tuple, object] = {}

    def open_shared(page: str = "home", query: dict | None = None,
                    state: dict | None = None):
        key = (page, tuple(sorted((k, str(v)) for k, v in (query or {}).items())),
               tuple(sorted((k, repr(v)) for k, v in (state or {}).items())))
        if key not in runs:
            from tests.support.apptest import open_app  # imports the app's datasets: late

            at = open_app(page, query, state)
            at._run = _refuse_a_run  # every run, a widget's too, goes through AppTest._run
            runs[key] = at
        return runs[key]

    return open_shared
