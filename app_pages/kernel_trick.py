"""The kernel trick: the feature map φ written out, checked, and shown where it cannot be."""

import streamlit as st

from lessons.kernel_trick import view
from shell.memory import guard_memory
from shell.page import kernel_errors, page_data, require_2d
from shell.sidebar import current_settings

st.title("The kernel trick, made explicit")
st.write(
    "A kernel is an inner product k(x, y) = φ(x)·φ(y) in a feature space that is never "
    "built. Here it is built: for the polynomial kernel φ can be written down and checked "
    "number by number; for the RBF kernel it has infinitely many coordinates."
)

settings = current_settings()
data, inputs = page_data(settings)
n, d = data.X.shape
rows = view.explicit_rows(n, d)
guard_memory(len(rows), copies=3, what="K, K̃ and the eigensolver's copy")

# e.g. a γ so large that (γxᵀy + c₀)² overflows
with kernel_errors("The feature map cannot be computed with these settings"):
    with st.spinner("Building φ(X)…"):
        explicit = view.cached_explicit_pca(inputs, view.map_params(settings))
        taylor = view.cached_taylor(inputs, settings.gamma)

st.header("1 · The polynomial kernel's φ, derived")
view.derivation(settings)
view.map_check(settings, inputs.X, explicit, n, d)

st.header("2 · Kernel PCA = linear PCA on φ(X)")
if len(rows) < n:
    st.caption(f"φ(X) has {explicit.n_features:,} columns: this section uses a fixed random "
               f"sample of {len(rows):,} of the {n:,} points to keep it in memory.")
view.kpca_equals_pca(settings, explicit, data, rows)

st.header("3 · The RBF kernel: infinitely many coordinates")
view.rbf_series(settings, inputs.X, taylor)
view.feature_count_note(d)

st.header("4 · Seeing it: the plane lifted into 3-D")
require_2d(data, "the lift (x₁, x₂) ↦ (γx₁², √2γx₁x₂, γx₂²) is drawn for points in the plane.")
view.lift(settings, data, inputs)
