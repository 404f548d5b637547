"""Sections of the step-by-step lesson: each draws its matrix or vector, its live checks
and the kpca_core code that does the step.

Convention on this page: μ is an eigenvalue of K̃ itself (scikit-learn's ``eigenvalues_``);
the paper's eigenvalue is λ = μ / n (it solves n λ α = K̃ α).
"""

from __future__ import annotations

import numpy as np
import pandas as pd
import streamlit as st

from experiments.analysis import Analysis
from experiments.checks import Check
from experiments.kernel_diagnostics import format_ratio, signed
from experiments.kpca_steps import rounding_floor, variance_share_problem
from kpca_core import (
    KERNELS,
    center_kernel,
    center_kernel_textbook,
    center_test_kernel,
    compute_kernel,
    eigendecompose,
    project_new_points,
    scale_eigenvectors,
)
from lessons.how_it_works import figures as fig
from lessons.how_it_works.experiment import (
    TEXTBOOK_MAX_N,
    StepByStep,
    step_by_step,
)
from lessons.how_it_works.sections import (  # noqa: F401 - STEP_MAX_N: the page's
    STEP_MAX_N,
    centre_checks,
    eigen_caption,
    eigen_checks,
    heatmap_figure,
    kernel_checks,
    sample_rows,
    spectrum_figure,
)
from server import costs
from server.admission import queued
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.exports import view_name
from shell.source import show_source
from shell.state import KernelKey, Settings
from words.i18n import (
    DEFAULT_LANGUAGE,
    N_,
    _,
    current_language,
    format_number,
    join_list,
    join_sentences,
)

# The checks need K and K̃ in memory at once (plus the solver's copy): above this n they
# run on a seeded sample, and the page says so.
TABLE_MAX_N = 12



def file_stem(settings: Settings) -> str:
    """The start of every file the page saves: the view and the page
    (``circles-rbf-gamma5-how-it-works``), as the page's CSVs are named."""
    return view_name(settings, "how-it-works")


def _png_name(stem: str, key: str) -> str:
    """A chart's PNG name: the page's ``stem`` and the chart (``…-how-it-works-spectrum``)."""
    return f"{stem}-{key.removeprefix('how_')}"


def numbers_table(table: pd.DataFrame, number_format: str, *, key: str) -> None:
    """A table of numbers shown with ``number_format`` (printf style), values kept exact.

    (A column format instead of a pandas Styler: the Styler renders every cell to text on
    the server, several times slower.)
    """
    config = {str(c): st.column_config.NumberColumn(format=number_format) for c in table.columns}
    table = table.rename(columns=str)
    st.dataframe(table, key=key, column_config=config)


# K, K̃ and the eigensolver's copy at once (the app page's memory guard counts the same).
STEP_COPIES = 3


def steps_estimate(m: int, d: int, k: int) -> costs.Estimate:
    """Time of :func:`step_by_step` on m points: K and K̃ with their checks (a few passes),
    the textbook centring on a TEXTBOOK_MAX_N corner (two products), the leading k, the
    residuals (K̃ times the axes, three times), and scikit-learn's KernelPCA again (its own
    K and solver: ARPACK for k < 10 above 200 points)."""
    corner = min(m, TEXTBOOK_MAX_N)
    sklearn_solver = "arpack" if m > 200 and k < 10 else "dense"
    return (2 * costs.kernel_matrix(m, m, d) + costs.passes(m, 8)
            + 2 * costs.matrix_product(corner, corner, corner)
            + costs.leading(m, k) + 3 * costs.matrix_product(m, m, k)
            + costs.leading(m, k, sklearn_solver))


@bounded_cache(max_entries=16)
def fitted_steps(inputs: Inputs, kernel: KernelKey, n_components: int) -> StepByStep:
    """The step-by-step fit of the page's data and kernel (small results only; cached)."""
    X = inputs.X
    rows = sample_rows(len(X))
    m, d = len(rows), X.shape[1]
    k = min(n_components, m - 1)
    # A turn in the server's queue like the Explorer's fit (up to 96 MB at STEP_MAX_N).
    with queued(m, copies=STEP_COPIES, estimate=steps_estimate(m, d, k),
                what=N_("the step-by-step kernel PCA")):
        return step_by_step(
            X[rows], kernel=kernel.kernel, kernel_params=kernel.kernel_params(),
            n_components=n_components,
        )


def sample_note(steps: StepByStep, n_total: int) -> None:
    if steps.n < n_total:
        st.info(
            _("The checks and timings below use a fixed random sample of {n} of the {total} "
              "points (each needs K and K̃ in memory at once); the heatmaps and the spectrum "
              "use all of them.").format(n=format_number(steps.n, ","),
                                         total=format_number(n_total, ",")),
            icon=":material/filter_alt:",
        )


def _heatmap(result: Analysis, data, *, centered: bool, key: str, stem: str) -> None:
    show_chart(heatmap_figure(result, data.y, data.target_names, centered=centered),
               key=key, name=_png_name(stem, key))


def step_kernel(result: Analysis, steps: StepByStep, data, settings: Settings) -> None:
    info = KERNELS[settings.kernel]
    st.latex(r"K_{ij} = k(x_i, x_j),\qquad " + info.formula)
    st.write(_(
        "Every pair of points gets one number, how alike the {kernel} kernel finds them: an "
        "n × n matrix (here {n} × {n}). Nothing else about the inputs is used from now on."
    ).format(kernel=(info.title.lower() if current_language() == DEFAULT_LANGUAGE
                     else _(info.title)), n=format_number(result.n, ",")))
    _heatmap(result, data, centered=False, key="how_kernel", stem=file_stem(settings))
    if steps.kernel_table is not None:
        st.caption(_("n ≤ 12: the numbers themselves (rows and columns in data order)."))
        numbers_table(pd.DataFrame(steps.kernel_table), "%.4f", key="how_kernel_table")
    for check in kernel_checks(steps):
        show_check(check)
    show_source(compute_kernel, label=_("Step 1 in kpca_core: compute_kernel"))


def step_centre(result: Analysis, steps: StepByStep, data, stem: str) -> None:
    st.latex(r"\tilde K = K - 1_n K - K 1_n + 1_n K 1_n,\qquad (1_n)_{ij} = \tfrac1n")
    st.latex(r"\Longleftrightarrow\quad \tilde K_{ij} = K_{ij} - \bar K_{\cdot j} - "
             r"\bar K_{i \cdot} + \bar K_{\cdot\cdot}")
    st.write(_(
        "PCA needs centred data, but the points φ(xᵢ) are never computed. Centring them, "
        "φ̃(x) = φ(x) − mean φ, changes their inner products to K̃: subtract each column's "
        "mean and each row's mean, add back the grand mean. Three O(n²) passes, no matrix "
        "product."
    ))
    _heatmap(result, data, centered=True, key="how_centered", stem=stem)
    for check in centre_checks(steps):
        show_check(check)
    show_source(center_kernel, center_kernel_textbook,
                label=_("Step 2 in kpca_core: center_kernel (and the textbook form)"))


def step_eigen(result: Analysis, steps: StepByStep, stem: str) -> None:
    st.latex(
        r"n\lambda\,\alpha = \tilde K \alpha \quad\Longleftrightarrow\quad "
        r"\tilde K v = \mu\, v,\qquad \mu = n\lambda,\ \ \lVert v\rVert = 1"
    )
    st.write(_(
        "The paper (Schölkopf et al. 1998) writes the eigenproblem with λ, the variance along "
        "the axis (eigenvalue of the covariance in feature space). Code works with K̃ itself: "
        "its eigenvalues are μ = nλ. scikit-learn's `KernelPCA.eigenvalues_` and every μ on "
        "this page are eigenvalues of K̃, **not** of K̃/n."
    ))
    n = steps.n
    show_chart(spectrum_figure(result, steps), key="how_spectrum",
               name=_png_name(stem, "how_spectrum"))
    columns = {_("μ (eigenvalue of K̃ = eigenvalues_)"): steps.mu,
               _("λ = μ/n (paper)"): steps.mu / n}
    no_share = variance_share_problem(steps.trace, rounding_floor(n, steps.kernel_scale))
    if no_share is None:
        columns[_("share of variance μ/trace(K̃)")] = steps.mu / steps.trace
    table = pd.DataFrame(columns, index=_component_names(steps.k))
    numbers_table(table, "%.5g", key="how_eigen_table")
    st.caption(eigen_caption(steps))
    negatives = result.eigenvalues[result.negative]
    if len(negatives):
        st.warning(
            _("K̃ has {n} genuinely negative eigenvalue(s) among those computed, below the "
              "rounding of K's entries ({floor}; smallest {smallest}): this kernel is not "
              "positive semi-definite on these data, so no feature space makes it an inner "
              "product. The leading components above still have real axes.").format(
                n=format_number(len(negatives)), floor=signed(-result.eigenvalue_floor, ".2g"),
                smallest=signed(negatives.min(), ".4g")),
            icon=":material/warning:",
        )
    for check in eigen_checks(steps):
        show_check(check)
    if (~steps.positive).any():
        bad = join_list([str(i + 1) for i in np.flatnonzero(~steps.positive)])
        st.warning(
            _("Component(s) {bad} have μ ≤ 0 (zero up to rounding, or negative for a kernel "
              "that is not positive semi-definite): no real axis in feature space, so they get "
              "α = 0 and every point projects to 0 on them.").format(bad=bad),
            icon=":material/warning:",
        )
    show_source(eigendecompose, label=_("Step 3 in kpca_core: eigendecompose"))


def step_normalise(steps: StepByStep) -> None:
    st.latex(
        r"V = \sum_i \alpha_i\, \tilde\varphi(x_i),\qquad \lVert V\rVert^2 = "
        r"\alpha^\top \tilde K \alpha = \mu\,\lVert\alpha\rVert^2 = 1"
    )
    st.latex(
        r"\Longleftrightarrow\quad \alpha = \frac{v}{\sqrt{\mu}},\qquad "
        r"\lVert\alpha\rVert^2 = \frac1\mu = \frac1{n\lambda}"
    )
    st.write(_(
        "The eigenvector v has unit length in ℝⁿ, but the axis it describes in feature space, "
        "V = Σᵢ αᵢ φ̃(xᵢ), must have unit length there. Dividing by √μ does it (μ of K̃; with "
        "the paper's λ that is √(nλ))."
    ))
    positive = steps.positive
    with np.errstate(divide="ignore"):
        inverse = np.where(positive, 1.0 / np.where(positive, steps.mu, 1.0), np.nan)
    table = pd.DataFrame(
        {
            "μ": steps.mu,
            "‖α‖²": steps.alpha_sq_norm,
            "1/μ": inverse,
            _("μ‖α‖² (should be 1)"): steps.mu * steps.alpha_sq_norm,
        },
        index=_component_names(steps.k),
    )
    numbers_table(table, "%.6g", key="how_norm_table")
    show_check(Check(_("largest |‖v‖ − 1| (unit eigenvectors)"), steps.v_norm_gap, 1e-10))
    show_check(Check(_("largest |αᵀK̃α − 1| (unit axes in feature space)"),
                     steps.axis_length_gap, 1e-8))
    show_check(Check(_("largest |μ‖α‖² − 1|"), steps.alpha_norm_gap, 1e-8))
    show_source(scale_eigenvectors, label=_("Step 4 in kpca_core: scale_eigenvectors"))


def step_project(steps: StepByStep, data, n_total: int, rows: np.ndarray, stem: str) -> None:
    st.latex(
        r"y_k(x) = \langle V^k, \tilde\varphi(x)\rangle = \sum_i \alpha_i^k\, \tilde k(x_i, x)"
    )
    st.latex(r"\tilde K_t = K_t - 1_t K - K_t 1_n + 1_t K 1_n")
    st.write(_(
        "A coordinate is an inner product with the axis, so again only kernel values are "
        "needed. For a training point it simplifies to √μ·v. A new point is centred with the "
        "*training* means (1ₜ: m × n, every entry 1/n): the origin of feature space was fixed "
        "by the training set."
    ))
    y = None if data.y is None else data.y[rows]
    k2 = steps.train_projection[:, :2] if steps.k >= 2 else np.column_stack(
        [steps.train_projection[:, 0], np.zeros(steps.n)])
    new2 = steps.new_projection[:, :2] if steps.k >= 2 else np.column_stack(
        [steps.new_projection[:, 0], np.zeros(len(steps.new_projection))])
    show_chart(
        fig.projection_with_new_points(
            k2, y, data.target_names, new2,
            title=_("Projections K̃α: {n} training points and {new} new points (★)").format(
                n=format_number(steps.n, ","), new=format_number(len(new2))),
        ),
        key="how_projection",
        name=_png_name(stem, "how_projection"),
    )
    st.caption(_(
        "The new points (★) are midpoints of random pairs of training points: not in the "
        "training set, so their kernel rows are new and must be centred with the training "
        "statistics."
    ))
    scale = steps.projection_scale
    show_check(Check(_("largest |K̃α − √μ·v| (training points: the shortcut)"),
                     steps.train_gap, 1e-8 * scale))
    show_check(Check(_("largest |K̃α − KernelPCA.fit_transform(X)| (up to sign)"),
                     steps.estimator_train_gap, 1e-7 * scale))
    show_check(Check(_("largest |K̃ₜα − KernelPCA.transform(new points)| (up to sign)"),
                     steps.estimator_new_gap, 1e-7 * scale))
    coords = pd.DataFrame(
        steps.new_projection,
        columns=[f"y{i + 1}" for i in range(steps.k)],
        index=[_("new point {index}").format(index=i)
               for i in range(1, len(steps.new_projection) + 1)],
    )
    numbers_table(coords, "%.5g", key="how_new_table")
    show_source(center_test_kernel, project_new_points,
                label=_("Step 5 in kpca_core: center_test_kernel and project_new_points"))


def _component_names(k: int) -> list[str]:
    """The tables' row names: "component 1", … in this run's language."""
    return [_("component {c}").format(c=i + 1) for i in range(k)]


def cost_table(steps: StepByStep) -> pd.DataFrame:
    """The cost of each step, as a formula, as a number for the current n, d, k, and measured."""
    n, d, k = steps.n, steps.d, steps.k
    t = steps.times
    dense = steps.solver == "dense"
    rows = [
        (_("1 · kernel matrix K"), "O(n²d)", n * n * d, t["kernel"]),
        (_("2 · centring K̃"), "O(n²)", n * n, t["centre"]),
        (_("3 · leading {k} eigenpairs ({solver})").format(k=k, solver=steps.solver),
         "O(n³)" if dense else _("O(n²k) per Krylov sweep"), n**3 if dense else n * n * k,
         t["eigen"]),
        (_("3′ · all n eigenpairs (not needed)"), "O(n³)", n**3, None),
        (_("4–5 · scale α, project the training points"), "O(n²k)", n * n * k, t["project"]),
        (_("linear PCA of the same X (scikit-learn)"), "O(nd² + d³)", n * d * d + d**3,
         t["linear_pca"]),
    ]
    return pd.DataFrame(
        [(step, cost, format_number(ops, ","),
          "—" if sec is None else format_number(1000 * sec, ".2f"))
         for step, cost, ops, sec in rows],
        columns=[_("step"), _("cost"), _("operations for this n, d, k"), _("measured (ms)")],
    )


def step_cost(steps: StepByStep) -> None:
    st.write(_(
        "For n = {n} points of d = {d} features and k = {k} components. The kernel costs n² "
        "kernel evaluations of O(d) each; the eigenproblem is O(n³) for all eigenpairs, or "
        "O(n²k) per sweep of a Krylov (Lanczos) solver that finds only k of them. Linear PCA "
        "works with the d × d covariance instead: O(nd² + d³).").format(
        n=format_number(steps.n, ","), d=format_number(steps.d, ","), k=steps.k))
    table = cost_table(steps)
    # A static table: its cells wrap instead of clipping (also in projector mode's larger
    # text), and six rows need no scrolling or sorting.
    st.table(table, hide_index=True)
    st.caption(cost_text(steps))


# The kernel PCA steps of StepByStep.times, as the cost table names them.
STEP_NAMES = {"kernel": N_("the kernel matrix K"), "centre": N_("centring"),
              "eigen": N_("the eigenproblem"), "project": N_("scaling and projecting")}


def cost_text(steps: StepByStep) -> str:
    """The operation counts' verdict next to what was measured: they can disagree (a small
    n, a solver that finds only k of the n eigenpairs), and the sentence says which."""
    ratio = (steps.n**3) / max(steps.n * steps.d**2 + steps.d**3, 1)
    times = {name: steps.times[name] for name in STEP_NAMES}
    slowest = max(times, key=times.get)
    kernel_ms, linear_ms = 1000 * sum(times.values()), 1000 * steps.times["linear_pca"]
    numbers = dict(ratio=format_ratio(ratio), step=_(STEP_NAMES[slowest]),
                   ms=format_number(1000 * times[slowest], ".2f"),
                   kernel_ms=format_number(kernel_ms, ".2f"),
                   linear_ms=format_number(linear_ms, ".2f"), k=steps.k,
                   n=format_number(steps.n, ","))
    counted = _("Measured on this server when this fit was first computed (it is cached "
                "now). Counted in operations, all n eigenpairs (n³) are {ratio} × linear PCA's "
                "nd² + d³.").format(**numbers)
    if slowest == "eigen":
        verdict = _("Measured, the slowest step of kernel PCA was {step} ({ms} ms of "
                    "{kernel_ms} ms; linear PCA {linear_ms} ms), as the count says.")
    elif steps.solver != "dense":
        verdict = _("Measured, the slowest step of kernel PCA was {step} ({ms} ms of "
                    "{kernel_ms} ms; linear PCA {linear_ms} ms): at this size the count's n³ "
                    "is not what the time goes to (the solver finds only {k} of the {n} "
                    "eigenpairs).")
    else:
        verdict = _("Measured, the slowest step of kernel PCA was {step} ({ms} ms of "
                    "{kernel_ms} ms; linear PCA {linear_ms} ms): at this size the count's n³ "
                    "is not what the time goes to.")
    return join_sentences((counted, verdict.format(**numbers)))
