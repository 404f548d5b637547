"""Settings ⇄ URL: round trips, and every bad link parameter → a warning and a default."""

from dataclasses import replace

import pytest

import datasets
from kpca_core import KERNELS
from lessons.home.presets import presets
from shell import state
from shell.state import Settings, settings_from_query, settings_to_query


def test_default_link_parses_to_defaults_without_warnings():
    settings, warnings = settings_from_query({})
    assert settings == state.default_settings()
    assert warnings == []


@pytest.mark.parametrize("dataset", list(datasets.available()))
@pytest.mark.parametrize("kernel", list(KERNELS))
def test_round_trip_through_the_url(dataset, kernel):
    settings = replace(
        state.default_settings(dataset),
        kernel=kernel,
        gamma=0.37,
        degree=4,
        coef0=-0.5,
        n_components=7,
        standardize=True,
    )
    # Parameters the kernel ignores are not part of the link (nor of the view).
    used = settings.kernel_params()
    expected = replace(
        settings,
        gamma=0.37 if "gamma" in used else state.Settings.gamma,
        degree=4 if "degree" in used else state.Settings.degree,
        coef0=-0.5 if "coef0" in used else state.Settings.coef0,
    )
    parsed, warnings = settings_from_query(settings_to_query(settings))
    assert warnings == []
    assert parsed.kernel_params() == expected.kernel_params()
    assert (parsed.dataset, parsed.dataset_options, parsed.n_components, parsed.standardize) == (
        dataset,
        settings.dataset_options,
        7,
        True,
    )


def test_link_only_holds_the_parameters_the_kernel_uses():
    query = settings_to_query(replace(state.default_settings(), kernel="rbf", gamma=2.0))
    assert query["gamma"] == "2"
    assert "degree" not in query and "coef0" not in query


@pytest.mark.parametrize(
    ("query", "needle", "field", "expected"),
    [
        ({"dataset": "mnist"}, "mnist", "dataset", state.DEFAULT_DATASET),
        ({"kernel": "gaussian"}, "gaussian", "kernel", state.DEFAULT_KERNEL),
        ({"gamma": "0"}, "γ must be between", "gamma", Settings.gamma),
        ({"gamma": "-3"}, "γ must be between", "gamma", Settings.gamma),
        ({"gamma": "abc"}, "not a number", "gamma", Settings.gamma),
        ({"gamma": "nan"}, "not a finite number", "gamma", Settings.gamma),
        ({"kernel": "poly", "degree": "0"}, "outside the allowed range", "degree", 3),
        ({"kernel": "poly", "degree": "2.5"}, "not a whole number", "degree", 3),
        ({"kernel": "poly", "coef0": "99"}, "outside the allowed range", "coef0", 1.0),
        ({"components": "500"}, "outside the allowed range", "n_components", 3),
        ({"components": "1"}, "outside the allowed range", "n_components", 3),
        ({"std": "maybe"}, "should be 1 or 0", "standardize", False),
        ({"colour": "red"}, "unknown link parameter(s): “colour”", "dataset", "circles"),
    ],
)
def test_bad_link_parameter_warns_and_uses_the_default(query, needle, field, expected):
    settings, warnings = settings_from_query(query)
    assert len(warnings) == 1
    assert needle in warnings[0]
    assert getattr(settings, field) == expected


def test_bad_dataset_option_warns_and_keeps_the_other_options():
    settings, warnings = settings_from_query({"dataset": "circles", "n": "-5", "noise": "0.2"})
    assert len(warnings) == 1 and "`n`" in warnings[0]
    defaults = state.default_settings("circles").options
    assert settings.options["n"] == defaults["n"]
    assert settings.options["noise"] == 0.2


def test_bad_choice_option_warns():
    settings, warnings = settings_from_query({"dataset": "usps", "split": "validation"})
    assert "not one of" in warnings[0]
    assert settings.options["split"] == "train"


def test_repeated_parameter_uses_the_last_value():
    settings, warnings = settings_from_query({"kernel": ["poly", "rbf"]})
    assert warnings == [] and settings.kernel == "rbf"


def test_many_problems_give_one_warning_each():
    _, warnings = settings_from_query({"dataset": "nope", "kernel": "nope", "gamma": "0"})
    assert len(warnings) == 3


def test_presets_are_valid_views_that_survive_a_link():
    shown = presets()
    assert [p.title for p in shown] == [
        "Circles + RBF (γ=5)",
        "Schölkopf's toy + RBF",
        "Iris + polynomial",
        "USPS + polynomial, degree 3",
        "Sigmoid: an indefinite kernel",
    ]
    for preset in shown:
        parsed, warnings = settings_from_query(settings_to_query(preset.settings))
        assert warnings == [], preset.title
        assert parsed == preset.settings, preset.title
    # The preset, the circles' suggested kernel and the default agree (γ = 5).
    circles = datasets.available()["circles"].suggested_kernel
    assert shown[0].settings.kernel == circles["kernel"] == "rbf"
    assert shown[0].settings.gamma == circles["gamma"] == state.default_settings().gamma == 5
    assert shown[3].settings.kernel == "poly" and shown[3].settings.degree == 3
    assert not KERNELS[shown[4].settings.kernel].positive_definite


def test_gamma_choices_keep_a_value_from_a_link():
    assert 0.37 in state.gamma_choices(0.37)
    assert state.gamma_choices(10.0) == sorted(state.GAMMA_GRID)
