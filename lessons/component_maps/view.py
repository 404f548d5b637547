"""The component-maps page's sections: the paper's presets, the maps, their check and caption."""

from __future__ import annotations

import math
from dataclasses import replace

import numpy as np
import pandas as pd
import streamlit as st

from experiments.checks import Check
from experiments.kernel_diagnostics import signed
from experiments.roundoff import above_rounding, kernel_bound, kernel_rounding, tolerance
from kpca_core import KERNELS
from lessons.component_maps.experiment import (
    FIG3,
    FIG3_DEGREES,
    FIG4,
    MAPPED,
    MAX_CELLS,
    ComponentMaps,
    cluster_roles,
    component_maps,
    degree_maps,
    grid_side,
    roles_sentence,
)
from lessons.component_maps.figures import (
    PANEL_HEIGHT,
    MapPanel,
    map_grid,
    panel_title,
)
from shell import exports, findings
from shell.admission import queued
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption, touch_screen
from shell.figures import class_label, plot_text
from shell.memory import guard_memory
from shell.sidebar import apply_settings
from shell.state import KernelKey, Settings, default_options, format_gamma, params_text

CHECK_TOLERANCE = 1e-8  # relative to the largest |projection|


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
        "Load Fig. 4: three clusters, RBF γ = 10",
        key="load_fig4",
        on_click=apply_settings,
        args=(_fig_settings(settings, FIG4),),
        width="stretch",
        help="Schölkopf, Smola & Müller (1998), Fig. 4: k(x, y) = exp(−‖x − y‖²/0.1).",
    )
    right.button(
        "Load Fig. 3: noisy parabola, polynomial (x·y)ᵈ",
        key="load_fig3",
        on_click=apply_settings,
        args=(_fig_settings(settings, FIG3, degree=2),),
        width="stretch",
        help="Schölkopf, Smola & Müller (1998), Fig. 3: k(x, y) = (x·y)ᵈ, d = 1 … 4.",
    )


def maps(inputs: Inputs, kernel: KernelKey) -> ComponentMaps:
    """The first ``MAPPED`` components over the plane (cached per data and kernel)."""
    n_points = len(inputs.X)
    k = min(MAPPED, n_points - 1)
    side = min(grid_side(n_points), math.isqrt(MAX_CELLS // k))
    # K plus the eigensolver's copy, then the (grid + data) × n test kernel.
    guard_memory(n_points, copies=2)
    guard_memory(side * side + n_points, n_points,
                 what="the kernel between the grid points and the data")
    return _maps(inputs, kernel, k, side)


# An entry: ≤ 8 maps of ≤ 200² float64 (2.6 MB) plus n × 8 projections.
@bounded_cache(max_entries=8)
def _maps(inputs: Inputs, kernel: KernelKey, n_components: int, side: int) -> ComponentMaps:
    with queued(len(inputs.X), copies=2, what="these component maps"):
        return component_maps(inputs.X, kernel=kernel.kernel,
                              kernel_params=kernel.kernel_params(),
                              n_components=n_components, side=side)


# An entry: three maps of ≤ 81² for each of the four degrees of Fig. 3 (≤ 0.7 MB).
@bounded_cache(max_entries=4)
def _degree_maps(inputs: Inputs, gamma: float, coef0: float, side: int) -> list[ComponentMaps]:
    X = inputs.X
    with queued(len(X), copies=2, what="these component maps"):
        return degree_maps(X, gamma=gamma, coef0=coef0, n_components=min(3, len(X) - 1),
                           side=side)


def _drawn(fit) -> int:
    """Components drawn: those with μ > 0 (the others are 0 everywhere; the page says so)."""
    return max(1, int(np.sum(fit.eigenvalues > 0)))


# Panels across: four on a laptop or a projector; two on a phone, where four were 65 px
# wide and their titles ran into each other (the server knows the device, not the width).
MAP_COLUMNS, MAP_COLUMNS_TOUCH = 4, 2
PANEL_HEIGHT_TOUCH = 210  # a two-column panel on a phone: its square plot and two lines


def map_panels(result: ComponentMaps, data, settings: Settings) -> None:
    fit = result.fit
    k = _drawn(fit)
    phone = touch_screen()
    panels = [
        MapPanel(result.xs, result.ys, result.values[c],
                 panel_title(c + 1, fit.eigenvalues[c], fit.explained_ratio[c]))
        for c in range(k)
    ]
    kernel = KERNELS[settings.kernel].title
    params = params_text(settings)
    fig = map_grid(
        panels, fit.X, data.y, data.target_names,
        columns=min(MAP_COLUMNS_TOUCH if phone else MAP_COLUMNS, k),
        panel_height=PANEL_HEIGHT_TOUCH if phone else PANEL_HEIGHT,
        title=f"First {k} component{'s' if k > 1 else ''} over the plane<br><sup>{kernel}"
        + (f", {params}" if params else "") + "</sup>",
        axis_titles=_axis_names(data, settings),
    )
    show_chart(fig, key="chart_maps", name=exports.view_name(settings, "component-maps"))
    side = len(result.xs)
    st.caption(
        f"Colour = value of yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) at each of {side} × {side} grid points "
        "(red positive, blue negative, white 0); contour lines join points with equal value. "
        "μ is the eigenvalue of K̃ (the paper's λ = μ / n)"
        + (" and % its share of trace(K̃), the variance in feature space."
           if fit.share_problem is None else f". {fit.share_problem}")
    )
    held = len(fit.eigenvalues)
    if k < held:
        hidden = f"{k + 1}–{held}" if held > k + 1 else f"{held}"
        st.caption(
            f"Component{'s' if held > k + 1 else ''} {hidden} not drawn: μ is 0"
            f"{' or negative' if fit.negative.any() else ''} to within the rounding of K's "
            "entries (μ ≤ 10·n·ε·max|K| = "
            f"{signed(fit.eigenvalue_floor, '.2g')} counts as 0), so the "
            "map is 0 everywhere, or would draw only rounding noise magnified by α = v/√μ."
        )


def _axis_names(data, settings: Settings) -> list[str]:
    names = [plot_text(name) for name in data.feature_names[:2]] or ["x₁", "x₂"]
    if settings.standardize:
        names = [f"{name} (standardised)" for name in names]
    return names


def map_check(result: ComponentMaps) -> None:
    show_check(map_agreement(result))


def map_agreement(result: ComponentMaps) -> Check:
    """The map at the data points equals their projections √μ·v, within rounding.

    The map is K̃ₜα with α = v/√μ: rounding in K̃ (experiments.roundoff) reaches it
    multiplied by 1/√μ, so each component has its own tolerance, and the one shown is the
    component closest to failing (a small μ does not loosen the check of a large one). A
    component whose μ is within rounding of 0 has no direction to check (its map is
    rounding noise, however drawn); the label names it.
    """
    fit = result.fit
    rounding = kernel_rounding(len(fit.X), kernel_bound(fit.X, fit.kernel, fit.kernel_params))
    clear = above_rounding(fit.eigenvalues, rounding)
    label = "largest |map value at a data point − that point's projection √μ·v|"
    if not clear.all():
        noise = ", ".join(str(c + 1) for c in np.flatnonzero(~clear))
        label += (f" (component{'s' if (~clear).sum() > 1 else ''} {noise}: μ within "
                  "rounding of 0, no direction to check)")
    if not clear.any():
        return Check(label, 0.0, tolerance=0.0)
    gaps = np.max(np.abs(result.at_data - fit.projection)[:, clear], axis=0)
    allowed = np.array([tolerance(CHECK_TOLERANCE * result.scale, rounding, math.sqrt(mu))
                        for mu in fit.eigenvalues[clear]])
    closest = int(np.argmax(gaps / allowed))
    return Check(label, float(gaps[closest]), float(allowed[closest]))


def what_the_components_do(result: ComponentMaps, data, settings: Settings) -> None:
    """Between- and within-class shares of each component, and the caption they allow."""
    fit = result.fit
    if data.y is None or len(np.unique(data.y)) < 2:
        st.caption("These data have no classes, so there is nothing to separate or split: "
                   "read the maps as functions of the input.")
        return
    k = _drawn(fit)
    roles = cluster_roles(fit.projection[:, :k], data.y)
    names = [class_label(data.target_names, int(c), data.y) for c in np.unique(data.y)]
    label_of = {int(c): name for c, name in zip(np.unique(data.y), names, strict=True)}
    table = pd.DataFrame({
        "component": np.arange(1, k + 1),
        "μ": fit.eigenvalues[:k],
        "% of trace(K̃)": 100 * fit.explained_ratio[:k],
        "between classes (%)": 100 * roles.between_share,
        "cuts in two": [", ".join(label_of[c] for c in cut) or "—"
                                   for cut in roles.splits],
    })
    st.dataframe(table, hide_index=True, width="stretch",
                 column_config={"μ": st.column_config.NumberColumn(format="%.4g"),
                                "% of trace(K̃)": st.column_config.NumberColumn(format="%.1f"),
                                "between classes (%)": st.column_config.NumberColumn(
                                    format="%.1f",
                                    help="Share of the component's variance that lies between "
                                    "the class means")})
    text = roles_sentence(roles, fit.explained_ratio[:k], names,
                          paper_figure=shows_fig4(settings))
    findings.publish("component_roles", text)
    number_caption(text + " A class is cut in two when it holds at least a third of the "
                   "component's variance and at least 20 % of its points lie on each side of its "
                   "mean.")


def shows_fig4(settings: Settings) -> bool:
    """The paper's Fig. 4 is on screen: its data and its kernel."""
    return settings.dataset == FIG4["dataset"] and settings.kernel == FIG4["kernel"]


def map_downloads(result: ComponentMaps, data, settings: Settings) -> None:
    """The drawn components' values at the data points, and their eigenvalues."""
    fit, k = result.fit, _drawn(result.fit)
    stem = exports.view_name(settings, "component-maps")
    left, right = st.columns(2)
    exports.csv_download(
        "Projections: each map at the data points (CSV)",
        exports.projections_csv(fit.projection[:, :k], None, data.y, data.target_names),
        f"{stem}-projections", container=left,
    )
    exports.csv_download(
        "Eigenvalues (CSV)",
        exports.eigenvalues_csv(fit.eigenvalues[:k], np.arange(1, k + 1), fit.trace),
        f"{stem}-eigenvalues", container=right,
    )


def degree_grid(settings: Settings, data, inputs: Inputs) -> None:
    """Fig. 3: the first three components of (γ xᵀy + c₀)ᵈ for d = 1 … 4, one row per d."""
    n_points = len(inputs.X)
    side = min(grid_side(n_points), math.isqrt(MAX_CELLS // 12))
    guard_memory(n_points, copies=2)
    guard_memory(side * side + n_points, n_points,
                 what="the kernel between the grid points and the data")
    gamma, coef0 = settings.gamma, settings.coef0
    results = _degree_maps(inputs, gamma, coef0, side)
    panels = []
    for d, result in zip(FIG3_DEGREES, results, strict=True):
        fit = result.fit
        for c in range(len(fit.eigenvalues)):
            panels.append(MapPanel(result.xs, result.ys, result.values[c], panel_title(
                c + 1, fit.eigenvalues[c], fit.explained_ratio[c], prefix=f"d = {d} · ")))
    kernel = "(x·y)ᵈ" if coef0 == 0 and gamma == 1 else f"({format_gamma(gamma)} x·y + {coef0})ᵈ"
    fig = map_grid(panels, results[0].fit.X, data.y, data.target_names,
                   columns=len(results[0].fit.eigenvalues),
                   title=f"Polynomial kernel {kernel}: degrees 1–4<br><sup>one row per degree "
                         "d, first components across</sup>",
                   axis_titles=_axis_names(data, settings))
    stem = exports.view_name(settings, "component-maps-by-degree", swept="degree")
    show_chart(fig, key="chart_degree_maps", name=stem)
    ranks = [int(np.sum(r.fit.eigenvalues > 0)) for r in results]
    # Each panel's check as above, relative to its scale; shown: the panel closest to
    # failing (the largest share of its own tolerance), so all pass exactly when it does.
    checks = [(map_agreement(r), r.scale) for r in results]
    closest, scale = max(checks, key=lambda pair: pair[0].value / pair[0].tolerance
                         if pair[0].tolerance > 0 else 0.0)
    worst, allowed = closest.value / scale, closest.tolerance / scale
    st.caption(
        "Degree 1 is linear PCA: its contour lines are straight and perpendicular to the "
        "principal axes. "
        + (f"With d = 1 only {ranks[0]} components carry variance (2-D inputs). "
           if ranks[0] < 3 else "")
        + "From d = 2 on the contour lines bend: the components are polynomials of degree d "
        "in the inputs."
    )
    show_check(Check("largest relative |map at a data point − its projection| over the "
                     "12 panels (components with μ within rounding of 0 left out)", worst,
                     tolerance=allowed))
    exports.csv_download(
        "Eigenvalues at every degree (CSV)",
        exports.spectra_csv("degree", [(d, r.fit.eigenvalues, r.fit.trace)
                                       for d, r in zip(FIG3_DEGREES, results, strict=True)]),
        f"{stem}-eigenvalues",
    )


def fig3_offer(settings: Settings) -> None:
    st.info(
        "This section draws Fig. 3 of the paper: the polynomial kernel for degrees 1 to 4. "
        f"The current kernel is {KERNELS[settings.kernel].title}; choose the polynomial "
        "kernel in the sidebar, or load the paper's settings with the button above.",
        icon=":material/functions:",
    )
