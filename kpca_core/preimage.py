r"""Pre-images: from a point in feature space back to input space.

Projecting phi(x) onto the first k kernel principal axes gives

    P phi(x) = phi_bar + sum_k beta_k V^k,   V^k = sum_i alpha_i^k (phi(x_i) - phi_bar),

a point of feature space that in general is the image of *no* input z. A pre-image
is a z whose phi(z) is as close as possible to P phi(x). Written over the training
points, P phi(x) = sum_i c_i phi(x_i) with

    c = A beta + (1 - 1^T A beta) / n                              (A: n x k alphas)

Two classic answers for the RBF kernel k(x, y) = exp(-gamma ||x - y||^2):

* Mika et al. (1999), "Kernel PCA and de-noising in feature spaces": the stationary
  points of ||phi(z) - P phi(x)||^2 satisfy
  z = sum_i c_i k(z, x_i) x_i / sum_i c_i k(z, x_i), iterated from a starting point.
* Kwok & Tsang (2004), "The pre-image problem in kernel methods": turn feature-space
  distances into input-space distances (for RBF, d^2 = -ln(1 - d~^2 / 2) / gamma) to
  the nearest training points, then place z by classical multidimensional scaling.

The third method, a kernel ridge regression from projections back to inputs (Bakır
et al. 2004), is learned at fit time and lives in :class:`~kpca_core.KernelPCA`.
"""

from __future__ import annotations

from numbers import Integral

import numpy as np

from .kernels import squared_euclidean_distances

__all__ = [
    "feature_space_coefficients",
    "feature_space_sq_distances",
    "fixed_point_preimage",
    "kwok_tsang_preimage",
]


def feature_space_coefficients(projections: np.ndarray, alphas: np.ndarray) -> np.ndarray:
    """Coefficients c with P phi(x) = sum_i c_i phi(x_i), one row per projected point.

    Parameters
    ----------
    projections : ndarray of shape (n_points, n_components)
        Coordinates beta on the kernel principal axes.
    alphas : ndarray of shape (n_train, n_components)
        Scaled eigenvectors v / sqrt(mu) (see :func:`~kpca_core.scale_eigenvectors`).
    """
    coefs = projections @ alphas.T
    n_train = alphas.shape[0]
    coefs += ((1.0 - coefs.sum(axis=1)) / n_train)[:, None]
    return coefs


def feature_space_sq_distances(
    projections: np.ndarray, train_projections: np.ndarray, train_sq_norms: np.ndarray
) -> np.ndarray:
    """||P phi(x) - phi(x_i)||^2 for every projected point and training point.

    Both live relative to the feature-space mean: P phi(x) - phi_bar = sum beta_k V^k
    and phi(x_i) - phi_bar = phi~(x_i), whose inner product with the orthonormal V^k
    are the training projections. So the distance is
    ||beta||^2 - 2 beta . p_i + K~_ii, with no n x n matrix needed.
    """
    sq = (projections**2).sum(axis=1)[:, None] - 2.0 * projections @ train_projections.T
    sq += train_sq_norms[None, :]
    return np.maximum(sq, 0.0)


def fixed_point_preimage(
    coefs: np.ndarray,
    X_fit: np.ndarray,
    gamma: float,
    init: np.ndarray,
    *,
    max_iter: int = 100,
    tol: float = 1e-8,
) -> tuple[np.ndarray, np.ndarray]:
    """Mika et al.'s fixed-point iteration for RBF pre-images.

    Parameters
    ----------
    coefs : ndarray of shape (n_points, n_train)
        Expansion coefficients from :func:`feature_space_coefficients`.
    X_fit : ndarray of shape (n_train, n_features)
    gamma : float
        Width of the RBF kernel.
    init : ndarray of shape (n_points, n_features)
        Starting points (for de-noising, the noisy inputs themselves).
    max_iter, tol : stop after ``max_iter`` steps or when every point moves less
        than ``tol``.

    Returns
    -------
    Z : ndarray of shape (n_points, n_features)
    converged : ndarray of bool, shape (n_points,)
        False where the iteration hit ``max_iter`` or its denominator vanished (the
        point then keeps its last well-defined position).
    """
    Z = np.array(init, dtype=np.float64)
    active = np.ones(Z.shape[0], dtype=bool)
    converged = np.zeros(Z.shape[0], dtype=bool)
    for _ in range(max_iter):
        if not active.any():
            break
        idx = np.flatnonzero(active)
        weights = np.exp(-gamma * squared_euclidean_distances(Z[idx], X_fit))
        weights *= coefs[idx]
        denominator = weights.sum(axis=1)
        # Far from every training point all k(z, x_i) underflow; the update is 0/0.
        ok = np.abs(denominator) > 1e-300
        Z_new = (weights[ok] @ X_fit) / denominator[ok, None]
        step = np.linalg.norm(Z_new - Z[idx[ok]], axis=1)
        Z[idx[ok]] = Z_new
        done = step < tol
        converged[idx[ok][done]] = True
        active[idx[ok][done]] = False
        active[idx[~ok]] = False
    return Z, converged


def kwok_tsang_preimage(
    feature_sq_distances: np.ndarray,
    X_fit: np.ndarray,
    gamma: float,
    *,
    n_neighbors: int = 10,
) -> np.ndarray:
    r"""Kwok & Tsang's closed-form RBF pre-image from the nearest training points.

    With the n_neighbors nearest training points (in feature space) centred at their
    mean, q_j = x_j - mean = (U S V^T)_j, and the input-space distances d_j they
    should have to z, z = mean + V c where ||c - (U S)_j||^2 = d_j^2. Subtracting the
    mean of these equations gives the least-squares system -2 U S c = b with
    b = d^2 - |q|^2 (Kwok & Tsang's solution c = -1/2 S^-1 U^T b), and averaging them
    gives the distance from the mean itself, ||c||^2 = mean(d^2) - mean(|q|^2).

    The division by S is the weak point: with many neighbours (up to 256 directions
    for USPS) the small singular values turn the inconsistencies of d^2 (it comes from
    a projection that is the image of no input) into pixel values of 1e7. So c is the
    Tikhonov-regularised solution c_i = -1/2 s_i (U^T b)_i / (s_i^2 + rho) with the
    smallest rho >= 0 that keeps ||c|| within the radius the equations themselves
    give (a trust region): the badly determined directions, those of small s_i,
    shrink first, and the pre-image never lies further from the neighbours than the
    distances say, nor outside the smallest ball around the neighbours' mean that
    holds them all, radius max_j |q_j| (distances are capped at its diameter too:
    those computed from k ~ 0 mean nothing). For a consistent system (an exact
    image) rho = 0: the original method.

    Parameters
    ----------
    feature_sq_distances : ndarray of shape (n_points, n_train)
        ||P phi(x) - phi(x_i)||^2, from :func:`feature_space_sq_distances`.
    X_fit : ndarray of shape (n_train, n_features)
    gamma : float
        Width of the RBF kernel.
    n_neighbors : int
        How many nearest training points (in feature space) pin down z,
        2 <= n_neighbors <= n_train.

    Returns
    -------
    Z : ndarray of shape (n_points, n_features)
    """
    n_train = X_fit.shape[0]
    if (isinstance(n_neighbors, bool) or not isinstance(n_neighbors, Integral)
            or not 2 <= n_neighbors <= n_train):
        raise ValueError(
            f"n_neighbors must be a whole number in [2, {n_train}] (the number of "
            f"training points); got {n_neighbors!r}."
        )
    # For the RBF kernel ||phi(z) - phi(x)||^2 = 2 - 2 exp(-gamma ||z - x||^2).
    similarity = np.clip(1.0 - feature_sq_distances / 2.0, 1e-300, 1.0)
    input_sq_distances = -np.log(similarity) / gamma

    Z = np.empty((feature_sq_distances.shape[0], X_fit.shape[1]))
    for row, (fsq, isq) in enumerate(zip(feature_sq_distances, input_sq_distances, strict=True)):
        nearest = np.argpartition(fsq, n_neighbors - 1)[:n_neighbors]
        neighbours = X_fit[nearest]
        mean = neighbours.mean(axis=0)
        # Coordinates of the centred neighbours in the subspace they span.
        U, s, Vt = np.linalg.svd(neighbours - mean, full_matrices=False)
        rank = int((s > s[0] * 1e-10).sum()) if s.size and s[0] > 0 else 0
        if rank == 0:
            Z[row] = mean
            continue
        U, s, Vt = U[:, :rank], s[:rank], Vt[:rank]
        coords_sq = ((U * s) ** 2).sum(axis=1)
        # Cap: a pre-image belongs in the ball around the neighbours' mean that holds
        # them all, so no distance to a neighbour can exceed that ball's diameter. Far
        # neighbours (k ~ 0, where -ln k / gamma means nothing) would otherwise set it.
        ball_sq = coords_sq.max()
        d_sq = np.minimum(isq[nearest], 4.0 * ball_sq)
        radius_sq = min(max(d_sq.mean() - coords_sq.mean(), 0.0), ball_sq)
        c = _trust_region_coefficients(-0.5 * (U.T @ (d_sq - coords_sq)), s, radius_sq)
        Z[row] = mean + c @ Vt
    return Z


def _trust_region_coefficients(g: np.ndarray, s: np.ndarray, radius_sq: float) -> np.ndarray:
    """c_i = g_i s_i / (s_i^2 + rho) with the smallest rho >= 0 giving ||c||^2 <= radius_sq.

    ||c(rho)|| falls monotonically from the least-squares solution (rho = 0) to 0, so
    the rho on the boundary is found by bisection on log(rho).
    """
    def coefficients(rho):
        return g * s / (s**2 + rho)

    c = coefficients(0.0)
    if c @ c <= radius_sq:
        return c
    if radius_sq == 0.0:
        return np.zeros_like(c)
    # ||c(rho)|| <= ||g s|| / rho, so rho = ||g s|| / radius is on the safe side.
    low, high = 0.0, float(np.linalg.norm(g * s)) / np.sqrt(radius_sq)
    for _ in range(100):
        mid = 0.5 * (low + high) if low == 0.0 else np.sqrt(low * high)
        if coefficients(mid) @ coefficients(mid) > radius_sq:
            low = mid
        else:
            high = mid
        if high - low <= 1e-10 * high:
            break
    return coefficients(high)
