"""The Classification page's split, its sentences and its charts of sections 3 and 4 (the
confusion matrix, the error against the number of components) without Streamlit: the page
(:mod:`lessons.classification.view`) shows them, and the offline lecture
(:mod:`lessons.classification.pack`) carries them.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Callable
from dataclasses import dataclass

import numpy as np
import plotly.graph_objects as go
from sklearn.model_selection import train_test_split

import datasets
from experiments.checks import Check
from lessons.classification import experiment as cls
from lessons.classification import figures as figs
from shell.figures import plot_text
from shell.registry import TEST_FRACTION
from shell.state import DataKey, Settings, params_text

USPS_TEST_SIZE = 2007
Loader = Callable[[str, tuple], datasets.Dataset]


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


def builtin_data(dataset: str, options: tuple[tuple[str, object], ...]) -> datasets.Dataset:
    """A built-in dataset as loaded with ``options`` (the page passes its shared cache)."""
    return datasets.load(dataset, **dict(options))


def make_split(data_key: DataKey, load: Loader = builtin_data) -> TrainTestData:
    """USPS: its published training/test split; any other dataset: a seeded stratified split
    of the raw inputs (the pipeline standardises them when asked). ``load(dataset,
    options)`` loads a dataset (the page: :func:`shell.caches.load_data`).

    Raises ValueError with a message for the user (e.g. a class with a single point).
    """
    options = dict(data_key.options)
    if data_key.dataset == "usps":
        n, seed = int(options.get("n", 2000)), int(options.get("seed", 0))
        train = load("usps", (("n", n), ("seed", seed), ("split", "train")))
        test = load("usps", (("n", USPS_TEST_SIZE), ("seed", seed), ("split", "test")))
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
    data = load(data_key.dataset, data_key.options)
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


def pct(error: float) -> str:
    return f"{100 * error:.2f} %"


def kernel_label(settings: Settings) -> str:
    params = params_text(settings)
    return f"{settings.kernel}" + (f", {params}" if params else "")


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


def confusion_chart(result: cls.Experiment, split: TrainTestData
                    ) -> tuple[go.Figure, str, Check]:
    """Kernel PCA's confusion matrix on the test set, the caption on its off-diagonal count,
    and the check that the count is the number of wrong predictions."""
    evaluation = result.kernel
    names = [plot_text(split.target_names[int(c)] if int(c) < len(split.target_names) else c)
             for c in evaluation.labels]
    fig = figs.confusion_figure(evaluation.confusion, names,
                                title="Confusion matrix (test set)")
    wrong = int(evaluation.confusion.sum() - np.trace(evaluation.confusion))
    total = int(evaluation.confusion.sum())
    caption = (f"Off the diagonal: {wrong} of {total} test points, so the test error is "
               f"{wrong} / {total} = {pct(wrong / total if total else float('nan'))}.")
    check = Check("test points predicted wrongly − off-diagonal count of the matrix",
                  float(np.count_nonzero(evaluation.predicted != split.y_test) - wrong), 0.0)
    return fig, caption, check


def curve_chart(result: cls.Experiment, settings: Settings, classifier: str,
                n_features: int) -> tuple[go.Figure, str]:
    """Test error against the number of components, kernel and linear PCA, and the caption
    on each curve's best k."""
    curves = {f"kernel PCA ({kernel_label(settings)})": result.kernel_curve,
              "linear PCA": result.pca_curve}
    fig = figs.error_curve_figure(
        curves, chosen_k=result.n_components, raw_error=result.raw.error,
        raw_label=f"raw inputs ({n_features} features)",
        title=f"Test error of a {cls.CLASSIFIERS[classifier]} against the number of components",
    )
    best_k = min(result.kernel_curve, key=lambda k: (result.kernel_curve[k], k))
    best_p = min(result.pca_curve, key=lambda k: (result.pca_curve[k], k))
    caption = (
        f"Kernel PCA is best here at k = {best_k} ({pct(result.kernel_curve[best_k])}), "
        f"linear PCA at k = {best_p} ({pct(result.pca_curve[best_p])}); linear PCA stops at "
        f"{max(result.pca_curve)} components (at most one per input feature). Each curve "
        "comes from one decomposition: the first k columns of the largest fit are the "
        "k-component fit, so nothing is refitted."
    )
    return fig, caption
