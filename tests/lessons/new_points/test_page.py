"""New points (AppTest): a typed point lands where KernelPCA.transform puts it, term by term."""

from __future__ import annotations

import numpy as np

import datasets
from experiments.kernel_diagnostics import signed
from kpca_core import KernelPCA
from lessons.new_points.experiment import split_indices
from shell.registry import NEW_POINTS_HELD_OUT
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import decode, find_chart

CIRCLES = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def test_typed_point_lands_at_kernelpca_transform():
    at = open_app("new_points", CIRCLES)
    assert_clean(at)
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    train, held = split_indices(200, data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
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
    assert f"y1(x) = **{signed(expected[0], '.6g')}**" in text  # a true minus sign
    assert f"KernelPCA.transform(x) gives **{signed(expected[0], '.6g')}**" in text
    assert "KernelPCA.transform(x)| over the components" in text and "✓" in text


def test_terms_table_lists_the_largest_terms_of_the_chosen_component():
    at = open_app("new_points", CIRCLES)
    at.segmented_control(key="np_component").set_value(2).run()
    assert_clean(at)
    table = at.dataframe[0].value
    terms = table["term αᵢ·k̃"].to_numpy()
    assert len(terms) == 10 and np.all(np.diff(np.abs(terms)) <= 0)
    np.testing.assert_allclose(terms, table["α2"] * table["k̃(xᵢ, x)"], rtol=1e-12)


def split_of_y1(dataset: str, kernel: str, params: dict, x) -> tuple[float, float, float]:
    """y₁(x) split into its kernel part and its centring part, from scikit-learn alone:
    (kernel part, centring part, share of the kernel part's |terms| from the 10 nearest)."""
    from sklearn.decomposition import KernelPCA as SkKernelPCA
    from sklearn.metrics.pairwise import pairwise_kernels

    data = datasets.load(dataset)
    train, _ = split_indices(len(data.X), data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    X = data.X[train]
    model = SkKernelPCA(3, kernel=kernel, random_state=0, **params).fit(X)
    alphas = model.eigenvectors_ / np.sqrt(model.eigenvalues_)
    k = pairwise_kernels(X, np.atleast_2d(x), metric=kernel, **params)[:, 0]
    y1 = float(model.transform(np.atleast_2d(x))[0, 0])
    kernel_part = float(alphas[:, 0] @ k)
    near = np.argsort(np.linalg.norm(X - x, axis=1))[:10]
    terms = np.abs(alphas[:, 0] * k)
    return kernel_part, y1 - kernel_part, float(terms[near].sum() / terms.sum())


def typed_start(dataset: str) -> np.ndarray:
    data = datasets.load(dataset)
    _, held = split_indices(len(data.X), data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    return np.round(data.X[held[0]], 3)


def centring_share(kernel_part: float, centring_part: float) -> float:
    return abs(centring_part) / (abs(kernel_part) + abs(centring_part))


def test_where_y1_comes_from_at_the_default_is_said_with_its_numbers():
    # Issue 23: "with this kernel, nearby points dominate" beside "the ten largest terms
    # carry 9 %": the split into a kernel part and a centring part says what is going on.
    at = open_app("new_points", {"dataset": "circles", "kernel": "rbf", "gamma": 5})
    assert_clean(at)
    x = typed_start("circles")
    kernel_part, centring_part, near = split_of_y1("circles", "rbf", {"gamma": 5.0}, x)
    text = text_of(at)
    assert "nearby points dominate" not in text
    sign = "+" if centring_part >= 0 else "−"
    assert (f"y1(x) = {signed(kernel_part, '.4g')} (kernel part, Σᵢ αᵢ k(xᵢ, x)) {sign} "
            f"{abs(centring_part):.4g} (centring part") in text
    assert f"the centring part is {100 * centring_share(kernel_part, centring_part):.0f} %" in text
    assert f"nearest x carry {100 * near:.0f} % of the kernel part" in text
    assert near < 0.5 and "spread over many training points" in text


def test_at_a_huge_gamma_the_centring_constant_is_named_as_most_of_y1():
    at = open_app("new_points", {"dataset": "circles", "kernel": "rbf", "gamma": 1000})
    assert_clean(at)
    x = typed_start("circles")
    kernel_part, centring_part, near = split_of_y1("circles", "rbf", {"gamma": 1000.0}, x)
    share = centring_share(kernel_part, centring_part)
    text = text_of(at)
    assert share > 0.5 and near > 0.5
    assert f"the centring part is {100 * share:.0f} %" in text
    assert "comes from x's neighbourhood" in text
    assert "most of y1(x) is the centring constant" in text


def test_the_split_holds_for_another_kernel_and_dataset():
    at = open_app("new_points", {"dataset": "moons", "kernel": "poly", "gamma": 1,
                                 "degree": 3, "coef0": 1})
    assert_clean(at)
    x = typed_start("moons")
    kernel_part, centring_part, near = split_of_y1(
        "moons", "poly", {"gamma": 1.0, "degree": 3, "coef0": 1.0}, x)
    text = text_of(at)
    assert "(kernel part, Σᵢ αᵢ k(xᵢ, x))" in text
    assert f"the centring part is {100 * centring_share(kernel_part, centring_part):.0f} %" in text
    assert f"nearest x carry {100 * near:.0f} % of the kernel part" in text


def test_pca_star_is_linear_pca_of_the_typed_point():
    at = open_app("new_points", CIRCLES)
    at.number_input[0].set_value(0.1)
    at.number_input[1].set_value(0.2).run()
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    train, _ = split_indices(200, data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
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
    train, _ = split_indices(300, train_data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
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


def test_the_starting_point_is_named_by_its_row_not_as_held_out_point_0():
    """Issue 33: 'It starts at held-out point 0' named a row of the data as if it were the
    held-out points' own numbering."""
    at = open_app("new_points", CIRCLES)
    assert_clean(at)
    data = datasets.load("circles", n=200, noise=0.05, factor=0.3, seed=0)
    _, held = split_indices(200, data.y, heldout_fraction=NEW_POINTS_HELD_OUT)
    caption = next(c.value for c in at.caption if c.value.startswith("Type the coordinates"))
    assert f"the first held-out point: point {held[0]} of the data" in caption
    assert at.number_input[0].value == round(float(data.X[held[0], 0]), 3)
