"""benchmarks/bench_scale.py keeps running and reports what it claims (no timing asserted)."""

import numpy as np

from tests.support.benchmarks import load_script


def test_benchmark_prints_both_tables(capsys, monkeypatch):
    monkeypatch.delenv("KPCA_USPS_PATH", raising=False)  # the synthetic set alone
    bench = load_script("bench_scale")
    result = bench.main(["--scaling-sizes", "150", "300", "--approx-sizes", "400", "900",
                         "--landmarks", "20", "100", "400", "--features", "50", "500",
                         "--components", "3", "--exact-max-n", "400"])
    out = capsys.readouterr().out
    assert "skipping usps" in out and "slope" in out and "top-3 err" in out
    (table,) = result["scaling"]
    assert table["name"] == "manifold" and table["run"].sizes.tolist() == [150, 300]
    rows = result["approx"]
    exact = [r for r in rows if r["method"] == "exact"]
    assert [r["n"] for r in exact] == [400]  # exact only where it is allowed
    nystroem = [r for r in rows if r["method"] == "nystroem" and r["n"] == 400]
    assert [r["size"] for r in nystroem] == [20, 100, 400]
    errors = [r["error"] for r in nystroem]
    assert errors[0] > errors[1] > errors[2] and errors[2] < 1e-6  # m = n is exact
    beyond = [r for r in rows if r["n"] == 900]
    assert beyond and all(np.isnan(r["error"]) and r["peak"] > 0 for r in beyond)


def test_manifold_is_seeded_and_256_dimensional():
    bench = load_script("bench_scale")
    X = bench.manifold(50)
    assert X.shape == (50, 256)
    np.testing.assert_array_equal(X, bench.manifold(50))
