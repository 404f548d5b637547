"""The Explorer's first view at given settings, computed ahead: for the tour's step
(``lecture_pack.ahead``) and for a lab, at every setting a student reaches from the
defaults by moving γ (:func:`start_lab`)."""

from __future__ import annotations

import dataclasses
import math
from functools import partial

import datasets
from experiments.kernel_diagnostics import GAMMA_KERNELS
from lessons.common import gamma_hint
from lessons.common.analysis import first_screen_analysis
from lessons.explorer.projections import first_alone, separability_scores, shown_score
from lessons.explorer.view_link import FIRST_AXES
from server import ahead, shared_cache
from shell.caches import filling_shared_cache, inputs_of, load_data, reference_gamma_for
from shell.sidebar import with_valid_components
from shell.state import Settings, dataset_gamma, default_options, format_gamma
from words.kernel_params import GAMMA_GRID

LAB_PLAN = "lab"
# The prefill evicts nothing (server/shared_cache.py): the plan stops short of its bound,
# having stored the settings nearest the defaults first.
FILL_UP_TO = 0.9


def prepare(settings: Settings) -> None:
    """The analysis, the scores under the projections and the γ hint, as the page asks."""
    inputs = inputs_of(settings)
    data = load_data(settings.dataset, settings.dataset_options)
    settings = with_valid_components(settings, len(inputs.X))
    result = first_screen_analysis(inputs, settings.kernel_key, settings.n_components)
    columns = [axis - 1 for axis in FIRST_AXES]
    if separability_scores(result, data, settings, columns, columns) is not None:
        first_alone(result, data, settings, columns[0])
    gamma_hint.guidance(inputs, settings.kernel_key, shown_score(result, data, settings))


def _loadable(dataset: str) -> bool:
    try:
        datasets.load(dataset, **dict(default_options(dataset)))
    except (ValueError, OSError, datasets.UspsUnavailableError):
        return False  # the USPS digits not reachable: the page says so when opened
    return True


def lab_settings() -> list[Settings]:
    """Every built-in dataset (default options) × kernel × γ of the sidebar's grid (the
    other parameters at their defaults), nearest the dataset's own γ first: a lab starts
    from a dataset's default and moves γ a few steps at a time."""
    found = []
    for dataset in datasets.available():
        if not _loadable(dataset):
            continue
        base = Settings(dataset=dataset, dataset_options=default_options(dataset))
        for kernel in ("linear", *sorted(GAMMA_KERNELS)):
            settings = dataclasses.replace(base, kernel=kernel)
            if kernel not in GAMMA_KERNELS:
                found.append((0.0, settings))
                continue
            centre = (dataset_gamma(dataset, kernel)
                      or reference_gamma_for(settings.data_key, kernel) or 1.0)
            found += [(abs(math.log10(gamma / centre)),
                       dataclasses.replace(settings, gamma=gamma)) for gamma in GAMMA_GRID]
    return [settings for _, settings in sorted(found, key=lambda pair: pair[0])]


def label(settings: Settings) -> str:
    gamma = f" γ={format_gamma(settings.gamma)}" if settings.kernel in GAMMA_KERNELS else ""
    return f"{settings.dataset} {settings.kernel}{gamma}"


def fill_one(settings: Settings) -> bool:
    """One lab setting's first view into the shared cache's prefill, unless it is there,
    another process of the machine is on it, or the prefill is nearly full; True if
    computed."""
    done = f"lab done|{label(settings)}"
    if (shared_cache.get(shared_cache.disk_key(fill_one, done)) is not shared_cache.MISSING
            or shared_cache.fullness() >= FILL_UP_TO
            or not shared_cache.claim(label(settings))):
        return False
    with filling_shared_cache():
        prepare(settings)
        shared_cache.put(shared_cache.disk_key(fill_one, done), True)
    return True


def start_lab() -> ahead.Plan | None:
    """Fill the machine's shared cache with every lab setting's first view, in the
    background after every student's work (once per server process; replicas split the
    settings). Only where the host asks for it (``KPCA_FILL_SHARED_CACHE=1``, as
    deploy/replicas.py does), and nothing without a shared cache: the process's own stores
    hold a dozen views, and filling them would only push out the ones students are on."""
    if (not ahead.enabled() or not shared_cache.fill_at_start()
            or shared_cache.prefill_cache() is None):
        return None
    return ahead.prepare(LAB_PLAN, _lab_jobs, background=True)


def _lab_jobs() -> list[tuple[str, partial]]:
    """The lab's settings as jobs of the plan, once the other versions' prefills are gone
    (on the plan's own thread: removing a directory of a gigabyte takes a while)."""
    shared_cache.drop_stale_prefills()
    return [(label(s), partial(fill_one, s)) for s in lab_settings()]
