"""Live checks: the value is always shown, a failure says by how much."""

from __future__ import annotations

from experiments import checks


def test_checks_show_the_value_and_fail_visibly():
    ok = checks.Check("largest |row sum| of K̃", 2.2e-16, tolerance=1e-9)
    assert ok.passed and checks.check_text(ok) == "largest |row sum| of K̃: 2.2e−16 ✓"
    bad = checks.Check("max |A − B|", 0.034, tolerance=1e-9)
    assert not bad.passed and "0.034 ✗" in checks.check_text(bad)
    nan = checks.Check("max |A − B|", float("nan"), tolerance=1.0)
    assert not nan.passed
    near = checks.Check("αᵀK̃α", 1.0 + 1e-14, tolerance=1e-9, target=1.0)
    assert near.passed and "(expected 1)" in checks.check_text(near)
