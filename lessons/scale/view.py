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
from server import costs, memory
from server.admission import queued, server_worker
from server.budget import WORKER_BYTES
from server.worker import WORKER_WHAT
from shell.caches import Inputs
from shell.charts import show_chart
from shell.display import number_caption
from shell.state import Settings
from words.i18n import N_, _, format_number, join_and, join_list, join_sentences

# The default range (lessons.scale.experiment, also timed by the benchmark). The limits
# (LIVE_MAX_N and the others) are in lessons.scale.sections, which the offline lecture reads.
MEASURE_WHAT = N_("K̃ and the dense eigensolver's working copy")
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
    st.write(_(
        "K holds n² numbers of 8 bytes each. Before any n × n computation every page asks "
        "one function, `server.memory.memory_problem`, whether it fits this server's budget "
        "(the setting `{setting}`, default {mib} MiB = {size}), "
        "and refuses in plain words when it does not."
    ).format(setting=memory.BUDGET_ENV, mib=format_number(memory.DEFAULT_BUDGET_MB, ","),
             size=memory.format_bytes(memory.DEFAULT_BUDGET_MB * 2**20)))
    cols = st.columns(3)
    cols[0].metric(_("Budget per computation"), memory.format_bytes(budget))
    cols[1].metric(_(LARGEST_ALONE), format_number(alone, ","))
    cols[2].metric(_(LARGEST_MEASURED), format_number(measured, ","),
                   help=_("What the timing below needs: LAPACK works on a copy of K̃."))
    try_n = st.number_input(
        _("Try an n: what would the guard say about K alone?"), min_value=2, max_value=10**7,
        value=TRY_N_DEFAULT, step=1000, key="scale_try_n",
    )
    problem = memory.memory_problem(int(try_n), budget=budget)
    if problem is None:
        st.success(_("n = {n} fits: K needs {size}.").format(
            n=format_number(int(try_n), ","),
            size=memory.format_bytes(memory.matrix_bytes(int(try_n)))),
            icon=":material/check_circle:")
    else:
        st.info(_("The guard would refuse: “{problem}”").format(problem=problem),
                icon=":material/block:")


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
        return X, _("all {n} points of the current dataset").format(
            n=format_number(len(X), ","))
    pool_n = pool_size(settings.dataset, len(inputs.X))
    X = _pool(settings.dataset, settings.dataset_options, pool_n, settings.standardize)
    return X, _("the current dataset with its options, generated with {n} points; "
                "each smaller n is a random subset of the larger ones").format(
        n=format_number(len(X), ","))


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
            st.info(_("This server's memory budget ({budget} per computation, of which "
                      "{worker_size} for {worker}) leaves room to time n up to {cap} only: "
                      "too few to see costs grow.").format(
                budget=memory.format_bytes(memory.budget_bytes()),
                worker_size=memory.format_bytes(WORKER_BYTES), worker=_(WORKER_WHAT),
                cap=format_number(cap, ",")), icon=":material/memory:")
        else:
            st.info(_("The current dataset has {n} points: too few to see costs grow. "
                      "Pick USPS or a synthetic dataset in the sidebar.").format(
                n=format_number(len(X))), icon=":material/info:")
        return None
    choices = size_choices(largest)
    limits = (_("the live limit: beyond it the dense solver's n³ would hold the shared server "
                "for minutes; the extrapolation under your measurement covers larger n")
              if largest == LIVE_MAX_N else
              _("the dataset's size and the memory guard's limit, {cap}").format(
                  cap=format_number(cap, ",")))
    st.caption(_("Points: {origin}. Each solver is asked for the top k = {k} eigenpairs "
                 "(the sidebar's number of components). Largest n timed live: {largest} "
                 "({limits}). Timed in the server's worker process with BLAS on one thread, "
                 "so that other work on the server's cores does not distort the growth; each "
                 "n takes its own turn in the server's queue.").format(
        origin=origin, k=format_number(k), largest=format_number(largest, ","), limits=limits))
    default = (_snap(DEFAULT_RANGE[0], choices), _snap(min(DEFAULT_RANGE[1], largest), choices))
    with st.form("scale_form", border=False):
        shown = {v: format_number(v, ",") for v in choices}
        low, high = st.select_slider(_("Range of n"), options=choices, value=default,
                                     key=f"scale_range_{largest}",
                                     format_func=shown.__getitem__)
        submitted = st.form_submit_button(_("Measure"), icon=":material/timer:",
                                          type="primary")
    stored = st.session_state.get(RUN_KEY)
    run = None
    if submitted:
        run = _measure(settings, X, low, high)
    elif stored is not None and stored[0] == settings:
        run = stored[1]
    if run is None:
        if not submitted:
            st.info(_("Press **Measure**: the default range ({low} to {high}) "
                      "takes a few seconds.").format(low=format_number(default[0], ","),
                                                     high=format_number(default[1], ",")),
                    icon=":material/timer:")
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
        st.warning(_("Choose two different ends of the range: a slope needs at least two n."))
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
                      what=_("the timing at n = {n}").format(n=format_number(n, ",")),
                      in_worker=True)

    bar = st.progress(0.0, text=_("Starting…"))
    upcoming = iter(sorted({int(s) for s in sizes}))

    def progress(fraction: float, _english: str) -> None:
        # The experiment reports each n in order, then "Done"; its words said here, in the
        # session's language (the experiment imports no translations: the worker runs it).
        n = next(upcoming, None)
        text = (_("Done") if n is None else
                _("n = {n}: build K, centre, three eigensolvers").format(
                    n=format_number(n, ",")))
        bar.progress(min(max(fraction, 0.0), 1.0), text=text)

    run = scaling.measure_scaling(
        X, sizes, k, kernel=settings.kernel, kernel_params=settings.kernel_params(),
        repeats=REPEATS, turn=turn, run=server_worker().call, on_progress=progress,
    )
    bar.empty()
    st.session_state[RUN_KEY] = (settings, run)  # one run per session: small arrays
    return run


def slope_table(run: scaling.ScalingRun) -> pd.DataFrame:
    return pd.DataFrame({
        _("step"): [_(scaling.STEP_TITLES[s]) for s in scaling.STEPS],
        _("fitted slope"): [run.exponent(s) for s in scaling.STEPS],
        _("theory"): [scaling.THEORY_EXPONENT[s] for s in scaling.STEPS],
        _("cost"): [_(scaling.THEORY_COST[s]) for s in scaling.STEPS],
    })


def show_timings(run: scaling.ScalingRun) -> None:
    labels = {s: _("{step}: slope {slope} (theory {theory})").format(
        step=_(scaling.STEP_TITLES[s]), slope=format_number(run.exponent(s), ".2f"),
        theory=format_number(scaling.THEORY_EXPONENT[s])) for s in scaling.STEPS}
    sizes = run.sizes
    fig = figures.timing_figure(
        sizes, run.seconds, labels=labels, auto_solver=run.auto_solver,
        title=_("Time of each step against n (log-log), k = {k}").format(
            k=format_number(run.n_components)),
    )
    show_chart(fig, key="scale_timing", name="scale-timing")
    st.dataframe(slope_table(run), hide_index=True, key="scale_slopes",
                 column_config={_("fitted slope"): st.column_config.NumberColumn(format="%.2f")})
    dense, arpack = run.seconds["dense"][-1], run.seconds["arpack"][-1]
    ratio = format_number(max(dense, arpack) / max(min(dense, arpack), 1e-12), ".1f")
    faster = (_("At n = {n} the dense solver took {dense} s and ARPACK {arpack} s for the top "
                "{k}: ARPACK was {ratio}× faster.") if arpack < dense else
              _("At n = {n} the dense solver took {dense} s and ARPACK {arpack} s for the top "
                "{k}: LAPACK was {ratio}× faster."))
    text = faster.format(n=format_number(sizes[-1], ","), dense=format_number(dense, ".3g"),
                         arpack=format_number(arpack, ".3g"),
                         k=format_number(run.n_components), ratio=ratio)
    picked = _('"auto" picked {solvers} over this range.').format(
        solvers=join_and(sorted(set(run.auto_solver))))
    number_caption(join_sentences([text, picked, slope_note(run)]))
    _timings_table(run)


def slope_note(run: scaling.ScalingRun) -> str:
    """Why measured slopes differ from theory, said only for the steps where they do."""
    below = [_(scaling.STEP_TITLES[s]) for s in scaling.STEPS
             if run.exponent(s) < scaling.THEORY_EXPONENT[s] - 0.5]
    above = [_(scaling.STEP_TITLES[s]) for s in scaling.STEPS
             if run.exponent(s) > scaling.THEORY_EXPONENT[s] + 0.5]
    sentences = []
    longest = max(float(np.max(v)) for v in run.seconds.values())
    if longest < 0.05:
        sentences.append(_("Every step took at most {ms} ms: at that scale a single "
                           "interruption by another process changes a slope; widen the "
                           "range.").format(ms=format_number(1000 * longest, ".2g")))
    if below:
        sentences.append(_("Slopes well below theory ({steps}): at these n fixed costs "
                           "(Python calls, thread start-up) still weigh; a larger range shows "
                           "the asymptotic growth.").format(steps=join_list(below)))
    if above:
        sentences.append(_("Slopes well above theory ({steps}): the largest n ran slower "
                           "than the law predicts, e.g. K̃ no longer fits the processor's "
                           "cache, ARPACK needed more sweeps, or another process took the "
                           "core.").format(steps=join_list(above)))
    sentences.append(_("Timings are wall-clock on a server other people share: expect noise."))
    return join_sentences(sentences)


def _timings_table(run: scaling.ScalingRun) -> None:
    sizes = run.sizes
    with st.expander(_("The timings (seconds)"), icon=":material/table:"):
        table = pd.DataFrame({"n": sizes})
        for s in scaling.STEPS:
            table[_(scaling.STEP_TITLES[s])] = run.seconds[s]
        table[_('"auto" picks')] = run.auto_solver
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
        return _("The dense solver's slope measured here ({slope}) is still below its "
                 "asymptotic 3, so the real time at large n will be longer than this.").format(
            slope=format_number(slope, ".2f"))
    return _("An extrapolation from small n is rough; treat it as an order of magnitude.")


def plain_words(run: scaling.ScalingRun | None) -> None:
    """When to use which method, and what the Explorer does at large n (with its numbers)."""
    largest = memory.largest_square(1)
    if run is not None:
        n_far = memory.largest_square(MEASURE_COPIES)
        dense = scaling.predicted_seconds(run, "dense", n_far)
        arpack = scaling.predicted_seconds(run, "arpack", n_far)
        if np.isfinite(dense) and np.isfinite(arpack):
            st.markdown(join_sentences([
                _("**From your measurement.** Extending the fitted lines to n = {n} (the "
                  "largest this server allows for the measurement) predicts about "
                  "{dense} s for the dense solver and {arpack} s for ARPACK "
                  "(k = {k}), on one core.").format(
                    n=format_number(n_far, ","), dense=format_number(dense, ",.0f"),
                    arpack=format_number(arpack, ",.1f"), k=format_number(run.n_components)),
                _extrapolation_caveat(run)]))
    st.markdown(_(
        """
- **Exact, dense (LAPACK)** — time ∝ n³ whatever k is. Fine up to a couple of thousand
  points, and the right choice when you want many or all eigenvalues.
- **Exact, iterative (ARPACK)** — each sweep is one product with K̃ (∝ n²); for a few
  leading components it needs few sweeps. `eigen_solver="auto"` picks it when
  k ≤ max(9, n / 45) and n > 200. Memory is still K's n²: on this server K alone stops at
  n = {largest}.
- **Randomized** — a handful of passes over K̃ (∝ n² each); approximate, accurate only
  when the spectrum decays fast. Never chosen by "auto".
- **Nyström (m landmarks)** — never builds K: time ∝ n m² and memory ∝ n m. Works with
  every kernel here; accuracy depends on how fast the spectrum decays, so check it
  against exact on a subset first (section 3). The choice beyond the memory limit.
- **Random Fourier features (D features)** — RBF kernel only; data-independent, so it
  needs a larger D than Nyström's m for the same accuracy, but new points cost one
  d × D product and it works on data streamed in chunks.
"""
    ).format(largest=format_number(largest, ",")))
    st.markdown(_(
        """
**What the Explorer does at large n.** Up to n = {dense_max} it computes the whole
spectrum of K̃ with LAPACK. Above that it centres K in place (one n × n matrix alive
instead of two), asks ARPACK for the top {top} eigenvalues only (the whole
spectrum of the full USPS set would cost tens of seconds of n³ work that a bar chart of
the leading eigenvalues never shows), and block-averages the K and K̃ heatmaps to at most
{side} × {side} cells: a browser cannot draw millions of cells
(the full USPS K has {usps}² ≈ 53 million) and a projector could not show them anyway.
"""
    ).format(dense_max=format_number(DENSE_MAX_N, ","), top=format_number(ITERATIVE_TOP),
             side=format_number(DISPLAY_HEATMAP_SIDE), usps=format_number(7291, ",")))
