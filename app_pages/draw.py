"""Draw your own data: click points onto a plane, and watch kernel PCA follow each edit."""

import streamlit as st

from datasets import drawn
from kpca_core import center_kernel
from lessons.draw import view
from server.memory import guard_memory
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings, with_valid_components
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Draw your own data"))
st.write(_(
    "Put points of up to three classes on the plane, move them, erase them, or start from "
    "a shape: kernel PCA of your points follows every edit, beside linear PCA. The Explorer, "
    "Component maps, New points and Choosing γ show them too ('Drawn on the Draw page')."
))

settings = current_settings()
# Guarded at the most points a drawing can have: no edit can be refused halfway.
guard_memory(drawn.MAX_POINTS, copies=2)
data, inputs = page_data(settings, few_points_ok=True)  # the editor shows them, however few

view.starting_points(settings.kernel)
draw_col, kpca_col = st.columns(2)
with draw_col:
    view.drawing(data)
n = len(data.X)
if drawn.analysis_problem(data.X):
    kpca_col.info(view.not_yet(data.X), icon=":material/draw:")
    st.stop()

settings = with_valid_components(settings, n)
with kernel_errors():
    result = view.analysis(inputs, settings.kernel_key, settings.n_components)
with kpca_col:
    view.projection(result, data, kernel=True)
pca_col, verdict_col = st.columns(2)
with pca_col:
    view.projection(result, data, kernel=False)
with verdict_col:
    view.separability(result, data)

st.subheader(_("K and K̃ of your points"))
view.kernel_matrices(result, data)
st.subheader(_("The spectrum of K̃"))
view.spectrum(result, settings)

show_source(center_kernel, label=N_("The kpca_core code behind these pictures"))
