"""How the Explorer draws its charts: the box/lasso selection they share, and rows that wrap.

A selection made in any selectable chart is remembered with the dataset it belongs to and
highlighted in every chart of the page; each chart's PNG is named after the view. Used by
the first screen (:mod:`lessons.explorer.projections`) and the step-by-step sections
(:mod:`lessons.explorer.view`).
"""

from __future__ import annotations

from collections.abc import Mapping
from functools import partial

import numpy as np
import streamlit as st

from shell.charts import show_chart
from shell.display import PAIR_COLUMN_REM, touch_screen
from shell.exports import view_name
from shell.state import Settings
from words.i18n import _

SELECTION = "explorer_selection"  # row indices picked by box/lasso in any chart
MAX_ROW = 2**31 - 1  # customdata travels as int32 (shell.figures.point_scatter)
SELECTABLE_CHARTS = ("chart_input", "chart_kpca", "chart_pca")
# Set by a selection in the projections fragment's charts; the fragment then reruns the
# whole page, so the selection is highlighted in the charts outside it too.
_SELECTION_CHANGED = "_explorer_selection_changed"
_FRAGMENT_CHARTS = ("chart_kpca", "chart_pca")
# On a touch screen a selectable chart takes every swipe over it for a lasso (Streamlit
# gives it a selection drag mode, and Plotly then keeps the touch from scrolling): there
# the charts are selectable only while this toggle is on, and a swipe scrolls otherwise.
TOUCH_SELECT = "explorer_touch_select"
SCATTERGL_ABOVE = 1000  # WebGL from here: measured faster to draw at 2,000 points, slower at 400

# Side-by-side charts wrap onto separate rows when the main area is too narrow for two
# readable charts (e.g. an 800-px window with the sidebar open), instead of squeezing
# them: a chart column keeps at least PAIR_COLUMN_REM (22 rem, 352 px) or the full
# width. Only the rows made by :func:`chart_columns` (keyed containers, plain class
# selectors: no costly :has() matching while Plotly draws) are affected.
WRAP_KEY = "explorer_wrap"
_WRAPPING_COLUMNS = f"""<style>
[class*="st-key-{WRAP_KEY}"] [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
[class*="st-key-{WRAP_KEY}"] [data-testid="stColumn"] {{
    min-width: min(100%, {PAIR_COLUMN_REM}rem); }}
</style>"""


def wrapping_columns() -> None:
    """Let this page's chart rows wrap instead of squeezing (see ``_WRAPPING_COLUMNS``)."""
    st.html(_WRAPPING_COLUMNS)


def chart_columns(name: str, spec) -> list:
    """``st.columns(spec)`` in a row that wraps on narrow windows (see :func:`wrapping_columns`)."""
    with st.container(key=f"{WRAP_KEY}_{name}"):
        return st.columns(spec)


def _remember_selection(chart_key: str, data_key: tuple) -> None:
    """on_select callback: keep the points picked in one chart to highlight them in all.

    The data it belongs to is stored with it, so a selection never outlives its dataset.
    """
    event = st.session_state.get(chart_key)
    selection_ = event.get("selection") if isinstance(event, Mapping) else None
    points = selection_.get("points") if isinstance(selection_, Mapping) else None
    st.session_state[SELECTION] = (data_key, selected_indices(points))
    if chart_key in _FRAGMENT_CHARTS:
        st.session_state[_SELECTION_CHANGED] = True


def selected_indices(points: object) -> list[int]:
    """Row indices of selected points (each trace carries its rows as customdata).

    The selection comes from the browser: anything but a list of points whose customdata
    is a row number (a whole number from 0 to MAX_ROW) is left out, so a made-up
    selection highlights nothing instead of failing.
    """
    if not isinstance(points, list):
        return []
    indices = set()
    for point in points:
        value = point.get("customdata") if isinstance(point, Mapping) else None
        if isinstance(value, list | tuple):
            value = value[0] if value else None
        if isinstance(value, float) and value.is_integer():
            value = int(value)
        if isinstance(value, int) and not isinstance(value, bool) and 0 <= value <= MAX_ROW:
            indices.add(value)
    return sorted(indices)


def spread_sample(indices: list[int], limit: int) -> list[int]:
    """At most ``limit`` of ``indices``, evenly spread over the whole list (not its start).

    Selected rows come sorted, and USPS rows are grouped by digit, so the first 60 of a
    selection would often all be one digit.
    """
    if len(indices) <= limit:
        return list(indices)
    picks = np.linspace(0, len(indices) - 1, limit).round().astype(int)
    return [indices[i] for i in picks]


def _data_key(settings: Settings) -> tuple:
    """Which points a selection is of: the data, standardised or not (the same rows)."""
    return settings.data_key.dataset, settings.data_key.options


def selection(settings: Settings) -> list[int]:
    """The rows selected in this dataset's charts (none after switching data)."""
    data_key, indices = st.session_state.get(SELECTION, (None, []))
    return indices if data_key == _data_key(settings) else []


def selection_changed() -> bool:
    """True once after a selection in the projections fragment's charts (see above)."""
    return st.session_state.pop(_SELECTION_CHANGED, False)


def selecting() -> bool:
    """Whether a drag over the selectable charts selects: always with a mouse; on a touch
    screen only once the student asks (:func:`touch_select_toggle`), so swipes scroll."""
    return not touch_screen() or bool(st.session_state.get(TOUCH_SELECT, False))


def touch_select_toggle() -> None:
    """On a touch screen: the switch between scrolling past the charts and selecting."""
    if touch_screen():
        st.toggle(_("Select points with a finger"), key=TOUCH_SELECT,
                  help=_("While on, a swipe over a chart selects the points in a box (the "
                         "lasso is in the chart's toolbar) instead of scrolling the page."))


def plot(fig, key: str, settings: Settings, *, selectable: bool = False,
         columns: int = 1) -> None:
    """Draw a chart of ``settings``' view; a ``selectable`` one shares its selection;
    ``columns``: how many charts share its row (``shell.charts.show_chart``).

    Its PNG is named after the view, like the page's CSVs: ``circles-rbf-gamma5-kpca``.
    """
    on_select = None
    if selectable and selecting():
        on_select = partial(_remember_selection, key, _data_key(settings))
    name = f"{view_name(settings)}-{key.removeprefix('chart_')}"
    show_chart(fig, key=key, name=name, on_select=on_select, columns=columns)

