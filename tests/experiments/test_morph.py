"""γ in motion: frames aligned so that a point moves continuously (experiments.morph)."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from experiments.morph import (
    FRAMES,
    align_frames,
    gamma_motion,
    motion_values,
    normalise,
    track_components,
)
from experiments.sampling import stratified_rows
from shell.state import default_settings
from tests.support.apptest import needs_usps

# A frame step may move a point by at most this share of the axes' range (the frames'
# extent): the median point and the 95th percentile. Eigenvector crossings, sign flips
# and rotations within the plane moved points by 30–60 % of it before alignment; the
# largest median step left is 11 % (circles, where two eigenvalues cross).
MEDIAN_STEP, TOP_STEP = 0.15, 0.3


def rotation(angle: float, *, reflect: bool = False) -> np.ndarray:
    c, s = np.cos(angle), np.sin(angle)
    R = np.array([[c, -s], [s, c]])
    return R @ np.diag([1.0, -1.0]) if reflect else R


def test_align_frames_undoes_sign_flips_swaps_and_rotations():
    rng = np.random.default_rng(0)
    A, _ = normalise(rng.normal(size=(50, 2)) * [3.0, 1.0])
    turned = [A @ np.diag([-1.0, 1.0]),  # a sign flip
              A[:, ::-1],  # components swapped
              A @ rotation(0.7, reflect=True)]
    frames = np.stack([A, *turned])
    aligned = align_frames(frames, anchor=0)
    for frame in aligned:
        np.testing.assert_allclose(frame, A, atol=1e-12)
    # The anchor is kept as it is, whichever frame it is; the input is not written to.
    np.testing.assert_array_equal(align_frames(frames, anchor=2)[2], frames[2])
    np.testing.assert_array_equal(frames[1], turned[0])


def test_track_components_follows_eigenvectors_across_a_crossing():
    rng = np.random.default_rng(1)
    V, _ = np.linalg.qr(rng.normal(size=(40, 4)))
    # Component 2 of the previous value became component 3 here, with its sign flipped.
    current = V[:, [0, 2, 1, 3]] * [1, 1, -1, 1]
    assert track_components(V[:, :2], current).tolist() == [0, 2]


def test_motion_values_centre_the_current_gamma_within_the_range():
    values = motion_values(5.0, low=1e-6, high=1e4)
    assert len(values) == FRAMES
    assert 5.0 in values and values[FRAMES // 2] == 5.0
    np.testing.assert_allclose(values[[0, -1]], [0.5, 50.0])
    near_top = motion_values(5e3, low=1e-6, high=1e4)
    assert near_top.max() == pytest.approx(1e4) and 5e3 in near_top


def steps(frames: np.ndarray) -> np.ndarray:
    """Each point's move between consecutive frames / the frames' range: (m − 1, n)."""
    extent = float((frames.max(axis=(0, 1)) - frames.min(axis=(0, 1))).max())
    return np.linalg.norm(np.diff(frames, axis=0), axis=2) / extent


def motion_of(name: str, limit: int):
    settings = default_settings(name)
    data = datasets.load(name, **settings.options)
    rows = stratified_rows(len(data.X), data.y, limit)
    values = motion_values(settings.gamma, low=1e-6, high=1e4)
    return gamma_motion(data.X[rows], data.y[rows], kernel=settings.kernel,
                        kernel_params=settings.kernel_params(), param="gamma",
                        values=values, anchor=FRAMES // 2, rows=rows)


@pytest.mark.parametrize("name", ["circles", "moons", pytest.param("usps", marks=needs_usps)])
def test_consecutive_frames_move_each_point_a_little(name):
    motion = motion_of(name, 300)
    moved = steps(motion.frames)
    assert np.median(moved, axis=1).max() < MEDIAN_STEP, np.median(moved, axis=1)
    assert np.percentile(moved, 95, axis=1).max() < TOP_STEP, np.percentile(moved, 95, axis=1)
    # The frame of the current γ is the page's projection on components 1 and 2.
    assert motion.components[motion.anchor].tolist() == [1, 2]
    assert len(motion.frames) == FRAMES and motion.frames.shape[1] == len(motion.rows)


def test_without_alignment_the_circles_jump():
    """The check above can fail: the same frames, unaligned, jump."""
    motion = motion_of("circles", 300)
    # Undo the alignment: refit each frame's components 1 and 2 in the solver's signs.
    from experiments.kpca_steps import fit_kpca

    settings = default_settings("circles")
    data = datasets.load("circles", **settings.options)
    X = data.X[motion.rows]
    naive = np.stack([normalise(fit_kpca(X, kernel="rbf", kernel_params={"gamma": g},
                                         n_components=2).projection)[0]
                      for g in motion.values])
    assert np.percentile(steps(naive), 95, axis=1).max() > 2 * TOP_STEP
    # The numbers shown with each frame: its components' share of trace(K̃), and the
    # frame's scale removed, are those of a fit at that γ.
    fit = fit_kpca(X, kernel="rbf", kernel_params={"gamma": float(motion.values[3])},
                   n_components=6)
    drawn = motion.components[3] - 1
    assert motion.explained[3] == pytest.approx(fit.explained_ratio[drawn].sum())
    assert motion.spread[3] == pytest.approx(normalise(fit.projection[:, drawn])[1])
