"""Figure builders: pure functions from arrays to ``go.Figure`` (no Streamlit here).

One module per lesson (``explorer``, and one per lesson page), plus ``common`` for
what every page shares: one palette for classes, so class 2 is the same colour in
input space, in the KPCA projection and in the linear PCA projection; sequential
colours for K and a diverging scale centred on 0 for K̃ (its entries are signed).

The Explorer's builders are re-exported here (``figures.point_scatter``); lesson
pages import their own module (``from ui.figures import denoising``).
"""

from .common import (
    BASE_LAYOUT,
    CENTERED_SCALE,
    DIGIT_SCALE,
    DROPPED_COLOUR,
    FADED_OPACITY,
    KEPT_COLOUR,
    KERNEL_SCALE,
    LINEAR_PCA_COLOUR,
    NEGATIVE_COLOUR,
    PALETTE,
    class_colour,
    class_name,
    class_symbol,
    classes,
    digit_mosaic,
    faded,
    point_scatter,
)
from .explorer import SPECTRUM_SHOWN, kernel_heatmap, spectrum_figure

__all__ = [
    "CENTERED_SCALE",
    "DIGIT_SCALE",
    "DROPPED_COLOUR",
    "FADED_OPACITY",
    "KEPT_COLOUR",
    "KERNEL_SCALE",
    "LINEAR_PCA_COLOUR",
    "NEGATIVE_COLOUR",
    "PALETTE",
    "SPECTRUM_SHOWN",
    "BASE_LAYOUT",
    "classes",
    "faded",
    "class_name",
    "class_colour",
    "class_symbol",
    "digit_mosaic",
    "kernel_heatmap",
    "point_scatter",
    "spectrum_figure",
]
