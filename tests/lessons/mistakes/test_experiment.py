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

KERNELS = {
    "rbf": {"gamma": 10.0},
    "laplacian": {"gamma": 2.0},
    "linear": {},
    "poly": {"gamma": 1.0, "degree": 3, "coef0": 1.0},
    "sigmoid": {"gamma": 0.5, "coef0": -1.0},
    "cosine": {},
}


@pytest.fixture(scope="module")
def X():
    return datasets.load("circles", n=150).X


@pytest.fixture(scope="module")
def results(X):
    return {k: damage.compare_mistakes(X, kernel=k, kernel_params=p) for k, p in KERNELS.items()}


def test_every_wrong_function_says_so_and_names_the_correct_one():
    functions = [getattr(wrong, name) for name in wrong.__all__ if name.startswith("wrong_")]
    assert len(functions) == 8
    for function in functions:
        doc = inspect.getdoc(function)
        assert doc.startswith("WRONG"), function.__name__
        assert "Correct:" in doc and "kpca_core." in doc, function.__name__
    assert all(m.correct_function.startswith("kpca_core.") for m in wrong.MISTAKES)


def test_wrong_functions_leave_their_inputs_alone(X):
    K = compute_kernel(X[:20], kernel="rbf", gamma=1.0)
    K.setflags(write=False)
    for function in (wrong.wrong_center_kernel_none, wrong.wrong_center_kernel_last_sign,
                     wrong.wrong_center_test_kernel_own_means):
        function(K)  # would raise on a write into a read-only array


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_no_centering_and_wrong_sign_always_do_damage(results, kernel):
    r = results[kernel]
    assert not r["no_centering"].harmless and r["no_centering"].damage > 1e-4
    sign = r["last_sign"]
    assert not sign.harmless
    # Every row of the wrong matrix sums to −2n·mean(K): the predicted eigenvalue.
    assert sign.damage == pytest.approx(abs(sign.numbers["predicted_eigenvalue"]), rel=1e-9)
    assert sign.numbers["spectrum_difference"] < 1e-9 * max(1.0, sign.damage)
    assert sign.numbers["row_sum_right"] < 1e-9 * max(1.0, sign.damage)


def test_wrong_sign_moves_the_components_only_when_mean_k_is_negative(results):
    # mean(K) > 0: the spurious eigenvalue is negative, the leading components survive.
    assert results["rbf"]["last_sign"].numbers["predicted_eigenvalue"] < 0
    assert results["rbf"]["last_sign"].numbers["projection_difference"] < 1e-8
    # sigmoid with c₀ = −1: mean(K) < 0, the constant vector becomes component 1.
    assert results["sigmoid"]["last_sign"].numbers["predicted_eigenvalue"] > 0
    assert results["sigmoid"]["last_sign"].numbers["projection_difference"] > 0.1


@pytest.mark.parametrize(("kernel", "harmless"),
                         [("rbf", True), ("laplacian", True), ("linear", True),
                          ("poly", False), ("sigmoid", False), ("cosine", False)])
def test_centring_inputs_is_harmless_exactly_for_translation_invariant_kernels(
    results, kernel, harmless
):
    r = results[kernel]["centred_inputs"]
    assert r.harmless is harmless
    if harmless:
        assert r.damage < 1e-12
    else:
        assert r.damage > 1e-4


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_test_kernel_with_own_means_hurts_new_points_only(results, kernel):
    r = results[kernel]["test_own_means"]
    assert r.damage > 1e-4 and not r.harmless  # held-out points move
    assert r.numbers["on_training_points"] < 1e-12  # the training points do not
    assert r.numbers["single_point_max"] < 1e-12  # one point alone lands on the origin
    assert r.numbers["shift_spread"] < 1e-9  # all by the same vector


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


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_scaling_mistakes_break_unit_length_axes(results, kernel):
    r, r2 = results[kernel]["scaling"], results[kernel]["scaling_mu_n"]
    assert r.numbers["length_right"] < 1e-9
    assert not r.harmless and not r2.harmless
    # α = v gives αᵀK̃α = μ (stretch √μ), so the damage is max |μₖ − 1|.
    mu = np.array([r.numbers["stretch_1"], r.numbers["stretch_2"]]) ** 2
    assert r.damage == pytest.approx(np.abs(mu - 1).max(), rel=1e-8)
    assert r2.damage > 0.5  # 1/(μn²) ≪ 1


@pytest.mark.parametrize("kernel", list(KERNELS))
def test_uncentred_projection_is_a_pure_shift(results, kernel):
    r = results[kernel]["uncentred_projection"]
    assert not r.harmless
    assert r.numbers["shift_spread"] < 1e-9 * max(1.0, abs(r.numbers["shift_1"]))
    assert r.numbers["mean_right"] < 1e-12


@pytest.mark.slow
def test_unsorted_eig_picks_wrong_components_when_its_order_is_not_sorted():
    X = datasets.load("circles", n=500).X
    r = damage.compare_mistakes(X, kernel="rbf", kernel_params={"gamma": 10.0},
                               eig_max_n=500)["unsorted_eig"]
    if tuple(r.ranks[:2]) in ((1, 2), (2, 1)):
        pytest.skip(f"this LAPACK returned the leading pair first ({r.ranks}): nothing to show")
    assert not r.harmless and r.damage > 1.0  # degrees between the subspaces
    assert sorted(r.ranks) != list(r.ranks)


def test_unsorted_eig_is_harmless_when_the_leading_pair_comes_first(results):
    for kernel, per_kernel in results.items():
        r = per_kernel["unsorted_eig"]
        if set(r.ranks[:2]) == {1, 2}:
            assert r.harmless, kernel
            assert r.damage < 1e-4
        else:
            assert not r.harmless, kernel


def test_relative_difference_and_angles():
    A = np.array([[1.0, 0.0], [0.0, 2.0], [1.0, 1.0]])
    assert damage.relative_difference(-A, A) == 0.0
    assert damage.relative_difference(2 * A, A) == pytest.approx(1.0)
    assert damage.largest_principal_angle(A, A[:, ::-1] * 3) == pytest.approx(0.0, abs=1e-6)
    assert damage.largest_principal_angle(A[:, :1], np.array([[0.0], [1.0], [0.0]])) == \
        pytest.approx(90.0)
