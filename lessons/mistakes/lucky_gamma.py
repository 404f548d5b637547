r"""One lucky γ: a gallery setting that works, and what a small change does to it.

scikit-learn's kernel PCA example drew two circles (400 points, inner radius 0.3, noise
0.05, seed 0) that RBF kernel PCA with γ = 10 separates on its first two components. A user
showed (scikit-learn issue #10530, "Misleading kernel PCA examples") that the picture is
"very fine tuned": move γ, the noise or the seed a little, and it falls apart. This card
measures that: the same setting moved one step at a time (γ, the noise, the seed, the inner
radius), each scored as every separability on this site is
(:func:`experiments.separability.linear_separability` of components 1–2), and then the
right habit measured too: the γ that separates every nearby data set.

Pure (no Streamlit): numbers and one figure; ``lessons/mistakes/lucky_view.py`` draws them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from plotly.subplots import make_subplots
from sklearn.datasets import make_circles
from threadpoolctl import threadpool_limits

from experiments.kernel_diagnostics import format_gamma
from experiments.kpca_steps import fit_kpca
from experiments.separability import linear_separability
from lessons.mistakes.experiment import Damage
from shell.figures import base_layout, class_colour
from words.i18n import N_, _, format_number, join_clauses, join_list, join_sentences

# The gallery's setting (scikit-learn's plot_kernel_pca.py before 2021, and issue #10530).
GALLERY = {"n": 400, "factor": 0.3, "noise": 0.05, "seed": 0, "gamma": 10.0}
# One small step of each, either way: γ times these, the noise, the next four seeds, the
# inner radius.
STEPS = {"gamma": (0.7, 1.4), "noise": (0.03, 0.07), "seed": (1, 2, 3, 4),
         "factor": (0.25, 0.35)}
# The right habit, measured: the γ tried, in this order, until one keeps every small step
# of its own at ≥ SEPARATES.
CANDIDATES = (7.0, 5.0, 3.0)
SEPARATES = 0.95  # "separates": the site's threshold for components 1–2
NAMES = {"gamma": "γ", "noise": N_("noise"), "seed": N_("seed"), "factor": N_("inner radius")}


@dataclass(frozen=True)
class Setting:
    """One variant of the gallery's setting, its components 1–2 and their score."""

    changed: str  # "" for the centre of the steps, else the key of STEPS it moves
    values: dict
    projection: np.ndarray
    y: np.ndarray
    score: float

    @property
    def label(self) -> str:
        if not self.changed:
            return f"γ = {format_gamma(self.values['gamma'])}"
        value = self.values[self.changed]
        shown = format_gamma(value) if self.changed == "gamma" else format_number(value, "g")
        name = NAMES[self.changed]
        return f"{_(name) if name != 'γ' else name} = {shown}"


@dataclass(frozen=True)
class Trial:
    """A γ judged on its neighbourhood: the lowest score over its steps (stopped at the
    first step below SEPARATES), and how many steps were scored."""

    gamma: float
    worst: float
    scored: int

    @property
    def steady(self) -> bool:
        return self.worst >= SEPARATES


@dataclass(frozen=True)
class LuckyGamma:
    """The card's numbers: the gallery's setting, each small step, the γ tried after it."""

    gallery: Setting
    near: tuple[Setting, ...]
    trials: tuple[Trial, ...]

    @property
    def worst(self) -> Setting:
        return min(self.near, key=lambda s: s.score)

    def worst_of(self, changed: str) -> Setting:
        return min((s for s in self.near if s.changed == changed), key=lambda s: s.score)

    @property
    def damage(self) -> Damage:
        """Points of separability lost one small step from the gallery's setting."""
        return Damage(_("points of separability (components 1–2) lost one small step from "
                        "the gallery's setting: {worst} % at {setting}, against {gallery} "
                        "%").format(worst=format_number(100 * self.worst.score, ".0f"),
                                    setting=self.worst.label,
                                    gallery=format_number(100 * self.gallery.score, ".0f")),
                      float(100 * (self.gallery.score - self.worst.score)),
                      100 * (1.0 - SEPARATES))


def _setting(changed: str = "", **moved) -> Setting:
    values = {**GALLERY, **moved}
    X, y = make_circles(n_samples=values["n"], factor=values["factor"], noise=values["noise"],
                        random_state=values["seed"])
    Z = fit_kpca(X, kernel="rbf", kernel_params={"gamma": values["gamma"]},
                 n_components=2).projection
    return Setting(changed, values, Z, y, float(linear_separability(Z, y)))


def _steps(gamma: float):
    """The small steps around the gallery's data at ``gamma``, one setting at a time."""
    for key, values in STEPS.items():
        for value in values:
            moved = gamma * value if key == "gamma" else value
            yield _setting(key, **{"gamma": gamma, key: moved})


def lucky_gamma() -> LuckyGamma:
    """Score the gallery's setting and each step away from it; then try CANDIDATES until
    one keeps all its own steps separated."""
    with threadpool_limits(limits=1):  # 400 points: one thread does it, on a shared host
        gallery = _setting()
        near = tuple(_steps(GALLERY["gamma"]))
        trials = []
        for gamma in CANDIDATES:
            worst, scored = 1.0, 0
            for setting in (_setting(gamma=gamma), *_steps(gamma)):
                worst, scored = min(worst, setting.score), scored + 1
                if worst < SEPARATES:
                    break
            trials.append(Trial(gamma, worst, scored))
            if trials[-1].steady:
                break
    return LuckyGamma(gallery, near, tuple(trials))


def caption(result: LuckyGamma) -> str:
    """What the numbers say: the gallery's score, each kind's worst step, the γ that holds."""
    def percent(share: float) -> str:
        return format_number(100 * share, ".0f")

    families = join_clauses([_("{setting}: {percent} %").format(
        setting=result.worst_of(key).label, percent=percent(result.worst_of(key).score))
        for key in STEPS])
    parts = [_("At the gallery's setting components 1–2 separate {percent} % of the points. One "
               "small step away, the worst of each kind: {families}.").format(
        percent=percent(result.gallery.score), families=families)]
    seeds = [s for s in result.near if s.changed == "seed"]
    kept = sum(s.score >= SEPARATES for s in seeds)
    parts.append(_("Of the {seeds} other seeds, {kept} keep ≥ {percent} %.").format(
        seeds=format_number(len(seeds)), kept=format_number(kept), percent=percent(SEPARATES)))
    steps = 1 + sum(len(v) for v in STEPS.values())
    failed = [t for t in result.trials if not t.steady]
    steady = [t for t in result.trials if t.steady]
    for trial in failed:
        parts.append(_("γ = {gamma} does not hold either: {percent} % within its first "
                       "{scored} settings.").format(gamma=format_gamma(trial.gamma),
                                                    percent=percent(trial.worst),
                                                    scored=format_number(trial.scored)))
    if steady:
        trial = steady[0]
        parts.append(_("Right: judge γ on its neighbourhood. γ = {gamma} keeps every one of its "
                       "{steps} settings (itself and the same small steps) at ≥ {percent} %: "
                       "{worst} % at worst.").format(
            gamma=format_gamma(trial.gamma), steps=format_number(steps),
            percent=percent(SEPARATES), worst=percent(trial.worst)))
    else:
        parts.append(_("None of γ = {tried} keeps every small step at ≥ {percent} %.").format(
            tried=join_list([format_gamma(t.gamma) for t in result.trials]),
            percent=percent(SEPARATES)))
    return join_sentences(parts)


def panels(settings: list[Setting], *, title: str, columns: int | None = None) -> go.Figure:
    """Components 1–2 of each setting, one panel each, its score in its title;
    ``columns`` panels across (all in one row by default)."""
    columns = columns or len(settings)
    rows = -(-len(settings) // columns)
    fig = make_subplots(rows=rows, cols=columns, horizontal_spacing=0.03,
                        vertical_spacing=0.12,
                        subplot_titles=[(_("{setting}<br>{percent} %") if s.changed else
                                         _("gallery: {setting}<br>{percent} %")).format(
                                            setting=s.label,
                                            percent=format_number(100 * s.score, ".0f"))
                                        for s in settings])
    for i, setting in enumerate(settings):
        for label in np.unique(setting.y):
            Z = setting.projection[setting.y == label].astype(np.float32)
            fig.add_trace(go.Scatter(
                x=Z[:, 0], y=Z[:, 1], mode="markers", showlegend=i == 0,
                name=_("outer circle") if label == 0 else _("inner circle"),
                legendgroup=str(label),
                marker=dict(color=class_colour(int(label)), size=4), hoverinfo="skip"),
                row=i // columns + 1, col=i % columns + 1)
    fig.update_xaxes(showticklabels=False)
    fig.update_yaxes(showticklabels=False)
    fig.update_layout(title=title, height=60 + 240 * rows, **base_layout())
    fig.update_layout(margin=dict(l=10, r=10, t=100, b=10),
                      legend=dict(orientation="h", y=-0.05))
    return fig
