"""The Mika et al. (1999) reproduction runs end to end on a tiny configuration."""

from __future__ import annotations

import json

import numpy as np
import pytest

from lessons.denoising import experiment as dn
from tests.support.apptest import needs_usps
from tests.support.benchmarks import load_script

script = load_script("reproduce_mika1999")


@needs_usps
def test_tiny_run_prints_the_table_and_saves_consistent_results(tmp_path, capsys):
    out = tmp_path / "mika.json"
    assert script.main(["--tiny", "--save", str(out)]) == 0
    printed = capsys.readouterr().out
    report = json.loads(out.read_text())
    s = report["settings"]
    assert (s["n_train"], s["n_test"], s["classes_in_test"]) == (120, 20, 10)
    assert s["gamma"] == 1 / 128 and s["sigma"] == 0.5 and s["speckle_p"] == 0.4
    assert set(report["runs"]) == {"paper", "variance"}
    assert report["runs"]["paper"]["gamma"] == 1 / 128
    for kind in ("gaussian", "speckle"):
        r = report["runs"]["paper"]["results"][kind]
        assert r["m_values"] == [1, 4, 16]
        for method in dn.METHODS:
            errors = r["mse"][method]
            assert len(errors) == 3 and all(np.isfinite(errors))
            assert r["best"][method]["mse"] == min(errors)
            assert r["best"][method]["m"] == r["m_values"][int(np.argmin(errors))]
        for method in dn.PREIMAGE_METHODS:
            assert r["ratio_pca_over_kpca"][method] == pytest.approx(
                r["best"]["pca"]["mse"] / r["best"][method]["mse"]
            )
        # Each line of the table carries the numbers of the file, next to the paper's.
        fp = r["best"]["fixed_point"]
        line = next(ln for ln in printed.splitlines()
                    if ln.strip().startswith("KPCA · fixed point")
                    and f"{fp['mse']:.4f}" in ln)
        assert f"{r['ratio_pca_over_kpca']['fixed_point']:.2f}" in line
        assert f"{script.PAPER_RATIO[kind]:.1f}" in line
    assert "Gaussian noise, sigma = 0.5" in printed and "speckle noise, p = 0.4" in printed


def test_the_stored_result_is_the_papers_setting():
    report = json.loads(script.STORE.read_text())
    s = report["settings"]
    assert (s["train_per_class"], s["test_per_class"]) == (300, 50)
    assert (s["n_train"], s["n_test"]) == (3000, 500)
    # m covers every component (issue 22, item 2), for both readings of the width.
    assert s["gamma"] == dn.PAPER_GAMMA and s["m_values"] == list(dn.m_grid(2999))
    runs = report["runs"]
    assert runs["paper"]["gamma"] == dn.PAPER_GAMMA
    assert runs["variance"]["gamma"] == pytest.approx(1 / (2 * 256 * s["mean_pixel_variance"]))
    for run in runs.values():
        assert set(run["results"]) == {"gaussian", "speckle"}
    # With twice the average variance (γ ≈ 1/238) the fixed point's best m lies inside
    # the grid for both noises; with the paper's γ its error still falls at m = n − 1.
    for r in runs["variance"]["results"].values():
        fp = r["mse"]["fixed_point"]
        assert 0 < int(np.argmin(fp)) < len(fp) - 1
    results = [r for run in runs.values() for r in run["results"].values()]
    for r in results:
        for method in dn.METHODS:
            assert r["best"][method]["mse"] == min(r["mse"][method])
        for method in dn.PREIMAGE_METHODS:  # the ratio is computed within the grid
            assert r["ratio_pca_over_kpca"][method] == pytest.approx(
                min(r["mse"]["pca"]) / min(r["mse"][method]))
        assert (r["paper_ratio"], r["paper_best_m"]) in ((1.6, 512), (1.2, 256))
    for r in runs["paper"]["results"].values():
        fp = r["mse"]["fixed_point"]
        assert int(np.argmin(fp)) == len(fp) - 1 and fp[-1] < fp[-2]
