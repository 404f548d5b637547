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
def test_mistakes_show_the_measured_damage(shared_page, kernel):
    q = query(kernel)
    at = shared_page("mistakes", q)
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


def eig_panels(at) -> tuple[np.ndarray, np.ndarray]:
    spec = find_chart(at, "Projections on the first")
    left = {**spec, "data": [t for t in spec["data"] if t.get("xaxis", "x") == "x"]}
    right = {**spec, "data": [t for t in spec["data"] if t.get("xaxis") == "x2"]}
    return scatter_points(left)[1], scatter_points(right)[1]


@pytest.mark.parametrize("q", [
    {"dataset": "moons", "kernel": "poly", "gamma": 1, "degree": 3, "coef0": 1},  # tour step 7
    {"dataset": "circles", "kernel": "rbf", "gamma": 5},
    {"dataset": "iris", "kernel": "sigmoid", "gamma": 0.5, "coef0": -1},  # eig picks wrong
], ids=["tour-moons-poly", "circles-rbf", "iris-sigmoid"])
def test_unsorted_eig_without_damage_draws_the_same_picture_twice(q):
    # Issue 23: "no damage on these data" over two mirror images: eig's signs were not
    # fixed as every other picture's are.
    at = open_app("mistakes", q)
    assert_clean(at)
    harmless, label, _ = damages_shown(at)[-1]
    assert label.startswith("largest angle between the subspaces")
    right, wrong = eig_panels(at)
    assert harmless == (q["kernel"] != "sigmoid")
    if harmless:
        np.testing.assert_allclose(wrong, right, atol=1e-9 * np.abs(right).max())
    else:  # the wrong components: not the same picture, even up to sign
        assert not np.allclose(np.abs(wrong), np.abs(right), atol=1e-6)


def test_each_mistake_says_where_it_was_found(shared_page):
    # Issue 23: "appears in published notes or code" cited nothing.
    at = shared_page("mistakes", query("rbf"))
    assert_clean(at)
    sources = [c.value for c in at.caption if c.value.startswith("Found in: ")]
    assert len(sources) == 7
    assert "“核PCA原理解析”" in sources[1]  # the wrong last sign
    assert "Kernel Principal Component Analysis in C#" in sources[2]  # centred inputs
    assert "Transform method" in sources[3]  # test kernel with its own means
    assert "U(:,n)/d(n)/N" in sources[4] and "Y = (K*U)'" in sources[5]
    assert sources[6].startswith("Found in: none of the documents")
    intro = " ".join(m.value for m in at.markdown)
    assert "six of the errors below appear in public lecture notes and code" in intro
