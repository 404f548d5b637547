"""Two-dimensional (and two 3-D) toy data sets, generated deterministically from a seed.

Each ``load_*`` function is pure: the same options give the same arrays. The
``*_INFO`` constants beside them are what :func:`datasets.available` lists.
"""

from __future__ import annotations

import numpy as np
from sklearn.datasets import make_circles, make_moons, make_s_curve, make_swiss_roll

from ._types import Dataset, DatasetInfo, Option, described, said

SKLEARN_CITATION = (
    "Generated with scikit-learn: Pedregosa, F. et al. (2011). Scikit-learn: Machine "
    "Learning in Python. Journal of Machine Learning Research 12, 2825-2830."
)
SCHOLKOPF_1998 = (
    "Schölkopf, B., Smola, A. & Müller, K.-R. (1998). Nonlinear component analysis as a "
    "kernel eigenvalue problem. Neural Computation 10(5), 1299-1319."
)

# A small range: the app shows int options as sliders.
SEED = Option(
    "seed", 0, "int", 0, 999, help="Random seed: the same seed always gives the same data."
)
XY = ("x1", "x2")


def _n_option(default: int, low: int = 20, high: int = 5000) -> Option:
    return Option("n", default, "int", low, high, help="Number of points.")


def _noise_option(default: float, high: float = 0.5) -> Option:
    return Option(
        "noise", default, "float", 0.0, high, help="Standard deviation of the Gaussian noise."
    )


CIRCLES_INFO = DatasetInfo(
    name="circles",
    title="Two circles",
    summary="Two concentric circles: no straight line separates them, an RBF kernel does.",
    options=(
        _n_option(400),
        _noise_option(0.05),
        Option("factor", 0.3, "float", 0.1, 0.9, help="Radius of the inner circle (outer is 1)."),
        SEED,
    ),
    suggested_kernel={"kernel": "rbf", "gamma": 5.0},
)


def load_circles(n: int, noise: float, factor: float, seed: int) -> Dataset:
    """Two concentric circles in the plane (``make_circles``).

    Parameters
    ----------
    n : int
        Total number of points, split evenly between the circles.
    noise : float
        Standard deviation of Gaussian noise added to each coordinate.
    factor : float
        Radius of the inner circle relative to the outer one (radius 1).
    seed : int
        Random seed.
    """
    X, y = make_circles(n_samples=n, noise=noise, factor=factor, random_state=seed)
    return Dataset(
        name="circles",
        X=X,
        y=y,
        target_names=CLASS_NAMES["circles"],
        feature_names=XY,
        **described(said(
            "{n} points on two concentric circles (inner radius {factor:g}, noise {noise:g}). "
            "Linear PCA can only rotate the plane, so the circles stay nested in every "
            "projection. With an RBF kernel (γ around 5) the first kernel principal "
            "component measures roughly the distance from the centre, and the two circles "
            "fall apart along it: look at component 1 on its own.",
            n=n, factor=factor, noise=noise,
        )),
        citation=SKLEARN_CITATION,
    )


MOONS_INFO = DatasetInfo(
    name="moons",
    title="Two moons",
    summary="Two interleaving half circles: an RBF kernel helps, but only partly.",
    options=(_n_option(400), _noise_option(0.1), SEED),
    suggested_kernel={"kernel": "rbf", "gamma": 15.0},
)


def load_moons(n: int, noise: float, seed: int) -> Dataset:
    """Two interleaving half circles (``make_moons``).

    Parameters
    ----------
    n : int
        Total number of points, split evenly between the moons.
    noise : float
        Standard deviation of Gaussian noise added to each coordinate.
    seed : int
        Random seed.
    """
    X, y = make_moons(n_samples=n, noise=noise, random_state=seed)
    return Dataset(
        name="moons",
        X=X,
        y=y,
        target_names=CLASS_NAMES["moons"],
        feature_names=XY,
        **described(said(
            "{n} points on two interleaving half circles (noise {noise:g}). No straight "
            "line separates them, so linear PCA mixes the moons in every projection. An RBF "
            "kernel with a large γ (around 15) bends the space so that the leading kernel "
            "components pull the moons apart; with a small γ it behaves like linear PCA, and "
            "with a very large γ every point becomes its own cluster. Vary γ and watch.",
            n=n, noise=noise,
        )),
        citation=SKLEARN_CITATION,
    )


SWISS_ROLL_SEGMENTS = 6

SWISS_ROLL_INFO = DatasetInfo(
    name="swiss_roll",
    title="Swiss roll (3-D)",
    summary="A rolled-up sheet in 3-D: a case where an RBF kernel does not unroll the data.",
    options=(_n_option(600), _noise_option(0.0, high=2.0), SEED),
    suggested_kernel={"kernel": "rbf", "gamma": 0.005},
)


def load_swiss_roll(n: int, noise: float, seed: int) -> Dataset:
    """A 2-D sheet rolled up in 3-D (``make_swiss_roll``), labelled by position on the roll.

    The roll's continuous coordinate ``t`` is cut into equal-width segments,
    numbered from the centre outwards, so that colours show whether an
    embedding keeps the order along the sheet.

    Parameters
    ----------
    n : int
        Number of points.
    noise : float
        Standard deviation of Gaussian noise added to each coordinate.
    seed : int
        Random seed.
    """
    X, t = make_swiss_roll(n_samples=n, noise=noise, random_state=seed)
    # make_swiss_roll draws t uniformly on [1.5π, 4.5π].
    position = (t - 1.5 * np.pi) / (3 * np.pi)
    y = np.minimum((position * SWISS_ROLL_SEGMENTS).astype(int), SWISS_ROLL_SEGMENTS - 1)
    # On the sheet: the distance along the spiral, and the height (x₂, noise included).
    unrolled = np.column_stack([_spiral_length(t) - _spiral_length(1.5 * np.pi), X[:, 1]])
    return Dataset(
        name="swiss_roll",
        X=X,
        y=y,
        target_names=CLASS_NAMES["swiss_roll"],
        feature_names=("x1", "x2", "x3"),
        **described(said(
            "{n} points on a flat sheet rolled up into a spiral in three dimensions, "
            "coloured by {segments} segments along the sheet (1 at the centre). "
            "Unrolling it would line the colours up in order. Kernel PCA with an RBF kernel "
            "does not do that: it only sees distances through the air between the layers, "
            "not along the sheet, so neighbouring layers stay mixed for every γ. This is "
            "the classic example where methods that follow the manifold (Isomap, LLE) win.",
            n=n, segments=SWISS_ROLL_SEGMENTS,
        )),
        citation=(
            "Tenenbaum, J. B., de Silva, V. & Langford, J. C. (2000). A global geometric "
            "framework for nonlinear dimensionality reduction. Science 290, 2319-2323. "
            + SKLEARN_CITATION
        ),
        unrolled=unrolled,
    )


def _spiral_length(t: np.ndarray | float) -> np.ndarray | float:
    """Arc length of the spiral (t cos t, t sin t) from its centre to t:
    ∫₀ᵗ √(1 + u²) du = (t √(1 + t²) + asinh t) / 2."""
    return (t * np.sqrt(1 + t**2) + np.arcsinh(t)) / 2


S_CURVE_SEGMENTS = 6

S_CURVE_INFO = DatasetInfo(
    name="s_curve",
    title="S-curve (3-D)",
    summary="A sheet bent into an S in 3-D: Isomap flattens it, kernel PCA does not.",
    options=(_n_option(600), _noise_option(0.0, high=0.5), SEED),
    suggested_kernel={"kernel": "rbf", "gamma": 0.2},
)


def load_s_curve(n: int, noise: float, seed: int) -> Dataset:
    """A 2-D sheet bent into the letter S in 3-D (``make_s_curve``), labelled by position.

    The S is three half circles of radius 1 joined end to end, ``(sin t, sign(t)(cos t −
    1))`` for t in [−1.5π, 1.5π], a curve of unit speed: the distance along the sheet is
    t + 1.5π. It is cut into equal-width segments, numbered from one end, as for the swiss
    roll.

    Parameters
    ----------
    n : int
        Number of points.
    noise : float
        Standard deviation of Gaussian noise added to each coordinate.
    seed : int
        Random seed.
    """
    X, t = make_s_curve(n_samples=n, noise=noise, random_state=seed)
    position = (t + 1.5 * np.pi) / (3 * np.pi)
    y = np.minimum((position * S_CURVE_SEGMENTS).astype(int), S_CURVE_SEGMENTS - 1)
    # On the sheet: the distance along the S, and the height (x₂, noise included).
    unrolled = np.column_stack([t + 1.5 * np.pi, X[:, 1]])
    return Dataset(
        name="s_curve",
        X=X,
        y=y,
        target_names=CLASS_NAMES["s_curve"],
        feature_names=("x1", "x2", "x3"),
        **described(said(
            "{n} points on a flat sheet 2 units high bent into an S (three half circles of "
            "radius 1) in three dimensions, coloured by {segments} segments along "
            "the sheet. Where the S turns, points of segments far apart along the sheet lie "
            "close together through the air: a kernel on straight-line distances mixes "
            "them, while Isomap, which measures distances along a neighbour graph, lays the "
            "segments out in order.",
            n=n, segments=S_CURVE_SEGMENTS,
        )),
        citation=SKLEARN_CITATION,
        unrolled=unrolled,
    )


SCHOLKOPF_CENTRES = np.array([[-0.5, -0.2], [0.0, 0.6], [0.5, 0.0]])
SCHOLKOPF_SIGMA = 0.1

SCHOLKOPF_TOY_INFO = DatasetInfo(
    name="scholkopf_toy",
    title="Three clusters (Schölkopf et al. 1998, Fig. 4)",
    summary="The paper's toy: three Gaussian clusters, RBF kernel with γ = 10.",
    options=(
        Option("n", 90, "int", 3, 3000, help="Total number of points (the paper uses 3 × 30)."),
        SEED,
    ),
    suggested_kernel={"kernel": "rbf", "gamma": 10.0},
)


def load_scholkopf_toy(n: int, seed: int) -> Dataset:
    """The toy of Schölkopf, Smola & Müller (1998), Fig. 4.

    Three Gaussian clusters with standard deviation 0.1 centred at
    (-0.5, -0.2), (0, 0.6) and (0.5, 0); the paper draws 30 points from each
    and uses the kernel ``exp(-||x - y||² / 0.1)``, i.e. RBF with γ = 10.

    Parameters
    ----------
    n : int
        Total number of points, split as evenly as possible between the clusters.
    seed : int
        Random seed.
    """
    rng = np.random.default_rng(seed)
    k = len(SCHOLKOPF_CENTRES)
    sizes = [n // k + (i < n % k) for i in range(k)]
    y = np.repeat(np.arange(k), sizes)
    X = SCHOLKOPF_CENTRES[y] + rng.normal(0.0, SCHOLKOPF_SIGMA, size=(n, 2))
    return Dataset(
        name="scholkopf_toy",
        X=X,
        y=y,
        target_names=CLASS_NAMES["scholkopf_toy"],
        feature_names=XY,
        **described(said(
            "{n} points in three round Gaussian clusters (σ = 0.1) centred at (-0.5, -0.2), "
            "(0, 0.6) and (0.5, 0), as in Fig. 4 of Schölkopf, Smola & Müller (1998), which "
            "shows them on [-1, 1] × [-0.5, 1]. With the RBF kernel exp(-‖x-y‖²/0.1) (γ = 10) "
            "the first two kernel components separate the three clusters. The paper also "
            "draws contour lines of the later components over the plane; this page shows the "
            "points' coordinates instead: choose other components for the axes to look at "
            "them.",
            n=n,
        )),
        citation=SCHOLKOPF_1998,
    )


PARABOLA_INFO = DatasetInfo(
    name="parabola",
    title="Noisy parabola (Schölkopf et al. 1998, Fig. 3)",
    summary="Points along y = x², for polynomial kernels of degree 1 to 4.",
    options=(_n_option(100, low=10), _noise_option(0.2, high=1.0), SEED),
    suggested_kernel={"kernel": "poly", "degree": 2, "gamma": 1.0, "coef0": 0.0},
)


def load_parabola(n: int, noise: float, seed: int) -> Dataset:
    """The toy of Schölkopf, Smola & Müller (1998), Fig. 3.

    ``x`` is uniform on [-1, 1] and ``y = x² + ε`` with ``ε ~ N(0, noise²)``
    (the paper uses noise 0.2). There are no classes.

    Parameters
    ----------
    n : int
        Number of points.
    noise : float
        Standard deviation of the noise on ``y``.
    seed : int
        Random seed.
    """
    rng = np.random.default_rng(seed)
    x = rng.uniform(-1.0, 1.0, size=n)
    X = np.column_stack([x, x**2 + rng.normal(0.0, noise, size=n)])
    return Dataset(
        name="parabola",
        X=X,
        y=None,
        target_names=(),
        feature_names=("x", "y"),
        **described(said(
            "{n} points with x drawn uniformly from [-1, 1] and y = x² plus Gaussian noise "
            "(standard deviation {noise:g}), as in Fig. 3 of Schölkopf, Smola & Müller "
            "(1998). There are no classes. Use the polynomial kernel (x·y)^d with degree d "
            "from 1 to 4: degree 1 is linear PCA, a rotation of the plane; from degree 2 on, "
            "the first kernel component is a curved function of the inputs (the paper draws "
            "its contour lines following the parabola; this page shows the points' "
            "coordinates).",
            n=n, noise=noise,
        )),
        citation=SCHOLKOPF_1998,
    )


FOUR_CLASSES_RADII = (0.25, 0.5, 0.75, 1.0)

FOUR_CLASSES_INFO = DatasetInfo(
    name="four_classes",
    title="Four rings",
    summary="Four nested rings: linear PCA mixes them, kernel PCA sorts them by radius.",
    options=(_n_option(400, low=8), _noise_option(0.03, high=0.2), SEED),
    suggested_kernel={"kernel": "rbf", "gamma": 2.0},
)


def load_four_classes(n: int, noise: float, seed: int) -> Dataset:
    """Four concentric rings of radii 0.25, 0.5, 0.75 and 1, one class each.

    Parameters
    ----------
    n : int
        Total number of points, split as evenly as possible between the rings.
    noise : float
        Standard deviation of the Gaussian noise on each point's radius.
    seed : int
        Random seed.
    """
    rng = np.random.default_rng(seed)
    k = len(FOUR_CLASSES_RADII)
    y = np.sort(np.arange(n) % k)
    angle = rng.uniform(0.0, 2 * np.pi, size=n)
    radius = np.asarray(FOUR_CLASSES_RADII)[y] + rng.normal(0.0, noise, size=n)
    X = np.column_stack([radius * np.cos(angle), radius * np.sin(angle)])
    return Dataset(
        name="four_classes",
        X=X,
        y=y,
        target_names=CLASS_NAMES["four_classes"],
        feature_names=XY,
        **described(said(
            "{n} points on four nested rings (radii 0.25, 0.5, 0.75, 1; noise {noise:g}), "
            "one class per ring. Every straight-line projection, and so every linear "
            "principal component, lays the rings on top of each other. With an RBF kernel "
            "(γ around 2) one of the first three kernel components orders the points by "
            "radius, and the four classes line up side by side: find which component does it.",
            n=n, noise=noise,
        )),
        citation="Made for KPCA Lab.",
    )


# The class names these data sets get from the app itself (not from the data: iris's
# species and the digits are the data's own). In English here, as every CSV export and the
# "Reproduce in Python" script write them; a figure shows them in the session's language
# (``shell.figures.class_name``; ``scripts/i18n.py`` extracts them).
CLASS_NAMES: dict[str, tuple[str, ...]] = {
    "circles": ("outer circle", "inner circle"),
    "moons": ("upper moon", "lower moon"),
    "swiss_roll": tuple(f"segment {k + 1}" for k in range(SWISS_ROLL_SEGMENTS)),
    "s_curve": tuple(f"segment {k + 1}" for k in range(S_CURVE_SEGMENTS)),
    "scholkopf_toy": ("cluster 1", "cluster 2", "cluster 3"),
    "four_classes": tuple(f"ring r={r:g}" for r in FOUR_CLASSES_RADII),
}
