"""The γ diagnostics fire in every case of the issue, stay silent at the suggestions,
and each suggested γ is reachable and silences the hint it came from."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.spatial.distance import pdist
from sklearn.datasets import load_wine

import datasets
from experiments import kernel_diagnostics as kd
from experiments.analysis import analyse
from shell import state


def usps_available() -> bool:
    try:
        datasets.load("usps", n=20)
    except datasets.UspsUnavailableError:
        return False
    return True


def findings_for(X, y, kernel, standardized=False, **params):
    result = analyse(X, y, kernel=kernel, kernel_params=params, n_components=3)
    return kd.diagnose(
        kernel,
        params["gamma"],
        result.stats,
        reference=kd.reference_gamma(X, kernel),
        scale_ratio=kd.feature_scale_ratio(X),
        standardized=standardized,
    ), result


def kinds(findings) -> list[str]:
    return [f.kind for f in findings]


# --------------------------------------------------------------------------- pure pieces


def test_reference_gamma_is_the_median_heuristic_for_rbf():
    X = np.random.default_rng(0).normal(size=(50, 3))
    assert kd.reference_gamma(X, "rbf") == pytest.approx(1 / np.median(pdist(X, "sqeuclidean")))
    assert kd.reference_gamma(X, "laplacian") == pytest.approx(
        1 / np.median(pdist(X, "cityblock"))
    )
    inner = np.abs(X @ X.T)[np.triu_indices(50, k=1)]
    assert kd.reference_gamma(X, "sigmoid") == pytest.approx(1 / np.median(inner))
    assert kd.reference_gamma(X, "linear") is None
    assert kd.reference_gamma(np.ones((5, 2)), "rbf") is None  # no scale at all


def test_effective_rank_is_n_minus_1_for_a_scaled_projector_and_1_for_rank_one():
    n = 20
    projector = np.eye(n) - 1 / n
    assert kd.effective_rank(np.trace(3 * projector), np.linalg.norm(3 * projector)) == (
        pytest.approx(n - 1)
    )
    v = np.arange(n) - (n - 1) / 2
    rank_one = np.outer(v, v)
    assert kd.effective_rank(np.trace(rank_one), np.linalg.norm(rank_one)) == pytest.approx(1)


def test_subspace_similarity_ignores_rotation_and_scale():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(100, 2))
    rotated = A @ np.array([[0.0, -3.0], [2.0, 0.0]]) + 5
    assert kd.subspace_similarity(A, rotated) == pytest.approx(1.0)
    assert kd.subspace_similarity(A, rng.normal(size=(100, 2))) < 0.2


def test_saturated_share_counts_off_diagonal_entries_in_chunks():
    K = np.full((7, 7), 0.5)
    K[0, 1] = K[1, 0] = 1.0
    np.fill_diagonal(K, 1.0)
    assert kd.saturated_share(K, chunk=3) == pytest.approx(2 / 42)


# --------------------------------------------------------------------------- the issue's cases


def test_circles_gamma_carried_to_the_swiss_roll_is_too_large():
    data = datasets.load("swiss_roll")
    findings, _ = findings_for(data.X, data.y, "rbf", gamma=10.0)
    assert kinds(findings) == ["too_large"]
    suggested = findings[0].suggested_gamma
    assert suggested == pytest.approx(kd.round_gamma(kd.reference_gamma(data.X, "rbf")))
    assert "K ≈ I" in findings[0].message


@pytest.mark.skipif(not usps_available(), reason="USPS digits not available")
def test_circles_gamma_carried_to_usps_is_too_large():
    data = datasets.load("usps", n=500)
    findings, result = findings_for(data.X, data.y, "rbf", gamma=10.0)
    assert kinds(findings) == ["too_large"]
    assert result.stats.effective_rank > 0.99 * (result.n - 1)  # K̃ is a scaled projector


@pytest.mark.parametrize("dataset", ["circles", "four_classes"])
def test_usps_gamma_on_rings_is_too_small(dataset):
    data = datasets.load(dataset)
    findings, result = findings_for(data.X, data.y, "rbf", gamma=0.004)
    assert kinds(findings) == ["too_small"]
    assert result.stats.linear_similarity > 0.999


def test_iris_sigmoid_gamma_10_is_saturated_not_an_identity():
    data = datasets.load("iris")
    findings, result = findings_for(data.X, data.y, "sigmoid", gamma=10.0, coef0=1.0)
    assert kinds(findings) == ["saturated"]
    message = findings[0].message
    assert "K ≈ I" not in message and "identity" not in message
    assert "origin" in message and "does not apply to the sigmoid" in message
    assert np.abs(result.projection).max() < 1e-6  # every point at the origin
    # The suggestion is 1/median|xᵀy|, not the median heuristic, and it un-saturates.
    suggested = findings[0].suggested_gamma
    assert suggested == kd.round_gamma(kd.reference_gamma(data.X, "sigmoid"))
    assert suggested != kd.round_gamma(kd.reference_gamma(data.X, "rbf"))
    after, _ = findings_for(data.X, data.y, "sigmoid", gamma=suggested, coef0=1.0)
    assert "saturated" not in kinds(after)


def test_wine_like_upload_suggestion_is_reachable_and_mentions_standardising():
    X = load_wine().data
    findings, _ = findings_for(X, None, "rbf", gamma=5.0)
    assert kinds(findings) == ["too_large", "scales_differ"]
    suggested = findings[0].suggested_gamma
    # 1 / median ‖x − y‖² over all pairs, to two significant digits (1.26e-5 → 1.3e-5).
    assert suggested == float(f"{1 / np.median(pdist(X, 'sqeuclidean')):.2g}")
    assert suggested in state.gamma_choices(suggested)
    assert state.GAMMA_MIN <= suggested and state.parse_gamma(str(suggested)) == (suggested, None)
    assert min(state.GAMMA_GRID) <= 1e-6
    _, std_findings = None, findings_for(X, None, "rbf", standardized=True, gamma=5.0)[0]
    assert "scales_differ" not in kinds(std_findings)


@pytest.mark.parametrize(
    ("dataset", "kernel", "params"),
    [
        ("swiss_roll", "rbf", {"gamma": 10.0}),
        ("circles", "rbf", {"gamma": 0.004}),
        ("four_classes", "rbf", {"gamma": 0.004}),
        ("iris", "sigmoid", {"gamma": 10.0, "coef0": 1.0}),
        ("moons", "laplacian", {"gamma": 200.0}),
    ],
)
def test_following_a_hint_silences_it(dataset, kernel, params):
    data = datasets.load(dataset)
    before, _ = findings_for(data.X, data.y, kernel, **params)
    assert before
    fixed = dict(params, gamma=before[0].suggested_gamma)
    after, _ = findings_for(data.X, data.y, kernel, **fixed)
    assert not [f for f in after if f.kind != "scales_differ"]


@pytest.mark.parametrize("dataset", [d for d in datasets.available() if d != "usps"])
def test_each_datasets_own_suggestion_draws_no_hint(dataset):
    info = datasets.available()[dataset]
    params = {k: v for k, v in info.suggested_kernel.items() if k != "kernel"}
    data = datasets.load(dataset)
    findings, _ = findings_for(data.X, data.y, info.suggested_kernel["kernel"], **params)
    assert findings == []


def test_kernels_without_gamma_get_no_hint():
    data = datasets.load("circles", n=60)
    result = analyse(data.X, data.y, kernel="linear", kernel_params={}, n_components=2)
    assert kd.diagnose("linear", 1.0, result.stats, reference=None) == []
