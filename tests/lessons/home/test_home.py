"""The home page (AppTest): what each lesson teaches, and presets that open their views."""

from __future__ import annotations

import pytest

from lessons.home.presets import presets
from shell import state
from shell.registry import LESSONS
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import find_chart
from tests.support.plotly_json import title as plotly_title


def test_home_page_explains_and_offers_the_presets(shared_page):
    at = shared_page("home")
    assert_clean(at)
    assert at.title[0].value == "KPCA Lab"
    intro = next(m.value for m in at.markdown if not m.value.startswith("<style"))  # not CSS
    assert "Kernel PCA" in intro
    labels = [b.label for b in at.button]
    assert labels[:5] == [p.title for p in presets()]


@pytest.mark.parametrize("preset", presets()[:3] + presets()[4:], ids=lambda p: p.key)
def test_preset_opens_the_explorer_with_its_settings(preset):
    at = open_app("home")
    at.button(key=f"preset_{preset.key}").click().run()
    assert_clean(at)
    assert at.title[0].value == "Explorer"
    assert at.query_params == state.settings_to_query(preset.settings)
    assert at.selectbox(key="w_kernel").value == preset.settings.kernel


@needs_usps
def test_usps_preset_shows_digits():
    preset = next(p for p in presets() if p.key == "usps_poly")
    at = open_app("home")
    at.button(key=f"preset_{preset.key}").click().run()
    assert_clean(at)
    find_chart(at, "Sample digits (2,000 used")
    assert "Polynomial" in plotly_title(find_chart(at, "Kernel PCA"))


def test_every_lesson_is_listed_on_home_with_what_it_teaches(shared_page):
    at = shared_page("home")
    assert_clean(at)
    shown = [m.value for m in at.markdown]
    links = [link.proto.label for link in at.get("page_link")]
    for lesson in LESSONS:
        assert lesson.teaches in shown and lesson.title in links
