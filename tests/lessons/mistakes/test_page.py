"""Common mistakes (AppTest): each mistake's measured damage, and the page's limits."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from experiments.checks import format_value
from lessons.mistakes.experiment import compare_mistakes
from lessons.mistakes.view import EIG_MAX_N
from shell import state
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import find_chart, scatter_points

N = 60

KERNEL_QUERIES = {
    "rbf": {"gamma": "2"},
    "laplacian": {"gamma": "1"},
    "linear": {},
    "poly": {"gamma": "1", "degree": "3", "coef0": "1"},
    "sigmoid": {"gamma": "0.5", "coef0": "-1"},
    "cosine": {},
}

# The AppTests cover the kernels that behave differently on these pages (translation-
# invariant, polynomial, indefinite, rank-deficient); tests/experiments covers all six.
PAGE_KERNELS = ["rbf", "poly", "sigmoid", "linear"]


def query(kernel: str, dataset: str = "circles", **extra) -> dict:
    return {"dataset": dataset, "n": N, "kernel": kernel, **KERNEL_QUERIES[kernel], **extra}


def settings_of(q: dict) -> state.Settings:
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


def damages_shown(at) -> list[tuple[bool, str, str]]:
    """(harmless?, label, value) of every damage line, in page order."""
    found = []
    for element in at.markdown:
        text = element.value
        for prefix, harmless in ((":red[**Damage**] · ", False),
                                 (":green[**No damage on these data**] · ", True)):
            if text.startswith(prefix):
                label, value = text.removeprefix(prefix).rsplit(": ", 1)
                found.append((harmless, label, value.strip("*")))
    return found


HARMLESS_INPUT_CENTRING = {"rbf", "laplacian", "linear"}


@pytest.mark.parametrize("kernel", PAGE_KERNELS)
def test_mistakes_show_the_measured_damage(kernel):
    q = query(kernel)
    at = open_app("mistakes", q)
    assert_clean(at)
    settings = settings_of(q)
    X = datasets.load("circles", n=N).X
    results = compare_mistakes(X, kernel=kernel, kernel_params=settings.kernel_params(),
                               eig_max_n=EIG_MAX_N)
    order = ["no_centering", "last_sign", "centred_inputs", "test_own_means", "scaling",
             "scaling_mu_n", "uncentred_projection", "unsorted_eig"]
    shown = damages_shown(at)
    assert [label for _, label, _ in shown] == [results[k].damage_label for k in order]
    for (harmless, _, value), key in zip(shown, order, strict=True):
        assert value == format_value(results[key].damage), key
        assert harmless == results[key].harmless, key
    # Non-zero where the mistake does damage, ~0 where it is harmless.
    by_key = dict(zip(order, shown, strict=True))
    for key in ("no_centering", "last_sign", "test_own_means", "scaling", "scaling_mu_n",
                "uncentred_projection"):
        assert not by_key[key][0] and results[key].damage > 1e-6, key
    assert by_key["centred_inputs"][0] == (kernel in HARMLESS_INPUT_CENTRING)
    # Wrong test centring is harmless on the training points themselves: shown as 0.
    checks = checks_shown(at)
    assert checks["on the training points themselves, |wrong − right| (their own means are "
                  "the training means)"] == format_value(
        results["test_own_means"].numbers["on_training_points"])
    assert results["test_own_means"].numbers["on_training_points"] < 1e-12

    # The pictures are the right and the wrong projections.
    spec = find_chart(at, "Projections: K̃α (left) vs Kα (right)")
    left = {**spec, "data": [t for t in spec["data"] if t.get("xaxis", "x") == "x"]}
    right = {**spec, "data": [t for t in spec["data"] if t.get("xaxis") == "x2"]}
    r = results["uncentred_projection"]
    np.testing.assert_allclose(scatter_points(left)[1], r.right[:, :2], atol=1e-12)
    np.testing.assert_allclose(scatter_points(right)[1], r.wrong[:, :2], atol=1e-12)


def test_mistakes_page_needs_a_few_points():
    at = open_app("mistakes", {"dataset": "scholkopf_toy", "n": 6, "kernel": "rbf"})
    assert_clean(at)
    assert any("at least 8 points" in w.value for w in at.warning)
