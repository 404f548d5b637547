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
        st.info("The reproduced table has not been computed yet: run "
                "`python benchmarks/reproduce_table1.py`.")
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
                                      title="Paper (1998): test error (%)"),
                   key="cls_table_paper", name="table1-paper", columns=2)
    with right:
        show_chart(figs.table_heatmap(ours, degrees, components, zrange=zrange,
                                      missing_text=ours_missing, show_scale=False,
                                      title="Reproduced here: test error (%)"),
                   key="cls_table_ours", name="table1-reproduced", columns=2)
    st.caption(table_caption(store))
    st.button("Try the paper's kernel (x·y)³ on USPS above", on_click=_use_paper_kernel,
              key="cls_paper_kernel")
    with st.expander("How the table was made", icon=":material/science:"):
        st.markdown(
            f"Polynomial kernel (x·y)^d, kernel PCA fitted on {settings['n_fit']:,} "
            "training digits, the first k components of all training and test digits, a "
            f"linear SVM trained on the training digits. C chosen from {settings['C_grid']} "
            f"on a validation split of the training set ({settings['C_selection']}); the "
            "test set is never used to choose anything. '·' marks a cell not run yet; "
            "'–' a cell that does not exist (the linear kernel has at most 256 "
            "components). Last run: "
            f"{store.get('run', {}).get('updated', 'unknown')}.\n\n"
            f"Source: {pt.PAPER_CITATION}"
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


def scheme_comparison(ovr: dict, ovo: dict) -> str:
    """Why the table uses one-vs-rest SVMs: the numbers of both runs, side by side."""
    within_ovr, compared_ovr, row1_ovr = _agreement(ovr)
    within_ovo, compared_ovo, row1_ovo = _agreement(ovo)
    text = (
        "**Which multi-class SVM?** The paper does not say. With one-vs-one SVMs instead "
        f"(`--multiclass ovo`), {within_ovo} of {compared_ovo} cells are within "
        f"±{pt.TOLERANCE} points (one-vs-rest: {within_ovr} of {compared_ovr})"
    )
    few = [(d, k) for d in pt.DEGREES if d >= 3 for k in (32, 64)]
    most = [(d, 2048) for d in pt.DEGREES]
    for name, cells in (("at 32–64 components for d ≥ 3", few), ("at 2048 components", most)):
        gap_ovo, gap_ovr = _mean_gap(ovo, cells), _mean_gap(ovr, cells)
        if not (math.isnan(gap_ovo) or math.isnan(gap_ovr)):
            text += (f"; {name} one-vs-one is off by {gap_ovo:.1f} points on average, "
                     f"one-vs-rest by {gap_ovr:.1f}")
    text += "."
    if row1_ovr is not None and row1_ovo is not None:
        text += (
            f" But on row d = 1 (linear PCA) one-vs-one is {row1_ovo:+.1f} points off the "
            f"paper on average, one-vs-rest {row1_ovr:+.1f}"
        )
        raw_ovr, raw_ovo = ovr.get("raw_pixels") or {}, ovo.get("raw_pixels") or {}
        if raw_ovr.get("error_pct") is not None and raw_ovo.get("error_pct") is not None:
            text += (
                f"; on the raw pixels {raw_ovo['error_pct']:.1f} % against "
                f"{raw_ovr['error_pct']:.1f} % (paper: {pt.PAPER_RAW_PIXELS} %)"
            )
        text += (
            ". The paper's linear rows pin its SVM to one-vs-rest, so that is the table "
            "shown; the remaining gaps are not the multi-class scheme."
        )
    return text


def table_caption(store: dict) -> str:
    ours = pt.cell_errors(store["cells"])
    diffs = pt.difference_table(ours)
    parts = [f"{sum(v is not None for v in ours.values())} cells reproduced ('·': not run "
             "yet, '–': no such component)."]
    if diffs:
        within = pt.within_tolerance(diffs)
        worst = max(diffs, key=lambda key: abs(diffs[key]))
        parts.append(f"Of the {len(diffs)} cells we can compare with the paper, {within} are "
                     f"within ±{pt.TOLERANCE} points; the largest difference is "
                     f"{diffs[worst]:+.2f}".replace("-", "−")
                     + f" points (d = {worst[0]}, {worst[1]} components).")
    raw = store.get("raw_pixels")
    if raw and raw.get("error_pct") is not None:
        parts.append(f"Linear SVM on the raw pixels: {raw['error_pct']:.2f} % here, "
                     f"{pt.PAPER_RAW_PIXELS} % in the paper.")
    best = min(((v, key) for key, v in ours.items() if v is not None), default=None)
    if best is not None:
        parts.append(f"Our best cell: {best[0]:.2f} % at d = {best[1][0]}, "
                     f"{best[1][1]} components (the paper's best: 4.0 % at d = 5, 2048).")
    return " ".join(parts)

