"""What a lesson's page shows on its first screen, for the offline lecture (``lecture_pack``).

A lesson that hosts a step of the guided tour has a pure ``pack`` module whose
``frames(X, y, data, at)`` (the inputs as the kernel sees them, their labels, the data set
as loaded for its class and feature names, one :class:`~shell.state.Settings` per slider
value) returns one :class:`PackFrame` per value of the step's slider: the page's own figures (built
by the functions the page draws with), the sentences the page computes from their numbers,
and those numbers (the tests compare them with an independent computation). The lesson may
choose what the slider moves (``slider(X, y, settings)`` returning a :class:`Slider`);
without one, the lecture's γ or degree grid
around the step's setting is used. A page that reads link parameters (the step's
``page_query``, e.g. the Explorer's open section) gets them as keyword arguments of
``frames``.

What the file draws is smaller than what the page sends: a pack that draws every point
draws at most :data:`SHOWN_POINTS` of them (a stratified sample), and a matrix at most
:data:`HEATMAP_SIDE` cells a side (block means), and says so on screen.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import plotly.graph_objects as go

SHOWN_POINTS = 600  # points drawn per chart (a stratified sample past it)
HEATMAP_SIDE = 50  # K and K̃ drawn at most this many cells a side (block means)


@dataclass(frozen=True)
class PackFrame:
    """One slider value of a step: figures drawn in order (pairs side by side on a
    projector), sentences (markdown: **bold** and `code` only), numbers by name. ``wide``: figures
    drawn on a wide screen instead of ``figures``' of the same name (a grid of panels laid
    out in one row, to fit the room a projector leaves under the question)."""

    figures: tuple[tuple[str, go.Figure], ...]
    sentences: tuple[str, ...] = ()
    numbers: dict = field(default_factory=dict)
    wide: dict[str, go.Figure] = field(default_factory=dict)


@dataclass(frozen=True)
class Slider:
    """What a step's slider moves: a setting (``param``, e.g. "gamma") over ``values``,
    ``note`` saying on screen what follows it. ``param`` None: no slider (``note`` says why)."""

    param: str | None
    values: tuple[float, ...]
    note: str
