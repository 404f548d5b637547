"""Projector mode wraps a Chinese title by its drawn width: a CJK character is two Latin
columns wide, a line breaks between CJK characters and never inside a Latin word or a
number, and the lines come out about even."""

from __future__ import annotations

import re
import textwrap

import pytest

from shell import display

# A title as the zh-CN pages write them: Chinese with Latin words, a number, a formula's
# letters and full-width punctuation.
CHINESE = ("RBF 核把内圆和外圆分开：第一个核主成分（γ = 0.5）按到中心的距离排列 outer circle "
           "与 inner circle 的点，linear PCA 做不到")
LATIN = re.compile(r"[A-Za-z0-9.=γ]+")


def test_a_cjk_character_is_two_columns_a_combining_mark_none():
    assert display.columns_of("核矩阵") == 6
    assert display.columns_of("核矩阵 K̃") == 8  # a space, and K̃: K and a combining tilde
    assert display.columns_of("（γ）") == 5
    # Without wide characters: the length, as before (English titles wrap as they did).
    assert display.columns_of("K̃ entries") == len("K̃ entries")


@pytest.mark.parametrize("width", [16, 20, 24, 30, 40, 61])
def test_chinese_title_lines_fit_keep_latin_words_whole_and_are_even(width):
    lines, subtitle = display.projector_title(CHINESE, width)
    assert subtitle is None
    assert len(lines) > 1
    # Nothing lost or added but the spaces at the breaks.
    assert "".join(lines).replace(" ", "") == CHINESE.replace(" ", "")
    # Every line fits (no piece here is wider than 16 columns).
    assert all(display.columns_of(line) <= width for line in lines), lines
    # No Latin word or number is split between two lines.
    words = LATIN.findall(CHINESE)
    assert sorted(w for line in lines for w in LATIN.findall(line)) == sorted(words)
    # Closing punctuation never starts a line, opening punctuation never ends one.
    assert not any(line[0] in "，。：）" for line in lines[1:]), lines
    assert not any(line[-1] in "（" for line in lines), lines
    # As few lines as a greedy fill at this width, and about even: the shortest line
    # (the last may be short by the rest of one piece) within a few columns of the longest.
    greedy = display._wide_wrap(CHINESE, width)
    assert len(lines) == len(greedy)
    widths = [display.columns_of(line) for line in lines]
    assert max(widths) - min(widths[:-1] or widths) <= 6, (lines, widths)


def test_the_old_wrap_splits_a_latin_word_in_chinese_text():
    """What this fixes: textwrap counts characters and cuts a long run of CJK
    characters (with the Latin word glued to it) anywhere, a word included."""
    text = "第一个核主成分按到中心的距离排列outer圆与inner圆的点"
    old = textwrap.wrap(text, 17)
    assert any(w not in LATIN.findall(text) for line in old for w in LATIN.findall(line))
    new, _ = display.projector_title(text, 17)
    assert sorted(w for line in new for w in LATIN.findall(line)) == ["inner", "outer"]
    assert all(display.columns_of(line) <= 17 for line in new)


def _old_balanced(line: str, width: int) -> list[str]:
    """The wrap before CJK text was measured (textwrap by character count)."""
    count = len(textwrap.wrap(line, width)) or 1
    even = -(-len(line) // count)
    while len(textwrap.wrap(line, even)) > count:
        even += 1
    return textwrap.wrap(line, even) or [line]


@pytest.mark.parametrize("width", [16, 20, 30, 45, 61])
def test_english_titles_wrap_as_before(width):
    title = ("Kernel PCA of the circles: the first component of K̃ measures the distance from "
             "the centre (γ = 5, cross-validated accuracy 100 %)")
    lines, _ = display.projector_title(title, width)
    assert lines == _old_balanced(title, width)


def test_legend_rows_count_chinese_names_by_their_width():
    # Two 6-character Chinese names (12 columns + 5 each) fill a 34-column row; as Latin
    # characters counted one each they would seem to leave room for a third.
    assert display.legend_rows(["外圆外圆外圆", "内圆内圆内圆", "全部点"], 34) == 2
    assert display.legend_rows(["outer circle", "inner circle"], 34) == 1
