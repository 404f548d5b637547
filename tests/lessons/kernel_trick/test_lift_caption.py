"""The kernel trick's lift caption (issue 22, item 8): a plane in the c₀ = 0 lift is a conic
centred at the origin, so when none splits the classes the caption says that much and
measures the general conic (with the x₁, x₂ terms c₀ > 0 adds) instead of ruling out every
quadratic curve."""

from __future__ import annotations

import re

import numpy as np

import datasets
from experiments import feature_maps as fm
from tests.support.apptest import assert_clean, open_app


def lift_caption(at) -> str:
    return next(c.value for c in at.caption if "on the lifted points" in c.value)


def test_moons_are_not_split_by_a_centred_conic_and_the_general_one_is_measured():
    at = open_app("kernel_trick", {"dataset": "moons", "n": 200, "kernel": "poly",
                                   "gamma": 1, "degree": 2, "coef0": 1})
    assert_clean(at)
    caption = lift_caption(at)
    assert "not split by a quadratic curve" not in caption
    assert "conic centred at the origin" in caption
    data = datasets.load("moons", n=200)
    full = np.column_stack([data.X, fm.quadratic_lift(data.X, gamma=1.0)])
    conic = fm.separating_plane(full, data.y).accuracy
    shown = int(re.search(r"the best one puts (\d+)% on their side", caption).group(1))
    assert shown == round(100 * conic)
    assert ("no quadratic curve splits them either" in caption) == (conic < 0.99)
