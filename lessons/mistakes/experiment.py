r"""Each deliberately wrong formula of :mod:`lessons.mistakes.formulas` next to the right one.

:func:`compare_mistakes` runs every mistake and the correct kpca_core computation on the
same data and measures the difference, so the page, the benchmark and the tests show the
same numbers.

Facts the measurements rely on (derived here, checked by the tests):

* Wrong last sign, K − 1K − K1 − 1K1: every row then sums to −2n·mean(K) instead of 0.
  Because K̃1 = 0, the wrong matrix is K̃ − 2·mean(K)·11ᵀ: the constant vector becomes an
  eigenvector with eigenvalue −2n·mean(K), the other eigenpairs are untouched. So the
  projections survive when mean(K) > 0 and the error hides in the spectrum, but when
  mean(K) < 0 the constant vector can become component 1.
* Projecting with the uncentred K (or K_t): 1ᵀα = 0, so Kα = K̃α + (mean of the columns
  of K)·α: every point moves by the same vector. Shifted, not distorted.
* A test kernel centred with its own column means differs from the right one by
  (colmean_train − colmean_test), so every test point moves by (colmean_train −
  colmean_test)ᵀα; on the training points themselves the two means coincide and the
  mistake is invisible; a single point, centred alone, always lands on the origin.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
from scipy import linalg

from kpca_core import (
    KernelCentering,
    center_kernel,
    center_test_kernel,
    compute_kernel,
    eigendecompose,
    kernel_spectrum,
    scale_eigenvectors,
)
from lessons.mistakes.formulas import (
    wrong_center_kernel_last_sign,
    wrong_center_kernel_none,
    wrong_center_test_kernel_own_means,
    wrong_eigendecompose_unsorted,
    wrong_kernel_of_centred_inputs,
    wrong_project_uncentred,
    wrong_scale_one_over_mu_n,
    wrong_scale_unnormalised,
)

# Each mistake costs its own eigendecomposition (seven in all): above this many points a
# fixed random sample is used, and the page says so.
MISTAKES_MAX_N = 300
# np.linalg.eig (a general non-symmetric solver) is several times slower than eigh.
EIG_MAX_N = 200

# kpca_core's own choice (ARPACK for a few components of a large K̃, else LAPACK): the
# right results are computed exactly as KernelPCA would, and quickly.
SOLVER = "auto"
# A new point centred alone is shown for this many held-out points (one call each).
SINGLE_POINTS = 20

__all__ = [
    "MistakeResult",
    "compare_mistakes",
    "largest_principal_angle",
    "relative_difference",
]


# --------------------------------------------------------------------------- measuring


def relative_difference(wrong: np.ndarray, right: np.ndarray) -> float:
    """max over components of min over signs of max|wrong − s·right| / max|right|.

    0 means the same picture (up to each component's sign); 1 means off by as much as
    the right coordinates themselves.
    """
    wrong = np.asarray(wrong, dtype=np.float64)
    right = np.asarray(right, dtype=np.float64)
    scale = np.abs(right).max(axis=0)
    scale[scale == 0] = 1.0
    plus = np.abs(wrong - right).max(axis=0) / scale
    minus = np.abs(wrong + right).max(axis=0) / scale
    return float(np.minimum(plus, minus).max())


def largest_principal_angle(A: np.ndarray, B: np.ndarray) -> float:
    """Largest principal angle (degrees) between the column spaces of A and B.

    0° means the two sets of components span the same subspace of ℝⁿ (whatever their
    order, sign or length); 90° means some direction of one is orthogonal to the other.
    """
    return float(np.degrees(linalg.subspace_angles(A, B).max()))


@dataclass(frozen=True)
class MistakeResult:
    """One mistake next to the right computation on the same data.

    Attributes
    ----------
    key : str
    right, wrong : (m, k) float
        Projections (or, for ``picture == "spectrum"``, eigenvalues as (p, 1)).
    damage : float
        The headline number (its meaning in ``damage_label``).
    damage_label : str
    harmless_tolerance : float
        ``damage`` at or below this means the mistake did no harm on these data.
    numbers : dict
        Further measurements for the caption (names → floats).
    picture : str
        "projection" or "spectrum".
    ranks : ranks (1 = largest) of the eigenvalues a solver returned, in its order.
    rows : which rows of X the pictures show (None: all of them, in order).
    """

    key: str
    right: np.ndarray
    wrong: np.ndarray
    damage: float
    damage_label: str
    harmless_tolerance: float
    numbers: dict = field(default_factory=dict)
    picture: str = "projection"
    ranks: tuple[int, ...] = ()
    rows: np.ndarray | None = None

    @property
    def harmless(self) -> bool:
        return bool(np.isfinite(self.damage) and self.damage <= self.harmless_tolerance)


def _scores(eig) -> np.ndarray:
    """Training projections √μ v (0 for μ ≤ 0), as kpca_core.project_training_points."""
    return eig.eigenvectors * np.sqrt(np.clip(eig.eigenvalues, 0.0, None))


def _spectrum_gap(right: np.ndarray, wrong: np.ndarray, K: np.ndarray) -> float:
    """max |wrong spectrum − predicted|: the right spectrum with the eigenvalue of the
    constant vector (0) replaced by −2n·mean(K), both sorted."""
    n = K.shape[0]
    predicted = right.copy()
    predicted[np.argmin(np.abs(predicted))] = -2.0 * n * float(K.mean())
    return float(np.abs(np.sort(predicted) - np.sort(wrong)).max())


def _abs_correlation(a: np.ndarray, b: np.ndarray) -> float:
    a = a - a.mean()
    b = b - b.mean()
    norm = float(np.linalg.norm(a) * np.linalg.norm(b))
    return abs(float(a @ b)) / norm if norm > 0 else 0.0


def _split(n: int, test_fraction: float, seed: int) -> tuple[np.ndarray, np.ndarray]:
    rng = np.random.default_rng(seed)
    order = rng.permutation(n)
    n_test = max(2, int(round(test_fraction * n)))
    return np.sort(order[n_test:]), np.sort(order[:n_test])


def compare_mistakes(
    X: np.ndarray,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int = 2,
    test_fraction: float = 0.25,
    eig_max_n: int = 200,
    seed: int = 0,
) -> dict[str, MistakeResult]:
    """Every mistake of :data:`MISTAKES` next to the right result on X.

    Parameters
    ----------
    X : (n, d) inputs as the kernel sees them; n ≥ 8.
    kernel, kernel_params : as for :func:`kpca_core.compute_kernel`.
    n_components : components compared (2: the pictures' axes).
    test_fraction : share of X held out as "new points" for the test-kernel mistake.
    eig_max_n : ``np.linalg.eig`` is slow (a general solver); the unsorted-eigensolver
        comparison uses the first ``eig_max_n`` points.
    seed : the held-out split.
    """
    X = np.asarray(X, dtype=np.float64)
    n = X.shape[0]
    k = min(n_components, n - 1)
    K = compute_kernel(X, kernel=kernel, **kernel_params)
    Kc = center_kernel(K)
    right = eigendecompose(Kc, k, solver=SOLVER, random_state=0)
    right_scores = _scores(right)
    scale = max(float(np.abs(Kc).max()), 1e-300)
    results: dict[str, MistakeResult] = {}

    # 1. No centring.
    none = eigendecompose(wrong_center_kernel_none(K), k, solver=SOLVER, random_state=0)
    results["no_centering"] = MistakeResult(
        "no_centering", right_scores, _scores(none),
        damage=relative_difference(_scores(none), right_scores),
        damage_label="largest difference of the components (up to sign), relative to their size",
        harmless_tolerance=1e-6,
        numbers={
            "angle": largest_principal_angle(none.eigenvectors, right.eigenvectors),
            "max_row_sum": float(np.abs(K.sum(axis=1)).max()),
            # |correlation| of the wrong component 1 with each point's mean kernel value,
            # i.e. its inner product with the feature-space mean.
            "mean_alignment": _abs_correlation(none.eigenvectors[:, 0], K.mean(axis=1)),
        },
    )

    # 2. Wrong sign on 1K1: spectra.
    Kw = wrong_center_kernel_last_sign(K)
    spectrum_right = kernel_spectrum(Kc)
    spectrum_wrong = kernel_spectrum(Kw)
    wrong_sign = eigendecompose(Kw, k, solver=SOLVER, random_state=0)
    results["last_sign"] = MistakeResult(
        "last_sign", spectrum_right[:, None], spectrum_wrong[:, None],
        damage=float(np.abs(Kw.sum(axis=1)).max()),
        damage_label="largest |row sum| of the wrong K̃ (should be 0)",
        harmless_tolerance=1e-9 * n * scale,
        numbers={
            "predicted_eigenvalue": -2.0 * n * float(K.mean()),
            "row_sum_right": float(np.abs(Kc.sum(axis=1)).max()),
            "projection_difference": relative_difference(_scores(wrong_sign), right_scores),
            "spectrum_difference": _spectrum_gap(spectrum_right, spectrum_wrong, K),
        },
        picture="spectrum",
    )

    # 3. Centring the inputs.
    Kc_inputs = wrong_kernel_of_centred_inputs(X, kernel=kernel, kernel_params=kernel_params)
    inputs_eig = eigendecompose(Kc_inputs, k, solver=SOLVER, random_state=0)
    results["centred_inputs"] = MistakeResult(
        "centred_inputs", right_scores, _scores(inputs_eig),
        damage=float(np.abs(Kc_inputs - Kc).max()) / scale,
        damage_label="largest |K̃_wrong − K̃| relative to max |K̃|",
        harmless_tolerance=1e-9,
        numbers={"projection_difference": relative_difference(_scores(inputs_eig), right_scores)},
    )

    # 4. Test kernel with its own means: fit on a training part, project held-out points.
    train, test = _split(n, test_fraction, seed)
    K_train = K[np.ix_(train, train)]
    centering = KernelCentering.fit(K_train)
    Kc_train = center_kernel(K_train, centering=centering)
    fit = eigendecompose(Kc_train, k, solver=SOLVER, random_state=0)
    alphas = scale_eigenvectors(fit.eigenvectors, fit.eigenvalues)
    K_test = K[np.ix_(test, train)]
    test_right = center_test_kernel(K_test, centering) @ alphas
    test_wrong = wrong_center_test_kernel_own_means(K_test) @ alphas
    train_right = center_test_kernel(K_train, centering) @ alphas
    train_wrong = wrong_center_test_kernel_own_means(K_train) @ alphas
    single_wrong = np.vstack(
        [wrong_center_test_kernel_own_means(K_test[i : i + 1]) @ alphas
         for i in range(min(len(test), SINGLE_POINTS))]
    )
    train_scale = max(float(np.abs(train_right).max()), 1e-300)
    results["test_own_means"] = MistakeResult(
        "test_own_means", test_right, test_wrong,
        damage=float(np.abs(test_wrong - test_right).max()) / train_scale,
        damage_label="largest difference on held-out points, relative to the training "
        "projections' size",
        rows=test,
        harmless_tolerance=1e-9,
        numbers={
            "on_training_points": float(np.abs(train_wrong - train_right).max()) / train_scale,
            "single_point_max": float(np.abs(single_wrong).max()),
            "n_train": float(len(train)),
            "n_test": float(len(test)),
            "shift_spread": float(np.abs((test_wrong - test_right)
                                         - (test_wrong - test_right).mean(axis=0)).max()),
        },
    )

    # 5. Scaling of the eigenvectors.
    positive = right.eigenvalues > 0
    vectors, values = right.eigenvectors[:, positive], right.eigenvalues[positive]
    good_alpha = scale_eigenvectors(vectors, values)
    alpha_v = wrong_scale_unnormalised(vectors, values)
    alpha_mu_n = wrong_scale_one_over_mu_n(vectors, values)

    def axis_sq_length(alpha):
        return np.einsum("ik,ik->k", alpha, Kc @ alpha)

    results["scaling"] = MistakeResult(
        "scaling", Kc @ good_alpha, Kc @ alpha_v,
        damage=float(np.abs(axis_sq_length(alpha_v) - 1.0).max()),
        damage_label="largest |αᵀK̃α − 1| with α = v (should be 0: unit-length axes)",
        harmless_tolerance=1e-9,
        numbers={
            "length_right": float(np.abs(axis_sq_length(good_alpha) - 1.0).max()),
            "length_mu_n": float(np.abs(axis_sq_length(alpha_mu_n) - 1.0).max()),
            "stretch_1": float(np.sqrt(values[0])) if len(values) else 0.0,
            "stretch_2": float(np.sqrt(values[1])) if len(values) > 1 else 0.0,
            "mu_n_projection_max": float(np.abs(Kc @ alpha_mu_n).max()),
        },
    )
    results["scaling_mu_n"] = MistakeResult(
        "scaling_mu_n", Kc @ good_alpha, Kc @ alpha_mu_n,
        damage=float(np.abs(axis_sq_length(alpha_mu_n) - 1.0).max()),
        damage_label="largest |αᵀK̃α − 1| with α = v/(μn)",
        harmless_tolerance=1e-9,
    )

    # 6. Projecting with the uncentred K.
    alphas_all = scale_eigenvectors(right.eigenvectors, right.eigenvalues)
    proj_right = Kc @ alphas_all
    proj_wrong = wrong_project_uncentred(K, alphas_all)
    shift = proj_wrong - proj_right
    results["uncentred_projection"] = MistakeResult(
        "uncentred_projection", proj_right, proj_wrong,
        damage=float(np.abs(shift).max()) / max(float(np.abs(proj_right).max()), 1e-300),
        damage_label="largest difference of the coordinates, relative to their size",
        harmless_tolerance=1e-9,
        numbers={
            "shift_1": float(shift[:, 0].mean()),
            "shift_2": float(shift[:, 1].mean()) if shift.shape[1] > 1 else 0.0,
            "shift_spread": float(np.abs(shift - shift.mean(axis=0)).max()),
            "mean_right": float(np.abs(proj_right.mean(axis=0)).max()),
        },
    )

    # 7. np.linalg.eig, unsorted, on the first eig_max_n points.
    m = min(n, eig_max_n)
    Kc_small = center_kernel(K[:m, :m])
    small = eigendecompose(Kc_small, k, solver=SOLVER, random_state=0)
    values_eig, vectors_eig, all_values = wrong_eigendecompose_unsorted(Kc_small, k)
    spectrum_small = np.linalg.eigvalsh(Kc_small)[::-1]
    ranks = [int(np.argmin(np.abs(spectrum_small - value))) + 1 for value in values_eig]
    first_ranks = [int(np.argmin(np.abs(spectrum_small - value))) + 1
                   for value in all_values.real[:10]]
    wrong_scores = vectors_eig / np.linalg.norm(vectors_eig, axis=0) * np.sqrt(
        np.clip(values_eig, 0.0, None)
    )
    results["unsorted_eig"] = MistakeResult(
        "unsorted_eig", _scores(small), wrong_scores,
        damage=largest_principal_angle(vectors_eig, small.eigenvectors),
        damage_label="largest angle between the subspaces of the wrong and the right "
        "components (degrees)",
        harmless_tolerance=1e-4,
        ranks=tuple(first_ranks),
        rows=np.arange(m),
        numbers={
            "n_used": float(m),
            "rank_1": float(ranks[0]),
            "rank_2": float(ranks[1]) if len(ranks) > 1 else 0.0,
            "projection_difference": relative_difference(wrong_scores, _scores(small)),
            "max_imaginary": float(np.abs(all_values.imag).max()),
            # μ₂ − μ₃ relative to μ₁: when 0, the leading 2-D subspace is not unique and
            # any solver's choice is as good as another.
            "leading_gap": float((spectrum_small[k - 1] - spectrum_small[k])
                                 / max(abs(float(spectrum_small[0])), 1e-300))
            if m > k else 1.0,
        },
    )
    for result in results.values():
        for array in (result.right, result.wrong):
            array.setflags(write=False)
    return results
