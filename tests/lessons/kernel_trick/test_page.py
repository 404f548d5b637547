"""The kernel trick (AppTest): the explicit map, its PCA and the series, checked on the page."""

from __future__ import annotations

import numpy as np

import datasets
from experiments import feature_maps as fm
from experiments.checks import format_value
from experiments.feature_maps import TAYLOR_MAX_N
from kpca_core import (
    KernelPCA,
)
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import N, assert_up_to_sign, checks_shown, query
from tests.support.plotly_json import chart_specs, decode, find_chart, scatter_points, title


def test_kernel_trick_on_circles_checks_the_map_the_pca_and_the_series():
    q = query("rbf", gamma="2", coef0="1")
    at = open_app("kernel_trick", q)
    assert_clean(at)
    data = datasets.load("circles", n=N)
    X = data.X
    explicit = fm.explicit_pca(X, gamma=2.0, coef0=1.0)
    shown = checks_shown(at)
    assert not any("rotation" in m.value for m in at.markdown)  # noisy rings: no pairs
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


def camera_heights(spec: dict) -> tuple[np.ndarray, np.ndarray, dict]:
    """The lifted points' heights along the camera's "up", in the scene's units (each axis
    scaled to one length, as aspectmode "cube" draws it), and the scene."""
    scene = spec["layout"]["scene"]
    up = np.array([scene["camera"]["up"][a] for a in "xyz"])
    ranges = np.array([scene[f"{a}axis"]["range"] for a in "xyz"])
    points = [t for t in spec["data"] if t["type"] == "scatter3d"]
    heights = []
    for trace in points:
        Z = np.column_stack([decode(trace[a]) for a in "xyz"])
        scaled = (Z - ranges[:, 0]) / (ranges[:, 1] - ranges[:, 0])
        heights.append(scaled @ up / np.linalg.norm(up))
    return heights, up, scene


def test_the_lift_opens_on_the_rings_at_two_heights_with_the_plane_between():
    # Issue 23, tour step 4: the default camera showed neither the heights nor the plane,
    # and the 3-D axis titles were unreadable.
    at = open_app("kernel_trick", {"dataset": "circles", "kernel": "poly", "gamma": 1,
                                   "degree": 2, "coef0": 0})
    assert_clean(at)
    spec = find_chart(at, "The data lifted into 3-D")
    (outer, inner), up, scene = camera_heights(spec)
    assert outer.min() > inner.max()  # every outer point above every inner one, as seen
    eye = np.array([scene["camera"]["eye"][a] for a in "xyz"])
    assert abs(eye @ up) / (np.linalg.norm(eye) * np.linalg.norm(up)) < 0.3  # from the side
    X = datasets.load("circles").X
    plane = fm.separating_plane(fm.quadratic_lift(X, gamma=1.0), datasets.load("circles").y)
    assert plane.accuracy == 1.0
    spans = np.array([np.ptp(scene[f"{a}axis"]["range"]) for a in "xyz"])
    normal = plane.normal * spans
    cosine = abs(normal @ up) / (np.linalg.norm(normal) * np.linalg.norm(up))
    assert cosine > 0.999  # up is the plane's normal: the plane is seen edge-on, level
    for a in "xyz":
        assert scene[f"{a}axis"]["title"]["font"]["size"] >= 14
    assert [scene[f"{a}axis"]["title"]["text"] for a in "xyz"] == [
        "z₁ = γx₁²", "z₂ = √2 γx₁x₂", "z₃ = γx₂²"]


def test_without_a_separating_plane_up_is_the_squared_radius():
    at = open_app("kernel_trick", {"dataset": "four_classes", "kernel": "poly", "gamma": 1,
                                   "degree": 2, "coef0": 0})
    assert_clean(at)
    spec = find_chart(at, "The data lifted into 3-D")
    assert not any(t["type"] == "surface" for t in spec["data"])
    heights, up, scene = camera_heights(spec)
    spans = np.array([np.ptp(scene[f"{a}axis"]["range"]) for a in "xyz"])
    radius = np.array([1.0, 0.0, 1.0]) * spans
    assert abs(radius @ up) / (np.linalg.norm(radius) * np.linalg.norm(up)) > 0.999
    # The four rings, from the smallest radius up, sit at rising heights.
    means = [h.mean() for h in heights]
    assert means == sorted(means)


def test_noise_free_circles_and_a_tiny_gamma_pass_every_check():
    # Noise-free rings pair the eigenvalues (each pair's eigenvectors are fixed only up to
    # a rotation); at γ = 1e-6, K is all but constant and K̃ is rounding-sized.
    for gamma in ("1", "1e-06"):
        at = open_app("kernel_trick", query("rbf", noise="0", gamma=gamma, coef0="1"))
        assert_clean(at)
        assert not [e.value for e in at.error], gamma
        shown = checks_shown(at)
        (label,) = [k for k in shown if k.startswith("largest |KPCA − PCA on φ(X)|")]
        explicit = fm.explicit_pca(datasets.load("circles", n=N, noise=0.0).X,
                                   gamma=float(gamma), coef0=1.0)
        assert shown[label] == format_value(explicit.max_difference)
        # The rings pair the eigenvalues: the text says the pictures may differ by a turn.
        assert "rotation" in label
        assert any("a rotation within their plane" in m.value for m in at.markdown)
