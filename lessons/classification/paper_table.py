"""Table 1 of Schölkopf, Smola & Müller (1998), cell by cell.

The experiment (section 4.2 of the paper): the polynomial kernel k(x, y) = (x·y)^d
(``kernel="poly", gamma=1, coef0=0``) for d = 1 … 7; kernel PCA fitted on 3,000 USPS
training images; the first 32, 64, …, 2048 components extracted for all 7,291 training
and 2,007 test images; a linear SVM trained on the 7,291 and tested on the 2,007.

How we run it:

* **One decomposition per degree.** Kernel PCA is fitted once with the largest k and
  every smaller k takes the first k columns (:mod:`lessons.classification.experiment`).
* **A disk cache per degree** (``$KPCA_CACHE_DIR/table1``, default
  ``~/.cache/kpca-lab/table1``, outside the repository): the projections of all 9,298
  images, stored as float32, so a re-run skips the decomposition. Fresh projections are
  rounded to float32 too, so a cached and a fresh run give the same table.
* **The SVM setup** (the paper does not state C, the multi-class scheme or any
  scaling): scikit-learn's ``LinearSVC`` — squared hinge loss, L2 penalty,
  one-vs-rest, liblinear — on the components divided by one global factor
  (:class:`~lessons.classification.experiment.RmsScaler`), with C chosen from
  :data:`~lessons.classification.experiment.C_GRID` on a stratified 20 % validation split of
  the 7,291 training images, then refitted on all 7,291. The test set is never used
  to choose anything. By default C is chosen once per degree, on the first
  :data:`C_SELECT_COMPONENTS` components, and used for every k of that degree
  (``C_select_k=None`` chooses per cell: one SVM fit per C plus the refit, instead of
  one fit; with four values of C a 2048-component cell took 6–8 minutes that way on the
  shared 2-core machine, against 1.5–2.5 minutes).
* **Which 3,000.** The paper does not say which training images it fitted on; we take
  a stratified, seeded subset (``datasets.usps.stratified_indices``).

What we found (full runs: ``lessons/classification/results/table1.json``, one-vs-rest, the
table the page shows; ``table1_ovo.json``, one-vs-one), against every cell of the paper:

* **One-vs-rest: 20 of 46 cells within ±0.7 points.** Row d = 1 (linear PCA, within
  +0.6) and the raw-pixel baseline (8.5 % against the paper's 8.9 %) agree, and so do
  most cells from 256 components up for d ≤ 4. Our errors are higher at 32–128
  components for d ≥ 2, increasingly with d (+2.5 to +2.9 points at 32–64 components
  for d = 4–7), and at 2048 components for d ≥ 5 (+0.8 to +1.1).
* **One-vs-one** (45 pairwise SVMs, majority vote): 25 of 46 cells within ±0.7 — much
  closer at 32–64 components for d ≥ 3, a little further at 1024–2048 — but row d = 1
  drops 1.9–2.4 points below the paper and the raw pixels to 6.5 %. The paper's linear
  numbers (its d = 1 row, and the 8.9 % it quotes for a linear SVM on pixels, from
  Schölkopf, Burges & Vapnik 1995, who trained one machine per digit) pin its SVM to
  one-vs-rest; one-vs-one fits the nonlinear small-k cells better only because 45
  hyperplanes have more capacity than 10, not because it is the paper's setup.
* **Ruled out, by measurement** on d = 3, 5, 7 at 32–128 components (test errors, for
  the investigation only; nothing here was tuned on the test set): C from 1 to 1000
  (OvR moves < 0.5 points past C = 10); standardising every component instead of one
  global scale (within 0.4 at these k; worse on the validation split at 2048); the plain
  hinge loss instead of the squared one (0.4–1.1 better at d = 7, still +1.2 to +2.3
  off); an unpenalised intercept (``intercept_scaling`` 10–100: no change, or worse);
  choosing C per cell (``--c-select-k 0``, ``table1_per_cell_C.json``: ≤ 0.4 points); the
  pixel coding ((x + 1) / 2 instead of [-1, 1]: ≤ 0.3 points); which 3,000 images
  kernel PCA is fitted on (the first 3,000, or another random 3,000: ≤ 0.6 points at
  d = 5 and 7, 32–128 components, still +1.9 to +2.8 at 32 components).

What remains unexplained is the paper's advantage at few components and high degree:
something in its feature extraction or training that the text does not describe (e.g.
a different scaling of the components per degree, or its SVM's stopping rule).
The validation split, drawn from the training set, is much easier than the test set
(2.2 % against 5.1 % at d = 5, 2048), so choosing the setup on it cannot see these gaps.
"""

from __future__ import annotations

import hashlib
import math
import os
import time
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path

import numpy as np

from datasets.usps import cache_dir as usps_cache_dir
from datasets.usps import ensure_usps, read_usps, stratified_indices
from lessons.classification.experiment import (
    C_GRID,
    MULTICLASS,
    head_pipeline,
    make_kpca,
    projections_in_chunks,
    select_C,
    usable_components,
)
from words.i18n import N_, _

DEGREES = (1, 2, 3, 4, 5, 6, 7)
COMPONENTS = (32, 64, 128, 256, 512, 1024, 2048)
N_FIT = 3000
N_PIXELS = 256

# Test error (%) from the paper's Table 1 (Neural Computation 10(5), 1998, p. 1311),
# every cell, checked against the published text. Degree 1 has no cells past 256
# components ("N.A." in the paper): the linear kernel on 16 × 16 images has at most
# 256 non-zero eigenvalues.
PAPER_ERRORS: dict[int, dict[int, float]] = {
    1: {32: 9.6, 64: 8.8, 128: 8.6, 256: 8.7},
    2: {32: 8.8, 64: 7.3, 128: 5.8, 256: 5.5, 512: 4.9, 1024: 4.9, 2048: 4.9},
    3: {32: 8.1, 64: 6.8, 128: 5.9, 256: 5.3, 512: 4.6, 1024: 4.3, 2048: 4.2},
    4: {32: 8.5, 64: 6.7, 128: 6.1, 256: 5.2, 512: 4.4, 1024: 4.4, 2048: 4.1},
    5: {32: 9.1, 64: 6.7, 128: 5.8, 256: 5.2, 512: 5.1, 1024: 4.6, 2048: 4.0},
    6: {32: 9.3, 64: 7.2, 128: 6.0, 256: 5.4, 512: 4.6, 1024: 4.8, 2048: 4.3},
    7: {32: 10.8, 64: 7.5, 128: 6.8, 256: 5.4, 512: 4.9, 1024: 4.6, 2048: 4.4},
}
# A linear SVM on the raw pixels, from the paper's text.
PAPER_RAW_PIXELS = 8.9
PAPER_CITATION = (
    "B. Schölkopf, A. Smola, K.-R. Müller (1998). Nonlinear component analysis as a "
    "kernel eigenvalue problem. Neural Computation 10(5), 1299–1319, Table 1."
)
C_SELECT_COMPONENTS = 256
# How C is chosen, in the results file's settings (English) and, translated, on the page.
C_SELECTION_PER_CELL = N_("stratified 20% validation split of the training images, per cell")
C_SELECTION_PER_DEGREE = N_("stratified 20% validation split of the training images, once "
                            "per degree on the first {k} components")
TOLERANCE = 0.7  # the aim: every cell within ±0.7 points of the paper

Progress = Callable[[float, str], None]


@dataclass(frozen=True)
class TableConfig:
    """What to run. The defaults are the paper's setup.

    Attributes
    ----------
    degrees, components : which rows and columns.
    n_fit : images kernel PCA is fitted on (a stratified subset of the training set).
    n_train, n_test : images the SVM is trained/tested on (None: all 7,291 / 2,007).
    seed : for the subsets and the validation split.
    C_grid : candidates for the SVM's C.
    C_select_k : choose C once per degree on this many components (None: per cell).
    multiclass : "ovr" (one-vs-rest) or "ovo" (one-vs-one) linear SVMs.
    """

    degrees: tuple[int, ...] = DEGREES
    components: tuple[int, ...] = COMPONENTS
    n_fit: int = N_FIT
    n_train: int | None = None
    n_test: int | None = None
    seed: int = 0
    C_grid: tuple[float, ...] = C_GRID
    C_select_k: int | None = C_SELECT_COMPONENTS
    multiclass: str = "ovr"

    def describe(self) -> dict:
        return {**asdict(self), "kernel": "poly", "gamma": 1.0, "coef0": 0.0,
                "classifier": f"LinearSVC (squared hinge, L2, {MULTICLASS[self.multiclass]}) "
                "after RmsScaler",
                "C_selection": c_selection(self.C_select_k, translate=str)}

    def same_experiment(self, other: TableConfig) -> bool:
        """Equal except for which cells are run (so partial results can be merged)."""
        keep = ("n_fit", "n_train", "n_test", "seed", "C_grid", "C_select_k", "multiclass")
        return all(getattr(self, name) == getattr(other, name) for name in keep)


def c_selection(C_select_k: int | None, translate: Callable[[str], str] = _) -> str:
    """How C was chosen, for ``C_select_k`` (None: per cell): in the run's language, or in
    English with ``translate=str`` (the results file)."""
    if C_select_k is None:
        return translate(C_SELECTION_PER_CELL)
    return translate(C_SELECTION_PER_DEGREE).format(k=C_select_k)


@dataclass(frozen=True)
class Splits:
    """The USPS images of one table run (read-only views)."""

    X_fit: np.ndarray
    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray

    def fingerprint(self) -> str:
        digest = hashlib.sha1()
        for array in (self.X_fit, self.X_train, self.y_train, self.X_test, self.y_test):
            digest.update(np.ascontiguousarray(array).tobytes())
        return digest.hexdigest()[:12]


def load_splits(config: TableConfig) -> Splits:
    """The fitting subset, the SVM's training images and the test images."""
    arrays = read_usps(ensure_usps())
    X_train = np.asarray(arrays["X_train"], dtype=np.float64)
    y_train = np.asarray(arrays["y_train"], dtype=np.int64)
    X_test = np.asarray(arrays["X_test"], dtype=np.float64)
    y_test = np.asarray(arrays["y_test"], dtype=np.int64)
    if config.n_train is not None and config.n_train < len(y_train):
        rows = stratified_indices(y_train, config.n_train, config.seed)
        X_train, y_train = X_train[rows], y_train[rows]
    if config.n_test is not None and config.n_test < len(y_test):
        rows = stratified_indices(y_test, config.n_test, config.seed)
        X_test, y_test = X_test[rows], y_test[rows]
    fit_rows = stratified_indices(y_train, min(config.n_fit, len(y_train)), config.seed)
    return Splits(X_train[fit_rows], X_train, y_train, X_test, y_test)


def rank_bound(degree: int, n_fit: int, n_features: int = N_PIXELS) -> int:
    """Most non-zero eigenvalues K̃ can have: min(n − 1, number of degree-d monomials).

    The feature space of (x·y)^d is spanned by the C(p + d − 1, d) monomials of degree d
    in p inputs; centring removes one more dimension of the n points' span.
    """
    return min(n_fit - 1, math.comb(n_features + degree - 1, degree))


def table_cache_dir() -> Path:
    """``$KPCA_CACHE_DIR/table1`` (default ``~/.cache/kpca-lab/table1``)."""
    return usps_cache_dir() / "table1"


@dataclass
class Decomposition:
    """One degree's projections (float32-rounded), from the cache or freshly computed."""

    degree: int
    Z_train: np.ndarray
    Z_test: np.ndarray
    eigenvalues: np.ndarray
    seconds: float  # of the fit + projections when they were computed
    from_cache: bool

    @property
    def usable(self) -> int:
        return usable_components(self.eigenvalues)


def decompose(
    splits: Splits, degree: int, k_max: int, cache: Path | None = None
) -> Decomposition:
    """Fit kernel PCA (x·y)^d once with k_max components and project every image.

    Parameters
    ----------
    splits : the images.
    degree : d.
    k_max : components to extract (clipped to :func:`rank_bound`).
    cache : directory of the disk cache, or None for no cache.
    """
    k = min(k_max, rank_bound(degree, len(splits.X_fit), splits.X_fit.shape[1]))
    path = None
    if cache is not None:
        path = Path(cache) / f"poly-d{degree}-k{k}-{splits.fingerprint()}.npz"
        if path.is_file():
            with np.load(path) as stored:
                return Decomposition(degree, stored["Z_train"], stored["Z_test"],
                                     stored["eigenvalues"], float(stored["seconds"]), True)
    start = time.perf_counter()
    kpca = make_kpca("poly", {"gamma": 1.0, "coef0": 0.0, "degree": degree}, k)
    kpca.fit(splits.X_fit)
    Z_train = projections_in_chunks(kpca, splits.X_train).astype(np.float32)
    Z_test = projections_in_chunks(kpca, splits.X_test).astype(np.float32)
    seconds = time.perf_counter() - start
    result = Decomposition(degree, Z_train, Z_test, kpca.eigenvalues_.copy(), seconds, False)
    if path is not None:
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + f".{os.getpid()}.tmp.npz")
        np.savez(partial, Z_train=Z_train, Z_test=Z_test, eigenvalues=result.eigenvalues,
                 seconds=seconds)
        partial.replace(path)  # atomic: an interrupted run never leaves half a file
    return result


@dataclass
class CellResult:
    """One cell of the table."""

    degree: int
    n_components: int
    error_pct: float | None  # None: not applicable (k beyond the rank of K̃)
    C: float | None = None
    validation_error_pct: dict = field(default_factory=dict)
    seconds: float = 0.0


def degree_C(decomposition: Decomposition, splits: Splits, k: int,
             grid: Sequence[float], seed: int = 0,
             multiclass: str = "ovr") -> tuple[float, dict[str, float]]:
    """One C for a whole degree, chosen on its first k usable components."""
    k = min(k, decomposition.usable)
    Z_train = np.asarray(decomposition.Z_train[:, :k], dtype=np.float64)
    best_C, validation = select_C(Z_train, splits.y_train, "linear_svm", grid, seed=seed,
                                  multiclass=multiclass)
    return best_C, {repr(C): round(100 * e, 3) for C, e in validation.items()}


def run_cell(decomposition: Decomposition, splits: Splits, k: int,
             grid: Sequence[float], seed: int = 0, C: float | None = None,
             multiclass: str = "ovr") -> CellResult:
    """Fit the SVM on the first k components (C given, or chosen on a validation split
    of the training features) and test it once."""
    start = time.perf_counter()
    if k > decomposition.usable:
        return CellResult(decomposition.degree, k, None)
    Z_train = np.asarray(decomposition.Z_train[:, :k], dtype=np.float64)
    Z_test = np.asarray(decomposition.Z_test[:, :k], dtype=np.float64)
    if C is None:
        best_C, validation = select_C(Z_train, splits.y_train, "linear_svm", grid, seed=seed,
                                      multiclass=multiclass)
    else:
        best_C, validation = C, {}
    model = head_pipeline("linear_svm", best_C, seed, multiclass).fit(Z_train, splits.y_train)
    error = float(np.mean(model.predict(Z_test) != splits.y_test))
    return CellResult(
        decomposition.degree, k, round(100 * error, 3), best_C,
        {repr(C): round(100 * e, 3) for C, e in validation.items()},
        round(time.perf_counter() - start, 2),
    )


def raw_pixel_error(splits: Splits, grid: Sequence[float], seed: int = 0,
                    multiclass: str = "ovr") -> CellResult:
    """The paper's baseline: the same linear SVM on the 256 raw pixels."""
    start = time.perf_counter()
    best_C, validation = select_C(splits.X_train, splits.y_train, "linear_svm", grid,
                                  seed=seed, multiclass=multiclass)
    model = head_pipeline("linear_svm", best_C, seed, multiclass).fit(splits.X_train,
                                                                     splits.y_train)
    error = float(np.mean(model.predict(splits.X_test) != splits.y_test))
    return CellResult(0, splits.X_train.shape[1], round(100 * error, 3), best_C,
                      {repr(C): round(100 * e, 3) for C, e in validation.items()},
                      round(time.perf_counter() - start, 2))


def time_refit_vs_reuse(splits: Splits, degree: int, ks: Sequence[int]) -> dict:
    """Seconds to get the projections for every k by refitting per k vs one fit.

    Returns ``{"refit": s, "reuse": s, "speedup": refit / reuse, "ks": [...]}``; the
    classifier's time is the same either way and is not included.
    """
    params = {"gamma": 1.0, "coef0": 0.0, "degree": degree}

    def fit_and_project(k: int) -> float:
        start = time.perf_counter()
        kpca = make_kpca("poly", params, k).fit(splits.X_fit)
        projections_in_chunks(kpca, splits.X_train)
        projections_in_chunks(kpca, splits.X_test)
        return time.perf_counter() - start

    refit = sum(fit_and_project(k) for k in ks)
    reuse = fit_and_project(max(ks))
    return {"degree": degree, "ks": list(ks), "refit": round(refit, 2),
            "reuse": round(reuse, 2), "speedup": round(refit / reuse, 2)}


def difference_table(ours: dict[tuple[int, int], float | None]) -> dict[tuple[int, int], float]:
    """ours − paper (points), for the cells both have."""
    return {
        (d, k): round(ours[(d, k)] - paper, 3)
        for d, row in PAPER_ERRORS.items()
        for k, paper in row.items()
        if ours.get((d, k)) is not None
    }


def cell_key(cell: dict) -> tuple[int, int]:
    """(degree, components) of one cell of a results file."""
    return int(cell["degree"]), int(cell["n_components"])


def cell_errors(cells: Sequence[dict]) -> dict[tuple[int, int], float | None]:
    """Test error (%) by (degree, components) from a results file's cells."""
    return {cell_key(cell): cell["error_pct"] for cell in cells}


def within_tolerance(diffs: dict[tuple[int, int], float]) -> int:
    """How many of :func:`difference_table`'s cells are within ±:data:`TOLERANCE` points."""
    return sum(abs(v) <= TOLERANCE for v in diffs.values())

