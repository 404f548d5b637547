"""AppTest of the Scale page: the numbers shown are the experiments' numbers.

Small data (circles, n = 200) and a small range of n, so the page runs in seconds.
"""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from kpca_core import choose_eigen_solver
from lessons.scale import approx_view as scale_approx_view
from lessons.scale import approximations as approx
from lessons.scale import experiment as scaling
from lessons.scale import view as scale_view
from server import memory
from server.budget import WORKER_BYTES
from server.worker import WORKER_WHAT
from shell import state
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.lessons import checks_shown, query
from tests.support.plotly_json import chart_specs, decode, find_chart, title

QUERY = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 10}


def settings_of(query: dict) -> state.Settings:
    settings, warnings = state.settings_from_query({k: str(v) for k, v in query.items()})
    assert not warnings
    return settings


def traces(spec: dict) -> dict[str, dict]:
    return {trace.get("name", ""): trace for trace in spec["data"]}


def test_memory_section_shows_the_guards_numbers():
    at = open_app("scale", QUERY)
    assert_clean(at)
    assert at.title[0].value == "Scale"
    metrics = {m.label: m.value for m in at.metric}
    budget = memory.budget_bytes()
    assert metrics["Budget per computation"] == memory.format_bytes(budget)
    assert metrics["Largest n for K alone"] == f"{memory.largest_square(1, budget):,}"
    assert metrics["Largest n for K̃ + a copy"] == f"{memory.largest_square(2, budget):,}"
    refusal = memory.memory_problem(scale_view.TRY_N_DEFAULT)
    assert refusal is not None and any(refusal in i.value for i in at.info)
    at.number_input(key="scale_try_n").set_value(5000).run()
    assert any("n = 5,000 fits: K needs 200.0 MB" in s.value for s in at.success)


def test_measurement_shows_slopes_recomputed_from_the_charts_data():
    at = open_app("scale", QUERY)
    assert not any(title(spec).startswith("Time of each step") for spec in chart_specs(at))
    slider = next(s for s in at.select_slider if s.key.startswith("scale_range_"))
    slider.set_value((100, 400))
    next(b for b in at.button if b.label == "Measure").click()
    at.run()
    assert_clean(at)
    spec = find_chart(at, "Time of each step against n")
    by_name = traces(spec)
    table = at.dataframe[0].value  # the slope table comes first
    for step in scaling.STEPS:
        name_of_step = scaling.STEP_TITLES[step]
        trace = next(t for name, t in by_name.items() if name.startswith(name_of_step + ":"))
        sizes, seconds = decode(trace["x"]), decode(trace["y"])
        assert sizes.tolist() == scaling.size_ladder(100, 400, points_per_doubling=2)
        slope = scaling.fitted_exponent(sizes, seconds)
        shown = table.loc[table["step"] == name_of_step, "fitted slope"].item()
        assert shown == pytest.approx(slope, rel=1e-12)
        assert f"slope {slope:.2f} (theory {scaling.THEORY_EXPONENT[step]})" in trace["name"]
        theory = table.loc[table["step"] == name_of_step, "theory"].item()
        assert theory == scaling.THEORY_EXPONENT[step]
    rings = next(t for name, t in by_name.items() if "auto" in name)
    k = settings_of(QUERY).n_components
    assert list(rings["customdata"]) == [choose_eigen_solver(int(n), k) for n in sizes]
    # The ring sits on the picked solver's own point.
    for i, solver in enumerate(rings["customdata"]):
        picked = next(t for name, t in by_name.items()
                      if name.startswith(scaling.STEP_TITLES[solver] + ":"))
        assert decode(rings["y"])[i] == decode(picked["y"])[i]
    # The plain-words section extrapolates the same fitted lines.
    far = memory.largest_square(scale_view.MEASURE_COPIES)
    lines = {step: scaling.fitted_line(decode(t["x"]), decode(t["y"]))
             for step in ("dense", "arpack")
             for name, t in by_name.items() if name.startswith(scaling.STEP_TITLES[step] + ":")}
    dense_far = np.exp(lines["dense"][1]) * far ** lines["dense"][0]
    arpack_far = np.exp(lines["arpack"][1]) * far ** lines["arpack"][0]
    text = next(md.value for md in at.markdown if "From your measurement" in md.value)
    assert f"n = {far:,}" in text
    assert f"about {dense_far:,.0f} s for the dense solver and {arpack_far:,.1f} s" in text
    # The memory chart names its limit and its budget as the metrics do, in one format
    # (issue 23: "largest n the guard allows here: 8,192" beside "largest n for K alone
    # 11,585"; "1.1 GB" beside "1.07 GB").
    metrics = {m.label: m.value for m in at.metric}
    names = list(traces(find_chart(at, "Memory each step adds")))
    assert f"Largest n for K̃ + a copy: {metrics['Largest n for K̃ + a copy']}" in names
    assert f"budget per computation ({metrics['Budget per computation']})" in names
    assert not any("guard allows" in name for name in names)
    # A rerun (another widget) keeps the same measurement instead of timing again.
    at.number_input(key="scale_try_n").set_value(3000).run()
    again = traces(find_chart(at, "Time of each step against n"))
    assert decode(again[trace["name"]]["y"]).tolist() == seconds.tolist()


def test_live_timing_is_capped_and_each_size_takes_its_own_turn(monkeypatch):
    # Nothing above LIVE_MAX_N is timed live; each n of the ladder asks the server's queue
    # for a turn of its own, with an estimate that grows with n and says "at least"
    # (ARPACK's restarts are not known in advance).
    turns: list[tuple[int, object]] = []
    real = scale_view.queued

    def recorded(n, *, copies, estimate, what, in_worker):
        assert in_worker  # timed in the server's worker process, in its lane
        turns.append((n, estimate))
        return real(n, copies=copies, estimate=estimate, what=what, in_worker=in_worker)

    monkeypatch.setattr(scale_view, "queued", recorded)
    at = open_app("scale", {**QUERY, "n": 5000, "seed": 3})
    slider = next(s for s in at.select_slider if s.key.startswith("scale_range_"))
    assert int(slider.options[-1].replace(",", "")) == scale_view.LIVE_MAX_N
    assert not [c for c in at.checkbox if c.key == "scale_long"]  # no opt-in any more
    slider.set_value((100, 400))
    next(b for b in at.button if b.label == "Measure").click()
    at.run()
    assert_clean(at)
    ladder = scaling.size_ladder(100, 400, points_per_doubling=2)
    assert [n for n, _ in turns] == ladder
    seconds = [estimate.seconds for _, estimate in turns]
    assert seconds == sorted(seconds) and seconds[0] > 0
    assert all(estimate.at_least for _, estimate in turns)
    assert find_chart(at, "Time of each step against n")


def test_range_is_capped_by_the_memory_budget(monkeypatch):
    # The worker process the timing runs in, and 8 MiB: K̃ + a copy for n <= 724.
    monkeypatch.setenv(memory.BUDGET_ENV, str(WORKER_BYTES // 2**20 + 8))
    at = open_app("scale", {**QUERY, "n": 1000})
    slider = next(s for s in at.select_slider if s.key.startswith("scale_range_"))
    assert int(slider.options[-1].replace(",", "")) == scale_view.largest_timed() == 724
    # Exact kernel PCA of the 1,000 points does not fit: the guard's refusal is shown.
    refusal = memory.memory_problem(1000, copies=2, what="exact kernel PCA (K̃ and a copy)",
                                    extra=(WORKER_BYTES, WORKER_WHAT))
    assert f"plus {memory.format_bytes(WORKER_BYTES)} for the worker process that" in refusal
    assert refusal is not None and any(refusal in e.value for e in at.error)
    assert "4 · When to use which" in [h.value for h in at.header]  # the rest still runs


def test_approximations_show_the_experiments_values():
    at = open_app("scale", QUERY)
    assert_clean(at)
    settings = settings_of(QUERY)
    X = datasets.load("circles", **settings.options).X
    params = settings.kernel_params()
    k = settings.n_components
    exact = approx.exact_kpca(X, k, kernel="rbf", kernel_params=params)
    eig = traces(find_chart(at, f"Top {k} eigenvalues of K̃"))
    np.testing.assert_allclose(decode(eig["exact (kpca_core)"]["y"]), exact.eigenvalues,
                               rtol=1e-10)
    m, D = scale_approx_view.DEFAULT_M, scale_approx_view.DEFAULT_D
    nys = approx.approximate_and_compare(X, exact, "nystroem", m, kernel="rbf",
                                         kernel_params=params)
    rff = approx.approximate_and_compare(X, exact, "rff", D, kernel="rbf", kernel_params=params)
    np.testing.assert_allclose(decode(eig[f"Nyström, m = {m}"]["y"]), nys.eigenvalues,
                               rtol=1e-8)
    np.testing.assert_allclose(decode(eig[f"Random Fourier features, D = {D}"]["y"]),
                               rff.eigenvalues, rtol=1e-8)
    errors = [mt.value for mt in at.metric if mt.label == f"Eigenvalue error (top {k})"]
    assert errors == [f"{100 * nys.max_relative_error:.2f} %",
                                       f"{100 * rff.max_relative_error:.2f} %"]
    angles = [mt.value for mt in at.metric if "principal angle" in mt.label]
    assert angles == [f"{nys.largest_angle_degrees:.2f}°", f"{rff.largest_angle_degrees:.2f}°"]
    # The error curves are the sweep's numbers, size by size.
    curve = traces(find_chart(at, "Eigenvalue error against m or D"))["Nyström (m)"]
    sizes = decode(curve["x"])
    assert sizes.tolist() == approx.usable_sizes(scale_approx_view.LANDMARKS, k, len(X))
    expected = [r.max_relative_error for r in approx.sweep(
        X, exact, "nystroem", sizes, kernel="rbf", kernel_params=params)]
    np.testing.assert_allclose(decode(curve["y"]), 100 * np.array(expected), rtol=1e-6)  # in %
    # The overlay is the aligned approximation: rings = exact scores.
    overlay = traces(find_chart(at, f"Nyström (m = {m}) over exact"))
    np.testing.assert_allclose(np.abs(decode(overlay["exact"]["x"])),
                               np.abs(exact.projection[:, 0]), rtol=1e-8, atol=1e-10)
    # The live check: Nyström with m = n reproduces the eigenvalues.
    assert any("Nyström with m = n = 200" in md.value and "✓" in md.value for md in at.markdown)


def test_changing_m_redraws_without_recomputing():
    at = open_app("scale", QUERY)
    at.select_slider(key="scale_size_nystroem").set_value(20).run()
    assert_clean(at)
    find_chart(at, "Nyström (m = 20) over exact")
    assert any("Nyström, m = 20" in name for name in traces(find_chart(at, "Top 3")))


def test_a_kernel_without_random_features_offers_rbf():
    at = open_app("scale", {**QUERY, "kernel": "laplacian", "gamma": 1})
    assert_clean(at)
    assert any("only the RBF kernel" in i.value for i in at.info)
    assert "Random Fourier features (D)" not in traces(
        find_chart(at, "Eigenvalue error against m or D"))
    at.button(key="scale_use_rbf").click().run()
    assert_clean(at)
    assert at.selectbox(key="w_kernel").value == "rbf"
    assert "Random Fourier features (D)" in traces(find_chart(at, "Eigenvalue error against"))


def test_too_few_points_for_a_timing_say_so():
    at = open_app("scale", {"dataset": "circles", "n": 50, "kernel": "rbf"})
    assert_clean(at)
    assert any("too few to see costs grow" in i.value for i in at.info) is False
    # circles are generated with up to 5,000 points whatever the sidebar's n: a range exists
    assert any(s.key.startswith("scale_range_") for s in at.select_slider)


def test_slope_note_names_only_the_steps_off_their_theory():
    sizes = np.array([500, 1000, 2000])
    powers = {"build": 2.0, "centre": 1.2, "dense": 3.0, "arpack": 2.9, "randomized": 2.1}
    run = scaling.ScalingRun(
        sizes=sizes, seconds={s: 1e-8 * sizes.astype(float) ** p for s, p in powers.items()},
        auto_solver=("arpack",) * 3, n_components=3, n_features=2)
    note = scale_view.slope_note(run)
    assert "below theory (centre K (in place))" in note
    assert "above theory (ARPACK (Lanczos))" in note
    assert "ms" not in note  # the dense step takes 80 s here: not a millisecond timing
    quick = scaling.ScalingRun(sizes=sizes, seconds={s: 1e-12 * sizes.astype(float) ** 2
                                                     for s in powers},
                               auto_solver=("arpack",) * 3, n_components=3, n_features=2)
    longest_ms = 1000 * 1e-12 * sizes.max() ** 2  # the largest n's time, in ms
    assert f"at most {longest_ms:.2g} ms" in scale_view.slope_note(quick)


@pytest.mark.parametrize("query", [{"kernel": "sigmoid", "gamma": 0.5, "coef0": -1},
                                   {"kernel": "poly", "gamma": 1, "degree": 3, "coef0": -1}],
                         ids=["sigmoid", "poly-negative-c0"])
def test_indefinite_kernels_get_no_false_check(query):
    at = open_app("scale", {**QUERY, **query})
    assert_clean(at)  # no red failed check: m = n is not exact for these kernels, and says so
    captions = " ".join(c.value for c in at.caption)
    assert "not positive semi-definite" in captions
    assert "because this kernel is indefinite" in captions
    assert not any("Check" in md.value for md in at.markdown)


@needs_usps
def test_large_n_waits_for_a_button_before_comparing():
    at = open_app("scale", {"dataset": "usps", "n": 3000, "kernel": "rbf", "gamma": 0.004})
    assert_clean(at)
    settings = settings_of({"dataset": "usps", "n": 3000, "kernel": "rbf", "gamma": 0.004})
    plans = scale_approx_view.planned_sizes(settings.kernel, settings.n_components, 3000)
    count = sum(len(v) for v in plans.values())
    assert count == len(scale_approx_view.LANDMARKS) + len(scale_approx_view.FEATURES)
    assert any(f"and {count} approximations" in i.value and "Press the button" in i.value
               for i in at.info)
    assert at.button(key="scale_compare").label == "Compare with exact kernel PCA"
    assert not any(title(spec).startswith("Top") for spec in chart_specs(at))


def test_a_tiny_gamma_checks_nystroem_with_every_landmark_within_rounding():
    at = open_app("scale", query("rbf", gamma="1e-06"))
    assert_clean(at)
    assert not [e.value for e in at.error]  # showed 1.2e-04 ✗ against 1.0e-06
    shown = checks_shown(at)
    (label,) = [k for k in shown if k.startswith("Nyström with m = n")]
    assert "within rounding of 0: left out" in label


def test_a_zero_centred_kernel_says_there_is_nothing_to_approximate():
    # Issue 34: iris with the sigmoid at γ = 1 (tanh(γ xᵀy) = 1 for every pair: K̃ = 0)
    # raised "zero-size array to reduction operation maximum which has no identity".
    at = open_app("scale", {"dataset": "iris", "kernel": "sigmoid", "gamma": 1, "coef0": 0})
    assert_clean(at)
    assert any("K̃ has no positive eigenvalue" in i.value for i in at.info)
    assert "4 · When to use which" in [h.value for h in at.header]
    angles = approx.Approximation("nystroem", 10, np.zeros(2), np.zeros(2), np.zeros(0),
                                  np.zeros((3, 2)), 0.0, 0.0, 0)
    assert np.isnan(angles.largest_angle_degrees)
