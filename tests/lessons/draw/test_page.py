"""Draw your own data (AppTest): the page follows its points (presets, Clear, a link), a bad
link falls back with a warning, and a drawing is the data of every page that takes points in
the plane, each showing values computed from those very points."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import drawn
from kpca_core import KernelPCA
from lessons.draw import experiment
from lessons.draw import view as draw_view
from lessons.new_points.experiment import split_indices
from shell.drawn import K_POINTS
from shell.registry import NEW_POINTS_HELD_OUT
from tests.support.apptest import assert_clean, open_app
from tests.support.lessons import assert_up_to_sign
from tests.support.plotly_json import decode, find_chart, scatter_points

# A drawing of no preset's: two blobs and a ring of a third class, 45 points.
_rng = np.random.default_rng(7)
_angles = np.linspace(0, 2 * np.pi, 15, endpoint=False)
X_DRAWN, Y_DRAWN = drawn.snap(
    [[float(x), float(y), 0] for x, y in _rng.normal([-0.6, 0.5], 0.12, (15, 2))]
    + [[float(x), float(y), 1] for x, y in _rng.normal([0.6, 0.5], 0.12, (15, 2))]
    + [[1.1 * float(np.cos(a)), 1.1 * float(np.sin(a)) - 0.2, 2] for a in _angles])
CODE = drawn.encode(X_DRAWN, Y_DRAWN)
LINK = {"dataset": "drawn", "points": CODE, "kernel": "rbf", "gamma": 2}


def text_of(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption])


def kernel_side(at) -> int:
    return decode(find_chart(at, "Kernel matrix K")["data"][0]["z"]).shape[0]


def test_the_page_shows_kernel_pca_of_the_drawn_points_from_a_link():
    at = open_app("draw", LINK)
    assert_clean(at)
    assert kernel_side(at) == len(X_DRAWN) == 45
    rows, Z = scatter_points(find_chart(at, "Kernel PCA: 45 points"))
    assert rows.tolist() == list(range(45))
    expected = KernelPCA(3, kernel="rbf", gamma=2.0, random_state=0).fit_transform(X_DRAWN)
    # Signs are the analysis' own convention: compare up to a sign per component.
    assert_up_to_sign(Z[:, :2], expected[:, :2], 1e-5)
    scores = experiment.Separation(
        *(experiment.linear_separability(P, Y_DRAWN) for P in (expected[:, :2], X_DRAWN)))
    assert experiment.separation_sentence(scores) in text_of(at)
    assert at.query_params["points"] == CODE


def test_a_typed_link_with_points_alone_opens_the_drawing():
    at = open_app("component_maps", {"points": CODE})
    assert_clean(at)
    assert at.query_params["dataset"] == "drawn" and at.query_params["points"] == CODE


def test_presets_and_clear_replace_the_drawing_and_the_link_follows():
    at = open_app("draw", LINK)
    at.button(key="draw_preset_moons").click().run()
    assert_clean(at)
    assert at.session_state[K_POINTS] == drawn.preset_code("moons")
    assert at.query_params["points"] == drawn.preset_code("moons")
    # 120 points: K in blocks of 2 × 2 points (at most HEATMAP_SIDE cells a side).
    assert kernel_side(at) == drawn.PRESET_POINTS // 2 <= draw_view.HEATMAP_SIDE
    assert "one cell per block of 2 × 2 points" in text_of(at)
    assert at.select_slider(key="w_gamma").value == drawn.PRESET_GAMMA["moons"]
    at.button(key="draw_clear").click().run()
    assert_clean(at)
    assert "So far 0 points drawn: kernel PCA needs at least 3" in at.info[0].value
    assert at.get("plotly_chart") == []
    assert at.query_params["points"] == drawn.VERSION


@pytest.mark.parametrize("bad", ["1AAA", "hello<b>", "1" + "A" * 5000, "1AAAM"])
def test_a_bad_points_link_warns_and_shows_the_default_drawing(bad):
    at = open_app("draw", {**LINK, "points": bad})
    assert not at.exception
    warnings = [w.value for w in at.warning]
    assert any("Link parameter `points`" in w and "Showing the circles preset" in w
               for w in warnings), warnings
    assert all(bad[:40] not in w for w in warnings)  # the code itself is never echoed
    assert kernel_side(at) == drawn.PRESET_POINTS // 2
    assert at.query_params["points"] == drawn.default_code()


def test_edits_from_the_browser_are_checked_and_stale_ones_ignored():
    points = [[0.1, 0.2, 0], [0.3, -0.4, 1]]
    X, y = experiment.read_edit({"rev": 4, "points": points}, 4)
    assert y.tolist() == [0, 1]
    np.testing.assert_allclose(X, [[0.1, 0.2], [0.3, -0.4]], atol=drawn.LIMIT / drawn.GRID)
    assert experiment.read_edit({"rev": 3, "points": points}, 4) is None  # before a preset
    for bad in (None, [], {"points": points}, {"rev": "4", "points": points},
                {"rev": 4, "points": points, "extra": 1}, {"rev": 4, "points": [[0, 0, 7]]}):
        with pytest.raises(drawn.DrawnError):
            experiment.read_edit(bad, 4)


def test_drawn_results_stay_in_the_drawing_session():
    open_app("draw", {**LINK, "gamma": 3})
    # Results computed from drawn points are not in the server-wide store of the page's
    # analysis: another session finds nothing there (shell.caches.results_store).
    assert len(draw_view.analysis.server_store) == 0


def test_component_maps_of_a_drawing_are_kernel_pca_of_its_points():
    at = open_app("component_maps", LINK)
    assert_clean(at)
    model = KernelPCA(8, kernel="rbf", gamma=2.0, random_state=0).fit(X_DRAWN)
    spec = find_chart(at, "First 8 components over the plane")
    maps = [t for t in spec["data"] if t["type"] == "contour"]
    xs, ys = decode(maps[0]["x"]), decode(maps[0]["y"])
    j, i = 11, len(xs) - 5
    expected = model.transform([[xs[i], ys[j]]])[0]
    shown = [decode(m["z"])[j, i] for m in maps]
    np.testing.assert_allclose(shown, expected, atol=1e-5 * np.abs(expected).max())


def test_new_points_fits_on_the_drawing_and_places_its_held_out_points():
    at = open_app("new_points", LINK)
    assert_clean(at)
    train, held = split_indices(len(X_DRAWN), Y_DRAWN, heldout_fraction=NEW_POINTS_HELD_OUT)
    model = KernelPCA(3, kernel="rbf", gamma=2.0, random_state=0).fit(X_DRAWN[train])
    spec = find_chart(at, "Kernel PCA")
    shown = {int(r): (x, y) for t in spec["data"] if t["name"].endswith(" · held out")
             for r, x, y in zip(decode(t["customdata"]), decode(t["x"]), decode(t["y"]),
                                strict=True)}
    assert sorted(shown) == held.tolist()
    np.testing.assert_allclose([shown[r] for r in held], model.transform(X_DRAWN[held])[:, :2],
                               atol=1e-12)


def test_choosing_gamma_scores_the_drawing():
    at = open_app("choosing_gamma", LINK)
    assert_clean(at)
    spec = find_chart(at, "How well a straight line separates the classes, against γ")
    curves = {t["name"]: t for t in spec["data"]}
    gammas = decode(curves["kernel PCA, components 1–2"]["x"])
    two = decode(curves["kernel PCA, components 1–2"]["y"])
    Z = KernelPCA(20, kernel="rbf", gamma=gammas[3], random_state=0).fit_transform(X_DRAWN)
    assert two[3] == pytest.approx(100 * experiment.linear_separability(Z[:, :2], Y_DRAWN))


def editor_data(at) -> dict:
    import json

    (editor,) = at.get("bidi_component")
    return json.loads(editor.proto.json)


def test_a_link_that_locks_the_dataset_says_so_and_the_editor_takes_no_edit():
    # Issue 34: with lock=dataset the editor took the student's clicks (7 points on the
    # plane) while every page went on showing the link's 3: the clicks were silently lost.
    at = open_app("draw", {**LINK, "lock": "dataset", "unlock": "1"})
    assert_clean(at)
    data = editor_data(at)
    assert data["locked"] is True and len(data["points"]) == 45
    said = " ".join(i.value for i in at.info)
    assert "This link locks the dataset: the plane shows its 45 points and takes no clicks" in said
    assert "press **Unlock the controls** above" in said
    assert all(at.button(key=k).disabled for k in ("draw_preset_moons", "draw_clear"))
    at.button(key="lock_unlock").click().run()
    assert editor_data(at)["locked"] is False
    assert not at.button(key="draw_clear").disabled
    at.button(key="draw_clear").click().run()
    assert at.session_state[K_POINTS] == drawn.VERSION  # the student's own now

