"""Real browser: the Classification page renders, reacts to its widgets, fits two sizes.

Screenshots go to tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import re

from tests.support.browser import (
    assert_no_exception,
    chart_titles,
    shot,
    wait_for_layout,
    wait_for_title,
    wait_until_idle,
)


def metric_values(page) -> list[str]:
    return page.locator('[data-testid="stMetricValue"]').all_inner_texts()


def test_classification_walk_on_circles(server, page):
    page.set_viewport_size({"width": 1280, "height": 800})
    page.goto(f"{server.url}/classification?dataset=circles&kernel=rbf&gamma=5")
    wait_until_idle(page, min_charts=4)
    assert_no_exception(page)
    page.get_by_role("heading", name="Classification on kernel principal components").wait_for()
    titles = chart_titles(page)
    assert "Confusion matrix (test set)" in titles
    assert "Test error of a linear SVM against the number of components" in titles
    assert any(t.startswith("Paper (1998)") for t in titles)
    values = metric_values(page)
    assert len(values) == 3 and all(re.fullmatch(r"\d+\.\d\d %", v) for v in values)
    kernel_error, _, raw_error = (float(v.removesuffix(" %")) for v in values)
    assert kernel_error < raw_error  # rings: the kernel wins over straight lines
    shot(page, "classification-circles-1280x800")

    page.get_by_text("logistic regression", exact=True).click()
    wait_for_title(page, "Test error of a logistic regression")
    wait_until_idle(page, min_charts=4)
    assert_no_exception(page)
    page.get_by_text("Test error of the same logistic regression").wait_for()

    page.set_viewport_size({"width": 800, "height": 900})
    wait_for_layout(page)
    assert_no_exception(page)
    assert page.locator('[data-testid="stCode"]').count() == 1
    shot(page, "classification-circles-logistic-800x900")
