"""New points: fit on a training part, then place held-out points and your own."""

import streamlit as st

from kpca_core import center_test_kernel, project_new_points
from lessons.new_points import view
from shell.page import kernel_errors, page_data
from shell.registry import new_points_training
from shell.sidebar import current_settings, with_valid_components
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Projecting new points"))
st.write(_(
    "Kernel PCA is fitted on training points only. A new point x is then placed by "
    "comparing it with every training point through the kernel: its k-th coordinate is "
    "yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x), with k̃ centred by the training points' statistics."
))

settings = current_settings()
data, inputs = page_data(settings)
if len(data.X) < 8:
    st.warning(_("Use at least 8 points: a quarter of them is held out, and kernel PCA needs "
                 "a few training points left."))
    st.stop()
settings = with_valid_components(settings, new_points_training(len(data.X)))

with kernel_errors(), st.spinner(_("Fitting kernel PCA on the training part…")):
    split = view.split_and_fit(inputs, settings.kernel_key, settings.n_components)

st.header(_("1 · Held-out points, and one of your own"))
if data.image_shape is not None:
    picked = view.usps_test_digit(settings, data)
    if picked is None:
        st.stop()
    x, raw, row, label = picked
    # Its row is in the published test split, not in these data: the CSV gives no row.
    about = dict(label=f"test digit {row}", target=label,
                 shown=_("test digit {row}").format(row=row))
elif data.X.shape[1] <= view.MAX_TYPED_FEATURES:
    x, about = view.typed_point(split, data, inputs.X, settings), {}
else:
    x, picked_row = view.picked_point(split, inputs.X)
    about = dict(row=picked_row, target=None if data.y is None else int(data.y[picked_row]))
parts, pca_point = view.locate(split, x)
view.heldout_projections(split, data, settings,
                         point=view.NewPoint(parts.transform, pca_point, **about))
view.coordinates_check(parts)
view.heldout_lesson(split)
if data.image_shape is not None:
    view.usps_neighbours(split, parts, data, settings, raw, label, row)

st.header(_("2 · The coordinates, term by term"))
component = view.terms(split, parts, x, data, settings)
if data.X.shape[1] == 2:
    view.terms_picture(split, parts, x, component, data, settings)

show_source(center_test_kernel, project_new_points, label=N_("The kpca_core code behind this page"))
