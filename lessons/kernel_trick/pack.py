"""The kernel trick's lifted plane for the offline lecture: the page's 3-D lift of the
points by the degree-2 map, the separating plane, its check and its words.

No slider: the lift is the degree-2 polynomial kernel's map, whatever the step's degree,
and γ only rescales it (the scores standardise, so they do not change with γ).
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.checks import check_text
from lessons.common.pack import PackFrame, Slider
from lessons.kernel_trick.sections import lift_scores_of, lift_section
from shell.state import Settings
from words.i18n import _


def slider(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Slider:
    return Slider(None, (), _("No slider: the lift is the degree-2 map (x₁², √2x₁x₂, x₂²) "
                              "scaled by γ, and a scale changes neither the picture's shape "
                              "nor the scores."))


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    if X.shape[1] != 2:
        raise ValueError("the lift is drawn for points in the plane")
    scores = lift_scores_of(X, y)
    plane, lifted_score, raw_score, _ = scores
    out = []
    for settings in at:
        figure, check, text = lift_section(X, y, data.target_names, settings.gamma, scores)
        out.append(PackFrame((("lift", figure),), (check_text(check), text), {
            "lifted_score": lifted_score, "raw_score": raw_score,
            "plane_accuracy": None if plane is None else float(plane.accuracy)}))
    return out
