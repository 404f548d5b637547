"""The Classification page's last section: the paper's Table 1 beside our reproduction.

The numbers come from the results files ``benchmarks/reproduce_table1.py`` writes
(``lessons/classification/results/table1.json``, and ``table1_ovo.json`` for the one-vs-one
comparison), so students see the result without waiting for it; the experiment itself
is :mod:`lessons.classification.paper_table`.
"""

from __future__ import annotations

import json
import math
from dataclasses import replace
from pathlib import Path

import streamlit as st

from lessons.classification import figures as figs
from lessons.classification import paper_table as pt
from shell.charts import show_chart
from shell.sidebar import apply_settings
from shell.state import default_settings
from words.i18n import N_, _, format_number, join_sentences

RESULTS = Path(__file__).resolve().parent / "results"
TABLE_FILE = RESULTS / "table1.json"  # one-vs-rest linear SVMs: the table shown
OVO_FILE = RESULTS / "table1_ovo.json"  # the same with one-vs-one SVMs, for comparison


@st.cache_data(max_entries=2, show_spinner=False)
def _read_table(path: str, mtime: float) -> dict:
    return json.loads(Path(path).read_text())


def load_table(path: Path = TABLE_FILE) -> dict | None:
    if not path.is_file():
        return None
    return _read_table(str(path), path.stat().st_mtime)


def _use_paper_kernel() -> None:
    base = default_settings("usps")
    apply_settings(replace(base, kernel="poly", gamma=1.0, coef0=0.0, degree=3))


def table_section(store: dict | None) -> None:
    if store is None:
        st.info(_("The reproduced table has not been computed yet: run "
                  "`python benchmarks/reproduce_table1.py`."))
        return
    settings = store["settings"]
    degrees, components = list(pt.DEGREES), list(pt.COMPONENTS)
    ours = pt.cell_errors(store["cells"])
    run_cells = set(ours)
    paper = {(d, k): v for d, row in pt.PAPER_ERRORS.items() for k, v in row.items()}
    not_applicable = {(1, k): "–" for k in components if k > pt.N_PIXELS}
    paper_missing = not_applicable
    ours_missing = {**{(d, k): "·" for d in degrees for k in components
                       if (d, k) not in run_cells}, **not_applicable}
    # One colour scale for both (no colour bar: every cell has its number written in it).
    values = [v for v in [*paper.values(), *ours.values()] if v is not None]
    zrange = (min(values), max(values)) if values else (0.0, 10.0)
    left, right = st.columns(2)
    with left:
        show_chart(figs.table_heatmap(paper, degrees, components, zrange=zrange,
                                      missing_text=paper_missing, show_scale=False,
                                      title=_("Paper (1998): test error (%)")),
                   key="cls_table_paper", name="table1-paper", columns=2)
    with right:
        show_chart(figs.table_heatmap(ours, degrees, components, zrange=zrange,
                                      missing_text=ours_missing, show_scale=False,
                                      title=_("Reproduced here: test error (%)")),
                   key="cls_table_ours", name="table1-reproduced", columns=2)
    st.caption(table_caption(store))
    st.button(_("Try the paper's kernel (x·y)³ on USPS above"), on_click=_use_paper_kernel,
              key="cls_paper_kernel")
    with st.expander(_("How the table was made"), icon=":material/science:"):
        updated = store.get("run", {}).get("updated")
        # How C was chosen: said from the file's C_select_k (its C_selection is English).
        selection = (pt.c_selection(settings["C_select_k"]) if "C_select_k" in settings
                     else settings["C_selection"])
        st.markdown(
            _("Polynomial kernel (x·y)^d, kernel PCA fitted on {n_fit} training digits, the "
              "first k components of all training and test digits, a linear SVM trained on "
              "the training digits. C chosen from {grid} on a validation split of the "
              "training set ({selection}); the test set is never used to choose anything. "
              "'·' marks a cell not run yet; '–' a cell that does not exist (the linear "
              "kernel has at most 256 components). Last run: {updated}.").format(
                n_fit=format_number(settings["n_fit"], ","), grid=settings["C_grid"],
                selection=selection, updated=updated if updated is not None else _("unknown"))
            + "\n\n" + _("Source: {citation}").format(citation=pt.PAPER_CITATION)
        )
        other = load_table(OVO_FILE)
        if other is not None:
            st.markdown(scheme_comparison(store, other))


def _mean_gap(store: dict, cells) -> float:
    """Mean |ours − paper| (points) over the given (degree, components) cells."""
    diffs = pt.difference_table(pt.cell_errors(store["cells"]))
    gaps = [abs(diffs[key]) for key in cells if key in diffs]
    return sum(gaps) / len(gaps) if gaps else float("nan")


def _agreement(store: dict) -> tuple[int, int, float | None]:
    """(cells within tolerance, cells compared, mean difference on row d = 1)."""
    diffs = pt.difference_table(pt.cell_errors(store["cells"]))
    row1 = [v for (d, _k), v in diffs.items() if d == 1]
    return pt.within_tolerance(diffs), len(diffs), sum(row1) / len(row1) if row1 else None


# The two runs' agreement with the paper, and (where both runs have them) their mean gaps
# at few components for high degrees and at the most components: one sentence per case.
_AGREEMENT = {
    (True, True): N_("**Which multi-class SVM?** The paper does not say. With one-vs-one SVMs "
                     "instead (`--multiclass ovo`), {ovo_within} of {ovo_compared} cells are "
                     "within ±{tolerance} points (one-vs-rest: {ovr_within} of "
                     "{ovr_compared}); at 32–64 components for d ≥ 3 one-vs-one is off by "
                     "{few_ovo} points on average, one-vs-rest by {few_ovr}; at 2048 "
                     "components one-vs-one is off by {most_ovo} points on average, "
                     "one-vs-rest by {most_ovr}."),
    (True, False): N_("**Which multi-class SVM?** The paper does not say. With one-vs-one SVMs "
                      "instead (`--multiclass ovo`), {ovo_within} of {ovo_compared} cells are "
                      "within ±{tolerance} points (one-vs-rest: {ovr_within} of "
                      "{ovr_compared}); at 32–64 components for d ≥ 3 one-vs-one is off by "
                      "{few_ovo} points on average, one-vs-rest by {few_ovr}."),
    (False, True): N_("**Which multi-class SVM?** The paper does not say. With one-vs-one SVMs "
                      "instead (`--multiclass ovo`), {ovo_within} of {ovo_compared} cells are "
                      "within ±{tolerance} points (one-vs-rest: {ovr_within} of "
                      "{ovr_compared}); at 2048 components one-vs-one is off by {most_ovo} "
                      "points on average, one-vs-rest by {most_ovr}."),
    (False, False): N_("**Which multi-class SVM?** The paper does not say. With one-vs-one "
                       "SVMs instead (`--multiclass ovo`), {ovo_within} of {ovo_compared} "
                       "cells are within ±{tolerance} points (one-vs-rest: {ovr_within} of "
                       "{ovr_compared})."),
}


def scheme_comparison(ovr: dict, ovo: dict) -> str:
    """Why the table uses one-vs-rest SVMs: the numbers of both runs, side by side."""
    within_ovr, compared_ovr, row1_ovr = _agreement(ovr)
    within_ovo, compared_ovo, row1_ovo = _agreement(ovo)
    values = {"ovo_within": format_number(within_ovo), "ovo_compared": format_number(compared_ovo),
              "ovr_within": format_number(within_ovr), "ovr_compared": format_number(compared_ovr),
              "tolerance": format_number(pt.TOLERANCE)}
    few = [(d, k) for d in pt.DEGREES if d >= 3 for k in (32, 64)]
    most = [(d, 2048) for d in pt.DEGREES]
    shown = []
    for name, cells in (("few", few), ("most", most)):
        gap_ovo, gap_ovr = _mean_gap(ovo, cells), _mean_gap(ovr, cells)
        shown.append(not (math.isnan(gap_ovo) or math.isnan(gap_ovr)))
        if shown[-1]:
            values[f"{name}_ovo"] = format_number(gap_ovo, ".1f")
            values[f"{name}_ovr"] = format_number(gap_ovr, ".1f")
    sentences = [_(_AGREEMENT[tuple(shown)]).format(**values)]
    if row1_ovr is not None and row1_ovo is not None:
        row1 = {"ovo": format_number(row1_ovo, "+.1f"), "ovr": format_number(row1_ovr, "+.1f")}
        raw_ovr, raw_ovo = ovr.get("raw_pixels") or {}, ovo.get("raw_pixels") or {}
        if raw_ovr.get("error_pct") is not None and raw_ovo.get("error_pct") is not None:
            sentences.append(_(
                "But on row d = 1 (linear PCA) one-vs-one is {ovo} points off the paper on "
                "average, one-vs-rest {ovr}; on the raw pixels {raw_ovo} % against {raw_ovr} % "
                "(paper: {paper} %).").format(
                **row1, raw_ovo=format_number(raw_ovo["error_pct"], ".1f"),
                raw_ovr=format_number(raw_ovr["error_pct"], ".1f"),
                paper=format_number(pt.PAPER_RAW_PIXELS)))
        else:
            sentences.append(_("But on row d = 1 (linear PCA) one-vs-one is {ovo} points off "
                               "the paper on average, one-vs-rest {ovr}.").format(**row1))
        sentences.append(_("The paper's linear rows pin its SVM to one-vs-rest, so that is the "
                           "table shown; the remaining gaps are not the multi-class scheme."))
    return join_sentences(sentences)


def table_caption(store: dict) -> str:
    ours = pt.cell_errors(store["cells"])
    diffs = pt.difference_table(ours)
    parts = [_("{count} cells reproduced ('·': not run yet, '–': no such component).").format(
        count=format_number(sum(v is not None for v in ours.values())))]
    if diffs:
        within = pt.within_tolerance(diffs)
        worst = max(diffs, key=lambda key: abs(diffs[key]))
        parts.append(_("Of the {compared} cells we can compare with the paper, {within} are "
                       "within ±{tolerance} points; the largest difference is {difference} "
                       "points (d = {d}, {k} components).").format(
            compared=format_number(len(diffs)), within=format_number(within),
            tolerance=format_number(pt.TOLERANCE),
            difference=format_number(diffs[worst], "+.2f").replace("-", "−"),
            d=format_number(worst[0]), k=format_number(worst[1])))
    raw = store.get("raw_pixels")
    if raw and raw.get("error_pct") is not None:
        # The per cent signs go with the numbers: "% h" would read as a printf directive.
        parts.append(_("Linear SVM on the raw pixels: {ours} here, {paper} in the "
                       "paper.").format(ours=f"{format_number(raw['error_pct'], '.2f')} %",
                                        paper=f"{format_number(pt.PAPER_RAW_PIXELS)} %"))
    best = min(((v, key) for key, v in ours.items() if v is not None), default=None)
    if best is not None:
        parts.append(_("Our best cell: {error} % at d = {d}, {k} components (the paper's best: "
                       "4.0 % at d = 5, 2048).").format(
            error=format_number(best[0], ".2f"), d=format_number(best[1][0]),
            k=format_number(best[1][1])))
    return join_sentences(parts)
