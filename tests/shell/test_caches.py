"""experiments.analysis (the numbers the Explorer shows) against kpca_core and
scikit-learn, and shell.caches' bounded store.
"""

import dataclasses

import numpy as np
import pytest
from sklearn.decomposition import PCA

import datasets
from experiments import analysis
from kpca_core import (
    KERNELS,
    KernelPCA,
    center_kernel,
    clean_eigenvalues,
    compute_kernel,
    kernel_spectrum,
)
from shell import caches as compute
from tests.support.apptest import usps_available


def _columns_equal_up_to_sign(A, B, rtol=1e-6):
    scale = max(np.abs(B).max(), 1e-12)
    for j in range(B.shape[1]):
        same = np.abs(A[:, j] - B[:, j]).max() / scale
        flipped = np.abs(A[:, j] + B[:, j]).max() / scale
        assert min(same, flipped) < rtol, f"component {j + 1} differs"


# One setting per kernel: the numbers of every data set × kernel are checked here, at
# the function level; the Explorer's AppTests render one data set per kernel.
KERNEL_PARAMS = {
    "rbf": {"gamma": 10.0},
    "poly": {"gamma": 0.1, "degree": 2, "coef0": 1.0},
    "sigmoid": {"gamma": 2.0, "coef0": -1.0},
    "laplacian": {"gamma": 1.0},
    "cosine": {},
    "linear": {},
}
assert set(KERNEL_PARAMS) == set(KERNELS)


def _load(dataset: str) -> datasets.Dataset:
    """120 points (iris: its 150), as the Explorer's page tests use small data."""
    if dataset == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    return datasets.load(dataset) if dataset == "iris" else datasets.load(dataset, n=120)


@pytest.mark.parametrize("kernel", list(KERNEL_PARAMS))
@pytest.mark.parametrize("dataset", list(datasets.available()))
def test_analysis_matches_kpca_core_and_kernel_pca(dataset, kernel):
    params = KERNEL_PARAMS[kernel]
    data = _load(dataset)
    X, y = data.X, data.y
    result = analysis.analyse(X, y, kernel=kernel, kernel_params=params, n_components=3)

    K = compute_kernel(X, kernel=kernel, **params)
    Kc = center_kernel(K)
    spectrum = kernel_spectrum(Kc)
    scale = max(1.0, np.abs(spectrum).max())
    np.testing.assert_allclose(result.eigenvalues, spectrum, atol=1e-9 * scale)
    assert result.trace == pytest.approx(np.trace(Kc), rel=1e-9, abs=1e-9 * scale)
    _, negative = clean_eigenvalues(spectrum)
    assert not negative.any() or analysis.may_be_indefinite(kernel, params)
    # Share of trace(K̃) for a PSD kernel; of the positive eigenvalues' sum with negative
    # ones (else the leading shares of an indefinite kernel add up to more than 100 %).
    # trace(K̃) ≤ 0 (negative eigenvalues outweigh the positive ones, or a saturated
    # sigmoid's K̃ = 0 within rounding): no shares at all, NaN, never a made-up 0 (issue 33).
    floor = 10 * len(X) * np.finfo(float).eps * np.abs(K).max()
    base = spectrum[spectrum > 0].sum() if negative.any() else np.trace(Kc)
    no_share = np.trace(Kc) < 0 or abs(np.trace(Kc)) <= floor
    expected = np.full_like(spectrum, np.nan) if no_share else spectrum / base
    np.testing.assert_allclose(result.explained_ratio, expected, atol=1e-9)
    if negative.any() and not no_share:
        assert result.explained_ratio[result.explained_ratio > 0].sum() == pytest.approx(1.0)

    # Components whose eigenvalue is repeated or null have no unique axis (e.g. a linear
    # kernel beyond the input's dimension): only the unique ones are compared.
    gaps = -np.diff(spectrum[:4])
    separated = gaps > 1e-6 * scale
    unique = [spectrum[j] > 1e-9 * scale and separated[j] and (j == 0 or separated[j - 1])
              for j in range(3)]
    scores = KernelPCA(n_components=3, kernel=kernel, negative_eigenvalues="warn",
                       **params).fit_transform(X) if any(unique) else None
    for j in np.flatnonzero(unique):
        _columns_equal_up_to_sign(result.projection[:, [j]], scores[:, [j]])
    linear = PCA(min(3, X.shape[1])).fit_transform(X)
    _columns_equal_up_to_sign(result.pca_projection, linear)

    order = result.order
    np.testing.assert_allclose(result.kernel_display, K[np.ix_(order, order)])  # n ≤ 200
    np.testing.assert_allclose(result.centered_display, Kc[np.ix_(order, order)],
                               atol=1e-12 * np.abs(Kc).max())
    if y is None:
        assert order.tolist() == list(range(len(X))) and result.class_sizes.tolist() == [len(X)]
    else:
        assert (np.diff(y[order]) >= 0).all()
        assert result.class_sizes.tolist() == np.bincount(y)[np.bincount(y) > 0].tolist()


def test_signs_are_deterministic():
    X = datasets.load("circles", n=80).X
    result = analysis.analyse(X, None, kernel="rbf", kernel_params={"gamma": 5.0}, n_components=3)
    rows = np.argmax(np.abs(result.projection), axis=0)
    assert (result.projection[rows, np.arange(3)] > 0).all()


def test_sigmoid_negative_eigenvalues_are_flagged_and_rbf_has_none():
    X = datasets.load("moons", n=150).X
    sigmoid = analysis.analyse(
        X, None, kernel="sigmoid", kernel_params={"gamma": 2.0, "coef0": -1.0}, n_components=2
    )
    assert sigmoid.negative.any()
    assert (sigmoid.eigenvalues[sigmoid.negative] < 0).all()
    rbf = analysis.analyse(X, None, kernel="rbf", kernel_params={"gamma": 2.0}, n_components=2)
    assert not rbf.negative.any()


def test_block_average_equals_the_explicit_block_means():
    rng = np.random.default_rng(1)
    A = rng.normal(size=(23, 23))
    A = A + A.T
    order = rng.permutation(23)
    averaged, block = analysis.block_average(A, order, max_side=5)
    assert block == 5 and averaged.shape == (5, 5)
    ordered = A[np.ix_(order, order)]
    for i in range(5):
        for j in range(5):
            expected = ordered[5 * i : 5 * i + 5, 5 * j : 5 * j + 5].mean()
            assert averaged[i, j] == pytest.approx(expected)
    same, one = analysis.block_average(A, order, max_side=23)
    assert one == 1
    np.testing.assert_array_equal(same, ordered)


def test_large_n_path_agrees_with_the_dense_path(monkeypatch):
    data = datasets.load("moons", n=300)
    params = {"gamma": 2.0, "coef0": -1.0}
    dense = analysis.analyse(data.X, data.y, kernel="sigmoid", kernel_params=params, n_components=3)
    monkeypatch.setattr(analysis, "DENSE_MAX_N", 100)
    monkeypatch.setattr(analysis, "MAX_HEATMAP_SIDE", 50)
    big = analysis.analyse(data.X, data.y, kernel="sigmoid", kernel_params=params, n_components=3)
    assert not big.spectrum_complete and dense.spectrum_complete
    top = analysis.ITERATIVE_TOP
    assert big.eigenvalue_ranks.tolist() == list(range(1, top + 1))
    np.testing.assert_allclose(big.eigenvalues, dense.eigenvalues[:top], atol=1e-8)
    assert big.trace == pytest.approx(dense.trace)
    _columns_equal_up_to_sign(big.projection, dense.projection)
    assert big.kernel_display.shape == (50, 50) and big.block_size == 6
    # The bound from the partial spectrum never overstates the true negative mass.
    assert dense.negative_mass_bound > 0
    assert 0 <= big.negative_mass_bound <= dense.negative_mass_bound * (1 + 1e-9)


def test_negative_mass_bound_is_certified_from_the_trace():
    X = datasets.load("moons", n=200).X
    full = analysis.analyse(
        X, None, kernel="sigmoid", kernel_params={"gamma": 2.0, "coef0": -1.0}, n_components=2
    )
    exact = -full.eigenvalues[full.eigenvalues < 0].sum()  # round-off included
    assert full.negative_mass_bound == pytest.approx(exact, rel=1e-12)
    # Keep only the leading eigenvalues: the bound must still hold.
    partial = dataclasses.replace(
        full,
        eigenvalues=full.eigenvalues[:40],
        eigenvalue_ranks=full.eigenvalue_ranks[:40],
        negative=full.negative[:40],
        spectrum_complete=False,
    )
    assert 0 < partial.negative_mass_bound <= exact + 1e-9


def test_which_kernels_may_be_indefinite():
    assert analysis.may_be_indefinite("sigmoid", {"gamma": 1.0, "coef0": 0.0})
    assert analysis.may_be_indefinite("poly", {"gamma": 1.0, "degree": 2, "coef0": -1.0})
    assert not analysis.may_be_indefinite("poly", {"gamma": 1.0, "degree": 2, "coef0": 1.0})
    assert not analysis.may_be_indefinite("rbf", {"gamma": 1.0})


def test_results_are_read_only():
    X = datasets.load("circles", n=50).X
    result = analysis.analyse(X, None, kernel="linear", kernel_params={}, n_components=2)
    with pytest.raises(ValueError):
        result.projection[0, 0] = 1.0


def test_standardized_keeps_constant_columns_finite():
    X = np.array([[1.0, 5.0], [3.0, 5.0]])
    np.testing.assert_array_equal(analysis.standardized(X), [[-1.0, 0.0], [1.0, 0.0]])


def test_bounded_store_evicts_oldest_and_computes_once():
    store = compute.BoundedStore(max_entries=2)
    calls = []
    for key in ["a", "b", "a", "c", "a"]:
        store.get_or_compute(key, lambda key=key: calls.append(key) or key.upper())
    assert calls == ["a", "b", "c"]  # "b" was evicted after "c", "a" stayed (recently used)
    assert len(store) == 2 and store.peek("a") and not store.peek("b")


@pytest.mark.parametrize("n", [60, 100, 300])
def test_a_repeated_top_eigenvalue_still_gives_every_component(n):
    # Points far apart with a huge γ: K = I, so K̃ has the eigenvalue 1 (n − 1 times).
    X = np.arange(n, dtype=float)[:, None] * 10
    result = analysis.analyse(X, None, kernel="rbf", kernel_params={"gamma": 10.0}, n_components=3)
    assert result.projection.shape == (n, 3)
    np.testing.assert_allclose(result.eigenvalues[: n - 1], 1.0)
    # Each score column is a unit eigenvector times sqrt(1): unit length, centred.
    np.testing.assert_allclose(np.linalg.norm(result.projection, axis=0), 1.0)
    np.testing.assert_allclose(result.projection.sum(axis=0), 0.0, atol=1e-9)


def test_without_the_spectrum_every_other_field_is_the_same():
    # Issue 50: the first screen of a large view leaves all n eigenvalues for later.
    data = datasets.load("moons", n=300)
    params = {"gamma": 15.0}
    whole = analysis.analyse(data.X, data.y, kernel="rbf", kernel_params=params, n_components=3)
    first = analysis.analyse(data.X, data.y, kernel="rbf", kernel_params=params,
                             n_components=3, spectrum=False)
    assert whole.spectrum_complete and not first.spectrum_complete
    spectral = {"eigenvalues", "eigenvalue_ranks", "negative", "spectrum_complete"}
    for field in dataclasses.fields(whole):
        if field.name in spectral:
            continue
        want, got = getattr(whole, field.name), getattr(first, field.name)
        if isinstance(want, np.ndarray):
            assert got.tobytes() == want.tobytes(), field.name  # the same computation
        else:
            assert got == want, field.name
    np.testing.assert_allclose(first.eigenvalues, whole.eigenvalues[:3], rtol=1e-10)
    assert first.eigenvalue_ranks.tolist() == [1, 2, 3] and not first.negative.any()
