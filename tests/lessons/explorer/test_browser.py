"""Real browser: Debian's Chromium drives `streamlit run app.py`, as a student would.

Screenshots go to tests/artifacts/ (gitignored) for a person to look at.
Marked ``browser``; skipped when /usr/bin/chromium is missing.
"""

from __future__ import annotations

import re

import pytest

import datasets
from tests.experiments.test_morph import TOP_STEP
from tests.support.browser import (
    CHART,
    assert_no_exception,
    chart_titles,
    shot,
    wait_for_title,
    wait_until_idle,
)

# --------------------------------------------------------------------------- tests


def test_box_selection_highlights_points_in_the_other_chart(server, page):
    page.goto(f"{server.url}/explorer?dataset=circles&n=200&kernel=rbf&gamma=10")
    wait_until_idle(page, min_charts=6)
    kpca = page.locator(CHART).filter(has=page.locator(".gtitle", has_text="Kernel PCA"))
    kpca.scroll_into_view_if_needed()
    area = kpca.locator(".nsewdrag").first.bounding_box()
    # Lasso (the charts' drag mode) around the left half of the plot.
    x0, y0 = area["x"] + 5, area["y"] + 5
    x1, y1 = area["x"] + area["width"] * 0.45, area["y"] + area["height"] - 5
    page.mouse.move(x0, y0)
    page.mouse.down()
    for x, y in [(x1, y0), (x1, y1), (x0, y1), (x0 + 1, y0 + 1)]:
        page.mouse.move(x, y, steps=8)
    page.mouse.up()
    page.get_by_text(re.compile(r"\d+ point\(s\) selected")).wait_for()
    wait_until_idle(page, min_charts=6)
    assert_no_exception(page)
    # The linear PCA chart now draws unselected points faded (rgba colours).
    pca = page.locator(CHART).filter(has=page.locator(".gtitle", has_text="Linear PCA"))
    # Plotly splits an rgba colour into fill + fill-opacity.
    opacities = pca.locator(".point").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fillOpacity))"
    )
    faded = [o for o in opacities if o < 0.5]
    assert 0 < len(faded) < len(opacities), opacities[:20]
    # The input-space chart lies outside the projections' fragment: the selection made
    # the whole page rerun, so it highlights the same points.
    data_chart = page.locator(CHART).filter(
        has=page.locator(".gtitle", has_text="Input space")
    )
    opacities = data_chart.locator(".point").evaluate_all(
        "els => els.map(e => parseFloat(getComputedStyle(e).fillOpacity))"
    )
    assert len([o for o in opacities if o < 0.5]) == len(faded)
    shot(page, "explorer-selection")
    # K and K̃ mark the same points' rows and columns: bands as many cells wide as
    # there are selected points (each point is one row at n = 200).
    selected = int(page.get_by_text(re.compile(r"\d+ point\(s\) selected")).inner_text()
                   .split()[0])
    page.get_by_role("tab", name="2 · K and K̃").click()
    wait_for_title(page, "Centred K̃")
    wait_until_idle(page)
    assert page.evaluate(BANDED_CELLS) == [selected, selected]
    # Chromium's own fill of the drawn band (issue 48: the selected points' own block, rows ∩
    # columns, was left blank): the centre of each run's own block is inside it, a cell in
    # no selected row or column is not.
    for heatmap in page.evaluate(BAND_FILL):
        assert heatmap["own"] and all(heatmap["own"]), heatmap
        assert heatmap["outside"] is False, heatmap
    shot(page, "explorer-selection-kernels")


# A selection band's runs of selected columns, [first, last] positions, from its SVG path:
# the rectangles from the axis's top (-0.5) to its bottom, the largest number in the path
# (the rows' rectangles run across instead: "M-0.5,a H high V b").
COLUMN_RUNS = r"""(path => {
  const bottom = Math.max(...path.match(/-?[\d.]+/g).map(Number));
  return [...path.matchAll(/M(-?[\d.]+),-0\.5H(-?[\d.]+)V(-?[\d.]+)/g)]
    .filter(m => Number(m[3]) === bottom).map(m => [Number(m[1]) + 0.5, Number(m[2]) - 0.5]);
})"""
# Per heatmap: how many columns its selection bands cover.
BANDED_CELLS = rf"""() => [...document.querySelectorAll('.js-plotly-plot')]
  .filter(gd => gd.data.some(t => t.type === 'heatmap'))
  .map(gd => (gd.layout.shapes || []).filter(s => s.type === 'path')
    .flatMap(s => {COLUMN_RUNS}(s.path))
    .reduce((cells, [first, last]) => cells + last - first + 1, 0))"""
# Per heatmap, in the browser's own geometry of the drawn band (SVGGeometryElement's
# isPointInFill, by the path's fill-rule): whether the centre of each run's own block (the
# run's rows ∩ its columns) is filled, and whether the first cell in no selected row or
# column is.
BAND_FILL = rf"""() => [...document.querySelectorAll('.js-plotly-plot')]
  .filter(gd => gd.data.some(t => t.type === 'heatmap'))
  .map(gd => {{
    const index = gd.layout.shapes.findIndex(s => s.type === 'path');
    const band = gd.querySelector(`.shapelayer path[data-index="${{index}}"]`);
    const xa = gd._fullLayout.xaxis, ya = gd._fullLayout.yaxis;
    const inside = (column, row) => band.isPointInFill(
      new DOMPoint(xa._offset + xa.l2p(column), ya._offset + ya.l2p(row)));
    const runs = {COLUMN_RUNS}(gd.layout.shapes[index].path);
    const marked = new Set(runs.flatMap(([a, b]) => Array.from({{length: b - a + 1}},
                                                                (_, i) => a + i)));
    const m = Math.round(xa.range[1] + 0.5);  // the axis runs over [-0.5, m - 0.5]
    const free = [...Array(m).keys()].find(i => !marked.has(i));
    return {{own: runs.map(([a, b]) => inside((a + b) / 2, (a + b) / 2)),
             outside: inside(free, free)}};
  }})"""


# The animated chart (the one with frames): the slider's frame and the first point drawn.
MOTION = """() => { const gd = [...document.querySelectorAll('.js-plotly-plot')]
  .find(g => g._transitionData && g._transitionData._frames.length);
  return gd && {active: gd._fullLayout.sliders[0].active, x: gd._fullData[0].x[0],
                y: gd._fullData[0].y[0], title: gd.layout.title.text}; }"""
# Records MOTION in the page at every animation frame on which the slider's frame has
# moved on, until ``count`` frames are recorded (in window.__kpcaMotion).
RECORD_FRAMES = f"""(count) => {{
  const motion = {MOTION}, seen = window.__kpcaMotion = [];
  const sample = () => {{
    const now = motion();
    if (!seen.length || now.active !== seen[seen.length - 1].active) seen.push(now);
    if (seen.length < count) requestAnimationFrame(sample);
  }};
  requestAnimationFrame(sample);
}}"""
# Per pair of consecutive frames: the 95th percentile of the points' moves / the axes' range.
FRAME_STEPS = """() => { const gd = [...document.querySelectorAll('.js-plotly-plot')]
  .find(g => g._transitionData && g._transitionData._frames.length);
  const frames = gd._transitionData._frames, half = gd._fullLayout.xaxis.range[1];
  const types = {i1: Int8Array, i2: Int16Array, i4: Int32Array, f4: Float32Array,
                 f8: Float64Array};  // frames keep Plotly's compact arrays as sent
  const decode = v => v && v.bdata ? [...new types[v.dtype](
    Uint8Array.from(atob(v.bdata), c => c.charCodeAt(0)).buffer)] : v;
  const points = f => f.data.filter(t => t.x).flatMap(t => {
    const x = decode(t.x), y = decode(t.y); return x.map((v, i) => [v, y[i]]); });
  return frames.slice(1).map((f, k) => { const a = points(frames[k]), b = points(f);
    const moves = a.map((p, i) => Math.hypot(p[0] - b[i][0], p[1] - b[i][1]))
      .sort((u, v) => u - v);
    return moves[Math.floor(0.95 * moves.length)] / (2 * half); });
}"""


@pytest.mark.parametrize("dataset", ["circles", "moons"])
def test_gamma_in_motion_plays_in_the_browser_without_jumps(server, page, dataset):
    page.goto(f"{server.url}/explorer?dataset={dataset}")
    wait_until_idle(page, min_charts=3)
    page.get_by_text("in motion: watch").click()
    page.wait_for_function(f"({MOTION})() !== undefined")  # the animated chart is drawn
    wait_until_idle(page)
    assert_no_exception(page)
    start = page.evaluate(MOTION)
    assert start["active"] == 10 and "γ = " in start["title"]
    # In what the browser received, no frame moves 95 % of the points by more than
    # TOP_STEP of the axes' range (tests/experiments/test_morph.py: before alignment the
    # circles jumped by twice that).
    steps = page.evaluate(FRAME_STEPS)
    assert len(steps) == 20 and max(steps) < TOP_STEP, steps
    page.locator(".updatemenu-button", has_text="Play").click()
    # It plays in the browser (no rerun): the page records each frame it moves to.
    page.evaluate(RECORD_FRAMES, 8)
    page.wait_for_function("count => window.__kpcaMotion.length >= count", arg=8)
    seen = page.evaluate("() => window.__kpcaMotion")
    assert len({s["active"] for s in seen}) >= 4
    assert len({(s["x"], s["y"]) for s in seen}) >= 4
    assert len({s["title"] for s in seen}) >= 4
    page.locator(".updatemenu-button", has_text="Pause").click()
    # One slider: "Use this γ" takes the frame on screen once it settles (issue 35).
    paused = page.evaluate(MOTION)
    value = re.match(r"(?:<b>)?γ = ([^ ]+) ·", paused["title"]).group(1)
    use = page.get_by_role("button", name=re.compile(r"^Use γ = "))
    page.wait_for_function(
        "v => [...document.querySelectorAll('button')].some(b => b.innerText.trim() === "
        "'Use γ = ' + v)", arg=value, timeout=20_000)
    assert page.evaluate(MOTION)["active"] == paused["active"]  # still the paused frame
    assert not use.is_disabled() or paused["active"] == 10
    shot(page, f"explorer-motion-{dataset}")
    if not use.is_disabled():  # the sidebar takes the paused γ, the frames centre on it
        use.click()
        page.wait_for_function(
            "v => [...document.querySelectorAll('.js-plotly-plot')].some(g => g.layout && "
            "g.layout.title && String(g.layout.title.text).replace(/<[^>]+>/g, '')"
            ".startsWith('γ = ' + v + ' · components 1 and 2'))",
            arg=value, timeout=60_000)
        assert_no_exception(page)
        # The address bar follows at the end of the same run, a moment after the chart.
        page.wait_for_url(re.compile(rf"[?&]gamma={re.escape(value)}(&|$)"), timeout=60_000)


def test_switching_to_3d_updates_the_projections_and_the_link(server, page):
    """The 2-D/3-D toggle reruns only the projections (a fragment): they switch, the
    link follows, and every other chart stays."""
    page.goto(f"{server.url}/explorer?dataset=circles&n=400&kernel=rbf&gamma=5")
    wait_until_idle(page, min_charts=6)
    charts = page.locator(CHART).count()
    page.get_by_text("3-D", exact=True).first.click()
    page.wait_for_url(re.compile(r"view=3d"))
    page.wait_for_function(  # both projections now drawn as 3-D scenes
        "Array.from(document.querySelectorAll('.js-plotly-plot'))"
        ".filter(p => p._fullLayout && p._fullLayout._has('gl3d')).length === 2"
    )
    wait_until_idle(page)
    assert_no_exception(page)
    assert page.locator(CHART).count() == charts
    assert "dataset=circles" in page.url and "gamma=5" in page.url


# Heatmaps whose drawn margins exceed the figure's own: Plotly's automargin pushed them
# and drew the figure a second time (lessons.common.kernel_figures.heatmap_margins prevents it).
PUSHED_HEATMAPS = """() => Array.from(document.querySelectorAll('.js-plotly-plot'))
  .filter(gd => gd.data.some(t => t.type === 'heatmap'))
  .flatMap(gd => ['l', 'r', 't', 'b']
    .filter(side => gd._fullLayout._size[side] > gd.layout.margin[side] + 0.5)
    .map(side => gd.layout.title.text + ': ' + side))"""


def test_step_by_step_tabs_draw_one_section_and_keep_it_in_the_link(server, page):
    page.goto(f"{server.url}/explorer?dataset=iris&kernel=rbf&gamma=0.5")
    wait_until_idle(page, min_charts=6)
    titles = chart_titles(page)
    assert any(t.startswith("Input space") for t in titles), titles
    assert not any(t.startswith("Kernel matrix K") for t in titles), titles

    page.get_by_role("tab", name="2 · K and K̃").click()
    page.wait_for_url(re.compile(r"section=2"))
    wait_for_title(page, "Centred K̃")
    wait_until_idle(page)
    assert_no_exception(page)
    titles = chart_titles(page)
    assert any(t.startswith("Kernel matrix K") for t in titles), titles
    assert any(t.startswith("Kernel PCA") for t in titles), titles  # the first screen stays
    assert not any(t.startswith("Input space") for t in titles), titles
    assert "dataset=iris" in page.url and "gamma=0.5" in page.url
    assert page.evaluate(PUSHED_HEATMAPS) == []  # each heatmap drawn once
    shot(page, "explorer-kernel-tab")

    page.reload()  # the link opens the same tab
    wait_until_idle(page, min_charts=6)
    wait_for_title(page, "Centred K̃")
    assert page.get_by_role("tab", name="2 · K and K̃").get_attribute("aria-selected") == "true"


def test_usps_digits_page(server, page):
    try:
        datasets.load("usps", n=20)
    except datasets.UspsUnavailableError:
        pytest.skip("USPS digits not available")
    page.goto(f"{server.url}/explorer?dataset=usps&n=500&kernel=poly&gamma=0.00390625&degree=3")
    wait_until_idle(page, min_charts=6)
    wait_for_title(page, "Sample digits")  # below the projections: may be drawn last
    assert_no_exception(page)
    assert any(t.startswith("Sample digits") for t in chart_titles(page))
    shot(page, "explorer-usps")
