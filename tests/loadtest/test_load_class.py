"""The class load test itself (loadtest/load_class.py), played small: two replicas behind
HAProxy sharing the class in Redis, four phones, two steps. What it reports must be what
happened: every phone joins, answers each step once, and follows the lecturer's Next; the
votes the phones were told were counted are the votes in the store; the lecturer's screen
showed every vote (its own fragment's count, read off the page)."""

from __future__ import annotations

import pytest

from loadtest.load_class import main

pytestmark = pytest.mark.slow
PHONES = 4


def test_a_small_class_is_played_and_reported_as_it_happened(capsys):
    report = main(["--phones", str(PHONES), "--arrival", "1", "--steps", "2", "3",
                   "--think", "1", "--step-timeout", "60"])
    assert report["errors"] == []
    assert report["joined"] == PHONES
    assert len(report["replicas"]) == 2 and sum(report["replicas"].values()) == PHONES
    assert report["steps"] == {2: {"told_counted": PHONES, "in_store": PHONES},
                               3: {"told_counted": PHONES, "in_store": PHONES}}
    assert len(report["first_view_s"]) == PHONES
    assert len(report["follow_s"]) == PHONES  # each phone followed Next to step 3
    # Every answer was seen in the store and on the lecturer's screen.
    assert len(report["answer_to_store_s"]) == len(report["answer_to_lecturer_s"]) == 2 * PHONES
    printed = capsys.readouterr().out
    assert "answer → the lecturer's count: p50" in printed
    assert "step 3: 4 told counted, 4 in the store (no lost or double vote)" in printed
