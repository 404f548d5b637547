"""The tour's views computed ahead (lecture_pack/ahead.py): after a step is prepared, its
view opens from the tour, with its question, without computing anything (every cached
value the page asks for is a read), so that no step of the lecture is dead air."""

from __future__ import annotations

import threading

import pytest

from classroom import predict
from classroom.tour import STEPS
from lecture_pack import ahead
from server import ahead as shell_ahead
from server import shared_cache
from shell.caches import BoundedStore
from tests.server.test_shared_cache import disk  # noqa: F401  (a fixture)
from tests.support.apptest import assert_clean, open_app, usps_available

LECTURE = [number for number, step in enumerate(STEPS, 1) if not step.part]


def record_computations(monkeypatch) -> list:
    """The keys of every value computed (not read) by a bounded cache from now on."""
    keys = []
    keep = BoundedStore._keep

    def recording(self, key, value):
        keys.append(key)
        return keep(self, key, value)

    monkeypatch.setattr(BoundedStore, "_keep", recording)
    return keys


def described(key: tuple) -> str:
    """A cache key, short: its arguments' names and their small values."""
    return ", ".join(f"{name}={value!r:.60}" for name, value in key)


def open_step_view(number: int):
    """Step ``number`` opened from the tour page, its question skipped: the view runs."""
    at = open_app("tour", {"step": number})
    at.button(key="tour_open").click().run()
    assert_clean(at)
    at.switch_page(STEPS[number - 1].page)  # what the browser's address bar does
    skip = [b for b in at.button if b.key and b.key.startswith("predict_skip_")]
    assert len(skip) == 1, "the step asks its question first"
    skip[0].click().run()
    assert_clean(at)
    return at


@pytest.mark.slow
@pytest.mark.parametrize("number", LECTURE)
def test_a_prepared_step_opens_without_computing(number, monkeypatch):
    step = STEPS[number - 1]
    if step.dataset == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    ahead.prepare_step(step)
    keys = record_computations(monkeypatch)
    open_step_view(number)
    assert keys == [], f"step {number} computed on arrival: {[described(k) for k in keys]}"


def readiness_lines(at) -> list[str]:
    return [m.value for m in at.markdown if "views ready" in m.value]


def test_the_tour_page_starts_the_preparation_and_says_how_far_it_has_got(monkeypatch):
    monkeypatch.setenv(shell_ahead.ENV, "1")
    monkeypatch.setattr(shell_ahead, "_plans", {})
    release, prepared = threading.Event(), []

    def held_step(step):
        release.wait(timeout=30)
        prepared.append(step.title)

    monkeypatch.setattr(ahead, "prepare_step", held_step)
    total = len(STEPS)
    at = open_app("tour")
    assert_clean(at)
    assert readiness_lines(at) == [
        f":material/hourglass_top: Preparing the tour's views ahead: 0 of {total} views ready…"]
    release.set()
    plan = shell_ahead.progress(ahead.PLAN)
    for thread in threading.enumerate():
        if thread.name == f"{shell_ahead.THREAD_PREFIX}{ahead.PLAN}":
            thread.join(timeout=30)
    assert plan.finished and prepared == [step.title for step in STEPS]
    at = open_app("tour")  # another visit: the same plan, finished, nothing started again
    assert readiness_lines(at) == [
        f":material/check_circle: {total} of {total} views ready: every step opens without "
        f"a wait (prepared in {plan.seconds:.0f} s)."]
    assert prepared == [step.title for step in STEPS]


def test_a_step_that_could_not_be_prepared_is_named():
    plan = shell_ahead.Plan("tour", ("step 1", "step 2", "step 3"), done=3,
                            failed=["step 2"], seconds=12.4)
    assert ahead.readiness(plan) == ("2 of 3 views ready (prepared in 12 s); not prepared: "
                                     "step 2 (the view says why when it is opened).")


def test_a_prepared_step_is_kept_where_no_students_work_evicts_it(disk):  # noqa: F811
    step = STEPS[0]
    assert step.page == "app_pages/explorer.py" and step.dataset != "usps"
    ahead.prepare_step(step)
    # The shared cache's prefill (server/shared_cache.py), not the on-demand store that
    # students' crafted links fill and evict.
    # At least the step's analysis (its γ search, verdict and scores, of built-in data at
    # their defaults, ship with the code: experiments/shipped.py).
    kept = list(shared_cache.prefill_cache())
    assert any(key.startswith("lessons.common.analysis.explorer_analysis|") for key in kept), kept
    assert len(shared_cache.on_demand_cache()) == 0


def test_a_step_question_prepared_by_one_replica_is_read_by_the_others(disk,  # noqa: F811
                                                                         monkeypatch):
    # The replica that prepares the tour computes each step's question; a replica whose
    # phones follow the lecturer reads it from the machine's disk instead of computing it
    # while its phones wait their turn to move (server/nudge.py).
    step = next(step for step in STEPS if step.check and step.dataset != "usps")
    settings = step.settings()
    fresh_process(monkeypatch)
    ahead.prepare_step(step)
    asked_here = predict.live_question(step.check, settings, "en")
    assert asked_here is not None
    assert any(key.startswith("classroom.predict._question|")
               for key in shared_cache.prefill_cache())
    fresh_process(monkeypatch)  # another replica: its own store is empty, and it must not compute
    monkeypatch.setattr(predict, "build", _never_built)
    assert predict.live_question(step.check, settings, "en") == asked_here
    assert predict.live_question(step.check, settings, "zh") != asked_here  # its own words


def fresh_process(monkeypatch) -> None:
    """The questions' store of a process that has asked none."""
    monkeypatch.setattr(predict._question.server_store, "_values",
                        type(predict._question.server_store._values)())


def _never_built(*args, **kwargs):
    raise AssertionError("the question was computed, not read from the machine's disk")
