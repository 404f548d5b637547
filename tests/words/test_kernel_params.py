"""Each kernel parameter is declared once (words/kernel_params.py); the link parser,
the sidebar's controls, the locks and γ's grid are derived from that declaration."""

from __future__ import annotations

import math

import pytest

from kpca_core import KERNELS
from shell import locks, state
from tests.support.apptest import assert_clean, open_app
from words.kernel_params import GAMMA, GAMMA_GRID, KERNEL_PARAMS


def test_every_parameter_a_kernel_uses_is_declared():
    used = {name for info in KERNELS.values() for name in info.params}
    assert used == set(KERNEL_PARAMS)
    assert list(state.Q_PARAMS) == list(KERNEL_PARAMS)


@pytest.mark.parametrize("name", list(KERNEL_PARAMS))
def test_a_link_may_ask_for_exactly_the_declared_range(name):
    param = KERNEL_PARAMS[name]
    for inside in (param.low, param.high):
        value, problem = state.parse_kernel_param(name, str(inside))
        assert problem is None and value == inside
    beyond = (param.low / 10, param.high * 10) if param.log_scale else (param.low - 1,
                                                                         param.high + 1)
    for outside in beyond:
        value, problem = state.parse_kernel_param(name, str(outside))
        assert value is None and problem, outside
    settings, warnings = state.settings_from_query({"kernel": "poly", name: str(beyond[1])})
    assert getattr(settings, name) == getattr(state.default_settings(), name)
    assert any(f"`{name}`" in w for w in warnings)


def test_gamma_moves_on_its_grid_from_end_to_end():
    assert GAMMA_GRID[0] == GAMMA.low and GAMMA_GRID[-1] == GAMMA.high
    mantissas = {round(g / 10 ** math.floor(math.log10(g) + 1e-9)) for g in GAMMA_GRID}
    assert mantissas == {1, 2, 3, 5}
    assert list(GAMMA_GRID) == sorted(GAMMA_GRID)


def test_every_parameter_can_be_locked_under_its_declared_name():
    for name, param in KERNEL_PARAMS.items():
        assert locks.LOCKABLE[name] == param.lock_name


def test_the_sidebar_offers_the_declared_range_label_and_help():
    at = open_app("explorer", {"dataset": "circles", "kernel": "poly", "gamma": "1",
                               "degree": "3", "coef0": "1"})
    assert_clean(at)
    sliders = {s.label: s for s in at.sidebar.slider}
    for param in KERNEL_PARAMS.values():
        if param.log_scale:
            control = next(s for s in at.sidebar.select_slider if s.label == param.label)
            assert float(control.options[0]) == param.low
            assert float(control.options[-1]) == param.high
        else:
            control = sliders[param.label]
            assert (control.min, control.max) == (param.low, param.high)
        assert control.help == param.help
