"""AppTest for the three lessons: how it works, the kernel trick, common mistakes.

Every displayed check and damage number is compared with what kpca_core (and the
experiments modules the pages call) compute for the same data; pictures are read back
from the Plotly JSON the browser would receive.
"""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import datasets
from experiments import feature_maps as fm
from kpca_core import (
    KernelPCA,
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    eigendecompose,
)
from lessons.how_it_works.experiment import new_points, step_by_step
from lessons.kernel_trick.view import TAYLOR_MAX_N
from lessons.mistakes.experiment import compare_mistakes
from lessons.mistakes.view import EIG_MAX_N
from shell import state
from shell.checks import format_value
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import chart_specs, decode, find_chart, scatter_points, title

N = 60
CSV_DIR = Path(__file__).resolve().parents[2] / "data" / "csv"
KERNEL_QUERIES = {
    "rbf": {"gamma": "2"},
    "laplacian": {"gamma": "1"},
    "linear": {},
    "poly": {"gamma": "1", "degree": "3", "coef0": "1"},
    "sigmoid": {"gamma": "0.5", "coef0": "-1"},
    "cosine": {},
}


# The AppTests cover the kernels that behave differently on these pages (translation-
# invariant, polynomial, indefinite, rank-deficient); tests/experiments covers all six.
PAGE_KERNELS = ["rbf", "poly", "sigmoid", "linear"]


def query(kernel: str, dataset: str = "circles", **extra) -> dict:
    return {"dataset": dataset, "n": N, "kernel": kernel, **KERNEL_QUERIES[kernel], **extra}


def settings_of(q: dict) -> state.Settings:
    settings, problems = state.settings_from_query({k: str(v) for k, v in q.items()})
    assert not problems
    return settings


def checks_shown(at) -> dict[str, str]:
    """Every live check on the page: label → the value as displayed."""
    shown = {}
    for element in at.markdown:
        text = element.value
        if text.startswith(":green[**Check**] · "):
            label, value = text.removeprefix(":green[**Check**] · ").rsplit(": ", 1)
            shown[label] = value.removesuffix(" ✓")
    return shown


def damages_shown(at) -> list[tuple[bool, str, str]]:
    """(harmless?, label, value) of every damage line, in page order."""
    found = []
    for element in at.markdown:
        text = element.value
        for prefix, harmless in ((":red[**Damage**] · ", False),
                                 (":green[**No damage on these data**] · ", True)):
            if text.startswith(prefix):
                label, value = text.removeprefix(prefix).rsplit(": ", 1)
                found.append((harmless, label, value.strip("*")))
    return found


def assert_up_to_sign(shown: np.ndarray, expected: np.ndarray, atol: float) -> None:
    for j in range(expected.shape[1]):
        error = min(np.abs(shown[:, j] - expected[:, j]).max(),
                    np.abs(shown[:, j] + expected[:, j]).max())
        assert error <= atol, f"component {j + 1}: {error}"


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


def test_kernel_trick_on_circles_checks_the_map_the_pca_and_the_series():
    q = query("rbf", gamma="2", coef0="1")
    at = open_app("kernel_trick", q)
    assert_clean(at)
    data = datasets.load("circles", n=N)
    X = data.X
    explicit = fm.explicit_pca(X, gamma=2.0, coef0=1.0)
    shown = checks_shown(at)
    assert shown["largest |KPCA − PCA on φ(X)| (up to each component's sign)"] == \
        format_value(explicit.max_difference)
    assert any(v == format_value(explicit.kernel_gap) for k, v in shown.items()
               if k.startswith("largest |φ(x)·φ(y) − k(x, y)|"))

    # Both projections are drawn, and they agree up to sign.
    _, kpca = scatter_points(find_chart(at, "Kernel PCA with (γxᵀy + c₀)²"))
    _, linear = scatter_points(find_chart(at, "Linear PCA on φ(X) (6 columns)"))
    # Scatters carry float32 (~7 significant digits).
    assert_up_to_sign(kpca, explicit.kpca, 1e-6 * np.abs(explicit.kpca).max())
    assert_up_to_sign(linear, kpca, 1e-6 * np.abs(kpca).max())

    # The error curve is the explicit map's, order by order.
    conv = fm.rbf_taylor_convergence(X[:TAYLOR_MAX_N], gamma=2.0)
    curve = find_chart(at, "Truncated explicit RBF map")["data"][0]
    np.testing.assert_array_equal(decode(curve["x"]), conv.orders)
    np.testing.assert_allclose(decode(curve["y"]), np.maximum(conv.max_error, 1e-17), rtol=1e-6)
    assert decode(curve["y"])[-1] < 1e-10  # converged at γ = 2 on circles

    # The lift and the separating plane.
    spec = find_chart(at, "The data lifted into 3-D")
    _, lifted = scatter_points({**spec, "data": [t for t in spec["data"]
                                                 if t["type"] == "scatter3d"]})
    np.testing.assert_allclose(lifted, fm.quadratic_lift(X, gamma=2.0), rtol=1e-6)  # float32
    assert any(t["type"] == "surface" for t in spec["data"])
    captions = " ".join(c.value for c in at.caption)
    assert "puts 100% of them on their class's side" in captions


def test_kernel_trick_uses_zero_for_a_negative_offset_and_says_so():
    q = query("sigmoid")  # c₀ = −1 in the sidebar
    at = open_app("kernel_trick", q)
    assert_clean(at)
    info = " ".join(i.value for i in at.info)
    assert "c₀ = -1 is negative" in info and "c₀ = 0 is used" in info
    assert "The sidebar's kernel is not used here" in info
    X = datasets.load("circles", n=N).X
    _, kpca = scatter_points(find_chart(at, "Kernel PCA with (γxᵀy + c₀)²"))
    reference = KernelPCA(2, kernel="poly", degree=2, gamma=0.5, coef0=0.0).fit_transform(X)
    assert_up_to_sign(kpca, reference, 1e-6 * np.abs(reference).max())  # float32 charts


def test_kernel_trick_on_4d_data_explains_the_2d_part_and_keeps_the_rest():
    at = open_app("kernel_trick", {"dataset": "iris", "kernel": "rbf", "gamma": "0.2"})
    assert_clean(at)
    assert any("needs points in the plane" in w.value for w in at.warning)
    titles = [title(spec) for spec in chart_specs(at)]
    assert any(t.startswith("Linear PCA on φ(X) (15 columns)") for t in titles)
    assert any(t.startswith("Truncated explicit RBF map") for t in titles)
    assert not any(t.startswith("The data lifted") for t in titles)
    # Raw iris with γ = 0.2: 2γ|xᵀy| is up to ~40, the series is cut before converging,
    # and the caption says so from the numbers.
    captions = " ".join(c.value for c in at.caption)
    assert "before it has converged" in captions


# --------------------------------------------------------------------------- mistakes


HARMLESS_INPUT_CENTRING = {"rbf", "laplacian", "linear"}


@pytest.mark.parametrize("kernel", PAGE_KERNELS)
def test_mistakes_show_the_measured_damage(kernel):
    q = query(kernel)
    at = open_app("mistakes", q)
    assert_clean(at)
    settings = settings_of(q)
    X = datasets.load("circles", n=N).X
    results = compare_mistakes(X, kernel=kernel, kernel_params=settings.kernel_params(),
                               eig_max_n=EIG_MAX_N)
    order = ["no_centering", "last_sign", "centred_inputs", "test_own_means", "scaling",
             "scaling_mu_n", "uncentred_projection", "unsorted_eig"]
    shown = damages_shown(at)
    assert [label for _, label, _ in shown] == [results[k].damage_label for k in order]
    for (harmless, _, value), key in zip(shown, order, strict=True):
        assert value == format_value(results[key].damage), key
        assert harmless == results[key].harmless, key
    # Non-zero where the mistake does damage, ~0 where it is harmless.
    by_key = dict(zip(order, shown, strict=True))
    for key in ("no_centering", "last_sign", "test_own_means", "scaling", "scaling_mu_n",
                "uncentred_projection"):
        assert not by_key[key][0] and results[key].damage > 1e-6, key
    assert by_key["centred_inputs"][0] == (kernel in HARMLESS_INPUT_CENTRING)
    # Wrong test centring is harmless on the training points themselves: shown as 0.
    checks = checks_shown(at)
    assert checks["on the training points themselves, |wrong − right| (their own means are "
                  "the training means)"] == format_value(
        results["test_own_means"].numbers["on_training_points"])
    assert results["test_own_means"].numbers["on_training_points"] < 1e-12

    # The pictures are the right and the wrong projections.
    spec = find_chart(at, "Projections: K̃α (left) vs Kα (right)")
    left = {**spec, "data": [t for t in spec["data"] if t.get("xaxis", "x") == "x"]}
    right = {**spec, "data": [t for t in spec["data"] if t.get("xaxis") == "x2"]}
    r = results["uncentred_projection"]
    np.testing.assert_allclose(scatter_points(left)[1], r.right[:, :2], atol=1e-12)
    np.testing.assert_allclose(scatter_points(right)[1], r.wrong[:, :2], atol=1e-12)


def test_mistakes_page_needs_a_few_points():
    at = open_app("mistakes", {"dataset": "scholkopf_toy", "n": 6, "kernel": "rbf"})
    assert_clean(at)
    assert any("at least 8 points" in w.value for w in at.warning)
