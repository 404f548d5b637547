"""The de-noising experiment: noise models, exact toy reconstructions, and equivalences.

Invariants, not snapshots: every pre-image method recovers a noiseless toy exactly;
each lowers the error of noisy data; the shared decomposition gives what a refit of
scikit-learn's / kpca_core's estimators gives for each m.
"""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.decomposition import PCA

import kpca_core.preimage
from kpca_core import KernelPCA, fixed_point_preimage
from lessons.denoising import experiment as dn


@pytest.fixture(scope="module")
def ring():
    """Points on a circle in a 2-D subspace of R^20 (a noiseless low-rank toy) + noise."""
    rng = np.random.default_rng(0)
    basis = np.linalg.qr(rng.standard_normal((20, 2)))[0].T
    t = rng.uniform(0, 2 * np.pi, 120)
    clean = 2 * np.c_[np.cos(t), np.sin(t)] @ basis
    noisy = clean + 0.3 * rng.standard_normal(clean.shape)
    return clean, noisy


# ------------------------------------------------------------------------ noise


def test_gaussian_noise_has_the_asked_sigma_and_leaves_the_input_alone():
    X = np.zeros((200, 256))
    X.flags.writeable = False
    noisy = dn.add_noise(X, "gaussian", 0.5, seed=3)
    assert noisy.std() == pytest.approx(0.5, rel=0.01)
    assert abs(noisy.mean()) < 0.01
    assert (X == 0).all()
    assert np.array_equal(noisy, dn.add_noise(X, "gaussian", 0.5, seed=3))  # seeded


def test_speckle_sets_a_fraction_p_of_pixels_to_plus_or_minus_one():
    X = np.full((200, 256), 0.25)  # a grey no speckle value can take
    noisy = dn.add_noise(X, "speckle", 0.4, seed=0)
    hit = noisy != 0.25
    assert hit.mean() == pytest.approx(0.4, abs=0.01)
    assert set(np.unique(noisy[hit])) == {-1.0, 1.0}
    assert (noisy[hit] == 1).mean() == pytest.approx(0.5, abs=0.02)
    assert np.array_equal(dn.add_noise(X, "speckle", 0.0, seed=0), X)


@pytest.mark.parametrize(("kind", "level"), [("gaussian", -0.1), ("speckle", 1.5), ("salt", 0.1)])
def test_bad_noise_settings_are_refused(kind, level):
    with pytest.raises(ValueError, match="noise|sigma|probability"):
        dn.add_noise(np.zeros((2, 3)), kind, level, seed=0)


def test_per_class_indices_take_the_same_number_of_each_class():
    y = np.repeat(np.arange(3), [10, 20, 30])
    rows = dn.per_class_indices(y, 5, seed=0)
    assert np.bincount(y[rows]).tolist() == [5, 5, 5]
    assert len(set(rows.tolist())) == 15
    with pytest.raises(ValueError, match="only 10"):
        dn.per_class_indices(y, 11, seed=0)


# -------------------------------------------------------- exact on a noiseless toy


def test_every_method_reconstructs_a_noiseless_low_rank_toy(ring):
    clean, _ = ring
    X = clean[:40]
    fit = dn.fit_denoisers(X, 0.5, 39)  # all n - 1 components: P phi(x_i) = phi(x_i)
    P = dn.kpca_project(fit, X)
    assert np.abs(dn.pca_reconstruct(fit, X, 2) - X).max() < 1e-12  # rank 2
    assert np.abs(dn.learned_preimage(fit, P, 39, alpha=1e-10) - X).max() < 1e-6
    Z, report = dn.fixed_point_denoise(fit, P, 39, X + 0.01)
    assert np.abs(Z - X).max() < 1e-8
    assert report.converged_first == len(X) and report.n_failed == 0
    assert np.abs(dn.kwok_tsang_denoise(fit, P, 39, n_neighbors=5) - X).max() < 1e-8


@pytest.mark.parametrize("method", dn.METHODS)
def test_every_method_lowers_the_error_of_noisy_data(ring, method):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.1, 20)
    Z, _ = dn.reconstruct(fit, method, noisy, None, 8 if method != "pca" else 2,
                          dn.PreimageParams())
    assert dn.mse(Z, clean) < 0.25 * dn.mse(noisy, clean)


# --------------------------------------------- the shared fit equals a refit per m


@pytest.mark.parametrize("m", [1, 3, 10])
def test_pca_reconstruction_is_sklearns_for_each_m(ring, m):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 12)
    pca = PCA(m).fit(clean)
    expected = pca.inverse_transform(pca.transform(noisy))
    assert np.allclose(dn.pca_reconstruct(fit, noisy, m), expected, atol=1e-10)


def test_projections_are_kernel_pcas(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 12)
    kpca = KernelPCA(12, kernel="rbf", gamma=0.5).fit(clean)
    assert np.allclose(dn.kpca_project(fit, noisy), kpca.transform(noisy), atol=1e-10)


@pytest.mark.parametrize("m", [1, 4, 12])
def test_learned_preimage_is_the_estimators_fit_inverse_transform(ring, m):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 12)
    kpca = KernelPCA(m, kernel="rbf", gamma=0.5, fit_inverse_transform=True, alpha=1e-2)
    expected = kpca.fit(clean).inverse_transform(kpca.transform(noisy))
    got = dn.learned_preimage(fit, dn.kpca_project(fit, noisy), m, alpha=1e-2)
    assert np.allclose(got, expected, atol=1e-8)


@pytest.mark.parametrize("m", [2, 12])
def test_kwok_tsang_and_fixed_point_are_the_estimators(ring, m):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 12)
    P = dn.kpca_project(fit, noisy)
    kt = KernelPCA(m, kernel="rbf", gamma=0.5, preimage="kwok_tsang",
                   preimage_params={"n_neighbors": 7}).fit(clean)
    assert np.allclose(dn.kwok_tsang_denoise(fit, P, m, 7),
                       kt.inverse_transform(kt.transform(noisy)), atol=1e-8)
    fp = KernelPCA(m, kernel="rbf", gamma=0.5, preimage="fixed_point").fit(clean)
    expected = fp.inverse_transform(fp.transform(noisy), init=noisy)
    Z, _ = dn.fixed_point_denoise(fit, P, m, noisy, restart=False)  # the estimator's way
    assert np.allclose(Z, expected, atol=1e-8)


# ---------------------------------------------------------------- the fixed point


def test_step_by_step_driver_equals_one_call_of_kpca_core(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 6)
    P = dn.kpca_project(fit, noisy)
    coefs = kpca_core.feature_space_coefficients(
        P, kpca_core.scale_eigenvectors(fit.kpca.eigenvectors, fit.kpca.eigenvalues)
    )
    for max_iter in (3, 100):
        Z, converged, iterations = dn.iterate_fixed_point(
            coefs, clean, 0.5, noisy, max_iter=max_iter, tol=1e-8
        )
        Z_ref, conv_ref = fixed_point_preimage(coefs, clean, 0.5, noisy, max_iter=max_iter,
                                               tol=1e-8)
        assert np.array_equal(Z, Z_ref)
        assert np.array_equal(converged, conv_ref)
        assert iterations.max() <= max_iter and (iterations[~converged] == max_iter).all()


def test_fixed_point_is_one_kernel_evaluation_per_step_for_the_whole_batch(ring, monkeypatch):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 6)
    P = dn.kpca_project(fit, noisy)
    calls = []
    original = kpca_core.preimage.squared_euclidean_distances

    def counting(Z, X):
        calls.append(Z.shape[0])
        return original(Z, X)

    monkeypatch.setattr(kpca_core.preimage, "squared_euclidean_distances", counting)
    _, report = dn.fixed_point_denoise(fit, P, 6, noisy)
    assert len(calls) == report.iterations.max()  # not one call per digit
    assert calls[0] == len(noisy)


def test_fixed_point_reports_failures_instead_of_returning_nan(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 6)
    P = dn.kpca_project(fit, noisy)
    far = noisy + 1e3  # every k(z, x_i) underflows: the update is 0 / 0
    Z, report = dn.fixed_point_denoise(fit, P, 6, far, restart=False)
    assert np.isfinite(Z).all()
    assert report.n_failed == len(noisy) and report.converged_first == 0
    assert np.array_equal(Z, far)  # kept where it was
    # Restarted from the nearest training digit, every one converges.
    Z, report = dn.fixed_point_denoise(fit, P, 6, far)
    assert report.restarted == len(noisy) == report.converged_after_restart
    assert report.n_failed == 0 and np.isfinite(Z).all()
    # Too few steps is a failure too, and says so.
    _, report = dn.fixed_point_denoise(fit, P, 6, noisy, max_iter=1, tol=0.0, restart=False)
    assert report.n_failed == len(noisy) and (report.iterations == 1).all()


def test_kwok_tsang_with_more_neighbours_than_digits_is_a_clear_error(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean[:30], 0.5, 6)
    P = dn.kpca_project(fit, noisy)
    with pytest.raises(ValueError, match=r"between 2 and 30 neighbours.*k = 31"):
        dn.kwok_tsang_denoise(fit, P, 6, n_neighbors=31)


# -------------------------------------------------------------------- the curves


def test_curve_reuses_one_fit_and_marks_the_best_m(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.1, 20)
    grid = dn.m_grid(fit.max_components)
    assert grid == (1, 2, 4, 8, 16, 20)
    steps = []
    curve = dn.method_curve(fit, "fixed_point", clean, noisy, grid,
                            on_step=lambda i, n: steps.append((i, n)))
    assert steps[-1] == (len(grid), len(grid))
    for m, err in zip(grid, curve.errors, strict=True):
        Z, _ = dn.reconstruct(fit, "fixed_point", noisy, None, m, dn.PreimageParams())
        assert err == dn.mse(Z, clean) == dn.mse(curve.reconstructions[m], clean)
    m_best, err_best = curve.best
    assert err_best == curve.errors.min() and curve.errors[grid.index(m_best)] == err_best
    assert set(curve.fixed_point) == set(grid)


def test_m_outside_the_fit_is_refused(ring):
    clean, noisy = ring
    fit = dn.fit_denoisers(clean, 0.5, 5)
    with pytest.raises(ValueError, match="between 1 and 5"):
        dn.pca_reconstruct(fit, noisy, 6)
    with pytest.raises(ValueError, match="between 1 and 119"):
        dn.fit_denoisers(clean, 0.5, 120)


# ------------------------------------------------------------- where the noise goes


@pytest.fixture(scope="module")
def usps_split():
    import datasets
    from tests.support.apptest import usps_available

    if not usps_available():
        pytest.skip("USPS digits not available")
    train = datasets.load("usps", split="train", n=300, seed=0).X
    test = datasets.load("usps", split="test", n=40, seed=0).X
    return np.asarray(train), np.asarray(test), dn.add_noise(test, "gaussian", 0.5, 1)


def test_noise_split_against_an_explicit_numpy_kernel_pca(usps_split):
    """The split of a noisy digit's feature vector (inside the span / on the dropped
    components), recomputed from K with NumPy's dense solver."""
    from sklearn.metrics.pairwise import rbf_kernel

    train, clean, noisy = usps_split
    gamma = dn.PAPER_GAMMA
    fit = dn.fit_denoisers(train, gamma, len(train) - 1)
    split = dn.noise_split(fit, clean, noisy, dn.m_grid(len(train) - 1))
    K = rbf_kernel(train, gamma=gamma)
    n = len(train)
    H = np.eye(n) - 1.0 / n
    mu, V = np.linalg.eigh(H @ K @ H)
    mu, V = mu[::-1][: n - 1], V[:, ::-1][:, : n - 1]

    def coordinates(X):
        rows = rbf_kernel(X, train, gamma=gamma)
        centred = rows - rows.mean(axis=1, keepdims=True) - K.mean(axis=0) + K.mean()
        norms = 1 - 2 * rows.mean(axis=1) + K.mean()
        return centred @ V / np.sqrt(mu), norms

    (yc, nc), (yn, nn) = coordinates(clean), coordinates(noisy)
    assert split.outside_clean == pytest.approx(np.mean(1 - (yc**2).sum(1) / nc), abs=1e-6)
    assert split.outside_noisy == pytest.approx(np.mean(1 - (yn**2).sum(1) / nn), abs=1e-6)
    for m, noise, digit in zip(split.m_values, split.dropped_noise, split.dropped_digit,
                               strict=True):
        assert noise == pytest.approx(((yn - yc)[:, m:] ** 2).sum(1).mean(), rel=1e-6, abs=1e-9)
        assert digit == pytest.approx((yc[:, m:] ** 2).sum(1).mean(), rel=1e-6, abs=1e-9)


def test_at_the_papers_width_dropping_components_removes_more_digit_than_noise(usps_split):
    """Issue 33: why the kernel curve is best with all components at γ = 1/128, and why a
    wider kernel (c = twice the average variance) has an interior optimum, as the paper."""
    train, clean, noisy = usps_split
    m_values = dn.m_grid(len(train) - 1)
    narrow = dn.noise_split(dn.fit_denoisers(train, dn.PAPER_GAMMA, len(train) - 1),
                            clean, noisy, m_values)
    assert not narrow.drop_helps.any()
    assert narrow.outside_noisy > narrow.outside_clean + 0.2  # noise leaves the span
    wide_gamma = dn.twice_variance_gamma(train) / 2  # wider still on 300 digits
    wide = dn.noise_split(dn.fit_denoisers(train, wide_gamma, len(train) - 1),
                          clean, noisy, m_values)
    assert wide.drop_helps.any()
