"""The shared shell: the memory guard's rule, chart export names, the lesson table."""

from __future__ import annotations

from pathlib import Path

import pytest

from server import memory
from shell import charts
from shell.registry import HOME, LESSONS

ROOT = Path(__file__).resolve().parents[2]
GIB = 2**30


def test_matrix_bytes_is_eight_bytes_per_float():
    assert memory.matrix_bytes(7291) == 8 * 7291**2  # 425 MB: the full USPS training K
    assert memory.matrix_bytes(100, 10, copies=2) == 16_000


def test_guard_allows_what_fits_and_refuses_what_does_not():
    assert memory.memory_problem(7291, budget=GIB) is None
    problem = memory.memory_problem(20_000, budget=GIB)
    assert problem is not None
    assert "n = 20,000 needs 3.2 GB" in problem and "1.1 GB per computation" in problem
    largest = memory.largest_square(budget=GIB)
    assert memory.memory_problem(largest, budget=GIB) is None
    assert memory.memory_problem(largest + 1, budget=GIB) is not None
    assert f"at most {largest:,} points" in problem


def test_guard_counts_copies_and_rectangles():
    assert memory.memory_problem(9000, budget=GIB) is None
    assert "2 copies" in memory.memory_problem(9000, copies=2, budget=GIB)
    assert "a 400,000 × 1,000 matrix" in memory.memory_problem(400_000, 1000, budget=GIB)


def test_budget_is_a_setting_and_bad_values_fall_back(monkeypatch):
    monkeypatch.setenv(memory.BUDGET_ENV, "256")
    assert memory.budget_bytes() == 256 * 2**20
    for bad in ("lots", "-5", "0", "nan"):
        monkeypatch.setenv(memory.BUDGET_ENV, bad)
        assert memory.budget_bytes() == memory.DEFAULT_BUDGET_MB * 2**20
    monkeypatch.delenv(memory.BUDGET_ENV)
    assert memory.budget_bytes() == memory.DEFAULT_BUDGET_MB * 2**20


@pytest.mark.parametrize(
    ("n_bytes", "text"), [(512, "512 bytes"), (1536, "1.5 KB"), (3.2e9, "3.2 GB")]
)
def test_format_bytes(n_bytes, text):
    assert memory.format_bytes(n_bytes) == text


def test_chart_downloads_are_named_after_the_view():
    assert charts.export_name("Kernel PCA: circles, γ = 10") == "kpca-lab-kernel-pca-circles-10"
    # The CSVs' view names pass unchanged: the PNG and the CSV of a view share their stem.
    assert charts.export_name("moons-rbf-gamma0.5-maps") == "kpca-lab-moons-rbf-gamma0.5-maps"
    config = charts.chart_config("chart_kpca")
    assert config["toImageButtonOptions"]["filename"] == "kpca-lab-chart-kpca"


def test_every_listed_page_exists_once():
    paths = [HOME.path] + [lesson.path for lesson in LESSONS]
    assert len(set(paths)) == len(paths)
    for path in paths:
        assert (ROOT / path).is_file(), path
    assert all(lesson.teaches for lesson in LESSONS)
