"""Component maps' first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.component_maps.view import maps
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The maps of the leading components over the plane, as the page asks for them."""
    maps(inputs_of(settings), settings.kernel_key)
