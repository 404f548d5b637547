"""A small classroom (4 students at once) on one server: no errors, nobody's view mixed up."""

from __future__ import annotations

import importlib.util
import sys
from pathlib import Path

SCRIPT = Path(__file__).resolve().parents[2] / "benchmarks" / "load_classroom.py"


def _load_script():
    spec = importlib.util.spec_from_file_location("load_classroom", SCRIPT)
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up while being built
    spec.loader.exec_module(module)
    return module


def test_four_students_at_once_get_their_own_views():
    load = _load_script()
    report = load.load_test(4)
    problems = [(s["number"], s["path"], s["errors"], s["mixed"]) for s in report["details"]
                if s["errors"] or s["mixed"]]
    assert report["errors"] == 0 and report["mixed"] == 0, problems
    assert all(s["first_drawn_s"] and s["change_drawn_s"] for s in report["details"])
    assert report["peak_rss_mb"] > report["idle_rss_mb"] > 0
    # Four different links: at least the Explorer and USPS-2000 among them.
    assert {s["query"].split("&")[0] for s in report["details"]} >= {"dataset=circles",
                                                                      "dataset=usps"}
