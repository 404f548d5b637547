"""A mistake's picture and damage line without Streamlit: the page
(:mod:`lessons.mistakes.view`) shows them, and the offline lecture
(:mod:`lessons.mistakes.pack`) carries them.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from experiments import sampling
from experiments.checks import format_value
from lessons.mistakes import figures as fig
from lessons.mistakes.experiment import Damage, Mistake
from shell.registry import MISTAKES_MAX_N


def sample_rows(n: int) -> np.ndarray:
    """The rows the mistakes are measured on (all, or a seeded sample of MISTAKES_MAX_N)."""
    return sampling.sample_rows(n, MISTAKES_MAX_N)


def picture(mistake: Mistake, y: np.ndarray | None, target_names,
            rows: np.ndarray) -> go.Figure:
    """The right and the wrong result side by side; ``y``: the labels of all the data,
    ``rows``: the rows of data measured."""
    shown = mistake.picture
    if shown.spectrum:
        return fig.spectra_right_and_wrong(shown.right, shown.wrong, title=shown.title)
    drawn = rows if shown.rows is None else rows[shown.rows]
    return fig.right_and_wrong(shown.right, shown.wrong, None if y is None else y[drawn],
                               target_names, title=shown.title, wrong_title=shown.wrong_title)


def damage_words(damage: Damage) -> tuple[str, str]:
    """The damage line's verdict ("No damage on these data" or "Damage") and the rest
    (" · label: value"), the value bold where there is damage."""
    value = format_value(damage.value)
    if damage.harmless:
        return "No damage on these data", f" · {damage.label}: {value}"
    return "Damage", f" · {damage.label}: **{value}**"
