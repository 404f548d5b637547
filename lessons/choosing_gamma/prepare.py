"""Choosing γ's first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.choosing_gamma import alignment
from lessons.choosing_gamma.view import cached_sweep, gamma_only_rescales, has_gamma
from lessons.common import gamma_hint
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The γ sweep, its alignment curve and the γ hint (which compares with no score of
    its own here), as the page asks."""
    if not has_gamma(settings) or gamma_only_rescales(settings):
        return  # the page offers another kernel, or explains the rescaling: nothing heavy
    inputs = inputs_of(settings)
    sweep = cached_sweep(settings, inputs, "gamma")
    gamma_hint.guidance(inputs, settings.kernel_key, None)
    if sweep.score_two is not None:
        alignment.curve_of(sweep, settings, inputs)
