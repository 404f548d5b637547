"""The Common mistakes page's formulas in zh-CN, drawn by KaTeX in Chromium (issue 37): the
Chinese words of each ``\\text{…}`` are set, no formula fails to parse."""

from __future__ import annotations

import re

from lessons.mistakes.experiment import MISTAKES
from tests.support.browser import assert_no_exception, wait_until_idle

CJK = re.compile(r"[\u4e00-\u9fff]")


def test_the_chinese_formulas_render_with_their_words(server, page):
    page.goto(server.url + "/mistakes?lang=zh-CN")
    wait_until_idle(page, min_charts=len(MISTAKES))
    assert_no_exception(page)
    formulas = page.locator('[data-testid="stMarkdownContainer"] .katex-display')
    assert formulas.count() == 2 * len(MISTAKES)
    # KaTeX draws a formula it cannot parse as its source in red (.katex-error).
    assert page.locator(".katex-error").count() == 0
    texts = [text for text in formulas.all_inner_texts() if CJK.search(text)]
    assert len(texts) == 8, texts  # the formulas with words: seven wrong ones, one right
    joined = " ".join(texts)
    for words in ("未中心化", "错误", "再中心化", "在特征空间中中心化", "或", "按返回的顺序"):
        assert words in joined, (words, texts)
    assert "{" not in joined and "\\text" not in joined
