"""How it works: kernel PCA on the current data, one step at a time, each step checked."""

import streamlit as st

from experiments.analysis import DENSE_MAX_N
from lessons.common.analysis import explorer_analysis
from lessons.how_it_works import view
from server.memory import guard_memory
from shell import exports
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings, with_valid_components
from words.i18n import N_, _

st.title(_("How kernel PCA works"))
st.write(_(
    "The algorithm on the sidebar's data and kernel, one step at a time: the formula, the "
    "matrix or vector it produces, a number proving the formula holds right now, and the "
    "kpca_core code that does it."
))

settings = current_settings()
data, inputs = page_data(settings)
n = len(data.X)
settings = with_valid_components(settings, n)
# The pictures reuse the Explorer's fit (K, then K̃ in its place, plus the spectrum's
# working copy); the checks hold K, K̃ and the solver's copy of a sample of ≤ STEP_MAX_N.
guard_memory(n, copies=2 if n <= DENSE_MAX_N else 1)
guard_memory(min(n, view.STEP_MAX_N), copies=view.STEP_COPIES,
             what=N_("K, K̃ and the eigensolver's copy"))

with kernel_errors(), st.spinner(_("Computing kernel PCA step by step…")):
    result = explorer_analysis(inputs, settings.kernel_key, settings.n_components)
    steps = view.fitted_steps(inputs, settings.kernel_key, settings.n_components)
stem = view.file_stem(settings)
view.sample_note(steps, n)
rows = view.sample_rows(n)

st.header(_("1 · The kernel matrix K"))
view.step_kernel(result, steps, data, settings)

st.header(_("2 · Centring in feature space: K̃"))
view.step_centre(result, steps, data, stem)

st.header(_("3 · The eigenproblem"))
view.step_eigen(result, steps, stem)

st.header(_("4 · Normalising the axes"))
view.step_normalise(steps)

st.header(_("5 · Projecting a point"))
view.step_project(steps, data, n, rows, stem)

st.header(_("6 · What it costs"))
view.step_cost(steps)

st.header(_("Take it home"))
st.write(_("This fit's projections and eigenvalues as CSV, and a script that recomputes them."))
exports.projection_downloads(result, data, settings)
exports.reproduce_in_python(settings)
