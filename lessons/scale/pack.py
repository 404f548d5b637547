"""Scale for the offline lecture: the page's memory budget (section 1's numbers) and its
memory-against-n chart with its caption (section 2, as the page draws it before anything is
timed), and what K needs at the step's n and at twice it, which answers the step's question.

No slider: K holds n² numbers of 8 bytes whatever the kernel and γ; the chart moves with n
(and d, k), not with γ. Nothing is timed: timings belong to the machine that runs them.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lessons.common.pack import PackFrame, Slider
from lessons.scale.sections import (
    LARGEST_ALONE,
    LARGEST_MEASURED,
    MEASURE_COPIES,
    SMALLEST_N,
    largest_live,
    memory_chart,
    pool_size,
)
from server import budget as memory
from shell.state import Settings
from words.i18n import _, format_number


def slider(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Slider:
    return Slider(None, (), _("No slider: K holds n² numbers of 8 bytes whatever the kernel "
                              "and γ; memory moves with n, which the chart runs over."))


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    budget = memory.budget_bytes()  # the build's: said on screen, as the page says its own
    n, d = X.shape
    out = []
    for settings in at:
        # The page's range before anything is timed: its smallest n to the largest it times.
        top = largest_live(pool_size(settings.dataset, n, budget), budget)
        figure, caption = memory_chart(np.array([SMALLEST_N, top]), d,
                                       settings.n_components, budget)
        now, doubled = memory.matrix_bytes(n), memory.matrix_bytes(2 * n)
        alone = memory.largest_square(1, budget)
        measured = memory.largest_square(MEASURE_COPIES, budget)
        sentences = (
            _("K holds n² numbers of 8 bytes: at this step's n = {n} that is {now}; at "
              "n = {doubled_n}, {doubled}, {ratio} × as much. On the log-log chart K's line "
              "rises two decades for each decade of n.").format(
                n=format_number(n, ","), now=memory.format_bytes(now),
                doubled_n=format_number(2 * n, ","), doubled=memory.format_bytes(doubled),
                ratio=format_number(doubled / now, "g")),
            _("Budget per computation: {budget} (the build's setting). {largest_alone}: "
              "{alone}. {largest_measured}: {measured}.").format(
                budget=memory.format_bytes(budget), largest_alone=_(LARGEST_ALONE),
                alone=format_number(alone, ","), largest_measured=_(LARGEST_MEASURED),
                measured=format_number(measured, ",")),
            caption,
        )
        out.append(PackFrame((("memory", figure),), sentences, {
            "n": n, "K_bytes": now, "K_bytes_doubled": doubled, "ratio": doubled / now,
            "budget": budget, "largest_alone": alone, "largest_measured": measured,
            "chart_top_n": top}))
    return out
