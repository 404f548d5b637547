"""The offline lecture's frames hold the app's numbers: the Explorer's steps (its page's own
figures, :mod:`lessons.explorer.pack`) checked against an independent computation at the
same settings (scikit-learn's KernelPCA, NumPy's eigenvalues, K built and binned here), and
every step's questions against ``classroom.questions.build`` there."""

from __future__ import annotations

import math
from dataclasses import replace
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from sklearn.decomposition import KernelPCA
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from classroom import questions
from classroom.tour import STEPS
from experiments.separability import linear_separability
from lecture_pack import build
from lecture_pack.build import build_tour_step, figure_data, kept_frames, slider
from lecture_pack.html import render, sizes
from lessons.common.pack import HEATMAP_SIDE
from shell.caches import inputs_of
from shell.state import settings_from_query
from words.kernel_params import GAMMA_GRID


def step_numbered(title: str) -> int:
    return next(i for i, step in enumerate(STEPS, start=1) if step.title == title)


RBF_K = step_numbered("A kernel changes the geometry")  # Explorer at K and K̃, γ = 5
MISTAKES = step_numbered("Mistakes that look plausible")  # moons, (γ xᵀy + 1)³
LINEAR = step_numbered("Straight lines are not enough")


@pytest.fixture(scope="module")
def built():
    return {n: build_tour_step(n, STEPS[n - 1], max_frames=3) for n in (RBF_K, LINEAR, MISTAKES)}


def figure(step: dict, frame: dict, name: str) -> tuple[dict, list[dict]]:
    """A figure of the frame by its id: its entry and its traces."""
    entry = next(f for f in frame["figures"] if f["id"] == name)
    return entry, figure_data(step, entry)


def settings_at(number: int, value: float):
    step = STEPS[number - 1]
    param, _, _ = slider(step)
    return replace(step.settings(), **{param: int(value) if param == "degree" else value})


def independent_kernel(X, settings):
    if settings.kernel == "rbf":
        return rbf_kernel(X, gamma=settings.gamma)
    return polynomial_kernel(X, degree=settings.degree, gamma=settings.gamma,
                             coef0=settings.coef0)


def test_the_gamma_slider_runs_over_the_apps_grid_across_three_decades_around_the_step():
    param, values, anchor = slider(STEPS[RBF_K - 1])
    assert param == "gamma" and values[anchor] == 5.0
    assert set(values) <= set(GAMMA_GRID)
    assert values == tuple(sorted(values))
    assert math.log10(values[-1] / values[0]) == pytest.approx(3 - math.log10(2.5), abs=0.2)
    assert {0.2, 0.3, 0.5, 1.0, 2.0, 3.0, 10.0, 100.0} <= set(values)


def test_a_polynomial_step_moves_the_degree_and_the_linear_step_nothing():
    param, values, anchor = slider(STEPS[MISTAKES - 1])
    assert param == "degree" and values == (1, 2, 3, 4, 5, 6) and values[anchor] == 3
    assert slider(STEPS[LINEAR - 1]) == (None, (), 0)


def test_a_quick_build_keeps_both_ends_and_the_steps_own_value():
    assert kept_frames(12, 6, 3) == [0, 6, 11]
    assert len(kept_frames(12, 6, 5)) == 5 and {0, 6, 11} <= set(kept_frames(12, 6, 5))
    with pytest.raises(ValueError):
        kept_frames(12, 6, 2)


def test_every_explorer_frames_numbers_and_points_are_those_computed_independently(built):
    step = built[RBF_K]
    for value, frame in zip(step["values"], step["frames"], strict=True):
        settings = settings_at(RBF_K, value)
        inputs = inputs_of(settings)
        X, y = np.asarray(inputs.X, dtype=float), inputs.y
        # Explained variance: the leading eigenvalues of H K H over its trace.
        n = len(X)
        H = np.eye(n) - 1.0 / n
        Kc = H @ independent_kernel(X, settings) @ H
        mu = np.linalg.eigvalsh(Kc)[::-1]
        np.testing.assert_allclose(frame["numbers"]["explained"], mu[:2] / np.trace(Kc),
                                   rtol=1e-6, atol=1e-9)
        # Separability of components 1–2, from scikit-learn's own kernel PCA (signs may
        # differ: a linear classifier does not care); one point of n at most apart.
        Z = KernelPCA(2, kernel="precomputed").fit_transform(independent_kernel(X, settings))
        assert frame["numbers"]["separability"] == pytest.approx(
            linear_separability(Z, y), abs=1.0 / n)
        # The page's kernel PCA chart draws scikit-learn's points (400 ≤ SHOWN_POINTS: all
        # of them), each by its row, up to the sign of each component.
        _entry, traces = figure(step, frame, "kpca")
        rows = np.concatenate([t["customdata"] for t in traces]).astype(int)
        drawn = np.column_stack([np.concatenate([t[axis] for t in traces]) for axis in "xy"])
        assert sorted(rows) == list(range(n))
        for c in range(2):
            assert abs(np.corrcoef(drawn[:, c], Z[rows, c])[0, 1]) > 0.999


@pytest.mark.parametrize("number", [RBF_K, LINEAR, MISTAKES])
def test_every_frames_question_is_the_apps_at_its_settings(built, number):
    step = built[number]
    for value, frame in zip(step["values"] or [None], step["frames"], strict=True):
        settings = settings_at(number, value) if value is not None else STEPS[number - 1].settings()
        inputs = inputs_of(settings)
        X, y = np.asarray(inputs.X, dtype=float), inputs.y
        asked = questions.build(STEPS[number - 1].check, X, y, settings)
        assert frame["question"] == {"texts": [o.text for o in asked.options],
                                     "right": [o.right for o in asked.options],
                                     "why": [o.why for o in asked.options]}


def test_the_separation_verdict_follows_the_independent_score(built):
    step = built[RBF_K]
    bands = []
    for value, frame in zip(step["values"], step["frames"], strict=True):
        score = frame["numbers"]["separability"]
        right = frame["question"]["right"]
        assert right == [score >= 0.95, 0.70 <= score < 0.95, score < 0.70], value
        bands.append(right.index(True))
    assert len(set(bands)) > 1  # the slider's ends do not all get the same answer


def test_k_and_k_tilde_are_the_kernel_binned_in_class_order(built):
    step = built[RBF_K]
    for value, frame in zip(step["values"], step["frames"], strict=True):
        settings = settings_at(RBF_K, value)
        inputs = inputs_of(settings)
        X, y = np.asarray(inputs.X, dtype=float), inputs.y
        order = np.argsort(y, kind="stable")
        K = rbf_kernel(X[order], gamma=value)
        n = len(X)
        side = HEATMAP_SIDE
        b = n // side  # 400 points: blocks of 8 × 8
        k_entry, (k_heat,) = figure(step, frame, "K")
        c_entry, (c_heat,) = figure(step, frame, "Kc")
        cells = f"(50 × 50 cells, {b}×{b} blocks)"
        assert k_entry["layout"]["title"]["text"] == f"Kernel matrix K {cells}"
        assert c_entry["layout"]["title"]["text"] == f"Centred K̃ {cells}"
        binned = K.reshape(side, b, side, b).mean(axis=(1, 3))
        np.testing.assert_allclose(k_heat["z"], binned, rtol=5e-4, atol=1e-12)
        H = np.eye(n) - 1.0 / n
        centred = (H @ rbf_kernel(X, gamma=value) @ H)[np.ix_(order, order)]
        scale = np.abs(centred).max()
        np.testing.assert_allclose(c_heat["z"], centred.reshape(side, b, side, b).mean(axis=(1, 3)),
                                   rtol=5e-4, atol=1e-6 * scale)
        # The colour scales are the page's heatmaps' (n = 400: 2 × 2 points a cell), which
        # its sentences quote, not the binned copy's (binning narrows both).
        app_K = K.reshape(200, 2, 200, 2).mean(axis=(1, 3))
        app_Kc = centred.reshape(200, 2, 200, 2).mean(axis=(1, 3))
        np.testing.assert_allclose([k_heat["zmin"], k_heat["zmax"]], [app_K.min(), app_K.max()],
                                   rtol=5e-4)
        bound = np.abs(app_Kc).max()
        assert c_heat["zmax"] == pytest.approx(bound, rel=5e-4) == -c_heat["zmin"]
        assert f"colour scale ±{bound:.2f}" in " ".join(frame["sentences"])


def test_the_k_sentences_quote_the_binned_kernels_class_means(built):
    frame = built[RBF_K]["frames"][built[RBF_K]["anchor"]]
    settings = STEPS[RBF_K - 1].settings()
    inputs = inputs_of(settings)
    X, y = np.asarray(inputs.X, dtype=float), inputs.y
    K = rbf_kernel(X, gamma=settings.gamma)
    inner = K[np.ix_(y == 1, y == 1)].mean()
    assert f"inner circle {inner:.3g}" in " ".join(frame["sentences"])


@pytest.mark.parametrize("number", [RBF_K, MISTAKES])
def test_each_frames_link_opens_its_view_at_its_settings(built, number):
    step = built[number]
    for value, frame in zip(step["values"], step["frames"], strict=True):
        link = urlsplit(frame["links"]["view"])
        assert link.path == "/" + STEPS[number - 1].page.rsplit("/", 1)[-1].removesuffix(".py")
        settings, problems = settings_from_query(dict(parse_qsl(link.query)))
        assert not problems and settings == settings_at(number, value)
        assert frame["links"]["tour"].endswith(f"/tour?step={number}")


def test_the_differences_from_the_steps_setting_are_said_off_the_anchor_only(built):
    step = built[RBF_K]
    for i, frame in enumerate(step["frames"]):
        assert bool(frame["differs"]) == (i != step["anchor"])
        if i != step["anchor"]:
            assert "(the step's: 5)" in frame["differs"][0]


def test_the_file_needs_nothing_from_elsewhere(built):
    pack = {"version": "test", "steps": [built[RBF_K], built[MISTAKES]]}
    text = render(pack)
    lowered = text.lower()
    assert "<script src" not in lowered and "<link" not in lowered
    assert "@import" not in lowered and "url(http" not in lowered
    assert lowered.count("plotly.js v") == 1  # the library's banner: inlined once
    assert "default-src 'none'" in text  # and the page may fetch nothing
    parts = sizes(pack)
    assert parts["library"] + parts["figures"] + parts["text"] == parts["total"] == len(
        text.encode())
    # Numbers for the charts are sent with SIGNIFICANT digits, no more.
    step = built[RBF_K]
    for frame in step["frames"]:
        _entry, (kpca, _other) = figure(step, frame, "kpca")
        _entry, (heat,) = figure(step, frame, "K")
        _entry, (bars, *_curves) = figure(step, frame, "spectrum")
        for v in [*kpca["x"], *heat["z"][0], *bars["y"]]:
            assert v == float(f"{v:.{build.SIGNIFICANT}g}")
