"""How it works' first screen for the offline lecture: K and K̃ as the page draws them,
the eigenvalues of K̃, and the page's live checks (K̃'s rows and columns sum to 0, the
eigen-equation holds) with their numbers, at each of the slider's settings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.analysis import analyse
from experiments.checks import check_text
from lessons.common.pack import HEATMAP_SIDE, PackFrame
from lessons.how_it_works.experiment import step_by_step
from lessons.how_it_works.sections import (
    centre_checks,
    eigen_caption,
    eigen_checks,
    heatmap_figure,
    kernel_checks,
    sample_rows,
    spectrum_figure,
)
from shell.state import Settings


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    """The page's steps 1–3 at each of the settings ``at``: the Explorer's analysis for
    the pictures and the step-by-step fit for the checks (on the page's sample)."""
    out = []
    rows = sample_rows(len(X))
    for settings in at:
        params = settings.kernel_params()
        result = analyse(X, y, kernel=settings.kernel, kernel_params=params,
                         n_components=settings.n_components)
        steps = step_by_step(X[rows], kernel=settings.kernel, kernel_params=params,
                             n_components=settings.n_components)
        checks = [*kernel_checks(steps), *centre_checks(steps), *eigen_checks(steps)]
        out.append(PackFrame(
            (("K", heatmap_figure(result, y, data.target_names, centered=False,
                                  side=HEATMAP_SIDE)),
             ("Kc", heatmap_figure(result, y, data.target_names, centered=True,
                                   side=HEATMAP_SIDE)),
             ("eigenvalues", spectrum_figure(result, steps))),
            (*(check_text(check) for check in checks), eigen_caption(steps)),
            {"row_sum": float(steps.row_sum), "column_sum": float(steps.column_sum),
             "mu": [float(m) for m in steps.mu], "trace": float(steps.trace),
             "checks_passed": all(check.passed for check in checks)}))
    return out
