"""The home page's classroom presets: one-click views, each a :class:`~shell.state.Settings`."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

import datasets
from shell.state import Settings, default_settings, with_suggested_kernel
from words.i18n import N_


@dataclass(frozen=True)
class Preset:
    """A one-click classroom view (``title`` and ``lesson``: English, marked with ``N_``,
    shown with ``_()``)."""

    key: str
    title: str
    lesson: str
    settings: Settings = field(compare=False)


def presets() -> list[Preset]:
    """The classroom presets, in the order they appear on the home page.

    Built on demand (not at import) so they pick up each dataset's current defaults.
    Presets whose dataset is missing from ``datasets.available()`` are left out.
    """
    catalogue = datasets.available()

    def view(dataset: str, kernel: str, **params: Any) -> Settings:
        base = default_settings(dataset)
        options = dict(base.dataset_options)
        for name in list(params):
            if name in options:
                options[name] = params.pop(name)
        return replace(
            base, kernel=kernel, dataset_options=tuple(sorted(options.items())), **params
        )

    candidates = [
        (
            "circles_rbf",
            N_("Circles + RBF (γ=5)"),
            N_("Two nested rings that no straight line separates; with γ = 5 the first RBF "
               "component alone pulls them apart, while linear PCA cannot."),
            "circles",
            lambda: with_suggested_kernel(view("circles", "rbf")),
        ),
        (
            "toy_rbf",
            N_("Schölkopf's toy + RBF"),
            N_("Three Gaussian blobs from the 1998 kernel PCA paper; the leading RBF "
               "components pick out the clusters one by one."),
            "scholkopf_toy",
            lambda: with_suggested_kernel(view("scholkopf_toy", "rbf")),
        ),
        (
            "iris_poly",
            N_("Iris + polynomial"),
            N_("Four flower measurements; a degree-2 polynomial kernel does no better than "
               "linear PCA at separating the three species — kernels are not always a win."),
            "iris",
            lambda: view("iris", "poly", gamma=0.1, degree=2, coef0=1.0),
        ),
        (
            "usps_poly",
            # Short enough for the button beside its text at 1280 px ("(degree 3)" was cut off).
            N_("USPS + polynomial, degree 3"),
            N_("2,000 handwritten 16×16 digits, each a point in 256 dimensions: see which "
               "digits the cubic kernel's first components pull apart, next to linear PCA."),
            "usps",
            lambda: view("usps", "poly", gamma=1 / 256, degree=3, coef0=1.0),
        ),
        (
            "sigmoid",
            N_("Sigmoid: an indefinite kernel"),
            N_("The sigmoid 'kernel' is not positive semi-definite: its centred matrix has "
               "negative eigenvalues, shown in red in the spectrum."),
            "moons",
            lambda: view("moons", "sigmoid", gamma=2.0, coef0=-1.0),
        ),
    ]
    return [
        Preset(key, title, lesson, build())
        for key, title, lesson, dataset, build in candidates
        if dataset in catalogue
    ]
