"""γ in motion on the Explorer and Choosing γ (lessons.common.motion), in AppTest: what is computed
and sent, its bounds, and "Use γ = …" writing the sidebar's γ."""

from __future__ import annotations

import json

import numpy as np
import pytest

import datasets
from experiments.morph import DEGREES, FRAMES, MOTION_MAX_N
from experiments.sampling import stratified_rows
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import decode

# Bytes of the motion's figure as the browser receives it: 21 frames of 400 points and
# K̃ (measured 0.10 MB), and of 600 points without K̃ (a sample of larger data).
MAX_MOTION_BYTES = 160_000


def motion_spec(at) -> tuple[dict, int]:
    """The animated chart's JSON (the one with frames) and its size in bytes."""
    (element,) = [e for e in at.get("plotly_chart") if '"frames"' in e.proto.spec]
    return json.loads(element.proto.spec), len(element.proto.spec.encode())


def show_frame(at, key: str, label: str):
    """What the browser's frame follower (motion_frame.js) reports after a pause on the
    frame ``label``: its callback's record of the frame on screen (AppTest runs no JS;
    tests/lessons/explorer/test_browser.py plays and pauses in Chromium)."""
    shown = dict(at.session_state["_motion_shown"]) if "_motion_shown" in at.session_state \
        else {}
    at.session_state["_motion_shown"] = {**shown, key: label}
    return at.run()


def test_off_until_asked_then_frames_use_this_gamma_sets_the_sidebar():
    at = open_app("explorer", {"dataset": "circles", "kernel": "rbf", "gamma": 5})
    assert_clean(at)
    assert not [e for e in at.get("plotly_chart") if '"frames"' in e.proto.spec]
    at.toggle(key="explorer_motion_on").set_value(True).run()
    assert_clean(at)
    spec, size = motion_spec(at)
    assert len(spec["frames"]) == FRAMES and size < MAX_MOTION_BYTES
    steps = [s["label"] for s in spec["layout"]["sliders"][0]["steps"]]
    assert steps[0] == "0.5" and steps[FRAMES // 2] == "5" and steps[-1] == "50"
    assert "stratified sample" not in " ".join(c.value for c in [*at.caption, *at.markdown])
    # One slider: Plotly's. No second one in Streamlit; "Use" waits for another frame.
    assert not [s for s in at.select_slider if s.key == "explorer_motion_frame"]
    assert at.button(key="explorer_motion_use").disabled
    assert at.button(key="explorer_motion_use").label == "Use γ = 5"
    # The student pauses on γ = 13: the chart, the caption and the button follow.
    at = show_frame(at, "explorer_motion", "13")
    assert_clean(at)
    i = steps.index("13")
    spec, _ = motion_spec(at)
    assert spec["layout"]["sliders"][0]["active"] == i
    assert spec["layout"]["title"]["text"].startswith("γ = 13 ·")
    frame = spec["frames"][i]
    assert frame["name"] == "13" and "γ = 13 ·" in frame["layout"]["title"]["text"]
    button = at.button(key="explorer_motion_use")
    assert button.label == "Use γ = 13" and not button.disabled
    assert any(c.value.startswith("On screen: γ = 13 ·") for c in at.caption)
    button.click().run()
    assert_clean(at)
    assert at.session_state["w_gamma"] == 13.0
    # The frames are now centred on γ = 13, on the page's components 1 and 2.
    spec, _ = motion_spec(at)
    assert spec["layout"]["title"]["text"].startswith("γ = 13 · components 1 and 2<br>")
    assert spec["layout"]["sliders"][0]["active"] == FRAMES // 2
    assert at.button(key="explorer_motion_use").disabled


def test_a_report_of_another_views_frame_is_ignored():
    at = open_app("explorer", {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 5})
    at.toggle(key="explorer_motion_on").set_value(True).run()
    at = show_frame(at, "explorer_motion", "<b>not a frame</b>")
    assert_clean(at)
    spec, _ = motion_spec(at)
    assert spec["layout"]["sliders"][0]["active"] == FRAMES // 2
    assert at.button(key="explorer_motion_use").label == "Use γ = 5"


def test_large_data_are_sampled_and_said_so():
    at = open_app("explorer", {"dataset": "circles", "n": 1000, "kernel": "rbf", "gamma": 5})
    at.toggle(key="explorer_motion_on").set_value(True).run()
    assert_clean(at)
    spec, size = motion_spec(at)
    drawn = sum(len(decode(t["x"])) for t in spec["data"] if t.get("customdata") is not None)
    assert drawn == MOTION_MAX_N and size < MAX_MOTION_BYTES
    text = " ".join(c.value for c in [*at.caption, *at.markdown])
    assert f"stratified sample of {MOTION_MAX_N} of the 1,000 points" in text
    # Above HEATMAP_MAX_N points no K̃ rides along: one trace per class.
    assert len(spec["data"]) == 2
    # Each frame moves every point: the frames' coordinates differ.
    xs = [np.concatenate([decode(t["x"]) for t in f["data"]]) for f in spec["frames"][:2]]
    assert not np.array_equal(*xs)


def test_polynomial_kernel_sweeps_the_degree_on_choosing_gamma():
    at = open_app("choosing_gamma", {"dataset": "circles", "n": 200, "kernel": "poly",
                                     "gamma": 1, "degree": 2, "coef0": 1})
    at.toggle(key="gamma_motion_on").set_value(True).run()
    assert_clean(at)
    spec, _ = motion_spec(at)
    assert [f["name"] for f in spec["frames"]] == [str(d) for d in DEGREES]
    at = show_frame(at, "gamma_motion", "4")
    at.button(key="gamma_motion_use").click().run()
    assert_clean(at)
    assert at.session_state["w_degree"] == 4 and at.session_state["w_gamma"] == 1.0


@pytest.mark.parametrize("kernel", ["linear", "cosine"])
def test_no_motion_without_a_parameter_to_sweep(kernel):
    at = open_app("explorer", {"dataset": "circles", "n": 100, "kernel": kernel})
    assert_clean(at)
    assert "explorer_motion_on" not in [t.key for t in at.toggle]


# --------------------------------------------------- every frame: in view, to scale, true


def figure_of(name: str, kernel: str, gamma: float, n: int | None = None, **params):
    """The motion's figure for a dataset, as the page builds it (frames around γ)."""
    from experiments.morph import gamma_motion, motion_values
    from lessons.common.motion import motion_figure
    from shell.state import GAMMA_MAX, GAMMA_MIN

    data = datasets.load(name, **({"n": n} if n else {}))
    rows = stratified_rows(len(data.X), data.y, MOTION_MAX_N)
    values = motion_values(gamma, low=GAMMA_MIN, high=GAMMA_MAX)
    anchor = int(np.argmin(np.abs(np.log(values / gamma))))
    motion = gamma_motion(data.X[rows], data.y[rows], kernel=kernel,
                          kernel_params=params, param="gamma", values=values,
                          anchor=anchor, rows=rows)
    fig = motion_figure(motion, data.y[rows], data.target_names)
    return data.X[rows], motion, json.loads(fig.to_json())


def frame_points(frame: dict) -> np.ndarray:
    return np.concatenate([np.c_[decode(t["x"]), decode(t["y"])] for t in frame["data"]
                           if "x" in t and t.get("marker", {}).get("symbol") != "square"])


def true_coordinates(X, kernel, gamma, components, **params) -> np.ndarray:
    """The frame's components from scikit-learn's KernelPCA (an independent fit)."""
    from sklearn.decomposition import KernelPCA

    k = int(max(components))
    Z = KernelPCA(k, kernel=kernel, gamma=gamma, eigen_solver="dense", **params
                  ).fit_transform(X)
    return Z[:, np.asarray(components) - 1]


@pytest.mark.parametrize(("name", "gamma", "n"), [("circles", 300.0, 400), ("moons", 150.0, 400),
                                                  ("circles", 5.0, 400)])
def test_every_frame_keeps_its_points_in_view_and_shows_its_true_scale(name, gamma, n):
    """Issue 33: the axes spanned a quantile pooled over all frames, so at large γ the few
    points components 1–2 pick out (45–88 % of the frame's variance) fell outside them;
    each frame was rescaled to unit RMS without saying so."""
    X, motion, spec = figure_of(name, "rbf", gamma, n)
    half = spec["layout"]["xaxis"]["range"][1]
    for i, frame in enumerate(spec["frames"]):
        points = frame_points(frame).astype(float)
        inside = np.all(np.abs(points) <= half, axis=1)
        assert inside.all(), (frame["name"], f"{(~inside).sum()} points off the axes")
        # The ticks carry the frame's true coordinates: the points' RMS distance from the
        # centre, read off the axes, is that of an independent fit (rotation-invariant).
        axes = frame["layout"]
        a, b = motion.components[i]
        assert axes["xaxis"]["title"]["text"] == f"component {a}"
        assert axes["yaxis"]["title"]["text"] == f"component {b}"
        unit = float(axes["xaxis"]["ticktext"][-1].replace("−", "-")) / half
        drawn = points * unit
        Z = true_coordinates(X, "rbf", float(motion.values[i]), [a, b])
        Z = Z - Z.mean(axis=0)
        rms = lambda P: float(np.sqrt(np.mean(np.sum(P**2, axis=1))))  # noqa: E731
        # (the tick label has two significant digits: up to 5 % off in its last digit)
        assert rms(drawn) == pytest.approx(rms(Z), rel=0.06), frame["name"]


def test_a_saturated_sigmoid_draws_no_rounding_noise():
    """Issue 33: for a saturated sigmoid a frame of size 1e-7 was magnified 10⁷× and drew
    rounding noise as structure; 'variance 0%' on every frame where trace(K̃) ≤ 0."""
    from sklearn.metrics.pairwise import sigmoid_kernel

    X, motion, spec = figure_of("iris", "sigmoid", 0.3, coef0=0.0)
    silent_frames = 0
    for i, frame in enumerate(spec["frames"]):
        gamma = float(motion.values[i])
        K = sigmoid_kernel(X, gamma=gamma, coef0=0.0)
        H = np.eye(len(X)) - 1.0 / len(X)
        mu = np.linalg.eigvalsh(H @ K @ H)[::-1]
        floor = 10 * len(X) * np.finfo(float).eps * np.abs(K).max()
        drawn_mu = mu[motion.components[i] - 1]
        points = frame_points(frame)
        title = frame["layout"]["title"]["text"]
        for c, value in enumerate(drawn_mu):
            if value <= 100 * floor:  # independently: rounding-sized, nothing to draw
                assert not np.any(points[:, c]), (frame["name"], value / floor)
        if np.all(drawn_mu <= 100 * floor):
            silent_frames += 1
            assert "every point" in title and "origin" in title, title
        trace = np.trace(H @ K @ H)
        assert ("variance 0%" not in title)
        if trace <= 0 and "origin" not in title:
            assert "no share of variance" in title, title
    assert silent_frames >= 3  # the frames past γ ≈ 0.5 on iris


def test_the_motion_is_queued_as_the_measured_work_it_is(monkeypatch):
    # Issue 34: its 21 fits were queued as 0.1 s of work (the quick lane) and took 4-16 s,
    # so a small view behind them waited 21-52 s, told "at least 1 s". Its estimate is the
    # cost model's, measured (benchmarks/calibrate_costs.py), and sends it out of the quick
    # lane; USPS's ten classes cost more than two circles.
    from experiments.morph import FRAMES
    from lessons.common import motion
    from server import costs
    from server.admission import QUICK_SECONDS, lane_for
    from server.memory import matrix_bytes

    asked = []
    real = motion.queued

    def recorded(n, **kwargs):
        asked.append((n, kwargs["estimate"]))
        return real(n, **kwargs)

    monkeypatch.setattr(motion, "queued", recorded)
    at = open_app("explorer", {"dataset": "circles", "n": 321, "kernel": "rbf", "gamma": 5})
    at.toggle(key="explorer_motion_on").set_value(True).run()
    assert_clean(at)
    (n, estimate), = asked
    frames = FRAMES
    assert n == 321 and estimate == costs.gamma_motion(321, 2, frames, classes=2)
    assert estimate.seconds > QUICK_SECONDS
    assert lane_for(matrix_bytes(n, copies=2), estimate) != "quick"
    assert (costs.gamma_motion(600, 256, frames, classes=10).seconds
            > costs.gamma_motion(600, 2, frames, classes=2).seconds
            > costs.gamma_motion(200, 2, frames, classes=2).seconds)
