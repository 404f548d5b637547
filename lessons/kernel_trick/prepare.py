"""The kernel trick's first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.kernel_trick.view import cached_explicit_pca, cached_taylor, lift_scores, map_params
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """φ(X)'s PCA, the Taylor series' convergence and the lifted plane's scores, as the
    page asks for them."""
    inputs = inputs_of(settings)
    cached_explicit_pca(inputs, map_params(settings))
    cached_taylor(inputs, settings.gamma)
    lift_scores(inputs)
