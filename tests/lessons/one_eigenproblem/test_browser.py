"""Real browser: switching the method on the One eigenproblem page changes K and nothing
else, the link follows, the checks stay green; a step of k redraws the graph.

Screenshots go to tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import pytest

from tests.support.browser import (
    assert_no_exception,
    chart_titles,
    shot,
    wait_for_title,
    wait_until_idle,
)


def pick_method(page, title: str) -> None:
    """Click ``title`` in the method's segmented control."""
    page.locator('[data-testid="stButtonGroup"]').get_by_text(title, exact=True).click()


@pytest.mark.browser
def test_switching_the_method_changes_only_k_and_the_checks_stay_green(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}/one_eigenproblem?dataset=swiss_roll&neighbours=6")
    wait_until_idle(page, min_charts=4)
    assert_no_exception(page)
    wait_for_title(page, "K of Kernel PCA")
    assert page.get_by_text("ours against KernelPCA").count() == 1

    pick_method(page, "Isomap")
    wait_for_title(page, "K of Isomap")
    wait_until_idle(page, min_charts=5)
    assert_no_exception(page)
    assert "method=isomap" in page.url
    titles = chart_titles(page)
    # The same charts as before, with K's title changed, plus the graph behind K.
    assert "Kernel PCA of K (kpca_core)" in titles and "Isomap (scikit-learn)" in titles
    assert any(t.startswith("The 6-nearest-neighbour graph") for t in titles)
    page.get_by_text("ours against Isomap").wait_for()
    page.get_by_text("None of its edges jumps between layers").wait_for()
    assert page.locator("text=Check failed").count() == 0
    shot(page, "one_eigenproblem-isomap")

    # One step of k with the keyboard: the graph and its sentence follow, and the link.
    slider = page.get_by_role("slider", name="Neighbours k in the graph")
    slider.focus()
    page.keyboard.press("ArrowRight")
    wait_for_title(page, "The 7-nearest-neighbour graph")
    wait_until_idle(page)
    assert "neighbours=7" in page.url
    assert_no_exception(page)

    pick_method(page, "Spectral clustering")
    wait_for_title(page, "K of Spectral clustering")
    wait_until_idle(page)
    page.get_by_text("Adjusted Rand index").wait_for()
    assert "method=spectral" in page.url
    assert page.locator("text=Check failed").count() == 0
    shot(page, "one_eigenproblem-spectral")
