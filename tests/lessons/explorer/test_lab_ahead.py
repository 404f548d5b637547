"""The lab's first views filled ahead into the machine's shared cache
(lessons/explorer/prepare.py: lab_settings, fill_one, start_lab)."""

from __future__ import annotations

import dataclasses
import math
import time

import pytest

import datasets
from experiments.kernel_diagnostics import GAMMA_KERNELS
from lessons.common import analysis as common_analysis
from lessons.common import gamma_hint
from lessons.explorer import prepare as lab
from lessons.explorer import projections
from server import ahead, shared_cache
from shell.state import default_options, default_settings
from tests.server.test_shared_cache import disk  # noqa: F401  (a fixture)
from words.kernel_params import GAMMA_GRID


def test_the_plan_is_every_dataset_kernel_and_grid_gamma_nearest_the_defaults_first(
        monkeypatch):
    monkeypatch.setattr(lab, "_loadable", lambda dataset: True)
    plan = lab.lab_settings()
    names = list(datasets.available())
    assert len(plan) == len(names) * (1 + len(GAMMA_KERNELS) * len(GAMMA_GRID))
    assert len({(s.dataset, s.kernel, s.gamma if s.kernel != "linear" else None)
                for s in plan}) == len(plan)
    assert all(s.dataset_options == default_options(s.dataset) and s.n_components == 3
               and s.degree == 3 and s.coef0 == 1.0 for s in plan)
    # Each dataset's own setting comes before anything further from it.
    circles = [s for s in plan if s.dataset == "circles" and s.kernel == "rbf"]
    assert circles[0].gamma == default_settings("circles").gamma == 5.0
    distance = [abs(math.log10(s.gamma / 5.0)) for s in circles]
    assert distance == sorted(distance)
    assert plan.index(circles[0]) < len(names) * 5  # among the first few


def test_a_dataset_that_cannot_load_is_left_out(monkeypatch):
    monkeypatch.setattr(lab, "_loadable", lambda dataset: dataset != "usps")
    assert {s.dataset for s in lab.lab_settings()} == set(datasets.available()) - {"usps"}


def _toy(gamma=10.0):
    return dataclasses.replace(default_settings("scholkopf_toy"), gamma=gamma)


def _never(*args, **kwargs):
    raise AssertionError("computed, not read from the shared cache")


def test_a_filled_setting_is_a_read_for_the_page_and_leaves_the_process_stores_alone(
        disk, monkeypatch):  # noqa: F811
    before = len(common_analysis.explorer_analysis.server_store)
    assert lab.fill_one(_toy())
    assert len(common_analysis.explorer_analysis.server_store) == before  # disk only
    assert not lab.fill_one(_toy())  # done: nothing computed twice
    # The page's first view (lab.prepare calls what the page calls): nothing computed.
    for module, name in ((common_analysis, "analyse"), (projections, "linear_separability"),
                         (gamma_hint.gamma_guidance, "search"),
                         (gamma_hint.gamma_guidance, "advise")):
        monkeypatch.setattr(module, name, _never)
    lab.prepare(_toy())


def test_a_setting_another_process_claimed_is_left_to_it(disk):  # noqa: F811
    assert shared_cache.claim(lab.label(_toy(20.0)))  # "another replica" is on it
    assert not lab.fill_one(_toy(20.0))
    assert len(shared_cache.prefill_cache()) == 1  # only the claim


def test_the_fill_stops_when_the_cache_is_nearly_full(disk, monkeypatch):  # noqa: F811
    monkeypatch.setattr(shared_cache, "fullness", lambda: lab.FILL_UP_TO)
    assert not lab.fill_one(_toy(30.0))


def test_no_plan_without_a_shared_cache(monkeypatch):
    monkeypatch.setenv(shared_cache.ENV, "off")
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setenv(shared_cache.FILL_ENV, "1")
    assert lab.start_lab() is None and ahead.progress(lab.LAB_PLAN) is None


def test_no_plan_unless_the_host_asks_for_the_fill(disk, monkeypatch):  # noqa: F811
    # A student's laptop, a host that wakes up cold: no minutes of a core at start-up.
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.delenv(shared_cache.FILL_ENV, raising=False)
    monkeypatch.setattr(ahead, "_plans", {})
    assert lab.start_lab() is None and ahead.progress(lab.LAB_PLAN) is None
    monkeypatch.setenv(shared_cache.FILL_ENV, "0")
    assert lab.start_lab() is None


def test_the_plan_runs_in_the_background_of_the_queue(disk, monkeypatch):  # noqa: F811
    seen = []
    monkeypatch.setenv(ahead.ENV, "1")
    monkeypatch.setenv(shared_cache.FILL_ENV, "1")
    monkeypatch.setattr(ahead, "_plans", {})
    monkeypatch.setattr(lab, "lab_settings", lambda: [_toy(2.0)])
    monkeypatch.setattr(lab, "fill_one", lambda s: seen.append(
        ahead.admission.in_background()))
    plan = lab.start_lab()
    for _ in range(200):
        if plan.finished:
            break
        time.sleep(0.05)
    assert plan.finished and seen == [True]


@pytest.mark.parametrize("gamma", [GAMMA_GRID[0], GAMMA_GRID[-1]])
def test_the_ends_of_the_grid_fill_without_error(disk, gamma):  # noqa: F811
    assert lab.fill_one(dataclasses.replace(_toy(), gamma=gamma))
