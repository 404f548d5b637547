"""The registry contract the app codes against: available(), load(), option checking."""

from __future__ import annotations

import dataclasses

import numpy as np
import pytest

import datasets
from datasets import Dataset, DatasetInfo, Option

from .helpers import check_invariants

SYNTHETIC = ["circles", "moons", "swiss_roll", "s_curve", "scholkopf_toy", "parabola",
             "four_classes"]
OFFLINE = [*SYNTHETIC, "iris"]  # everything that needs no data file


def test_available_lists_every_dataset_in_sidebar_order_without_csv():
    names = list(datasets.available())
    assert names == [*OFFLINE, "usps"]
    assert "csv" not in names


@pytest.mark.parametrize("name", [*OFFLINE, "usps"])
def test_dataset_info_is_consistent(name):
    info = datasets.available()[name]
    assert isinstance(info, DatasetInfo) and info.name == name
    assert info.title and info.summary and "kernel" in info.suggested_kernel
    for option in info.options:
        assert isinstance(option, Option) and option.help
        if option.kind == "choice":
            assert option.default in option.choices
        else:
            assert option.low <= option.default <= option.high
    with pytest.raises(dataclasses.FrozenInstanceError):
        info.title = "changed"


@pytest.mark.parametrize("name", SYNTHETIC + ["usps"])
def test_random_datasets_have_a_seed_and_a_size_option(name):
    options = {o.name: o for o in datasets.available()[name].options}
    assert options["seed"].kind == "int"
    assert options["n"].kind == "int"
    # Interactive defaults: a kernel matrix of this size is quick to decompose.
    assert options["n"].default <= 2000


@pytest.mark.parametrize("name", OFFLINE)
def test_each_dataset_loads_with_its_defaults(name):
    check_invariants(datasets.load(name), name)


@pytest.mark.parametrize("name", OFFLINE)
def test_arrays_cannot_be_modified(name):
    data = datasets.load(name)
    with pytest.raises(ValueError, match="read-only"):
        data.X[0, 0] = 1.0


@pytest.mark.parametrize("name", SYNTHETIC)
def test_same_seed_same_data_other_seed_other_data(name):
    first = datasets.load(name, seed=3)
    datasets.clear_cache()  # so the second call really generates again
    again = datasets.load(name, seed=3)
    other = datasets.load(name, seed=4)
    assert first is not again
    np.testing.assert_array_equal(first.X, again.X)
    assert not np.array_equal(first.X, other.X)


@pytest.mark.parametrize("name", SYNTHETIC)
@pytest.mark.parametrize("n", [20, 333])
def test_n_sets_the_number_of_samples(name, n):
    data = datasets.load(name, n=n)
    assert data.X.shape[0] == n
    if data.y is not None:
        assert len(data.y) == n


def test_repeat_calls_are_served_from_the_cache():
    # Explicit defaults and omitted ones are the same request.
    assert datasets.load("circles") is datasets.load("circles", n=400, seed=0)
    assert datasets.load("circles", seed=1) is not datasets.load("circles", seed=2)


def test_integral_values_of_numpy_types_are_accepted():
    assert datasets.load("moons", n=np.int64(50), noise=np.float32(0.1)).X.shape == (50, 2)
    assert datasets.load("moons", noise=0).X.shape == (400, 2)  # an int is a valid float


@pytest.mark.parametrize(
    ("name", "options", "fragments"),
    [
        ("nope", {}, ["Unknown data set 'nope'", "circles", "usps"]),
        ("csv", {}, ["load_csv"]),
        ("circles", {"size": 10}, ["no option 'size'", "n, noise, factor, seed"]),
        ("iris", {"seed": 1}, ["no option 'seed'", "none"]),
        ("circles", {"n": 10}, ["'n'", "between 20 and 5000", "got 10"]),
        ("circles", {"n": 10_000}, ["'n'", "between 20 and 5000"]),
        ("circles", {"factor": 1.0}, ["'factor'", "between 0.1 and 0.9"]),
        ("circles", {"noise": float("nan")}, ["'noise'", "between 0.0 and 0.5", "nan"]),
        ("circles", {"n": 100.5}, ["'n'", "must be an integer", "100.5"]),
        ("circles", {"n": True}, ["'n'", "must be an integer"]),
        ("circles", {"noise": "0.1"}, ["'noise'", "must be a number"]),
        ("moons", {"seed": -1}, ["'seed'", "between 0 and 999"]),
        ("usps", {"split": "validation"}, ["'split'", "'train', 'test', 'all'", "validation"]),
        ("usps", {"n": 5}, ["'n'", "between 10 and 9298"]),
        # Issue 28: integers past 1e308 (from a link) overflowed float().
        ("circles", {"noise": 10**400}, ["'noise'", "between 0.0 and 0.5",
                                         "got an integer of about 401 digits"]),
        ("moons", {"noise": -(10**400)}, ["got a negative integer of about 401 digits"]),
        ("circles", {"n": 10**5000}, ["'n'", "got an integer of about 5,001 digits"]),
        ("moons", {"seed": 10**309}, ["'seed'", "between 0 and 999"]),
    ],
)
def test_invalid_requests_name_the_problem_and_the_allowed_values(name, options, fragments):
    with pytest.raises(ValueError) as error:
        datasets.load(name, **options)
    for fragment in fragments:
        assert fragment in str(error.value)


def test_dataset_refuses_inconsistent_arrays():
    with pytest.raises(ValueError, match="2 feature names for 3 columns"):
        Dataset("t", np.zeros((4, 3)), None, (), ("a", "b"), "d", "c")
    with pytest.raises(ValueError, match="labels must lie in 0..1"):
        Dataset("t", np.zeros((3, 1)), np.array([0, 1, 2]), ("a", "b"), ("x",), "d", "c")


def test_freezing_a_dataset_leaves_the_callers_array_writeable():
    X = np.zeros((3, 2))
    Dataset("t", X, None, (), ("a", "b"), "d", "c")
    X[0, 0] = 1.0  # would raise if Dataset had frozen the caller's array
    assert X.flags.writeable


def test_a_description_that_is_not_the_english_of_its_sentences_is_refused():
    from datasets._types import Dataset, described, said

    kwargs = dict(name="x", X=np.zeros((2, 1)), y=None, target_names=(), feature_names=("a",),
                  citation="")
    good = Dataset(**kwargs, **described(said("{n} points, noise {noise:g}.", n=2, noise=0.5),
                                         said("No classes.")))
    assert good.description == "2 points, noise 0.5. No classes."
    with pytest.raises(ValueError, match="description_sentences"):
        Dataset(**kwargs, description="3 points.",
                description_sentences=(("{n} points.", (("n", 2),)),))
