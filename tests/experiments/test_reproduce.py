"""'Reproduce in Python': the generated script, executed, gives the Explorer's numbers."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import datasets
from experiments import analysis
from experiments.reproduce import explorer_script
from kpca_core import IndefiniteKernelWarning
from shell import state

VIEWS = [
    ("circles", {"n": 150}, "rbf", {"gamma": 5.0}, 3, False),
    ("iris", {}, "poly", {"gamma": 0.1, "degree": 2, "coef0": 1.0}, 2, True),
    ("moons", {"n": 120}, "sigmoid", {"gamma": 2.0, "coef0": -1.0}, 3, False),
    ("four_classes", {"n": 160}, "laplacian", {"gamma": 1.0}, 2, False),
    ("usps", {"n": 200}, "poly", {"gamma": 1 / 256, "degree": 3, "coef0": 1.0}, 4, False),
]


def _run(script: str) -> dict:
    namespace: dict = {"__name__": "__reproduce__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndefiniteKernelWarning)
        exec(compile(script, "<reproduce>", "exec"), namespace)  # noqa: S102 - our own script
    return namespace


@pytest.mark.parametrize("view", VIEWS, ids=[f"{v[0]}-{v[2]}" for v in VIEWS])
def test_script_recomputes_the_explorers_numbers(view, capsys):
    dataset, given, kernel, params, k, standardize = view
    if dataset == "usps":
        try:
            datasets.load("usps", n=20)
        except datasets.UspsUnavailableError:
            pytest.skip("USPS digits not available")
    options = dict(state.default_options(dataset))
    options.update(given)
    script = explorer_script(
        dataset=dataset, options=options, kernel=kernel, kernel_params=params,
        n_components=k, standardize=standardize,
    )
    result = _run(script)
    assert "eigenvalues of K~" in capsys.readouterr().out

    data = datasets.load(dataset, **options)
    X = analysis.standardized(data.X) if standardize else data.X
    page = analysis.analyse(X, data.y, kernel=kernel, kernel_params=params, n_components=k)
    scale = abs(page.eigenvalues[0])
    np.testing.assert_allclose(result["eigenvalues"], page.eigenvalues[:k],
                               atol=1e-9 * scale, rtol=1e-9)
    Z, shown = result["Z"], page.projection
    signs = np.where((Z * shown).sum(axis=0) < 0, -1.0, 1.0)
    np.testing.assert_allclose(Z * signs, shown, atol=1e-7 * np.abs(shown).max())
    Z_pca = result["Z_pca"]
    signs = np.where((Z_pca * page.pca_projection).sum(axis=0) < 0, -1.0, 1.0)
    np.testing.assert_allclose(Z_pca[:, : page.pca_projection.shape[1]] * signs,
                               page.pca_projection, atol=1e-9)
    if kernel == "sigmoid":
        assert "Z_sklearn" not in result and "negative_eigenvalues='warn'" in script
    else:  # scikit-learn's KernelPCA gives the same projections
        Z_sk = result["Z_sklearn"]
        signs = np.where((Z * Z_sk).sum(axis=0) < 0, -1.0, 1.0)
        np.testing.assert_allclose(Z_sk * signs, Z, atol=1e-7 * np.abs(Z).max())


def test_csv_upload_script_reads_the_named_file(tmp_path, monkeypatch):
    path = tmp_path / "points.csv"
    path.write_text("a,b,kind\n0,1,x\n1,0,y\n1,1,x\n0,0,y\n2,2,x\n3,1,y\n")
    script = explorer_script(
        dataset="csv", options={}, kernel="rbf", kernel_params={"gamma": 0.5},
        n_components=2, csv_name="points.csv", csv_label="kind",
    )
    monkeypatch.chdir(tmp_path)
    result = _run(script)
    assert result["X"].shape == (6, 2) and result["Z"].shape == (6, 2)
    assert sorted(set(result["y"].tolist())) == [0, 1]
