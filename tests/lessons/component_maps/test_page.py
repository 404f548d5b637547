"""AppTest: the three geometry lessons show the right numbers.

Component maps: the map is kernel PCA evaluated over the plane (and at the data);
new points: the star is KernelPCA.transform of the typed point, the held-out points are
transform of the held-out rows; choosing γ: the scores are scikit-learn cross-validation
and the best γ on the circles separates them. Values are read back from the Plotly JSON.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import datasets
from kpca_core import KernelPCA
from lessons.choosing_gamma import view as choosing_gamma_view
from lessons.component_maps import view as component_maps_view
from lessons.new_points.experiment import split_indices
from shell.registry import LESSONS
from tests.support.apptest import CSV_DIR, assert_clean, needs_usps, open_app
from tests.support.plotly_json import chart_specs, decode, find_chart

CIRCLES = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}


def panel_titles(spec: dict) -> list[str]:
    return [a["text"] for a in spec["layout"].get("annotations", [])]


def contours(spec: dict) -> list[dict]:
    return [t for t in spec["data"] if t["type"] == "contour"]


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def sklearn_score(Z, y) -> float:
    model = make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=2000))
    cv = StratifiedKFold(5, shuffle=True, random_state=0)
    return float(cross_val_score(model, Z, y, cv=cv).mean())


# --------------------------------------------------------------------------- component maps


def test_fig4_maps_show_kernelpca_over_the_plane_and_the_paper_claims():
    at = open_app("component_maps", {"dataset": "scholkopf_toy", "kernel": "rbf", "gamma": 10})
    assert_clean(at)
    data = datasets.load("scholkopf_toy", n=90, seed=0)
    model = KernelPCA(8, kernel="rbf", gamma=10.0, random_state=0).fit(data.X)
    spec = find_chart(at, "First 8 components over the plane")
    titles = panel_titles(spec)
    for c, title in enumerate(titles):
        lam, share = model.eigenvalues_[c], 100 * model.explained_variance_ratio_[c]
        assert title == f"y{c + 1}<br>λ = {lam:.3g} · {share:.1f} %"
    maps = contours(spec)
    assert len(maps) == 8
    # Any grid point: the value drawn is KernelPCA.transform there (float32 on the wire).
    xs, ys = decode(maps[0]["x"]), decode(maps[0]["y"])
    assert len(xs) == len(ys) <= 200 and 8 * len(xs) ** 2 <= component_maps_view.MAX_CELLS
    j, i = 37, len(xs) - 7
    expected = model.transform([[xs[i], ys[j]]])[0]
    drawn = [decode(m["z"])[j, i] for m in maps]
    np.testing.assert_allclose(drawn, expected, atol=1e-5 * np.abs(expected).max())
    # The live check is shown and passes; the caption states the paper's claims.
    text = text_of(at)
    assert "map value at a data point" in text and "✓" in text
    assert "Components 1 and 2 separate the classes" in text
    assert "each cuts one or more classes in two" in text


def test_caption_drops_the_claims_when_gamma_is_far_too_large():
    at = open_app("component_maps", {"dataset": "scholkopf_toy", "kernel": "rbf",
                                     "gamma": 1000})
    assert_clean(at)
    text = text_of(at)
    assert "do not simply separate the classes" in text
    assert "do not each split the classes" in text


def test_fig_buttons_load_the_paper_settings():
    at = open_app("component_maps", {"dataset": "circles", "n": 100})
    assert_clean(at)
    at.button(key="load_fig4").click().run()
    assert_clean(at)
    assert at.query_params["dataset"] == "scholkopf_toy"
    assert at.query_params["kernel"] == "rbf" and float(at.query_params["gamma"]) == 10.0
    find_chart(at, "First 8 components over the plane")

    at.button(key="load_fig3").click().run()
    assert_clean(at)
    assert at.query_params["dataset"] == "parabola" and at.query_params["kernel"] == "poly"
    assert float(at.query_params["coef0"]) == 0.0 and float(at.query_params["gamma"]) == 1.0
    spec = find_chart(at, "Polynomial kernel (x·y)ᵈ: degrees 1–4")
    assert len(contours(spec)) == 12
    titles = panel_titles(spec)
    assert titles[2].startswith("d = 1 · y3<br>λ = 0 ")  # linear: 2 components only
    data = datasets.load("parabola", n=100, seed=0)
    for d in (1, 2, 3, 4):
        model = KernelPCA(3, kernel="poly", gamma=1.0, coef0=0.0, degree=d,
                          random_state=0).fit(data.X)
        lam = model.eigenvalues_[0]
        assert titles[3 * (d - 1)].startswith(f"d = {d} · y1<br>λ = {lam:.3g} ")


def test_maps_need_the_plane_and_offer_2d_datasets():
    at = open_app("component_maps", {"dataset": "iris"})
    assert_clean(at)
    assert "2 input features" in at.warning[0].value
    assert not chart_specs(at)
    at.button(key="switch_2d_moons").click().run()
    assert_clean(at)
    assert at.query_params["dataset"] == "moons"
    find_chart(at, "First 8 components over the plane")


def test_maps_of_an_uploaded_csv():
    at = open_app("component_maps")
    at.selectbox(key="w_dataset").set_value("csv").run()
    good = (CSV_DIR / "good_labels.csv").read_bytes()
    at.file_uploader(key="upload_csv").set_value(("flowers.csv", good, "text/csv")).run()
    at.selectbox(key="w_csv_label").set_value("species").run()
    assert_clean(at)
    expected = datasets.load_csv(good, label_column="species")
    spec = find_chart(at, "First")
    k = min(8, len(expected.X) - 1)
    assert len(contours(spec)) == k
    assert "✓" in text_of(at)


# --------------------------------------------------------------------------- new points


def test_typed_point_lands_at_kernelpca_transform():
    at = open_app("new_points", CIRCLES)
    assert_clean(at)
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    train, held = split_indices(200, data.y)
    model = KernelPCA(3, kernel="rbf", gamma=10.0, random_state=0).fit(data.X[train])
    at.number_input[0].set_value(0.5)
    at.number_input[1].set_value(-0.25).run()
    assert_clean(at)
    spec = find_chart(at, "Kernel PCA")
    star = next(t for t in spec["data"] if t["name"] == "your point")
    expected = model.transform([[0.5, -0.25]])[0]
    np.testing.assert_allclose([star["x"][0], star["y"][0]], expected[:2], atol=1e-12)
    # Held-out points: transform of the held-out rows, centred with training statistics.
    held_traces = [t for t in spec["data"] if t["name"].endswith(" · held out")]
    shown = {int(r): (x, y) for t in held_traces
             for r, x, y in zip(decode(t["customdata"]), decode(t["x"]), decode(t["y"]),
                                strict=True)}
    assert sorted(shown) == held.tolist()
    Z = model.transform(data.X[held])
    np.testing.assert_allclose([shown[r] for r in held], Z[:, :2], atol=1e-12)
    # The sum of terms is shown equal to transform, and the check passes.
    text = text_of(at)
    assert f"y1(x) = **{expected[0]:.6g}**" in text
    assert f"KernelPCA.transform(x) gives **{expected[0]:.6g}**" in text
    assert "KernelPCA.transform(x)| over the components" in text and "✓" in text


def test_terms_table_lists_the_largest_terms_of_the_chosen_component():
    at = open_app("new_points", CIRCLES)
    at.segmented_control(key="np_component").set_value(2).run()
    assert_clean(at)
    table = at.dataframe[0].value
    terms = table["term αᵢ·k̃"].to_numpy()
    assert len(terms) == 10 and np.all(np.diff(np.abs(terms)) <= 0)
    np.testing.assert_allclose(terms, table["α2"] * table["k̃(xᵢ, x)"], rtol=1e-12)


def test_pca_star_is_linear_pca_of_the_typed_point():
    at = open_app("new_points", CIRCLES)
    at.number_input[0].set_value(0.1)
    at.number_input[1].set_value(0.2).run()
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    train, _ = split_indices(200, data.y)
    from sklearn.decomposition import PCA

    expected = PCA(2, svd_solver="full").fit(data.X[train]).transform([[0.1, 0.2]])[0]
    star = next(t for t in find_chart(at, "Linear PCA")["data"] if t["name"] == "your point")
    np.testing.assert_allclose([star["x"][0], star["y"][0]], expected, atol=1e-12)


@needs_usps
def test_usps_test_digit_among_training_digits():
    at = open_app("new_points", {"dataset": "usps", "n": 300, "kernel": "rbf", "gamma": 0.004})
    at.selectbox(key="np_usps_digit").set_value(3).run()
    assert_clean(at)
    test = datasets.load("usps", split="test", n=2007, seed=0)
    first_three = int(np.flatnonzero(test.y == 3)[0])
    strip = find_chart(at, f"Test digit {first_three} (a 3), then its 8 nearest training digits")
    canvas = decode(strip["data"][0]["z"])
    # The mosaic carries float32 (what the eye can see): equal to ~7 digits.
    np.testing.assert_allclose(canvas[:16, :16], test.X[first_three].reshape(16, 16), atol=1e-6)
    train_data = datasets.load("usps", split="train", n=300, seed=0)
    train, _ = split_indices(300, train_data.y)
    model = KernelPCA(3, kernel="rbf", gamma=0.004, random_state=0).fit(train_data.X[train])
    star = next(t for t in find_chart(at, "Kernel PCA")["data"]
                if t["name"] == f"test digit {first_three}")
    expected = model.transform(test.X[[first_three]])[0]
    np.testing.assert_allclose([star["x"][0], star["y"][0]], expected[:2], atol=1e-12)
    Z = model.transform(train_data.X[train])
    nearest = np.argsort(np.sum((Z - expected) ** 2, axis=1))[:8]
    same = int(np.sum(train_data.y[train][nearest] == 3))
    assert f"{same} of its 8 nearest training digits are 3s" in text_of(at)


def test_many_features_pick_a_held_out_point():
    at = open_app("new_points", {"dataset": "swiss_roll", "n": 100, "kernel": "rbf",
                                 "gamma": 0.1})
    assert_clean(at)
    assert len(at.number_input) == 3  # 3 features: typed


# --------------------------------------------------------------------------- choosing γ


def test_sweep_scores_are_cross_validation_and_best_gamma_separates_circles():
    at = open_app("choosing_gamma", CIRCLES)
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
    sweeps = [k for k in choosing_gamma_view._store()._values if k[0] == "sweep"]
    at.select_slider(key="w_gamma").set_value(3.0).run()
    assert_clean(at)
    assert [k for k in choosing_gamma_view._store()._values if k[0] == "sweep"] == sweeps
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


def test_spectrum_evidence_for_under_and_over_smoothing():
    at = open_app("choosing_gamma", CIRCLES)
    text = text_of(at)
    assert "over-smoothing" in text and "every point its own cluster" in text
    find_chart(at, "The spectrum flattens as γ grows")
    spec = find_chart(at, "The largest eigenvalue's share and the mean similarity")
    top = next(t for t in spec["data"] if t.get("name") == "λ₁ / trace(K̃)")
    shares = decode(top["y"])
    assert np.all(np.diff(shares) < 0)  # the leading share falls as γ grows


def test_degree_sweep_for_the_polynomial_kernel():
    at = open_app("choosing_gamma", {"dataset": "moons", "n": 80, "kernel": "poly",
                                     "gamma": 1, "degree": 3, "coef0": 1})
    assert_clean(at)
    spec = find_chart(at, "How well a straight line separates the classes, against d")
    degrees = decode(spec["data"][0]["x"])
    np.testing.assert_array_equal(degrees, np.arange(1, 9))
    spec = find_chart(at, "Components 1 and 2 of kernel PCA<br><sup>Polynomial, 8 values")
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


def test_pages_are_listed_on_home():
    at = open_app("home")
    assert_clean(at)
    shown = [m.value for m in at.markdown]
    links = [link.proto.label for link in at.get("page_link")]
    ours = [lesson for lesson in LESSONS if lesson.url_path in
            ("component_maps", "new_points", "choosing_gamma")]
    assert len(ours) == 3
    for lesson in ours:
        assert lesson.teaches in shown and lesson.title in links
