"""Sections of the Scale page: the memory budget, live timings against n, and the text.

The approximations (Nyström, random Fourier features) live in
:mod:`lessons.scale.approx_view`. The experiments themselves are
:mod:`lessons.scale.experiment` and :mod:`lessons.scale.approximations`; this module only
chooses the inputs, caches, and draws.
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

import datasets
from experiments.analysis import DENSE_MAX_N, DISPLAY_HEATMAP_SIDE, ITERATIVE_TOP, standardized
from lessons.scale import experiment as scaling
from lessons.scale import figures
from lessons.scale.sections import (
    LARGEST_ALONE,
    LARGEST_MEASURED,
    LIVE_MAX_N,
    MEASURE_COPIES,
    SMALLEST_N,
    largest_live,
    largest_timed,
    memory_chart,
    n_option,
    pool_size,
)
from shell import costs, memory
from shell.admission import queued, server_worker
from shell.budget import WORKER_BYTES
from shell.caches import Inputs
from shell.charts import show_chart
from shell.display import number_caption
from shell.state import Settings
from shell.worker import WORKER_WHAT

# The default range (lessons.scale.experiment, also timed by the benchmark). The limits
# (LIVE_MAX_N and the others) are in lessons.scale.sections, which the offline lecture reads.
MEASURE_WHAT = "K̃ and the dense eigensolver's working copy"
DEFAULT_RANGE = scaling.DEFAULT_RANGE
POINTS_PER_DOUBLING = scaling.POINTS_PER_DOUBLING
REPEATS = scaling.DEFAULT_REPEATS
RUN_KEY = "_scale_run"
TRY_N_DEFAULT = 20_000


# --------------------------------------------------------------------------- memory


def memory_section() -> None:
    """What the budget allows, and the guard's answer for an n the student types."""
    budget = memory.budget_bytes()
    alone = memory.largest_square(1, budget)
    measured = memory.largest_square(MEASURE_COPIES, budget)
    st.write(
        "K holds n² numbers of 8 bytes each. Before any n × n computation every page asks "
        "one function, `shell.memory.memory_problem`, whether it fits this server's budget "
        f"(the setting `{memory.BUDGET_ENV}`, default {memory.DEFAULT_BUDGET_MB:,} MiB = "
        f"{memory.format_bytes(memory.DEFAULT_BUDGET_MB * 2**20)}), "
        "and refuses in plain words when it does not."
    )
    cols = st.columns(3)
    cols[0].metric("Budget per computation", memory.format_bytes(budget))
    cols[1].metric(LARGEST_ALONE, f"{alone:,}")
    cols[2].metric(LARGEST_MEASURED, f"{measured:,}",
                   help="What the timing below needs: LAPACK works on a copy of K̃.")
    try_n = st.number_input(
        "Try an n: what would the guard say about K alone?", min_value=2, max_value=10**7,
        value=TRY_N_DEFAULT, step=1000, key="scale_try_n",
    )
    problem = memory.memory_problem(int(try_n), budget=budget)
    if problem is None:
        st.success(f"n = {int(try_n):,} fits: K needs "
                   f"{memory.format_bytes(memory.matrix_bytes(int(try_n)))}.",
                   icon=":material/check_circle:")
    else:
        st.info(f"The guard would refuse: “{problem}”", icon=":material/block:")


# --------------------------------------------------------------------------- timings


@st.cache_resource(max_entries=2, show_spinner=False)
def _pool(dataset: str, options: tuple, pool_n: int, standardize: bool) -> np.ndarray:
    """The current dataset generated with ``pool_n`` points (same options otherwise)."""
    X = datasets.load(dataset, **{**dict(options), "n": pool_n}).X
    X = standardized(X) if standardize else np.array(X, dtype=np.float64)
    X.setflags(write=False)
    return X


def measurement_pool(settings: Settings, inputs: Inputs) -> tuple[np.ndarray, str]:
    """Points to draw the subsets from, and a sentence saying where they come from.

    Datasets with an "n" option are generated with as many points as they offer (and
    the memory guard allows), the other options unchanged; the others (iris, an
    upload) are used as they are.
    """
    if n_option(settings.dataset) is None:
        X = inputs.X
        return X, f"all {len(X):,} points of the current dataset"
    pool_n = pool_size(settings.dataset, len(inputs.X))
    X = _pool(settings.dataset, settings.dataset_options, pool_n, settings.standardize)
    return X, (f"the current dataset with its options, generated with {len(X):,} points; "
               "each smaller n is a random subset of the larger ones")


def size_choices(largest: int) -> list[int]:
    """The n offered by the range slider: about three per doubling up to ``largest``."""
    if largest <= SMALLEST_N:
        return [largest]
    return scaling.size_ladder(SMALLEST_N, largest, points_per_doubling=3)


def _snap(value: int, choices: list[int]) -> int:
    return min(choices, key=lambda c: abs(c - value))


def scaling_section(settings: Settings, inputs: Inputs) -> scaling.ScalingRun | None:
    """Range controls, a measurement on request (with a progress bar) and its charts.

    Nothing is timed until the button is pressed: a page visit by every student of a
    class must not start a measurement each on a shared server.
    """
    X, origin = measurement_pool(settings, inputs)
    k = settings.n_components
    cap = largest_timed()
    largest = largest_live(len(X))
    if largest < max(SMALLEST_N, k + 3):
        if cap < len(X):
            st.info(f"This server's memory budget ({memory.format_bytes(memory.budget_bytes())} "
                    f"per computation, of which {memory.format_bytes(WORKER_BYTES)} for "
                    f"{WORKER_WHAT}) leaves room to time n up to {cap:,} only: too few to see "
                    "costs grow.", icon=":material/memory:")
        else:
            st.info(f"The current dataset has {len(X)} points: too few to see costs grow. "
                    "Pick USPS or a synthetic dataset in the sidebar.", icon=":material/info:")
        return None
    choices = size_choices(largest)
    limits = ("the live limit: beyond it the dense solver's n³ would hold the shared server "
              "for minutes; the extrapolation under your measurement covers larger n"
              if largest == LIVE_MAX_N else
              f"the dataset's size and the memory guard's limit, {cap:,}")
    st.caption(f"Points: {origin}. Each solver is asked for the top k = {k} eigenpairs "
               f"(the sidebar's number of components). Largest n timed live: {largest:,} "
               f"({limits}). Timed in the server's worker process with BLAS on one thread, "
               "so that other work on the server's cores does not distort the growth; each "
               "n takes its own turn in the server's queue.")
    default = (_snap(DEFAULT_RANGE[0], choices), _snap(min(DEFAULT_RANGE[1], largest), choices))
    with st.form("scale_form", border=False):
        low, high = st.select_slider("Range of n", options=choices, value=default,
                                     key=f"scale_range_{largest}",
                                     format_func=lambda v: f"{v:,}")
        submitted = st.form_submit_button("Measure", icon=":material/timer:", type="primary")
    stored = st.session_state.get(RUN_KEY)
    run = None
    if submitted:
        run = _measure(settings, X, low, high)
    elif stored is not None and stored[0] == settings:
        run = stored[1]
    if run is None:
        if not submitted:
            st.info(f"Press **Measure**: the default range ({default[0]:,} to {default[1]:,}) "
                    "takes a few seconds.", icon=":material/timer:")
        show_memory(np.array([choices[0], largest]), X.shape[1], k)
    else:
        show_timings(run)
        show_memory(run.sizes, run.n_features, run.n_components)
    return run


def timing_estimate(n: int, d: int, k: int, repeats: int = REPEATS) -> costs.Estimate:
    """What timing one n costs (:func:`lessons.scale.experiment.measure_size`): ``repeats``
    times K, its centring and the three solvers. ARPACK's sweeps are unknown, so this is
    a lower bound."""
    once = (costs.kernel_matrix(n, n, d) + costs.passes(n, 2)
            + sum((costs.leading(n, k, solver) for solver in scaling.SOLVERS), costs.NOTHING))
    return once * max(1, repeats)


def _measure(settings, X, low: int, high: int) -> scaling.ScalingRun | None:
    if low >= high:
        st.warning("Choose two different ends of the range: a slope needs at least two n.")
        return None
    memory.guard_memory(high, copies=MEASURE_COPIES, what=MEASURE_WHAT,
                        extra=(WORKER_BYTES, WORKER_WHAT))
    sizes = scaling.size_ladder(low, high, points_per_doubling=POINTS_PER_DOUBLING)
    d, k = X.shape[1], settings.n_components

    def turn(n: int):
        # Each n takes its own turn in the worker's lane, with its own estimate: between
        # two sizes the server serves the others, and the timing is not shared with
        # another job either.
        return queued(n, copies=MEASURE_COPIES, estimate=timing_estimate(n, d, k),
                      what=f"the timing at n = {n:,}", in_worker=True)

    bar = st.progress(0.0, text="Starting…")
    run = scaling.measure_scaling(
        X, sizes, k, kernel=settings.kernel, kernel_params=settings.kernel_params(),
        repeats=REPEATS, turn=turn, run=server_worker().call,
        on_progress=lambda f, text: bar.progress(min(max(f, 0.0), 1.0), text=text),
    )
    bar.empty()
    st.session_state[RUN_KEY] = (settings, run)  # one run per session: small arrays
    return run


def slope_table(run: scaling.ScalingRun) -> pd.DataFrame:
    return pd.DataFrame({
        "step": [scaling.STEP_TITLES[s] for s in scaling.STEPS],
        "fitted slope": [run.exponent(s) for s in scaling.STEPS],
        "theory": [scaling.THEORY_EXPONENT[s] for s in scaling.STEPS],
        "cost": [scaling.THEORY_COST[s] for s in scaling.STEPS],
    })


def show_timings(run: scaling.ScalingRun) -> None:
    labels = {s: f"{scaling.STEP_TITLES[s]}: slope {run.exponent(s):.2f} "
                 f"(theory {scaling.THEORY_EXPONENT[s]})" for s in scaling.STEPS}
    sizes = run.sizes
    fig = figures.timing_figure(
        sizes, run.seconds, labels=labels, auto_solver=run.auto_solver,
        title=f"Time of each step against n (log-log), k = {run.n_components}",
    )
    show_chart(fig, key="scale_timing", name="scale-timing")
    st.dataframe(slope_table(run), hide_index=True, key="scale_slopes",
                 column_config={"fitted slope": st.column_config.NumberColumn(format="%.2f")})
    dense, arpack = run.seconds["dense"][-1], run.seconds["arpack"][-1]
    text = (f"At n = {sizes[-1]:,} the dense solver took {dense:.3g} s and ARPACK "
            f"{arpack:.3g} s for the top {run.n_components}: "
            f"{'ARPACK' if arpack < dense else 'LAPACK'} was "
            f"{max(dense, arpack) / max(min(dense, arpack), 1e-12):.1f}× faster. ")
    picks = sorted(set(run.auto_solver))
    text += f'"auto" picked {" and ".join(picks)} over this range. '
    number_caption(text + slope_note(run))
    _timings_table(run)


def slope_note(run: scaling.ScalingRun) -> str:
    """Why measured slopes differ from theory, said only for the steps where they do."""
    below = [scaling.STEP_TITLES[s] for s in scaling.STEPS
             if run.exponent(s) < scaling.THEORY_EXPONENT[s] - 0.5]
    above = [scaling.STEP_TITLES[s] for s in scaling.STEPS
             if run.exponent(s) > scaling.THEORY_EXPONENT[s] + 0.5]
    text = ""
    longest = max(float(np.max(v)) for v in run.seconds.values())
    if longest < 0.05:
        text += (f"Every step took at most {1000 * longest:.2g} ms: at that scale a single "
                 "interruption by another process changes a slope; widen the range. ")
    if below:
        text += (f"Slopes well below theory ({', '.join(below)}): at these n fixed costs "
                 "(Python calls, thread start-up) still weigh; a larger range shows the "
                 "asymptotic growth. ")
    if above:
        text += (f"Slopes well above theory ({', '.join(above)}): the largest n ran slower "
                 "than the law predicts, e.g. K̃ no longer fits the processor's cache, ARPACK "
                 "needed more sweeps, or another process took the core. ")
    return text + "Timings are wall-clock on a server other people share: expect noise."


def _timings_table(run: scaling.ScalingRun) -> None:
    sizes = run.sizes
    with st.expander("The timings (seconds)", icon=":material/table:"):
        table = pd.DataFrame({"n": sizes})
        for s in scaling.STEPS:
            table[scaling.STEP_TITLES[s]] = run.seconds[s]
        table['"auto" picks'] = run.auto_solver
        st.dataframe(table, hide_index=True, key="scale_timing_table")


def show_memory(sizes: np.ndarray, d: int, k: int) -> None:
    """The memory model of each step from the smallest n shown to past the budget."""
    fig, caption = memory_chart(sizes, d, k)
    show_chart(fig, key="scale_memory", name="scale-memory")
    st.caption(caption)


# --------------------------------------------------------------------------- plain words


def _extrapolation_caveat(run: scaling.ScalingRun) -> str:
    slope = run.exponent("dense")
    if slope < scaling.THEORY_EXPONENT["dense"] - 0.2:
        return (f"The dense solver's slope measured here ({slope:.2f}) is still below its "
                "asymptotic 3, so the real time at large n will be longer than this.")
    return "An extrapolation from small n is rough; treat it as an order of magnitude."


def plain_words(run: scaling.ScalingRun | None) -> None:
    """When to use which method, and what the Explorer does at large n (with its numbers)."""
    largest = memory.largest_square(1)
    if run is not None:
        n_far = memory.largest_square(MEASURE_COPIES)
        dense = scaling.predicted_seconds(run, "dense", n_far)
        arpack = scaling.predicted_seconds(run, "arpack", n_far)
        if np.isfinite(dense) and np.isfinite(arpack):
            st.markdown(
                f"**From your measurement.** Extending the fitted lines to n = {n_far:,} (the "
                f"largest this server allows for the measurement) predicts about "
                f"{dense:,.0f} s for the dense solver and {arpack:,.1f} s for ARPACK "
                f"(k = {run.n_components}), on one core. " + _extrapolation_caveat(run)
            )
    st.markdown(
        f"""
- **Exact, dense (LAPACK)** — time ∝ n³ whatever k is. Fine up to a couple of thousand
  points, and the right choice when you want many or all eigenvalues.
- **Exact, iterative (ARPACK)** — each sweep is one product with K̃ (∝ n²); for a few
  leading components it needs few sweeps. `eigen_solver="auto"` picks it when
  k ≤ max(9, n / 45) and n > 200. Memory is still K's n²: on this server K alone stops at
  n = {largest:,}.
- **Randomized** — a handful of passes over K̃ (∝ n² each); approximate, accurate only
  when the spectrum decays fast. Never chosen by "auto".
- **Nyström (m landmarks)** — never builds K: time ∝ n m² and memory ∝ n m. Works with
  every kernel here; accuracy depends on how fast the spectrum decays, so check it
  against exact on a subset first (section 3). The choice beyond the memory limit.
- **Random Fourier features (D features)** — RBF kernel only; data-independent, so it
  needs a larger D than Nyström's m for the same accuracy, but new points cost one
  d × D product and it works on data streamed in chunks.
"""
    )
    st.markdown(
        f"""
**What the Explorer does at large n.** Up to n = {DENSE_MAX_N:,} it computes the whole
spectrum of K̃ with LAPACK. Above that it centres K in place (one n × n matrix alive
instead of two), asks ARPACK for the top {ITERATIVE_TOP} eigenvalues only (the whole
spectrum of the full USPS set would cost tens of seconds of n³ work that a bar chart of
the leading eigenvalues never shows), and block-averages the K and K̃ heatmaps to at most
{DISPLAY_HEATMAP_SIDE} × {DISPLAY_HEATMAP_SIDE} cells: a browser cannot draw millions of cells
(the full USPS K has 7,291² ≈ 53 million) and a projector could not show them anyway.
"""
    )
