"""Points drawn by hand (the Draw page): checked, snapped to a grid and packed for a link.

Whatever comes back from the browser's editor, or from a link, is untrusted input. Every
point set passes through :func:`snap`, which refuses anything that is not a small list of
finite coordinates with a class, clips the coordinates to the plane and rounds them to a
grid of ``GRID`` steps per axis. A snapped set then travels exactly: :func:`encode` packs
each point in 3 bytes (10 bits per coordinate, 2 for the class), 4 URL-safe base64
characters, and :func:`decode` reads them back bit for bit, so a link reproduces the very
numbers on screen. At most ``MAX_POINTS`` points: a link of at most ~1.2 kB.

Examples
--------
>>> X, y = snap([[0.0, 0.5, 0], [1.0, -1.0, 1]])
>>> code = encode(X, y)
>>> code
'1f-qQ1Qqk'
>>> X2, y2 = decode(code)
>>> bool((X2 == X).all() and (y2 == y).all())
True
"""

from __future__ import annotations

import base64
import binascii
import functools
import math
import numbers
import re
from collections.abc import Sequence

import numpy as np

from ._types import Dataset, Sentence, described, said
from .synthetic import load_circles, load_moons

# Both axes run over [-LIMIT, LIMIT]: the built-in circles (radius 1) fit as they are.
LIMIT = 1.5
# Grid points per axis: an odd count, so 0 is on the grid; indices fit 10 bits.
GRID = 1023
MAX_POINTS = 300
CLASS_NAMES = ("class A", "class B", "class C")
VERSION = "1"  # the first character of every code: the packing may change one day
CHARS_PER_POINT = 4
MAX_CODE_CHARS = len(VERSION) + CHARS_PER_POINT * MAX_POINTS
_BASE64URL = re.compile(r"[A-Za-z0-9_-]*")
PRESETS = ("circles", "moons", "spiral")
# The RBF γ at which each shape's first two kernel principal components come apart best
# (a linear classifier, cross-validated: circles 100 %, moons 99 %; no γ unrolls the
# spiral onto two components, 63 % at best, which is a lesson of its own).
PRESET_GAMMA = {"circles": 5.0, "moons": 30.0, "spiral": 50.0}
PRESET_POINTS = 120
DEFAULT_PRESET = "circles"


class DrawnError(ValueError):
    """Drawn points that cannot be used; the message says what was wrong (plain text)."""


def _step() -> float:
    return 2 * LIMIT / (GRID - 1)


def _to_grid(values: np.ndarray) -> np.ndarray:
    return np.clip(np.rint((values + LIMIT) / _step()), 0, GRID - 1).astype(np.int64)


def _from_grid(index: np.ndarray) -> np.ndarray:
    return index * _step() - LIMIT


def snap(points: object) -> tuple[np.ndarray, np.ndarray]:
    """Check untrusted points ``[[x, y, class], ...]``; return them on the grid.

    Returns (X, y): X of shape (n, 2), clipped to the plane and rounded to the grid; y the
    classes (0, 1 or 2). Raises :class:`DrawnError` for anything else: not a list, more
    than ``MAX_POINTS`` points, an entry that is not three numbers, a coordinate that is
    not finite, a class that is not a whole number from 0 to ``len(CLASS_NAMES) - 1``.
    """
    if not isinstance(points, list | tuple):
        raise DrawnError("the points must be a list of [x, y, class].")
    if len(points) > MAX_POINTS:
        raise DrawnError(f"{len(points):,} points; at most {MAX_POINTS} can be drawn.")
    xy = np.empty((len(points), 2))
    y = np.empty(len(points), dtype=np.int64)
    for i, point in enumerate(points):
        if not isinstance(point, list | tuple) or len(point) != 3:
            raise DrawnError(f"point {i + 1} is not [x, y, class].")
        *coords, label = point
        for value in coords:
            # bool is a number to Python, never a coordinate; huge ints overflow float().
            if isinstance(value, bool) or not isinstance(value, numbers.Real):
                raise DrawnError(f"point {i + 1} has a coordinate that is not a number.")
            if isinstance(value, numbers.Integral) and abs(value) > 10**9:
                raise DrawnError(f"point {i + 1} has a coordinate far outside the plane.")
            if not math.isfinite(value):
                raise DrawnError(f"point {i + 1} has a coordinate that is not finite.")
        if (isinstance(label, bool) or not isinstance(label, numbers.Integral)
                or not 0 <= label < len(CLASS_NAMES)):
            raise DrawnError(f"point {i + 1} has a class that is not 0 to "
                             f"{len(CLASS_NAMES) - 1}.")
        xy[i] = coords
        y[i] = label
    return _from_grid(_to_grid(xy)), y


def encode(X: np.ndarray, y: np.ndarray) -> str:
    """The link form of snapped points: ``VERSION`` then 4 URL-safe characters a point."""
    grid = _to_grid(np.asarray(X, dtype=float).reshape(-1, 2))
    labels = np.asarray(y, dtype=np.int64)
    packed = (grid[:, 0] << 14) | (grid[:, 1] << 4) | (labels << 2)  # 24 bits, 2 spare
    raw = np.stack([(packed >> 16) & 0xFF, (packed >> 8) & 0xFF, packed & 0xFF], axis=1)
    return VERSION + base64.urlsafe_b64encode(raw.astype(np.uint8).tobytes()).decode("ascii")


def decode(code: object) -> tuple[np.ndarray, np.ndarray]:
    """Points from their link form (:func:`encode`); :class:`DrawnError` says what is wrong.

    Checked before anything is decoded: the length (at most ``MAX_CODE_CHARS``), the
    version, the alphabet; then each point's class and its spare bits.
    """
    text = str(code).strip()
    if len(text) > MAX_CODE_CHARS:
        raise DrawnError(f"the points code has {len(text):,} characters; at most "
                         f"{MAX_CODE_CHARS:,} ({MAX_POINTS} points) are allowed.")
    if not text.startswith(VERSION):
        raise DrawnError(f"the points code must start with '{VERSION}'.")
    body = text[len(VERSION):]
    if not _BASE64URL.fullmatch(body) or len(body) % CHARS_PER_POINT:
        raise DrawnError("the points code is damaged (only letters, digits, - and _ in "
                         f"groups of {CHARS_PER_POINT}, one group per point).")
    try:
        raw = np.frombuffer(base64.urlsafe_b64decode(body), dtype=np.uint8)
    except (binascii.Error, ValueError) as error:  # unreachable after the checks above
        raise DrawnError("the points code is damaged.") from error
    raw = raw.reshape(-1, 3).astype(np.int64)
    packed = (raw[:, 0] << 16) | (raw[:, 1] << 8) | raw[:, 2]
    labels = (packed >> 2) & 0b11
    if np.any(packed & 0b11) or np.any(labels >= len(CLASS_NAMES)):
        raise DrawnError("the points code is damaged (a point with an unknown class).")
    grid = np.stack([(packed >> 14) & 0x3FF, (packed >> 4) & 0x3FF], axis=1)
    if np.any(grid >= GRID):
        raise DrawnError("the points code is damaged (a point outside the plane).")
    return _from_grid(grid), labels


def as_browser_points(X: np.ndarray, y: np.ndarray) -> list[list[float | int]]:
    """[[x, y, class], ...] for the editor, rounded to what the grid holds."""
    return [[round(float(a), 6), round(float(b), 6), int(c)]
            for (a, b), c in zip(np.asarray(X), np.asarray(y), strict=True)]


def drawn_dataset(X: np.ndarray, y: np.ndarray) -> Dataset:
    """Snapped points as a :class:`Dataset` (read-only arrays, the three class names)."""
    a, b, c = (int(count) for count in
               np.bincount(np.asarray(y, dtype=np.int64), minlength=len(CLASS_NAMES)))
    sentences = [said("{n} points drawn by hand on the Draw page, in the square "
                      "[-{limit}, {limit}]².", n=len(X), limit=LIMIT)]
    if len(X):
        sentences.append(said("Class A has {a}, class B {b} and class C {c}.", a=a, b=b, c=c))
    return Dataset(
        name="drawn",
        X=np.array(X, dtype=float).reshape(-1, 2),
        y=np.array(y, dtype=np.int64),
        target_names=CLASS_NAMES,
        feature_names=("x1", "x2"),
        **described(*sentences),
        citation="",
    )


def preset(name: str, n: int = PRESET_POINTS, seed: int = 0) -> tuple[np.ndarray, np.ndarray]:
    """A shape to start drawing from, snapped: two circles, two moons or a two-armed spiral."""
    if name == "circles":
        data = load_circles(n=n, noise=0.05, factor=0.3, seed=seed)
        X, y = data.X, data.y
    elif name == "moons":
        data = load_moons(n=n, noise=0.08, seed=seed)
        # Centred and shrunk a little: the moons span 3 × 1.5 with their noise.
        X, y = 0.85 * (data.X - np.array([0.5, 0.25])), data.y
    elif name == "spiral":
        X, y = _spiral(n, seed)
    else:
        raise DrawnError(f"unknown preset {name!r}; known: {', '.join(PRESETS)}.")
    return snap([[float(a), float(b), int(c)] for (a, b), c in zip(X, y, strict=True)])


def _spiral(n: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """Two interleaved arms of an Archimedean spiral, 1.5 turns, radius up to 1.35."""
    rng = np.random.default_rng(seed)
    half = n // 2
    t = np.linspace(0.15, 1.0, half)
    angle, radius = 3 * np.pi * t, 1.35 * t
    arms = []
    for arm in (0, 1):
        phase = angle + np.pi * arm
        arms.append(np.column_stack([radius * np.cos(phase), radius * np.sin(phase)]))
    X = np.concatenate(arms) + rng.normal(scale=0.03, size=(2 * half, 2))
    return X, np.repeat([0, 1], half)


@functools.cache
def preset_code(name: str) -> str:
    """The link code of a preset, as it is before any edit."""
    return encode(*preset(name))


def default_code() -> str:
    """The points a session starts from before anything is drawn: the circles preset."""
    return preset_code(DEFAULT_PRESET)


def preset_gamma(code: str) -> float | None:
    """The RBF γ of the preset these points are, untouched (``PRESET_GAMMA``), else None."""
    return next((PRESET_GAMMA[name] for name in PRESETS if preset_code(name) == code), None)


MIN_POINTS = 3  # as an upload's (datasets.csv_loader.MIN_ROWS)


def analysis_problem(X: np.ndarray) -> Sentence | None:
    """Why kernel PCA cannot be run on these drawn points, or None when it can: fewer than
    ``MIN_POINTS`` points, or all of them at one place (then K̃ = 0 and there is no
    component to find). The rule an upload meets (``datasets.csv_loader``). Said as a
    clause (:func:`said`: a page translates it), e.g. "2 points drawn: kernel PCA needs at
    least 3"."""
    n = len(X)
    if n == 1:
        return said("1 point drawn: kernel PCA needs at least {least}", least=MIN_POINTS)
    if n < MIN_POINTS:
        return said("{n} points drawn: kernel PCA needs at least {least}", n=n,
                    least=MIN_POINTS)
    if (np.asarray(X) == np.asarray(X)[0]).all():
        return said("all {n} points drawn are at the same place: kernel PCA needs at least "
                    "two different points", n=n)
    return None


def class_counts(y: Sequence[int]) -> np.ndarray:
    """Points per class, for each of the three classes."""
    return np.bincount(np.asarray(y, dtype=np.int64), minlength=len(CLASS_NAMES))
