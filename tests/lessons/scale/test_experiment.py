"""lessons.scale.experiment: fitted exponents, the memory model, and a real small measurement.

No timing thresholds: timings on a shared machine are noisy. The measured exponents
are only required to be positive and below 4 (nothing here grows faster than n³).
"""

from __future__ import annotations

import math
import tracemalloc

import numpy as np
import pytest

from kpca_core import center_kernel, choose_eigen_solver, compute_kernel, eigendecompose
from lessons.scale import experiment as scaling


def test_fitted_exponent_recovers_a_power_law():
    n = np.array([100, 200, 400, 800])
    for power in (1.0, 2.0, 3.0, 2.5):
        assert scaling.fitted_exponent(n, 3e-9 * n**power) == pytest.approx(power, abs=1e-12)
    slope, intercept = scaling.fitted_line(n, 2.0 * n**2)
    assert (slope, math.exp(intercept)) == (pytest.approx(2.0), pytest.approx(2.0))


def test_fitted_exponent_ignores_unusable_timings():
    n = np.array([100, 200, 400, 800])
    t = 1e-6 * n.astype(float) ** 3
    t[1] = 0.0  # a timer that returned 0 cannot be on a log axis
    t[2] = np.inf  # a step that never ran
    assert scaling.fitted_exponent(n, t) == pytest.approx(3.0)
    assert math.isnan(scaling.fitted_exponent([100, 100], [1.0, 2.0]))
    assert math.isnan(scaling.fitted_exponent([100], [1.0]))


def test_prediction_follows_the_fitted_power_law():
    sizes = np.array([250, 500, 1000])
    run = scaling.ScalingRun(
        sizes=sizes, seconds={"dense": 1e-9 * sizes.astype(float) ** 3},
        auto_solver=("arpack",) * 3, n_components=3, n_features=2,
    )
    assert scaling.predicted_seconds(run, "dense", 8000) == pytest.approx(1e-9 * 8000**3)


def test_size_ladder_is_increasing_and_keeps_both_ends():
    ladder = scaling.size_ladder(250, 2000, points_per_doubling=2)
    assert ladder[0] == 250 and ladder[-1] == 2000
    assert ladder == sorted(set(ladder)) and len(ladder) == 7
    assert scaling.size_ladder(100, 7291)[-1] == 7291
    with pytest.raises(ValueError):
        scaling.size_ladder(500, 100)


def test_nested_subsets_grow_by_adding_points():
    subsets = scaling.nested_subsets(1000, [100, 300, 1000], seed=3)
    assert [len(s) for s in subsets] == [100, 300, 1000]
    assert set(subsets[0]) <= set(subsets[1]) <= set(subsets[2])
    with pytest.raises(ValueError):
        scaling.nested_subsets(100, [50, 200])


def test_measured_exponents_on_a_small_range_are_positive_and_below_four():
    X = np.random.default_rng(0).normal(size=(1200, 30))
    run = scaling.measure_scaling(X, [300, 600, 1200], 3, kernel="rbf",
                                  kernel_params={"gamma": 1 / 30}, repeats=3)
    assert run.sizes.tolist() == [300, 600, 1200]
    for step in scaling.STEPS:
        assert np.all(run.seconds[step] > 0), step
        assert 0 < run.exponent(step) < 4, (step, run.seconds[step])


def test_auto_solver_is_kpca_cores_choice_at_each_n():
    X = np.random.default_rng(1).normal(size=(400, 3))
    run = scaling.measure_scaling(X, [150, 400], 20, kernel="rbf", kernel_params={"gamma": 1.0})
    assert run.auto_solver == (choose_eigen_solver(150, 20), choose_eigen_solver(400, 20))
    assert run.auto_solver == ("dense", "dense")  # k = 20 > max(9, 400 // 45)
    run = scaling.measure_scaling(X, [150, 400], 3, kernel="rbf", kernel_params={"gamma": 1.0})
    assert run.auto_solver == ("dense", "arpack")  # n <= 200 is always dense


def test_measure_once_refuses_too_few_points():
    with pytest.raises(ValueError, match="at least"):
        scaling.measure_once(np.zeros((4, 2)), 3, kernel="rbf", kernel_params={})


@pytest.mark.parametrize(("n", "k", "d"), [(600, 2, 256), (900, 10, 20)])
def test_memory_model_matches_what_numpy_allocates(n, k, d):
    """The modelled bytes of each step against tracemalloc's peak on this process."""
    X = np.random.default_rng(2).normal(size=(n, d))
    measured = {}

    def traced(step, func):
        tracemalloc.reset_peak()
        base = tracemalloc.get_traced_memory()[0]
        value = func()
        measured[step] = tracemalloc.get_traced_memory()[1] - base
        return value

    tracemalloc.start()
    try:
        K = traced("build", lambda: compute_kernel(X, kernel="rbf", gamma=1 / d))
        Kc = traced("centre", lambda: center_kernel(K, copy=False))
        for solver in scaling.SOLVERS:
            traced(solver, lambda s=solver: eigendecompose(Kc, k, solver=s, random_state=0,
                                                           check_finite=False))
    finally:
        tracemalloc.stop()
    for step in scaling.STEPS:
        model = scaling.step_memory_bytes(step, n, d, k)
        tolerance = 0.05 if step in ("build", "dense") else 0.35
        assert abs(model - measured[step]) <= tolerance * measured[step], (
            step, model, measured[step])


def test_peak_is_about_two_matrices_as_the_page_guards():
    n = 7291
    two = 2 * 8 * n * n
    assert two < scaling.peak_bytes(n, 256, 20) < 1.01 * two
    with pytest.raises(ValueError):
        scaling.step_memory_bytes("transpose", 10, 2, 1)
