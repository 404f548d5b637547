"""The de-noising page's computations: its settings, and the cached stores behind it.

The computations are :mod:`lessons.denoising.experiment` (the same code the benchmark script
runs); this module keys them by small hashable settings and keeps them in bounded
stores held by ``st.cache_resource`` (results are read-only and shared, never copied per
rerun, and a first computation can drive a progress bar). Every heavy step takes its turn
in the server's queue (``server.admission``) with its own estimate: the kernel PCA fit, and
each pre-image method at each m (the fixed point at the largest settings burns both cores
for over a minute: one turn per m lets other students' work in between).
The controls and the sections that draw the results are :mod:`lessons.denoising.view`.
"""

from __future__ import annotations

import json
from contextlib import nullcontext
from pathlib import Path

import numpy as np
import streamlit as st
from threadpoolctl import threadpool_limits

from lessons.denoising import experiment as dn
from lessons.denoising.sections import (  # noqa: F401  (the page's settings, read from here)
    DEFAULT_M,
    DEFAULT_N_TRAIN,
    DEFAULT_TEST_PER_CLASS,
    DenoisingSettings,
    noisy_digits,
    testing_digits,
    training_digits,
)
from server import costs
from server.admission import queued, taking_turn
from server.memory import matrix_bytes
from shell.caches import bounded_cache
from words.i18n import N_, _, format_number

STORE = Path(__file__).resolve().parent / "results" / "mika1999.json"
# n × n matrices kept by the kernel PCA fit (experiments.kpca_steps.KpcaFit) when every
# m up to n − 1 is on the grid: the eigenvectors of K̃, α and the training digits'
# coordinates, n × (n − 1) each; K (centred in place) is freed before the last two are
# made. The fit is cached, and the learned pre-image then solves (K_B + αI) in place,
# measured at 1.4 n × n (lessons.denoising.experiment.learned_preimage): 4.4 at the
# page's peak.
FIT_COPIES = 3.0
PEAK_COPIES = 4.5
PIXELS = 256
# Steps of the fixed point per test digit and m, measured: 13-24 (median 16) at 1,000 and
# 2,000 training digits, Gaussian σ = 0.5 and 1.5 and speckle noise, budgets of 100 and
# 500 steps; the budget is rarely reached, so the estimate does not grow with it (and says
# "at least": a start that does not converge runs to the budget).
FIXED_POINT_STEPS = 16


@st.cache_resource(max_entries=4, show_spinner=False)
def train_digits(n_train: int, seed: int) -> np.ndarray:
    """A seeded subset of the training digits, each class in proportion (read-only)."""
    return training_digits(n_train, seed)


@st.cache_resource(max_entries=4, show_spinner=False)
def test_digits(test_per_class: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """The same number of test digits of every class, sorted by class (read-only)."""
    X, y = testing_digits(test_per_class, seed)
    X.setflags(write=False)
    return X, y


# An entry: PCA and kernel PCA with all n − 1 components and their copy of the training
# digits (3,000: 3 × 72 MB of eigenvectors, α and coordinates + 6 MB of digits).
@bounded_cache(max_entries=2)
def fitted(fit_key: tuple) -> dn.DenoisingFit:
    """PCA and kernel PCA fitted once with the largest m (the whole grid reuses it)."""
    n_train, seed, gamma, max_components, noise = fit_key
    X_train = train_digits(n_train, seed)
    if noise is not None:
        X_train = dn.add_noise(X_train, *noise, seed=seed + 1)
    # K, centred in place, then its n − 1 eigenvectors, α and the training coordinates.
    with queued(n_train, copies=FIT_COPIES, estimate=fit_estimate(n_train, max_components),
                what=N_("kernel PCA of the training digits")):
        return dn.fit_denoisers(X_train, gamma, max_components)


def fit_estimate(n_train: int, max_components: int) -> costs.Estimate:
    """K of the training digits, its centring, the leading eigenpairs, and linear PCA."""
    return (costs.kernel_pca(n_train, PIXELS, max_components, solver="dense")
            + costs.matrix_product(n_train, PIXELS, PIXELS))


def preimage_work(settings: DenoisingSettings, method: str, m: int,
                  first: bool) -> tuple[int, costs.Estimate]:
    """(bytes, estimate) of one pre-image method at one m for the test digits.

    ``first``: the kernel between test and training digits and the projections on every
    axis are computed with it. The learned pre-image solves an n × n ridge system in
    place (PEAK_COPIES − FIT_COPIES beside the cached fit); the fixed point evaluates the
    test × training kernel once per step (:data:`FIXED_POINT_STEPS`); Kwok–Tsang needs
    feature-space distances only.
    """
    n, t = settings.n_train, 10 * settings.test_per_class
    work = costs.NOTHING
    held = matrix_bytes(t, n, copies=2)
    if first:
        work += (costs.kernel_matrix(t, n, PIXELS)
                 + costs.matrix_product(t, n, settings.max_components))
    if method == "learned":
        work += (costs.kernel_matrix(n, n, m) + costs.solve_dense(n, PIXELS)
                 + costs.kernel_matrix(t, n, m) + costs.matrix_product(t, n, PIXELS))
        held = max(held, matrix_bytes(n, copies=PEAK_COPIES - FIT_COPIES))
    elif method == "fixed_point":
        steps = min(settings.params.max_iter, FIXED_POINT_STEPS)
        one_step = costs.kernel_matrix(t, n, PIXELS) + costs.matrix_product(t, n, PIXELS)
        # The steps each start takes are not known in advance: a lower bound.
        work += (costs.matrix_product(t, m, n) + one_step * steps).lower_bound()
        held = matrix_bytes(t, n, copies=3)
    elif method == "kwok_tsang":
        work += costs.matrix_product(t, m, n)
    return held, work


def _preimage_turns(settings: DenoisingSettings, method: str):
    """A turn in the server's queue for each m of a pre-image method (none for PCA: a
    product of test digits with 256 × 256 matrices, never worth a ticket)."""
    if method == "pca":
        return lambda m: nullcontext()
    first = [True]

    def turn(m: int):
        n_bytes, estimate = preimage_work(settings, method, m, first[0])
        first[0] = False
        return taking_turn(n_bytes, estimate=estimate,
                           what=f"{dn.METHOD_TITLES[method]} at m = {m}")

    return turn


@st.cache_resource(max_entries=8, show_spinner=False)
def noisy_test(test_key: tuple, noise_key: tuple) -> np.ndarray:
    X = noisy_digits(test_digits(*test_key)[0], test_key, noise_key)
    X.setflags(write=False)
    return X


# One entry: a method's reconstructions at every m (at most 500 digits × 256 pixels × 13 m
# ≈ 13 MB); the first computation drives a progress bar that lives outside it.
@bounded_cache(max_entries=8, ignore=("on_step",))
def curve(settings: DenoisingSettings, method: str, on_step=None) -> dn.MethodCurve:
    """One method's reconstructions and MSE for every m (keyed by what it depends on)."""
    fit = fitted(settings.fit_key)
    X_clean = test_digits(*settings.test_key)[0]
    X_noisy = noisy_test(settings.test_key, settings.noise_key)
    result = dn.method_curve(fit, method, X_clean, X_noisy, dn.m_grid(fit.max_components),
                             settings.params, on_step=on_step,
                             turn=_preimage_turns(settings, method))
    for Z in result.reconstructions.values():
        Z.setflags(write=False)
    return result


def curve_settings(settings: DenoisingSettings, method: str) -> DenoisingSettings:
    """Drop what a method does not depend on, so e.g. changing α keeps the other curves."""
    defaults = dn.PreimageParams()
    p = settings.params
    params = dn.PreimageParams(
        alpha=p.alpha if method == "learned" else defaults.alpha,
        n_neighbors=p.n_neighbors if method == "kwok_tsang" else defaults.n_neighbors,
        max_iter=p.max_iter if method == "fixed_point" else defaults.max_iter,
    )
    return DenoisingSettings(
        n_train=settings.n_train, test_per_class=settings.test_per_class, seed=settings.seed,
        noise=settings.noise, level=settings.level, fit_on_noisy=settings.fit_on_noisy,
        gamma=settings.gamma, params=params,
    )


@bounded_cache(max_entries=8)  # two floats an entry
def clean_reconstruction(settings: DenoisingSettings) -> tuple[float, float]:
    """MSE of reconstructing the *clean* test digits at m: (PCA, the chosen KPCA)."""
    fit = fitted(settings.fit_key)
    X_clean = test_digits(*settings.test_key)[0]
    with threadpool_limits(limits=dn.BLAS_THREADS, user_api="blas"):
        Z_pca, _ = dn.reconstruct(fit, "pca", X_clean, None, settings.m, settings.params)
        with _preimage_turns(settings, settings.method)(settings.m):
            Z_kpca, _ = dn.reconstruct(fit, settings.method, X_clean, None, settings.m,
                                       settings.params)
    return dn.mse(Z_pca, X_clean), dn.mse(Z_kpca, X_clean)


@bounded_cache(max_entries=8)  # two floats and 2 × 13 an entry
def noise_split(settings: DenoisingSettings) -> dn.NoiseSplit:
    """Where the projection puts the test digits' noise (:func:`dn.noise_split`)."""
    fit = fitted(settings.fit_key)
    X_clean = test_digits(*settings.test_key)[0]
    X_noisy = noisy_test(settings.test_key, settings.noise_key)
    return dn.noise_split(fit, X_clean, X_noisy, dn.m_grid(fit.max_components))


def compute_all(settings: DenoisingSettings) -> dict[str, dn.MethodCurve]:
    """Every method's curve, with a progress bar while anything is computed."""
    bar = st.progress(0.0, text=_("Fitting PCA and kernel PCA once for every m…"))
    fitted(settings.fit_key)
    curves = {}
    for i, method in enumerate(dn.METHODS):
        def step(done, total, i=i, method=method):
            fraction = (i + done / total) / len(dn.METHODS)
            bar.progress(fraction, text=_("{method}: m {done} of {total}").format(
                method=_(dn.METHOD_TITLES[method]), done=format_number(done),
                total=format_number(total)))

        curves[method] = curve(curve_settings(settings, method), method, on_step=step)
    bar.empty()
    return curves


def stored_result() -> dict | None:
    """The benchmark script's stored run of the paper's setting, if the file is there."""
    try:
        return json.loads(STORE.read_text())
    except (OSError, ValueError):
        return None
