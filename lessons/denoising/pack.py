"""De-noising for the offline lecture: the page's "Original, noisy, PCA and kernel PCA" digit
grid with its fixed-point caption (section 3) and its MSE sentence (section 4), at the
page's own default settings (Mika et al.'s γ = 1/128, Gaussian σ = 0.5, the fixed point at
m = 128), which is where the step's question on pre-images is answered.

No slider: the page does not read the sidebar's γ (it has its own controls), and each of
its settings costs a kernel PCA of the training digits and a pre-image at every m.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from lessons.common.pack import PackFrame, Slider
from lessons.denoising import experiment as dn
from lessons.denoising.sections import (
    DenoisingSettings,
    comparison_text,
    digit_grid_figure,
    noisy_digits,
    testing_digits,
    training_digits,
)
from shell.state import Settings
from words.i18n import _, format_number

# The curves the two shown need: linear PCA and the page's default pre-image method.
PAGE = DenoisingSettings()


def slider(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Slider:
    return Slider(None, (), _("No slider: this page has its own settings, not the sidebar's "
                              "γ (here its defaults: {n} training digits, γ = 1/128 as in Mika "
                              "et al., Gaussian noise σ = {sigma}, m = {m}); each setting costs "
                              "a kernel PCA of the training digits.").format(
        n=format_number(PAGE.n_train, ","), sigma=format_number(PAGE.level, "g"),
        m=format_number(PAGE.m)))


def curves_at(page: DenoisingSettings) -> tuple[np.ndarray, np.ndarray, np.ndarray,
                                                 dict[str, dn.MethodCurve]]:
    """The page's test digits (clean, noisy, labels) and the curves of linear PCA and of
    its chosen pre-image method, by the code its caches run."""
    X_clean, y = testing_digits(*page.test_key)
    X_noisy = noisy_digits(X_clean, page.test_key, page.noise_key)
    X_train = training_digits(page.n_train, page.seed)
    if page.fit_on_noisy:
        X_train = dn.add_noise(X_train, *page.noise_key, seed=page.seed + 1)
    fit = dn.fit_denoisers(X_train, page.gamma, page.max_components)
    m_values = dn.m_grid(fit.max_components)
    curves = {method: dn.method_curve(fit, method, X_clean, X_noisy, m_values, page.params)
              for method in ("pca", page.method)}
    return X_clean, X_noisy, y, curves


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    X_clean, X_noisy, labels, curves = curves_at(PAGE)
    figure, caption = digit_grid_figure(X_clean, X_noisy, labels, curves, PAGE.m, PAGE.method)
    sentence = comparison_text(curves, PAGE.method, PAGE.noise)
    i = curves["pca"].m_values.index(PAGE.m)
    numbers = {
        "m": PAGE.m, "m_values": list(curves["pca"].m_values),
        "noisy_mse": dn.mse(X_noisy, X_clean),
        "pca_mse": [float(e) for e in curves["pca"].errors],
        "kpca_mse": [float(e) for e in curves[PAGE.method].errors],
        "pca_at_m": float(curves["pca"].errors[i]),
        "kpca_at_m": float(curves[PAGE.method].errors[i]),
    }
    sentences = tuple(s for s in (caption, sentence) if s)
    return [PackFrame((("digits", figure),), sentences, numbers) for _ in at]
