"""The Explorer's first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.common import gamma_hint
from lessons.common.analysis import explorer_analysis
from lessons.explorer.projections import first_alone, separability_scores, shown_score
from lessons.explorer.view_link import FIRST_AXES
from shell.caches import inputs_of, load_data
from shell.sidebar import with_valid_components
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The analysis, the scores under the projections and the γ hint, as the page asks."""
    inputs = inputs_of(settings)
    data = load_data(settings.dataset, settings.dataset_options)
    settings = with_valid_components(settings, len(inputs.X))
    result = explorer_analysis(inputs, settings.kernel_key, settings.n_components)
    columns = [axis - 1 for axis in FIRST_AXES]
    if separability_scores(result, data, settings, columns, columns) is not None:
        first_alone(result, data, settings, columns[0])
    gamma_hint.guidance(inputs, settings.kernel_key, shown_score(result, data, settings))
