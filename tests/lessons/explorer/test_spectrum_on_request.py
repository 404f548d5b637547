"""The first screen of a large view leaves all n eigenvalues of K̃ until a tab shows them
(issue 50: three quarters of a 2,000-digit first view), and shows the same as when it
computes them at once."""

from __future__ import annotations

import collections

import pytest

from experiments import analysis
from lessons.common import analysis as common_analysis
from tests.lessons.explorer.sections import SPECTRUM_TAB, TAKE_HOME_TAB, open_section
from tests.support.apptest import assert_clean, open_app
from tests.support.plotly_json import chart_specs

# More points than SPECTRUM_ON_REQUEST_FROM, a seed nothing else opens: a fresh analysis.
BIG = {"dataset": "moons", "n": "1200", "seed": "41", "kernel": "rbf", "gamma": "20"}


@pytest.fixture
def spectra(monkeypatch):
    """Count the all-eigenvalue solves, from an empty store of analyses."""
    store = common_analysis.explorer_analysis.server_store
    monkeypatch.setattr(store, "_values", type(store._values)())
    counted = collections.Counter()
    real = analysis.kernel_spectrum

    def counting(K):
        counted["spectrum"] += 1
        return real(K)

    monkeypatch.setattr(analysis, "kernel_spectrum", counting)
    return counted


def shown(at) -> dict[str, list[str]]:
    return {"caption": [c.value for c in at.caption], "warning": [w.value for w in at.warning],
            "info": [i.value for i in at.info], "markdown": [m.value for m in at.markdown]}


def charts(at) -> str:
    """Every chart drawn (the projections and, in the spectrum's tab, the spectrum)."""
    return repr(chart_specs(at))


def test_the_spectrum_is_computed_when_its_tab_opens_and_is_the_same(spectra, monkeypatch):
    later = open_app("explorer", BIG)
    assert_clean(later)
    assert spectra["spectrum"] == 0  # the first screen has all it draws
    first_screen = shown(later)
    open_section(later, SPECTRUM_TAB)
    assert_clean(later)
    assert spectra["spectrum"] == 1
    open_section(later, TAKE_HOME_TAB)  # the eigenvalues' CSV: the same analysis, cached
    assert_clean(later)
    assert spectra["spectrum"] == 1
    # The same view with the spectrum computed at once, as before issue 50.
    monkeypatch.setattr(analysis, "SPECTRUM_ON_REQUEST_FROM", 10**9)
    at_once = open_app("explorer", BIG)
    assert_clean(at_once)
    assert spectra["spectrum"] == 1  # its analysis is the one the tab computed, cached
    assert shown(at_once) == first_screen
    open_section(at_once, SPECTRUM_TAB)
    assert charts(at_once) == charts(open_section(later, SPECTRUM_TAB))


def test_an_indefinite_kernel_gets_its_spectrum_at_once(spectra):
    # The first screen says whether K̃ has negative eigenvalues: it needs them all.
    at = open_app("explorer", {**BIG, "kernel": "sigmoid", "gamma": "0.5", "coef0": "-1"})
    assert_clean(at)
    assert spectra["spectrum"] == 1
    assert any("negative eigenvalue" in w.value for w in at.warning)
