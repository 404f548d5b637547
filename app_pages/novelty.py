"""Novelty detection: kernel PCA fitted on normal data flags points far from its subspace."""

import streamlit as st

from experiments.novelty import errors_and_spread
from lessons.novelty import view
from lessons.novelty.experiment import novelty
from server.memory import guard_memory
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Novelty detection"))
st.write(_(
    "Fit kernel PCA on normal data only. A new point that resembles them lies close to "
    "their principal subspace in feature space; a novel one lies far from it. That "
    "distance, the reconstruction error, is computed from the kernel alone (Hoffmann 2007), "
    "and here it is scored against scikit-learn's one-class SVM and isolation forest."
))

settings = current_settings()
data, inputs = page_data(settings)
if len(data.X) < 8:
    st.warning(_("Use at least 8 points: a quarter of the normal points is held out, and "
                 "kernel PCA needs a few to fit on."))
    st.stop()
normal = view.normal_choice(data)
n_normal = len(data.X) if normal is None else int((data.y == normal).sum())
side = view.training_size(n_normal)
guard_memory(side, copies=view.copies_for(side),
             what=N_("kernel PCA of the normal points and the explicit check"))
if normal is None:  # outliers drawn off the shape: their search comes first, in a turn of its own
    view.guard_search(data.X)
view.require_something_to_score(view.split(inputs, normal), data)

with kernel_errors(), st.spinner(_("Fitting kernel PCA on the normal points…")):
    result = view.compute(inputs, settings, normal)

st.header(_("1 · The reconstruction error"))
view.formula(result)
view.components_note(result, settings.n_components)

st.header(_("2 · Normal points, outliers and a threshold"))
view.outliers_note(result, data)
view.seeds_note()
percent = view.threshold_slider()
cut = view.cut_for(result, percent)
if result.grid is not None:
    view.plane_map(result, data, inputs.X, cut, settings)
view.threshold_section(result, percent)
view.most_novel(result, data, inputs.X, cut)

st.header(_("3 · Beside the one-class SVM and the isolation forest"))
view.roc(result, cut)

show_source(errors_and_spread, novelty, label=N_("The code behind the scores"))
