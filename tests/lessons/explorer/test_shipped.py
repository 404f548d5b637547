"""A first view of built-in data reads what the code ships instead of computing it (issue
50, ``experiments/shipped.py``): at the lab's settings the γ search, the verdict's trial
and the cross-validated fits under the charts are not called, and the page shows the
same numbers as when it computes them."""

from __future__ import annotations

import collections
from urllib.parse import parse_qsl

import pytest

from experiments import gamma_guidance, shipped
from lessons.common import gamma_hint
from lessons.explorer import projections
from loadtest.class_plan import LAB
from tests.support.apptest import assert_clean, open_app

# The lab's choices on built-in toy data (USPS-2000 needs the digits; its entry is
# checked against the digits in tests/experiments/test_shipped.py).
TOY_LAB = [link for link in LAB if "usps" not in link.query]


@pytest.fixture
def calls(monkeypatch):
    """Count the computations a shipped view should not need, after emptying the
    process's stores of them (so that nothing is read from an earlier test's run)."""
    for cached in (gamma_hint._search, gamma_hint._guidance, projections._separability):
        monkeypatch.setattr(cached.server_store, "_values",
                            type(cached.server_store._values)())
    counted = collections.Counter()

    def counting(module, name):
        real = getattr(module, name)

        def call(*args, **kwargs):
            counted[name] += 1
            return real(*args, **kwargs)

        monkeypatch.setattr(module, name, call)

    counting(gamma_guidance, "search")
    counting(gamma_guidance, "trial")  # the verdict's kernel PCA of the sample
    counting(projections, "linear_separability")  # the scores under the charts
    return counted


def shown(at) -> dict[str, list[str]]:
    """Every sentence and number the page shows, by kind of element."""
    return {"caption": [c.value for c in at.caption], "warning": [w.value for w in at.warning],
            "info": [i.value for i in at.info], "markdown": [m.value for m in at.markdown],
            "buttons": [b.label for b in at.button]}


@pytest.mark.parametrize("link", TOY_LAB, ids=[link.name for link in TOY_LAB])
def test_a_first_view_at_the_labs_settings_fits_nothing_but_kernel_pca(link, calls):
    at = open_app("explorer", dict(parse_qsl(link.query)))
    assert_clean(at)
    assert calls == {}
    texts = shown(at)["caption"]
    # The page did show the scores and the γ verdict (a hint, or the γ check).
    assert any(t.startswith("**Cross-validated accuracy") for t in texts)
    assert any(t.startswith("γ check:") for t in texts) or any(
        t.startswith(("**γ = ", "**Degree ")) for t in shown(at)["warning"])


def test_off_the_grid_only_what_depends_on_gamma_is_computed(calls):
    # γ = 2.5 is not a step of the sidebar's grid (a link can ask for it): the search
    # (every γ) and linear PCA's score (no γ) are read; the trial at 2.5 and kernel PCA's
    # two scores are computed.
    at = open_app("explorer", {"dataset": "moons", "kernel": "laplacian", "gamma": "2.5"})
    assert_clean(at)
    assert calls == {"trial": 1, "linear_separability": 2}


def test_other_options_are_computed_as_before(calls):
    at = open_app("explorer", {"dataset": "moons", "kernel": "laplacian", "gamma": "2",
                               "seed": "29"})
    assert_clean(at)
    assert calls["search"] == 1 and calls["linear_separability"] == 3


@pytest.mark.parametrize("query", [
    {"dataset": "circles", "kernel": "rbf", "gamma": "1"},  # a hint, with its button
    {"dataset": "iris", "kernel": "sigmoid", "gamma": "0.05", "coef0": "1"},
])
def test_the_page_shows_the_same_with_and_without_the_file(query, calls, monkeypatch):
    with_file = open_app("explorer", query)
    assert_clean(with_file)
    assert calls == {}
    monkeypatch.setattr(shipped, "table", lambda path=None: {})
    without = open_app("explorer", query)
    assert_clean(without)
    assert calls["search"] == 1 and calls["linear_separability"] == 3  # computed this time
    assert shown(with_file) == shown(without)
