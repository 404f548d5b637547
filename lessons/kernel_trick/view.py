"""Sections of the kernel-trick lesson: the explicit feature maps, checked on the current data.

The explicit map on this page is always the degree-2 polynomial kernel (γ xᵀy + c₀)²,
whatever the sidebar's kernel, with the sidebar's γ and c₀ (c₀ < 0 has no real map: 0 is
used and the page says so). The RBF part uses the sidebar's γ.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, replace

import numpy as np
import pandas as pd
import streamlit as st

from experiments.checks import Check
from experiments.feature_maps import (
    EXPLICIT_MAX_CELLS,
    EXPLICIT_MAX_N,
    TAYLOR_MAX_FEATURES,
    TAYLOR_MAX_N,
    ExplicitPCA,
    TaylorConvergence,
    explicit_pca,
    monomial_names,
    n_monomials,
    poly_feature_map,
    rbf_taylor_convergence,
)
from experiments.roundoff import eigenvalue_groups, kernel_rounding, tolerance
from experiments.sampling import sample_rows
from lessons.kernel_trick import figures as fig
from lessons.kernel_trick.sections import LiftScores, lift_scores_of, lift_section
from server import costs
from server.admission import queued, taking_turn
from server.memory import FLOAT_BYTES, matrix_bytes
from shell import exports, findings
from shell.caches import Inputs, bounded_cache
from shell.charts import TURN_LABEL, show_chart
from shell.checks import show_check
from shell.state import Settings, format_gamma
from words.i18n import N_, _, format_number, join_list, join_sentences


@dataclass(frozen=True)
class MapParams:
    """γ and c₀ of the page's (γ xᵀy + c₀)², and whether c₀ had to be changed."""

    gamma: float
    coef0: float
    coef0_clipped: bool


def map_params(settings: Settings) -> MapParams:
    return MapParams(settings.gamma, max(settings.coef0, 0.0), settings.coef0 < 0)


def explicit_rows(n: int, d: int, seed: int = 0) -> np.ndarray:
    """Rows used for the explicit map: all, or a seeded sample keeping φ(X) small."""
    m = math.comb(d + 2, 2)
    limit = max(20, min(EXPLICIT_MAX_N, EXPLICIT_MAX_CELLS // m))
    return sample_rows(n, limit, seed)


def explicit_bytes(m: int, d: int) -> int:
    """Bytes :func:`explicit_pca` holds at its peak on m points in d dimensions.

    K, K̃ and the eigensolver's copy (3 m × m), and the feature map's arrays: the p × d
    exponents in floats and in integers, then about five m × p arrays (the monomials'
    logarithms and signs, φ(X), PCA's centred copy and its singular vectors). Measured
    with tracemalloc: 92 MB at 2,000 × 2 (model 96 MB), 320 MB at 150 × 256 (model 335 MB).
    """
    p = math.comb(d + 2, 2)  # φ's columns, as explicit_rows counts them
    return matrix_bytes(m, copies=3) + FLOAT_BYTES * p * (2 * d + 5 * m)


def explicit_estimate(m: int, d: int, k: int = 2) -> costs.Estimate:
    """Time of :func:`explicit_pca`: φ(X), K twice (the check and KernelPCA's own), K̃ and
    its leading k, φφᵀ, and PCA's SVD of φ(X) (what dominates for high-dimensional data:
    1.8–12 s at 150 × 256 on this 2-core host, 0.3–0.7 s at 2,000 × 2)."""
    p = math.comb(d + 2, 2)  # φ's columns, as explicit_rows counts them
    return (costs.monomials(m, p, d) + 2 * costs.kernel_matrix(m, m, d) + costs.passes(m, 3)
            + costs.leading(m, k) + costs.matrix_product(m, p, m) + costs.thin_svd(m, p))


@bounded_cache(max_entries=16)
def cached_explicit_pca(inputs: Inputs, params: MapParams) -> ExplicitPCA:
    X = inputs.X
    rows = explicit_rows(*X.shape)
    m, d = len(rows), X.shape[1]
    # A turn in the server's queue like every other page's n × n work (server.admission):
    # up to 96 MB at 2,000 points, and seconds of SVD on high-dimensional data.
    with taking_turn(explicit_bytes(m, d), estimate=explicit_estimate(m, d),
                     what=N_("the explicit feature map and its PCA")):
        return explicit_pca(X[rows], gamma=params.gamma, coef0=params.coef0, n_components=2)


def taylor_estimate(m: int, d: int) -> costs.Estimate:
    """Time of :func:`rbf_taylor_convergence` on m points: K, and φφᵀ of at most
    TAYLOR_MAX_FEATURES coordinates added order by order (a pass over m × m each)."""
    return (costs.kernel_matrix(m, m, d) * 2 + costs.monomials(m, TAYLOR_MAX_FEATURES, d)
            + costs.matrix_product(m, TAYLOR_MAX_FEATURES, m) + costs.passes(m, 3 * 80))


@bounded_cache(max_entries=16)
def cached_taylor(inputs: Inputs, gamma: float) -> TaylorConvergence:
    X = inputs.X
    rows = sample_rows(len(X), TAYLOR_MAX_N)
    # K, the running Gram matrix, the closed form's terms (m × m each) and one block of
    # at most TAYLOR_MAX_FEATURES coordinates: a few MB, a quick turn.
    m, d = len(rows), X.shape[1]
    with queued(m, copies=4 + TAYLOR_MAX_FEATURES / m, estimate=taylor_estimate(m, d),
                what=N_("the RBF kernel's series")):
        return rbf_taylor_convergence(X[rows], gamma=gamma,
                                      max_features=TAYLOR_MAX_FEATURES)


@bounded_cache(max_entries=16)
def lift_scores(inputs: Inputs) -> LiftScores:
    """:func:`lessons.kernel_trick.sections.lift_scores_of`, keyed by the data alone (they
    are independent of γ): a γ change reuses them."""
    return lift_scores_of(inputs.X, inputs.y)


def file_stem(settings: Settings, kernel: str = "poly", coef0: float | None = None) -> str:
    """File names of this page: the kernel each section actually uses, not the sidebar's."""
    coef0 = map_params(settings).coef0 if coef0 is None else coef0
    shown = replace(settings, kernel=kernel, degree=2, coef0=coef0)
    return exports.view_name(shown, "kernel-trick")


def derivation(settings: Settings) -> None:
    params = map_params(settings)
    st.write(_(
        "Expand the degree-2 polynomial kernel for points in the plane and group the terms by "
        "monomial. Each term is a product of one function of x and the same function of y, "
        "so the kernel is an inner product of two explicit vectors:"
    ))
    st.latex(
        r"\begin{aligned}(\gamma\, x^\top y + c_0)^2 &= c_0^2 + 2\gamma c_0\,(x_1y_1 + x_2y_2)"
        r"\\ &\quad + \gamma^2 (x_1^2 y_1^2 + 2 x_1x_2\, y_1y_2 + x_2^2 y_2^2)"
        r"\\ &= \varphi(x)\cdot\varphi(y)\end{aligned}"
    )
    st.latex(
        r"\varphi(x) = \bigl(c_0,\ \sqrt{2\gamma c_0}\,x_1,\ \sqrt{2\gamma c_0}\,x_2,\ "
        r"\gamma x_1^2,\ \sqrt2\,\gamma\, x_1x_2,\ \gamma x_2^2\bigr)"
    )
    st.write(_(
        "The √2 comes from the cross term 2x₁x₂y₁y₂ split evenly between φ(x) and φ(y); the "
        "√(2γc₀) from the middle term. In d dimensions the same multinomial expansion gives "
        "one coordinate per monomial of degree ≤ 2: C(d + 2, 2) of them "
        "(weights √(2!/(a!(2−|a|)!) · c₀^(2−|a|) γ^|a|))."
    ))
    parts = [_("This page's kernel for the explicit map: (γ xᵀy + c₀)² with the sidebar's "
               "γ = {gamma} and c₀ = {coef0}.").format(gamma=format_gamma(params.gamma),
                                                      coef0=format_number(params.coef0, "g"))]
    if not (settings.kernel == "poly" and settings.degree == 2 and not params.coef0_clipped):
        parts.append(_("The sidebar's kernel is not used here: this section is about the "
                       "degree-2 polynomial kernel, whatever is selected."))
    if params.coef0_clipped:
        parts.append(_("The sidebar's c₀ = {coef0} is negative: √(2γc₀) would be imaginary (no "
                       "real φ exists, and the kernel can be indefinite), so c₀ = 0 is "
                       "used.").format(coef0=format_number(settings.coef0, "g")))
    st.info(join_sentences(parts), icon=":material/info:")


def map_check(settings: Settings, X: np.ndarray, result: ExplicitPCA, n_total: int,
              d: int) -> None:
    """φ of the first points of ``X`` (the inputs as the kernel sees them), checked."""
    params = map_params(settings)
    rows = explicit_rows(*X.shape)
    preview = X[rows[:5]]
    features, exponents = poly_feature_map(preview, degree=2, gamma=params.gamma,
                                           coef0=params.coef0)
    if d <= 6:
        names = monomial_names(exponents)
        table = pd.DataFrame(features, columns=names, index=[f"φ(x{int(i)})" for i in rows[:5]])
        st.dataframe(table, key="trick_phi_table", column_config={
            name: st.column_config.NumberColumn(format="%.4g") for name in names})
        st.caption(_("φ of the first points: each column is the weighted monomial named in "
                     "its header (e.g. the x1·x2 column holds √2·γ·x₁x₂)."))
    else:
        st.caption(_("d = {d} features: φ has {count} coordinates (too many to list).").format(
            d=d, count=format_number(result.n_features, ",")))
    label = (_("largest |φ(x)·φ(y) − k(x, y)| over all pairs of the current points, k = "
               "(γxᵀy + c₀)²") if len(rows) == n_total else
             _("largest |φ(x)·φ(y) − k(x, y)| over all pairs of the current points (a sample "
               "of {sample} of {n}), k = (γxᵀy + c₀)²").format(
                 sample=format_number(len(rows), ","), n=format_number(n_total, ",")))
    scale = 1.0
    show_check(Check(label, result.kernel_gap, 1e-9 * max(scale, _kernel_scale(result))))


def _kernel_scale(result: ExplicitPCA) -> float:
    # |k| ≤ ‖φ(x)‖‖φ(y)‖; the variances bound the spread. A relative scale for tolerances.
    return max(1.0, float(np.abs(result.eigenvalues).max()))


def kpca_equals_pca(settings: Settings, result: ExplicitPCA, data, rows: np.ndarray) -> None:
    st.latex(
        r"\text{KPCA}\bigl(X;\ (\gamma x^\top y + c_0)^2\bigr) \;=\; "
        r"\text{PCA}\bigl(\varphi(X) - \overline{\varphi(X)}\bigr)"
    )
    same = (_("Linear PCA on the explicit {columns}-column φ(X) (scikit-learn's PCA, which "
              "centres φ(X)) and kernel PCA from K alone give the same coordinates, up to the "
              "sign of each component and, where eigenvalues coincide (as here), a rotation "
              "within their plane. The constant coordinate c₀ disappears in the centring.")
            if has_repeated_eigenvalues(result) else
            _("Linear PCA on the explicit {columns}-column φ(X) (scikit-learn's PCA, which "
              "centres φ(X)) and kernel PCA from K alone give the same coordinates, up to the "
              "sign of each component. The constant coordinate c₀ disappears in the "
              "centring."))
    st.write(same.format(columns=result.n_features))
    y = None if data.y is None else data.y[rows]
    stem = file_stem(settings)
    left, right = st.columns(2)
    with left:
        show_chart(fig.side_by_side_projection(
            result.kpca, y, data.target_names, axis=_("KPCA component {c}"), rows=rows,
            title=_("Kernel PCA with (γxᵀy + c₀)²")), key="trick_kpca", name=f"{stem}-kpca",
            columns=2)
    with right:
        show_chart(fig.side_by_side_projection(
            result.pca, y, data.target_names, axis=_("PCA component {c}"), rows=rows,
            title=_("Linear PCA on φ(X) ({columns} columns)").format(
                columns=result.n_features)),
            key="trick_pca", name=f"{stem}-pca-on-phi", columns=2)
    st.caption(_("Kernel PCA: from the kernel matrix K alone. Linear PCA: from the explicit "
                 "coordinates φ(X)."))
    exports.csv_download(
        _("Projections (CSV)"),
        exports.projections_csv(result.kpca, result.pca, y, data.target_names, points=rows,
                                pca_prefix="pca_phi"),
        f"{stem}-projections",
    )
    show_check(components_check(result))
    show_check(variances_check(result))


def has_repeated_eigenvalues(result: ExplicitPCA) -> bool:
    """Whether two of the compared components share an eigenvalue (within rounding)."""
    n, k = result.kpca.shape
    rounding = kernel_rounding(n, result.kernel_max)
    return len(eigenvalue_groups(result.eigenvalues, rounding)) < k or result.compared > k


def components_check(result: ExplicitPCA) -> Check:
    """KPCA and PCA on φ(X) agree, up to signs, and up to a rotation within a repeated
    eigenvalue (noise-free circles: pairs); rounding grows as 1/√μ of the smallest
    component compared (experiments.roundoff)."""
    n, k = result.kpca.shape
    rounding = kernel_rounding(n, result.kernel_max)
    scale = max(float(np.abs(result.kpca).max()), 1e-300)
    positive = result.eigenvalues[result.eigenvalues > 0]
    smallest = float(positive.min()) if positive.size else 0.0
    label = (_("largest |KPCA − PCA on φ(X)| (up to each component's sign, and up to a "
               "rotation where eigenvalues coincide)") if has_repeated_eigenvalues(result)
             else _("largest |KPCA − PCA on φ(X)| (up to each component's sign)"))
    return Check(label,
                 result.max_difference,
                 tolerance(1e-7 * scale, rounding, math.sqrt(smallest)))


def variances_check(result: ExplicitPCA) -> Check:
    """μ/(n − 1) of K̃ against PCA's variances, within rounding of the eigenvalues."""
    n = result.kpca.shape[0]
    rounding = kernel_rounding(n, result.kernel_max) / (n - 1)
    return Check(_("largest |μ/(n − 1) − PCA variance| (μ: eigenvalues of K̃; scikit-learn's "
                   "PCA divides by n − 1)"),
                 float(np.abs(result.eigenvalues / (n - 1) - result.pca_variances).max()),
                 tolerance(1e-8 * float(np.abs(result.pca_variances).max()), rounding))


def rbf_series(settings: Settings, X: np.ndarray, conv: TaylorConvergence) -> None:
    n_total, d = X.shape
    gamma = settings.gamma
    st.latex(
        r"e^{-\gamma\lVert x-y\rVert^2} = e^{-\gamma\lVert x\rVert^2}e^{-\gamma\lVert y\rVert^2}"
        r"\sum_{p=0}^{\infty}\frac{(2\gamma\, x^\top y)^p}{p!} = \varphi(x)\cdot\varphi(y)"
    )
    st.latex(
        r"\varphi_a(x) = e^{-\gamma\lVert x\rVert^2}\sqrt{\frac{(2\gamma)^{|a|}}{a!}}\;x^a,"
        r"\qquad a \in \mathbb{N}^d,\ |a| = 0, 1, 2, \dots"
    )
    st.write(_(
        "Each power (xᵀy)ᵖ expands into monomials of degree p exactly like the polynomial "
        "kernel, and the exponential's Taylor series needs every p: φ has one coordinate for "
        "each monomial of every degree — infinitely many. Cutting the series at degree P "
        "gives an explicit map with C(d + P, P) coordinates (d = {d}); its inner products are "
        "the Taylor polynomial of the kernel and approach it as P grows.").format(d=d))
    show_chart(
        fig.taylor_error_figure(
            conv.orders, conv.n_features, conv.max_error,
            title=_("Truncated explicit RBF map: error vs order"),
        ),
        key="trick_taylor", name=f"{file_stem(settings, kernel='rbf')}-taylor-error",
    )
    show_check(Check(_("largest |φ≤P(x)·φ≤P(y) − closed-form Taylor polynomial| at the last "
                       "order (the explicit map is right)"), conv.closed_form_gap, 1e-9))
    last = int(conv.orders[-1])
    error = float(conv.max_error[-1])
    numbers = dict(gamma=format_gamma(gamma), last=last,
                   count=format_number(int(conv.n_features[-1]), ","),
                   error=format_number(error, ".1e"), sample=TAYLOR_MAX_N,
                   n=format_number(n_total, ","))
    sentences = [(_("γ = {gamma}, on all pairs of the current points. At order P = {last} the "
                    "map has {count} coordinates and its inner products are within {error} of "
                    "the RBF kernel on every pair.") if n_total <= TAYLOR_MAX_N else
                  _("γ = {gamma}, on all pairs of the current points (a sample of {sample} of "
                    "{n}). At order P = {last} the map has {count} coordinates and its inner "
                    "products are within {error} of the RBF kernel on every pair.")
                  ).format(**numbers)]
    if conv.stopped_by_size:
        cut = (_("Order {next} would need {count} coordinates per point, so the series is cut "
                 "here before it has converged.") if error > 1e-6 else
               _("Order {next} would need {count} coordinates per point, so the series is cut "
                 "here."))
        sentences.append(cut.format(next=last + 1,
                                    count=format_number(conv.next_n_features, ",")))
    if error > 1e-6:
        sentences.append(_(
            "The terms (2γxᵀy)ᵖ/p! only start to shrink once p exceeds 2γ|xᵀy| (up to {t} "
            "here), so large γ or large inputs need many orders.").format(
            t=format_number(_largest_t(X, settings.gamma), ".3g")))
    st.caption(join_sentences(sentences))
    st.success(
        _("The lesson: the kernel matrix costs n² evaluations of exp(−γ‖x − y‖²), whatever "
          "the dimension of φ. Kernel PCA never needs φ — which is why it works even when φ "
          "cannot be written down."),
        icon=":material/lightbulb:",
    )


def _largest_t(X: np.ndarray, gamma: float) -> float:
    rows = sample_rows(len(X), TAYLOR_MAX_N)
    sq = np.einsum("ij,ij->i", X[rows], X[rows])
    return 2.0 * gamma * float(sq.max())


def lift(settings: Settings, data, inputs: Inputs) -> None:
    st.latex(
        r"c_0 = 0:\quad \varphi(x) = \bigl(\gamma x_1^2,\ \sqrt2\,\gamma x_1 x_2,\ "
        r"\gamma x_2^2\bigr)"
    )
    figure, check, text = lift_section(inputs.X, data.y, data.target_names, settings.gamma,
                                       lift_scores(inputs))
    st.caption(_("Drag the chart to turn the view (on a touch screen, switch on '{toggle}' "
                 "first: a swipe scrolls the page otherwise).").format(toggle=_(TURN_LABEL)))
    show_chart(figure, key="trick_lift", name=f"{file_stem(settings, coef0=0.0)}-lift")
    show_check(check)
    if data.y is not None:
        findings.publish("lift", text)
    st.caption(text)


def feature_count_note(d: int) -> None:
    counts = join_list([f"P = {p}: {format_number(math.comb(d + p, p), ',')}"
                        for p in (2, 3, 5, 10)])
    st.caption(_("Coordinates of the explicit maps for d = {d}: {counts} (degree-p monomials "
                 "alone: {monomials} at p = 2).").format(
        d=d, counts=counts, monomials=format_number(n_monomials(d, 2), ",")))
