"""Each step of the tour says how the offline lecture draws it (``TourStep.offline``); the
lessons' code for its page is found in one table (lecture_pack/pages.py). Every step of the
lecture reaches its page's code there, and nothing there is left unread."""

from __future__ import annotations

import pytest

from classroom.tour import STEPS, Offline, main_steps, offline_steps
from lecture_pack import ahead, build
from lecture_pack.pages import PAGES


def test_the_file_holds_the_lecture_and_not_its_optional_part():
    # What the file says after its last step (build.not_in_the_file): the optional part is
    # in the live app only.
    assert offline_steps() == main_steps()


def test_every_step_of_the_file_is_drawn_as_its_page_by_its_lessons_pack():
    for step in offline_steps():
        assert step.offline is Offline.PAGE, step.title
        assert PAGES[step.lesson].pack.__name__ == f"lessons.{step.url_path}.pack", step.title


def test_every_step_of_the_lecture_has_its_view_prepared_and_no_other():
    for step in STEPS:
        prepared = ahead.view_prepared(step)
        assert (prepared is None) == bool(step.part), step.title
        if prepared is not None:
            assert prepared is PAGES[step.lesson].prepare


def test_every_page_of_the_table_is_opened_by_a_step_of_the_lecture():
    assert set(PAGES) == {step.lesson for step in offline_steps()}


def test_a_step_the_file_does_not_draw_is_refused_by_the_build():
    number, step = next((n, s) for n, s in enumerate(STEPS, 1) if s.offline is None)
    with pytest.raises(ValueError, match="not in the offline lecture"):
        build.build_tour_step(number, step, max_frames=3)
