"""De-noising's first view, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.denoising import caches
from lessons.denoising import experiment as dn
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The fit, every method's curve and the sections' numbers at the page's own defaults
    (the lesson has its own settings: the sidebar's do not reach it)."""
    del settings
    defaults = caches.DenoisingSettings()
    caches.fitted(defaults.fit_key)
    for method in dn.METHODS:
        caches.curve(caches.curve_settings(defaults, method), method)
    caches.noise_split(defaults)
    caches.clean_reconstruction(defaults)
