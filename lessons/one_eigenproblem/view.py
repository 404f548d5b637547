"""The one-eigenproblem page's sections: the method and its graph, K, the two embeddings,
their agreement and what the graph does.

The method and k travel in the link (``method=isomap&neighbours=10``, the page's own
parameters in ``shell/registry.py``), so the guided tour and a lecturer's link can open
Isomap on the swiss roll directly.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from typing import Any

import numpy as np
import pandas as pd
import streamlit as st

from experiments import sampling
from experiments.checks import Check
from experiments.graph_kernels import METHODS
from lessons.common.kernel_figures import kernel_heatmap
from lessons.common.page_link import asked_by_link, written
from lessons.one_eigenproblem.experiment import (
    DEGENERATE,
    K_DEFAULT,
    K_MAX,
    K_MIN,
    SAME,
    SHORT_CIRCUIT,
    Comparison,
    Eigenproblem,
    clusters_sentence,
    complete_graph_sentence,
    differs_sentence,
    eigenproblem,
    graph_sentence,
    left_out_sentence,
    nothing_to_cluster,
    pieces_sentence,
    sheet_sentence,
    solver_sentence,
)
from lessons.one_eigenproblem.figures import aligned_signs, embedding_scatter, graph_figure
from server import costs
from server.admission import queued
from shell import findings
from shell.caches import Inputs, bounded_cache
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption
from shell.figures import plot_text, shown_class_label
from shell.registry import EIGENPROBLEM_MAX_N
from shell.state import KernelKey, Settings
from words.i18n import N_, _, format_number, join_and, join_list, join_sentences, ngettext
from words.text import quoted

Q_METHOD, Q_NEIGHBOURS = "method", "neighbours"  # the page's link parameters
K_METHOD, K_NEIGHBOURS = "w_eigen_method", "w_eigen_k"  # their widgets ("w_": kept)
DEFAULT_METHOD = "kpca"
MIN_POINTS = 5
# K, KernelPCA's private copy of it, and the library's own (measured with tracemalloc at
# 1,000 points: at most 3.2 n × n float64 at once, Isomap's the most).
COPIES = 4


# --------------------------------------------------------------------------- the link


def from_link(query: Mapping[str, Any]) -> tuple[dict[str, Any], list[str]]:
    """The method and k a link asks for (``method=isomap``, ``neighbours=12``), with one
    warning per bad value."""
    query = {str(k): (v[-1] if isinstance(v, list | tuple) and v else v)
             for k, v in query.items()}
    chosen: dict[str, Any] = {}
    warnings = []
    if Q_METHOD in query:
        raw = str(query[Q_METHOD]).strip().lower()
        if raw in METHODS:
            chosen["method"] = raw
        else:
            warnings.append(_("Link parameter `{name}` should be one of {methods}, not "
                              "{value}; showing kernel PCA.").format(
                name=Q_METHOD, methods=", ".join(METHODS), value=quoted(raw)))
    if Q_NEIGHBOURS in query:
        raw = str(query[Q_NEIGHBOURS]).strip()
        try:
            k = int(raw)
        except ValueError:
            k = None
        if k is not None and K_MIN <= k <= K_MAX:
            chosen["k"] = k
        else:
            warnings.append(_("Link parameter `{name}` should be a whole number from {low} to "
                              "{high}, not {value}; using {default}.").format(
                name=Q_NEIGHBOURS, low=K_MIN, high=K_MAX, value=quoted(raw),
                default=K_DEFAULT))
    return chosen, warnings


_WRITTEN = "_eigen_link"  # what the page last wrote to the address bar


def _seed_from_link() -> None:
    """The widgets take the link's values on the first run, and whenever a link (the tour's
    Next, a pasted address) asks for other ones (``lessons.common.page_link``)."""
    ss = st.session_state
    first = K_METHOD not in ss or K_NEIGHBOURS not in ss
    asked = asked_by_link((Q_METHOD, Q_NEIGHBOURS), _WRITTEN, first=first)
    if not asked and not first:
        return
    chosen, warnings = from_link(asked)
    for warning in warnings:
        st.warning(warning, icon=":material/link_off:")
    if "method" in chosen or first:
        ss[K_METHOD] = chosen.get("method", ss.get(K_METHOD, DEFAULT_METHOD))
    if "k" in chosen or first:
        ss[K_NEIGHBOURS] = chosen.get("k", ss.get(K_NEIGHBOURS, K_DEFAULT))


def _write_to_link(method: str, k: int) -> None:
    written({Q_METHOD: method, Q_NEIGHBOURS: str(k)}, _WRITTEN)


def controls(n: int) -> tuple[str, int]:
    """The method and its number of neighbours (k < n), from the link when it asks."""
    _seed_from_link()
    ss = st.session_state
    if ss.get(K_METHOD) not in METHODS:  # the segmented control was cleared
        ss[K_METHOD] = DEFAULT_METHOD
    titles = {code: _(spec.title) for code, spec in METHODS.items()}
    method = st.segmented_control(
        _("Method: only the matrix K changes"), list(METHODS), key=K_METHOD, required=True,
        format_func=titles.__getitem__)
    highest = max(K_MIN, min(K_MAX, n - 1))
    if not K_MIN <= int(ss.get(K_NEIGHBOURS, K_DEFAULT)) <= highest:
        ss[K_NEIGHBOURS] = min(max(int(ss.get(K_NEIGHBOURS, K_DEFAULT)), K_MIN), highest)
    k_col, _right = st.columns(2)
    with k_col:
        k = st.slider(_("Neighbours k in the graph"), K_MIN, max(highest, K_MIN + 1),
                      key=K_NEIGHBOURS, disabled=not METHODS[method].graph,
                      help=_("Each point is joined to its k nearest points. Isomap, Laplacian "
                             "eigenmaps and spectral clustering build their K from this "
                             "graph."))
    k = min(int(k), n - 1)
    _write_to_link(method, k)
    return method, k


# --------------------------------------------------------------------------- the numbers


def stop_if_nothing_to_cluster(method: str, k: int, n: int) -> None:
    """Spectral clustering on the complete graph (k = n − 1): say why, and stop the page."""
    if nothing_to_cluster(method, k, n):
        st.warning(complete_graph_sentence(k, n), icon=":material/hub:")
        st.stop()


def stop_without_a_direction(result: Eigenproblem) -> None:
    """K̃ with no positive eigenvalue (a saturated kernel, points that coincide): say
    why there is nothing to draw or compare, and stop the page."""
    if not len(result.eigenvalues):
        st.warning(left_out_sentence(result), icon=":material/block:")
        st.stop()


def sample_rows(n: int, y: np.ndarray | None) -> np.ndarray:
    """The rows the page computes on: all, or a stratified seeded sample of the cap."""
    return sampling.stratified_rows(n, y, EIGENPROBLEM_MAX_N)


def estimate(n: int, d: int, method: str, k: int) -> costs.Estimate:
    """Time of :func:`eigenproblem`: the matrix, two leading decompositions (ours and the
    library's), a few passes; Dijkstra from every point twice (Isomap: about n² (k + log n)
    steps each), the whole eigendecomposition of L (Laplacian eigenmaps)."""
    work = costs.kernel_matrix(n, n, d) + costs.passes(n, 8) + 2 * costs.leading(n, 4)
    if method == "isomap":
        work += 2 * costs.passes(n, 4 * (k + math.log2(max(n, 2))))
    if method == "laplacian":
        work += 3 * costs.all_eigenvalues(n)
    if method == "spectral":
        work += costs.Estimate(0.2)  # k-means, three times
    return work


def compute(inputs: Inputs, settings: Settings, data, method: str, k: int) -> Eigenproblem:
    """The method's eigenproblem on the page's rows (cached; the kernel counts only for
    kernel PCA, k only for the graph methods)."""
    kernel = settings.kernel_key if method == "kpca" else None
    k = k if METHODS[method].graph else 0
    return _eigenproblem(inputs, kernel, method, k, settings.n_components, _data=data)


# An entry: the projections (n × ≤ 4), two 200² displays and the graph's edges (≤ 1,000 ×
# 100 pairs): at most about 2 MB.
@bounded_cache(max_entries=12)
def _eigenproblem(inputs: Inputs, kernel: KernelKey | None, method: str, k: int,
                  n_components: int, _data) -> Eigenproblem:
    rows = sample_rows(len(inputs.X), inputs.y)
    X = inputs.X[rows]
    with queued(len(rows), copies=COPIES, estimate=estimate(*X.shape, method, k),
                what=_("{method} and scikit-learn's own").format(
                    method=_(METHODS[method].title))):
        return eigenproblem(
            X, None if inputs.y is None else inputs.y[rows], method=method,
            kernel=kernel.kernel if kernel else "linear",
            kernel_params=kernel.kernel_params() if kernel else {}, k=k,
            n_components=min(n_components, 4),
            unrolled=None if _data.unrolled is None else _data.unrolled[rows],
            X_raw=_data.X[rows])


# --------------------------------------------------------------------------- the sections


def sample_note(rows: np.ndarray, n: int) -> None:
    if len(rows) < n:
        st.info(_("Each method builds an n × n matrix and runs scikit-learn's own beside it: "
                  "this page uses a stratified sample of {sample} of the {n} points.").format(
            sample=format_number(len(rows), ","), n=format_number(n, ",")),
                icon=":material/filter_alt:")


def recipe(method: str, k: int, n_components: int, settings: Settings) -> None:
    """The method's K as a formula, and the recipe in code: only its first line changes."""
    spec = METHODS[method]
    st.latex(spec.latex)
    c = "n_clusters - 1" if method == "spectral" else str(n_components)
    kernel = ", ".join([f'kernel="{settings.kernel}"', *(
        f"{name}={value!r}" for name, value in settings.kernel_params().items())])
    lines = [spec.code_line.format(k=k, kernel=kernel),
             f'Z = KernelPCA(n_components={c}, kernel="precomputed").fit_transform(K)']
    if method == "spectral":
        lines.append("clusters = KMeans(n_clusters).fit_predict(Z)")
    st.code("\n".join(lines), language="python")
    st.caption(_("{method}: K is {matrix}. Switch the method: only the line that "
                 "builds K changes (spectral clustering keeps n_clusters − 1 components and "
                 "adds k-means). The functions are in experiments/graph_kernels.py.").format(
        method=_(spec.title), matrix=_(spec.matrix)))


def matrices(result: Eigenproblem, data, method: str) -> None:
    """K and K̃ = J K J as heatmaps, in class order (along the sheet within a class)."""
    names = [plot_text(shown_class_label(data.target_names, int(c), data.y))
             for c in range(len(result.class_sizes))] if data.y is not None else []
    title = _(METHODS[method].title)
    left, right = st.columns(2)
    for column, centred in ((left, False), (right, True)):
        with column:
            fig = kernel_heatmap(
                result.centered_display if centred else result.kernel_display,
                result.class_sizes, names if len(result.class_sizes) > 1 else [],
                centered=centred, block_size=result.block_size,
                title=_("K̃ = J K J, what kernel PCA decomposes") if centred else
                _("K of {method}").format(method=title))
            show_chart(fig, key=f"eigen_{'centred' if centred else 'kernel'}", columns=2)
    order = ("sheet" if data.unrolled is not None else "class" if data.y is not None
             else "data")
    text = _(_ORDER[order, result.block_size > 1]).format(size=result.block_size)
    if method == "laplacian":
        text = join_sentences([text, _("Every row of L⁺ sums to 0 (L 1 = 0), so L⁺ is "
                                       "centred already: K̃ = K.")])
    number_caption(text)
    if method == "laplacian":
        show_check(Check(_("largest |row sum of L⁺| / (n · max|L⁺|)"), result.row_sum, 1e-10))


# The heatmaps' order: (points sorted how, cells averaging blocks of points?) → the sentence.
_ORDER = {
    ("sheet", False): N_("Points by class, and along the sheet within a class."),
    ("sheet", True): N_("Points by class, and along the sheet within a class; each cell "
                        "averages {size} × {size} entries."),
    ("class", False): N_("Points by class."),
    ("class", True): N_("Points by class; each cell averages {size} × {size} entries."),
    ("data", False): N_("Points in the data's order."),
    ("data", True): N_("Points in the data's order; each cell averages {size} × {size} "
                       "entries."),
}


def _short(comparison: Comparison) -> str:
    """The library's result by a short name: a class or function of scikit-learn (a name),
    or words, in the run's language."""
    name = comparison.library
    for full, short in (("sklearn.manifold.spectral_embedding(norm_laplacian=False)",
                         N_("spectral_embedding, unnormalised")),
                        ("sklearn.manifold.spectral_embedding", "spectral_embedding")):
        if name.startswith(full):
            return _(short)
    return name.removeprefix("sklearn.").split("(")[0].split(".")[-1]


def embeddings(result: Eigenproblem, data) -> None:
    """Ours beside the library's (or the clusters of each), signs matched for the eye."""
    y, names = (None if data.y is None else data.y[_rows(result, data)]), data.target_names
    first = result.comparisons[0]
    if result.clusters is not None:
        _clusters(result, data)
        return
    left, right = st.columns(2)
    with left:
        show_chart(embedding_scatter(result.projection, y, names,
                                     title=_("Kernel PCA of K (kpca_core)")),
                   key="eigen_ours", columns=2)
    with right:
        theirs = aligned_signs(first.projection, result.projection)
        show_chart(embedding_scatter(theirs, y, names, title=_("{name} (scikit-learn)").format(
            name=_short(first))), key="eigen_theirs", columns=2)


def _rows(result: Eigenproblem, data) -> np.ndarray:
    """The rows of ``data`` the result is about (the page's sample)."""
    return sample_rows(len(data.X), data.y)


def _clusters(result: Eigenproblem, data) -> None:
    clusters = result.clusters
    plane = data.X.shape[1] == 2
    P = data.X[_rows(result, data)] if plane else result.projection
    if P.shape[1] == 1:
        P = np.column_stack([P[:, 0], np.zeros(len(P))])
    names = [_("cluster {number}").format(number=c + 1) for c in range(clusters.n_clusters)]
    axes = ([plot_text(name) for name in data.feature_names] if plane
            else [_("component 1"), _("component 2")])
    # The chart keys are the English titles' first words: the same in every language.
    panels = (("ours:", _("ours: k-means on kernel PCA of K"), clusters.ours),
              ("scikit-learn's", _("scikit-learn's SpectralClustering"), clusters.library),
              ("k-means", _("k-means on the inputs"), clusters.raw))
    for i, (column, (key, title, labels)) in enumerate(zip(st.columns(3), panels,
                                                           strict=True)):
        with column:
            fig = embedding_scatter(P, labels, names, title=title, axis_titles=axes,
                                    noun=_("cluster"), height=340)
            fig.update_layout(showlegend=i == 0)  # one legend for the three (same colours)
            show_chart(fig, key=f"eigen_clusters_{key.strip(':')}", columns=3)
    drawn = (_("Points drawn where they lie in the plane, coloured by the cluster each method "
               "found.") if plane else
             _("Points drawn at our components 1–2, coloured by the cluster each method "
               "found."))
    number_caption(join_sentences([drawn, clusters_sentence(clusters)]))


def agreement(result: Eigenproblem) -> None:
    """Per component: μ and |correlation| with each library result; the checks; how a
    library differs by design."""
    c = result.projection.shape[1]
    mu = _("μ (eigenvalue of K̃)")
    table = {_("component"): np.arange(1, c + 1), mu: result.eigenvalues}
    correlations = [_("|corr| with {name}").format(name=_short(comparison))
                    for comparison in result.comparisons]
    for name, comparison in zip(correlations, result.comparisons, strict=True):
        table[name] = comparison.correlations
    config = {name: st.column_config.NumberColumn(format="%.7f") for name in correlations}
    config[mu] = st.column_config.NumberColumn(format="%.4g")
    st.dataframe(pd.DataFrame(table), hide_index=True, width="stretch", column_config=config)
    undetermined = np.flatnonzero(~result.comparisons[0].determined) + 1
    if len(undetermined):
        listed = join_list([format_number(c) for c in undetermined])
        number_caption(ngettext(
            "Component {listed}: the eigenvalue is "
            "repeated past the components compared (equal to within {tolerance} of the "
            "largest), so any axes of its eigenspace are right and two solvers pick "
            "different ones: not compared.",
            "Components {listed}: the eigenvalue is "
            "repeated past the components compared (equal to within {tolerance} of the "
            "largest), so any axes of its eigenspace are right and two solvers pick "
            "different ones: not compared.", len(undetermined)).format(
            listed=listed, tolerance=format_number(DEGENERATE, "g")))
    compared = int(result.comparisons[0].determined.sum())
    for comparison in result.comparisons:
        if comparison.same and compared:
            label = (_("largest 1 − |correlation| over components {range}, ours against "
                       "{name}, its components {first}–{last}") if comparison.offset else
                     _("largest 1 − |correlation| over components {range}, ours against "
                       "{name}"))
            show_check(Check(label.format(range=_range(compared), name=_short(comparison),
                                          first=comparison.offset + 1,
                                          last=comparison.offset + c),
                             1.0 - comparison.worst, tolerance=1.0 - SAME))
        elif not comparison.same:
            number_caption(differs_sentence(comparison, result))
    if solver := solver_sentence(result):
        number_caption(solver)
    if left_out := left_out_sentence(result):
        number_caption(left_out)
    findings.publish("eigen_agreement", agreement_summary(result))


def _range(c: int) -> str:
    return "1" if c == 1 else f"1–{c}"


def agreement_summary(result: Eigenproblem) -> str:
    """One sentence for the tour: how far ours and the library's agree."""
    same = [c for c in result.comparisons if c.same and c.determined.any()]
    if not same:
        return ""
    worst = min(c.worst for c in same)
    names = join_and([_short(c) for c in same])
    return _("Kernel PCA of K agrees with {names} to |correlation| ≥ {worst} on every "
             "component: the same eigenproblem.").format(
        names=names, worst=format_number(worst, ".6f"))


def sheet(result: Eigenproblem) -> None:
    if result.sheet_correlation is not None:
        text = sheet_sentence(result.sheet_correlation)
        findings.publish("eigen_sheet", text)
        number_caption(text)


def graph(result: Eigenproblem, data) -> None:
    """The graph: its pieces and flagged edges in words and as a picture."""
    report = result.graph
    rows = _rows(result, data)
    text = graph_sentence(result)
    extra = pieces_sentence(result)
    findings.publish("eigen_graph", join_sentences((text, extra)))
    number_caption(text)
    if extra:
        number_caption(extra)
    d = data.X.shape[1]
    if d in (2, 3):
        P, axes = data.X[rows], [plot_text(name) for name in data.feature_names]
        title = _("The {k}-nearest-neighbour graph<br><sup>in the input space</sup>")
    else:
        P, axes = result.projection[:, :2], [_("component 1"), _("component 2")]
        title = _("The {k}-nearest-neighbour graph<br><sup>on our components 1–2</sup>")
        if P.shape[1] < 2:
            return
    flagged_name = (_("short-circuit") if report.kind == "short-circuit" else
                    _("edge between classes"))
    fig = graph_figure(P, report.edges, report.flagged, report.joins,
                       None if data.y is None else data.y[rows], data.target_names,
                       title=title.format(k=report.k),
                       axis_titles=axes, flagged_name=flagged_name,
                       # A rolled sheet (x₂ its height): look down its axis.
                       along=1 if data.unrolled is not None else None)
    show_chart(fig, key="eigen_graph")
    if report.kind == "short-circuit":
        st.caption(_("Red: edges whose ends lie more than {factor} times their length "
                     "apart along the sheet the points were rolled from. A larger k adds them; "
                     "a smaller one can break the graph into pieces.").format(
            factor=format_number(SHORT_CIRCUIT, "g")))
