"""Choosing γ without a classifier: centred kernel–target alignment beside separability.

A section of its own (the page calls :func:`section` with the sweep it already has): for
every γ of the sweep, on the sweep's own sample, the alignment of K with the labels
(:mod:`experiments.alignment`, Cortes, Mohri & Rostamizadeh 2012), drawn beside the
separability the page scores, with where the two agree and where they do not said from
the numbers.
"""

from __future__ import annotations

import numpy as np
import streamlit as st

from experiments.alignment import agreement_sentence, alignment_curve
from experiments.sampling import stratified_rows
from lessons.choosing_gamma.alignment_figures import alignment_and_separability
from lessons.choosing_gamma.experiment import SWEEP_MAX_N, Sweep
from lessons.choosing_gamma.view import file_stem
from server import costs
from server.admission import queued
from server.memory import guard_memory
from shell import findings
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.display import number_caption
from shell.state import Settings
from words.i18n import N_, _, join_sentences


def _rows(inputs: Inputs) -> np.ndarray:
    """The sweep's sample: the same rows its separability was scored on."""
    return stratified_rows(len(inputs.X), inputs.y, SWEEP_MAX_N)


# An entry: twelve floats.
@bounded_cache(max_entries=24)
def _curve(inputs: Inputs, kernel: str, params: tuple, values: tuple) -> np.ndarray:
    rows = _rows(inputs)
    X, y = inputs.X[rows], inputs.y[rows]
    estimate = len(values) * (costs.kernel_matrix(len(X), len(X), X.shape[1])
                              + costs.passes(len(X), 3))
    # One K at a time, and its centred copy.
    with queued(len(rows), copies=2, estimate=estimate, what=N_("the alignment of each γ")):
        return alignment_curve(X, y, kernel=kernel, kernel_params=dict(params),
                               param="gamma", values=values)


def curve_of(result: Sweep, settings: Settings, inputs: Inputs) -> np.ndarray:
    """The alignment at every γ of the sweep ``result`` (cached)."""
    params = tuple(sorted((k, v) for k, v in settings.kernel_params().items() if k != "gamma"))
    return _curve(inputs, settings.kernel, params, tuple(float(v) for v in result.values))


def section(result: Sweep, settings: Settings, inputs: Inputs) -> None:
    """The alignment curve beside the separability curve of the γ sweep ``result``."""
    st.subheader(_("Alignment: a score without a classifier"))
    if result.param != "gamma" or result.score_two is None:
        st.info(_("Alignment compares K with the labels: these data have no classes to "
                  "compare with."), icon=":material/label_off:")
        return
    # Y's definition is one phrase in \text{…}, its maths in $…$ (KaTeX reads them there);
    # the formula around it is unchanged.
    st.latex(r"A(K, Y) = \frac{\langle \tilde K, \tilde Y\rangle_F}{\lVert \tilde K\rVert_F"
             r"\,\lVert \tilde Y\rVert_F},\qquad Y_{ij} = \text{"
             + _("$1$ if $y_i = y_j$, else $0$") + "}")
    guard_memory(result.n, copies=2)
    curve = curve_of(result, settings, inputs)
    fig = alignment_and_separability(result.values, curve, result.score_two,
                                     title=_("Centred kernel–target alignment beside "
                                             "separability, against γ"))
    show_chart(fig, key="chart_alignment",
               name=f"{file_stem(settings, swept='gamma')}-alignment")
    text = agreement_sentence(result.values, curve, result.score_two)
    findings.publish("alignment", text)
    # The agreement sentence is experiments.alignment's (English until that module says it
    # in the student's language).
    number_caption(join_sentences([
        _("A is the cosine between K̃ and the centred label matrix Ỹ (Cortes, Mohri & "
          "Rostamizadeh 2012): near 1 when points of a class are alike under the kernel and "
          "unlike the others, with no classifier and no eigenvectors."), text]))
