"""Scale's first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.scale.approx_view import AUTO_COMPARE_MAX_N, cached_comparison
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The comparison of exact kernel PCA with its approximations, where the page computes
    it on arrival (larger data wait for the lecturer's button, as on the page). Nothing is
    timed ahead: the measurement of n³ runs only when asked for."""
    inputs = inputs_of(settings)
    if len(inputs.X) <= AUTO_COMPARE_MAX_N:
        cached_comparison(inputs, settings.kernel_key, settings.n_components)
