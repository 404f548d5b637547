"""The de-noising page's settings, its digit grid (section 3) and its MSE sentence
(section 4) without Streamlit: the page (:mod:`lessons.denoising.view`, its caches in
:mod:`lessons.denoising.caches`) shows them, and the offline lecture
(:mod:`lessons.denoising.pack`) carries them.
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go

import datasets
from lessons.denoising import experiment as dn
from lessons.denoising import figures
from shell.registry import DENOISING_N_TRAIN
from words.i18n import N_, _, format_number

DEFAULT_N_TRAIN = DENOISING_N_TRAIN  # stated in the registry (the memory guard's size)
DEFAULT_TEST_PER_CLASS = 5
# Where the lesson shows at default settings: PCA wins on clean digits, KPCA on noisy.
DEFAULT_M = 128


@dataclass(frozen=True)
class DenoisingSettings:
    """Everything the computation depends on (hashable: the cache key)."""

    n_train: int = DEFAULT_N_TRAIN
    test_per_class: int = DEFAULT_TEST_PER_CLASS
    seed: int = 0
    noise: str = "gaussian"
    level: float = dn.PAPER_SIGMA
    fit_on_noisy: bool = False
    gamma: float = dn.PAPER_GAMMA
    m: int = DEFAULT_M
    method: str = "fixed_point"
    params: dn.PreimageParams = dn.PreimageParams()
    width: str = "paper"  # which reading of the paper's width γ comes from (the view's)

    @property
    def max_components(self) -> int:
        return dn.largest_m(self.n_train)

    @property
    def test_key(self) -> tuple:
        return (self.test_per_class, self.seed)

    @property
    def fit_key(self) -> tuple:
        noise = (self.noise, self.level) if self.fit_on_noisy else None
        return (self.n_train, self.seed, self.gamma, self.max_components, noise)

    @property
    def noise_key(self) -> tuple:
        return (self.noise, self.level)


SHOWN_PER_CLASS = 2  # test digits of each class in the grid


def training_digits(n_train: int, seed: int) -> np.ndarray:
    """A seeded subset of the training digits, each class in proportion."""
    return datasets.load("usps", split="train", n=n_train, seed=seed).X


def testing_digits(test_per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The same number of test digits of every class, sorted by class."""
    test = datasets.load("usps", split="test", n=2007, seed=seed)
    rows = dn.per_class_indices(test.y, test_per_class, seed)
    return test.X[rows], test.y[rows]


def noisy_digits(X_clean: np.ndarray, test_key: tuple, noise_key: tuple) -> np.ndarray:
    """The test digits with the page's noise (seeded by the test digits' seed)."""
    return dn.add_noise(X_clean, *noise_key, seed=test_key[1])


def shown_rows(y: np.ndarray) -> np.ndarray:
    """The first SHOWN_PER_CLASS test digits of every class."""
    return np.concatenate([np.flatnonzero(y == c)[:SHOWN_PER_CLASS] for c in np.unique(y)])


def digit_grid_figure(X_clean: np.ndarray, X_noisy: np.ndarray, y: np.ndarray,
                      curves: dict[str, dn.MethodCurve], m: int,
                      method: str) -> tuple[go.Figure, str | None]:
    """Original, noisy, PCA and the chosen kernel PCA pre-image at m, for the first
    :data:`SHOWN_PER_CLASS` test digits of each class, and the fixed point's caption (None
    when no fixed point was run at m)."""
    rows = shown_rows(y)
    fig = figures.denoising_grid(
        X_clean[rows], X_noisy[rows], curves["pca"].reconstructions[m][rows],
        curves[method].reconstructions[m][rows], y[rows], m=m, method=method,
    )
    fixed_point = curves.get("fixed_point")
    report = fixed_point.fixed_point.get(m) if fixed_point is not None else None
    return fig, None if report is None else fixed_point_text(report, m, len(X_clean))


def fixed_point_text(report: dn.FixedPointReport, m: int, count: int) -> str:
    it = report.iterations
    numbers = dict(m=format_number(m), first=format_number(report.converged_first),
                   count=format_number(count), mean=format_number(it.mean(), ".1f"),
                   max=format_number(it.max()), budget=format_number(report.max_iter),
                   restarted=format_number(report.restarted),
                   after=format_number(report.converged_after_restart),
                   failed=format_number(report.n_failed))
    return _(_FIXED_POINT[bool(report.restarted), bool(report.n_failed)]).format(**numbers)


# The fixed point's report: with or without restarts, with or without failures.
_FIXED_POINT = {
    (False, False): N_("Fixed point at m = {m}: {first} of {count} digits converged from the "
                       "noisy digit (steps: mean {mean}, max {max}, budget {budget} per "
                       "start)."),
    (True, False): N_("Fixed point at m = {m}: {first} of {count} digits converged from the "
                      "noisy digit (steps: mean {mean}, max {max}, budget {budget} per "
                      "start); {restarted} restarted from the nearest training digit, {after} "
                      "of them converged."),
    (False, True): N_("Fixed point at m = {m}: {first} of {count} digits converged from the "
                      "noisy digit (steps: mean {mean}, max {max}, budget {budget} per "
                      "start); **{failed} failed** and keep their last position (raise the "
                      "step budget under Pre-image settings)."),
    (True, True): N_("Fixed point at m = {m}: {first} of {count} digits converged from the "
                     "noisy digit (steps: mean {mean}, max {max}, budget {budget} per start); "
                     "{restarted} restarted from the nearest training digit, {after} of them "
                     "converged; **{failed} failed** and keep their last position (raise the "
                     "step budget under Pre-image settings)."),
}


def best_m_text(curve: dn.MethodCurve) -> str:
    """'m = 64', or, at the end of the grid, that the error still falls where m runs out."""
    m = curve.best[0]
    if m != curve.m_values[-1] or len(curve.m_values) < 2:
        return f"m = {format_number(m, ',')}"
    drop = 1 - curve.errors[-1] / curve.errors[-2]
    return _("m = {m}, all the components: still {drop} % lower than at m = {before}").format(
        m=format_number(m, ","), drop=format_number(100 * drop, ".1f"),
        before=format_number(curve.m_values[-2], ","))


def comparison_text(curves: dict[str, dn.MethodCurve], method: str, noise: str) -> str:
    """Best m and MSE of each method over every m up to n − 1, and PCA / KPCA for the chosen
    one, next to the paper's (from the numbers)."""
    pca_err = curves["pca"].best[1]
    k_err = curves[method].best[1]
    ratio = pca_err / k_err
    verdict = ("kernel" if ratio > 1.005 else "linear" if ratio < 0.995 else "equal")
    return _(_COMPARISON[verdict]).format(
        pca=format_number(pca_err, ".4f"), pca_m=best_m_text(curves["pca"]),
        method=_(dn.METHOD_TITLES[method]), kpca=format_number(k_err, ".4f"),
        kpca_m=best_m_text(curves[method]), ratio=format_number(ratio, ".2f"),
        inverse=format_number(1 / ratio, ".2f"), paper_ratio=dn.PAPER_RATIO[noise],
        paper_m=dn.PAPER_BEST_M[noise])


# Which of the two de-noises better at its best m, one whole sentence each.
_COMPARISON = {
    "kernel": N_("At their best m, linear PCA reaches MSE {pca} ({pca_m}) and {method} {kpca} "
                 "({kpca_m}): here kernel PCA de-noises **{ratio}× better** than linear PCA "
                 "(Mika et al., 3,000 training digits, γ = 1/128: about {paper_ratio}× with "
                 "the fixed point, best m = {paper_m})."),
    "linear": N_("At their best m, linear PCA reaches MSE {pca} ({pca_m}) and {method} {kpca} "
                 "({kpca_m}): here linear PCA de-noises **{inverse}× better** than kernel PCA "
                 "(Mika et al., 3,000 training digits, γ = 1/128: about {paper_ratio}× with "
                 "the fixed point, best m = {paper_m})."),
    "equal": N_("At their best m, linear PCA reaches MSE {pca} ({pca_m}) and {method} {kpca} "
                "({kpca_m}): here the two de-noise equally well (Mika et al., 3,000 training "
                "digits, γ = 1/128: about {paper_ratio}× with the fixed point, best m = "
                "{paper_m})."),
}
