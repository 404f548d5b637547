"""The Scale page's approximation section: Nyström and random Fourier features against
exact kernel PCA on the current data (experiments in :mod:`lessons.scale.approximations`)."""

from __future__ import annotations

from contextlib import nullcontext
from dataclasses import dataclass, replace

import numpy as np
import streamlit as st

from experiments.analysis import may_be_indefinite
from experiments.checks import Check
from experiments.roundoff import above_rounding, kernel_bound, kernel_rounding, tolerance
from experiments.sampling import sample_rows
from kpca_core import KERNELS
from lessons.scale import approximations as approx
from lessons.scale import figures
from server import costs, memory
from server.admission import server_worker, taking_turn
from server.budget import WORKER_BYTES
from server.worker import WORKER_WHAT
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.sidebar import apply_settings
from shell.state import KernelKey, Settings
from words.i18n import N_, _, format_number, join_list, join_sentences, ngettext, pgettext

LANDMARKS = (10, 20, 50, 100, 200, 500, 1000)
FEATURES = (10, 20, 50, 100, 200, 500, 1000, 2000)
DEFAULT_M, DEFAULT_D = 100, 500
# The live "m = n gives exact" check runs Nyström with every point as a landmark.
EXACT_CHECK_MAX_N = 1500
# Above this n the comparison (exact + 15 approximations) waits for a button press.
AUTO_COMPARE_MAX_N = 2500
OVERLAY_MAX_POINTS = 2000


def method_names() -> dict[str, str]:
    """Each method's name with its size parameter, "Nyström (m)", in the run's language."""
    return {key: _("{method} ({size})").format(method=_(m.title), size=m.size_name)
            for key, m in approx.METHODS.items()}


@dataclass(frozen=True)
class Comparison:
    """Everything the section draws for one setting (aligned scores: first 2 columns)."""

    exact: approx.ExactKPCA
    results: dict[str, list[approx.Approximation]]
    # Nyström with m = n: each top eigenvalue's relative error (NaN for a negligible one).
    full_landmarks_errors: np.ndarray | None


def planned_sizes(kernel: str, k: int, n: int) -> dict[str, list[int]]:
    """The m (and D, for the RBF kernel) the comparison runs, between k and n."""
    plans = {"nystroem": approx.usable_sizes(LANDMARKS, k, n)}
    if approx.supports("rff", kernel):
        plans["rff"] = approx.usable_sizes(FEATURES, k, max(FEATURES))
    return plans


def exact_estimate(n: int, d: int, k: int) -> costs.Estimate:
    """:func:`approx.exact_kpca`: K, its centring, k + 1 leading eigenpairs ("auto")."""
    return costs.kernel_pca(n, d, k + 1)


def approximation_estimate(method: str, n: int, d: int, size: int) -> costs.Estimate:
    """One pipeline: its n × size features (Nyström: a kernel block and an m × m
    normalisation; RFF: projections and cosines, costed alike), then PCA of them
    (a size × size covariance, or a full SVD when the features are wide)."""
    features = costs.kernel_matrix(n, size, d)
    if method == "nystroem":
        features += costs.all_eigenvalues(size) + costs.matrix_product(n, size, size)
    inner = min(n, size)
    return features + costs.matrix_product(n, inner, size) + costs.all_eigenvalues(inner)


def compute_comparison(X, kernel: KernelKey, k: int, on_progress=None, *, run=None,
                       turn=None) -> Comparison:
    """Exact kernel PCA with ``k`` components and every planned approximation, compared.

    ``run(func, *args, **kwargs)`` runs each timed step (on the server: in its worker
    process, :mod:`server.worker`); ``turn(n_bytes, estimate, what)`` gives each step
    its own turn in the server's queue. By default both do nothing special.
    """
    report = on_progress or (lambda f, text: None)
    run = run or (lambda func, *args, **kwargs: func(*args, **kwargs))
    turn = turn or (lambda n_bytes, estimate, what: nullcontext())
    n, d = X.shape
    params = kernel.kernel_params()
    report(0.0, _("Exact kernel PCA (n = {n})").format(n=format_number(n, ",")))
    with turn(approx.exact_bytes(n, k), exact_estimate(n, d, k), N_("exact kernel PCA")):
        exact = run(approx.exact_kpca, X, k, kernel=kernel.kernel, kernel_params=params)
    results: dict[str, list[approx.Approximation]] = {}
    plans = planned_sizes(kernel.kernel, k, n)
    total = sum(len(sizes) for sizes in plans.values()) or 1
    done = 0
    for method, sizes in plans.items():
        results[method] = []
        title, size_name = _(approx.METHODS[method].title), approx.METHODS[method].size_name
        for size in sizes:
            size_text = format_number(size, ",")
            report(0.1 + 0.85 * done / total, _("{method}, {size_name} = {size}").format(
                method=title, size_name=size_name, size=size_text))
            with turn(approx.approximation_bytes(method, n, d, size, k),
                      approximation_estimate(method, n, d, size),
                      _("{method} with {size_name} = {size}").format(
                          method=title, size_name=size_name, size=size_text)):
                result = run(approx.approximate_and_compare, X, exact, method, size,
                             kernel=kernel.kernel, kernel_params=params)
            results[method].append(replace(result, aligned=result.aligned[:, :2].copy()))
            done += 1
    full = None
    if n <= EXACT_CHECK_MAX_N:
        report(0.97, _("Nyström with every point as a landmark"))
        with turn(approx.approximation_bytes("nystroem", n, d, n, k),
                  approximation_estimate("nystroem", n, d, n), N_("Nyström with m = n")):
            values, scores, _vectors = run(approx.approximate_kpca, X, "nystroem", n, k,
                                    kernel=kernel.kernel, kernel_params=params)
        errors, *_rest = approx.compare(exact, values, scores)
        full = errors
    # Cached: only what the section draws. (A [:, :0] slice would keep all n × k
    # eigenvectors alive through its base array.)
    exact = replace(exact, eigenvectors=np.empty((n, 0)),
                    projection=exact.projection[:, :2].copy())
    report(1.0, _("Done"))
    return Comparison(exact, results, full)


def comparison(settings: Settings, inputs: Inputs) -> Comparison | None:
    """The cached comparison; computed now if small, else on a button press (None before)."""
    n = len(inputs.X)
    cached = cached_comparison.cached(inputs, settings.kernel_key, settings.n_components)
    if cached is not None:
        return cached
    if n > AUTO_COMPARE_MAX_N:
        count = sum(len(sizes) for sizes in
                    planned_sizes(settings.kernel, settings.n_components, n).values())
        st.info(ngettext(
            "n = {n}: exact kernel PCA and {count} approximation take a minute or "
            "more here. Press the button to run them (the result is kept for everyone).",
            "n = {n}: exact kernel PCA and {count} approximations take a minute or "
            "more here. Press the button to run them (the result is kept for everyone).",
            count).format(n=format_number(n, ","), count=format_number(count)),
                icon=":material/hourglass:")
        if not st.button(_("Compare with exact kernel PCA"), key="scale_compare",
                         icon=":material/play_arrow:"):
            return None
    return cached_comparison(inputs, settings.kernel_key, settings.n_components)


# An entry holds n × 2 scores per size (≤ 15 sizes): ~2 MB for the full USPS.
@bounded_cache(max_entries=6)
def cached_comparison(inputs: Inputs, kernel: KernelKey, k: int) -> Comparison:

    def turn(n_bytes: int, estimate: costs.Estimate, what: str):
        # Each step takes its own turn in the worker's lane (exact kernel PCA holds K̃ and
        # a copy): between two steps the server serves other students.
        return taking_turn(n_bytes, estimate=estimate, what=what, in_worker=True)

    bar = st.progress(0.0, text=_("Starting…"))
    # The steps are timed with BLAS on one thread, in the server's worker process: the
    # limit does not reach the other sessions (server.worker).
    result = compute_comparison(inputs.X, kernel, k,
                                lambda f, t: bar.progress(min(f, 1.0), text=t),
                                run=server_worker().call, turn=turn)
    bar.empty()
    return result


def full_landmarks_check(errors: np.ndarray, eigenvalues: np.ndarray, rounding: float,
                         n: int) -> Check:
    """Nyström with every point a landmark reproduces K: its eigenvalues differ from the
    exact ones by rounding only, relative error ≈ rounding / μ (experiments.roundoff).

    An eigenvalue within rounding of 0 has no meaningful relative error (at γ = 1e-6 the
    third one of the circles is 1.7e-10, itself at the rounding level of K ≈ all ones):
    it is left out, and the label says so.
    """
    eigenvalues = np.asarray(eigenvalues, dtype=np.float64)
    checked = above_rounding(eigenvalues, rounding) & np.isfinite(errors)
    values = dict(n=format_number(n, ","), k=format_number(len(eigenvalues)),
                  left_out=join_list([f"μ{i + 1}" for i in np.flatnonzero(~checked)]))
    label = (_("Nyström with m = n = {n}: largest relative error of the top {k} eigenvalues "
               "(ΦΦᵀ = K, so only rounding)") if checked.all() else
             _("Nyström with m = n = {n}: largest relative error of the top {k} eigenvalues "
               "(ΦΦᵀ = K, so only rounding) ({left_out} within rounding of 0: left "
               "out)")).format(**values)
    if not checked.any():
        return Check(label, 0.0, tolerance=0.0)
    # Each eigenvalue's own tolerance (rounding / μ): shown, the one closest to failing.
    allowed = np.array([tolerance(1e-6, rounding, mu) for mu in eigenvalues[checked]])
    closest = int(np.argmax(errors[checked] / allowed))
    return Check(label, float(errors[checked][closest]), float(allowed[closest]))


def _use_rbf(settings: Settings) -> None:
    apply_settings(replace(settings, kernel="rbf"))


def _pick(label: str, sizes: list[int], default: int, key: str) -> int:
    value = min(sizes, key=lambda s: abs(s - default))
    return st.select_slider(label, options=sizes, value=value, key=key,
                            format_func=lambda v: f"{v:,}")


def approximation_section(settings: Settings, data, inputs: Inputs) -> None:
    n = len(inputs.X)
    kernel = _(KERNELS[settings.kernel].title)
    st.write(_(
        "Both build explicit features Φ (n × m or n × D) with ΦΦᵀ ≈ K and run linear PCA "
        "(scikit-learn) on them. **Nyström** (`Nystroem`) supports every kernel of this app "
        "(anything scikit-learn's pairwise kernels know); **random Fourier features** "
        "(`RBFSampler`) only the RBF kernel."
    ))
    indefinite = may_be_indefinite(settings.kernel, settings.kernel_params())
    if indefinite:
        st.caption(_("This {kernel} kernel is not positive semi-definite: Nyström's features "
                     "give a positive semi-definite ΦΦᵀ, so they cannot reproduce K̃'s "
                     "negative eigenvalues, and even m = n is not exact.").format(kernel=kernel))
    problem = memory.memory_problem(n, copies=2, what=N_("exact kernel PCA (K̃ and a copy)"),
                                    extra=(WORKER_BYTES, WORKER_WHAT))
    if problem is not None:
        st.error(_("{problem} Without the exact answer there is nothing to compare with.")
                 .format(problem=problem), icon=":material/memory:")
        return
    result = comparison(settings, inputs)
    if result is None:
        return
    exact = result.exact
    k = len(exact.eigenvalues)
    if not np.any(exact.eigenvalues > 0):
        # E.g. iris with the sigmoid at γ ≥ 1: tanh(γ xᵀy + c₀) = 1 for every pair, K̃ = 0.
        st.info(_("At these settings K̃ has no positive eigenvalue (its largest is 0 up to "
                  "rounding, as when the kernel gives every pair of points the same value: a "
                  "saturated sigmoid does), so kernel PCA finds no component and there is "
                  "nothing for an approximation to reproduce. Lower γ, or standardise the "
                  "inputs in the sidebar."), icon=":material/info:")
        return
    if not approx.supports("rff", settings.kernel):
        st.info(_("Random Fourier features approximate only the RBF kernel; the current "
                  "kernel is {kernel}.").format(kernel=kernel), icon=":material/info:")
        st.button(_("Switch to the RBF kernel"), key="scale_use_rbf", on_click=_use_rbf,
                  args=(settings,))

    chosen: dict[str, approx.Approximation] = {}
    columns = st.columns(len(result.results))
    for column, (method, runs) in zip(columns, result.results.items(), strict=True):
        if not runs:
            continue
        info = approx.METHODS[method]
        with column:
            size = _pick(_("{size_name}: {size_title} ({method})").format(
                size_name=info.size_name, size_title=_(info.size_title), method=_(info.title)),
                         [r.size for r in runs],
                         DEFAULT_M if method == "nystroem" else DEFAULT_D,
                         key=f"scale_size_{method}")
            chosen[method] = next(r for r in runs if r.size == size)
            show_metrics(chosen[method], exact)
    if not chosen:
        st.info(_("No approximation size fits between k = {k} and n = {n}.").format(
            k=format_number(k), n=format_number(n)))
        return
    errors = result.full_landmarks_errors
    if errors is not None and not indefinite:
        X = inputs.X
        rounding = kernel_rounding(n, kernel_bound(X, settings.kernel, settings.kernel_params()))
        show_check(full_landmarks_check(errors, exact.eigenvalues, rounding, n))
    elif errors is not None:
        worst = float(np.nanmax(errors)) if np.isfinite(errors).any() else 0.0
        st.caption(_("Nyström with m = n = {n} (every point a landmark): largest relative "
                     "error of the top {k} eigenvalues {error} "
                     "%, not rounding error, because this kernel is indefinite.").format(
            n=format_number(n, ","), k=format_number(k), error=format_number(100 * worst, ".3g")))

    fig = figures.eigenvalue_figure(
        exact.eigenvalues, {m: r.eigenvalues for m, r in chosen.items()},
        names={m: _("{method}, {size_name} = {size}").format(
            method=_(approx.METHODS[m].title), size_name=approx.METHODS[m].size_name,
            size=format_number(r.size, ",")) for m, r in chosen.items()},
        title=_("Top {k} eigenvalues of K̃: exact and (n − 1) × PCA variance of the features")
        .format(k=format_number(k)),
    )
    show_chart(fig, key="scale_eigenvalues", name="scale-eigenvalues")
    st.caption(_("Scale: kpca_core reports the eigenvalues μ of K̃. PCA on the features reports "
                 "variances σ²/(n − 1) of the centred features Φ̃, and Φ̃Φ̃ᵀ ≈ K̃ has the same "
                 "non-zero eigenvalues σ² as Φ̃ᵀΦ̃; so μ̂ = (n − 1) × explained_variance_."))
    show_sweeps(result)
    show_overlays(chosen, exact, data)


def show_metrics(result: approx.Approximation, exact: approx.ExactKPCA) -> None:
    size_name = approx.METHODS[result.method].size_name
    st.metric(_("Eigenvalue error (top {k})").format(k=format_number(len(result.eigenvalues))),
              f"{format_number(100 * result.max_relative_error, '.2f')} %",
              help=_("Largest |μ̂ − μ| / μ over the top k eigenvalues μ of K̃."))
    st.metric(_("Largest principal angle"),
              f"{format_number(result.largest_angle_degrees, '.2f')}°",
              help=_("Between the exact and the approximate top-k subspaces "
                     "(scipy.linalg.subspace_angles); 0° when they are the same."))
    st.caption(_("{size_name} = {size}: {seconds} s and {memory} (exact: {exact_seconds} s, "
                 "{exact_memory}); Procrustes residual {residual}.").format(
        size_name=size_name, size=format_number(result.size, ","),
        seconds=format_number(result.seconds, ".3g"),
        memory=memory.format_bytes(result.memory_bytes),
        exact_seconds=format_number(exact.seconds, ".3g"),
        exact_memory=memory.format_bytes(approx.exact_bytes(exact.n, len(exact.eigenvalues))),
        residual=format_number(result.procrustes_error, ".3g")))


def show_sweeps(result: Comparison) -> None:
    exact = result.exact
    curves = {m: runs for m, runs in result.results.items() if runs}

    def series(attr, scale=1.0):
        return {m: (np.array([r.size for r in runs]),
                    scale * np.array([getattr(r, attr) for r in runs]))
                for m, runs in curves.items()}

    x_title = " / ".join(_("{size_name} ({size_title})").format(
        size_name=approx.METHODS[m].size_name, size_title=_(approx.METHODS[m].size_title))
        for m in curves)
    names = method_names()

    left, right = st.columns(2)
    with left:
        show_chart(figures.sweep_figure(
            series("max_relative_error", 100.0), names=names,
            y_title=_("largest relative error (%)"), x_title=x_title,
            title=_("Eigenvalue error against m or D")), key="scale_sweep_error",
            name="scale-eigenvalue-error", columns=2)
        show_chart(figures.sweep_figure(
            series("seconds"), names=names, y_title=_("seconds"), exact=exact.seconds,
            x_title=x_title,
            title=_("Time against m or D")), key="scale_sweep_time", name="scale-time", columns=2)
    with right:
        show_chart(figures.sweep_figure(
            series("largest_angle_degrees"), names=names,
            y_title=pgettext("unit of an angle", "degrees"),
            x_title=x_title,
            title=_("Largest principal angle against m or D")), key="scale_sweep_angle",
            name="scale-angle", columns=2)
        show_chart(figures.sweep_figure(
            series("memory_bytes"), names=names, y_title=_("bytes (model)"), x_title=x_title,
            exact=float(approx.exact_bytes(exact.n, len(exact.eigenvalues))),
            title=_("Memory against m or D")), key="scale_sweep_memory", name="scale-memory-approx",
            columns=2)
    st.caption(join_sentences((_sweep_caption(curves), _gap_caption(exact))))


def _sweep_caption(curves: dict[str, list[approx.Approximation]]) -> str:
    parts = []
    for method, runs in curves.items():
        first, last = runs[0], runs[-1]
        name = approx.METHODS[method].size_name
        sentence = (_("{method}: the eigenvalue error fell from {first} % ({name} = "
                      "{first_size}) to {last} % ({name} = {last_size}).")
                    if last.max_relative_error < first.max_relative_error else
                    _("{method}: the eigenvalue error did not fall from {first} % ({name} = "
                      "{first_size}) to {last} % ({name} = {last_size})."))
        parts.append(sentence.format(
            method=_(approx.METHODS[method].title), name=name,
            first=format_number(100 * first.max_relative_error, ".3g"),
            first_size=format_number(first.size, ","),
            last=format_number(100 * last.max_relative_error, ".3g"),
            last_size=format_number(last.size, ",")))
    return join_sentences([*parts, _("Times are measured once per setting (cached).")])


def _sub(number: int) -> str:
    return str(number).translate(str.maketrans("0123456789", "₀₁₂₃₄₅₆₇₈₉"))


def _gap_caption(exact: approx.ExactKPCA) -> str:
    """Whether the top-k subspace is well defined, from the gap between μ_k and μ_{k+1}."""
    k, gap = len(exact.eigenvalues), exact.relative_gap
    if not np.isfinite(gap):
        return ""
    values = dict(mu_k=f"μ{_sub(k)}", mu_next=f"μ{_sub(k + 1)}",
                  gap=format_number(100 * gap, ".3g"))
    if gap < 0.05:
        return _("{mu_k} and {mu_next} differ by {gap} %: the top-k subspace is nearly "
                 "undefined (a tiny change of the data swaps the two directions), so large "
                 "principal angles here say more about the data than about the approximation; "
                 "change k to compare.").format(**values)
    return _("{mu_k} and {mu_next} differ by {gap} %: the top-k subspace is well separated, "
             "so the angles measure the approximation.").format(**values)


def show_overlays(chosen: dict[str, approx.Approximation], exact: approx.ExactKPCA,
                  data) -> None:
    n = exact.n
    shown = None if n <= OVERLAY_MAX_POINTS else sample_rows(n, OVERLAY_MAX_POINTS)
    columns = st.columns(len(chosen))
    for column, (method, result) in zip(columns, chosen.items(), strict=True):
        name = approx.METHODS[method].size_name
        with column:
            fig = figures.overlay_figure(
                exact.projection, result.aligned, data.y, data.target_names, shown=shown,
                title=_("{method} ({name} = {size}) over exact").format(
                    method=_(approx.METHODS[method].title), name=name,
                    size=format_number(result.size, ",")),
            )
            show_chart(fig, key=f"scale_overlay_{method}", name=f"scale-overlay-{method}",
                       columns=len(columns))
    st.caption((_("First two components, after rotating the approximate scores onto the "
                  "exact ones with orthogonal Procrustes (signs and rotations inside the "
                  "subspace are arbitrary). Rings: exact; dots: approximation.")
                if shown is None else
                _("First two components, after rotating the approximate scores onto the "
                  "exact ones with orthogonal Procrustes (signs and rotations inside the "
                  "subspace are arbitrary; {shown} of {n} points drawn). Rings: exact; dots: "
                  "approximation.")).format(shown=format_number(OVERLAY_MAX_POINTS, ","),
                                            n=format_number(n, ",")))
