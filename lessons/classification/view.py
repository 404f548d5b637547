"""Sections of the Classification page and its bounded caches.

The computation is :func:`lessons.classification.experiment.run_experiment` (the same code as
the Table 1 script's pipeline); this module splits the data, caches the result per
setting and draws it.
"""

from __future__ import annotations

import time

import numpy as np
import streamlit as st

from experiments.checks import Check
from lessons.classification import experiment as cls
from lessons.classification import figures as figs
from lessons.classification.sections import (  # noqa: F401  (the page's, read from here)
    USPS_TEST_SIZE,
    TrainTestData,
    beyond_chance,
    comparison_caption,
    confusion_chart,
    curve_chart,
    describe_split,
    fit_warning,
    kernel_label,
    make_split,
    pct,
)
from server.admission import queued
from server.memory import guard_memory
from shell import findings
from shell.caches import bounded_cache, load_data
from shell.charts import show_chart
from shell.checks import show_check
from shell.display import number_caption
from shell.page import refusal_text
from shell.registry import TEST_FRACTION, classification_training  # noqa: F401  (the tests read it here)
from shell.state import DataKey, KernelKey, Settings
from words.i18n import N_, _, format_number

CURVE_MAX = 256
COMPONENT_CHOICES = (1, 2, 4, 8, 16, 32, 64, 128, 256)
C_CHOICES = (0.01, 0.1, 1.0, 10.0, 100.0)
DEFAULT_CLASSIFIER, DEFAULT_C = "linear_svm", 1.0
MISCLASSIFIED_SHOWN = 40
K_CLASSIFIER, K_COMPONENTS, K_C = "cls_classifier", "cls_components", "cls_C"


# Each entry: the split, the fitted pipeline (n_train × features + n_train × k) and small
# arrays; for 2,000 USPS digits about 8 MB.
@bounded_cache(max_entries=6)
def cached_experiment(data_key: DataKey, kernel: KernelKey, n_components: int, classifier: str,
                C: float):
    split = make_split(data_key, load_data)
    n_train = len(split.y_train)
    # Kernel PCA's K and the eigensolver's copy: big fits take turns on the server.
    with queued(n_train, copies=2, what=N_("this kernel PCA and its classifiers")):
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
    titles = {key: _(title) for key, title in cls.CLASSIFIERS.items()}
    classifier = left.radio(_("Linear classifier"), list(cls.CLASSIFIERS), key=K_CLASSIFIER,
                            format_func=titles.__getitem__, horizontal=True)
    C = middle.select_slider("C", C_CHOICES, key=K_C, format_func=lambda c: f"{c:g}",
                             help=_("Inverse regularisation strength of the classifier: larger "
                                    "C fits the training points more closely."))
    k = right.select_slider(_("Kernel principal components k"), choices, key=K_COMPONENTS)
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
    guard_memory(n_test, n_train, what=N_("the test kernel K_t"))
    try:
        with st.spinner(_("Fitting kernel PCA and the classifiers…")):
            return cached_experiment(settings.data_key, settings.kernel_key, k, classifier, C)
    except ValueError as error:
        # A SplitError says itself in this run's language when formatted.
        st.error(_("This cannot be classified with these settings: {error}").format(
            error=refusal_text(error)))
        st.stop()
        raise AssertionError("unreachable") from error


def split_section(split: TrainTestData) -> None:
    st.markdown(describe_split(split))


def _delta(error: float, raw: float) -> dict:
    """st.metric's delta against the raw inputs (grey when equal: nothing gained or lost)."""
    if error == raw:
        return {"delta": _("same as raw"), "delta_color": "off", "delta_arrow": "off"}
    # The number first in every language: st.metric reads the arrow from its sign.
    return {"delta": _("{difference} vs raw").format(
                difference=format_number(100 * (error - raw), "+.2f")),
            "delta_color": "inverse"}


def errors_section(result: cls.Experiment, settings: Settings, classifier: str, C: float,
                   n_features: int, y_test: np.ndarray) -> None:
    name = _(cls.CLASSIFIERS[classifier])
    st.markdown(_("Test error of the same **{classifier}** (C = {C}) on three kinds of "
                  "features:").format(classifier=name, C=format_number(C, "g")))
    kernel_col, pca_col, raw_col = st.columns(3)
    raw = result.raw.error
    kernel_col.metric(_("Kernel PCA, k = {k}").format(k=format_number(result.n_components)),
                      pct(result.kernel.error), **_delta(result.kernel.error, raw))
    pca_col.metric(_("Linear PCA, k = {k}").format(k=format_number(result.pca_components)),
                   pct(result.pca.error), **_delta(result.pca.error, raw))
    raw_col.metric(_("Raw inputs, {n} features").format(n=format_number(n_features)), pct(raw))
    text = comparison_caption(result, kernel_label(settings), y_test)
    findings.publish("classification", text)
    number_caption(text)
    notes = [m for m in result.warnings if "negative eigenvalue" in m]
    for message in notes:
        st.warning(fit_warning(message), icon=":material/warning:")
    if any("converge" in m.lower() for m in result.warnings):
        st.caption(_("The {classifier} solver stopped at its iteration limit for at least one "
                     "fit; a smaller C converges faster.").format(classifier=name))


def confusion_section(result: cls.Experiment, split: TrainTestData) -> None:
    fig, caption, check = confusion_chart(result, split)
    show_chart(fig, key="cls_confusion", name="confusion-matrix")
    st.caption(caption)
    show_check(check)


def misclassified_section(result: cls.Experiment, split: TrainTestData) -> None:
    if split.image_shape is None:
        return
    wrong = np.flatnonzero(result.kernel.predicted != split.y_test)
    if len(wrong) == 0:
        st.success(_("Every test digit is classified correctly."))
        return
    shown = wrong[:MISCLASSIFIED_SHOWN]
    true_names = [split.target_names[int(c)] for c in split.y_test[shown]]
    predicted = [split.target_names[int(c)] for c in result.kernel.predicted[shown]]
    fig = figs.misclassified_figure(
        split.X_test[shown], split.image_shape, true_names, predicted,
        title=_("Misclassified test digits (first {shown} of {wrong}): true → predicted").format(
            shown=format_number(len(shown)), wrong=format_number(len(wrong))),
    )
    show_chart(fig, key="cls_misclassified", name="misclassified-digits")


def curve_section(result: cls.Experiment, settings: Settings, classifier: str,
                  n_features: int, requested_k: int) -> None:
    fig, caption = curve_chart(result, settings, classifier, n_features)
    show_chart(fig, key="cls_curve", name="error-vs-components")
    number_caption(caption)
    if result.n_components < requested_k:
        st.info(_("{requested} components asked for, but this kernel gives only {usable} with "
                  "a non-zero eigenvalue on these training points, so k = {k} is "
                  "used.").format(requested=format_number(requested_k),
                                  usable=format_number(result.usable),
                                  k=format_number(result.n_components)))
    curve_error = result.kernel_curve.get(result.n_components)
    if curve_error is not None:
        n_test = len(result.kernel.predicted)
        show_check(Check(
            _("curve at k = {k} (one decomposition, first k columns) − the pipeline refitted "
              "with n_components = k, in test points").format(
                k=format_number(result.n_components)),
            float(round((curve_error - result.kernel.error) * n_test)), 1.0))


def code_section(result: cls.Experiment, split: TrainTestData) -> None:
    st.code(cls.pipeline_code(result.pipeline, data_lines=split.code), language="python")
    st.caption(_("Generated from the fitted pipeline's parameters: this is the pipeline that "
                 "produced the numbers above. `RmsScaler` divides every component by one "
                 "number (see lessons/classification/experiment.py for why not "
                 "StandardScaler)."))
