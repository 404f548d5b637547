"""What the code ships for built-in data (experiments/shipped.py, issue 50) is what the code
computes: entries recomputed and compared with the file (it fails when the file is stale:
run ``scripts/ship_guidance.py``), the searches it restores equal to fresh ones, and the
lab's settings all in it."""

from __future__ import annotations

import dataclasses
import math
import random
from urllib.parse import parse_qsl

import numpy as np
import pytest

import datasets
from experiments import gamma_guidance, shipped
from experiments.analysis import analyse
from experiments.kernel_diagnostics import GAMMA_KERNELS, reference_gamma
from loadtest.class_plan import LAB
from shell.state import settings_from_query
from tests.support.apptest import usps_available
from words.kernel_params import GAMMA_GRID

TABLE = shipped.table()
FAMILIES = [(entry["dataset"], family["kernel"], family["params"])
            for entry in TABLE.values() for family in entry["kernels"]]
# Values that come out of BLAS (K = X Xᵀ, the eigensolvers): another CPU rounds them in
# their last bits. Scores are counts of correct predictions: those must be equal.
RELATIVE = 1e-12


def entry_of(dataset: str) -> dict:
    return next(e for e in TABLE.values() if e["dataset"] == dataset)


def load(entry: dict) -> datasets.Dataset:
    if entry["dataset"] == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    return datasets.load(entry["dataset"], **dict(map(tuple, entry["options"])))


def close(a, b) -> bool:
    if a is None or b is None:
        return a is b
    return (math.isnan(a) and math.isnan(b)) or math.isclose(a, b, rel_tol=RELATIVE)


def assert_same_trial(stored: gamma_guidance.Trial, fresh: gamma_guidance.Trial) -> None:
    assert (stored.gamma, stored.degree, stored.error) == (fresh.gamma, fresh.degree,
                                                           fresh.error)
    for field in ("mean_similarity", "effective_rank", "saturated_share", "typical_product"):
        assert close(getattr(stored, field), getattr(fresh, field)), (fresh.gamma, field)
    # Where K is the identity to the last bit (every k(x, y) = 0) components 1–2 are any
    # two of n − 1 equal directions: their score and their plane are the eigensolver's
    # choice, not properties of the data (tests/experiments/test_gamma_guidance.py).
    if fresh.mean_similarity != 0:
        assert stored.score == fresh.score, fresh.gamma
        assert close(stored.linear_similarity, fresh.linear_similarity), fresh.gamma


def nearest_the_reference(entry: dict, kernel: str) -> float | None:
    """The γ of the grid nearest the kernel's reference: components well apart there."""
    reference = entry["references"].get(kernel)
    if reference is None:
        return None
    return min(GAMMA_GRID, key=lambda g: abs(math.log(g / reference)))


@pytest.mark.sweep
@pytest.mark.parametrize(("dataset", "kernel", "fixed"), FAMILIES,
                         ids=[f"{d}-{k}-{'-'.join(map(str, p.values()))}"
                              for d, k, p in FAMILIES])
def test_the_file_holds_what_the_code_computes(dataset, kernel, fixed):
    entry = entry_of(dataset)
    data = load(entry)
    X, y = data.X, data.y
    assert entry["fingerprint"] == shipped.data_fingerprint(X, y)
    for name, value in entry["references"].items():
        assert close(value, reference_gamma(X, name)), name
    mine = shipped.for_data(dataset, entry["options"], False, X, y)
    # The search: restored from the file, it is the one the code finds now.
    if kernel in GAMMA_KERNELS:
        fresh = gamma_guidance.search(X, y, kernel=kernel, kernel_params=fixed)
        restored = mine.search(kernel, fixed)
        assert [(t.gamma, t.degree) for t in restored.trials] == [
            (t.gamma, t.degree) for t in fresh.trials]
        for stored, now in zip(restored.trials, fresh.trials, strict=True):
            assert_same_trial(stored, now)
        assert restored.rows.tobytes() == fresh.rows.tobytes()
        assert restored.linear_plane.tobytes() == fresh.linear_plane.tobytes()
        assert restored.linear_score == fresh.linear_score
        for name in ("kernel", "fixed_params", "n_total", "sweeps_degree", "gamma_matters"):
            assert getattr(restored, name) == getattr(fresh, name), name
        assert close(restored.reference, fresh.reference)
    else:
        fresh = None
    # Views: the γ of the grid nearest the reference (the only view without γ) and three
    # more drawn from the grid, the same ones every run.
    family = next(f for f in entry["kernels"] if (f["kernel"], f["params"]) == (kernel, fixed))
    stored = {v["gamma"]: v for v in family["views"]}
    near = nearest_the_reference(entry, kernel)
    others = [] if near is None else random.Random(f"{dataset} {kernel} {fixed}").sample(
        [g for g in GAMMA_GRID if g != near], 3)
    for gamma in (near, *others):
        params = dict(fixed) if gamma is None else {"gamma": gamma, **fixed}
        view, pca_projection = shipped.view_entry(X, y, kernel=kernel, kernel_params=params,
                                                  found=fresh, n_components=3)
        same = np.allclose(stored[gamma]["columns"], view["columns"],
                           rtol=shipped.COLUMN_TOLERANCE)
        assert same or gamma != near  # near the reference the components are well apart
        if same:
            assert (stored[gamma]["two"], stored[gamma]["first"]) == (view["two"],
                                                                      view["first"]), gamma
        # (Else K ≈ I at an extreme γ: components 1–2 are the eigensolver's choice among
        # equal eigenvalues, and the app computes the score of the ones it draws.)
        assert ("trial" in stored[gamma]) == ("trial" in view)
        if "trial" in view:
            assert_same_trial(shipped.trial_from_list(stored[gamma]["trial"]),
                              shipped.trial_from_list(view["trial"]))
    assert entry["linear"]["two"] == shipped.linear_entry(pca_projection, y)["two"]


def test_every_built_in_data_set_is_shipped_with_every_kernel_at_every_grid_gamma():
    assert {e["dataset"] for e in TABLE.values()} == set(datasets.available())
    for entry in TABLE.values():
        for family in entry["kernels"]:
            gammas = [v["gamma"] for v in family["views"]]
            if family["kernel"] in GAMMA_KERNELS:
                assert gammas == list(GAMMA_GRID), (entry["dataset"], family["kernel"])
                assert family["search"] is not None
            else:
                assert gammas == [None]


@pytest.mark.parametrize("link", LAB, ids=[link.name for link in LAB])
def test_the_labs_links_are_shipped(link):
    settings, _warnings = settings_from_query(dict(parse_qsl(link.query)))
    data = settings.data_key
    assert shipped.ships(*data)
    family = next(f for f in entry_of(settings.dataset)["kernels"]
                  if shipped.kernel_key(f["kernel"], f["params"]) == shipped.kernel_key(
                      settings.kernel, settings.kernel_params()))
    assert settings.gamma in [v["gamma"] for v in family["views"]]


def test_a_score_is_read_only_for_the_coordinates_it_was_computed_from():
    entry = entry_of("circles")
    data = load(entry)
    mine = shipped.for_data("circles", entry["options"], False, data.X, data.y)
    Z = analyse(data.X, data.y, kernel="rbf", kernel_params={"gamma": 5.0},
                n_components=3).projection
    two = mine.score("rbf", {"gamma": 5.0}, (0, 1), Z[:, :2])
    assert two is not None and two == mine.score("rbf", {"gamma": 5.0}, [0, 1], -Z[:, :2])
    assert mine.score("rbf", {"gamma": 5.0}, (0,), Z[:, :1]) is not None
    # Another direction in the same plane, the coordinates of another γ, other columns,
    # an off-grid γ: not read.
    turn = np.array([[np.cos(0.3), -np.sin(0.3)], [np.sin(0.3), np.cos(0.3)]])
    assert mine.score("rbf", {"gamma": 5.0}, (0, 1), Z[:, :2] @ turn) is None
    assert mine.score("rbf", {"gamma": 3.0}, (0, 1), Z[:, :2]) is None
    assert mine.score("rbf", {"gamma": 5.0}, (1, 2), Z[:, 1:]) is None
    assert mine.score("rbf", {"gamma": 5.5}, (0, 1), Z[:, :2]) is None
    noisy = Z[:, :2] * (1 + 1e-9 * np.random.default_rng(0).standard_normal(Z[:, :2].shape))
    assert mine.score("rbf", {"gamma": 5.0}, (0, 1), noisy) == two


def test_other_arrays_under_the_same_name_get_nothing(caplog, tmp_path):
    entry = entry_of("moons")
    data = load(entry)
    X = data.X.copy()
    X[0, 0] += 1e-12
    options = dict(map(tuple, entry["options"]))
    # A copy of the file: the check is remembered per data set and file.
    copy = tmp_path / "shipped.json"
    copy.write_bytes(shipped.PATH.read_bytes())
    assert shipped.for_data("moons", options, False, X, data.y, path=copy) is None
    assert "computed from other data" in caplog.text
    assert shipped.for_data("moons", options, False, data.X, data.y) is not None
    assert shipped.for_data("moons", {**options, "seed": 1}, False, data.X, data.y) is None


def test_a_trial_goes_through_the_file_unchanged():
    trial = gamma_guidance.Trial(gamma=3.0, degree=None, score=0.5, mean_similarity=0.25,
                                 effective_rank=12.5, linear_similarity=math.nan,
                                 error=None)
    back = shipped.trial_from_list(shipped.trial_to_list(trial))
    assert dataclasses.astuple(back)[:4] == dataclasses.astuple(trial)[:4]
    assert math.isnan(back.linear_similarity) and math.isnan(back.typical_product)
    assert shipped.trial_to_list(trial)[5] is None  # strict JSON: NaN as null
