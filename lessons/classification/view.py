"""Sections of the Classification page and its bounded caches.

The computation is :func:`lessons.classification.experiment.run_experiment` (the same code as
the Table 1 script's pipeline); this module splits the data, caches the result per
setting and draws it.
"""

from __future__ import annotations

import itertools
import math
import time
from dataclasses import dataclass

import numpy as np
import streamlit as st
from sklearn.model_selection import train_test_split

from experiments.checks import Check
from lessons.classification import experiment as cls
from lessons.classification import figures as figs
from shell import findings
from shell.admission import queued
from shell.caches import bounded_cache, load_data
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption
from shell.figures import plot_text
from shell.memory import guard_memory
from shell.registry import TEST_FRACTION, classification_training
from shell.state import DataKey, KernelKey, Settings, params_text

USPS_TEST_SIZE = 2007
CURVE_MAX = 256
COMPONENT_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
C_CHOICES = (0.01, 0.1, 1.0, 10.0, 100.0)
DEFAULT_CLASSIFIER, DEFAULT_C = "linear_svm", 1.0
MISCLASSIFIED_SHOWN = 40
K_CLASSIFIER, K_COMPONENTS, K_C = "cls_classifier", "cls_components", "cls_C"


@dataclass(frozen=True)
class TrainTestData:
    """Training and test data as the page uses them, and how they were made."""

    X_train: np.ndarray
    y_train: np.ndarray
    X_test: np.ndarray
    y_test: np.ndarray
    target_names: tuple[str, ...]
    image_shape: tuple[int, int] | None
    description: str
    code: tuple[str, ...]  # the lines that load the same split, for the snippet


def _options_text(options: dict) -> str:
    return ", ".join(f"{name}={value!r}" for name, value in options.items())


def _check_split_sizes(n: int, n_classes: int, where: str) -> None:
    """A stratified split puts a point of every class on each side: say how many points
    that needs (and ``where`` to get them) instead of scikit-learn's message about
    ``test_size``."""
    def fits(m: int) -> bool:
        n_test = math.ceil(TEST_FRACTION * m)  # as train_test_split rounds a fraction
        return n_test >= n_classes and m - n_test >= n_classes

    if fits(n):
        return
    needed = next(m for m in itertools.count(n) if fits(m))
    n_test = math.ceil(TEST_FRACTION * n)
    raise ValueError(
        f"{n} points give {n - n_test} for training and {n_test} for testing "
        f"({TEST_FRACTION:.0%} held out), but each side needs at least one point of each "
        f"of the {n_classes} classes. Use at least {needed} points: {where}."
    )


def make_split(data_key: DataKey) -> TrainTestData:
    """USPS: its published training/test split; any other dataset: a seeded stratified split
    of the raw inputs (the pipeline standardises them when asked).

    Raises ValueError with a message for the user (e.g. a class with a single point).
    """
    options = dict(data_key.options)
    if data_key.dataset == "usps":
        n, seed = int(options.get("n", 2000)), int(options.get("seed", 0))
        train = load_data("usps", (("n", n), ("seed", seed), ("split", "train")))
        test = load_data("usps", (("n", USPS_TEST_SIZE), ("seed", seed), ("split", "test")))
        note = ""
        if options.get("split", "train") != "train":
            note = (" The sidebar's 'USPS split' is not used here: training digits always "
                    "come from the training set and test digits from the test set.")
        return TrainTestData(
            train.X, train.y, test.X, test.y, train.target_names, train.image_shape,
            f"USPS's own split: **{len(train.y):,} training digits** (a stratified subset of "
            f"the 7,291, seed {seed}; 'Digits used' in the sidebar) and **all "
            f"{len(test.y):,} test digits** of the published test set.{note}",
            (
                "import datasets",
                "",
                f'train = datasets.load("usps", split="train", n={n}, seed={seed})',
                f'test = datasets.load("usps", split="test", n={USPS_TEST_SIZE}, seed={seed})',
                "X_train, y_train, X_test, y_test = train.X, train.y, test.X, test.y",
            ),
        )
    data = load_data(data_key.dataset, data_key.options)
    if data.y is None:
        raise ValueError("this dataset has no class labels. Pick a dataset with classes, or "
                         "upload a CSV and choose its label column in the sidebar.")
    _, counts = np.unique(data.y, return_counts=True)
    if len(counts) < 2 or counts.min() < 2:
        raise ValueError("a stratified split needs at least 2 classes and at least 2 points "
                         f"in every class; the smallest class here has {counts.min()}.")
    _check_split_sizes(
        len(data.y), len(counts),
        "raise 'Number of points n' in the sidebar" if "n" in options
        else "upload a file with more rows" if data_key.dataset == "csv"
        else "choose a dataset with more points",
    )
    seed = int(options.get("seed", 0))
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=TEST_FRACTION, stratify=data.y, random_state=seed
    )
    if data_key.dataset == "csv":
        load = ("# X, y: the numeric columns and labels of your uploaded CSV",
                "# (datasets.load_csv(open('your.csv', 'rb').read(), label_column=...))")
    else:
        load = ("import datasets",
                f'data = datasets.load("{data_key.dataset}"'
                + (f", {_options_text(options)}" if options else "") + ")",
                "X, y = data.X, data.y")
    return TrainTestData(
        X_train, y_train, X_test, y_test, data.target_names, data.image_shape,
        f"A seeded stratified split of the {len(data.y):,} points: **{len(y_train):,} for "
        f"training, {len(y_test):,} for testing** ({TEST_FRACTION:.0%} held out, every "
        f"class in proportion, seed {seed}).",
        (*load,
         "from sklearn.model_selection import train_test_split",
         "",
         "X_train, X_test, y_train, y_test = train_test_split(",
         f"    X, y, test_size={TEST_FRACTION}, stratify=y, random_state={seed})"),
    )


# Each entry: the split, the fitted pipeline (n_train × features + n_train × k) and small
# arrays; for 2,000 USPS digits about 8 MB.
@bounded_cache(max_entries=6)
def cached_experiment(data_key: DataKey, kernel: KernelKey, n_components: int, classifier: str,
                C: float):
    split = make_split(data_key)
    n_train = len(split.y_train)
    # Kernel PCA's K and the eigensolver's copy: big fits take turns on the server.
    with queued(n_train, copies=2, what="this kernel PCA and its classifiers"):
        start = time.perf_counter()
        result = cls.run_experiment(
            split.X_train, split.y_train, split.X_test, split.y_test,
            kernel=kernel.kernel, kernel_params=kernel.kernel_params(),
            n_components=n_components, classifier=classifier, C=C,
            standardize=data_key.standardize, curve_max=CURVE_MAX,
        )
        return split, result, time.perf_counter() - start


def component_choices(n_train_hint: int) -> list[int]:
    return [k for k in COMPONENT_CHOICES if k <= max(1, n_train_hint - 1)]


def default_components(n_train_hint: int, is_usps: bool) -> int:
    """The page's k at first: 128 on the USPS digits (the paper's range), else 16."""
    default = 128 if is_usps else 16
    return max(k for k in component_choices(n_train_hint) if k <= default)


def controls(n_train_hint: int, is_usps: bool) -> tuple[int, str, float]:
    """The page's own widgets: classifier, C and k (the sidebar's k stops at 20)."""
    ss = st.session_state
    choices = component_choices(n_train_hint)
    if ss.get(K_COMPONENTS) not in choices:
        ss[K_COMPONENTS] = default_components(n_train_hint, is_usps)
    ss.setdefault(K_CLASSIFIER, DEFAULT_CLASSIFIER)
    ss.setdefault(K_C, DEFAULT_C)
    left, middle, right = st.columns([2, 2, 3])
    classifier = left.radio("Linear classifier", list(cls.CLASSIFIERS), key=K_CLASSIFIER,
                            format_func=cls.CLASSIFIERS.get, horizontal=True)
    C = middle.select_slider("C", C_CHOICES, key=K_C, format_func=lambda c: f"{c:g}",
                             help="Inverse regularisation strength of the classifier: larger C "
                             "fits the training points more closely.")
    k = right.select_slider("Kernel principal components k", choices, key=K_COMPONENTS)
    return int(k), str(classifier), float(C)


def n_train_of(settings: Settings, n_points: int) -> int:
    """How many training points the split of ``n_points`` will have (USPS: its published
    training set's subset, before loading anything big)."""
    if settings.dataset == "usps":
        return min(int(settings.options.get("n", 2000)), 7291)
    return classification_training(n_points)


def run(settings: Settings, n_points: int, k: int, classifier: str, C: float):
    """The cached experiment on the sidebar's ``n_points``; a clear message and stop on a
    problem."""
    n_train = n_train_of(settings, n_points)
    n_test = USPS_TEST_SIZE if settings.dataset == "usps" else n_points - n_train
    # K and the eigensolver's working copy, then the test kernel against the training set.
    guard_memory(n_train, copies=2)
    guard_memory(n_test, n_train, what="the test kernel K_t")
    try:
        with st.spinner("Fitting kernel PCA and the classifiers…"):
            return cached_experiment(settings.data_key, settings.kernel_key, k, classifier, C)
    except ValueError as error:
        st.error(f"This cannot be classified with these settings: {error}")
        st.stop()
        raise AssertionError("unreachable") from error


def pct(error: float) -> str:
    return f"{100 * error:.2f} %"


def kernel_label(settings: Settings) -> str:
    params = params_text(settings)
    return f"{settings.kernel}" + (f", {params}" if params else "")


def split_section(split: TrainTestData) -> None:
    st.markdown(split.description)


def _delta(error: float, raw: float) -> dict:
    """st.metric's delta against the raw inputs (grey when equal: nothing gained or lost)."""
    if error == raw:
        return {"delta": "same as raw", "delta_color": "off", "delta_arrow": "off"}
    return {"delta": f"{100 * (error - raw):+.2f} vs raw",
            "delta_color": "inverse"}


def errors_section(result: cls.Experiment, settings: Settings, classifier: str, C: float,
                   n_features: int, y_test: np.ndarray) -> None:
    name = cls.CLASSIFIERS[classifier]
    st.markdown(f"Test error of the same **{name}** (C = {C:g}) on three kinds of features:")
    kernel_col, pca_col, raw_col = st.columns(3)
    raw = result.raw.error
    kernel_col.metric(f"Kernel PCA, k = {result.n_components}", pct(result.kernel.error),
                      **_delta(result.kernel.error, raw))
    pca_col.metric(f"Linear PCA, k = {result.pca_components}", pct(result.pca.error),
                   **_delta(result.pca.error, raw))
    raw_col.metric(f"Raw inputs, {n_features} features", pct(raw))
    text = comparison_caption(result, kernel_label(settings), y_test)
    findings.publish("classification", text)
    number_caption(text)
    notes = [m for m in result.warnings if "negative eigenvalue" in m]
    for message in notes:
        st.warning(message, icon=":material/warning:")
    if any("converge" in m.lower() for m in result.warnings):
        st.caption(f"The {name} solver stopped at its iteration limit for at least one "
                   "fit; a smaller C converges faster.")


def comparison_caption(result: cls.Experiment, kernel_text: str, y_test: np.ndarray) -> str:
    """Which features won and by how many test points, and whether that is more than the
    test set's chance: only what the numbers show, no cause."""
    k_err, p_err, r_err = result.kernel.error, result.pca.error, result.raw.error
    ranking = sorted([(k_err, f"kernel PCA ({kernel_text})"), (p_err, "linear PCA"),
                      (r_err, "the raw inputs")])
    best_error, best = ranking[0]
    ties = [label for error, label in ranking if error == best_error]
    if len(ties) > 1:
        return f"{' and '.join(ties)} make the same number of test errors ({pct(best_error)})."
    text = f"Best here: {best}, {pct(best_error)} test error."
    kernel_right = result.kernel.predicted == y_test
    raw_right = result.raw.predicted == y_test
    only_kernel = int(np.sum(kernel_right & ~raw_right))
    only_raw = int(np.sum(raw_right & ~kernel_right))
    fewer = only_kernel - only_raw
    if fewer == 0:
        return text + (" Kernel PCA's components and the raw inputs make the same number of "
                       "errors with the same linear classifier.")
    more_or_fewer = "fewer" if fewer > 0 else "more"
    text += (f" On kernel PCA's components the same linear classifier makes {abs(fewer)} "
             f"{more_or_fewer} errors than on the raw inputs, of {len(y_test)} test points")
    if beyond_chance(only_kernel, only_raw):
        text += (f": the two disagree on {only_kernel + only_raw} points and kernel PCA is "
                 f"right on {only_kernel} of them, more one-sided than chance would make it.")
    else:
        text += (f", a difference chance could make on this test set (the two disagree on "
                 f"{only_kernel + only_raw} points: kernel PCA right on {only_kernel}, the "
                 f"raw inputs on {only_raw}).")
    if not best.startswith("kernel"):
        text += " Another kernel, γ or degree, or more components may do better."
    return text


def beyond_chance(only_a: int, only_b: int) -> bool:
    """McNemar's test at about the 5 % level: of the test points exactly one of two
    classifiers gets right, one gets more than two standard deviations beyond half."""
    disagree = only_a + only_b
    return disagree > 0 and abs(only_a - only_b) > 2 * np.sqrt(disagree)


def confusion_section(result: cls.Experiment, split: TrainTestData) -> None:
    evaluation = result.kernel
    names = [plot_text(split.target_names[int(c)] if int(c) < len(split.target_names) else c)
             for c in evaluation.labels]
    fig = figs.confusion_figure(evaluation.confusion, names,
                                title="Confusion matrix (test set)")
    show_chart(fig, key="cls_confusion", name="confusion-matrix")
    wrong = int(evaluation.confusion.sum() - np.trace(evaluation.confusion))
    total = int(evaluation.confusion.sum())
    st.caption(f"Off the diagonal: {wrong} of {total} test points, so the test error is "
               f"{wrong} / {total} = {pct(wrong / total if total else float('nan'))}.")
    show_check(Check("test points predicted wrongly − off-diagonal count of the matrix",
                     float(np.count_nonzero(evaluation.predicted != split.y_test) - wrong), 0.0))


def misclassified_section(result: cls.Experiment, split: TrainTestData) -> None:
    if split.image_shape is None:
        return
    wrong = np.flatnonzero(result.kernel.predicted != split.y_test)
    if len(wrong) == 0:
        st.success("Every test digit is classified correctly.")
        return
    shown = wrong[:MISCLASSIFIED_SHOWN]
    true_names = [split.target_names[int(c)] for c in split.y_test[shown]]
    predicted = [split.target_names[int(c)] for c in result.kernel.predicted[shown]]
    fig = figs.misclassified_figure(
        split.X_test[shown], split.image_shape, true_names, predicted,
        title=f"Misclassified test digits (first {len(shown)} of {len(wrong)}): "
              "true → predicted",
    )
    show_chart(fig, key="cls_misclassified", name="misclassified-digits")


def curve_section(result: cls.Experiment, settings: Settings, classifier: str,
                  n_features: int, requested_k: int) -> None:
    curves = {f"kernel PCA ({kernel_label(settings)})": result.kernel_curve,
              "linear PCA": result.pca_curve}
    fig = figs.error_curve_figure(
        curves, chosen_k=result.n_components, raw_error=result.raw.error,
        raw_label=f"raw inputs ({n_features} features)",
        title=f"Test error of a {cls.CLASSIFIERS[classifier]} against the number of components",
    )
    show_chart(fig, key="cls_curve", name="error-vs-components")
    best_k = min(result.kernel_curve, key=lambda k: (result.kernel_curve[k], k))
    best_p = min(result.pca_curve, key=lambda k: (result.pca_curve[k], k))
    number_caption(
        f"Kernel PCA is best here at k = {best_k} ({pct(result.kernel_curve[best_k])}), "
        f"linear PCA at k = {best_p} ({pct(result.pca_curve[best_p])}); linear PCA stops at "
        f"{max(result.pca_curve)} components (at most one per input feature). Each curve "
        "comes from one decomposition: the first k columns of the largest fit are the "
        "k-component fit, so nothing is refitted."
    )
    if result.n_components < requested_k:
        st.info(f"{requested_k} components asked for, but this kernel gives only "
                f"{result.usable} with a non-zero eigenvalue on these training points, so "
                f"k = {result.n_components} is used.")
    curve_error = result.kernel_curve.get(result.n_components)
    if curve_error is not None:
        n_test = len(result.kernel.predicted)
        show_check(Check(
            f"curve at k = {result.n_components} (one decomposition, first k columns) − the "
            "pipeline refitted with n_components = k, in test points",
            float(round((curve_error - result.kernel.error) * n_test)), 1.0))


def code_section(result: cls.Experiment, split: TrainTestData) -> None:
    st.code(cls.pipeline_code(result.pipeline, data_lines=split.code), language="python")
    st.caption("Generated from the fitted pipeline's parameters: this is the pipeline that "
               "produced the numbers above. `RmsScaler` divides every component by one "
               "number (see lessons/classification/experiment.py for why not StandardScaler).")
