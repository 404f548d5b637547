r"""Explicit feature maps: the kernel trick written out, for the kernels where it can be.

Polynomial kernel. By the multinomial theorem,

    (γ xᵀy + c₀)^D = Σ_{|a| ≤ D} D! / (a! (D − |a|)!) · c₀^{D−|a|} γ^{|a|} x^a y^a,

where a runs over multi-indices (a₁, …, a_d), a! = a₁!⋯a_d! and x^a = x₁^a₁⋯x_d^a_d. So
the feature map with one coordinate per monomial,

    φ_a(x) = sqrt(D! / (a! (D − |a|)!) · c₀^{D−|a|} γ^{|a|}) · x^a,

gives φ(x)·φ(y) = k(x, y) exactly (real only for c₀ ≥ 0). For D = 2 and d = 2:
φ(x) = (c₀, √(2γc₀) x₁, √(2γc₀) x₂, γ x₁², √2 γ x₁x₂, γ x₂²).

RBF kernel. exp(−γ‖x − y‖²) = exp(−γ‖x‖²) exp(−γ‖y‖²) exp(2γ xᵀy), and the Taylor
series exp(t) = Σ_p t^p / p! with the multinomial theorem for (xᵀy)^p gives

    φ_a(x) = exp(−γ‖x‖²) · sqrt((2γ)^{|a|} / a!) · x^a,        |a| = 0, 1, 2, …

one coordinate for every monomial of every degree: infinitely many. Truncating at
order P keeps C(d + P, P) of them, and φ_{≤P}(x)·φ_{≤P}(y) is the Taylor polynomial of
the kernel, which converges to it as P grows (how fast depends on 2γ|xᵀy|).

Pure NumPy (no Streamlit): the kernel-trick page and the tests use the same code.
"""

from __future__ import annotations

import functools
import itertools
import math
from dataclasses import dataclass

import numpy as np
from scipy.special import gammaln

from experiments.roundoff import aligned_difference, group_end, kernel_rounding
from kpca_core import compute_kernel

# The kernel trick page's sizes (its view and its benchmark use them).
# φ(X) is n × m: keep it ≤ ~40 MB by using fewer points when m is large (USPS: m = 33,153).
EXPLICIT_MAX_CELLS = 5_000_000
EXPLICIT_MAX_N = 2000
# The RBF map's inner products are n² × (number of coordinates): a sample keeps it quick.
TAYLOR_MAX_N = 200
TAYLOR_MAX_FEATURES = 2500

__all__ = [
    "ExplicitPCA",
    "Plane",
    "TaylorConvergence",
    "explicit_pca",
    "monomial_exponents",
    "monomial_names",
    "n_monomials",
    "poly_feature_map",
    "quadratic_lift",
    "rbf_taylor_convergence",
    "rbf_taylor_feature_map",
    "rbf_taylor_kernel",
    "separating_plane",
    "sign_aligned_difference",
]


def n_monomials(n_features: int, order: int) -> int:
    """Number of monomials of degree exactly ``order`` in ``n_features`` variables: C(d+p−1, p)."""
    return math.comb(n_features + order - 1, order)


@functools.lru_cache(maxsize=256)
def monomial_exponents(n_features: int, order: int) -> np.ndarray:
    """All exponent vectors a with |a| = ``order``, in graded lexicographic order.

    Returns a read-only int array of shape (C(d + p − 1, p), d); row r is the multi-index
    of the r-th monomial (for d = 2, p = 2: x₁², x₁x₂, x₂²).
    """
    if order == 0:
        exponents = np.zeros((1, n_features), dtype=int)
        exponents.setflags(write=False)
        return exponents
    # Each monomial of degree p is a multiset of p variable indices i₁ ≤ … ≤ i_p.
    combos = np.array(
        list(itertools.combinations_with_replacement(range(n_features), order)), dtype=int
    ).reshape(-1, order)
    exponents = np.zeros((combos.shape[0], n_features), dtype=int)
    for column in combos.T:
        np.add.at(exponents, (np.arange(combos.shape[0]), column), 1)
    exponents.setflags(write=False)
    return exponents


def monomial_names(exponents: np.ndarray) -> list[str]:
    """Readable names of monomials ('1', 'x1', 'x1²', 'x1·x2', ...)."""
    superscripts = str.maketrans("0123456789", "⁰¹²³⁴⁵⁶⁷⁸⁹")
    names = []
    for row in exponents:
        parts = [
            f"x{i + 1}" + (str(a).translate(superscripts) if a > 1 else "")
            for i, a in enumerate(row)
            if a > 0
        ]
        names.append("·".join(parts) if parts else "1")
    return names


def _log_abs_monomials(X: np.ndarray, exponents: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """log|x^a| and sign(x^a) for every row of X and every exponent row (no overflow).

    Zero inputs have log|x| = −∞; a very negative finite stand-in keeps 0 · log|x| = 0
    (x⁰ = 1) while x^a with a > 0 still comes out as exactly 0 after exp.
    """
    with np.errstate(divide="ignore"):
        log_abs = np.log(np.abs(X))
    log_abs[~np.isfinite(log_abs)] = -1e300
    log_values = log_abs @ exponents.T.astype(np.float64)
    negative_count = (X < 0).astype(np.int64) @ exponents.T
    signs = np.where(negative_count % 2 == 1, -1.0, 1.0)
    return log_values, signs


def poly_feature_map(
    X: np.ndarray, *, degree: int = 2, gamma: float, coef0: float
) -> tuple[np.ndarray, np.ndarray]:
    r"""φ(X) for the polynomial kernel (γ xᵀy + c₀)^D, one column per monomial of degree ≤ D.

    φ_a(x) = sqrt(D! / (a! (D − |a|)!) · c₀^{D−|a|} γ^{|a|}) x^a (multinomial theorem), so
    φ(X) φ(Y)ᵀ equals ``compute_kernel(X, Y, kernel="poly", ...)`` to rounding error.

    Parameters
    ----------
    X : ndarray of shape (n, d)
    degree : int ≥ 1
    gamma : float > 0
    coef0 : float ≥ 0
        A negative c₀ would need imaginary weights on the odd-degree terms: the kernel
        then has no real feature map, and this function refuses it.

    Returns
    -------
    features : ndarray of shape (n, m), m = C(d + D, D)
    exponents : ndarray of shape (m, d)
        The monomial of each column (see :func:`monomial_names`).
    """
    if coef0 < 0:
        raise ValueError(
            f"c₀ = {coef0} < 0: the weights sqrt(c₀^(D−|a|)) of odd-order monomials would be "
            "imaginary, so no real feature map exists."
        )
    X = np.asarray(X, dtype=np.float64)
    n_features = X.shape[1]
    exponents = np.vstack([monomial_exponents(n_features, p) for p in range(degree + 1)])
    order = exponents.sum(axis=1)
    log_a_factorial = gammaln(exponents + 1.0).sum(axis=1)
    # weight² = D! / (a! (D − |a|)!) · c₀^{D−|a|} γ^{|a|}
    weight_sq = np.exp(
        gammaln(degree + 1.0) - log_a_factorial - gammaln(degree - order + 1.0)
    ) * gamma**order
    with np.errstate(invalid="ignore"):  # 0⁰ = 1 for the top-degree terms when c₀ = 0
        weight_sq = weight_sq * np.where(degree - order == 0, 1.0, coef0 ** (degree - order))
    log_values, signs = _log_abs_monomials(X, exponents)
    features = signs * np.exp(log_values) * np.sqrt(weight_sq)[None, :]
    return features, exponents


def rbf_taylor_feature_map(
    X: np.ndarray, *, gamma: float, order: int
) -> tuple[np.ndarray, np.ndarray]:
    r"""The RBF kernel's feature map truncated at monomial degree ``order``.

    φ_a(x) = exp(−γ‖x‖²) sqrt((2γ)^{|a|} / a!) x^a for every |a| ≤ P, computed in the log
    domain (large |a| and large inputs neither overflow nor underflow spuriously).

    Returns
    -------
    features : ndarray of shape (n, C(d + P, P))
    exponents : ndarray of shape (C(d + P, P), d)
    """
    X = np.asarray(X, dtype=np.float64)
    n_features = X.shape[1]
    exponents = np.vstack([monomial_exponents(n_features, p) for p in range(order + 1)])
    return _rbf_taylor_columns(X, exponents, gamma), exponents


def _rbf_taylor_columns(X: np.ndarray, exponents: np.ndarray, gamma: float) -> np.ndarray:
    degree = exponents.sum(axis=1)
    log_weight = 0.5 * (degree * math.log(2.0 * gamma) - gammaln(exponents + 1.0).sum(axis=1))
    log_values, signs = _log_abs_monomials(X, exponents)
    sq_norms = np.einsum("ij,ij->i", X, X)
    return signs * np.exp(log_values + log_weight[None, :] - gamma * sq_norms[:, None])


def rbf_taylor_kernel(X: np.ndarray, *, gamma: float, order: int) -> np.ndarray:
    r"""The closed form of φ_{≤P}(x)·φ_{≤P}(y): exp(−γ‖x‖² − γ‖y‖²) Σ_{p ≤ P} (2γ xᵀy)^p / p!.

    The same number as the explicit map's inner products, computed without the map: the
    page checks one against the other.
    """
    X = np.asarray(X, dtype=np.float64)
    t = 2.0 * gamma * (X @ X.T)
    total = np.zeros_like(t)
    term = np.ones_like(t)
    for p in range(order + 1):
        if p > 0:
            term *= t / p
        total += term
    sq = np.einsum("ij,ij->i", X, X)
    return total * np.exp(-gamma * (sq[:, None] + sq[None, :]))


@dataclass(frozen=True)
class TaylorConvergence:
    """How the truncated explicit RBF map approaches the kernel on some data.

    Attributes
    ----------
    orders : (P + 1,) int
        Truncation orders computed, 0 … P.
    n_features : (P + 1,) int
        Coordinates of φ_{≤p} for each order p: C(d + p, p).
    max_error : (P + 1,) float
        max over all pairs |φ_{≤p}(x)·φ_{≤p}(y) − exp(−γ‖x − y‖²)|.
    closed_form_gap : float
        max |φ_{≤P}·φ_{≤P} − (Taylor polynomial in closed form)|: checks the map itself.
    stopped_by_size : bool
        True when order P + 1 would exceed ``max_features`` coordinates.
    next_n_features : int
        Coordinates the next order would need (C(d + P + 1, P + 1)).
    """

    orders: np.ndarray
    n_features: np.ndarray
    max_error: np.ndarray
    closed_form_gap: float
    stopped_by_size: bool
    next_n_features: int


def rbf_taylor_convergence(
    X: np.ndarray,
    *,
    gamma: float,
    max_order: int = 80,
    max_features: int = 2500,
    tolerance: float = 1e-12,
) -> TaylorConvergence:
    """Error of the truncated explicit RBF map against the kernel, order by order.

    The map is built one degree at a time; the inner products of each new block of
    coordinates are added to the running Gram matrix, so every order costs
    O(n² · new coordinates). Stops at ``max_order``, when the next order would take the
    map past ``max_features`` coordinates (high-dimensional inputs: the count grows like
    d^p / p!), or once the error is below ``tolerance`` (a converged series adds
    nothing visible).
    """
    X = np.asarray(X, dtype=np.float64)
    n_features_in = X.shape[1]
    K_rbf = compute_kernel(X, kernel="rbf", gamma=gamma)
    gram = np.zeros_like(K_rbf)
    orders, counts, errors = [], [], []
    total = 0
    stopped_by_size = False
    for p in range(max_order + 1):
        block = n_monomials(n_features_in, p)
        if total + block > max_features and p > 0:
            stopped_by_size = True
            break
        Phi = _rbf_taylor_columns(X, monomial_exponents(n_features_in, p), gamma)
        gram += Phi @ Phi.T
        total += block
        orders.append(p)
        counts.append(total)
        errors.append(float(np.abs(gram - K_rbf).max()))
        if errors[-1] <= tolerance:
            break
    last = orders[-1]
    closed_gap = float(np.abs(gram - rbf_taylor_kernel(X, gamma=gamma, order=last)).max())
    return TaylorConvergence(
        orders=np.array(orders),
        n_features=np.array(counts),
        max_error=np.array(errors),
        closed_form_gap=closed_gap,
        stopped_by_size=stopped_by_size,
        next_n_features=total + n_monomials(n_features_in, last + 1),
    )


def sign_aligned_difference(A: np.ndarray, B: np.ndarray) -> float:
    """max over columns j of min over s = ±1 of max_i |A_ij − s B_ij|.

    Each principal component is defined up to its sign, so two correct computations
    can disagree by a flip; anything else is a real difference.
    """
    A = np.asarray(A, dtype=np.float64)
    B = np.asarray(B, dtype=np.float64)
    if A.shape != B.shape:
        raise ValueError(f"shapes differ: {A.shape} vs {B.shape}")
    if A.size == 0:
        return 0.0
    plus = np.abs(A - B).max(axis=0)
    minus = np.abs(A + B).max(axis=0)
    return float(np.minimum(plus, minus).max())


@dataclass(frozen=True)
class ExplicitPCA:
    """Kernel PCA with the degree-2 polynomial kernel next to linear PCA on φ(X).

    Attributes
    ----------
    kpca : (n, k) float
        ``kpca_core.KernelPCA(kernel="poly", degree=2, ...).fit_transform(X)``.
    pca : (n, k) float
        ``sklearn.decomposition.PCA(k).fit_transform(φ(X))`` (PCA centres φ(X) itself).
    max_difference : float
        :func:`experiments.roundoff.aligned_difference` of the two: up to each component's
        sign, and up to a rotation where eigenvalues coincide (compared over every component
        that shares an eigenvalue with the first k, :attr:`compared`).
    kernel_gap : float
        max |φ(X)φ(X)ᵀ − K|, the feature map's own check.
    kernel_max : float
        max |Kᵢⱼ|, the scale of the rounding (:func:`experiments.roundoff.kernel_rounding`).
    compared : int
        Components in :attr:`max_difference` (k, or more when the k-th eigenvalue repeats).
    eigenvalues : (k,) float
        Eigenvalues μ of K̃ (the kernel route).
    pca_variances : (k,) float
        PCA's ``explained_variance_`` on φ(X): μ / (n − 1) (scikit-learn divides by n − 1).
    n_features : int
        Columns of φ(X).
    """

    kpca: np.ndarray
    pca: np.ndarray
    max_difference: float
    kernel_gap: float
    eigenvalues: np.ndarray
    pca_variances: np.ndarray
    n_features: int
    kernel_max: float = 0.0
    compared: int = 0


def explicit_pca(
    X: np.ndarray, *, gamma: float, coef0: float, n_components: int = 2
) -> ExplicitPCA:
    """KPCA with (γ xᵀy + c₀)² and linear PCA on the explicit φ(X): the same projections."""
    from sklearn.decomposition import PCA

    from kpca_core import KernelPCA

    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    Phi, _ = poly_feature_map(X, degree=2, gamma=gamma, coef0=coef0)
    K = compute_kernel(X, kernel="poly", degree=2, gamma=gamma, coef0=coef0)
    kernel_max = float(np.abs(K).max())
    k = min(n_components, Phi.shape[1], n - 1)
    # Every component of φ(X) (a full SVD of n × p, p ≤ a few hundred): its spectrum says
    # whether the k-th eigenvalue repeats beyond k (the two rings of noise-free circles
    # give pairs); then both routes are compared over the whole repeated eigenspace.
    pca = PCA(min(n, Phi.shape[1]), svd_solver="full").fit(Phi)
    rounding = kernel_rounding(n, kernel_max)
    compared = min(group_end((n - 1) * pca.explained_variance_, k, rounding), n - 1)
    model = KernelPCA(compared, kernel="poly", degree=2, gamma=gamma, coef0=coef0,
                      random_state=0)
    kpca = model.fit_transform(X)
    linear = pca.transform(Phi)[:, :compared]
    return ExplicitPCA(
        kpca=kpca[:, :k],
        pca=linear[:, :k],
        max_difference=aligned_difference(kpca, linear, model.eigenvalues_, rounding),
        kernel_gap=float(np.abs(Phi @ Phi.T - K).max()),
        eigenvalues=model.eigenvalues_[:k],
        pca_variances=pca.explained_variance_[:k],
        n_features=Phi.shape[1],
        kernel_max=kernel_max,
        compared=compared,
    )


def quadratic_lift(X: np.ndarray, *, gamma: float) -> np.ndarray:
    """φ for (γ xᵀy)² on 2-D inputs: (γx₁², √2 γ x₁x₂, γx₂²) (the c₀ = 0 case of the map)."""
    X = np.asarray(X, dtype=np.float64)
    if X.shape[1] != 2:
        raise ValueError(f"the 3-D lift is for 2-D inputs; got {X.shape[1]} features")
    x1, x2 = X[:, 0], X[:, 1]
    return gamma * np.column_stack([x1**2, math.sqrt(2.0) * x1 * x2, x2**2])


@dataclass(frozen=True)
class Plane:
    """w·z + b = 0 in the lifted space, and how well it splits the classes."""

    normal: np.ndarray
    offset: float
    accuracy: float


def separating_plane(Z: np.ndarray, y: np.ndarray) -> Plane:
    """A plane from a (nearly hard-margin) logistic regression on the lifted points.

    Fitted on standardised coordinates, then mapped back: with z' = (z − m)/s,
    w'·z' + b' = (w'/s)·z + b' − (w'/s)·m.
    """
    from sklearn.linear_model import LogisticRegression

    Z = np.asarray(Z, dtype=np.float64)
    mean = Z.mean(axis=0)
    scale = Z.std(axis=0)
    scale[scale == 0] = 1.0
    model = LogisticRegression(C=1e4, max_iter=5000).fit((Z - mean) / scale, y)
    normal = model.coef_[0] / scale
    offset = float(model.intercept_[0] - normal @ mean)
    return Plane(normal=normal, offset=offset, accuracy=float(model.score((Z - mean) / scale, y)))
