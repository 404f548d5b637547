"""Choosing γ: one projection across a range of kernel widths (and polynomial degrees, c₀)."""

import streamlit as st

from lessons.choosing_gamma import alignment, view
from lessons.choosing_gamma.experiment import sweep
from lessons.common import gamma_hint
from lessons.common.motion import motion_section
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings
from shell.source import show_source
from words.i18n import N_, _

st.title(_("Choosing γ"))
st.write(_(
    "γ sets the scale at which the kernel compares points. Too small and every point "
    "looks like every other; too large and each point only resembles itself. Below, the "
    "same data across a range of γ, scored by how well the classes come apart."
))

settings = current_settings()
data, inputs = page_data(settings)
if len(data.X) < 10:
    st.warning(_("Use at least 10 points: each γ is scored by 5-fold cross-validation."))
    st.stop()

if not view.has_gamma(settings):
    view.offer_rbf(settings, inputs.X)
    st.stop()

hint_place = None
if view.gamma_only_rescales(settings):
    # (γ xᵀy)ᵈ = γᵈ (xᵀy)ᵈ: twelve identical panels would teach nothing.
    st.header(_("1 · Here γ only rescales K"))
    view.rescaling_note(settings, inputs)
else:
    with kernel_errors(N_("The kernel cannot be computed for every γ of the sweep")):
        gamma_sweep = view.cached_sweep(settings, inputs, "gamma")

    st.header(_("1 · The projection across γ"))
    view.panels(gamma_sweep, data, settings)
    if settings.kernel != "poly":  # a polynomial kernel's motion sweeps the degree (4)
        motion_section(settings, data, inputs, key="gamma_motion")

    st.header(_("2 · Which γ separates the classes?"))
    view.scores(gamma_sweep, data, settings)
    # The same verdict as the Explorer's, from the same sample (drawn last: its search
    # runs after this page's charts).
    hint_place = gamma_hint.slot(inputs, settings)
    alignment.section(gamma_sweep, settings, inputs)

    st.header(_("3 · Too smooth, too rough: the spectrum"))
    view.smoothing_lesson(gamma_sweep, settings)

st.header(_("4 · The polynomial degree and c₀") if settings.kernel == "poly"
          else _("4 · The polynomial degree"))
if settings.kernel == "poly":
    for param, what in (("degree", N_("The kernel cannot be computed for every degree")),
                        ("coef0", N_("The kernel cannot be computed for every c₀"))):
        swept = None
        with kernel_errors(what, stop=False):
            swept = view.cached_sweep(settings, inputs, param)
        if swept is not None:
            view.panels(swept, data, settings)
            if param == "degree":
                motion_section(settings, data, inputs, key="gamma_motion")
            view.scores(swept, data, settings)
            if hint_place is None and param == "degree":
                hint_place = gamma_hint.slot(inputs, settings)
else:
    st.info(_("With the polynomial kernel (γ xᵀy + c₀)ᵈ this section sweeps the degree d "
              "and c₀ as well: choose it in the sidebar."), icon=":material/functions:")

show_source(sweep, label=N_("The code behind the sweep"))

if hint_place is not None:
    gamma_hint.fill(hint_place, inputs, settings, None, key="hint_gamma")
