"""Classification on kernel principal components: one pipeline, its baselines, its curve.

The experiment behind the Classification page and ``benchmarks/reproduce_table1.py``
(Schölkopf, Smola & Müller 1998, section 4.2): extract the first k kernel principal
components, then train a *linear* classifier on them. Everything here is a pure
function of arrays (no Streamlit), so the page and the script show numbers from the
same code.

The pipeline is scikit-learn's :class:`~sklearn.pipeline.Pipeline`::

    KernelPCA(k)  →  RmsScaler()  →  LinearSVC(C) or LogisticRegression(C)

Why :class:`RmsScaler` and not ``StandardScaler``: kernel PCA's coordinates have
variance μ_i / n (μ_i an eigenvalue of K̃), and that decay *is* the information about
which directions matter. Standardising every component would blow the 2,000th
component (mostly noise) up to the size of the first. One global factor keeps the
geometry of the feature-space subspace, so the linear classifier sees the components as
the paper's did; it only
makes C mean the same thing for every kernel and degree (a polynomial kernel of
degree 7 has values up to 256⁷).

An error curve over k never refits: the first k' components of a k-component fit are
exactly the k'-component fit (the leading eigenvectors do not depend on how many are
asked for), so one decomposition with the largest k serves every point of the curve.
"""

from __future__ import annotations

import inspect
import warnings
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass

import numpy as np
from sklearn.base import BaseEstimator, TransformerMixin
from sklearn.decomposition import PCA
from sklearn.linear_model import LogisticRegression
from sklearn.metrics import confusion_matrix
from sklearn.model_selection import train_test_split
from sklearn.multiclass import OneVsOneClassifier
from sklearn.pipeline import Pipeline
from sklearn.preprocessing import StandardScaler
from sklearn.svm import LinearSVC
from sklearn.utils.validation import check_is_fitted, validate_data

from kpca_core import KERNELS, KernelPCA
from words.i18n import N_

# Said where shown, with _(); the take-home script and the table's settings keep the English.
CLASSIFIERS = {"linear_svm": N_("linear SVM"), "logistic": N_("logistic regression")}
MULTICLASS = {"ovr": "one-vs-rest", "ovo": "one-vs-one"}
DEFAULT_C = 1.0
# Liblinear's primal Newton solver converges within this on every table cell we ran.
MAX_ITER = 5000
# C candidates for the table, chosen on a validation split of the training set.
C_GRID = (0.3, 1.0, 3.0, 10.0, 30.0)
VALIDATION_FRACTION = 0.2


class RmsScaler(TransformerMixin, BaseEstimator):
    """Divide every feature by one number: the root mean squared norm of a training row.

    After fitting, a training row has mean squared length 1. Unlike ``StandardScaler``
    the relative scale of the features is kept (see the module docstring for why that
    matters for kernel principal components).

    Attributes
    ----------
    scale_ : float
        sqrt(mean_i ||x_i||²) of the training rows (1 when that is 0).
    """

    def fit(self, X, y=None):
        X = validate_data(self, X, reset=True, dtype=np.float64)
        rms = float(np.sqrt(np.mean(np.einsum("ij,ij->i", X, X)))) if len(X) else 0.0
        self.scale_ = rms if rms > 0 and np.isfinite(rms) else 1.0
        return self

    def transform(self, X):
        check_is_fitted(self)
        X = validate_data(self, X, reset=False, dtype=np.float64)
        return X / self.scale_


def make_classifier(name: str, C: float = DEFAULT_C, seed: int = 0, multiclass: str = "ovr"):
    """A linear classifier from scikit-learn, one-vs-rest over the classes.

    Parameters
    ----------
    name : {"linear_svm", "logistic"}
        ``LinearSVC`` (squared hinge loss, L2 penalty, one-vs-rest: liblinear's
        default, the closest scikit-learn has to the paper's linear SVM) or
        ``LogisticRegression`` (multinomial).
    C : float
        Inverse regularisation strength.
    seed : int
        For the solvers that shuffle.
    multiclass : {"ovr", "ovo"}
        For the linear SVM: one-vs-rest (one hyperplane per class) or one-vs-one (one
        per pair of classes, majority vote: ``OneVsOneClassifier``), see
        :mod:`lessons.classification.paper_table` for why the table offers both.
    """
    if multiclass not in MULTICLASS:
        raise ValueError(f"multiclass must be one of {sorted(MULTICLASS)}; got {multiclass!r}.")
    if name == "linear_svm":
        svm = LinearSVC(C=C, max_iter=MAX_ITER, random_state=seed)
        return OneVsOneClassifier(svm) if multiclass == "ovo" else svm
    if name == "logistic":
        return LogisticRegression(C=C, max_iter=MAX_ITER)
    raise ValueError(f"classifier must be one of {sorted(CLASSIFIERS)}; got {name!r}.")


def make_kpca(kernel: str, kernel_params: dict, n_components: int) -> KernelPCA:
    """``kpca_core.KernelPCA`` with the kernel's parameters (only those it uses)."""
    used = {name: value for name, value in kernel_params.items() if name in KERNELS[kernel].params}
    # An indefinite kernel (sigmoid) keeps its negative directions as zero columns
    # with a warning, instead of refusing to fit.
    extra = {} if KERNELS[kernel].positive_definite else {"negative_eigenvalues": "warn"}
    return KernelPCA(n_components=n_components, kernel=kernel, **used, **extra)


def make_pipeline(
    kernel: str,
    kernel_params: dict,
    n_components: int,
    classifier: str = "linear_svm",
    C: float = DEFAULT_C,
    seed: int = 0,
    standardize: bool = False,
) -> Pipeline:
    """Kernel PCA → one global scale → a linear classifier, as one scikit-learn Pipeline.

    With ``standardize`` the inputs are first scaled to mean 0 and variance 1 with the
    statistics of the training split (a ``StandardScaler`` step).
    """
    steps = [("standardise", StandardScaler())] if standardize else []
    steps += [
        ("kpca", make_kpca(kernel, kernel_params, n_components)),
        ("scale", RmsScaler()),
        ("classify", make_classifier(classifier, C, seed)),
    ]
    return Pipeline(steps)


def baseline_pipeline(
    features: str,
    n_components: int | None,
    classifier: str,
    C: float = DEFAULT_C,
    seed: int = 0,
    standardize: bool = False,
) -> Pipeline:
    """The same classifier on the raw inputs (``"raw"``) or on linear PCA (``"pca"``)."""
    steps = [("standardise", StandardScaler())] if standardize else []
    if features == "pca":
        steps.append(("pca", PCA(n_components=n_components, svd_solver="full")))
    elif features != "raw":
        raise ValueError(f"features must be 'raw' or 'pca'; got {features!r}.")
    steps += [("scale", RmsScaler()), ("classify", make_classifier(classifier, C, seed))]
    return Pipeline(steps)


# --------------------------------------------------------------------------- code shown


def _call(estimator) -> str:
    """``Name(param=value, ...)`` with only the parameters that differ from the defaults."""
    defaults = type(estimator)().get_params(deep=False)
    params = estimator.get_params(deep=False)
    # In the constructor's order (get_params sorts them), as a person would write them.
    order = list(inspect.signature(type(estimator).__init__).parameters)
    changed = [
        f"{name}={params[name]!r}"
        for name in sorted(params, key=lambda n: order.index(n) if n in order else len(order))
        if not _same(params[name], defaults.get(name, object()))
    ]
    return f"{type(estimator).__name__}({', '.join(changed)})"


def _same(a, b) -> bool:
    try:
        return bool(a == b) and type(a) is type(b)
    except (TypeError, ValueError):
        return False


def pipeline_code(pipeline: Pipeline, *, data_lines: Sequence[str] = ()) -> str:
    """Python source that rebuilds ``pipeline`` exactly (generated from its parameters).

    Parameters
    ----------
    pipeline : Pipeline
        Built by :func:`make_pipeline` or :func:`baseline_pipeline`.
    data_lines : sequence of str
        Lines that load ``X_train, y_train, X_test, y_test``; appended with the fit
        and the test error, so the snippet runs as it stands.

    Returns
    -------
    str
        ``exec`` of the text defines ``pipeline`` with the same ``get_params()``.
    """
    modules = {
        "KernelPCA": "kpca_core",
        "StandardScaler": "sklearn.preprocessing",
        "RmsScaler": "lessons.classification.experiment",
        "PCA": "sklearn.decomposition",
        "LinearSVC": "sklearn.svm",
        "LogisticRegression": "sklearn.linear_model",
    }
    names = [type(step).__name__ for _, step in pipeline.steps]
    imports = ["from sklearn.pipeline import Pipeline"] + [
        f"from {modules[name]} import {name}" for name in names
    ]
    steps = ",\n".join(f"    ({name!r}, {_call(step)})" for name, step in pipeline.steps)
    lines = [*imports, "", *data_lines, "" if data_lines else None,
             f"pipeline = Pipeline([\n{steps},\n])"]
    if data_lines:
        lines += [
            "pipeline.fit(X_train, y_train)",
            "test_error = (pipeline.predict(X_test) != y_test).mean()",
            'print(f"test error: {100 * test_error:.2f} %")',
        ]
    return "\n".join(line for line in lines if line is not None)


# --------------------------------------------------------------------------- evaluation


@dataclass(frozen=True)
class Evaluation:
    """One trained classifier scored on a test set.

    Attributes
    ----------
    predicted : ndarray of int, shape (n_test,)
    confusion : ndarray of int, shape (n_classes, n_classes)
        Rows: true class, columns: predicted class, over ``labels``.
    labels : ndarray of int
        The class labels, in the order of the confusion matrix.
    """

    predicted: np.ndarray
    confusion: np.ndarray
    labels: np.ndarray

    @property
    def error(self) -> float:
        """Test error = 1 - trace(confusion) / sum(confusion)."""
        total = self.confusion.sum()
        return float(1.0 - np.trace(self.confusion) / total) if total else float("nan")


def evaluate(model, X_train, y_train, X_test, y_test, labels: Sequence[int] | None = None):
    """Fit ``model`` on the training split and score it on the test split."""
    model.fit(X_train, y_train)
    predicted = np.asarray(model.predict(X_test))
    labels = np.unique(np.concatenate([y_train, y_test])) if labels is None else labels
    labels = np.asarray(labels)
    return Evaluation(predicted, confusion_matrix(y_test, predicted, labels=labels), labels)


def first_columns(Z: np.ndarray, k: int) -> np.ndarray:
    """The first k components (the k-component fit, without refitting)."""
    if not 1 <= k <= Z.shape[1]:
        raise ValueError(f"k must lie in 1..{Z.shape[1]}; got {k}.")
    return Z[:, :k]


def usable_components(eigenvalues: np.ndarray, rtol: float = 1e-10) -> int:
    """How many leading components have an eigenvalue clearly above 0.

    A component with μ ≈ 0 (beyond the rank of K̃, e.g. past 256 for the linear
    kernel on 16 × 16 images) is rounding noise divided by sqrt(μ): never use it.
    """
    eigenvalues = np.asarray(eigenvalues, dtype=float)
    if eigenvalues.size == 0 or eigenvalues[0] <= 0:
        return 0
    return int(np.count_nonzero(eigenvalues > rtol * eigenvalues[0]))


def error_curve(
    Z_train: np.ndarray,
    y_train: np.ndarray,
    Z_test: np.ndarray,
    y_test: np.ndarray,
    ks: Iterable[int],
    make_model: Callable[[], object],
) -> dict[int, float]:
    """Test error of a fresh ``make_model()`` on the first k columns, for each k.

    ``Z_train``/``Z_test`` come from ONE decomposition with at least ``max(ks)``
    components; each k uses its first k columns (see the module docstring).
    ``make_model`` returns the scaler + classifier part of the pipeline.
    """
    errors = {}
    for k in ks:
        model = make_model()
        model.fit(first_columns(Z_train, k), y_train)
        errors[int(k)] = float(np.mean(model.predict(first_columns(Z_test, k)) != y_test))
    return errors


def head_pipeline(classifier: str, C: float = DEFAULT_C, seed: int = 0,
                  multiclass: str = "ovr") -> Pipeline:
    """The part of the pipeline after the feature extraction: scale, then classify."""
    return Pipeline([("scale", RmsScaler()),
                     ("classify", make_classifier(classifier, C, seed, multiclass))])


def select_C(
    Z: np.ndarray,
    y: np.ndarray,
    classifier: str = "linear_svm",
    grid: Sequence[float] = C_GRID,
    *,
    validation_fraction: float = VALIDATION_FRACTION,
    seed: int = 0,
    multiclass: str = "ovr",
) -> tuple[float, dict[float, float]]:
    """Choose C on a stratified validation split of the TRAINING set only.

    Returns
    -------
    best_C : float
        The C with the smallest validation error (the smallest such C on a tie:
        the more regularised model).
    errors : dict
        Validation error for every C of the grid.
    """
    Z_fit, Z_val, y_fit, y_val = train_test_split(
        Z, y, test_size=validation_fraction, stratify=y, random_state=seed
    )
    errors = {}
    for C in grid:
        model = head_pipeline(classifier, C, seed, multiclass).fit(Z_fit, y_fit)
        errors[float(C)] = float(np.mean(model.predict(Z_val) != y_val))
    best = min(errors, key=lambda C: (errors[C], C))
    return best, errors


def projections_in_chunks(kpca, X: np.ndarray, chunk_rows: int = 2048) -> np.ndarray:
    """``kpca.transform(X)`` a block of rows at a time: the test kernel never exceeds
    ``chunk_rows`` × n_fit entries (9,298 × 3,000 at once would be 223 MB)."""
    parts = [kpca.transform(X[start : start + chunk_rows])
             for start in range(0, len(X), chunk_rows)]
    if not parts:
        return np.empty((0, kpca.eigenvalues_.shape[0]))
    return np.vstack(parts)


# --------------------------------------------------------------------------- the page's run


def curve_components(limit: int, chosen: int) -> list[int]:
    """1, 2, 4, … up to ``limit``, plus ``limit`` and the chosen k (≤ limit)."""
    ks = {2**i for i in range(int(np.log2(max(limit, 1))) + 1)} | {limit}
    if 1 <= chosen <= limit:
        ks.add(chosen)
    return sorted(k for k in ks if 1 <= k <= limit)


@dataclass(frozen=True)
class Experiment:
    """Everything the Classification page shows for one setting.

    Attributes
    ----------
    pipeline : the fitted kernel PCA pipeline (the code shown on the page).
    kernel, pca, raw : its test evaluation and the two baselines'.
    n_components, pca_components : components actually used (clipped to what exists).
    usable : leading kernel components with an eigenvalue clearly above 0.
    kernel_curve, pca_curve : {k: test error} from one decomposition each.
    warnings : distinct warning messages raised while fitting.
    """

    pipeline: Pipeline
    kernel: Evaluation
    pca: Evaluation
    raw: Evaluation
    n_components: int
    pca_components: int
    usable: int
    kernel_curve: dict[int, float]
    pca_curve: dict[int, float]
    warnings: tuple[str, ...]


def run_experiment(
    X_train: np.ndarray,
    y_train: np.ndarray,
    X_test: np.ndarray,
    y_test: np.ndarray,
    *,
    kernel: str,
    kernel_params: dict,
    n_components: int,
    classifier: str = "linear_svm",
    C: float = DEFAULT_C,
    standardize: bool = False,
    curve_max: int = 512,
    seed: int = 0,
) -> Experiment:
    """The page's experiment: the pipeline, both baselines and both error curves.

    The curves come from ONE decomposition each (kernel PCA with the largest k of the
    curve; linear PCA with all it has) and slice columns per k. The pipeline itself is
    fitted as shown, with its own ``n_components``: at the chosen k the curve and the
    pipeline must agree, which the page checks live.
    """
    labels = np.unique(np.concatenate([y_train, y_test]))
    n_train, n_features = X_train.shape
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        # One decomposition for the curve: as many components as the curve needs.
        curve_limit = min(curve_max, n_train - 1)
        inputs = [("standardise", StandardScaler())] if standardize else []
        extract = Pipeline([*inputs, ("kpca", make_kpca(kernel, kernel_params, curve_limit))])
        Z_train = extract.fit_transform(X_train)
        Z_test = extract.transform(X_test)
        usable = usable_components(extract.named_steps["kpca"].eigenvalues_)
        k = max(1, min(n_components, usable, curve_limit))
        ks = curve_components(max(usable, 1) if usable < curve_limit else curve_limit, k)
        kernel_curve = error_curve(Z_train, y_train, Z_test, y_test, ks,
                                   lambda: head_pipeline(classifier, C, seed))

        pipeline = make_pipeline(kernel, kernel_params, k, classifier, C, seed, standardize)
        kernel_eval = evaluate(pipeline, X_train, y_train, X_test, y_test, labels)

        pca_limit = min(curve_limit, n_features, n_train)
        pca_k = min(k, pca_limit)
        pca_eval = evaluate(baseline_pipeline("pca", pca_k, classifier, C, seed, standardize),
                            X_train, y_train, X_test, y_test, labels)
        linear = Pipeline([*inputs, ("pca", PCA(n_components=pca_limit, svd_solver="full"))])
        linear.fit(X_train)
        P_train, P_test = linear.transform(X_train), linear.transform(X_test)
        pca_curve = error_curve(P_train, y_train, P_test, y_test,
                                curve_components(pca_limit, pca_k),
                                lambda: head_pipeline(classifier, C, seed))
        raw_eval = evaluate(baseline_pipeline("raw", None, classifier, C, seed, standardize),
                            X_train, y_train, X_test, y_test, labels)
    messages = tuple(dict.fromkeys(str(w.message) for w in caught))
    return Experiment(pipeline, kernel_eval, pca_eval, raw_eval, k, pca_k, usable,
                      kernel_curve, pca_curve, messages)
