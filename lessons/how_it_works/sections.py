"""How it works' pictures and checks without Streamlit: the page
(:mod:`lessons.how_it_works.view`) shows them, and the offline lecture
(:mod:`lessons.how_it_works.pack`) carries them at each of its slider's values.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from experiments import sampling
from experiments.analysis import Analysis, block_average
from experiments.checks import Check
from experiments.kernel_diagnostics import signed
from experiments.kpca_steps import rounding_floor, variance_share_problem
from lessons.common import kernel_figures
from lessons.how_it_works import figures as fig
from lessons.how_it_works.experiment import PAIRS_CHECKED, StepByStep
from shell import figures
from words.i18n import _, format_number, join_sentences

HEATMAP_SIDE = 250
# The checks need K and K̃ in memory at once (plus the solver's copy): above this n they
# run on a seeded sample, and the page says so.
STEP_MAX_N = 2000


def sample_rows(n: int) -> np.ndarray:
    """The rows the steps are shown on (all, or a seeded sample of STEP_MAX_N)."""
    return sampling.sample_rows(n, STEP_MAX_N)


def class_names(y: np.ndarray | None, target_names) -> list[str]:
    if y is None:
        return [_("all points")]
    return [figures.class_name(target_names, int(c), y) for c in np.unique(y)]


def heatmap_figure(result: Analysis, y: np.ndarray | None, target_names, *,
                   centered: bool, side: int = HEATMAP_SIDE) -> go.Figure:
    """K (or K̃) as the page draws it: the Explorer's display (≤ 500² cells), averaged
    again over square blocks to ≤ ``side``² cells (a picture of the structure is all a
    step needs; the offline lecture asks for fewer)."""
    matrix = result.centered_display if centered else result.kernel_display
    matrix, extra = block_average(matrix, np.arange(matrix.shape[0]), side)
    block_size = result.block_size * extra
    name = _("Centred K̃") if centered else _("Kernel matrix K")
    side_ = format_number(matrix.shape[0])
    title = (_("{name} ({side} × {side} cells)").format(name=name, side=side_)
             if block_size == 1 else
             _("{name} ({side} × {side} cells, {block}×{block} blocks)").format(
                 name=name, side=side_, block=format_number(block_size)))
    return kernel_figures.kernel_heatmap(
        matrix, result.class_sizes, class_names(y, target_names), centered=centered,
        block_size=block_size, title=title,
    )


def spectrum_figure(result: Analysis, steps: StepByStep) -> go.Figure:
    shown = min(fig.EIGENVALUES_SHOWN, len(result.eigenvalues))
    return fig.eigenvalue_bars(result.eigenvalues, result.n, steps.k,
                               title=_("Eigenvalues μ of K̃ (leading {shown}; hover for λ = "
                                       "μ/n)").format(shown=format_number(shown)))


def eigen_caption(steps: StepByStep) -> str:
    """The eigenvalue table's caption: n, trace(K̃) and the solver (and why μ/trace(K̃)
    is no share of variance, when it is not)."""
    no_share = variance_share_problem(steps.trace, rounding_floor(steps.n, steps.kernel_scale))
    return join_sentences((
        _("n = {n}; trace(K̃) = Σ of all n eigenvalues μ = {trace}. Solver: "
          "{solver}.").format(n=format_number(steps.n, ","),
                              trace=signed(steps.trace, ".5g"), solver=steps.solver),
        None if no_share is None else _(no_share)))


def kernel_checks(steps: StepByStep) -> list[Check]:
    """Step 1's checks: K is the formula, pair by pair, and symmetric."""
    scale = steps.kernel_scale
    pairs = min(PAIRS_CHECKED, steps.n**2)
    return [Check(_("largest |K[i, j] − k(xᵢ, xⱼ)| over {pairs} random pairs, the formula "
                    "evaluated one pair at a time").format(pairs=pairs), steps.pair_gap,
                  1e-10 * scale),
            Check(_("largest |K − Kᵀ| (a kernel matrix is symmetric)"), steps.symmetry_gap,
                  1e-12 * scale)]


def centre_checks(steps: StepByStep) -> list[Check]:
    """Step 2's checks: every row and column of K̃ sums to 0; the textbook form agrees."""
    tol = 1e-9 * steps.n * steps.kernel_scale
    textbook = (_("largest |textbook K̃ (explicit 1ₙ matrices) − efficient K̃|")
                if steps.textbook_n == steps.n else
                _("largest |textbook K̃ (explicit 1ₙ matrices) − efficient K̃| (first {n} "
                  "points)").format(n=steps.textbook_n))
    return [Check(_("largest |row sum| of K̃"), steps.row_sum, tol),
            Check(_("largest |column sum| of K̃"), steps.column_sum, tol),
            Check(textbook, steps.textbook_gap, 1e-10 * steps.kernel_scale)]


def eigen_checks(steps: StepByStep) -> list[Check]:
    """Step 3's checks: the eigen-equation in both conventions, and scikit-learn's μ."""
    return [Check(_("largest ‖K̃v − μv‖ / μ₁ (the eigen-equation, μ convention)"),
                  steps.residual, 1e-8),
            Check(_("largest ‖K̃α − nλα‖ / (nλ₁‖α‖) (the paper's form, λ = μ/n)"),
                  steps.paper_residual, 1e-8),
            Check(_("largest |μ − KernelPCA.eigenvalues_|"), steps.estimator_mu_gap,
                  1e-8 * max(1.0, abs(float(steps.mu[0]))))]
