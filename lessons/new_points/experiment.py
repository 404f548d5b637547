"""Projecting points kernel PCA was not fitted on.

A new point x lands at yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x) (Schölkopf, Smola & Müller 1998: the
projection onto the k-th axis), where k̃ is the kernel centred with the *training* statistics
(``kpca_core.center_test_kernel``): the origin of feature space is the training mean,
and a new point must be measured from the same origin. This module fits on a training
part, projects a held-out part, and takes one point's coordinate apart into its terms
αᵢᵏ k̃(xᵢ, x), one per training point.
"""

from __future__ import annotations

import warnings
from dataclasses import dataclass

import numpy as np
from sklearn.decomposition import PCA
from sklearn.model_selection import train_test_split

from experiments.kernel_diagnostics import signed
from kpca_core import (
    IndefiniteKernelWarning,
    KernelCentering,
    KernelPCA,
    compute_kernel,
    scale_eigenvectors,
)
from words.i18n import N_, _, format_number, join_sentences


def split_indices(
    n: int, y: np.ndarray | None, *, heldout_fraction: float, seed: int = 0
) -> tuple[np.ndarray, np.ndarray]:
    """(training rows, held-out rows), stratified by class when every class can be split.
    The page holds out ``shell.registry.NEW_POINTS_HELD_OUT`` (stated there, where the memory
    guard reads its training side)."""
    rows = np.arange(n)
    stratify = None
    if y is not None:
        _, counts = np.unique(y, return_counts=True)
        if counts.min() >= 2 and len(counts) <= heldout_fraction * n:
            stratify = y
    train, held = train_test_split(
        rows, test_size=heldout_fraction, random_state=seed, stratify=stratify
    )
    return np.sort(train), np.sort(held)


@dataclass(frozen=True)
class NewPointsFit:
    """Kernel PCA and linear PCA fitted on the training rows only.

    Attributes
    ----------
    model : kpca_core.KernelPCA
        Fitted on ``X_train`` (sigmoid: ``negative_eigenvalues="warn"``).
    pca : sklearn.decomposition.PCA
        Linear PCA fitted on ``X_train``.
    X_train : (n, d) float
    centering : KernelCentering
        The training kernel's column means and grand mean (needed for k̃(xᵢ, x)).
    alphas : (n, k) float
        αᵏ = vᵏ / sqrt(μₖ) (μ: eigenvalue of K̃); 0 for components with μ ≤ 0.
    train_projection : (n, k)
        ``model.fit_transform`` of the training rows.
    warning : str or None
        The indefinite-kernel warning, when the kernel raised one.
    """

    model: KernelPCA
    pca: PCA
    X_train: np.ndarray
    centering: KernelCentering
    alphas: np.ndarray
    train_projection: np.ndarray
    warning: str | None

    def kernel_row(self, x: np.ndarray) -> np.ndarray:
        """k(xᵢ, x) for every training point xᵢ (one row per point of x)."""
        m = self.model
        return compute_kernel(
            np.atleast_2d(x), self.X_train, kernel=m.kernel, gamma=m.gamma_, degree=m.degree,
            coef0=m.coef0,
        )

    def centered_kernel_row(self, x: np.ndarray) -> np.ndarray:
        """k̃(xᵢ, x) = k(xᵢ, x) − mean_j k(xⱼ, x) − colmean_i + grand mean (training stats)."""
        K = self.kernel_row(x)
        c = self.centering
        return K - K.mean(axis=1, keepdims=True) - c.column_means[None, :] + c.grand_mean

    def project_with_own_centering(self, X_new: np.ndarray) -> np.ndarray:
        """The classic mistake: centre the new points' kernel with *their own* means.

        Shown next to the right answer to make the point: the result depends on which
        other points were projected together, so it cannot be right.
        """
        K = self.kernel_row(X_new)
        wrong = K - K.mean(axis=0, keepdims=True) - K.mean(axis=1, keepdims=True) + K.mean()
        return wrong @ self.alphas


def fit_new_points(
    X_train: np.ndarray, *, kernel: str, kernel_params: dict, n_components: int
) -> NewPointsFit:
    """Fit kernel PCA (kpca_core.KernelPCA) and linear PCA on the training rows."""
    X_train = np.asarray(X_train, dtype=np.float64)
    n = X_train.shape[0]
    model = KernelPCA(
        min(n_components, n - 1), kernel=kernel, random_state=0,
        negative_eigenvalues="warn", **kernel_params,
    )
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always", IndefiniteKernelWarning)
        train_projection = model.fit_transform(X_train)
    messages = [str(w.message) for w in caught if issubclass(w.category, IndefiniteKernelWarning)]
    centering = KernelCentering.fit(
        compute_kernel(X_train, kernel=kernel, **kernel_params)
    )
    pca = PCA(n_components=min(n_components, *X_train.shape), svd_solver="full").fit(X_train)
    return NewPointsFit(
        model=model,
        pca=pca,
        X_train=X_train,
        centering=centering,
        alphas=scale_eigenvectors(model.eigenvectors_, model.eigenvalues_),
        train_projection=train_projection,
        warning=messages[0] if messages else None,
    )


@dataclass(frozen=True)
class Contributions:
    """One point's coordinates taken apart: yₖ(x) = Σᵢ αᵢᵏ k̃(xᵢ, x).

    Attributes
    ----------
    kernel : (n,) k(xᵢ, x)
    centered : (n,) k̃(xᵢ, x)
    terms : (n, k) αᵢᵏ k̃(xᵢ, x)
    coordinates : (k,) the sums Σᵢ terms
    transform : (k,) ``KernelPCA.transform(x)``, computed independently
    """

    kernel: np.ndarray
    centered: np.ndarray
    terms: np.ndarray
    coordinates: np.ndarray
    transform: np.ndarray

    @property
    def max_difference(self) -> float:
        return float(np.max(np.abs(self.coordinates - self.transform)))

    def top(self, component: int, count: int) -> np.ndarray:
        """Training rows with the largest |αᵢᵏ k̃(xᵢ, x)| for component k (0-based)."""
        order = np.argsort(-np.abs(self.terms[:, component]), kind="stable")
        return order[:count]


def contributions(fit: NewPointsFit, x: np.ndarray) -> Contributions:
    """The terms of x's coordinates, and ``KernelPCA.transform(x)`` to check their sum."""
    x = np.asarray(x, dtype=np.float64).reshape(1, -1)
    kernel = fit.kernel_row(x)[0]
    centered = fit.centered_kernel_row(x)[0]
    terms = fit.alphas * centered[:, None]
    return Contributions(
        kernel=kernel,
        centered=centered,
        terms=terms,
        coordinates=terms.sum(axis=0),
        transform=fit.model.transform(x)[0],
    )


def nearest_rows(Z: np.ndarray, z: np.ndarray, count: int) -> np.ndarray:
    """Rows of Z nearest to z (Euclidean), nearest first."""
    distances = np.sum((np.asarray(Z) - np.asarray(z)[None, :]) ** 2, axis=1)
    return np.argsort(distances, kind="stable")[:count]


@dataclass(frozen=True)
class TermsSummary:
    """Where one coordinate yₖ(x) comes from, in the numbers the page shows.

    Because Σᵢ αᵢ = 0, the centred terms add up to two parts (eq. 49 expanded):
    yₖ(x) = Σᵢ αᵢ k(xᵢ, x) − Σᵢ αᵢ · mean_j k(xᵢ, xⱼ): a *kernel part*, which depends on x
    through its kernel values with the training points, and a *centring part*, the same
    constant for every new point.

    Attributes
    ----------
    count : int
        How many of the largest terms ``top_share`` and ``near_share`` count.
    top_share : float
        Share of Σᵢ |αᵢ k̃(xᵢ, x)| carried by the ``count`` largest terms (the table).
    kernel_part, centring_part : float
        The two parts; they add up to yₖ(x).
    near_share : float
        Share of Σᵢ |αᵢ k(xᵢ, x)| (the kernel part's terms) from the ``count`` training
        points nearest x.
    nearest_kernel : float
        k(xᵢ, x) of the training point nearest x.
    """

    count: int
    top_share: float
    kernel_part: float
    centring_part: float
    near_share: float
    nearest_kernel: float

    @property
    def centring_share(self) -> float:
        """|centring part| / (|kernel part| + |centring part|)."""
        total = abs(self.kernel_part) + abs(self.centring_part)
        return abs(self.centring_part) / total if total > 0 else 0.0

    def sentence(self, component: int) -> str:
        """What the numbers say about yₖ(x), and only that (component is 1-based), in the
        run's language."""
        y = f"y{component}(x)"
        values = dict(
            count=format_number(self.count), top=format_number(100 * self.top_share, ".0f"),
            y=y, kernel_part=signed(self.kernel_part, ".4g"),
            centring=format_number(abs(self.centring_part), ".4g"),
            centring_share=format_number(100 * self.centring_share, ".0f"),
            near=format_number(100 * self.near_share, ".0f"),
            nearest=format_number(self.nearest_kernel, ".2g"))
        split = (_("The {count} largest terms carry {top} % of Σ|terms|. Split differently, "
                   "{y} = {kernel_part} (kernel part, Σᵢ αᵢ k(xᵢ, x)) + {centring} (centring "
                   "part, −Σᵢ αᵢ · mean of k(xᵢ, ·) over the training points: the same for every "
                   "new point); the centring part is {centring_share} % of the two together.")
                 if self.centring_part >= 0 else
                 _("The {count} largest terms carry {top} % of Σ|terms|. Split differently, "
                   "{y} = {kernel_part} (kernel part, Σᵢ αᵢ k(xᵢ, x)) − {centring} (centring "
                   "part, −Σᵢ αᵢ · mean of k(xᵢ, ·) over the training points: the same for every "
                   "new point); the centring part is {centring_share} % of the two together."))
        near = _(_NEAR[self.near_share >= 0.5, self.centring_share >= 0.5])
        return join_sentences([split.format(**values), near.format(**values)])


# Where the kernel part of yₖ(x) comes from: (mostly x's neighbourhood?, mostly the centring
# constant?) → the sentence ({y} is "y1(x)").
_NEAR = {
    (True, False): N_(
        "The {count} training points nearest x carry {near} % of the kernel part's |terms|, so "
        "the kernel part comes from x's neighbourhood."),
    (False, False): N_(
        "The {count} training points nearest x carry {near} % of the kernel part's |terms|, so "
        "the kernel part is spread over many training points, near and far."),
    (True, True): N_(
        "The {count} training points nearest x carry {near} % of the kernel part's |terms|, so "
        "the kernel part comes from x's neighbourhood; but most of {y} is the centring "
        "constant (the nearest training point has k = {nearest}), which only shifts every new "
        "point alike."),
    (False, True): N_(
        "The {count} training points nearest x carry {near} % of the kernel part's |terms|, so "
        "the kernel part is spread over many training points, near and far; but most of {y} "
        "is the centring constant (the nearest training point has k = {nearest}), which only "
        "shifts every new point alike."),
}


def summarise_terms(fit: NewPointsFit, parts: Contributions, x: np.ndarray, component: int,
                    count: int = 10) -> TermsSummary:
    """The :class:`TermsSummary` of component ``component`` (0-based) for the point x."""
    alphas = fit.alphas[:, component]
    terms = np.abs(parts.terms[:, component])
    top = parts.top(component, count)
    kernel_terms = alphas * parts.kernel
    kernel_part = float(kernel_terms.sum())
    distance = np.linalg.norm(fit.X_train - np.asarray(x, dtype=float)[None, :], axis=1)
    near = np.argsort(distance, kind="stable")[:count]
    magnitude = np.abs(kernel_terms)
    return TermsSummary(
        count=len(top),
        top_share=float(terms[top].sum() / terms.sum()) if terms.sum() > 0 else 0.0,
        kernel_part=kernel_part,
        centring_part=float(parts.coordinates[component]) - kernel_part,
        near_share=float(magnitude[near].sum() / magnitude.sum()) if magnitude.sum() > 0
        else 0.0,
        nearest_kernel=float(parts.kernel[near[0]]),
    )
