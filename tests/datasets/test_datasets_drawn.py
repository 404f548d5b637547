"""Drawn points (``datasets.drawn``): snapped, packed for a link, read back exactly, and
everything from a browser or a link that is not a small set of finite points refused."""

from __future__ import annotations

import base64

import numpy as np
import pytest

from datasets import drawn
from datasets._types import english


def test_a_drawing_travels_exactly_and_compactly():
    rng = np.random.default_rng(3)
    raw = [[float(a), float(b), int(c)] for (a, b), c in
           zip(rng.uniform(-2, 2, (drawn.MAX_POINTS, 2)), rng.integers(0, 3, drawn.MAX_POINTS),
               strict=True)]
    X, y = drawn.snap(raw)
    assert X.shape == (drawn.MAX_POINTS, 2) and np.abs(X).max() <= drawn.LIMIT
    code = drawn.encode(X, y)
    assert len(code) == drawn.MAX_CODE_CHARS == 1201
    X2, y2 = drawn.decode(code)
    np.testing.assert_array_equal(X2, X)
    np.testing.assert_array_equal(y2, y)
    # Snapping moves a point by at most half a grid step (inside the plane); outside,
    # the point is clipped to the edge.
    inside = np.all(np.abs(np.array(raw)[:, :2]) <= drawn.LIMIT, axis=1)
    step = 2 * drawn.LIMIT / (drawn.GRID - 1)
    assert np.abs(X[inside] - np.array(raw)[inside, :2]).max() <= step / 2 + 1e-12
    assert drawn.snap([[0.0, 0.0, 2]])[0].tolist() == [[0.0, 0.0]]  # the origin is on the grid
    assert drawn.decode(drawn.encode(np.empty((0, 2)), np.empty(0, int)))[0].shape == (0, 2)


@pytest.mark.parametrize("points, problem", [
    ("1,2,0", "a list"),
    ({"x": 1}, "a list"),
    ([[0, 0, 0]] * (drawn.MAX_POINTS + 1), "at most 300"),
    ([[0, 0]], r"not \[x, y, class\]"),
    ([[0, 0, 0, 0]], r"not \[x, y, class\]"),
    ([[float("nan"), 0, 0]], "not finite"),
    ([[0, float("inf"), 1]], "not finite"),
    ([["0.5", 0, 0]], "not a number"),
    ([[True, 0, 0]], "not a number"),
    ([[10**400, 0, 0]], "far outside"),
    ([[0, 0, 3]], "class"),
    ([[0, 0, -1]], "class"),
    ([[0, 0, 1.0]], "class"),
    ([[0, 0, None]], "class"),
])
def test_what_the_browser_sends_is_checked(points, problem):
    with pytest.raises(drawn.DrawnError, match=problem):
        drawn.snap(points)


@pytest.mark.parametrize("code, problem", [
    ("", "start with '1'"),
    ("2AAAA", "start with '1'"),
    ("1AAA", "damaged"),  # not a whole point
    ("1AA=A", "damaged"),
    ("1AA.A", "damaged"),
    ("1<sc>", "damaged"),
    ("1" + "A" * (drawn.MAX_CODE_CHARS + 3), "at most"),
    ("1" + base64.urlsafe_b64encode(bytes([0, 0, 0b1100])).decode(), "unknown class"),
    ("1" + base64.urlsafe_b64encode(bytes([0, 0, 0b0001])).decode(), "unknown class"),
    ("1" + base64.urlsafe_b64encode(bytes([0xFF, 0xC0, 0])).decode(), "outside the plane"),
])
def test_a_bad_link_code_is_refused_with_a_reason(code, problem):
    with pytest.raises(drawn.DrawnError, match=problem):
        drawn.decode(code)


def test_presets_fit_the_plane_and_remember_their_gamma():
    for name in drawn.PRESETS:
        X, y = drawn.preset(name)
        assert len(X) == drawn.PRESET_POINTS and set(np.unique(y)) == {0, 1}
        assert np.abs(X).max() < drawn.LIMIT  # nothing clipped to the edge
        assert drawn.preset_gamma(drawn.encode(X, y)) == drawn.PRESET_GAMMA[name]
    X, y = drawn.preset("moons")
    X[0] += 0.1  # one point moved: no longer the preset
    assert drawn.preset_gamma(drawn.encode(*drawn.snap(
        [[a, b, int(c)] for (a, b), c in zip(X, y, strict=True)]))) is None


def test_a_drawing_is_a_read_only_dataset_with_three_class_names():
    X, y = drawn.snap([[0.1, 0.2, 0], [0.3, 0.4, 2]])
    data = drawn.drawn_dataset(X, y)
    assert data.X.shape == (2, 2) and not data.X.flags.writeable
    assert data.target_names == drawn.CLASS_NAMES
    assert data.description == ("2 points drawn by hand on the Draw page, in the square "
                                "[-1.5, 1.5]². Class A has 1, class B 0 and class C 1.")


def test_a_drawing_kernel_pca_cannot_run_on_says_why():
    def said(X) -> str:
        return english((drawn.analysis_problem(X),))

    assert said(np.empty((0, 2))) == "0 points drawn: kernel PCA needs at least 3"
    assert said(np.zeros((1, 2))) == "1 point drawn: kernel PCA needs at least 3"
    assert said(np.zeros((300, 2))) == (
        "all 300 points drawn are at the same place: kernel PCA needs at least two "
        "different points")
    assert drawn.analysis_problem(np.array([[0.0, 0.0], [0.0, 0.0], [0.0, 0.1]])) is None
