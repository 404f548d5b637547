"""How it works' first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.common.analysis import explorer_analysis
from lessons.how_it_works.view import fitted_steps
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The analysis and the step-by-step fit, as the page asks for them."""
    inputs = inputs_of(settings)
    explorer_analysis(inputs, settings.kernel_key, settings.n_components)
    fitted_steps(inputs, settings.kernel_key, settings.n_components)
