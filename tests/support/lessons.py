"""What the lesson pages' tests share: small links (one setting per kernel, or a data set's
own), the same settings as ``kernel_params`` for the experiments, the live checks read off
a page, and projections compared up to each component's sign."""

from __future__ import annotations

import numpy as np

import datasets
from shell import state

N = 60  # points in the AppTests' data sets: small, so a page renders in about a second

# As a link (strings, as the URL carries them) for the pages ...
KERNEL_QUERIES = {
    "rbf": {"gamma": "2"},
    "laplacian": {"gamma": "1"},
    "linear": {},
    "poly": {"gamma": "1", "degree": "3", "coef0": "1"},
    "sigmoid": {"gamma": "0.5", "coef0": "-1"},
    "cosine": {},
}
# ... and as kernel_params for the experiments (sigmoid with c₀ < 0: indefinite).
KERNEL_PARAMS = {
    "rbf": {"gamma": 10.0},
    "laplacian": {"gamma": 2.0},
    "linear": {},
    "poly": {"gamma": 1.0, "degree": 3, "coef0": 1.0},
    "sigmoid": {"gamma": 0.5, "coef0": -1.0},
    "cosine": {},
}


def query(kernel: str, dataset: str = "circles", **extra) -> dict:
    """The link to a lesson on ``N`` points of ``dataset`` with ``kernel``'s setting."""
    return {"dataset": dataset, "n": N, "kernel": kernel, **KERNEL_QUERIES[kernel], **extra}


def small_query(dataset: str, kernel: str, **extra) -> dict:
    """The link to ``dataset`` with ``kernel`` (and ``extra``), on ``N`` points where the
    data set has a size to choose (iris and the digits' fixed sets do not)."""
    info = datasets.available()[dataset]
    query = {"dataset": dataset, "kernel": kernel, **extra}
    if any(opt.name == "n" for opt in info.options):
        query["n"] = N
    return query


def settings_of(q: dict) -> state.Settings:
    """The settings a link stands for (it must be a valid one)."""
    settings, problems = state.settings_from_query({k: str(v) for k, v in q.items()})
    assert not problems
    return settings


def checks_shown(at) -> dict[str, str]:
    """Every live check on the page: label → the value as displayed."""
    shown = {}
    for element in at.markdown:
        text = element.value
        if text.startswith(":green[**Check**] · "):
            label, value = text.removeprefix(":green[**Check**] · ").rsplit(": ", 1)
            shown[label] = value.removesuffix(" ✓")
    return shown


def shown_float(text: str) -> float:
    """A number as the app prints it (a true minus, U+2212, in its sign or exponent)."""
    return float(text.replace("−", "-"))


def assert_up_to_sign(shown: np.ndarray, expected: np.ndarray, atol: float) -> None:
    """Each column of ``shown`` equals that of ``expected`` or its negative (a component's
    sign is arbitrary)."""
    for j in range(expected.shape[1]):
        error = min(np.abs(shown[:, j] - expected[:, j]).max(),
                    np.abs(shown[:, j] + expected[:, j]).max())
        assert error <= atol, f"component {j + 1}: {error}"
