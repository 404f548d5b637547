"""Sections of the common-mistakes lesson: each mistake next to the right result.

The wrong formulas live in :mod:`lessons.mistakes.formulas` (named ``wrong_*``, each citing
the correct kpca_core function); this module only draws them and their damage numbers.
Every caption's claim is computed from those numbers.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from experiments import sampling
from kpca_core import KERNELS
from lessons.mistakes import figures as fig
from lessons.mistakes.experiment import EIG_MAX_N, MISTAKES_MAX_N, MistakeResult, compare_mistakes
from lessons.mistakes.formulas import MISTAKES, Mistake
from shell.caches import inputs
from shell.charts import show_chart
from shell.checks import Check, format_value, show_check
from shell.state import Settings


def sample_rows(n: int) -> np.ndarray:
    """The rows the mistakes are measured on (all, or a seeded sample of MISTAKES_MAX_N)."""
    return sampling.sample_rows(n, MISTAKES_MAX_N)


@st.cache_data(max_entries=12, show_spinner=False)
def cached_mistakes(settings: Settings) -> dict[str, MistakeResult]:
    X = inputs(settings)
    return compare_mistakes(
        X[sample_rows(len(X))], kernel=settings.kernel, kernel_params=settings.kernel_params(),
        eig_max_n=EIG_MAX_N,
    )


def show_damage(result: MistakeResult) -> None:
    """The damage number, in red when there is damage, green when there is none."""
    value = format_value(result.damage)
    if result.harmless:
        st.markdown(f":green[**No damage on these data**] · {result.damage_label}: {value}")
    else:
        st.markdown(f":red[**Damage**] · {result.damage_label}: **{value}**")


def _header(mistake: Mistake, number: int) -> None:
    st.subheader(f"{number} · {mistake.title}")
    st.write(mistake.description)
    # One above the other: side by side, long formulas are clipped in narrow windows.
    st.markdown(":red[**Wrong**]")
    st.latex(mistake.wrong_latex)
    st.markdown(f":green[**Right**] · `{mistake.correct_function}`")
    st.latex(mistake.right_latex)


def _pair(result: MistakeResult, data, rows: np.ndarray, *, title: str, key: str,
          wrong_title: str = "wrong") -> None:
    y = None if data.y is None else data.y[rows]
    show_chart(fig.right_and_wrong(result.right, result.wrong, y, data.target_names,
                                   title=title, wrong_title=wrong_title), key=key)


def mistake_sections(results: dict[str, MistakeResult], data, rows: np.ndarray,
                     settings: Settings) -> None:
    by_key = {m.key: m for m in MISTAKES}
    n = len(rows)

    # 1. No centring
    r = results["no_centering"]
    _header(by_key["no_centering"], 1)
    _pair(r, data, rows, title="Projections: centred K̃ (left) vs uncentred K (right)",
          key="mistake_no_centering", wrong_title="wrong: eigenvectors of K")
    show_damage(r)
    angle, alignment = r.numbers["angle"], r.numbers["mean_alignment"]
    text = (
        f"The largest principal angle between the right and the wrong 2-D subspaces is "
        f"{angle:.1f}°. Rows of K sum to up to {r.numbers['max_row_sum']:.4g}, not 0. "
    )
    if angle < 5:
        text += ("Here the components barely turn: the mean of the points in feature space is "
                 "small next to their spread, but the coordinates still differ (see the "
                 "damage number).")
    else:
        text += (f"The wrong component 1 correlates at {alignment:.2f} with each point's "
                 "average kernel value (its inner product with the mean φ̄)"
                 + (": it measures where the mean is, not how the points spread."
                    if alignment >= 0.9 else "."))
    st.caption(text)

    # 2. Wrong sign on the last term
    r = results["last_sign"]
    _header(by_key["last_sign"], 2)
    show_chart(fig.spectra_right_and_wrong(r.right[:, 0], r.wrong[:, 0],
                                           title="Spectra: leading and trailing eigenvalues"),
               key="mistake_last_sign")
    show_damage(r)
    show_check(Check("right K̃: largest |row sum|", r.numbers["row_sum_right"],
                     1e-9 * n * max(1.0, abs(r.numbers["predicted_eigenvalue"]) / n)))
    show_check(Check("largest |wrong spectrum − (right spectrum with its 0 for the constant "
                     "vector replaced by −2n·mean(K))|", r.numbers["spectrum_difference"],
                     1e-8 * max(1.0, abs(r.numbers["predicted_eigenvalue"]))))
    predicted = r.numbers["predicted_eigenvalue"]
    moved = r.numbers["projection_difference"]
    text = (
        f"The wrong matrix is K̃ − 2·mean(K)·11ᵀ: the constant vector gets the eigenvalue "
        f"−2n·mean(K) = {predicted:.4g}, every other eigenpair is unchanged. "
    )
    if moved <= 1e-6:
        text += ("Here that eigenvalue is not among the leading ones, so the first two "
                 f"components survive (difference {format_value(moved)}); the error hides in "
                 "the spectrum as a spurious eigenvalue.")
    else:
        text += (f"Here it is among the leading ones, so the components change (largest "
                 f"difference {100 * moved:.0f}% of their size).")
    st.caption(text)

    # 3. Centring the inputs
    r = results["centred_inputs"]
    _header(by_key["centred_inputs"], 3)
    _pair(r, data, rows, title="Projections: raw inputs (left) vs inputs centred first (right)",
          key="mistake_centred_inputs", wrong_title="wrong: k(x − x̄, y − x̄)")
    show_damage(r)
    title = KERNELS[settings.kernel].title
    if r.harmless:
        mean = inputs(settings)[rows].mean(axis=0)
        reason = {
            "rbf": "depends on x − y only",
            "laplacian": "depends on x − y only",
            "linear": "has input space as its feature space",
        }.get(settings.kernel)
        if settings.kernel == "poly" and settings.degree == 1:
            reason = ("with d = 1 is γ xᵀy + c₀, the linear kernel up to a constant that "
                      "centring removes: its feature space is the input space")
        if reason is None:  # measured, not assumed: how far centring moved the inputs
            shown = ", ".join(f"{v:.2g}" for v in mean[:3]) + (", …" if len(mean) > 3 else "")
            reason = (f"sees inputs whose mean is already 0 here (mean ({shown}))"
                      if np.abs(mean).max() <= 1e-9 * max(1.0, np.abs(inputs(settings)).max())
                      else f"is moved by centring (the inputs' mean is ({shown})), yet too "
                           "little to show on these data")
        st.caption(f"The {title} kernel {reason}, so centring the inputs changes nothing "
                   f"visible (damage {format_value(r.damage)}): the mistake is invisible with "
                   "this kernel on these data.")
    else:
        st.caption(f"The {title} kernel is not translation-invariant: K of the shifted "
                   "inputs is a different matrix, and centring it cannot undo that "
                   f"(projections differ by {100 * r.numbers['projection_difference']:.1f}% of "
                   "their size).")

    # 4. Test kernel with its own means
    r = results["test_own_means"]
    _header(by_key["test_own_means"], 4)
    n_train, n_test = int(r.numbers["n_train"]), int(r.numbers["n_test"])
    test_rows = rows[r.rows]
    _pair(r, data, test_rows,
          title=f"{n_test} held-out points projected (model fitted on the other {n_train})",
          key="mistake_test_own_means", wrong_title="wrong: own means")
    show_damage(r)
    show_check(Check("on the training points themselves, |wrong − right| (their own means "
                     "are the training means)", r.numbers["on_training_points"], 1e-9))
    st.caption(
        f"Every held-out point moves by the same vector (spread of the shifts "
        f"{format_value(r.numbers['shift_spread'])}), so the picture looks plausible and is "
        f"still wrong. Projected one at a time, a new point centred with its own means always "
        f"lands on the origin: largest |coordinate| = "
        f"{format_value(r.numbers['single_point_max'])}."
    )

    # 5. Scaling
    r, r2 = results["scaling"], results["scaling_mu_n"]
    _header(by_key["scaling"], 5)
    _pair(r, data, rows, title="Projections: α = v/√μ (left) vs α = v (right)",
          key="mistake_scaling", wrong_title="wrong: α = v")
    show_damage(r)
    show_damage(r2)
    show_check(Check("with α = v/√μ: largest |αᵀK̃α − 1|", r.numbers["length_right"], 1e-8))
    stretch_1, stretch_2 = r.numbers["stretch_1"], r.numbers["stretch_2"]
    ratio = stretch_1 / stretch_2 if stretch_2 > 0 else float("inf")
    st.caption(
        f"With α = v every coordinate is multiplied by √μ: component 1 by {stretch_1:.4g}, "
        f"component 2 by {stretch_2:.4g}, so the picture grows and its aspect ratio changes "
        f"by a factor {ratio:.3g}. With α = v/(μn) all coordinates shrink to at most "
        f"{format_value(r.numbers['mu_n_projection_max'])}."
    )

    # 6. Projecting with the uncentred K
    r = results["uncentred_projection"]
    _header(by_key["uncentred_projection"], 6)
    _pair(r, data, rows, title="Projections: K̃α (left) vs Kα (right)",
          key="mistake_uncentred_projection", wrong_title="wrong: Kα")
    show_damage(r)
    show_check(Check("largest deviation of (Kα − K̃α) from one common shift",
                     r.numbers["shift_spread"], 1e-9 * max(1.0, abs(r.numbers["shift_1"]))))
    st.caption(
        f"Since 1ᵀα = 0, Kα = K̃α + (column means of K)·α: every point moves by "
        f"({r.numbers['shift_1']:.3g}, {r.numbers['shift_2']:.3g}). Same shape, but the "
        "coordinates no longer have mean 0 (the right ones do, to "
        f"{format_value(r.numbers['mean_right'])})."
    )

    # 7. np.linalg.eig unsorted
    r = results["unsorted_eig"]
    _header(by_key["unsorted_eig"], 7)
    m = int(r.numbers["n_used"])
    used = rows[r.rows]
    _pair(r, data, used,
          title=f"Projections on the first {m} points: eigh, sorted (left) vs eig as returned "
                "(right)", key="mistake_unsorted_eig", wrong_title="wrong: eig[:, :2]")
    show_damage(r)
    ranks = ", ".join(str(k) for k in r.ranks)
    text = (
        f"eig returned its first {len(r.ranks)} eigenvalues in the order of ranks {ranks} "
        f"(largest imaginary part {format_value(r.numbers['max_imaginary'])}). "
    )
    if r.numbers["leading_gap"] < 1e-8:
        text += ("The second and third eigenvalues are equal here, so the leading subspace "
                 "is not unique and no choice is more right than another: the angle means "
                 "nothing on these data.")
    elif r.harmless:
        text += ("Its first two happen to be the two largest here, so no damage on these "
                 "data, but nothing guarantees it: other data or another LAPACK build give "
                 "another order.")
    else:
        text += (f"Its first two are the eigenvalues of rank {int(r.numbers['rank_1'])} and "
                 f"{int(r.numbers['rank_2'])}: the wrong components.")
    st.caption(text)

