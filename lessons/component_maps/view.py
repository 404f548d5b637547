"""The component-maps page's sections: the paper's presets, the maps, their check and caption."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from experiments.checks import Check
from kpca_core import KERNELS
from lessons.component_maps.experiment import (
    FIG3,
    FIG3_DEGREES,
    FIG4,
    MAPPED,
    MAX_CELLS,
    ComponentMaps,
    component_maps,
    degree_maps,
    grid_side,
)
from lessons.component_maps.figures import (
    MapPanel,
    map_grid,
    panel_title,
)
from lessons.component_maps.sections import (  # noqa: F401 - map_agreement: the tests'
    CUT_RULE,
    NO_CLASSES,
    axis_names,
    drawn_components,
    map_agreement,
    map_figure,
    roles,
    shows_fig4,
)
from server.admission import queued
from server.memory import guard_memory
from shell import exports, findings
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption, touch_screen
from shell.sidebar import apply_settings
from shell.state import KernelKey, Settings, default_options, format_gamma
from words.i18n import N_, _, format_number, join_list, join_sentences, ngettext


def _fig_settings(current: Settings, figure: dict, **extra) -> Settings:
    spec = {**figure, **extra}
    dataset = spec.pop("dataset")
    spec.pop("n_components", None)
    return replace(current, dataset=dataset, dataset_options=default_options(dataset),
                   standardize=False, **spec)


def paper_presets(settings: Settings) -> None:
    """Two buttons that load the settings of the paper's Figs. 4 and 3."""
    left, right = st.columns(2)
    left.button(
        _("Load Fig. 4: three clusters, RBF γ = 10"),
        key="load_fig4",
        on_click=apply_settings,
        args=(_fig_settings(settings, FIG4),),
        width="stretch",
        help=_("Schölkopf, Smola & Müller (1998), Fig. 4: k(x, y) = exp(−‖x − y‖²/0.1)."),
    )
    right.button(
        _("Load Fig. 3: noisy parabola, polynomial (x·y)ᵈ"),
        key="load_fig3",
        on_click=apply_settings,
        args=(_fig_settings(settings, FIG3, degree=2),),
        width="stretch",
        help=_("Schölkopf, Smola & Müller (1998), Fig. 3: k(x, y) = (x·y)ᵈ, d = 1 … 4."),
    )


def maps(inputs: Inputs, kernel: KernelKey) -> ComponentMaps:
    """The first ``MAPPED`` components over the plane (cached per data and kernel)."""
    n_points = len(inputs.X)
    k = min(MAPPED, n_points - 1)
    side = min(grid_side(n_points), math.isqrt(MAX_CELLS // k))
    # K plus the eigensolver's copy, then the (grid + data) × n test kernel.
    guard_memory(n_points, copies=2)
    guard_memory(side * side + n_points, n_points,
                 what=N_("the kernel between the grid points and the data"))
    return _maps(inputs, kernel, k, side)


# An entry: ≤ 8 maps of ≤ 200² float64 (2.6 MB) plus n × 8 projections.
@bounded_cache(max_entries=8)
def _maps(inputs: Inputs, kernel: KernelKey, n_components: int, side: int) -> ComponentMaps:
    with queued(len(inputs.X), copies=2, what=N_("these component maps")):
        return component_maps(inputs.X, kernel=kernel.kernel,
                              kernel_params=kernel.kernel_params(),
                              n_components=n_components, side=side)


# An entry: three maps of ≤ 81² for each of the four degrees of Fig. 3 (≤ 0.7 MB).
@bounded_cache(max_entries=4)
def _degree_maps(inputs: Inputs, gamma: float, coef0: float, side: int) -> list[ComponentMaps]:
    X = inputs.X
    with queued(len(X), copies=2, what=N_("these component maps")):
        return degree_maps(X, gamma=gamma, coef0=coef0, n_components=min(3, len(X) - 1),
                           side=side)


def map_panels(result: ComponentMaps, data, settings: Settings) -> None:
    fig, captions = map_figure(result, data.y, data.target_names, data.feature_names,
                               settings, phone=touch_screen())
    show_chart(fig, key="chart_maps", name=exports.view_name(settings, "component-maps"))
    for caption in captions:
        st.caption(caption)


def map_check(result: ComponentMaps) -> None:
    show_check(map_agreement(result))


def what_the_components_do(result: ComponentMaps, data, settings: Settings) -> None:
    """Between- and within-class shares of each component, and the caption they allow."""
    fit = result.fit
    found = roles(result, data.y, data.target_names, settings)
    if found is None:
        st.caption(_(NO_CLASSES))
        return
    k = drawn_components(fit)
    found_roles, names, text = found
    label_of = {int(c): name for c, name in zip(np.unique(data.y), names, strict=True)}
    share_title, between_title = _("% of trace(K̃)"), _("between classes (%)")
    table = pd.DataFrame({
        _("component"): np.arange(1, k + 1),
        "μ": fit.eigenvalues[:k],
        share_title: 100 * fit.explained_ratio[:k],
        between_title: 100 * found_roles.between_share,
        _("cuts in two"): [join_list([label_of[c] for c in cut]) or "—"
                           for cut in found_roles.splits],
    })
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"μ": st.column_config.NumberColumn(format="%.4g"),
                                share_title: st.column_config.NumberColumn(format="%.1f"),
                                between_title: st.column_config.NumberColumn(
                                    format="%.1f",
                                    help=_("Share of the component's variance that lies "
                                           "between the class means"))})
    findings.publish("component_roles", text)
    number_caption(join_sentences([text, _(CUT_RULE)]))


def map_downloads(result: ComponentMaps, data, settings: Settings) -> None:
    """The drawn components' values at the data points, and their eigenvalues."""
    fit, k = result.fit, drawn_components(result.fit)
    stem = exports.view_name(settings, "component-maps")
    left, right = st.columns(2)
    exports.csv_download(
        _("Projections: each map at the data points (CSV)"),
        exports.projections_csv(fit.projection[:, :k], None, data.y, data.target_names),
        f"{stem}-projections", container=left,
    )
    exports.csv_download(
        _("Eigenvalues (CSV)"),
        exports.eigenvalues_csv(fit.eigenvalues[:k], np.arange(1, k + 1), fit.trace),
        f"{stem}-eigenvalues", container=right,
    )


def degree_grid(settings: Settings, data, inputs: Inputs) -> None:
    """Fig. 3: the first three components of (γ xᵀy + c₀)ᵈ for d = 1 … 4, one row per d."""
    n_points = len(inputs.X)
    side = min(grid_side(n_points), math.isqrt(MAX_CELLS // 12))
    guard_memory(n_points, copies=2)
    guard_memory(side * side + n_points, n_points,
                 what=N_("the kernel between the grid points and the data"))
    gamma, coef0 = settings.gamma, settings.coef0
    results = _degree_maps(inputs, gamma, coef0, side)
    panels = []
    for d, result in zip(FIG3_DEGREES, results, strict=True):
        fit = result.fit
        for c in range(len(fit.eigenvalues)):
            panels.append(MapPanel(result.xs, result.ys, result.values[c], panel_title(
                c + 1, fit.eigenvalues[c], fit.explained_ratio[c], prefix=f"d = {d} · ")))
    kernel = ("(x·y)ᵈ" if coef0 == 0 and gamma == 1
              else f"({format_gamma(gamma)} x·y + {format_number(coef0)})ᵈ")
    fig = map_grid(panels, results[0].fit.X, data.y, data.target_names,
                   columns=len(results[0].fit.eigenvalues),
                   title=_("Polynomial kernel {kernel}: degrees 1–4<br><sup>one row per "
                           "degree d, first components across</sup>").format(kernel=kernel),
                   axis_titles=axis_names(data.feature_names, settings))
    stem = exports.view_name(settings, "component-maps-by-degree", swept="degree")
    show_chart(fig, key="chart_degree_maps", name=stem)
    ranks = [int(np.sum(r.fit.eigenvalues > 0)) for r in results]
    # Each panel's check as above, relative to its scale; shown: the panel closest to
    # failing (the largest share of its own tolerance), so all pass exactly when it does.
    checks = [(map_agreement(r), r.scale) for r in results]
    closest, scale = max(checks, key=lambda pair: pair[0].value / pair[0].tolerance
                         if pair[0].tolerance > 0 else 0.0)
    worst, allowed = closest.value / scale, closest.tolerance / scale
    if ranks[0] < 3:
        st.caption(ngettext(
            "Degree 1 is linear PCA: its contour lines are straight and perpendicular to the "
            "principal axes. With d = 1 only {rank} component carries variance (2-D inputs). "
            "From d = 2 on the contour lines bend: the components are polynomials of degree d "
            "in the inputs.",
            "Degree 1 is linear PCA: its contour lines are straight and perpendicular to the "
            "principal axes. With d = 1 only {rank} components carry variance (2-D inputs). "
            "From d = 2 on the contour lines bend: the components are polynomials of degree d "
            "in the inputs.", ranks[0]).format(rank=format_number(ranks[0])))
    else:
        st.caption(_(
            "Degree 1 is linear PCA: its contour lines are straight and perpendicular to the "
            "principal axes. From d = 2 on the contour lines bend: the components are "
            "polynomials of degree d in the inputs."))
    show_check(Check(_("largest relative |map at a data point − its projection| over the "
                       "12 panels (components with μ within rounding of 0 left out)"), worst,
                     tolerance=allowed))
    exports.csv_download(
        _("Eigenvalues at every degree (CSV)"),
        exports.spectra_csv("degree", [(d, r.fit.eigenvalues, r.fit.trace)
                                       for d, r in zip(FIG3_DEGREES, results, strict=True)]),
        f"{stem}-eigenvalues",
    )


def fig3_offer(settings: Settings) -> None:
    st.info(
        _("This section draws Fig. 3 of the paper: the polynomial kernel for degrees 1 to 4. "
          "The current kernel is {kernel}; choose the polynomial kernel in the sidebar, or "
          "load the paper's settings with the button above.").format(
            kernel=_(KERNELS[settings.kernel].title)),
        icon=":material/functions:",
    )
