"""The Explorer's γ hint (issue 22) as the page shows it: where the view is poor it says so
with the page's own score, names a γ (or degree) that does better, and one click makes
that true on the page; where nothing does clearly better it stays quiet."""

from __future__ import annotations

import re

import pytest

from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.benchmarks import load_script

HINT_TITLES = ("**γ = ", "**Degree ", "**With γ = ")


def gamma_hint(at) -> str | None:
    """The γ hint's text (a warning, or an info for the 'linear' symptom), or None."""
    texts = [w.value for w in at.warning] + [i.value for i in at.info]
    hints = [t for t in texts if t.startswith(HINT_TITLES)]
    assert len(hints) <= 1, hints
    return hints[0] if hints else None


def shown_score(at) -> int:
    """The kernel PCA score the separability caption shows for the drawn components."""
    caption = next(c.value for c in at.caption
                   if c.value.startswith("**Cross-validated accuracy of a linear classifier"))
    return int(re.search(r"kernel PCA (\d+)%", caption).group(1))


def hint_button(at):
    return next(b for b in at.button if b.label.startswith("Use "))


# Silent before issue 22 (the view scores ≥ 0.15 below its kernel's best).
SILENT = [("circles", 1.0), ("moons", 100.0), ("swiss_roll", 0.316), ("iris", 10.0)]


@pytest.mark.parametrize(("dataset", "gamma"), SILENT)
def test_a_poor_view_gets_a_hint_and_its_button_makes_it_true(dataset, gamma):
    at = open_app("explorer", {"dataset": dataset, "kernel": "rbf", "gamma": gamma})
    assert_clean(at)
    hint = gamma_hint(at)
    assert hint is not None
    before = shown_score(at)
    # It quotes the score the page shows, names a γ and its score, and says why.
    assert f"separate the classes {before}% with γ = {gamma:g}" in hint
    button = hint_button(at)
    target = float(button.label.removeprefix("Use γ = "))
    promised = int(re.search(rf"with γ = {target:g} they separate (\d+)%", hint).group(1))
    assert promised >= before + 5 and "Why: " in hint
    assert ("too small" in hint) == (target > gamma) and ("too large" in hint) == (target < gamma)
    button.click().run()
    assert_clean(at)
    assert at.select_slider(key="w_gamma").value == pytest.approx(target)
    after = shown_score(at)
    assert after == promised  # all points (n ≤ 600): the search's score is the page's
    assert gamma_hint(at) is None
    assert any(c.value.startswith("γ check:") for c in at.caption)


def test_iris_at_a_tiny_gamma_is_not_sent_to_a_worse_one():
    # Before issue 22: "too small, try γ ≈ 0.2", which scores lower than γ = 0.001.
    at = open_app("explorer", {"dataset": "iris", "kernel": "rbf", "gamma": 0.001})
    assert_clean(at)
    assert gamma_hint(at) is None
    check = next(c.value for c in at.caption if c.value.startswith("γ check:"))
    best = int(re.search(r"best: (\d+)%", check).group(1))
    assert f"here {shown_score(at)}%" in check and best - shown_score(at) < 5


def test_a_degree_hint_sets_the_degree_and_keeps_gamma():
    query = {"dataset": "circles", "kernel": "poly", "gamma": 2, "degree": 3, "coef0": 0}
    at = open_app("explorer", query)
    assert_clean(at)
    hint = gamma_hint(at)
    assert hint.startswith("**Degree ") and "c₀ = 0" in hint
    button = hint_button(at)
    degree = int(button.label.removeprefix("Use degree "))
    before = shown_score(at)
    button.click().run()
    assert_clean(at)
    assert at.slider(key="w_degree").value == degree
    assert at.select_slider(key="w_gamma").value == pytest.approx(2.0)
    assert shown_score(at) > before


def test_unlabelled_data_get_the_spectral_symptom():
    at = open_app("explorer", {"dataset": "parabola", "kernel": "rbf", "gamma": 1000})
    assert_clean(at)
    hint = gamma_hint(at)
    assert "looks too large" in hint and "K ≈ I" in hint and "Without class labels" in hint
    target = float(hint_button(at).label.removeprefix("Use γ = "))
    assert target < 1000


@needs_usps
def test_usps_hint_rests_on_a_sample_and_beats_the_shown_score():
    at = open_app("explorer", {"dataset": "usps", "n": 1000, "kernel": "rbf", "gamma": 0.0316})
    assert_clean(at)
    hint = gamma_hint(at)
    assert "too large" in hint and "stratified sample of 600 of the 1,000 points" in hint
    before = shown_score(at)
    hint_button(at).click().run()
    assert shown_score(at) >= before + 10


def test_the_grid_benchmark_counts_what_the_page_shows():
    # The grid's figures (benchmarks/gamma_grid.py) are measured through the page's code
    # path: for these views its score and the γ it names are what the Explorer shows.
    import datasets
    from experiments import gamma_guidance

    grid = load_script("gamma_grid")
    for name, gamma in [("circles", 1.0), ("iris", 10.0), ("iris", 0.001)]:
        data = datasets.load(name)
        family = grid.Family("rbf", "rbf")
        score = grid.page_view(name, {}, "rbf", family.params(gamma))["score"]
        found = gamma_guidance.search(data.X, data.y, kernel="rbf",
                                      kernel_params=family.params(1.0))
        advice = grid.after_advice(found, data, family, gamma, score)
        at = open_app("explorer", {"dataset": name, "kernel": "rbf", "gamma": gamma})
        assert shown_score(at) == round(100 * score)
        if advice is None:
            assert gamma_hint(at) is None
        else:
            assert hint_button(at).label == f"Use γ = {advice['params']['gamma']:g}"
