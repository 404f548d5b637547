"""benchmarks/bench_kpca.py keeps running as the core changes (no timing is asserted)."""

import pytest

from tests.support.benchmarks import load_script


@pytest.mark.slow  # ~25 s: our fit, scikit-learn's and the floor at n = 300, twice over
def test_benchmark_runs_and_reports_matching_projections(capsys):
    bench = load_script("bench_kpca")
    rows = bench.main(["--sizes", "300", "--components", "2", "12", "--data", "random", "toy",
                       "--repeats", "1"])
    assert [(r["data"], r["k"]) for r in rows] == [
        ("random", 2), ("random", 12), ("toy", 2), ("toy", 12)]
    for row in rows:
        assert row["diff"] < 1e-8
        assert row["ours"] > 0 and row["sklearn"] > 0 and row["floor"] > 0
        # One n x n matrix plus O(nk); the copy of X (n x d) adds d / n of one.
        assert row["mem_ours"] < 1.25 + row["d"] / row["n"]
    assert "skl/ours" in capsys.readouterr().out


@pytest.mark.slow  # ~20 s: a fresh Python process per contender and repeat
def test_isolated_mode_times_each_contender_in_its_own_process(capsys):
    bench = load_script("bench_kpca")
    rows = bench.main(["--sizes", "300", "--components", "2", "--data", "toy",
                       "--repeats", "2", "--no-memory", "--isolate"])
    (row,) = rows
    assert row["ours"] > 0 and row["sklearn"] > 0 and row["floor"] > 0
    assert row["diff"] < 1e-8 and row["load"] >= 0
    assert "load" in capsys.readouterr().out


def test_worker_prints_one_time_per_repeat(capsys):
    import json

    bench = load_script("bench_kpca")
    assert bench.main(["--worker", "ours", "toy", "200", "2", "3"]) == []
    times = json.loads(capsys.readouterr().out.strip())
    assert len(times) == 3 and all(t > 0 for t in times)
