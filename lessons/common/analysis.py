"""The Explorer's analysis of the current view, cached: K, K̃, the spectrum and the
projections (:func:`experiments.analysis.analyse`), shared by the Explorer and How it
works, computed once per settings in the server's queue."""

from __future__ import annotations

from experiments import analysis
from experiments.analysis import DENSE_MAX_N, ITERATIVE_TOP, Analysis, ProgressCallback, analyse
from server import costs
from server.admission import queued
from shell.caches import Inputs, bounded_cache
from shell.state import KernelKey
from words.i18n import N_


def spectrum_at_once(n: int, kernel: KernelKey) -> bool:
    """Whether the first screen's analysis computes all n eigenvalues
    (:func:`experiments.analysis.spectrum_at_once`)."""
    return analysis.spectrum_at_once(n, kernel.kernel, kernel.kernel_params())


def analysis_is_cached(inputs: Inputs, kernel: KernelKey, n_components: int) -> bool:
    """Whether the first screen's analysis is cached (:func:`first_screen_analysis`)."""
    return explorer_analysis.cached(inputs, kernel, n_components,
                                    spectrum_at_once(len(inputs.X), kernel)) is not None


def first_screen_analysis(inputs: Inputs, kernel: KernelKey, n_components: int,
                          on_progress: ProgressCallback | None = None) -> Analysis:
    """What the Explorer's first screen draws: all n eigenvalues only when they are cheap
    or the first screen needs them (:func:`spectrum_at_once`)."""
    return explorer_analysis(inputs, kernel, n_components,
                             spectrum_at_once(len(inputs.X), kernel), on_progress=on_progress)


def complete_analysis(inputs: Inputs, kernel: KernelKey, n_components: int) -> Analysis:
    """With the whole spectrum (the Explorer's spectrum step and take-home files): the
    first screen's own when it has it."""
    return explorer_analysis(inputs, kernel, n_components, True)


# Each entry is small (heatmaps ≤ 500², n × k scores, n eigenvalues): ~5 MB at most.
@bounded_cache(max_entries=12, ignore=("on_progress",), shared=True)
def explorer_analysis(inputs: Inputs, kernel: KernelKey, n_components: int,
                      spectrum: bool = True,
                      on_progress: ProgressCallback | None = None) -> Analysis:
    # Big requests (the full USPS) take turns on the shared server; small ones never
    # wait (server.admission). Up to DENSE_MAX_N the full spectrum needs a working copy.
    n, d = inputs.X.shape
    dense = n <= DENSE_MAX_N
    # As analyse does it: K, centred, then the dense solver and the whole spectrum (or
    # only the leading k: ARPACK or LAPACK as kpca_core chooses), or ARPACK's leading
    # ITERATIVE_TOP (a lower bound: its restarts depend on the spectrum).
    if dense and not spectrum:
        estimate = costs.kernel_pca(n, d, n_components)
    else:
        estimate = costs.kernel_pca(n, d, max(n_components, ITERATIVE_TOP),
                                    solver="dense" if dense else "arpack", spectrum=dense)
    with queued(n, copies=2 if dense else 1, estimate=estimate, what=N_("this kernel PCA")):
        return analyse(
            inputs.X,
            inputs.y,
            kernel=kernel.kernel,
            kernel_params=kernel.kernel_params(),
            n_components=n_components,
            on_progress=on_progress,
            spectrum=spectrum,
        )
