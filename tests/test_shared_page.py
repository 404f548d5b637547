"""The page run a module's tests share (``shared_page``, tests/conftest.py): one run
for each page and settings, read by every test that asks for them again, and refusing
another run so that no test changes what another reads."""

from __future__ import annotations

import pytest


def test_the_same_page_and_settings_are_one_run_and_others_another(shared_page):
    home = shared_page("home", {"lang": "en"})
    assert shared_page("home", {"lang": "en"}) is home
    assert shared_page("home", {"lang": "zh-CN"}) is not home
    assert not home.exception and home.title


def test_a_shared_run_refuses_a_rerun_and_a_widgets_run(shared_page):
    home = shared_page("home", {"lang": "en"})
    shown = [t.value for t in home.title]
    with pytest.raises(AssertionError, match="opens its own with open_app"):
        home.run()
    with pytest.raises(AssertionError, match="opens its own with open_app"):
        home.selectbox(key="language_choice").set_value("zh-CN").run()
    assert [t.value for t in home.title] == shown
