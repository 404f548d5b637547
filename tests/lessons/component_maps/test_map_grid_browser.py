"""The component maps' grid in Chromium: every panel the same size and the plane to scale
in each (a unit across as long as a unit up), in a box as high as the page's and as low
as the offline lecture's projector room."""

from __future__ import annotations

import numpy as np
import pytest
from plotly.offline import get_plotlyjs

from lessons.component_maps.figures import MapPanel, map_grid

PANEL_SIZES = """() => { const fl = document.getElementById('c')._fullLayout;
  return [1, 2, 3, 4, 5, 6, 7, 8].map(i => { const x = fl['xaxis' + (i > 1 ? i : '')],
    y = fl['yaxis' + (i > 1 ? i : '')];
    return {width: x._length, height: y._length, across: x.range[1] - x.range[0],
            up: Math.abs(y.range[1] - y.range[0])}; }); }"""


@pytest.fixture(scope="module")
def grid():
    xs, ys = np.linspace(-1.2, 1.1, 24), np.linspace(-0.5, 1.0, 24)  # a wide plane, as Fig. 4's
    z = np.outer(ys, xs)
    rng = np.random.default_rng(0)
    X = np.column_stack([rng.uniform(-1.1, 1.0, 60), rng.uniform(-0.4, 0.9, 60)])
    panels = [MapPanel(xs, ys, z * (i + 1), f"y{i + 1}") for i in range(8)]
    return map_grid(panels, X, np.repeat([0, 1, 2], 20), ["a", "b", "c"], columns=4,
                    title="First 8 components").to_plotly_json()


@pytest.mark.parametrize("height", [650, 330])
def test_every_map_is_the_same_size_and_to_scale(browser, grid, height):
    page = browser.new_page(viewport={"width": 1280, "height": 800})
    library = get_plotlyjs().replace("</script", "<\\/script")
    page.set_content(f"<div id='c' style='width:1240px;height:{height}px'></div>"
                     f"<script>{library}</script>")
    layout = {**grid["layout"], "height": height, "width": 1240}
    page.evaluate("([d, l]) => Plotly.newPlot('c', d, l)", [grid["data"], layout])
    panels = page.evaluate(PANEL_SIZES)
    page.close()
    first = panels[0]
    for panel in panels:
        assert panel["width"] == pytest.approx(first["width"], abs=1)
        assert panel["height"] == pytest.approx(first["height"], abs=1)
        assert panel["across"] == pytest.approx(first["across"], rel=1e-6)
        # to scale: pixels per unit across equal pixels per unit up
        assert panel["width"] / panel["across"] == pytest.approx(
            panel["height"] / panel["up"], rel=0.02)
