"""How it works (AppTest): every displayed check and number is compared with what kpca_core
(and the experiments modules the page calls) compute for the same data, for each kernel, a
tiny n and after a γ change; pictures are read back from the Plotly JSON the browser would
receive. The three step-by-step lessons (this one, the kernel trick, common mistakes) also
run on an uploaded CSV.
"""

from __future__ import annotations

import warnings

import numpy as np
import pytest

import datasets
from experiments.checks import format_value
from kpca_core import (
    KernelPCA,
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
)
from lessons.how_it_works.experiment import new_points, step_by_step
from shell import state
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import N, assert_up_to_sign, checks_shown, query, settings_of
from tests.support.plotly_json import decode, find_chart, scatter_points

# The AppTests cover the kernels that behave differently on these pages (translation-
# invariant, polynomial, indefinite, rank-deficient); tests/experiments covers all six.
PAGE_KERNELS = ["rbf", "poly", "sigmoid", "linear"]


# --------------------------------------------------------------------------- how it works


@pytest.mark.parametrize("kernel", PAGE_KERNELS)
def test_how_it_works_shows_kpca_cores_numbers(kernel):
    q = query(kernel)
    at = open_app("how_it_works", q)
    assert_clean(at)
    settings = settings_of(q)
    X = datasets.load("circles", n=N).X
    params = settings.kernel_params()
    steps = step_by_step(X, kernel=kernel, kernel_params=params,
                         n_components=settings.n_components)

    shown = checks_shown(at)
    assert len(shown) == 14
    expected = {
        "largest |row sum| of K̃": steps.row_sum,
        "largest |column sum| of K̃": steps.column_sum,
        "largest |αᵀK̃α − 1| (unit axes in feature space)": steps.axis_length_gap,
        "largest |K̃ₜα − KernelPCA.transform(new points)| (up to sign)": steps.estimator_new_gap,
        "largest |μ − KernelPCA.eigenvalues_|": steps.estimator_mu_gap,
    }
    for label, value in expected.items():
        assert shown[label] == format_value(value), label

    # Step 1: the heatmap is K itself (class order, n ≤ 500: no block averaging).
    K = compute_kernel(X, kernel=kernel, **params)
    order = np.argsort(datasets.load("circles", n=N).y, kind="stable")
    heat = decode(find_chart(at, "Kernel matrix K")["data"][0]["z"])
    np.testing.assert_allclose(heat, K[np.ix_(order, order)], atol=1e-6 * np.abs(K).max())

    # Step 3: μ are the eigenvalues of K̃ (not K̃/n); λ = μ/n.
    table = at.dataframe[0].value if steps.kernel_table is None else at.dataframe[1].value
    mu = clean_eigenvalues(eigendecompose(center_kernel(K), 3).eigenvalues)[0]
    np.testing.assert_allclose(table.iloc[:, 0].to_numpy(), mu, atol=1e-9 * abs(mu[0]))
    np.testing.assert_allclose(table.iloc[:, 1].to_numpy(), mu / N, atol=1e-9 * abs(mu[0]))

    # Step 5: the projections are KernelPCA's, for training and for new points.
    model = KernelPCA(3, kernel=kernel, **params, negative_eigenvalues="warn")
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        reference = model.fit_transform(X)
    spec = find_chart(at, "Projections K̃α")
    training = {**spec, "data": [t for t in spec["data"] if t["name"] != "new points"]}
    rows, coords = scatter_points(training)
    assert rows.tolist() == list(range(N))
    scale = max(1.0, np.abs(reference).max())
    assert_up_to_sign(coords, reference[:, :2], 1e-6 * scale)
    stars = next(t for t in spec["data"] if t["name"] == "new points")
    new = np.column_stack([decode(stars["x"]), decode(stars["y"])])
    assert_up_to_sign(new, model.transform(new_points(X))[:, :2], 1e-6 * scale)
    # New points are counted from 1, in the table and on hover (issue 23: "new point 0").
    labels = decode(stars["customdata"]).astype(int).tolist()
    assert labels == list(range(1, len(new) + 1))
    table = next(d.value for d in at.dataframe if str(d.value.index[0]).startswith("new point"))
    assert list(table.index) == [f"new point {i}" for i in labels]


def test_how_it_works_shows_the_numbers_of_k_for_tiny_n():
    q = {"dataset": "scholkopf_toy", "n": 9, "kernel": "rbf", "gamma": "10"}
    at = open_app("how_it_works", q)
    assert_clean(at)
    X = datasets.load("scholkopf_toy", n=9).X
    np.testing.assert_allclose(at.dataframe[0].value.to_numpy(),
                               compute_kernel(X, kernel="rbf", gamma=10.0), atol=1e-15)


def test_how_it_works_after_a_gamma_change_shows_the_new_fit():
    at = open_app("how_it_works", query("rbf"))
    before = at.dataframe[0].value.iloc[:, 0].to_numpy()
    at.select_slider(key="w_gamma").set_value(20.0).run()
    assert_clean(at)
    after = at.dataframe[0].value.iloc[:, 0].to_numpy()
    K = compute_kernel(datasets.load("circles", n=N).X, kernel="rbf", gamma=20.0)
    mu = eigendecompose(center_kernel(K), 3).eigenvalues
    assert not np.allclose(before, after)
    np.testing.assert_allclose(after, mu, rtol=1e-9)


def upload(at, name: str, content: bytes, label: str | None = None):
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value((name, content, "text/csv")).run()
    if label is not None:
        at.selectbox(key="w_csv_label").set_value(label).run()
    return at


@pytest.mark.parametrize("page", ["how_it_works", "kernel_trick", "mistakes"])
def test_pages_work_on_an_uploaded_csv(page):
    rng = np.random.default_rng(3)
    rows = [f"{a:.4f},{b:.4f},{c:.4f},{'ab'[i % 2]}"
            for i, (a, b, c) in enumerate(rng.normal(size=(30, 3)))]
    content = ("u,v,w,label\n" + "\n".join(rows)).encode()
    at = upload(open_app(page), "mine.csv", content, "label")
    assert_clean(at)
    assert checks_shown(at), "no live check shown"
    if page == "kernel_trick":  # 3 features: the 3-D lift says why it needs 2
        assert any("needs points in the plane" in w.value for w in at.warning)


# --------------------------------------------------------------------------- kernel trick


# --------------------------------------------------------------------------- mistakes


def test_the_cost_sentence_names_the_step_the_measurement_says_was_slowest():
    """Issue 33: 'n³/(nd²+d³) = 39,801: the eigenproblem is the expensive part' stood
    beside a measured table where another step took longest."""
    at = open_app("how_it_works", {"dataset": "circles", "kernel": "rbf", "gamma": 5})
    assert_clean(at)
    table = next(t.value for t in at.table if "measured (ms)" in t.value.columns)
    steps = {"1 · kernel matrix K": "the kernel matrix K", "2 · centring K̃": "centring",
             "4–5 · scale α, project the training points": "scaling and projecting"}
    measured = {}
    for _, row in table.iterrows():
        name = steps.get(row["step"], "the eigenproblem" if row["step"].startswith("3 ·")
                         else None)
        if name is not None:
            measured[name] = float(row["measured (ms)"])
    caption = next(c.value for c in at.caption if "Counted in operations" in c.value)
    slowest = max(measured, key=measured.get)
    assert f"the slowest step of kernel PCA was {slowest} (" in caption
    assert ("as the count says" in caption) == (slowest == "the eigenproblem")
    assert "expensive part" not in caption
