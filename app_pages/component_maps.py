"""Component maps: each kernel principal component drawn as a function over the input plane."""

import streamlit as st

from lessons.component_maps import view
from lessons.component_maps.experiment import component_maps
from shell.page import kernel_errors, page_data, require_2d
from shell.sidebar import current_settings
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Component maps"))
st.write(_(
    "A kernel principal component is a function of the input: any point x of the plane "
    "gets a value yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x). Colouring the plane by that value shows what "
    "each component measures, as in Figs. 3 and 4 of Schölkopf, Smola & Müller (1998)."
))

settings = current_settings()
data, inputs = page_data(settings)
view.paper_presets(settings)
require_2d(data, N_("a map over the input plane needs inputs in the plane."))
n = len(data.X)
if n < 3:
    st.warning(_("Kernel PCA needs at least 3 points to have a component to map."))
    st.stop()

with kernel_errors(), st.spinner(_("Projecting the grid…")):
    result = view.maps(inputs, settings.kernel_key)

st.header(_("1 · The first components over the plane"))
view.map_panels(result, data, settings)
view.map_check(result)
view.what_the_components_do(result, data, settings)
view.map_downloads(result, data, settings)

st.header(_("2 · Polynomial kernels of degree 1 to 4 (Fig. 3)"))
if settings.kernel == "poly":
    with kernel_errors(N_("The polynomial kernel cannot be computed for every degree"), stop=False):
        view.degree_grid(settings, data, inputs)
else:
    view.fig3_offer(settings)

show_source(component_maps, label=N_("The code behind these maps"))
