"""One symbol for an eigenvalue of K̃ across the app (issue 22, item 5): μ, with λ = μ / n
keeping the paper's meaning. Every λ a page shows (text, tables, chart titles, hovers)
stands in a sentence that relates it to μ; every page that shows eigenvalues says μ."""

from __future__ import annotations

import json
import re

import pytest

from tests.lessons.explorer.sections import SPECTRUM_TAB, open_section
from tests.support.apptest import assert_clean, open_app

PAGES = {
    "explorer": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
    "how_it_works": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
    "component_maps": {"dataset": "scholkopf_toy", "kernel": "rbf", "gamma": 10},
    "choosing_gamma": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
    "new_points": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
    "mistakes": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
    "scale": {"dataset": "circles", "n": 60, "kernel": "rbf", "gamma": 5},
}


def shown_text(at) -> str:
    parts = [e.value for kind in ("markdown", "caption", "info", "warning", "latex")
             for e in getattr(at, kind)]
    parts += [" ".join(map(str, d.value.columns)) for d in at.dataframe]
    parts += [json.dumps(json.loads(e.proto.spec), ensure_ascii=False)
              for e in at.get("plotly_chart")]
    return "\n".join(parts)


@pytest.mark.parametrize("page", list(PAGES))
def test_lambda_only_appears_as_mu_over_n(page):
    at = open_app(page, PAGES[page])
    if page == "explorer":
        at = open_section(at, SPECTRUM_TAB)
    assert_clean(at)
    text = shown_text(at)
    for match in re.finditer("λ", text):
        around = text[max(0, match.start() - 200): match.end() + 200]
        assert "μ" in around, f"{page}: λ without μ nearby: …{around}…"
    if page not in ("mistakes", "scale", "new_points"):  # no eigenvalue shown by default
        assert "μ" in text, page
