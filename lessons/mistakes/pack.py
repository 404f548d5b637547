"""Common mistakes for the offline lecture: the two centring mistakes the tour's step asks
about (no centring at all; the wrong sign on the last term), each beside the right result
as the page draws it, with its damage, its checks and what they show, at each of the
slider's settings."""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.checks import check_text
from lessons.common.pack import PackFrame
from lessons.mistakes.experiment import EIG_MAX_N, compare_mistakes
from lessons.mistakes.sections import damage_line, picture, sample_rows, uncoloured
from shell.state import Settings
from words.i18n import _, format_number

# The mistakes the step's question is about ("forget to centre, or centre with the wrong
# sign"), in the page's order.
SHOWN = ("no_centering", "last_sign")


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    rows = sample_rows(len(X))
    out = []
    for settings in at:
        made = compare_mistakes(X[rows], kernel=settings.kernel,
                                kernel_params=settings.kernel_params(), eig_max_n=EIG_MAX_N)
        figures, sentences, numbers = [], [], {}
        if len(rows) < len(X):  # as the page says it
            sentences.append(_("Each mistake needs its own eigendecomposition: this page uses "
                               "a fixed random sample of {sample} of the {n} points.").format(
                sample=format_number(len(rows), ","), n=format_number(len(X), ",")))
        for number, mistake in enumerate(made, 1):
            if mistake.key not in SHOWN:
                continue
            figures.append((mistake.key, picture(mistake, y, data.target_names, rows)))
            sentences.append(_("**{number} · {title}.** {description}").format(
                number=number, title=_(mistake.title), description=_(mistake.description)))
            for damage in mistake.damages:
                sentences.append(uncoloured(damage_line(damage)))
            sentences += [check_text(check) for check in mistake.checks()]
            sentences.append(mistake.caption())
            numbers[mistake.key] = [float(d.value) for d in mistake.damages]
        out.append(PackFrame(tuple(figures), tuple(sentences), numbers))
    return out
