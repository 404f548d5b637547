"""The Classification page's split, its sentences and its charts of sections 3 and 4 (the
confusion matrix, the error against the number of components) without Streamlit: the page
(:mod:`lessons.classification.view`) shows them, and the offline lecture
(:mod:`lessons.classification.pack`) carries them.
"""

from __future__ import annotations

import itertools
import math
import re
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
from words.i18n import N_, _, format_number, join_sentences

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
    seed: int
    usps: bool  # USPS's published split (else a seeded stratified split)
    sidebar_split_ignored: bool  # the sidebar's "USPS split" is not "train"
    code: tuple[str, ...]  # the lines that load the same split, for the snippet


def describe_split(split: TrainTestData) -> str:
    """How the split was made, in the language of this run (the split itself is cached
    for every session: numbers only)."""
    n_train, n_test = len(split.y_train), len(split.y_test)
    if split.usps:
        note = (_("The sidebar's 'USPS split' is not used here: training digits always "
                  "come from the training set and test digits from the test set.")
                if split.sidebar_split_ignored else "")
        return join_sentences([
            _("USPS's own split: **{train} training digits** (a stratified subset of the "
              "7,291, seed {seed}; 'Digits used' in the sidebar) and **all {test} test "
              "digits** of the published test set.").format(
                train=format_number(n_train, ","), seed=split.seed,
                test=format_number(n_test, ",")),
            note])
    return _("A seeded stratified split of the {n} points: **{train} for training, {test} "
             "for testing** ({held_out} held out, every class in proportion, seed "
             "{seed}).").format(
        n=format_number(n_train + n_test, ","), train=format_number(n_train, ","),
        test=format_number(n_test, ","), held_out=format_number(TEST_FRACTION, ".0%"),
        seed=split.seed)


class SplitError(ValueError):
    """A split that cannot be made. Its message is said when it is read, in the language
    of whoever shows it: a cache may hand one session's error to another."""

    def __init__(self, message: str, phrases: tuple[str, ...] = (), **values) -> None:
        super().__init__(message)
        self.message, self.phrases, self.values = message, phrases, values

    def __str__(self) -> str:
        return _(self.message).format(**{
            name: _(value) if name in self.phrases else value
            for name, value in self.values.items()})


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
    raise SplitError(
        N_("{n} points give {train} for training and {test} for testing ({held_out} held "
           "out), but each side needs at least one point of each of the {classes} classes. "
           "Use at least {needed} points: {where}."), ("where",),
        n=n, train=n - n_test, test=n_test, held_out=f"{TEST_FRACTION:.0%}",
        classes=n_classes, needed=needed, where=where)


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
        return TrainTestData(
            train.X, train.y, test.X, test.y, train.target_names, train.image_shape,
            seed, True, options.get("split", "train") != "train",
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
        raise SplitError(N_("this dataset has no class labels. Pick a dataset with classes, "
                            "or upload a CSV and choose its label column in the sidebar."))
    counts = np.unique(data.y, return_counts=True)[1]
    if len(counts) < 2 or counts.min() < 2:
        raise SplitError(N_("a stratified split needs at least 2 classes and at least 2 points "
                            "in every class; the smallest class here has {smallest}."),
                         smallest=int(counts.min()))
    _check_split_sizes(
        len(data.y), len(counts),
        N_("raise 'Number of points n' in the sidebar") if "n" in options
        else N_("upload a file with more rows") if data_key.dataset == "csv"
        else N_("choose a dataset with more points"),
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
        seed, False, False,
        (*load,
         "from sklearn.model_selection import train_test_split",
         "",
         "X_train, X_test, y_train, y_test = train_test_split(",
         f"    X, y, test_size={TEST_FRACTION}, stratify=y, random_state={seed})"),
    )


def pct(error: float) -> str:
    return f"{format_number(100 * error, '.2f')} %"


def kernel_label(settings: Settings) -> str:
    params = params_text(settings)
    return f"{settings.kernel}" + (f", {params}" if params else "")


# The three kinds of features as a sentence names them, in the order a tie lists them.
_FEATURES = {"kernel": N_("kernel PCA ({kernel})"), "linear": N_("linear PCA"),
             "raw": N_("the raw inputs")}
_TIES = {2: N_("{first} and {second} make the same number of test errors ({error})."),
         3: N_("{first} and {second} and {third} make the same number of test errors "
               "({error}).")}
# The kernel features against the raw inputs: fewer or more errors, and whether the
# difference is beyond chance (McNemar), each a whole sentence.
_AGAINST_RAW = {
    (True, True): N_("On kernel PCA's components the same linear classifier makes {count} "
                     "fewer errors than on the raw inputs, of {total} test points: the two "
                     "disagree on {disagree} points and kernel PCA is right on {kernel} of "
                     "them, more one-sided than chance would make it."),
    (False, True): N_("On kernel PCA's components the same linear classifier makes {count} "
                      "more errors than on the raw inputs, of {total} test points: the two "
                      "disagree on {disagree} points and kernel PCA is right on {kernel} of "
                      "them, more one-sided than chance would make it."),
    (True, False): N_("On kernel PCA's components the same linear classifier makes {count} "
                      "fewer errors than on the raw inputs, of {total} test points, a "
                      "difference chance could make on this test set (the two disagree on "
                      "{disagree} points: kernel PCA right on {kernel}, the raw inputs on "
                      "{raw})."),
    (False, False): N_("On kernel PCA's components the same linear classifier makes {count} "
                       "more errors than on the raw inputs, of {total} test points, a "
                       "difference chance could make on this test set (the two disagree on "
                       "{disagree} points: kernel PCA right on {kernel}, the raw inputs on "
                       "{raw})."),
}


def comparison_caption(result: cls.Experiment, kernel_text: str, y_test: np.ndarray) -> str:
    """Which features won and by how many test points, and whether that is more than the
    test set's chance: only what the numbers show, no cause."""
    errors = {"kernel": result.kernel.error, "linear": result.pca.error,
              "raw": result.raw.error}
    names = {key: _(label) for key, label in _FEATURES.items()}
    names["kernel"] = names["kernel"].format(kernel=kernel_text)
    ranking = sorted((error, key) for key, error in errors.items())
    best_error, best = ranking[0]
    ties = [names[key] for error, key in ranking if error == best_error]
    if len(ties) > 1:
        return _(_TIES[len(ties)]).format(
            **dict(zip(("first", "second", "third"), ties, strict=False)), error=pct(best_error))
    verdict = _("Best here: {best}, {error} test error.").format(best=names[best],
                                                                 error=pct(best_error))
    kernel_right = result.kernel.predicted == y_test
    raw_right = result.raw.predicted == y_test
    only_kernel = int(np.sum(kernel_right & ~raw_right))
    only_raw = int(np.sum(raw_right & ~kernel_right))
    fewer = only_kernel - only_raw
    if fewer == 0:
        return join_sentences([verdict, _(
            "Kernel PCA's components and the raw inputs make the same number of errors with "
            "the same linear classifier.")])
    against_raw = _(_AGAINST_RAW[fewer > 0, beyond_chance(only_kernel, only_raw)]).format(
        count=format_number(abs(fewer)), total=format_number(len(y_test)),
        disagree=format_number(only_kernel + only_raw), kernel=format_number(only_kernel),
        raw=format_number(only_raw))
    more = (_("Another kernel, γ or degree, or more components may do better.")
            if best != "kernel" else "")
    return join_sentences([verdict, against_raw, more])


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
                                title=_("Confusion matrix (test set)"))
    wrong = int(evaluation.confusion.sum() - np.trace(evaluation.confusion))
    total = int(evaluation.confusion.sum())
    caption = _("Off the diagonal: {wrong} of {total} test points, so the test error is "
                "{wrong} / {total} = {error}.").format(
        wrong=format_number(wrong), total=format_number(total),
        error=pct(wrong / total if total else float("nan")))
    check = Check(_("test points predicted wrongly − off-diagonal count of the matrix"),
                  float(np.count_nonzero(evaluation.predicted != split.y_test) - wrong), 0.0)
    return fig, caption, check


def curve_chart(result: cls.Experiment, settings: Settings, classifier: str,
                n_features: int) -> tuple[go.Figure, str]:
    """Test error against the number of components, kernel and linear PCA, and the caption
    on each curve's best k."""
    curves = {_("kernel PCA ({kernel})").format(kernel=kernel_label(settings)):
              result.kernel_curve,
              _("linear PCA"): result.pca_curve}
    fig = figs.error_curve_figure(
        curves, chosen_k=result.n_components, raw_error=result.raw.error,
        raw_label=_("raw inputs ({n} features)").format(n=format_number(n_features)),
        title=_("Test error of a {classifier} against the number of components").format(
            classifier=_(cls.CLASSIFIERS[classifier])),
    )
    best_k = min(result.kernel_curve, key=lambda k: (result.kernel_curve[k], k))
    best_p = min(result.pca_curve, key=lambda k: (result.pca_curve[k], k))
    caption = _(
        "Kernel PCA is best here at k = {kernel_k} ({kernel_error}), linear PCA at k = "
        "{linear_k} ({linear_error}); linear PCA stops at {linear_max} components (at most "
        "one per input feature). Each curve comes from one decomposition: the first k columns "
        "of the largest fit are the k-component fit, so nothing is refitted."
    ).format(kernel_k=format_number(best_k), kernel_error=pct(result.kernel_curve[best_k]),
             linear_k=format_number(best_p), linear_error=pct(result.pca_curve[best_p]),
             linear_max=format_number(max(result.pca_curve)))
    return fig, caption


# kpca_core's IndefiniteKernelWarning (kpca_core/estimator.py), word for word: its numbers
# are read back so that the run's language can say it.
_INDEFINITE = re.compile(
    r"The centred kernel matrix has (\d+) significantly negative eigenvalue\(s\) among the "
    r"(\d+) computed \(smallest (\S+)\): the ('[^']*') kernel is not positive semi-definite "
    r"for these data, so those components have no real feature-space axis and project to 0\.")


def fit_warning(message: str) -> str:
    """A warning of the fit, in the language of this run when it is kpca_core's message on
    negative eigenvalues (the English is that message, unchanged); any other as it is."""
    match = _INDEFINITE.fullmatch(message)
    if match is None:
        return message
    count, computed, smallest, kernel = match.groups()
    # Translators: {code_name} is the kernel's name in code, quoted as kpca_core writes it
    # ('sigmoid'), not its title.
    return _("The centred kernel matrix has {count} significantly negative eigenvalue(s) among "
             "the {k} computed (smallest {smallest}): the {code_name} kernel is not positive "
             "semi-definite for these data, so those components have no real feature-space "
             "axis and project to 0.").format(
        count=format_number(int(count)), k=format_number(int(computed)),
        smallest=format_number(float(smallest), ".3g"), code_name=kernel)
