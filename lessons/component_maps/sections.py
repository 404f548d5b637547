"""Component maps' first section as a figure, its captions, its check and its words,
without Streamlit: the page (:mod:`lessons.component_maps.view`) shows them, and the
offline lecture (:mod:`lessons.component_maps.pack`) carries them.
"""

from __future__ import annotations

import math

import numpy as np
import plotly.graph_objects as go

from experiments.checks import Check
from experiments.kernel_diagnostics import signed
from experiments.roundoff import above_rounding, kernel_bound, kernel_rounding, tolerance
from kpca_core import KERNELS
from lessons.component_maps.experiment import (
    FIG4,
    ComponentMaps,
    cluster_roles,
    roles_sentence,
)
from lessons.component_maps.figures import PANEL_HEIGHT, MapPanel, map_grid, panel_title
from shell.figures import plot_text, shown_class_label
from shell.state import Settings, params_text
from words.i18n import N_, _, format_number, join_list, ngettext

CHECK_TOLERANCE = 1e-8  # relative to the largest |projection|
# Panels across: four on a laptop or a projector; two on a phone, where four were 65 px
# wide and their titles ran into each other (the server knows the device, not the width).
MAP_COLUMNS, MAP_COLUMNS_TOUCH = 4, 2
PANEL_HEIGHT_TOUCH = 210  # a two-column panel on a phone: its square plot and two lines
NO_CLASSES = N_("These data have no classes, so there is nothing to separate or split: "
              "read the maps as functions of the input.")
CUT_RULE = N_("A class is cut in two when it holds at least a third of the component's "
              "variance and at least 20 % of its points lie on each side of its mean.")


def drawn_components(fit) -> int:
    """Components drawn: those with μ > 0 (the others are 0 everywhere; the page says so)."""
    return max(1, int(np.sum(fit.eigenvalues > 0)))


def axis_names(feature_names, settings: Settings) -> list[str]:
    names = [plot_text(name) for name in feature_names[:2]] or ["x₁", "x₂"]
    if settings.standardize:
        names = [_("{name} (standardised)").format(name=name) for name in names]
    return names


def map_figure(result: ComponentMaps, y: np.ndarray | None, target_names, feature_names,
               settings: Settings, *, phone: bool = False,
               columns: int | None = None) -> tuple[go.Figure, list[str]]:
    """The maps of the drawn components over the plane, and the captions under them
    (``columns``: the grid's, else the page's for the screen; at most one per map)."""
    fit = result.fit
    k = drawn_components(fit)
    panels = [
        MapPanel(result.xs, result.ys, result.values[c],
                 panel_title(c + 1, fit.eigenvalues[c], fit.explained_ratio[c]))
        for c in range(k)
    ]
    kernel = _(KERNELS[settings.kernel].title)
    params = params_text(settings)
    fig = map_grid(
        panels, fit.X, y, target_names,
        columns=min(columns or (MAP_COLUMNS_TOUCH if phone else MAP_COLUMNS), k),
        panel_height=PANEL_HEIGHT_TOUCH if phone else PANEL_HEIGHT,
        title=ngettext("First {k} component over the plane", "First {k} components over the plane",
                       k).format(k=format_number(k))
        + "<br><sup>" + (_("{kernel}, {params}").format(kernel=kernel, params=params)
                         if params else kernel) + "</sup>",
        axis_titles=axis_names(feature_names, settings),
    )
    side = len(result.xs)
    colour = dict(side=format_number(side))
    if fit.share_problem is None:
        captions = [_(
            "Colour = value of yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) at each of {side} × {side} grid points "
            "(red positive, blue negative, white 0); contour lines join points with equal "
            "value. μ is the eigenvalue of K̃ (the paper's λ = μ / n) and {percent} its share "
            "of trace(K̃), the variance in feature space.").format(percent="%", **colour)]
    else:
        captions = [_(
            "Colour = value of yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) at each of {side} × {side} grid points "
            "(red positive, blue negative, white 0); contour lines join points with equal "
            "value. μ is the eigenvalue of K̃ (the paper's λ = μ / n). {share_problem}").format(
                share_problem=fit.share_problem, **colour)]
    held = len(fit.eigenvalues)
    if k < held:
        hidden = (f"{format_number(k + 1)}–{format_number(held)}" if held > k + 1
                  else format_number(held))
        floor = signed(fit.eigenvalue_floor, '.2g')
        if fit.negative.any():
            text = ngettext(
                "Component {hidden} not drawn: μ is 0 or negative to within the rounding of "
                "K's entries (μ ≤ 10·n·ε·max|K| = {floor} counts as 0), so the map is 0 "
                "everywhere, or would draw only rounding noise magnified by α = v/√μ.",
                "Components {hidden} not drawn: μ is 0 or negative to within the rounding of "
                "K's entries (μ ≤ 10·n·ε·max|K| = {floor} counts as 0), so the map is 0 "
                "everywhere, or would draw only rounding noise magnified by α = v/√μ.",
                held - k)
        else:
            text = ngettext(
                "Component {hidden} not drawn: μ is 0 to within the rounding of K's entries "
                "(μ ≤ 10·n·ε·max|K| = {floor} counts as 0), so the map is 0 everywhere, or "
                "would draw only rounding noise magnified by α = v/√μ.",
                "Components {hidden} not drawn: μ is 0 to within the rounding of K's entries "
                "(μ ≤ 10·n·ε·max|K| = {floor} counts as 0), so the map is 0 everywhere, or "
                "would draw only rounding noise magnified by α = v/√μ.",
                held - k)
        captions.append(text.format(hidden=hidden, floor=floor))
    return fig, captions


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
    if clear.all():
        label = _("largest |map value at a data point − that point's projection √μ·v|")
    else:
        noise = join_list([format_number(c + 1) for c in np.flatnonzero(~clear)])
        label = ngettext(
            "largest |map value at a data point − that point's projection √μ·v| (component "
            "{noise}: μ within rounding of 0, no direction to check)",
            "largest |map value at a data point − that point's projection √μ·v| (components "
            "{noise}: μ within rounding of 0, no direction to check)",
            int((~clear).sum())).format(noise=noise)
    if not clear.any():
        return Check(label, 0.0, tolerance=0.0)
    gaps = np.max(np.abs(result.at_data - fit.projection)[:, clear], axis=0)
    allowed = np.array([tolerance(CHECK_TOLERANCE * result.scale, rounding, math.sqrt(mu))
                        for mu in fit.eigenvalues[clear]])
    closest = int(np.argmax(gaps / allowed))
    return Check(label, float(gaps[closest]), float(allowed[closest]))


def shows_fig4(settings: Settings) -> bool:
    """The paper's Fig. 4 is on screen: its data and its kernel."""
    return settings.dataset == FIG4["dataset"] and settings.kernel == FIG4["kernel"]


def roles(result: ComponentMaps, y: np.ndarray | None, target_names, settings: Settings):
    """Between- and within-class shares of each drawn component, the class names and the
    sentence they allow (None when the data have no classes: :data:`NO_CLASSES`)."""
    fit = result.fit
    if y is None or len(np.unique(y)) < 2:
        return None
    k = drawn_components(fit)
    found = cluster_roles(fit.projection[:, :k], y)
    names = [shown_class_label(target_names, int(c), y) for c in np.unique(y)]
    text = roles_sentence(found, fit.explained_ratio[:k], names,
                          paper_figure=shows_fig4(settings))
    return found, names, text
