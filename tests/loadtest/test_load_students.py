"""A few simulated students against a real server: no errors, no mixing.

The load generator runs as its own process, as it is used: Locust patches sockets and
threads for gevent when it is imported, which must not happen inside pytest.
"""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def test_four_students_change_settings_without_errors_or_mixing(tmp_path):
    out = tmp_path / "class.json"
    done = subprocess.run(
        [sys.executable, "loadtest/load_students.py", "--students", "4",
         "--minutes", "0.25", "--arrival", "1", "--pause", "2", "4", "--settle", "1",
         "--timeout", "60", "--workdir", str(tmp_path), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=240,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    (run,) = json.loads(out.read_text())["runs"]
    assert run["problems"] == [] and run["errors"] == 0 and run["mixed"] == 0
    assert run["disconnects"] == 0
    # Everyone opened their link, and changed settings more than once on average:
    # 2 × the lecture's Explorer view, the tour and "How it works".
    assert run["first_view_s"]["n"] == 4
    assert run["interaction_s"]["n"] >= 6
    assert set(run["interaction_by_page_s"]) == {"explorer", "tour", "how_it_works"}
    assert run["peak_rss_mb"] > 0 and run["server_cpu_s_steady"] > 0


@pytest.mark.slow
def test_a_small_lab_opens_its_own_views_and_moves_gamma_without_errors(tmp_path):
    out = tmp_path / "lab.json"
    done = subprocess.run(
        [sys.executable, "loadtest/load_students.py", "--mix", "lab", "--students", "3",
         "--minutes", "0.25", "--arrival", "1", "--pause", "2", "4", "--settle", "1",
         "--timeout", "90", "--workdir", str(tmp_path), "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    (run,) = json.loads(out.read_text())["runs"]
    assert run["mix"] == "lab" and run["problems"] == []
    assert run["refused"] == 0 and run["dropped"] == 0 and run["errors"] == 0
    assert run["first_view_s"]["n"] == 3 and run["interaction_s"]["n"] >= 3
    assert set(run["interaction_by_page_s"]) == {"explorer"}
    assert "| lab | 3 | 1 replica(s) | 0 / 0 |" in done.stdout  # the table names the mix


@pytest.mark.slow
def test_one_core_and_empty_caches_are_a_cold_container(tmp_path):
    # Issue 50: Community Cloud's container, one core and nothing on disk yet.
    out = tmp_path / "cold.json"
    done = subprocess.run(
        [sys.executable, "loadtest/load_students.py", "--mix", "lab", "--students", "2",
         "--minutes", "0.2", "--arrival", "1", "--pause", "2", "4", "--settle", "1",
         "--timeout", "90", "--one-core", "--empty-cache", "--workdir", str(tmp_path),
         "--out", str(out)],
        cwd=ROOT, capture_output=True, text=True, timeout=300,
    )  # fmt: skip
    assert done.returncode == 0, done.stdout[-2000:] + done.stderr[-3000:]
    (run,) = json.loads(out.read_text())["runs"]
    assert run["one_core"] and run["empty_cache"] and run["server_cpu_affinity"] == [[0]]
    assert run["problems"] == [] and run["errors"] == 0 and run["refused"] == 0
    # The server's caches were the fresh directory: it wrote there, and it is gone.
    assert run["empty_cache_files_at_end"] > 0
    assert not Path(run["empty_cache_dir"]).exists()
    assert run["server_cpu_s_per_request_arriving"] > 0
    assert "| lab | 2 | 1 replica(s), one core, empty cache |" in done.stdout
    assert "A lab on one core, empty caches: first view median ≤ 1 s" in done.stdout
