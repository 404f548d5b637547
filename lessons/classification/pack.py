"""Classification for the offline lecture: the page at its first settings (a linear SVM,
C = 1, k = 128 kernel principal components of the USPS training digits): its three test
errors and the sentence comparing them (section 2), the confusion matrix with its caption
(section 3) and the test error against the number of components (section 4).

No slider: each setting is a kernel PCA of the training digits and a classifier at every k
of the curve; the step shows its own. The step's question (what boundary does a linear
classifier on these components draw in the input space?) is answered beside it by the
midpoint check of the question's verdict.
"""

from __future__ import annotations

from collections.abc import Sequence

import numpy as np

from experiments.checks import check_text
from lessons.classification import experiment as cls
from lessons.classification.sections import (
    comparison_caption,
    confusion_chart,
    curve_chart,
    kernel_label,
    make_split,
    pct,
)
from lessons.common.pack import PackFrame, Slider
from shell.state import Settings
from words.i18n import _, format_number

# The page's first settings (lessons.classification.view: its controls' defaults on USPS,
# and the curve's largest k).
CLASSIFIER, C, COMPONENTS, CURVE_MAX = "linear_svm", 1.0, 128, 256


def slider(X: np.ndarray, y: np.ndarray | None, settings: Settings) -> Slider:
    return Slider(None, (), _("No slider: each setting is a kernel PCA of the {n} training "
                              "digits and a classifier at every k; this is the step's "
                              "own.").format(n=format_number(len(X), ",")))


def experiment_at(settings: Settings):
    """The page's split and experiment at ``settings`` (its first k, classifier and C)."""
    split = make_split(settings.data_key)
    result = cls.run_experiment(
        split.X_train, split.y_train, split.X_test, split.y_test,
        kernel=settings.kernel, kernel_params=settings.kernel_params(),
        n_components=COMPONENTS, classifier=CLASSIFIER, C=C,
        standardize=settings.standardize, curve_max=CURVE_MAX)
    return split, result


def frames(X: np.ndarray, y: np.ndarray | None, data,
           at: Sequence[Settings]) -> list[PackFrame]:
    out = []
    for settings in at:
        split, result = experiment_at(settings)
        n_features = split.X_train.shape[1]
        errors = _("Test error of the same {classifier} (C = {C}): **kernel PCA, k = {k}: "
                   "{kernel_error}**; linear PCA, k = {linear_k}: {linear_error}; raw inputs, "
                   "{n} features: {raw_error}.").format(
            classifier=_(cls.CLASSIFIERS[CLASSIFIER]), C=format_number(C, "g"),
            k=format_number(result.n_components), kernel_error=pct(result.kernel.error),
            linear_k=format_number(result.pca_components), linear_error=pct(result.pca.error),
            n=format_number(n_features), raw_error=pct(result.raw.error))
        confusion, confusion_caption, check = confusion_chart(result, split)
        curve, curve_caption = curve_chart(result, settings, CLASSIFIER, n_features)
        sentences = (errors, comparison_caption(result, kernel_label(settings), split.y_test),
                     confusion_caption, check_text(check), curve_caption)
        out.append(PackFrame((("confusion", confusion), ("curve", curve)), sentences, {
            "kernel_error": result.kernel.error, "pca_error": result.pca.error,
            "raw_error": result.raw.error, "n_components": result.n_components,
            "pca_components": result.pca_components,
            "confusion": np.asarray(result.kernel.confusion).tolist(),
            "kernel_curve": {str(k): v for k, v in result.kernel_curve.items()},
            "pca_curve": {str(k): v for k, v in result.pca_curve.items()}}))
    return out
