"""Made-up widget messages are read, never raised on (server/widget_messages.py, issue 48):
what Python's JSON parser refuses, or a selection of the wrong shape, arrives marked
unreadable; what a browser sends reads as Streamlit reads it. The whole path, against a
real server: tests/shell/test_forged_messages.py."""

from __future__ import annotations

import json

import pytest
from streamlit.components.v2.bidi_component import main as bidi_component
from streamlit.components.v2.bidi_component.serialization import (
    BidiComponentSerde,
    deserialize_trigger_list,
)
from streamlit.elements.plotly_chart import PlotlyChartSelectionSerde

from server import widget_messages
from server.widget_messages import UNREADABLE, chart_selection, component_triggers

HUGE_INTEGER = "1" * 5000  # over Python's 4,300 digits: int() refuses it
DEEP = "[" * 100_000 + "]" * 100_000  # past the parser's recursion limit
SELECTION = {"points": [{"customdata": 3}], "point_indices": [3], "box": [], "lasso": []}


@pytest.mark.parametrize("text", [
    "nonsense", "5", "null", '"x"', "[1, 2]", '["selection"]', '{"selection": 5}',
    '{"selection": [1]}', '{"selection": "ab"}', DEEP,
    f'{{"selection": {{"points": [{{"customdata": {HUGE_INTEGER}}}]}}}}'])
def test_a_made_up_selection_selects_nothing_and_says_it_could_not_be_read(text):
    state = chart_selection(text)
    assert state[UNREADABLE] is True
    assert state["selection"]["points"] == [] and state.selection.points == []


@pytest.mark.parametrize("sent", [{"selection": SELECTION}, {"selection": {}}, {}])
def test_a_selection_a_browser_sends_reads_as_streamlit_reads_it(sent):
    text = json.dumps(sent)
    ours, streamlits = chart_selection(text), PlotlyChartSelectionSerde().deserialize(text)
    assert UNREADABLE not in ours
    assert ours == streamlits and ours.selection == streamlits.selection
    assert chart_selection(None) == PlotlyChartSelectionSerde().deserialize(None)


@pytest.mark.parametrize("text", [
    f'[{{"event": "edit", "value": {{"rev": {HUGE_INTEGER}, "points": []}}}}]',
    f'[{{"event": "edit", "value": {DEEP}}}]', "not json"])
def test_a_trigger_python_cannot_parse_arrives_as_the_unreadable_event(text):
    assert component_triggers(text) == [{"event": UNREADABLE, "value": None}]


@pytest.mark.parametrize("text", [
    '[{"event": "edit", "value": {"rev": 0, "points": [[0.5, 0.5, 1]]}}]',
    '{"event": "edit", "value": 3}', "null", None])
def test_a_trigger_a_browser_sends_reads_as_streamlit_reads_it(text):
    assert component_triggers(text) == deserialize_trigger_list(text)


def test_a_component_state_python_cannot_parse_is_the_components_defaults():
    serde = BidiComponentSerde(default={"shown": 1})
    assert widget_messages._component_state(serde, f'{{"a": {HUGE_INTEGER}}}') == {"shown": 1}
    assert widget_messages._component_state(serde, DEEP) == {"shown": 1}
    assert widget_messages._component_state(serde, '{"a": 2}') == {"a": 2, "shown": 1}


def test_streamlit_reads_with_these_once_installed(monkeypatch):
    # Installed on copies of the three places, so that this test leaves Streamlit as it was.
    monkeypatch.setattr(PlotlyChartSelectionSerde, "deserialize",
                        PlotlyChartSelectionSerde.deserialize)
    monkeypatch.setattr(bidi_component, "deserialize_trigger_list",
                        bidi_component.deserialize_trigger_list)
    monkeypatch.setattr(BidiComponentSerde, "deserialize", BidiComponentSerde.deserialize)
    widget_messages.read_widget_messages_safely()
    widget_messages.read_widget_messages_safely()  # twice: the same
    assert PlotlyChartSelectionSerde().deserialize("5")[UNREADABLE] is True
    assert bidi_component.deserialize_trigger_list(DEEP) == [
        {"event": UNREADABLE, "value": None}]
    assert BidiComponentSerde().deserialize(DEEP) == {}
