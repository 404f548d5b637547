"""Common mistakes (AppTest): each mistake's measured damage, and the page's limits."""

from __future__ import annotations

import numpy as np
import pytest

import datasets
from experiments.checks import format_value
from lessons.mistakes.experiment import (
    EIG_MAX_N,
    CentredInputs,
    NewPointsOwnMeans,
    UncentredProjection,
    UnsortedEig,
    compare_mistakes,
)
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import N, checks_shown, query, settings_of
from tests.support.plotly_json import find_chart, scatter_points

# The AppTests cover the kernels that behave differently on these pages (translation-
# invariant, polynomial, indefinite, rank-deficient); tests/experiments covers all six.
PAGE_KERNELS = ["rbf", "poly", "sigmoid", "linear"]


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
    mistakes = compare_mistakes(X, kernel=kernel, kernel_params=settings.kernel_params(),
                                eig_max_n=EIG_MAX_N)
    by_type = {type(m): m for m in mistakes}
    damages = [d for m in mistakes for d in m.damages]  # in the page's order
    shown = damages_shown(at)
    assert [label for _, label, _ in shown] == [d.label for d in damages]
    for (harmless, label, value), d in zip(shown, damages, strict=True):
        assert value == format_value(d.value), label
        assert harmless == d.harmless, label
    # Non-zero where the mistake does damage, ~0 where it is harmless.
    assert len(damages) == 8
    for m in mistakes:
        if not isinstance(m, CentredInputs | UnsortedEig):
            assert not any(d.harmless for d in m.damages) and m.damage.value > 1e-6, m.key
    assert by_type[CentredInputs].harmless == (kernel in HARMLESS_INPUT_CENTRING)
    # Every caption and every check is on the page as the experiment states it.
    captions = [c.value for c in at.caption]
    checks = checks_shown(at)
    for m in mistakes:
        assert m.caption() in captions, m.key
        for check in m.checks():
            assert checks[check.label] == format_value(check.value), check.label
    # Wrong test centring is harmless on the training points themselves: shown as 0.
    assert by_type[NewPointsOwnMeans].on_training_points < 1e-12

    # The pictures are the right and the wrong projections.
    spec = find_chart(at, "Projections: K̃α (left) vs Kα (right)")
    left = {**spec, "data": [t for t in spec["data"] if t.get("xaxis", "x") == "x"]}
    right = {**spec, "data": [t for t in spec["data"] if t.get("xaxis") == "x2"]}
    r = by_type[UncentredProjection].picture
    np.testing.assert_allclose(scatter_points(left)[1], r.right[:, :2], atol=1e-12)
    np.testing.assert_allclose(scatter_points(right)[1], r.wrong[:, :2], atol=1e-12)


def test_mistakes_page_needs_a_few_points():
    at = open_app("mistakes", {"dataset": "scholkopf_toy", "n": 6, "kernel": "rbf"})
    assert_clean(at)
    assert any("at least 8 points" in w.value for w in at.warning)
