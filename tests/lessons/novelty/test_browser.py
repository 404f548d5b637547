"""Real browser: the novelty page's threshold moves with the keyboard (the sentence, the
diamond on the ROC curve and the link follow), and choosing a normal class turns the other
class into the outliers.

Screenshots go to tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.support.browser import assert_no_exception, shot, wait_for_title, wait_until_idle


@pytest.mark.browser
def test_the_threshold_and_the_normal_class_follow_the_student(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}/novelty?dataset=circles&threshold=90")
    wait_until_idle(page, min_charts=2)
    assert_no_exception(page)
    wait_for_title(page, "Reconstruction error p(x) over the plane")
    page.get_by_text("Check", exact=True).first.wait_for()
    page.get_by_text("270 of the 300 training points (90.0 %)").wait_for()

    slider = page.get_by_role("slider", name="Threshold: the training error's percentile")
    # 10 steps of 0.5 to 95 %, one at a time: a press that lands while the page reruns is
    # lost, so each waits for the run it starts and the loop reads the slider's value.
    for _ in range(30):
        if slider.input_value() == "95":  # an <input type=range>
            break
        slider.focus()
        page.keyboard.press("ArrowRight")
        wait_until_idle(page)
    page.get_by_text("285 of the 300 training points (95.0 %)").wait_for()
    wait_until_idle(page)
    assert "threshold=95" in page.url
    assert_no_exception(page)
    shot(page, "novelty-circles")

    # Typing opens the list even where a click right after the full-page screenshot
    # only focuses the box.
    page.get_by_role("combobox", name="Normal data").click()
    page.keyboard.type("outer")
    page.get_by_role("option", name="outer circle (outliers: the other classes)").click()
    page.get_by_text("points of the other classes").wait_for()
    wait_until_idle(page)
    assert "normal=1" in page.url
    assert_no_exception(page)
    assert page.locator("text=Check failed").count() == 0
