"""Common mistakes' first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.mistakes.lucky_view import cached_lucky
from lessons.mistakes.view import cached_mistakes
from shell.caches import inputs_of
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """Every mistake's eigendecomposition and the lucky-γ card, as the page asks."""
    cached_mistakes(inputs_of(settings), settings.kernel_key)
    cached_lucky()
