"""The γ sweep: real cross-validated scores, a sensible best γ, consistent signs."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

import datasets
from experiments import gamma_guidance
from experiments.kernel_diagnostics import reference_gamma
from experiments.sampling import stratified_rows
from kpca_core import KernelPCA, median_heuristic_gamma
from lessons.choosing_gamma.experiment import (
    COEF0_VALUES,
    SWEEP_MAX_N,
    align_signs,
    evaluate,
    gamma_grid,
    nearest_index,
    rescaling_gap,
    sweep,
)
from shell.state import GAMMA_MAX, GAMMA_MIN
from tests.support.apptest import needs_usps


def sklearn_cv(Z, y):
    """The separability score rebuilt from scikit-learn alone."""
    model = make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=2000))
    return cross_val_score(model, Z, y, cv=StratifiedKFold(5, shuffle=True, random_state=0)).mean()


@pytest.fixture(scope="module")
def circles_sweep():
    data = datasets.load("circles", n=300, seed=0)
    values = gamma_grid(reference_gamma(data.X, "rbf"), low=GAMMA_MIN, high=GAMMA_MAX)
    return data, sweep(data.X, data.y, kernel="rbf", kernel_params={"gamma": 10.0},
                       param="gamma", values=values, n_components=3)


def test_grid_is_log_spaced_round_and_straddles_the_median_heuristic():
    X = datasets.load("circles", n=300).X
    grid = gamma_grid(reference_gamma(X, "rbf"), low=GAMMA_MIN, high=GAMMA_MAX)
    assert len(grid) == 12
    ratios = grid[1:] / grid[:-1]
    np.testing.assert_allclose(np.unique(np.round(ratios, 6)), [3.0, 3.333333])
    assert grid[0] < median_heuristic_gamma(X) < grid[-1]
    assert GAMMA_MIN <= grid.min() and grid.max() <= GAMMA_MAX


@pytest.mark.parametrize(("dataset", "kernel"), [
    ("iris", "sigmoid"), ("iris", "poly"), ("circles", "laplacian"), ("swiss_roll", "poly"),
])
def test_grid_centres_on_each_kernels_own_reference(dataset, kernel):
    # Issue 22, item 7: not the RBF heuristic for every kernel. On iris the sigmoid's
    # 1/median |xᵀy| is 0.018 while the RBF heuristic is 0.18: a decade apart.
    X = datasets.load(dataset).X
    reference = reference_gamma(X, kernel)
    grid = gamma_grid(reference, low=GAMMA_MIN, high=GAMMA_MAX)
    centre = np.log10(reference)
    assert grid[0] <= 10 ** (np.floor(centre) - 2) + 1e-12 and grid[-1] >= 10 ** (centre + 2)
    if dataset == "iris":
        rbf = reference_gamma(X, "rbf")
        rbf_grid = gamma_grid(rbf, low=GAMMA_MIN, high=GAMMA_MAX)
        assert not np.array_equal(grid, rbf_grid) and rbf / reference > 5


def test_grid_stays_inside_the_allowed_range_for_extreme_scales():
    for reference in (1e8, 1e-8):  # circles scaled by 1e-4 and by 1e4
        grid = gamma_grid(reference, low=GAMMA_MIN, high=GAMMA_MAX)
        assert len(grid) == 12 and GAMMA_MIN <= grid.min() and grid.max() <= GAMMA_MAX


def test_sweep_and_gamma_hint_score_a_gamma_alike():
    # The same evidence: Choosing γ's sweep and the γ hint's search sample the same rows
    # and score components 1–2 the same way, so a γ both try has one score.
    data = datasets.load("moons")
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    found = gamma_guidance.search(data.X, data.y, kernel="rbf", kernel_params={"gamma": 1.0})
    np.testing.assert_array_equal(found.rows, rows)
    values = gamma_grid(reference_gamma(data.X, "rbf"), low=GAMMA_MIN, high=GAMMA_MAX)
    result = sweep(data.X[rows], data.y[rows], kernel="rbf", kernel_params={},
                   param="gamma", values=values, n_components=3)
    common = [(t, i) for t in found.trials for i, v in enumerate(values) if t.gamma == v]
    assert len(common) >= 5
    for t, i in common:
        assert result.score_two[i] == pytest.approx(t.score, abs=1e-12), t.gamma
        assert result.evaluations[i].linear_similarity == pytest.approx(
            t.linear_similarity, abs=1e-6)


def test_scores_are_real_cross_validation_of_kernel_pca(circles_sweep):
    data, result = circles_sweep
    for i in (0, 5, 9):
        gamma = result.values[i]
        Z = KernelPCA(20, kernel="rbf", gamma=gamma, random_state=0).fit_transform(data.X)
        assert result.score_two[i] == pytest.approx(sklearn_cv(Z[:, :2], data.y))
        assert result.score_k[i] == pytest.approx(sklearn_cv(Z[:, :3], data.y))
    assert result.linear_two == pytest.approx(sklearn_cv(data.X, data.y))


def test_best_gamma_on_circles_is_where_rbf_separates_them(circles_sweep):
    data, result = circles_sweep
    best = result.values[result.best_index()]
    assert result.score_two.max() >= 0.99
    assert result.linear_two < 0.7  # linear PCA cannot separate rings
    # Independent check: scikit-learn's own kernel PCA at that γ separates the rings ...
    from sklearn.decomposition import KernelPCA as SkKernelPCA

    Z = SkKernelPCA(2, kernel="rbf", gamma=best).fit_transform(data.X)
    assert sklearn_cv(Z, data.y) >= 0.99
    # ... and a kernel 100 times narrower or wider does not.
    for far in (best / 100, best * 100):
        Z = SkKernelPCA(2, kernel="rbf", gamma=far).fit_transform(data.X)
        assert sklearn_cv(Z, data.y) < 0.9


def test_ties_go_to_the_smoothest_kernel(circles_sweep):
    _, result = circles_sweep
    best = result.best_index()
    assert result.score_two[best] == result.score_two.max()
    assert np.all(result.score_two[:best] < result.score_two.max())


def test_spectrum_flattens_and_similarity_vanishes_as_gamma_grows(circles_sweep):
    _, result = circles_sweep
    similarity = np.array([e.mean_similarity for e in result.evaluations])
    assert similarity[0] > 0.95 and similarity[-1] < 0.01
    assert np.all(np.diff(similarity) < 0)
    assert result.top_share[0] > 0.45  # tiny γ: linear-like, two big eigenvalues
    assert np.all(np.diff(result.top_share) < 0)
    # huge γ: nearly K = I, every direction about as good as any other (flat: 1/(n-1))
    assert result.top_share[-1] < 4 * result.flat_share < 0.05 * result.top_share[0]


def test_align_signs_removes_arbitrary_flips():
    rng = np.random.default_rng(0)
    base = rng.normal(size=(50, 2))
    panels = np.stack([base + 0.01 * rng.normal(size=base.shape) for _ in range(5)])
    flips = np.array([[1, 1], [-1, 1], [1, -1], [-1, -1], [1, 1]])[:, None, :]
    aligned = align_signs(panels * flips, anchor=2)
    np.testing.assert_array_equal(aligned[2], (panels * flips)[2])  # anchor untouched
    reference = aligned[2]
    for i in range(5):
        assert np.all(np.einsum("nc,nc->c", aligned[i], reference) > 0)


def test_degree_sweep_and_evaluate_agree():
    data = datasets.load("moons", n=120)
    params = {"gamma": 1.0, "coef0": 1.0, "degree": 3}
    result = sweep(data.X, data.y, kernel="poly", kernel_params=params, param="degree",
                   values=[1, 2, 3], n_components=4)
    one = evaluate(data.X, data.y, kernel="poly", kernel_params=params, n_components=4)
    assert result.score_two[2] == one.score_two and result.score_k[2] == one.score_k
    np.testing.assert_array_equal(result.projections[2], one.projection)


def test_no_labels_no_scores():
    X = datasets.load("parabola", n=60).X
    result = sweep(X, None, kernel="rbf", kernel_params={}, param="gamma", values=[1.0, 10.0],
                   n_components=3)
    assert result.score_two is None and result.best_index() is None
    assert result.linear_two is None

def test_nearest_index_on_a_log_scale():
    values = np.array([1.0, 3.0, 10.0, 30.0])
    assert nearest_index(values, 5.0) == 1  # log 5 is nearer log 3 than log 10
    assert nearest_index(values, 6.0) == 2


def test_polynomial_with_c0_zero_only_rescales_and_c0_changes_the_picture():
    # Issue 22, item 4: (γ xᵀy)ᵈ = γᵈ (xᵀy)ᵈ, so γ only stretches the projection ...
    data = datasets.load("circles", n=120)
    assert rescaling_gap(data.X, degree=3, gamma=2.0) < 1e-9
    assert rescaling_gap(data.X, degree=2, gamma=0.01, factor=1e3) < 1e-9
    # ... while c₀ does change it: the c₀ sweep's scores are not all equal.
    result = sweep(data.X, data.y, kernel="poly", kernel_params={"gamma": 2.0, "degree": 2},
                   param="coef0", values=COEF0_VALUES, n_components=3)
    assert len(set(np.round(result.score_two, 6))) > 1
    assert list(result.values) == list(COEF0_VALUES) and min(COEF0_VALUES) == 0.0
# --------------------------------------------------------------------------- K ≈ I (issue 23)


def test_a_flat_spectrum_is_a_result_marked_as_such():
    # Points far apart: at a huge γ, K is the identity and every direction of K̃ alike.
    rng = np.random.default_rng(0)
    X = rng.normal(size=(240, 20))
    y = np.repeat([0, 1], 120)
    result = sweep(X, y, kernel="rbf", kernel_params={}, param="gamma",
                   values=[0.001, 0.01, 1e3], n_components=3)
    assert list(result.flat) == [False, False, True]
    huge = result.evaluations[-1]
    np.testing.assert_allclose(huge.eigenvalues[:3], 1.0, rtol=1e-12)
    assert huge.mean_similarity < 1e-100
    circles = datasets.load("circles", n=300, seed=0)
    result = sweep(circles.X, circles.y, kernel="rbf", kernel_params={}, param="gamma",
                   values=[5.0], n_components=3)
    assert not result.flat[0]


@needs_usps
def test_the_usps_panel_where_arpack_never_converged_is_computed_exactly():
    # /choosing_gamma?dataset=usps&n=2000&gamma=0.004 ended in ArpackNoConvergence: at
    # γ = 10 K ≈ I, the 20 leading eigenvalues of K̃ agree to ~1e-6 and ARPACK ran for
    # minutes. On 1,000 digits "auto" still chooses ARPACK; it now hands over to LAPACK.
    import warnings

    from kpca_core import (
        SolverFallbackWarning,
        center_kernel,
        choose_eigen_solver,
        compute_kernel,
        eigendecompose,
    )
    from lessons.choosing_gamma.experiment import SPECTRUM_TOP, SWEEP_MAX_N

    data = datasets.load("usps", n=2000)
    X = data.X[stratified_rows(len(data.X), data.y, 1000)]
    Kc = center_kernel(compute_kernel(X, kernel="rbf", gamma=10.0))
    assert choose_eigen_solver(len(X), SPECTRUM_TOP) == "arpack"
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        auto = eigendecompose(Kc, SPECTRUM_TOP, random_state=0)
    assert any(issubclass(w.category, SolverFallbackWarning) for w in caught)
    assert auto.solver == "dense"
    exact = eigendecompose(Kc, SPECTRUM_TOP, solver="dense")
    np.testing.assert_allclose(auto.eigenvalues, exact.eigenvalues, rtol=1e-12)
    # The sweep's own panel (its stratified sample) is exact and flat: K ≈ I.
    rows = stratified_rows(len(data.X), data.y, SWEEP_MAX_N)
    X, y = data.X[rows], data.y[rows]
    result = evaluate(X, y, kernel="rbf", kernel_params={"gamma": 10.0}, n_components=3)
    exact = eigendecompose(center_kernel(compute_kernel(X, kernel="rbf", gamma=10.0)),
                           SPECTRUM_TOP, solver="dense")
    np.testing.assert_allclose(result.eigenvalues, exact.eigenvalues, rtol=1e-12)
    assert result.eigenvalues[0] / (result.trace / (len(X) - 1)) < 1.01  # flat: K ≈ I
    assert result.mean_similarity < 1e-10
