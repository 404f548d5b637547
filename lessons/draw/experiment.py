"""The Draw page's numbers, as plain functions: an edit from the browser checked, and how well
the drawn classes come apart in kernel PCA and in linear PCA.

No Streamlit: the editor's value is untrusted input, and :func:`read_edit` is where it is
checked, so the tests can throw anything at it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Mapping
from dataclasses import dataclass

import numpy as np

from datasets import drawn
from experiments.analysis import Analysis
from experiments.separability import linear_separability
from words.i18n import _, format_number, join_sentences


def read_edit(value: object, revision: int) -> tuple[np.ndarray, np.ndarray] | None:
    """The points of an edit sent by the editor, snapped (``datasets.drawn.snap``).

    ``value`` should be ``{"rev": revision, "points": [[x, y, class], ...]}``. Returns None
    for an edit made on points that have since been replaced (a preset or Clear arrived
    after it: its revision is older), so it cannot undo them. Raises
    ``datasets.drawn.DrawnError`` for anything malformed.
    """
    if not isinstance(value, Mapping) or set(value) != {"rev", "points"}:
        raise drawn.DrawnError("the editor sent something other than {rev, points}.")
    rev = value["rev"]
    if isinstance(rev, bool) or not isinstance(rev, int):
        raise drawn.DrawnError("the editor sent an edit without a revision number.")
    if rev != revision:
        return None
    return drawn.snap(value["points"])


@dataclass(frozen=True)
class Separation:
    """Cross-validated accuracy of a linear classifier on the first two components of each
    method (``experiments.separability``); None where it cannot be scored."""

    kernel_pca: float | None
    linear_pca: float | None


def separation(result: Analysis, y: np.ndarray) -> Separation:
    """How well the drawn classes come apart on the two axes each projection shows."""
    return Separation(linear_separability(result.projection[:, :2], y),
                      linear_separability(result.pca_projection[:, :2], y))


def separation_sentence(scores: Separation) -> str | None:
    """What the two scores say, from the scores alone (None when either is missing)."""
    kpca, pca = scores.kernel_pca, scores.linear_pca
    if kpca is None or pca is None:
        return None
    numbers = _("A straight line (a linear classifier, cross-validated) separates the classes "
                "with {kpca} accuracy on kernel PCA's first two components and "
                "{pca} on linear PCA's.").format(kpca=format_number(kpca, ".0%"),
                                                 pca=format_number(pca, ".0%"))
    gap = kpca - pca
    if gap >= 0.05:
        verdict = _("Kernel PCA has made your classes more linearly separable.")
    elif gap <= -0.05:
        verdict = _("Linear PCA separates them better here: this kernel and γ do not suit "
                    "your drawing.")
    elif min(kpca, pca) >= 0.95:
        verdict = _("Both separate them: a straight line already did in the plane.")
    else:
        verdict = _("Neither separates them much better than the other.")
    return join_sentences([numbers, verdict])


def points_csv(X: np.ndarray, y: np.ndarray) -> str:
    """The drawing as a CSV file that 'Your own CSV' reads back: x1, x2 and the class name."""
    out = io.StringIO()
    writer = csv.writer(out, lineterminator="\n")
    writer.writerow(["x1", "x2", "class"])
    for (a, b), c in zip(np.asarray(X), np.asarray(y), strict=True):
        writer.writerow([repr(float(a)), repr(float(b)), drawn.CLASS_NAMES[int(c)]])
    return out.getvalue()
