"""A mistake's picture and damage line without Streamlit: the page
(:mod:`lessons.mistakes.view`) shows them, and the offline lecture
(:mod:`lessons.mistakes.pack`) carries them.
"""

from __future__ import annotations

import re

import numpy as np
import plotly.graph_objects as go

from experiments import sampling
from experiments.checks import format_value
from lessons.mistakes import figures as fig
from lessons.mistakes.experiment import Damage, Mistake
from shell.registry import MISTAKES_MAX_N
from words.i18n import _


def sample_rows(n: int) -> np.ndarray:
    """The rows the mistakes are measured on (all, or a seeded sample of MISTAKES_MAX_N)."""
    return sampling.sample_rows(n, MISTAKES_MAX_N)


def picture(mistake: Mistake, y: np.ndarray | None, target_names,
            rows: np.ndarray) -> go.Figure:
    """The right and the wrong result side by side; ``y``: the labels of all the data,
    ``rows``: the rows of data measured."""
    shown = mistake.picture
    if shown.spectrum:
        return fig.spectra_right_and_wrong(shown.right, shown.wrong, title=shown.shown_title())
    drawn = rows if shown.rows is None else rows[shown.rows]
    return fig.right_and_wrong(shown.right, shown.wrong, None if y is None else y[drawn],
                               target_names, title=shown.shown_title(),
                               wrong_title=_(shown.wrong_title))


def damage_line(damage: Damage) -> str:
    """The damage line, Markdown: the verdict in green ("No damage on these data") or in
    red ("Damage", the value bold), then the measure and its value; in the language of this
    run (the label is an English message, said here)."""
    values = dict(label=_(damage.label), value=format_value(damage.value))
    if damage.harmless:
        return _(":green[**No damage on these data**] · {label}: {value}").format(**values)
    return _(":red[**Damage**] · {label}: **{value}**").format(**values)


def uncoloured(markdown: str) -> str:
    """Streamlit's colour directives (``:red[…]``) taken out, their text kept: the offline
    lecture's Markdown has no colours."""
    return re.sub(r":(?:red|green)\[([^\]]*)\]", r"\1", markdown)
