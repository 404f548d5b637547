"""The deliberately wrong formulas do the damage the lesson says, and none where harmless."""

from __future__ import annotations

import inspect

import numpy as np
import pytest

import datasets
from kpca_core import (
    KernelCentering,
    center_kernel,
    center_test_kernel,
    compute_kernel,
    eigendecompose,
    scale_eigenvectors,
)
from lessons.mistakes import experiment as damage
from lessons.mistakes import formulas as wrong
from tests.support.lessons import KERNEL_PARAMS


@pytest.fixture(scope="module")
def X():
    return datasets.load("circles", n=150).X


@pytest.fixture(scope="module")
def results(X):
    """kernel → {mistake class → the mistake measured on X}."""
    return {kernel: {type(m): m for m in damage.compare_mistakes(X, kernel=kernel,
                                                                 kernel_params=params)}
            for kernel, params in KERNEL_PARAMS.items()}


def test_every_wrong_function_says_so_and_names_the_correct_one():
    functions = [getattr(wrong, name) for name in wrong.__all__ if name.startswith("wrong_")]
    assert len(functions) == 8
    for function in functions:
        doc = inspect.getdoc(function)
        assert doc.startswith("WRONG"), function.__name__
        assert "Correct:" in doc and "kpca_core." in doc, function.__name__
    assert all(m.correct_function.startswith("kpca_core.") for m in damage.MISTAKES)


def test_every_mistake_is_measured_once_in_the_pages_order(X):
    measured = damage.compare_mistakes(X, kernel="rbf", kernel_params=KERNEL_PARAMS["rbf"])
    assert tuple(type(m) for m in measured) == damage.MISTAKES
    assert len({m.key for m in measured}) == len(damage.MISTAKES)
    for m in measured:
        assert m.caption() and m.damages  # every mistake explains itself
        assert not m.picture.right.flags.writeable and not m.picture.wrong.flags.writeable


def test_wrong_functions_leave_their_inputs_alone(X):
    K = compute_kernel(X[:20], kernel="rbf", gamma=1.0)
    K.setflags(write=False)
    for function in (wrong.wrong_center_kernel_none, wrong.wrong_center_kernel_last_sign,
                     wrong.wrong_center_test_kernel_own_means):
        function(K)  # would raise on a write into a read-only array


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_no_centering_and_wrong_sign_always_do_damage(results, kernel):
    r = results[kernel]
    none = r[damage.NoCentring]
    assert not none.harmless and none.damage.value > 1e-4
    sign = r[damage.LastSign]
    assert not sign.harmless
    # Every row of the wrong matrix sums to −2n·mean(K): the predicted eigenvalue.
    assert sign.damage.value == pytest.approx(abs(sign.predicted_eigenvalue), rel=1e-9)
    assert sign.spectrum_difference < 1e-9 * max(1.0, sign.damage.value)
    assert sign.row_sum_right < 1e-9 * max(1.0, sign.damage.value)
    assert all(check.passed for check in sign.checks())


def test_wrong_sign_moves_the_components_only_when_mean_k_is_negative(results):
    # mean(K) > 0: the spurious eigenvalue is negative, the leading components survive.
    rbf = results["rbf"][damage.LastSign]
    assert rbf.predicted_eigenvalue < 0
    assert rbf.projection_difference < 1e-8
    assert "not among the 2 leading ones" in rbf.caption()
    # sigmoid with c₀ = −1: mean(K) < 0, the constant vector becomes component 1.
    sigmoid = results["sigmoid"][damage.LastSign]
    assert sigmoid.predicted_eigenvalue > 0
    assert sigmoid.projection_difference > 0.1
    assert "among the 2 leading ones, so the components change" in sigmoid.caption()


@pytest.mark.parametrize(("kernel", "harmless"),
                         [("rbf", True), ("laplacian", True), ("linear", True),
                          ("poly", False), ("sigmoid", False), ("cosine", False)])
def test_centring_inputs_is_harmless_exactly_for_translation_invariant_kernels(
    results, kernel, harmless
):
    r = results[kernel][damage.CentredInputs]
    assert r.harmless is harmless
    if harmless:
        assert r.damage.value < 1e-12
        assert "changes nothing" in r.caption()
    else:
        assert r.damage.value > 1e-4
        assert "not translation-invariant" in r.caption()


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_test_kernel_with_own_means_hurts_new_points_only(results, kernel):
    r = results[kernel][damage.NewPointsOwnMeans]
    assert r.damage.value > 1e-4 and not r.harmless  # held-out points move
    assert r.on_training_points < 1e-12  # the training points do not
    assert r.single_point_max < 1e-12  # one point alone lands on the origin
    assert r.shift_spread < 1e-9  # all by the same vector
    assert r.n_train + r.n_test == 150 and len(r.picture.rows) == r.n_test


def test_own_means_shift_is_the_predicted_vector(X):
    K = compute_kernel(X, kernel="poly", degree=2, gamma=1.0, coef0=1.0)
    train, test = np.arange(100), np.arange(100, 150)
    K_train, K_test = K[np.ix_(train, train)], K[np.ix_(test, train)]
    centering = KernelCentering.fit(K_train)
    eig = eigendecompose(center_kernel(K_train), 2)
    alphas = scale_eigenvectors(eig.eigenvectors, eig.eigenvalues)
    shift = (wrong.wrong_center_test_kernel_own_means(K_test)
             - center_test_kernel(K_test, centering)) @ alphas
    predicted = (K_train.mean(axis=0) - K_test.mean(axis=0)) @ alphas
    np.testing.assert_allclose(shift, np.broadcast_to(predicted, shift.shape), atol=1e-10)


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_scaling_mistakes_break_unit_length_axes(results, kernel):
    r = results[kernel][damage.Scaling]
    v, v_over_mu_n = r.damages
    assert r.length_right < 1e-9
    assert not v.harmless and not v_over_mu_n.harmless
    # α = v gives αᵀK̃α = μ (stretch √μ), so the damage is max |μₖ − 1|.
    mu = np.array([r.stretch_1, r.stretch_2]) ** 2
    assert v.value == pytest.approx(np.abs(mu - 1).max(), rel=1e-8)
    assert v_over_mu_n.value > 0.5  # 1/(μn²) ≪ 1


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
def test_uncentred_projection_is_a_pure_shift(X, results, kernel):
    r = results[kernel][damage.UncentredProjection]
    assert not r.harmless
    assert r.shift_spread < 1e-9 * max(1.0, abs(r.shift_1))
    assert r.mean_right < 1e-12
    # The common shift is the column means of K times α.
    K = compute_kernel(X, kernel=kernel, **KERNEL_PARAMS[kernel])
    eig = eigendecompose(center_kernel(K), 2, random_state=0)
    shift = K.mean(axis=0) @ scale_eigenvectors(eig.eigenvectors, eig.eigenvalues)
    np.testing.assert_allclose([r.shift_1, r.shift_2], shift, rtol=1e-8,
                               atol=1e-10 * np.abs(K).max())


@pytest.mark.slow
def test_unsorted_eig_picks_wrong_components_when_its_order_is_not_sorted():
    X = datasets.load("circles", n=500).X
    r = damage.compare_mistakes(X, kernel="rbf", kernel_params={"gamma": 10.0},
                               eig_max_n=500)[-1]
    assert isinstance(r, damage.UnsortedEig)
    if tuple(r.ranks[:2]) in ((1, 2), (2, 1)):
        pytest.skip(f"this LAPACK returned the leading pair first ({r.ranks}): nothing to show")
    assert not r.harmless and r.damage.value > 1.0  # degrees between the subspaces
    assert f"rank {r.rank_1} and {r.rank_2}: the wrong components" in r.caption()
    assert sorted(r.ranks) != list(r.ranks)


def test_unsorted_eig_is_harmless_when_the_leading_pair_comes_first(results):
    for kernel, per_kernel in results.items():
        r = per_kernel[damage.UnsortedEig]
        if set(r.ranks[:2]) == {1, 2}:
            assert r.harmless, kernel
            assert r.damage.value < 1e-4
        else:
            assert not r.harmless, kernel


def test_relative_difference_and_angles():
    A = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    assert damage.relative_difference(-A, A) == 0.0
    assert damage.relative_difference(2 * A, A) == pytest.approx(1.0)
    assert damage.largest_principal_angle(A, A[:, ::-1] * 3) == pytest.approx(0.0, abs=1e-6)
    assert damage.largest_principal_angle(A[:, :1], np.array([[0.0], [1.0], [0.0]])) == \
        pytest.approx(90.0)
