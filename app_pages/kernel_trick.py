"""The kernel trick: the feature map φ written out, checked, and shown where it cannot be."""

import streamlit as st

from lessons.kernel_trick import view
from server.memory import guard_memory
from shell.page import kernel_errors, page_data, require_2d
from shell.sidebar import current_settings
from words.i18n import N_, _, format_number

st.title(_("The kernel trick, made explicit"))
st.write(_(
    "A kernel is an inner product k(x, y) = φ(x)·φ(y) in a feature space that is never "
    "built. Here it is built: for the polynomial kernel φ can be written down and checked "
    "number by number; for the RBF kernel it has infinitely many coordinates."
))

settings = current_settings()
data, inputs = page_data(settings)
n, d = data.X.shape
rows = view.explicit_rows(n, d)
guard_memory(len(rows), copies=3, what=N_("K, K̃ and the eigensolver's copy"))

# e.g. a γ so large that (γxᵀy + c₀)² overflows
with kernel_errors(N_("The feature map cannot be computed with these settings")):
    with st.spinner(_("Building φ(X)…")):
        explicit = view.cached_explicit_pca(inputs, view.map_params(settings))
        taylor = view.cached_taylor(inputs, settings.gamma)

st.header(_("1 · The polynomial kernel's φ, derived"))
view.derivation(settings)
view.map_check(settings, inputs.X, explicit, n, d)

st.header(_("2 · Kernel PCA = linear PCA on φ(X)"))
if len(rows) < n:
    st.caption(_("φ(X) has {columns} columns: this section uses a fixed random sample of "
                 "{sample} of the {n} points to keep it in memory.").format(
        columns=format_number(explicit.n_features, ","), sample=format_number(len(rows), ","),
        n=format_number(n, ",")))
view.kpca_equals_pca(settings, explicit, data, rows)

st.header(_("3 · The RBF kernel: infinitely many coordinates"))
view.rbf_series(settings, inputs.X, taylor)
view.feature_count_note(d)

st.header(_("4 · Seeing it: the plane lifted into 3-D"))
require_2d(data, N_("the lift (x₁, x₂) ↦ (γx₁², √2γx₁x₂, γx₂²) is drawn for points in the "
                    "plane."))
view.lift(settings, data, inputs)
