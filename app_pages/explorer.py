"""Explorer: one dataset, one kernel — the data, K, K̃, the spectrum and the projections."""

import streamlit as st

from experiments.analysis import DENSE_MAX_N
from kpca_core import center_kernel, kernel_spectrum
from lessons.common.analysis import analysis_is_cached, complete_analysis, first_screen_analysis
from lessons.common.motion import motion_section
from lessons.explorer import view
from lessons.explorer.charts import chart_columns, selection, wrapping_columns
from lessons.explorer.projections import gamma_hint_slot, gamma_hints, projections
from lessons.explorer.steps import section_tabs
from server.memory import guard_memory
from shell import exports
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings, standardise_hint, with_valid_components
from shell.source import show_source
from words.i18n import _

st.title(_("Explorer"))
st.write(_(
    "Kernel PCA is PCA in the kernel's feature space, computed from the kernel matrix alone: "
    "here next to linear PCA, with the steps that lead to it below."
))

wrapping_columns()
settings = current_settings()
data, inputs = page_data(settings)
settings = with_valid_components(settings, len(data.X))
fit = (inputs, settings.kernel_key, settings.n_components)  # what the analysis is of
# K, then K̃ in its place; up to DENSE_MAX_N the full spectrum needs a working copy.
guard_memory(len(data.X), copies=2 if len(data.X) <= DENSE_MAX_N else 1)

with kernel_errors():
    if analysis_is_cached(*fit) or len(data.X) <= DENSE_MAX_N:
        with st.spinner(_("Computing kernel PCA…")):
            result = first_screen_analysis(*fit)
    else:  # the full USPS takes a while: show each step
        bar = st.progress(0.0, text=_("Starting…"))
        result = first_screen_analysis(*fit, on_progress=lambda f, text: bar.progress(f, text))
        bar.empty()

# The first screen: the projections, the controls that change them (sidebar: γ and the
# components; above the charts: which components, 2-D/3-D) and whether γ suits the data.
projections(result, data, settings)
# The γ hint's search (0.3–1 s the first time) runs after the rest of the page is drawn.
hint_place = gamma_hint_slot(inputs, settings)
standardise_hint(data.X, settings.standardize, key="hint_standardise")
view.negative_eigenvalues(result, settings)
view.publish_findings(result, data)
# γ in motion: off until asked for (its frames are computed and sent only then).
motion_section(settings, data, inputs, key="explorer_motion", highlight=selection(settings))


@st.fragment
def step_by_step(result, data, inputs, settings) -> None:
    """One step at a time: only the open tab is drawn (lessons/explorer/steps.py says why)."""
    the_data, kernels, eigen, take_home = section_tabs()
    if the_data.open:
        with the_data:
            data_col, about_col = chart_columns("data", [3, 2])
            with data_col:
                view.input_space(data, inputs.X, settings)
            with about_col:
                view.about_data(data, settings)
    if kernels.open:
        with kernels:
            kernel_col, centered_col = chart_columns("kernels", 2)
            with kernel_col:
                view.kernel_matrix(result, data, settings, centered=False)
            with centered_col:
                view.kernel_matrix(result, data, settings, centered=True)
            view.heatmap_note(result)
    if eigen.open:
        with eigen:
            view.spectrum(whole_spectrum(result, inputs, settings), settings)
            st.write(_(
                "The kernel principal components are the eigenvectors v of K̃ scaled by √μ, μ "
                "their eigenvalue: the charts at the top of this page. Linear PCA does the "
                "same with the inputs' covariance."
            ))
    if take_home.open:
        with take_home:
            st.write(_(
                "The numbers on this page as CSV files, and a standalone script that carries "
                "the data and recomputes them with scikit-learn (or `kpca_core`, if "
                "installed). The camera icon on each chart saves it as a PNG."
            ))
            exports.projection_downloads(whole_spectrum(result, inputs, settings), data,
                                         settings)
            exports.reproduce_in_python(settings)


def whole_spectrum(result, inputs, settings):
    """The analysis with all n eigenvalues: the first screen's, or (from
    SPECTRUM_ON_REQUEST_FROM points, experiments/analysis.py) computed now that a tab shows
    them."""
    if result.spectrum_complete or len(inputs.X) > DENSE_MAX_N:
        return result
    with kernel_errors(), st.spinner(_("Computing all eigenvalues of K̃…")):
        return complete_analysis(inputs, settings.kernel_key, settings.n_components)


st.divider()
st.subheader(_("Step by step: how kernel PCA got there"))
step_by_step(result, data, inputs, settings)

show_source(center_kernel, kernel_spectrum, label=_("The kpca_core code behind these pictures"))

gamma_hints(hint_place, result, data, inputs, settings)
