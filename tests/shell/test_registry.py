"""The registry's statement of each lesson's n × n work is the lesson's own: the sizes it
works on, computed independently by the lesson's code, at sizes below and above its caps."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

import datasets
from datasets.drawn import MAX_POINTS
from experiments.novelty import novelty_split
from lessons.denoising.caches import DenoisingSettings
from lessons.kernel_trick.view import explicit_rows
from lessons.mistakes.view import sample_rows as mistakes_rows
from lessons.new_points.experiment import split_indices
from lessons.one_eigenproblem.view import sample_rows as eigenproblem_rows
from shell.registry import (
    LESSONS,
    NEW_POINTS_HELD_OUT,
    NOVELTY_CAP,
    NOVELTY_MAX_TRAIN,
    TEST_FRACTION,
)

WORK = {lesson.url_path: lesson.work for lesson in LESSONS}
SIZES = (3, 10, 11, 299, 300, 301, 1999, 2000, 2001, 5000)


@pytest.mark.parametrize("n", SIZES)
def test_the_stated_sides_are_the_lessons_own(n):
    assert WORK["kernel_trick"].side_for(n) == len(explicit_rows(n, 2))  # points in the plane
    assert WORK["mistakes"].side_for(n) == len(mistakes_rows(n))
    train, _ = split_indices(n, None, heldout_fraction=NEW_POINTS_HELD_OUT)
    assert WORK["new_points"].side_for(n) == len(train)
    train, _ = train_test_split(np.arange(n), test_size=TEST_FRACTION, random_state=0)
    assert WORK["classification"].side_for(n) == len(train)
    assert WORK["one_eigenproblem"].side_for(n) == len(eigenproblem_rows(n, None))
    data = datasets.load("moons", n=max(n, 20))  # the novelty page fits on its normal points
    split = novelty_split(data.X, data.y, None, max_train=NOVELTY_MAX_TRAIN)
    assert WORK["novelty"].side_for(len(data.X)) == len(split.train)
    for page in ("explorer", "how_it_works", "component_maps", "choosing_gamma", "scale"):
        assert WORK[page].side_for(n) == n


def test_the_caps_are_where_the_sides_stop_growing():
    for page, work in WORK.items():
        if work is None or isinstance(work.side, int):
            continue
        if work.cap is None:
            assert work.side_for(10_000) > work.side_for(5_000), page
        else:
            assert work.side_for(work.cap + 1) == work.side_for(10 * work.cap) == \
                work.side_for(work.cap)


def test_the_fixed_sides_are_the_pages_own_sizes():
    assert WORK["draw"].side_for(1) == MAX_POINTS
    assert WORK["denoising"].side_for(1) == DenoisingSettings().n_train


def test_a_page_with_its_own_settings_asks_no_question_of_its_own():
    """Its view does not follow the sidebar, so nothing would say at which settings to ask
    it (a tour step asks at the step's own: classroom/banner.py)."""
    own = [lesson for lesson in LESSONS if lesson.own_settings]
    assert [lesson.url_path for lesson in own] == ["denoising"]
    assert not [lesson.url_path for lesson in own if lesson.question]


def search_peak(X) -> int:
    """The bytes the search for outliers off the shape holds at its peak (tracemalloc: every
    NumPy array and Python object it makes), all points normal."""
    import tracemalloc

    tracemalloc.start()
    try:
        novelty_split(X, None, None, max_train=NOVELTY_MAX_TRAIN)
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def one_tight_blob(n: int, d: int, seed: int = 0) -> np.ndarray:
    """All points but two in a tiny blob, two at far corners: every candidate of the box is
    off the shape, so the first round keeps all it draws (the search's largest arrays)."""
    X = np.random.default_rng(seed).normal(scale=1e-3, size=(n, d))
    X[0], X[1] = -1.0, 1.0
    return X


@pytest.mark.parametrize("n", [1000, NOVELTY_CAP])
def test_novelty_states_the_peak_of_its_search_for_outliers_off_the_shape(n):
    # The search comes before the fit, in its own turn, among all n points (no cap): the
    # page's peak is the larger of the two. In 256-D it is the search's from about 1,000
    # points (34 MB stated at the cap against the fit's 24 MB).
    work = WORK["novelty"]
    # The plane; the worst case in 256-D (measured: 68 % of the statement); the digits.
    cases = [("moons", datasets.load("moons", n=n).X), ("blob", one_tight_blob(n, 256))]
    from tests.support.apptest import usps_available

    if usps_available():
        cases.append(("usps", datasets.load("usps", n=n).X))
    for name, X in cases:
        measured = search_peak(X)
        stated = work.first(len(X), X.shape[1])
        assert measured <= stated, (name, measured, stated)
        assert work.peak_bytes(len(X), X.shape[1]) == max(
            stated, 3 * 8 * work.side_for(len(X)) ** 2)
    if usps_available():
        assert work.peak_bytes(NOVELTY_CAP, 256) == work.first(NOVELTY_CAP, 256)
