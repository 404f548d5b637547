"""A small classroom (4 students at once) on one server: no errors, nobody's view mixed up."""

from __future__ import annotations

from loadtest import load_classroom


def test_four_students_at_once_get_their_own_views():
    report = load_classroom.load_test(4)
    problems = [(s["number"], s["path"], s["errors"], s["mixed"]) for s in report["details"]
                if s["errors"] or s["mixed"]]
    assert report["errors"] == 0 and report["mixed"] == 0, problems
    assert all(s["first_drawn_s"] and s["change_drawn_s"] for s in report["details"])
    assert report["peak_rss_mb"] > report["idle_rss_mb"] > 0
    # Four different links: at least the Explorer and USPS-2000 among them.
    assert {s["query"].split("&")[0] for s in report["details"]} >= {"dataset=circles",
                                                                      "dataset=usps"}
