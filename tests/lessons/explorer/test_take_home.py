"""'Take it home' on the Explorer: the script shown recomputes the charts shown."""

from __future__ import annotations

import warnings

import numpy as np
import pytest

from kpca_core import IndefiniteKernelWarning
from lessons.explorer.steps import SECTION_KEY, SECTIONS
from shell.exports import REPRODUCE_KEY
from tests.lessons.explorer.sections import TAKE_HOME_TAB
from tests.support.apptest import assert_clean, open_app, usps_available
from tests.support.downloads import download_labels, png_names
from tests.support.lessons import assert_up_to_sign
from tests.support.plotly_json import find_chart, scatter_points

VIEWS = [
    {"dataset": "circles", "n": 80, "kernel": "rbf", "gamma": 5, "components": 3},
    {"dataset": "iris", "kernel": "poly", "gamma": 0.1, "degree": 2, "coef0": 1, "std": 1},
    {"dataset": "moons", "n": 90, "kernel": "sigmoid", "gamma": 2, "coef0": -1},
    {"dataset": "usps", "n": 150, "kernel": "rbf", "gamma": 0.01, "components": 4},
]


def with_script_open(at):
    """Open the 'Reproduce in Python' expander (lazy: its script is sent once opened).

    On the Explorer it sits in the "Take it home" tab, opened here too.
    """
    at.session_state[REPRODUCE_KEY] = True
    at.session_state[SECTION_KEY] = SECTIONS[TAKE_HOME_TAB - 1]
    return at.run()


def test_the_script_is_sent_only_once_its_expander_is_opened():
    at = open_app("explorer", {**VIEWS[0], "section": TAKE_HOME_TAB})  # a link to the tab
    assert "Projections (CSV)" in download_labels(at)
    assert not [c for c in at.code if "from kpca_core import KernelPCA" in c.value]
    with_script_open(at)
    assert_clean(at)
    assert [c for c in at.code if "from kpca_core import KernelPCA" in c.value]


@pytest.mark.parametrize("query", VIEWS, ids=lambda q: f"{q['dataset']}-{q['kernel']}")
def test_the_script_on_the_page_recomputes_the_charts_on_the_page(query):
    if query["dataset"] == "usps" and not usps_available():
        pytest.skip("USPS digits not available")
    at = with_script_open(open_app("explorer", query))
    assert_clean(at)
    scripts = [c.value for c in at.code if "from kpca_core import KernelPCA" in c.value]
    assert len(scripts) == 1
    namespace: dict = {"__name__": "__reproduce__"}
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", IndefiniteKernelWarning)
        exec(compile(scripts[0], "<page script>", "exec"), namespace)  # noqa: S102

    rows, kpca_shown = scatter_points(find_chart(at, "Kernel PCA"))
    _, pca_shown = scatter_points(find_chart(at, "Linear PCA"))
    Z, Z_pca = namespace["Z"][rows], namespace["Z_pca"][rows]
    scale = np.abs(kpca_shown).max()
    # The charts carry float32 (a precision the eye cannot tell from float64).
    assert_up_to_sign(Z[:, :2], kpca_shown, 1e-6 * scale + 1e-7)
    assert_up_to_sign(Z_pca[:, :2], pca_shown, 1e-6 * np.abs(pca_shown).max())


def test_the_downloads_are_offered_with_the_views_name():
    at = with_script_open(open_app("explorer", VIEWS[0]))
    labels = download_labels(at)
    assert {"Projections (CSV)", "Eigenvalues (CSV)", "Download the script"} <= set(labels)


def test_how_it_works_offers_the_same_downloads_and_script():
    at = with_script_open(open_app("how_it_works", VIEWS[0]))
    assert_clean(at)
    labels = download_labels(at)
    assert {"Projections (CSV)", "Eigenvalues (CSV)", "Download the script"} <= set(labels)
    assert any("from kpca_core import KernelPCA" in c.value for c in at.code)


def test_the_source_viewer_sends_the_code_once_opened():
    from shell.source import source_key

    at = open_app("explorer", VIEWS[0])
    assert not [c for c in at.code if "def center_kernel" in c.value]
    at.session_state[source_key("The kpca_core code behind these pictures")] = True
    at.run()
    assert_clean(at)
    assert [c for c in at.code if "def center_kernel" in c.value]


@pytest.mark.parametrize(("page", "stem"), [("explorer", ""), ("how_it_works", "-how-it-works")])
def test_every_chart_png_is_named_after_the_view(page, stem):
    at = open_app(page, {"dataset": "circles", "n": 80, "kernel": "rbf", "gamma": 5})
    names = png_names(at)
    assert names and len(set(names)) == len(names)
    assert all(n.startswith(f"kpca-lab-circles-rbf-gamma5{stem}-") for n in names), names
