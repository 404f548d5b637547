"""The kernel trick's lifted plane (section 4) as a figure, a check and words, without
Streamlit: the page (:mod:`lessons.kernel_trick.view`) shows them, and the offline lecture
(:mod:`lessons.kernel_trick.pack`) carries them.
"""

from __future__ import annotations

import numpy as np
import plotly.graph_objects as go

from experiments.checks import Check
from experiments.feature_maps import Plane, quadratic_lift, separating_plane
from experiments.separability import linear_separability
from lessons.kernel_trick import figures as fig
from shell.state import format_gamma
from words.i18n import _, format_number, join_sentences

LiftScores = tuple[Plane | None, float | None, float | None, Plane | None]


def lift_scores_of(X: np.ndarray, y: np.ndarray | None) -> LiftScores:
    """The plane (in γ = 1 coordinates), the cross-validated scores lifted vs raw, and the
    plane of the full degree-2 lift (with x₁ and x₂: what c₀ > 0 adds).

    All are independent of γ (the lift only scales by γ, and the scores standardise).
    """
    if y is None:
        return None, None, None, None
    lifted = quadratic_lift(X, gamma=1.0)
    two = len(np.unique(y)) == 2
    plane = separating_plane(lifted, y) if two else None
    # A plane in (x₁, x₂, x₁², x₁x₂, x₂²) is any conic; in the c₀ = 0 lift only those
    # centred at the origin (no x₁, x₂ terms).
    conic = separating_plane(np.column_stack([X, lifted]), y) if two else None
    return plane, linear_separability(lifted, y), linear_separability(X, y), conic


def lift_section(X: np.ndarray, y: np.ndarray | None, target_names, gamma: float,
                 scores: LiftScores) -> tuple[go.Figure, Check, str]:
    """The lifted points with the separating plane, the check that z₁ + z₃ = γ‖x‖², and
    the words on the scores (from ``scores``: :func:`lift_scores_of`)."""
    Z = quadratic_lift(X, gamma=gamma)
    plane, lifted_score, raw_score, conic = scores
    drawn = None
    if plane is not None:
        drawn = (plane.normal / gamma, plane.offset)  # w·z₁ + b = (w/γ)·(γz₁) + b
    figure = fig.lifted_scatter(Z, y, target_names, plane=drawn,
                                title=_("The data lifted into 3-D by φ (γ = {gamma})").format(
                                    gamma=format_gamma(gamma)))
    lo = float(np.abs(Z @ np.array([1.0, 0.0, 1.0]) - gamma * (X**2).sum(axis=1)).max())
    check = Check(_("largest |z₁ + z₃ − γ‖x‖²| (the lifted points' z₁ + z₃ is γ × squared "
                    "radius)"), lo, 1e-10 * max(1.0, float(np.abs(Z).max())))
    if lifted_score is None:
        return figure, check, _("No class labels: colour shows nothing to separate.")
    # The percentages carry their "%": "{lifted}% right" would read as a printf "% r".
    text = _(
        "A linear classifier (5-fold cross-validated logistic regression) gets {lifted} "
        "right on the lifted points and {raw} on the raw 2-D points."
    ).format(lifted=format_number(100 * lifted_score, ".0f") + "%",
             raw=format_number(100 * raw_score, ".0f") + "%")
    if plane is None:
        return figure, check, join_sentences((text, _("With more than two classes no single "
                                                      "plane is drawn.")))
    numbers = dict(plane=format_number(100 * plane.accuracy, ".0f"))
    if plane.accuracy >= 0.99:
        words = _("The green plane (fitted on all points) puts {plane}% of them on their "
                  "class's side: a circle x₁² + x₂² = r² in the plane is the flat plane "
                  "z₁ + z₃ = γr² after the lift.")
    else:
        numbers["conic"] = format_number(100 * conic.accuracy, ".0f")
        words = (_(
            "The green plane (fitted on all points) puts {plane}% of them on their class's "
            "side. A plane in this lift is a conic centred at the origin, a x₁² + b x₁x₂ + c "
            "x₂² = const (with c₀ = 0 there are no x₁, x₂ terms), and none splits these "
            "classes. With the x₁, x₂ coordinates c₀ > 0 adds, a plane is any conic: the best "
            "one puts {conic}% on their side, so no quadratic curve splits them either.")
            if conic.accuracy < 0.99 else _(
            "The green plane (fitted on all points) puts {plane}% of them on their class's "
            "side. A plane in this lift is a conic centred at the origin, a x₁² + b x₁x₂ + c "
            "x₂² = const (with c₀ = 0 there are no x₁, x₂ terms), and none splits these "
            "classes. With the x₁, x₂ coordinates c₀ > 0 adds, a plane is any conic: the best "
            "one puts {conic}% on their side, so an off-centre quadratic curve does split "
            "them."))
    return figure, check, join_sentences((text, words.format(**numbers)))
