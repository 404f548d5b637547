"""Kernel principal components as functions over the input plane.

A kernel principal component is a function of the input, yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x)
(Schölkopf, Smola & Müller 1998: the projection onto the k-th axis, with k̃ centred by
the training statistics). Evaluated on a
grid over the plane it becomes a map whose contour lines show what the component
measures; Figs. 3 and 4 of the paper are such maps.

The whole grid is projected at once: one test-kernel matrix between the grid points
(plus the training points themselves, for the check) and the training points, centred
with the training statistics, times α. No Python loop over points.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
from threadpoolctl import threadpool_limits

from experiments.kpca_steps import KpcaFit, fit_kpca
from experiments.plane_grid import (  # noqa: F401  (the grid is shared with Novelty detection)
    CELL_BUDGET,
    MARGIN,
    MAX_SIDE,
    MIN_SIDE,
    grid_side,
    plane_grid,
)
from words.i18n import N_, _, format_number, join_and, join_clauses, join_sentences, ngettext

MAPPED = 8  # components mapped in section 1 (Fig. 4 shows eight)
# Grid cells sent to the browser per figure, all panels together: 100 × 100 for eight
# panels, 81 × 81 for the twelve of Fig. 3 — about two screen pixels per grid step in a
# panel a quarter of the page wide, which the contours interpolate smoothly. (160,000
# cells sent 1.03 MB, the most of any page, and drew slowest.)
MAX_CELLS = 80_000

# BLAS threads for a map. The test kernel's product has an inner dimension of 2 (memory
# bound, nothing for a second thread to do) and the fits are small; on a busy 2-core
# host a second OpenBLAS thread only waits. Measured (circles n = 500, 8 components,
# machine loaded): 0.60-0.97 s per map with one thread, 0.80-1.29 s with two.
MAP_BLAS_THREADS = 1

# The paper's figures (Schölkopf, Smola & Müller 1998).
FIG4 = dict(dataset="scholkopf_toy", kernel="rbf", gamma=10.0, n_components=8)
FIG3_DEGREES = (1, 2, 3, 4)
FIG3 = dict(dataset="parabola", kernel="poly", gamma=1.0, coef0=0.0, n_components=3)


@dataclass(frozen=True)
class ComponentMaps:
    """The first k components of one fit, evaluated over a grid and at the data.

    Attributes
    ----------
    xs, ys : (side,) float
        Grid axes.
    values : (k, side, side) float
        values[c, j, i] = y_c at (xs[i], ys[j]) (rows follow y, as a heatmap's z).
    at_data : (n, k) float
        The same map function evaluated at the training points.
    fit : KpcaFit
        The fit (eigenvalues μ of K̃, explained ratio, training projection sqrt(μ) v).
    """

    xs: np.ndarray
    ys: np.ndarray
    values: np.ndarray
    at_data: np.ndarray
    fit: KpcaFit

    @property
    def max_difference(self) -> float:
        """max |map(xᵢ) − projection of xᵢ| over points and components: 0 up to rounding."""
        return float(np.max(np.abs(self.at_data - self.fit.projection)))

    @property
    def scale(self) -> float:
        """Largest |projection| (for a relative tolerance)."""
        return float(np.max(np.abs(self.fit.projection))) or 1.0


def component_maps(
    X: np.ndarray,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int,
    side: int | None = None,
) -> ComponentMaps:
    """Fit kernel PCA on X (2 columns) and evaluate its first components over the plane.

    Parameters
    ----------
    X : (n, 2) array
    kernel, kernel_params : as for ``kpca_core.compute_kernel``
    n_components : int
        Components to map (at most n − 1 are meaningful; capped at n).
    side : int, optional
        Grid points per axis; default :func:`grid_side` (n).
    """
    X = np.asarray(X, dtype=np.float64)
    if X.ndim != 2 or X.shape[1] != 2:
        raise ValueError(f"Component maps need points in the plane (2 columns); got {X.shape}.")
    n = X.shape[0]
    k = min(n_components, n)
    side = grid_side(n) if side is None else side
    xs, ys = plane_grid(X, side)
    gx, gy = np.meshgrid(xs, ys)
    points = np.vstack([np.column_stack([gx.ravel(), gy.ravel()]), X])
    with threadpool_limits(limits=MAP_BLAS_THREADS, user_api="blas"):
        fit = fit_kpca(X, kernel=kernel, kernel_params=kernel_params, n_components=k)
        projected = fit.project(points)  # (side² + n, k): one test kernel, one product
    values = projected[: side * side].T.reshape(k, side, side)
    return ComponentMaps(xs=xs, ys=ys, values=values, at_data=projected[side * side :], fit=fit)


def degree_maps(
    X: np.ndarray,
    *,
    degrees=FIG3_DEGREES,
    gamma: float,
    coef0: float,
    n_components: int = 3,
    side: int | None = None,
) -> list[ComponentMaps]:
    """Component maps of polynomial kernels (γ xᵀy + c₀)ᵈ for several degrees d (Fig. 3)."""
    return [
        component_maps(
            X,
            kernel="poly",
            kernel_params=dict(gamma=gamma, degree=int(d), coef0=coef0),
            n_components=n_components,
            side=side,
        )
        for d in degrees
    ]


# --------------------------------------------------------------------------- the captions


@dataclass(frozen=True)
class ClusterRoles:
    """What each component does to labelled clusters, measured on the training points.

    Attributes
    ----------
    between_share : (k,) float
        Share of the component's variance that lies between the class means (η², the
        correlation ratio): near 1 when the component separates the classes, near 0
        when it varies inside them.
    within_share : (k, c) float
        Share of the component's variance inside each class.
    splits : tuple of tuples of int
        For each component, the classes it cuts in two: the class holds at least a
        third of the component's variance and at least 20 % of its points lie on each
        side of the class mean.
    """

    between_share: np.ndarray
    within_share: np.ndarray
    splits: tuple[tuple[int, ...], ...]


SPLIT_VARIANCE = 1 / 3
SPLIT_MINORITY = 0.2


def cluster_roles(Z: np.ndarray, y: np.ndarray) -> ClusterRoles:
    """Between- and within-class shares of variance of each column of Z (η² per column)."""
    Z = np.asarray(Z, dtype=float)
    labels = np.unique(y)
    centred = Z - Z.mean(axis=0)
    total = np.sum(centred**2, axis=0)
    total = np.where(total > 0, total, np.inf)  # a constant component separates nothing
    between = np.zeros(Z.shape[1])
    within = np.zeros((Z.shape[1], len(labels)))
    splits = []
    for j, label in enumerate(labels):
        members = Z[y == label]
        mean = members.mean(axis=0)
        between += len(members) * (mean - Z.mean(axis=0)) ** 2
        within[:, j] = np.sum((members - mean) ** 2, axis=0)
    between_share = between / total
    within_share = within / total[:, None]
    for c in range(Z.shape[1]):
        cut = []
        for j, label in enumerate(labels):
            members = Z[y == label, c]
            above = float(np.mean(members > members.mean()))
            if within_share[c, j] >= SPLIT_VARIANCE and min(above, 1 - above) >= SPLIT_MINORITY:
                cut.append(int(label))
        splits.append(tuple(cut))
    return ClusterRoles(between_share=between_share, within_share=within_share,
                        splits=tuple(splits))


MIN_EXPLAINED = 0.01  # a component with less of the variance is too weak to count


def fig4_claims(roles: ClusterRoles, explained: np.ndarray, n_classes: int) -> dict:
    """Which of the paper's two claims about Fig. 4 hold for these numbers.

    ``separate``: components 1 and 2 each have ≥ 90 % of their variance between the
    clusters. ``split_each``: every later component carries ≥ 1 % of the variance in
    feature space, has ≤ 10 % of its own variance between the clusters and cuts at
    least one cluster, and together components 3.. cut every cluster.
    """
    share = roles.between_share
    separate = len(share) >= 2 and bool(np.all(share[:2] >= 0.9))
    later = range(2, len(share))
    cut = {label for c in later for label in roles.splits[c]}
    split_each = (
        len(share) > 2
        and all(
            share[c] <= 0.1 and roles.splits[c] and explained[c] >= MIN_EXPLAINED
            for c in later
        )
        and len(cut) == n_classes
    )
    return {"separate": separate, "split_each": bool(split_each)}


SEPARATES = 0.9  # a component with this share of its variance between the class means
INSIDE = 0.1  # ... and one with at most this share varies inside the classes


def _numbers(components: list[int]) -> str:
    """'1', '1 and 2', '2–8', '1, 3 and 5' (1-based; runs of three or more as a range)."""
    runs: list[list[int]] = []
    for c in sorted(components):
        if runs and c == runs[-1][-1] + 1:
            runs[-1].append(c)
        else:
            runs.append([c])
    names = []
    for run in runs:
        if len(run) >= 3:
            names.append(f"{format_number(run[0] + 1)}–{format_number(run[-1] + 1)}")
        else:
            names += [format_number(c + 1) for c in run]
    return join_and(names)


def _percent(share: float) -> str:
    return f"{format_number(100 * share, '.0f')} %" if share >= 0.01 or share == 0 else "< 1 %"


def _count(components: list[int]) -> int:
    """The count that picks a sentence's singular or plural: one component, or several (a
    range is at least three)."""
    return len(components)


def roles_sentence(roles: ClusterRoles, explained: np.ndarray, class_names: list[str], *,
                   paper_figure: bool) -> str:
    """What the drawn components do to the classes, said only as far as the numbers go.

    A component *separates* the classes when ≥ 90 % of its variance lies between the class
    means (η², :func:`cluster_roles`), *varies inside* them at ≤ 10 %, and *partly*
    separates them in between; a class is cut in two as :class:`ClusterRoles` says. Fig. 4
    of the paper is brought in only when ``paper_figure`` (its data and kernel are on
    screen), with each of its two observations said to hold or not, and why not.
    Whole sentences in the language of this run (one per case: Chinese orders them
    otherwise).
    """
    share = roles.between_share
    k = len(share)
    separating = [c for c in range(k) if share[c] >= SEPARATES]
    inside = [c for c in range(k) if share[c] <= INSIDE]
    partly = [c for c in range(k) if INSIDE < share[c] < SEPARATES]
    parts = []
    if separating:
        parts.append(ngettext(
            "Component {numbers} separates the classes: {shares} of its variance lies "
            "between the class means.",
            "Components {numbers} separate the classes: {shares} of their variance lie "
            "between the class means.", _count(separating)).format(
            numbers=_numbers(separating),
            shares=join_and([_percent(share[c]) for c in separating])))
    else:
        parts.append(_(
            "No component separates the classes on its own: at most {share} of a component's "
            "variance lies between the class means ({needed} % would).").format(
            share=_percent(share.max()), needed=format_number(100 * SEPARATES, ".0f")))
    if partly:
        parts.append(ngettext(
            "Component {numbers} partly does ({shares} between the means).",
            "Components {numbers} partly do ({shares} between the means).",
            _count(partly)).format(numbers=_numbers(partly),
                                   shares=join_and([_percent(share[c]) for c in partly])))
    if inside:
        cutting = [c for c in inside if roles.splits[c]]
        most = share[inside].max()
        between = (_("under 1 % between them") if most < 0.01
                   else _("at most {share} between them").format(share=_percent(most)))
        numbers, n_inside = _numbers(inside), _count(inside)
        if cutting == inside:
            text = ngettext(
                "Component {numbers} varies inside the classes ({between}); it cuts a class "
                "in two.",
                "Components {numbers} vary inside the classes ({between}); each cuts a class "
                "in two.", n_inside)
        elif cutting:
            text = ngettext(
                "Component {numbers} varies inside the classes ({between}); of these, "
                "{cutting}.",
                "Components {numbers} vary inside the classes ({between}); of these, "
                "{cutting}.", n_inside)
        else:
            text = ngettext("Component {numbers} varies inside the classes ({between}).",
                            "Components {numbers} vary inside the classes ({between}).",
                            n_inside)
        parts.append(text.format(numbers=numbers, between=between, cutting=ngettext(
            "component {numbers} cuts a class in two",
            "components {numbers} cut a class in two", _count(cutting)).format(
            numbers=_numbers(cutting)) if cutting and cutting != inside else ""))
    if paper_figure:
        parts.append(_fig4_sentence(roles, explained, len(class_names)))
    return join_sentences(parts)


# Fig. 4's first observation, held or not; then its second (each later component splits
# a cluster) held, not held for the reasons given, or not applicable (no later component).
_FIG4 = {
    (True, "held"): N_("As in Fig. 4, components 1 and 2 separate the clusters, and each "
                       "later component splits a cluster."),
    (False, "held"): N_("Unlike Fig. 4, components 1 and 2 do not both separate the "
                        "clusters, and each later component splits a cluster."),
    (True, "none"): N_("As in Fig. 4, components 1 and 2 separate the clusters."),
    (False, "none"): N_("Unlike Fig. 4, components 1 and 2 do not both separate the "
                        "clusters."),
    (True, "not"): N_("As in Fig. 4, components 1 and 2 separate the clusters; its later "
                      "components each split a cluster, which does not hold here: {reasons}."),
    (False, "not"): N_("Unlike Fig. 4, components 1 and 2 do not both separate the clusters; "
                       "its later components each split a cluster, which does not hold "
                       "here: {reasons}."),
}


def _fig4_sentence(roles: ClusterRoles, explained: np.ndarray, n_classes: int) -> str:
    """Fig. 4's two observations (:func:`fig4_claims`) against these numbers, with why not."""
    claims = fig4_claims(roles, explained, n_classes)
    if claims["split_each"]:
        return _(_FIG4[claims["separate"], "held"])
    later = list(range(2, len(roles.between_share)))
    if not later:
        return _(_FIG4[claims["separate"], "none"])
    reasons = []
    weak = [c for c in later if explained[c] < MIN_EXPLAINED]
    if weak:
        reasons.append(ngettext(
            "component {numbers} carries under {percent} % of the variance (too little to "
            "count)",
            "components {numbers} carry under {percent} % of the variance (too little to "
            "count)", _count(weak)).format(numbers=_numbers(weak),
                                          percent=format_number(100 * MIN_EXPLAINED, ".0f")))
    mixed = [c for c in later if roles.between_share[c] > INSIDE]
    if mixed:
        reasons.append(ngettext("component {numbers} lies partly between the clusters",
                                "components {numbers} lie partly between the clusters",
                                _count(mixed)).format(numbers=_numbers(mixed)))
    uncut = [c for c in later if not roles.splits[c]]
    if uncut:
        reasons.append(ngettext("component {numbers} cuts no cluster in two",
                                "components {numbers} cut no cluster in two",
                                _count(uncut)).format(numbers=_numbers(uncut)))
    if not reasons:
        reasons.append(_("not every cluster is cut by some later component"))
    return _(_FIG4[claims["separate"], "not"]).format(reasons=join_clauses(reasons))
