"""γ in motion on the Explorer and Choosing γ (lessons.common.motion), in AppTest: what is computed
and sent, its bounds, and "Use γ = …" writing the sidebar's γ."""

from __future__ import annotations

import json

import numpy as np
import pytest

from experiments.morph import DEGREES, FRAMES, MOTION_MAX_N
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import decode

# Bytes of the motion's figure as the browser receives it: 21 frames of 400 points and
# K̃ (measured 0.10 MB), and of 600 points without K̃ (a sample of larger data).
MAX_MOTION_BYTES = 160_000


def motion_spec(at) -> tuple[dict, int]:
    """The animated chart's JSON (the one with frames) and its size in bytes."""
    (element,) = [e for e in at.get("plotly_chart") if '"frames"' in e.proto.spec]
    return json.loads(element.proto.spec), len(element.proto.spec.encode())


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
    picker = at.select_slider(key="explorer_motion_frame")
    assert picker.value == "5" and picker.options == steps
    picker.set_value("13").run()
    i = steps.index("13")
    frame = spec["frames"][i]
    assert frame["name"] == "13" and "γ = 13 ·" in frame["layout"]["title"]["text"]
    button = at.button(key="explorer_motion_use")
    assert button.label == "Use γ = 13"
    button.click().run()
    assert_clean(at)
    assert at.session_state["w_gamma"] == 13.0
    # The frames are now centred on γ = 13, on the page's components 1 and 2.
    spec, _ = motion_spec(at)
    assert spec["layout"]["title"]["text"].startswith("γ = 13 · components 1 and 2<br>")
    assert at.select_slider(key="explorer_motion_frame").value == "13"
    assert at.button(key="explorer_motion_use").disabled


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
    at.select_slider(key="gamma_motion_frame").set_value("4").run()
    at.button(key="gamma_motion_use").click().run()
    assert_clean(at)
    assert at.session_state["w_degree"] == 4 and at.session_state["w_gamma"] == 1.0


@pytest.mark.parametrize("kernel", ["linear", "cosine"])
def test_no_motion_without_a_parameter_to_sweep(kernel):
    at = open_app("explorer", {"dataset": "circles", "n": 100, "kernel": kernel})
    assert_clean(at)
    assert "explorer_motion_on" not in [t.key for t in at.toggle]


def test_the_motion_is_queued_as_the_measured_work_it_is(monkeypatch):
    # Issue 34: its 21 fits were queued as 0.1 s of work (the quick lane) and took 4-16 s,
    # so a small view behind them waited 21-52 s, told "at least 1 s". Its estimate is the
    # cost model's, measured (benchmarks/calibrate_costs.py), and sends it out of the quick
    # lane; USPS's ten classes cost more than two circles.
    from experiments.morph import FRAMES
    from lessons.common import motion
    from shell import costs
    from shell.admission import QUICK_SECONDS, lane_for
    from shell.memory import matrix_bytes

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
