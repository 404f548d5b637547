"""What a browser sends for a chart's selection or a custom component, read so that no
message can fail.

Streamlit parses these widgets' JSON text with ``json.loads`` while it prepares a run (to
compare each widget's value with the last run's and call its callback), before any line of
the app runs. A made-up message failed there, out of the app's reach, and its sender saw a
traceback (issue 48): an integer of 5,000 digits (Python's limit on parsing integers,
ValueError), lists nested 100,000 deep (RecursionError), a bare number or a list where the
selection's object belongs (TypeError). :func:`read_widget_messages_safely` puts the readers
below in the place of Streamlit's, once per process: what cannot be read arrives as a value
the page recognises and says (:data:`UNREADABLE`), and the app's own state is kept.

A real browser never sends such a message; the limit on a message's size is Streamlit's
(``server.maxWidgetStateSize``, ``tests/shell/test_forged_messages.py``).
"""

from __future__ import annotations

import json

from streamlit.components.v2.bidi_component import main as bidi_component
from streamlit.components.v2.bidi_component.serialization import BidiComponentSerde
from streamlit.elements.plotly_chart import (
    PlotlyChartSelectionSerde,
    PlotlySelectionState,
    PlotlyState,
)

# What could not be read: a key set to True in a chart's selection state (with no point
# selected), and the event a custom component's unreadable trigger arrives as (a component
# that wants to say so takes a callback ``on_unreadable_change``).
UNREADABLE = "unreadable"
# What ``json.loads`` raises on text it cannot parse (JSONDecodeError is a ValueError; so
# is the refusal of an integer over Python's 4,300 digits), or nested too deep.
_UNPARSABLE = (ValueError, RecursionError)

_streamlit_component_state = BidiComponentSerde.deserialize


def _no_selection(**marks: bool) -> PlotlyState:
    return PlotlyState({"selection": PlotlySelectionState(
        {"points": [], "point_indices": [], "box": [], "lasso": []}), **marks})


def chart_selection(ui_value: str | None) -> PlotlyState:
    """A selectable chart's state from the browser's text, as Streamlit reads it (its
    ``PlotlyChartSelectionSerde.deserialize``); anything but a JSON object whose
    ``selection``, if any, is an object gives no selection, marked :data:`UNREADABLE`."""
    if ui_value is None:
        return _no_selection()
    try:
        parsed = json.loads(ui_value)
    except _UNPARSABLE:
        parsed = None
    if not isinstance(parsed, dict) or not isinstance(parsed.get("selection", {}), dict):
        return _no_selection(**{UNREADABLE: True})
    if "selection" not in parsed:
        return _no_selection()
    parsed["selection"] = PlotlySelectionState(parsed["selection"])
    return PlotlyState(parsed)


def component_triggers(text: str | None) -> list | None:
    """A custom component's triggers from the browser's text, as Streamlit reads them
    (``deserialize_trigger_list``: a list of ``{"event": ..., "value": ...}``, None when
    cleared); text that is not JSON arrives as the one event :data:`UNREADABLE`."""
    if text is None:
        return None
    try:
        value = json.loads(text)
    except _UNPARSABLE:
        return [{"event": UNREADABLE, "value": None}]
    if value is None:
        return None
    return value if isinstance(value, list) else [value]


def _chart_state(serde: PlotlyChartSelectionSerde, ui_value: str | None) -> PlotlyState:
    return chart_selection(ui_value)


def _component_state(serde: BidiComponentSerde, ui_value):
    """A custom component's state: Streamlit's reading, which turns text that is not JSON
    into the component's defaults; the same for text Python's parser refuses."""
    try:
        return _streamlit_component_state(serde, ui_value)
    except _UNPARSABLE:
        return _streamlit_component_state(serde, None)


def read_widget_messages_safely() -> None:
    """Streamlit reads these widgets' messages with the readers above (from now on, in this
    process; calling again changes nothing). Called by the router before any widget is
    drawn."""
    PlotlyChartSelectionSerde.deserialize = _chart_state
    bidi_component.deserialize_trigger_list = component_triggers
    BidiComponentSerde.deserialize = _component_state
