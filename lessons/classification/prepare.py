"""Classification's first view at given settings, computed ahead (``lecture_pack.ahead``)."""

from __future__ import annotations

from lessons.classification.view import (
    DEFAULT_C,
    DEFAULT_CLASSIFIER,
    cached_experiment,
    default_components,
    n_train_of,
)
from shell.caches import load_data
from shell.state import Settings


def prepare(settings: Settings) -> None:
    """The split, kernel PCA and the classifiers at the page's own first k, C and
    classifier (the USPS step's 36–52 s, issue 35)."""
    data = load_data(settings.dataset, settings.dataset_options)
    if data.y is None:
        return  # the page asks for labelled data
    k = default_components(n_train_of(settings, len(data.X)), settings.dataset == "usps")
    cached_experiment(settings.data_key, settings.kernel_key, k, DEFAULT_CLASSIFIER, DEFAULT_C)
