"""What a first view of built-in data computes that only the data and the code decide,
computed once and shipped with the code (issue 50).

A fresh Explorer view spends most of its CPU on teaching aids, not on kernel PCA
(docs/load.md, "Where a fresh view's CPU goes"): the γ search (0.3–1 s, once per dataset
× kernel), the verdict's trial at the γ on screen (one more kernel PCA of the search's
sample) and the cross-validated scores under the projections (three logistic regressions,
5 folds each). For the built-in data sets at their default options these depend on
nothing but the data, the kernel and the code, so ``scripts/ship_guidance.py`` computes
them once, at every γ of the sidebar's grid, into :data:`PATH`, and a server reads them
instead (a container that wakes with empty caches has a class arriving).

What the file holds, per data set (:func:`data_entry`): a fingerprint of the inputs and
labels; each kernel's reference γ; linear PCA's score; and per kernel (its parameters
other than γ) the γ search's numbers (:func:`search_entry`) and, at each γ of the grid,
the scores of kernel PCA's components 1–2 and 1 alone and the verdict's trial when the
search did not try that γ (:func:`view_entry`).

A shipped number is used only where everything it was computed from is the same:

* the data: the fingerprint (SHA-256 of the arrays the kernel sees) is compared once
  per process with the arrays the page loaded (another USPS file, another scikit-learn's
  ``make_moons``: everything computed as without the file);
* the settings: the kernel's other parameters exactly, and γ exactly a value of the grid
  (another γ still reads the search, and computes the verdict's trial);
* for a score, the coordinates: the page's own columns (:func:`column_checks`, to
  :data:`COLUMN_TOLERANCE`). Where they differ (K ≈ I at a huge γ: components 1–2 are
  any two of n − 1 equal directions, chosen by the eigensolver's rounding) the score is
  computed from what is drawn, so a caption always describes the picture beside it.

The code itself is not checked when the app runs: ``tests/experiments/test_shipped.py``
recomputes entries and compares them with the file, so a change to the code that makes
them fails there until the script is run again.

Pure functions of arrays and plain values (no Streamlit): ``shell.caches.shipped_for``
hands a page the entry of its data.
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import json
import logging
import math
import threading
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np
from threadpoolctl import threadpool_limits

from experiments import gamma_guidance
from experiments.analysis import analyse
from experiments.gamma_guidance import Search, Trial
from experiments.sampling import stratified_rows
from experiments.separability import linear_separability

PATH = Path(__file__).with_name("shipped.json")
# Kernel PCA's columns whose scores are shipped: components 1–2 (the charts' default axes)
# and component 1 alone (the caption's "component 1 alone already separates"); linear
# PCA's components 1–2.
TWO, FIRST = (0, 1), (0,)
# Two computations of the same components agree to about 1e-13 (threads, another CPU);
# components that are not determined by the data (equal eigenvalues) differ by O(1).
COLUMN_TOLERANCE = 1e-6
# The trial's fields in the file, in order (a list per trial keeps the file small).
TRIAL_FIELDS = tuple(f.name for f in dataclasses.fields(Trial))
# Fields that are always a float: NaN there is written as null (strict JSON).
_FLOAT_FIELDS = {f.name for f in dataclasses.fields(Trial) if f.type == "float"}
_LOG = logging.getLogger(__name__)


# --------------------------------------------------------------------------- fingerprints


def data_fingerprint(X: np.ndarray, y: np.ndarray | None) -> str:
    """SHA-256 of the inputs and labels (dtype, shape and bytes): equal data, equal text."""
    digest = hashlib.sha256()
    for array in (X, y):
        if array is None:
            digest.update(b"no labels")
            continue
        array = np.ascontiguousarray(array)
        digest.update(f"{array.dtype.str}{array.shape}".encode())
        digest.update(array.tobytes())
    return digest.hexdigest()


@functools.lru_cache(maxsize=8)
def _probe(n: int) -> np.ndarray:
    probe = np.random.default_rng(0).standard_normal(n)
    probe.setflags(write=False)
    return probe


def column_checks(Z: np.ndarray) -> list[list[float]]:
    """Per column of ``Z``: its norm and the size of its inner product with a fixed random
    vector, to 10 significant digits (far inside COLUMN_TOLERANCE). The same for the same
    column up to its sign (which no score depends on), and different for another
    direction."""
    probe = _probe(len(Z))
    return [[float(f"{np.linalg.norm(z):.10g}"), float(f"{abs(probe @ z):.10g}")]
            for z in np.asarray(Z).T]


def same_columns(checks: Sequence[Sequence[float]], Z: np.ndarray) -> bool:
    """Whether ``Z``'s columns are those ``checks`` were taken of (to COLUMN_TOLERANCE of
    the largest value either check can take)."""
    Z = np.asarray(Z)
    if Z.ndim != 2 or Z.shape[1] != len(checks):
        return False
    bound = float(np.linalg.norm(_probe(len(Z))))
    for (norm, inner), (got_norm, got_inner) in zip(checks, column_checks(Z), strict=True):
        if abs(got_norm - norm) > COLUMN_TOLERANCE * norm:
            return False
        if abs(got_inner - inner) > COLUMN_TOLERANCE * norm * bound:
            return False
    return True


# --------------------------------------------------------------------------- keys


def data_key(dataset: str, options: Mapping | Sequence, standardize: bool) -> tuple:
    """How the file names a data set: its name, all its options sorted, standardised."""
    items = options.items() if isinstance(options, Mapping) else options
    return dataset, tuple(sorted((str(k), v) for k, v in items)), bool(standardize)


def kernel_key(kernel: str, params: Mapping) -> tuple:
    """How the file names a kernel: its name and its parameters other than γ, sorted."""
    return kernel, tuple(sorted((k, v) for k, v in params.items() if k != "gamma"))


# --------------------------------------------------------------------------- trials


def trial_to_list(trial: Trial) -> list:
    return [None if name in _FLOAT_FIELDS and math.isnan(value) else value
            for name, value in ((n, getattr(trial, n)) for n in TRIAL_FIELDS)]


def trial_from_list(values: Sequence) -> Trial:
    return Trial(**{name: math.nan if name in _FLOAT_FIELDS and value is None else value
                    for name, value in zip(TRIAL_FIELDS, values, strict=True)})


# --------------------------------------------------------------------------- computing


def search_entry(found: Search | None) -> dict | None:
    """What a :func:`experiments.gamma_guidance.search` holds besides its sample (the rows
    and linear PCA's plane, which :meth:`Shipped.search` draws again from the data)."""
    if found is None:
        return None
    return {"linear_score": found.linear_score, "gamma_matters": found.gamma_matters,
            "sweeps_degree": found.sweeps_degree,
            "trials": [trial_to_list(t) for t in found.trials]}


def view_entry(X: np.ndarray, y: np.ndarray | None, *, kernel: str, kernel_params: dict,
               found: Search | None, n_components: int) -> tuple[dict, np.ndarray]:
    """One γ's numbers as the Explorer computes them: its analysis
    (:func:`experiments.analysis.analyse`, ``n_components`` as the page asks), the scores
    of components 1–2 and 1 alone on all points, and the verdict's trial unless the search
    tried this γ. Returns the entry and linear PCA's projection (the same at every γ)."""
    result = analyse(X, y, kernel=kernel, kernel_params=kernel_params,
                     n_components=n_components)
    Z = result.projection
    entry = {"gamma": kernel_params.get("gamma"),
             "two": linear_separability(Z[:, TWO], y),
             "first": linear_separability(Z[:, FIRST], y),
             "columns": column_checks(Z[:, TWO])}
    if found is not None and gamma_guidance.tried_at(found, kernel_params) is None:
        entry["trial"] = trial_to_list(
            gamma_guidance.trial_at(found, X, y, kernel_params=kernel_params))
    return entry, result.pca_projection


def linear_entry(pca_projection: np.ndarray, y: np.ndarray | None) -> dict:
    """Linear PCA's score on its components 1–2 (it depends on the data alone)."""
    return {"two": linear_separability(pca_projection[:, TWO], y),
            "columns": column_checks(pca_projection[:, TWO])}


# --------------------------------------------------------------------------- reading


def table(path: Path | None = None) -> dict[tuple, dict]:
    """The file's data sets by :func:`data_key` (empty without the file: then everything
    is computed, as before it existed). Read once per process."""
    return _read(path or PATH)


@functools.cache
def _read(path: Path) -> dict[tuple, dict]:
    try:
        text = path.read_text(encoding="utf-8")
    except FileNotFoundError:
        return {}
    return {data_key(entry["dataset"], entry["options"], entry["standardize"]): entry
            for entry in json.loads(text)["data"]}


_checked: dict[tuple, Shipped | None] = {}
_lock = threading.Lock()


def ships(dataset: str, options, standardize: bool, path: Path | None = None) -> bool:
    """Whether the file holds this data set at these options (no arrays needed)."""
    return data_key(dataset, options, standardize) in table(path)


def for_data(dataset: str, options, standardize: bool, X: np.ndarray,
             y: np.ndarray | None, path: Path | None = None) -> Shipped | None:
    """The shipped results of these data, or None when the file does not hold them or
    holds them for other arrays (checked once per process and data set)."""
    key = data_key(dataset, options, standardize)
    entry = table(path).get(key)
    if entry is None:
        return None
    with _lock:
        if (key, path) in _checked:
            return _checked[key, path]
    same = data_fingerprint(X, y) == entry["fingerprint"]
    if not same:
        _LOG.warning("%s: the shipped results were computed from other data; computing "
                     "them instead", key)
    shipped = Shipped(entry, X, y) if same else None
    with _lock:
        return _checked.setdefault((key, path), shipped)


class Shipped:
    """The shipped results of one data set, whose arrays matched the fingerprint."""

    def __init__(self, entry: dict, X: np.ndarray, y: np.ndarray | None) -> None:
        self.entry = entry
        self.X, self.y = X, y
        self._kernels = {kernel_key(k["kernel"], k["params"]): k for k in entry["kernels"]}
        self._views = {key: {v["gamma"]: v for v in k["views"]}
                       for key, k in self._kernels.items()}
        self._searches: dict[tuple, Search] = {}
        self._lock = threading.Lock()

    def reference(self, kernel: str) -> float | None:
        """The kernel's reference γ for these data (None: not shipped, or no γ)."""
        return self.entry["references"].get(kernel)

    def search(self, kernel: str, kernel_params: Mapping) -> Search | None:
        """The γ search of these data for this kernel (its parameters other than γ), as
        :func:`experiments.gamma_guidance.search` computes it; None when not shipped."""
        key = kernel_key(kernel, kernel_params)
        stored = self._kernels.get(key, {}).get("search")
        if stored is None:
            return None
        with self._lock:
            found = self._searches.get(key)
        if found is None:
            found = self._restore(kernel, kernel_params, stored)
            with self._lock:
                found = self._searches.setdefault(key, found)
        return found

    def _restore(self, kernel: str, kernel_params: Mapping, stored: dict) -> Search:
        # The sample and linear PCA's plane on it, drawn as the search draws them.
        X = np.asarray(self.X, dtype=np.float64)
        y = None if self.y is None else np.asarray(self.y)
        rows = stratified_rows(len(X), y, gamma_guidance.SAMPLE_SIZE, 0)
        with threadpool_limits(limits=gamma_guidance.BLAS_THREADS, user_api="blas"):
            plane = gamma_guidance.linear_plane(X[rows])
        return Search(
            kernel=kernel,
            fixed_params={k: v for k, v in kernel_params.items() if k != "gamma"},
            rows=rows,
            n_total=len(X),
            reference=self.reference(kernel),
            trials=tuple(trial_from_list(t) for t in stored["trials"]),
            linear_score=stored["linear_score"],
            linear_plane=plane,
            sweeps_degree=stored["sweeps_degree"],
            gamma_matters=stored["gamma_matters"],
        )

    def _view(self, kernel: str, kernel_params: Mapping) -> dict | None:
        views = self._views.get(kernel_key(kernel, kernel_params))
        return None if views is None else views.get(kernel_params.get("gamma"))

    def trial(self, kernel: str, kernel_params: Mapping) -> Trial | None:
        """The verdict's trial at these parameters when the search did not try them and γ
        is a value of the grid (else None: the search's own trial, or computed)."""
        view = self._view(kernel, kernel_params)
        if view is None or "trial" not in view:
            return None
        return trial_from_list(view["trial"])

    def score(self, kernel: str | None, kernel_params: Mapping, columns: Sequence[int],
              Z: np.ndarray) -> float | None:
        """The cross-validated score of ``Z``, kernel PCA's ``columns`` for this kernel
        (``kernel`` None: linear PCA's), when shipped and ``Z`` holds the very
        coordinates it was computed from; else None."""
        columns = tuple(columns)
        if kernel is None:
            found = self.entry["linear"] if columns == TWO else None
            checks = None if found is None else found["columns"]
        else:
            found = self._view(kernel, kernel_params)
            checks = None if found is None else found["columns"][: len(columns)]
        if found is None or columns not in (TWO, FIRST) or found["two"] is None:
            return None
        if not same_columns(checks, Z):
            return None
        return found["two"] if columns == TWO else found["first"]
