"""Component maps: the CSV downloads are the maps at the data points and the eigenvalues."""

from __future__ import annotations

import numpy as np

import datasets
from kpca_core import KernelPCA, center_kernel, compute_kernel, kernel_spectrum
from tests.support.apptest import assert_clean, open_app
from tests.support.downloads import class_names, numbered_columns, png_names
from tests.support.lessons import N, assert_up_to_sign
from tests.support.plotly_json import find_chart


def test_component_maps_projections_and_eigenvalues_are_the_table_and_the_maps(downloads):
    query = {"dataset": "scholkopf_toy", "n": N, "kernel": "rbf", "gamma": 10}
    at = open_app("component_maps", query)
    assert_clean(at)
    stem = "kpca-lab-scholkopf-toy-rbf-gamma10-component-maps"
    name, values = downloads.csv(at, "Eigenvalues (CSV)")
    assert name == f"{stem}-eigenvalues.csv"
    shown = next(d.value for d in at.dataframe if "μ" in d.value.columns)
    assert values["rank"].tolist() == shown["component"].tolist()
    np.testing.assert_array_equal(values["eigenvalue"], shown["μ"])
    np.testing.assert_allclose(100 * values["share_of_trace"], shown["% of trace(K̃)"],
                               rtol=1e-12)
    name, table = downloads.csv(at, "Projections: each map at the data points (CSV)")
    assert name == f"{stem}-projections.csv"
    data = datasets.load("scholkopf_toy", n=N)
    assert table["class"].tolist() == class_names(data, np.arange(N))
    Z = numbered_columns(table, "kpca_")
    assert Z.shape[1] == len(values)
    model = KernelPCA(Z.shape[1], kernel="rbf", gamma=10.0, random_state=0).fit(data.X)
    np.testing.assert_allclose(values["eigenvalue"], model.eigenvalues_, rtol=1e-9)
    expected = model.transform(data.X)
    assert_up_to_sign(Z, expected, 1e-9)
    assert png_names(at) == [stem]


def test_component_maps_by_degree_offer_each_degrees_eigenvalues(downloads):
    query = {"dataset": "parabola", "n": N, "kernel": "poly", "gamma": 1, "degree": 2,
             "coef0": 0}
    at = open_app("component_maps", query)
    assert_clean(at)
    name, spectra = downloads.csv(at, "Eigenvalues at every degree (CSV)")
    stem = "kpca-lab-parabola-poly-gamma1-coef00-component-maps-by-degree"
    assert name == f"{stem}-eigenvalues.csv"
    titles = [a["text"] for a in find_chart(at, "Polynomial kernel")["layout"]["annotations"]]
    assert len(titles) == len(spectra) == 12
    for title, row in zip(titles, spectra.itertuples(), strict=True):
        assert title == (f"d = {row.degree} · y{row.rank}<br>μ = {row.eigenvalue:.3g}"
                         f"<br>{100 * row.share_of_trace:.1f} %")
    data = datasets.load("parabola", n=N)
    Kc = center_kernel(compute_kernel(data.X, kernel="poly", gamma=1.0, degree=3, coef0=0.0))
    three = spectra[spectra["degree"] == 3]["eigenvalue"].to_numpy()
    np.testing.assert_allclose(three, kernel_spectrum(Kc)[:3], rtol=1e-9)
    assert f"{stem}" in png_names(at)
