"""Sections of the common-mistakes lesson: each mistake next to the right result.

The wrong formulas live in :mod:`lessons.mistakes.formulas` (named ``wrong_*``, each citing
the correct kpca_core function); each mistake of :mod:`lessons.mistakes.experiment`
measures itself and says what its numbers show. This module only draws them, one after
the other.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from lessons.mistakes.experiment import (
    EIG_MAX_N,
    Damage,
    Mistake,
    compare_mistakes,
    damage_summary,
    formula_in_language,
)
from lessons.mistakes.sections import damage_line, picture, sample_rows
from server import costs
from server.admission import queued
from shell import findings
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.state import KernelKey
from words.i18n import N_, _

# K, K̃, a wrong K̃ and the eigensolver's copy at once (the app page's guard counts the same).
MISTAKES_COPIES = 4


def mistakes_estimate(m: int, d: int) -> costs.Estimate:
    """Time of :func:`compare_mistakes` on m points: K and the right fit, then each mistake
    its own (a kernel of centred inputs, a test kernel, about eight leading-pair solves and
    passes), whole spectra for the unsorted solver's mistake and NumPy's general ``eig`` on
    EIG_MAX_N points (several times ``eigvalsh``), and about 0.05 s of Python around them
    (twenty new points centred one at a time, the checks). Measured: 0.05–0.24 s at 300
    points."""
    corner = min(m, EIG_MAX_N)
    return (costs.Estimate(0.05) + 3 * costs.kernel_matrix(m, m, d) + costs.passes(m, 20)
            + 8 * costs.leading(m, 2)
            + 2 * costs.all_eigenvalues(m) + 10 * costs.all_eigenvalues(corner))


@bounded_cache(max_entries=12)
def cached_mistakes(inputs: Inputs, kernel: KernelKey) -> tuple[Mistake, ...]:
    X = inputs.X
    rows = sample_rows(len(X))
    # A turn in the server's queue like every other page's n × n work (server.admission).
    with queued(len(rows), copies=MISTAKES_COPIES, estimate=mistakes_estimate(*X[rows].shape),
                what=N_("the seven mistakes")):
        return compare_mistakes(
            X[rows], kernel=kernel.kernel, kernel_params=kernel.kernel_params(),
            eig_max_n=EIG_MAX_N,
        )


def show_damage(damage: Damage) -> None:
    """The damage number, in red when there is damage, green when there is none."""
    st.markdown(damage_line(damage))


def _header(mistake: Mistake, number: int) -> None:
    st.subheader(f"{number} · {_(mistake.title)}")
    st.write(_(mistake.description))
    # One above the other: side by side, long formulas are clipped in narrow windows.
    st.markdown(_(":red[**Wrong**]"))
    st.latex(formula_in_language(mistake.wrong_latex))
    st.markdown(_(":green[**Right**] · `{function}`").format(function=mistake.correct_function))
    st.latex(formula_in_language(mistake.right_latex))
    st.caption(_("Found in: {source}.").format(source=mistake.source_text()))


def _picture(mistake: Mistake, data, rows: np.ndarray) -> None:
    """The right and the wrong result side by side; ``rows``: the rows of data measured."""
    show_chart(picture(mistake, data.y, data.target_names, rows), key=f"mistake_{mistake.key}")


def mistake_sections(mistakes: tuple[Mistake, ...], data, rows: np.ndarray) -> None:
    """Each mistake: its formulas, its picture, its damage, its checks and what they show."""
    findings.publish("mistake_damage", damage_summary(mistakes))
    for number, mistake in enumerate(mistakes, 1):
        _header(mistake, number)
        _picture(mistake, data, rows)
        for damage in mistake.damages:
            show_damage(damage)
        for check in mistake.checks():
            show_check(check)
        st.caption(mistake.caption())
