"""New points (AppTest): a typed point lands where KernelPCA.transform puts it, term by term."""

from __future__ import annotations

import numpy as np

import datasets
from kpca_core import KernelPCA
from lessons.new_points.experiment import split_indices
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import decode, find_chart

CIRCLES = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


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
