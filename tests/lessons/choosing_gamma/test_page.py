"""Choosing γ (AppTest): the sweep's scores, the highlighted panel and the degree sweep."""

from __future__ import annotations

import re

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import datasets
from kpca_core import KernelPCA
from lessons.choosing_gamma import view as choosing_gamma_view
from lessons.choosing_gamma.experiment import COEF0_VALUES
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import chart_specs, decode, find_chart

CIRCLES = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}


def panel_titles(spec: dict) -> list[str]:
    return [a["text"] for a in spec["layout"].get("annotations", [])]


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def sklearn_score(Z, y) -> float:
    model = make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=2000))
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    return float(cross_val_score(model, Z, y, cv=cv).mean())


def test_sweep_scores_are_cross_validation_and_best_gamma_separates_circles(shared_page):
    at = shared_page("choosing_gamma", CIRCLES)
    assert_clean(at)
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    curves = {t["name"]: t for t in spec["data"]}
    gammas = decode(curves["kernel PCA, components 1–2"]["x"])
    two = decode(curves["kernel PCA, components 1–2"]["y"])
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    for i in (2, 6):
        Z = KernelPCA(20, kernel="rbf", gamma=gammas[i], random_state=0).fit_transform(data.X)
        assert two[i] == pytest.approx(100 * sklearn_score(Z[:, :2], data.y))
    linear = decode(curves["linear PCA, components 1–2"]["y"])
    assert linear[0] == pytest.approx(100 * sklearn_score(data.X, data.y)) and linear[0] < 70
    best = curves["best γ (components 1–2)"]
    best_gamma = best["x"][0]
    assert best["y"][0] == pytest.approx(two.max())
    # The best γ is in the range where RBF separates the rings (checked independently).
    Z = KernelPCA(2, kernel="rbf", gamma=best_gamma, random_state=0).fit_transform(data.X)
    assert sklearn_score(Z, data.y) >= 0.99
    assert f"Best γ = {best_gamma:g}" in text_of(at)


def test_gamma_change_moves_the_highlight_without_a_new_sweep():
    at = open_app("choosing_gamma", CIRCLES)
    sweeps = list(choosing_gamma_view._sweep.server_store._values)
    at.select_slider(key="w_gamma").set_value(3.0).run()
    assert_clean(at)
    assert list(choosing_gamma_view._sweep.server_store._values) == sweeps
    titles = panel_titles(find_chart(at, "Components 1 and 2 of kernel PCA"))
    yours = [t for t in titles if "yours" in t]
    assert yours == ["<b>γ = 3 ◀ yours</b>"]
    assert "your γ = 3 (red frame)" in text_of(at)


def test_gamma_between_panels_uses_the_nearest_panel():
    at = open_app("choosing_gamma", {**CIRCLES, "gamma": 5})
    assert_clean(at)
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    Z = KernelPCA(20, kernel="rbf", gamma=3.0, random_state=0).fit_transform(data.X)
    score = 100 * sklearn_score(Z[:, :2], data.y)
    assert f"At γ = 3, the panel nearest your 5: {score:.0f} % on components 1–2" in text_of(at)
    assert "the panel nearest your γ = 5" in text_of(at)
    titles = panel_titles(find_chart(at, "Components 1 and 2 of kernel PCA"))
    assert [t for t in titles if "yours" in t] == ["<b>γ = 3 ◀ nearest yours</b>"]


def test_spectrum_evidence_for_under_and_over_smoothing(shared_page):
    at = shared_page("choosing_gamma", CIRCLES)
    text = text_of(at)
    assert "over-smoothing" in text and "every point its own cluster" in text
    find_chart(at, "The spectrum flattens as γ grows")
    spec = find_chart(at, "The largest eigenvalue's share and the mean similarity")
    top = next(t for t in spec["data"] if t.get("name") == "μ₁ / trace(K̃)")
    shares = decode(top["y"])
    assert np.all(np.diff(shares) < 0)  # the leading share falls as γ grows


def test_degree_sweep_for_the_polynomial_kernel():
    at = open_app("choosing_gamma", {"dataset": "moons", "n": 80, "kernel": "poly",
                                     "gamma": 1, "degree": 3, "coef0": 1})
    assert_clean(at)
    spec = find_chart(at, "How well a straight line separates the classes, against d")
    degrees = decode(spec["data"][0]["x"])
    np.testing.assert_array_equal(degrees, np.arange(1, 9))
    spec = find_chart(at, "Components 1 and 2 of kernel PCA<br><sup>Polynomial, 8 values of degree")
    titles = panel_titles(spec)
    assert "<b>d = 3 ◀ yours</b>" in titles


def test_kernel_without_gamma_offers_rbf():
    at = open_app("choosing_gamma", {"dataset": "moons", "n": 60, "kernel": "linear"})
    assert_clean(at)
    assert "has no γ to choose" in at.info[0].value
    at.button(key="gamma_use_rbf").click().run()
    assert_clean(at)
    assert at.query_params["kernel"] == "rbf"
    find_chart(at, "Components 1 and 2 of kernel PCA<br><sup>RBF")


def test_unlabelled_data_get_no_scores_but_the_spectrum():
    at = open_app("choosing_gamma", {"dataset": "parabola", "n": 80, "kernel": "rbf",
                                     "gamma": 1})
    assert_clean(at)
    assert any("no class labels" in i.value for i in at.info)
    find_chart(at, "The spectrum flattens as γ grows")


# --------------------------------------------------------------------------- issue 22


def sampled_projection(dataset: str, n: int, kernel: str, **params):
    from sklearn.decomposition import PCA

    from experiments.kernel_diagnostics import subspace_similarity

    X = datasets.load(dataset, n=n).X
    Z = KernelPCA(2, kernel=kernel, **params).fit_transform(X)
    return subspace_similarity(Z, PCA(2).fit_transform(X))


def test_small_gamma_caption_is_the_rbf_one_for_rbf_and_the_l1_one_for_laplacian(shared_page):
    # Item 3: the Laplacian's small-γ limit is 1 − γ‖x − y‖₁, not a linear kernel.
    rbf = text_of(shared_page("choosing_gamma", {**CIRCLES, "gamma": 1}))
    assert "k(x, y) ≈ 1 − γ‖x − y‖², which centres to 2γ x̃ᵀỹ: a linear kernel" in rbf
    at = shared_page("choosing_gamma", {**CIRCLES, "kernel": "laplacian", "gamma": 1})
    assert_clean(at)
    text = text_of(at)
    assert "1 − γ‖x − y‖₁" in text and "not a linear kernel" in text
    assert "1 − γ‖x − y‖²" not in text and "linear kernel in disguise" not in text
    # The similarity it quotes is the one measured at the smallest γ of the panels.
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    smallest = decode(spec["data"][0]["x"])[0]
    quoted = float(re.search(r"subspace similarity (\d\.\d{3})", text).group(1))
    assert quoted == pytest.approx(
        sampled_projection("circles", 200, "laplacian", gamma=smallest), abs=2e-3)


def test_polynomial_with_c0_zero_sweeps_the_degree_and_c0_not_gamma():
    # Item 4: (γ xᵀy)ᵈ: twelve identical γ panels would teach nothing.
    at = open_app("choosing_gamma", {"dataset": "circles", "n": 120, "kernel": "poly",
                                     "gamma": 2, "degree": 3, "coef0": 0})
    assert_clean(at)
    note = next(i.value for i in at.info if "γ only multiplies K" in i.value)
    assert "monomials of degree exactly 3" in note
    assert any(":green[**Check**]" in m.value and "10^(3/2)" in m.value for m in at.markdown)
    titles = [spec["layout"]["title"]["text"] for spec in chart_specs(at)]
    assert not any("values of γ" in t for t in titles), titles
    find_chart(at, "How well a straight line separates the classes, against d")
    spec = find_chart(at, "How well a straight line separates the classes, against c₀")
    np.testing.assert_array_equal(decode(spec["data"][0]["x"]), list(COEF0_VALUES))
    # The hint (for c₀ = 0 the degree only) sits with the degree sweep.
    hint = next((w.value for w in at.warning if w.value.startswith("**Degree ")), None)
    checked = any(c.value.startswith("γ check:") for c in at.caption)
    assert hint is not None or checked


@pytest.mark.parametrize("kernel", ["sigmoid", "laplacian", "poly"])
def test_reference_marker_is_the_kernels_own(kernel):
    # Item 7: the marker and the grid follow the kernel's reference, as the sidebar does.
    from experiments.kernel_diagnostics import reference_gamma

    at = open_app("choosing_gamma", {"dataset": "iris", "kernel": kernel, "gamma": 0.01,
                                     "coef0": 1})
    assert_clean(at)
    reference = reference_gamma(datasets.load("iris").X, kernel)
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    marker = next(t for t in spec["data"] if t.get("name", "").endswith(f"γ = {reference:.3g}"))
    assert marker["x"][0] == pytest.approx(reference)
    assert "median heuristic" not in marker["name"]
    assert f"= {reference:.3g} (the sidebar's reference too)" in text_of(at)


def test_the_refused_sigmoid_computes_its_whole_sweep(shared_page):
    # Item 1: iris + sigmoid γ = 0.3, c₀ = 0 lost the whole sweep ("not symmetric").
    at = shared_page("choosing_gamma", {"dataset": "iris", "kernel": "sigmoid", "gamma": 0.3,
                                     "coef0": 0})
    assert_clean(at)
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    scores = decode(spec["data"][0]["y"])
    assert len(scores) == 12 and np.all(np.isfinite(scores))


def test_best_gamma_and_the_hint_rest_on_the_same_scores(shared_page):
    at = shared_page("choosing_gamma", {**CIRCLES, "gamma": 1})
    assert_clean(at)
    hint = next(w.value for w in at.warning if w.value.startswith("**γ = 1 is too small"))
    named = float(next(b.label for b in at.button if b.label.startswith("Use γ = "))
                  .removeprefix("Use γ = "))
    promised = int(re.search(rf"with γ = {named:g} they separate (\d+)%", hint).group(1))
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    gammas, two = decode(spec["data"][0]["x"]), decode(spec["data"][0]["y"])
    assert named in gammas and round(two[list(gammas).index(named)]) == promised
    best = int(re.search(r"Best γ = [\d.]+ \(of these 12 panels\): (\d+) %", text_of(at))
               .group(1))
    assert promised == best  # the hint names a γ as good as the panels' best
@pytest.mark.slow
@needs_usps
def test_usps_sweep_completes_marks_k_identity_and_is_cached():
    # Issue 23: the sidebar's state after tour steps 8–9 ended in ArpackNoConvergence after
    # ~19 s (the γ = 10 panel, K ≈ I), and nothing was cached, so every visit repeated it.
    query = {"dataset": "usps", "n": 2000, "kernel": "rbf", "gamma": 0.004}
    at = open_app("choosing_gamma", query)
    assert_clean(at)
    titles = panel_titles(find_chart(at, "Components 1 and 2 of kernel PCA"))
    flat = [t for t in titles if "K ≈ I" in t]
    # The grid runs two decades below the median heuristic's (0.004): 1e-5 to 3 (issue 33:
    # inside the sidebar's range; it used to be clamped at a stale 1e-4, up to 30).
    assert titles[0].startswith("γ = 1e-5") and flat == ["γ = 3 · K ≈ I"]
    assert not any("K ≈ I" in t for t in titles if t.startswith(("γ = 0.00", "γ = 0.01")))
    text = text_of(at)
    assert "Panels marked 'K ≈ I'" in text and "every point resembles only itself" in text
    # The revisit finds the sweep in the server's store: nothing recomputed.
    stored = list(choosing_gamma_view._sweep.server_store._values)
    again = open_app("choosing_gamma", query)
    assert_clean(again)
    assert list(choosing_gamma_view._sweep.server_store._values) == stored
    assert text_of(again) == text


def test_sigmoid_with_no_positive_trace_shows_no_share_and_says_why(shared_page):
    """Issue 33: iris, sigmoid, γ = 0.3, c₀ = 0: every share μ/trace was set to 0 where
    trace(K̃) ≤ 0, and 7 of 12 panels were labelled 'flat spectrum … within −100.0 %',
    'μ₁ holds 0 %'."""
    from sklearn.metrics.pairwise import sigmoid_kernel

    at = shared_page("choosing_gamma", {"dataset": "iris", "kernel": "sigmoid", "gamma": 0.3,
                                     "coef0": 0})
    assert_clean(at)
    spec = find_chart(at, "Components 1 and 2 of kernel PCA")
    titles = panel_titles(spec)[:12]
    X = datasets.load("iris").X
    H = np.eye(len(X)) - 1.0 / len(X)
    marked = 0
    for title in titles:
        gamma = float(re.search(r"γ = ([0-9.e−-]+)", title).group(1).replace("−", "-"))
        K = sigmoid_kernel(X, gamma=gamma, coef0=0.0)
        trace = float(np.trace(H @ K @ H))
        floor = 10 * len(X) * np.finfo(float).eps * np.abs(K).max()
        no_share = trace < 0 or abs(trace) <= floor
        zero = abs(trace) <= floor
        assert ("trace(K̃) ≈ 0" in title) == zero and ("trace(K̃) < 0" in title) == (
            no_share and not zero), (title, trace)
        assert "flat spectrum" not in title or not no_share
        marked += no_share
    assert marked >= 3
    text = text_of(at)
    assert "within −100" not in text and "holds 0.00 %" not in text and "holds 0 %" not in text
    assert "'share of variance' means nothing here" in text


def test_the_panels_reach_the_sidebars_smallest_gamma():
    """Issue 33: the panels stopped at 1e-4 (a stale constant) while the sidebar goes to
    1e-6: on unscaled data whose reference γ is ~1e-5, 'nearest yours' marked a panel 83×
    from the student's γ."""
    from experiments.kernel_diagnostics import gamma_grid
    from shell.state import GAMMA_GRID, GAMMA_MAX, GAMMA_MIN

    grid = gamma_grid(2e-5, low=GAMMA_MIN, high=GAMMA_MAX)
    assert grid[0] == GAMMA_MIN == GAMMA_GRID[0]  # two decades below, down to the sidebar's
    assert grid[-1] <= GAMMA_MAX == GAMMA_GRID[-1]
    for gamma in (2e-5, 3e-6):  # a γ the sidebar offers there has a panel within √10
        assert np.min(np.abs(np.log10(grid / gamma))) <= 0.5
    # The page itself, on an unscaled upload (two blobs 1,000 apart: reference γ ~1e-6,
    # the γ the sidebar follows): the red panel is the student's γ's own, within √10.
    rng = np.random.default_rng(0)
    points = rng.normal(size=(60, 2)) * 300 + [[0, 0], [1000, 1000]] * 30
    rows = [f"{a:.3f},{b:.3f},{'ab'[i % 2]}" for i, (a, b) in enumerate(points)]
    at = open_app("choosing_gamma")
    at.selectbox(key="w_dataset").set_value("csv").run()
    at.file_uploader(key="upload_csv").set_value(
        ("far.csv", ("u,v,label\n" + "\n".join(rows)).encode(), "text/csv")).run()
    assert_clean(at)
    gamma = float(at.session_state["w_gamma"])
    assert gamma < 1e-4  # below the old panels' floor
    titles = panel_titles(find_chart(at, "Components 1 and 2 of kernel PCA"))
    red = next(t for t in titles if "◀" in t)
    shown = float(re.search(r"γ = ([0-9.e−-]+)", red).group(1).replace("−", "-"))
    assert abs(np.log10(shown / gamma)) <= 0.5, (red, gamma)
