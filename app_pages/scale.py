"""Scale: how the cost of kernel PCA grows with n, and the approximations that keep it usable."""

import streamlit as st

from kpca_core import choose_eigen_solver
from lessons.scale import approx_view, view
from lessons.scale.approximations import approximate_kpca
from lessons.scale.experiment import measure_once
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings, with_valid_components
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Scale"))
st.write(_(
    "Exact kernel PCA stores the n × n matrix K (memory ∝ n²) and decomposes it (time up "
    "to ∝ n³). Measure both on this server for the current dataset and kernel, then see "
    "how Nyström and random Fourier features trade accuracy for speed."
))

settings = current_settings()
data, inputs = page_data(settings)
settings = with_valid_components(settings, len(data.X))

st.header(_("1 · Memory: what this server allows"))
view.memory_section()

st.header(_("2 · Time: how each step grows with n"))
run = view.scaling_section(settings, inputs)

st.header(_("3 · Approximations next to exact kernel PCA"))
with kernel_errors(stop=False):  # e.g. an overflowing polynomial kernel: section 4 still stands
    approx_view.approximation_section(settings, data, inputs)

st.header(_("4 · When to use which"))
view.plain_words(run)

show_source(choose_eigen_solver, measure_once, approximate_kpca,
            label=N_("The code behind these measurements"))
