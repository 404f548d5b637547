"""The home page in Chinese in Chromium: the characters drawn with a CJK font (no tofu),
no label cut off, the skip link in Chinese; at 1280 × 800 and on a phone."""

from __future__ import annotations

import re

import pytest

from tests.support.browser import assert_no_exception, new_page, shot, wait_until_idle

# Draws a string on a canvas in the page's own font and returns its pixels: a character no
# font on the machine has is drawn as the same "tofu" box as an unassigned code point.
GLYPHS = """(text) => {
  const canvas = document.createElement("canvas");
  canvas.width = 200; canvas.height = 40;
  const context = canvas.getContext("2d");
  const font = getComputedStyle(document.querySelector('[data-testid="stMarkdown"]'))
      .fontFamily;
  context.font = `24px ${font}`;
  context.fillText(text, 4, 30);
  return Array.from(context.getImageData(0, 0, 200, 40).data).join(",");
}"""
# Elements on screen whose text is wider than their box (a label or a button cut off).
CLIPPED = """() => [...document.querySelectorAll(
    '[data-testid="stWidgetLabel"] p, [data-testid="stBaseButton-secondary"] p, '
    + '[data-testid="stPageLink"] p, [data-testid="stSidebar"] [data-testid="stCaption"]')]
  .filter((e) => { const r = e.getBoundingClientRect();
                   return r.width > 0 && r.left >= 0 && r.right <= innerWidth; })
  .filter((e) => e.scrollWidth > e.clientWidth + 1)
  .map((e) => e.innerText)"""
ON_SCREEN_LABELS = """() => [...document.querySelectorAll(
    '[data-testid="stSidebar"] [data-testid="stWidgetLabel"] p')]
  .filter((e) => { const r = e.getBoundingClientRect(); return r.width > 0 && r.left >= 0; })
  .length"""


@pytest.mark.parametrize("width, height", [(1280, 800), (390, 844)])
def test_the_home_page_in_chinese_is_drawn_in_a_cjk_font_with_nothing_cut_off(
        server, browser, width, height):
    page = new_page(browser, viewport={"width": width, "height": height})
    try:
        page.goto(f"{server.url}/?lang=zh-CN")
        wait_until_idle(page)
        assert_no_exception(page)
        page.get_by_text("从课堂预设开始").wait_for()
        tofu = page.evaluate(GLYPHS, "\ue000\ue001")  # private use: no font has them
        assert page.evaluate(GLYPHS, "\ue002\ue003") == tofu  # (boxes all look alike)
        for text in ("主成分", "核矩阵", "课堂"):
            drawn = page.evaluate(GLYPHS, text[:2])
            assert drawn != tofu, f"{text} is drawn as boxes: install fonts-noto-cjk"
        assert page.evaluate(CLIPPED) == []
        assert page.locator("#kpca-skip-to-menu").inner_text() == "跳到页面菜单"
        shot(page, f"home-zh-CN-{width}x{height}")
        if width < 640:  # a phone: the sidebar is a drawer, closed; open it and look again
            page.locator('[data-testid="stExpandSidebarButton"]').click()
            page.wait_for_function("() => document.querySelector('[data-testid=stSidebar]')"
                                   ".getBoundingClientRect().x >= 0")
            wait_until_idle(page)
            assert page.evaluate(ON_SCREEN_LABELS) >= 8
            assert page.evaluate(CLIPPED) == []
            shot(page, f"home-zh-CN-{width}x{height}-sidebar")
    finally:
        page.context.close()


def test_a_fragments_rerun_keeps_the_sessions_language(server, page):
    """The Explorer's projections are a fragment: switching to 3-D reruns only it, in a new
    script thread that never ran the app's top. Its charts' text alternatives (written by
    the shell) stay Chinese."""
    page.goto(f"{server.url}/explorer?lang=zh-CN&dataset=circles&n=200&kernel=rbf&gamma=5")
    wait_until_idle(page, min_charts=6)
    texts = page.locator(".kpca-chart-text")
    assert all(text.startswith("图表") for text in texts.all_inner_texts())
    page.get_by_text("3-D", exact=True).first.click()
    page.wait_for_url(re.compile(r"view=3d"))
    page.wait_for_function(  # both projections now drawn as 3-D scenes
        "Array.from(document.querySelectorAll('.js-plotly-plot'))"
        ".filter(p => p._fullLayout && p._fullLayout._has('gl3d')).length === 2")
    wait_until_idle(page)
    assert_no_exception(page)
    shown = texts.all_inner_texts()
    three_d = [text for text in shown if "三维空间中的" in text]
    assert len(three_d) == 2, shown  # the fragment's two projections, in Chinese
    assert not [text for text in shown if text.startswith("Chart")]


def test_two_sessions_at_once_keep_their_own_languages(server, browser):
    """Two students on one server at the same time, one in Chinese and one in English: their
    scripts run side by side in the server's threads, round after round, and neither page
    ever shows the other's language (the language lives in each run's context, never in
    the process)."""
    chinese, english = new_page(browser), new_page(browser)
    label = '[data-testid="stSidebar"] [data-testid="stWidgetLabel"] p'
    try:
        for _round in range(3):
            # Both loads sent before either is awaited: the two runs overlap on the server.
            chinese.goto(f"{server.url}/?lang=zh-CN", wait_until="commit")
            english.goto(f"{server.url}/", wait_until="commit")
            for page in (chinese, english):
                wait_until_idle(page)
                assert_no_exception(page)
            chinese_labels = chinese.locator(label).all_inner_texts()
            english_labels = english.locator(label).all_inner_texts()
            assert "主成分个数" in chinese_labels and "Number of components" in english_labels
            assert "Number of components" not in chinese_labels
            assert "主成分个数" not in english_labels
            assert chinese.get_by_text("从课堂预设开始").count() == 1
            assert english.get_by_text("Start with a classroom preset").count() == 1
            assert english.get_by_text("从课堂预设开始").count() == 0
    finally:
        chinese.context.close()
        english.context.close()
