"""The Explorer's analysis of the current view, cached: K, K̃, the spectrum and the
projections (:func:`experiments.analysis.analyse`), shared by the Explorer and How it
works, computed once per settings in the server's queue."""

from __future__ import annotations

from experiments.analysis import DENSE_MAX_N, ITERATIVE_TOP, Analysis, ProgressCallback, analyse
from shell import costs
from shell.admission import queued
from shell.caches import bounded_cache, inputs, load_data
from shell.state import Settings


def analysis_is_cached(settings: Settings) -> bool:
    return explorer_analysis.cached(settings) is not None


# Each entry is small (heatmaps ≤ 500², n × k scores, n eigenvalues): ~5 MB at most.
@bounded_cache(max_entries=12, ignore=("on_progress",))
def explorer_analysis(settings: Settings, on_progress: ProgressCallback | None = None) -> Analysis:
    data = load_data(settings.dataset, settings.dataset_options)
    X = inputs(settings)
    # Big requests (the full USPS) take turns on the shared server; small ones never
    # wait (shell.admission). Up to DENSE_MAX_N the full spectrum needs a working copy.
    n, d = X.shape
    dense = n <= DENSE_MAX_N
    # As analyse does it: K, centred, then the dense solver and the whole spectrum, or
    # ARPACK's leading ITERATIVE_TOP (a lower bound: its restarts depend on the spectrum).
    estimate = costs.kernel_pca(n, d, max(settings.n_components, ITERATIVE_TOP),
                                solver="dense" if dense else "arpack", spectrum=dense)
    with queued(n, copies=2 if dense else 1, estimate=estimate, what="this kernel PCA"):
        return analyse(
            X,
            data.y,
            kernel=settings.kernel,
            kernel_params=settings.kernel_params(),
            n_components=settings.n_components,
            on_progress=on_progress,
        )
