"""One eigenproblem: MDS, Isomap, Laplacian eigenmaps and spectral clustering as kernel PCA."""

import streamlit as st

from experiments.graph_kernels import METHODS, geodesic_distances, laplacian_pinv
from lessons.one_eigenproblem import view
from lessons.one_eigenproblem.experiment import eigenproblem
from server.memory import guard_memory
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings
from shell.source import show_source
from words.i18n import N_, _

st.title(_("One eigenproblem"))
st.write(_(
    "Classical MDS, Isomap, Laplacian eigenmaps and spectral clustering each build an "
    "n × n matrix K from the data and keep its leading eigenvectors: each is kernel PCA of "
    "its own K (Ham, Lee, Mika & Schölkopf 2004). Switch the method: only K changes. For "
    "classical MDS and Isomap, kernel PCA of K gives what scikit-learn's ClassicalMDS and "
    "Isomap give, up to each component's sign. For Laplacian eigenmaps and spectral "
    "clustering the two differ by design: scikit-learn's SpectralEmbedding and "
    "SpectralClustering weigh each point by its degree in the graph (Belkin & Niyogi's "
    "L f = λ D f), kernel PCA of K does not; they coincide when every point has the same "
    "degree, and the page measures how far apart they are otherwise."
))

settings = current_settings()
data, inputs = page_data(settings)
n = len(data.X)
if n < view.MIN_POINTS:
    st.warning(_("Use at least {n} points: a graph of neighbours and a few "
                 "components need them.").format(n=view.MIN_POINTS))
    st.stop()
rows = view.sample_rows(n, data.y)
method, k = view.controls(len(rows))
view.stop_if_nothing_to_cluster(method, k, len(rows))
view.sample_note(rows, n)
guard_memory(len(rows), copies=view.COPIES,
             what=N_("K, kernel PCA's copy of it and scikit-learn's own matrices"))

with kernel_errors(), st.spinner(_("{method}: building K…").format(
        method=_(METHODS[method].title))):
    result = view.compute(inputs, settings, data, method, k)

st.header(_("1 · The matrix K"))
view.recipe(method, k, result.projection.shape[1], settings)
view.matrices(result, data, method)
view.stop_without_a_direction(result)

st.header(_("2 · Kernel PCA of K, beside scikit-learn's own"))
view.embeddings(result, data)
view.agreement(result)
view.sheet(result)

if result.graph is not None:
    st.header(_("3 · The graph behind K"))
    view.graph(result, data)

show_source(geodesic_distances, laplacian_pinv, eigenproblem,
            label=N_("The code behind these matrices"))
