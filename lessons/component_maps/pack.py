"""Component maps' first section for the offline lecture: the maps of the leading
components over the plane as the page draws them, their check and the sentence on what
each component does, at each of the slider's settings.

The file's maps use a coarser grid than the page's (:data:`PACK_SIDE` points a side, said
in the caption under them): eight maps at every slider value would otherwise outgrow the
file's budget.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.checks import check_text
from lessons.common.pack import PackFrame
from lessons.component_maps.experiment import MAPPED, component_maps
from lessons.component_maps.sections import (
    CUT_RULE,
    NO_CLASSES,
    drawn_components,
    map_agreement,
    map_figure,
    roles,
)
from shell.state import Settings
from words.i18n import _, join_sentences

PACK_SIDE = 24  # grid points a side of each map in the file (the page: up to 100)


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    if X.shape[1] != 2:
        raise ValueError("a map over the input plane needs inputs in the plane")
    out = []
    for settings in at:
        result = component_maps(X, kernel=settings.kernel,
                                kernel_params=settings.kernel_params(),
                                n_components=min(MAPPED, len(X) - 1), side=PACK_SIDE)
        figure, captions = map_figure(result, y, data.target_names, data.feature_names, settings)
        # On a projector the maps in one row: two rows of four fit the room under the
        # question only at a third of their size.
        # Each map is to scale and shows the same plane as the grid's: the row leaves out
        # the axes' ticks and names, for which a panel a seventh of the width has no room.
        one_row = map_figure(result, y, data.target_names, data.feature_names, settings,
                             columns=MAPPED)[0]
        one_row.update_xaxes(showticklabels=False, title_text=None)
        one_row.update_yaxes(showticklabels=False, title_text=None)
        found = roles(result, y, data.target_names, settings)
        k = drawn_components(result.fit)
        sentences = [*captions, check_text(map_agreement(result)),
                     _(NO_CLASSES) if found is None else join_sentences([found[2], _(CUT_RULE)])]
        out.append(PackFrame((("maps", figure),), tuple(sentences), {
            "explained": [float(v) for v in result.fit.explained_ratio[:k]],
            "between": None if found is None else [float(v) for v in found[0].between_share],
        }, wide={"maps": one_row}))
    return out
