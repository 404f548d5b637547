"""γ in motion's caption in zh-CN (issue 37): its sentences side by side without the
English space after a Chinese full stop, the same numbers as the English caption, the
legend's class names in Chinese."""

from __future__ import annotations

import json

from experiments.morph import MOTION_MAX_N
from tests.support.apptest import assert_clean, open_app
from tests.support.page_language import numbers


def _motion(language: str):
    at = open_app("explorer", {"dataset": "circles", "n": 1000, "kernel": "rbf", "gamma": 5,
                               "lang": language})
    at.toggle(key="explorer_motion_on").set_value(True).run()
    assert_clean(at)
    caption = next(c.value for c in at.caption if str(MOTION_MAX_N) in c.value
                   and "1,000" in c.value)
    (chart,) = [e for e in at.get("plotly_chart") if '"frames"' in e.proto.spec]
    names = [t.get("name") for t in json.loads(chart.proto.spec)["data"] if t.get("name")]
    return caption, names


def test_the_motions_caption_and_legend_in_chinese():
    english, english_names = _motion("en")
    chinese, chinese_names = _motion("zh-CN")
    assert f"stratified sample of {MOTION_MAX_N} of the 1,000 points" in english
    assert "。 " not in chinese and numbers(chinese) == numbers(english)
    assert english_names == ["outer circle", "inner circle"]
    assert chinese_names == ["外圈", "内圈"]
