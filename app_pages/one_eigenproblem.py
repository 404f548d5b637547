"""One eigenproblem: MDS, Isomap, Laplacian eigenmaps and spectral clustering as kernel PCA."""

import streamlit as st

from experiments.graph_kernels import METHODS, geodesic_distances, laplacian_pinv
from lessons.one_eigenproblem import view
from lessons.one_eigenproblem.experiment import eigenproblem
from shell.memory import guard_memory
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings
from shell.source import show_source

st.title("One eigenproblem")
st.write(
    "Classical MDS, Isomap, Laplacian eigenmaps and spectral clustering each build an "
    "n × n matrix K from the data and keep its leading eigenvectors: each is kernel PCA of "
    "its own K (Ham, Lee, Mika & Schölkopf 2004). Switch the method: only K changes, and "
    "kernel PCA of K gives what scikit-learn's own implementation of the method gives."
)

settings = current_settings()
data, inputs = page_data(settings)
n = len(data.X)
if n < view.MIN_POINTS:
    st.warning(f"Use at least {view.MIN_POINTS} points: a graph of neighbours and a few "
               "components need them.")
    st.stop()
rows = view.sample_rows(n, data.y)
method, k = view.controls(len(rows))
view.sample_note(rows, n)
guard_memory(len(rows), copies=view.COPIES,
             what="K, kernel PCA's copy of it and scikit-learn's own matrices")

with kernel_errors(), st.spinner(f"{METHODS[method].title}: building K…"):
    result = view.compute(inputs, settings, data, method, k)

st.header("1 · The matrix K")
view.recipe(method, k, result.projection.shape[1], settings)
view.matrices(result, data, method)

st.header("2 · Kernel PCA of K, beside scikit-learn's own")
view.embeddings(result, data)
view.agreement(result)
view.sheet(result)

if result.graph is not None:
    st.header("3 · The graph behind K")
    view.graph(result, data)

show_source(geodesic_distances, laplacian_pinv, eigenproblem,
            label="The code behind these matrices")
