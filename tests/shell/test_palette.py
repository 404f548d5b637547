"""The class palette, checked with a colour-vision-deficiency simulator, in both themes.

Simulation: Machado, Oliveira & Fernandes (2009), "A physiologically-based model for
simulation of color vision deficiency", severity 1.0 matrices for protanopia and
deuteranopia, applied in linear RGB; distances are CIELAB ΔE*76 (D65). Contrast is
WCAG 2's ratio against the light theme's white and the dark theme's #0E1117 background:
graphical objects need 3:1 (WCAG 2.1, 1.4.11).
"""

from __future__ import annotations

import itertools

import numpy as np
import pytest

from shell.figures import PALETTE, class_symbol

SIMULATIONS = {
    "normal vision": np.eye(3),
    "protanopia": np.array([[0.152286, 1.052583, -0.204868],
                            [0.114503, 0.786281, 0.099216],
                            [-0.003882, -0.048116, 1.051998]]),
    "deuteranopia": np.array([[0.367322, 0.860646, -0.227968],
                              [0.280085, 0.672501, 0.047413],
                              [-0.011820, 0.042940, 0.968881]]),
}
BACKGROUNDS = {"light theme": "#FFFFFF", "dark theme": "#0E1117"}


def _linear_rgb(hex_colour: str) -> np.ndarray:
    c = np.array([int(hex_colour[i : i + 2], 16) for i in (1, 3, 5)]) / 255
    return np.where(c <= 0.04045, c / 12.92, ((c + 0.055) / 1.055) ** 2.4)


def _lab(linear_rgb: np.ndarray) -> np.ndarray:
    to_xyz = np.array([[0.4124564, 0.3575761, 0.1804375],
                       [0.2126729, 0.7151522, 0.0721750],
                       [0.0193339, 0.1191920, 0.9503041]])
    t = to_xyz @ np.clip(linear_rgb, 0, 1) / np.array([0.95047, 1.0, 1.08883])
    f = np.where(t > (6 / 29) ** 3, np.cbrt(t), t / (3 * (6 / 29) ** 2) + 4 / 29)
    return np.array([116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])])


def _min_distance(colours, simulation) -> float:
    labs = [_lab(simulation @ _linear_rgb(c)) for c in colours]
    return min(np.linalg.norm(a - b) for a, b in itertools.combinations(labs, 2))


def _luminance(hex_colour: str) -> float:
    return float(np.array([0.2126, 0.7152, 0.0722]) @ _linear_rgb(hex_colour))


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_every_pair_of_the_ten_classes_stays_apart(vision):
    # USPS has ten classes: no two may merge (Tableau 10 had a pair at ΔE 0.9).
    assert _min_distance(PALETTE[:10], SIMULATIONS[vision]) > 15


@pytest.mark.parametrize("vision", list(SIMULATIONS))
def test_the_first_four_classes_are_far_apart(vision):
    # Most datasets have two to four classes: those colours must be unmistakable.
    assert _min_distance(PALETTE[:4], SIMULATIONS[vision]) > 35


@pytest.mark.parametrize("theme", list(BACKGROUNDS))
def test_every_colour_has_three_to_one_contrast(theme):
    background = _luminance(BACKGROUNDS[theme])
    for colour in PALETTE:
        ratio = (max(_luminance(colour), background) + 0.05) / (
            min(_luminance(colour), background) + 0.05)
        assert ratio >= 3.0, (colour, theme, ratio)


def test_classes_also_differ_in_marker_shape():
    symbols = [class_symbol(label) for label in range(10)]
    assert len(set(symbols)) == 10
