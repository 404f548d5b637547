"""Another table names a page of the registry by its address (the tour's steps:
classroom/tour.py), and a name that is no page fails where it is written."""

from __future__ import annotations

import pytest

from shell.registry import HOME, LESSONS, page_named


def test_a_page_is_named_by_its_address():
    for lesson in (HOME, *LESSONS):
        assert page_named(lesson.url_path) is lesson
    with pytest.raises(KeyError, match="no page 'explorer.py'"):
        page_named("explorer.py")
