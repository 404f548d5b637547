"""The "one lucky γ" card: its scores are scikit-learn's KernelPCA scored by a
cross-validated logistic regression, computed here; its caption and damage follow them."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.datasets import make_circles
from sklearn.decomposition import KernelPCA
from sklearn.linear_model import LogisticRegression
from sklearn.model_selection import StratifiedKFold, cross_val_score
from sklearn.pipeline import make_pipeline
from sklearn.preprocessing import StandardScaler

from lessons.mistakes.lucky_gamma import GALLERY, SEPARATES, STEPS, caption, lucky_gamma
from tests.support.apptest import assert_clean, open_app


def score(gamma=10.0, noise=0.05, seed=0, factor=0.3) -> float:
    X, y = make_circles(n_samples=400, factor=factor, noise=noise, random_state=seed)
    Z = KernelPCA(2, kernel="rbf", gamma=gamma).fit_transform(X)
    model = make_pipeline(StandardScaler(), LogisticRegression(C=100.0, max_iter=5000))
    folds = StratifiedKFold(5, shuffle=True, random_state=0)
    return float(np.mean(cross_val_score(model, Z, y, cv=folds)))


@pytest.fixture(scope="module")
def result():
    return lucky_gamma()


def test_the_gallery_and_its_worst_steps_are_scikit_learns_scores(result):
    assert result.gallery.score == pytest.approx(score(), abs=0.01)
    assert result.gallery.score >= SEPARATES
    for key in STEPS:
        worst = result.worst_of(key)
        moved = {k: worst.values[k] for k in ("gamma", "noise", "seed", "factor")}
        assert worst.score == pytest.approx(score(**moved), abs=0.01)
    assert len(result.near) == sum(len(v) for v in STEPS.values())


def test_the_damage_and_the_caption_say_what_the_scores_say(result):
    worst = result.worst
    assert result.damage.value == pytest.approx(100 * (result.gallery.score - worst.score))
    assert not result.damage.harmless  # the point: fine tuned
    text = caption(result)
    assert f"{worst.label}: {100 * worst.score:.0f} %" in text
    seeds = [s for s in result.near if s.changed == "seed"]
    assert f"Of the {len(seeds)} other seeds, {sum(s.score >= SEPARATES for s in seeds)} keep" \
        in text
    steady = result.trials[-1]
    assert steady.steady and f"γ = {steady.gamma:g} keeps every one of its 11 settings" in text
    # The steady γ holds each of its own small steps (checked with scikit-learn here).
    for factor in STEPS["gamma"]:
        assert score(gamma=steady.gamma * factor) >= SEPARATES
    assert steady.gamma != GALLERY["gamma"]


def test_the_card_is_on_the_common_mistakes_page():
    at = open_app("mistakes", {"dataset": "moons", "kernel": "rbf", "gamma": 15, "n": 60})
    assert_clean(at)
    assert any(h.value.endswith("· One lucky γ") for h in at.subheader)
    text = " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])
    assert "At the gallery's setting components 1–2 separate 100 % of the points" in text
    assert ":red[**Damage to the gallery's picture**]" in text
