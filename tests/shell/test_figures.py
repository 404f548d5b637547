"""The figure builders are pure: check what they draw, without any UI."""

import numpy as np
import pytest

from lessons.common import kernel_figures
from shell import figures


@pytest.fixture
def three_classes():
    rng = np.random.default_rng(0)
    y = np.repeat([0, 1, 2], [5, 7, 3])
    Z = rng.normal(size=(len(y), 3))
    return Z, y, ("setosa", "versicolor", "virginica")


def test_scatter_has_one_trace_per_class_with_palette_colours(three_classes):
    Z, y, names = three_classes
    fig = figures.point_scatter(Z[:, :2], y, names, title="t", axis_titles=["a", "b"])
    assert [t.name for t in fig.data] == list(names)
    assert [t.marker.color for t in fig.data] == list(figures.PALETTE[:3])
    for label, trace in enumerate(fig.data):
        rows = np.flatnonzero(y == label)
        np.testing.assert_array_equal(trace.customdata, rows)
        # float32 on the wire: 7 significant digits, far more than a pixel shows.
        np.testing.assert_allclose(trace.x, Z[rows, 0], rtol=1e-6)
        np.testing.assert_allclose(trace.y, Z[rows, 1], rtol=1e-6)
        assert trace.x.dtype == np.float32 and trace.customdata.dtype == np.int32
        assert "point %{customdata}" in trace.hovertemplate and names[label] in trace.hovertemplate


def test_scatter_3d_and_highlight(three_classes):
    Z, y, names = three_classes
    fig = figures.point_scatter(Z, y, names, title="t", axis_titles="abc", highlight=[0, 6])
    assert all(t.type == "scatter3d" for t in fig.data)
    colours = {label: list(t.marker.color) for label, t in enumerate(fig.data)}
    faded = [figures.faded(c) for c in figures.PALETTE[:3]]
    assert faded[0].startswith("rgba(") and faded[0].endswith(f",{figures.FADED_OPACITY})")
    assert colours[0] == [figures.PALETTE[0]] + [faded[0]] * 4
    assert colours[1][1] == figures.PALETTE[1]  # row 6 is the 2nd point of class 1
    assert colours[1].count(faded[1]) == 6
    assert colours[2] == [faded[2]] * 3


def test_scatter_without_labels_is_one_trace():
    fig = figures.point_scatter(np.zeros((4, 2)), None, (), title="t", axis_titles="ab")
    assert len(fig.data) == 1 and fig.data[0].name == "all points"


def test_scatter_rejects_other_dimensions():
    with pytest.raises(ValueError, match="2 or 3"):
        figures.point_scatter(np.zeros((4, 4)), None, (), title="t", axis_titles="abcd")


def test_kernel_heatmap_is_sequential_and_centred_heatmap_diverges_around_zero():
    M = np.array([[1.0, 0.2, -0.5], [0.2, 1.0, 0.1], [-0.5, 0.1, 2.0]])
    K = kernel_figures.kernel_heatmap(M, [2, 1], ["a", "b"], centered=False, title="K")
    Kc = kernel_figures.kernel_heatmap(M, [2, 1], ["a", "b"], centered=True, title="K~")
    assert K.data[0].zmid is None
    assert (Kc.data[0].zmid, Kc.data[0].zmin, Kc.data[0].zmax) == (0.0, -2.0, 2.0)
    # Plotly expands named scales; compare the ends: Viridis starts dark purple, RdBu_r blue.
    assert K.data[0].colorscale != Kc.data[0].colorscale
    np.testing.assert_allclose(K.data[0].z, M, rtol=1e-7)  # float32 on the wire
    # One boundary between the two classes, drawn as a vertical and a horizontal line.
    assert len(K.layout.shapes) == 2 and K.layout.shapes[0].x0 == pytest.approx(1.5)
    assert list(K.layout.xaxis.ticktext) == ["a", "b"]


def test_block_averaged_heatmap_puts_boundaries_in_block_units():
    fig = kernel_figures.kernel_heatmap(
        np.eye(5), [6, 4], ["a", "b"], centered=False, block_size=2, title="K"
    )
    assert fig.layout.shapes[0].x0 == pytest.approx(6 / 2 - 0.5)


def test_spectrum_bars_are_the_eigenvalues_and_negatives_are_red():
    values = np.array([5.0, 3.0, 1.0, 0.0, -0.5, -2.0])
    ranks = np.arange(1, 7)
    negative = values < -1e-9
    ratio = values / values.sum()
    fig = kernel_figures.spectrum_figure(
        values, ranks, ratio, np.array([0.7, 0.3]), n_components=2, negative=negative
    )
    bars, kpca_line, pca_line = fig.data
    np.testing.assert_array_equal(bars.y, values)
    assert list(bars.x) == [f"μ{r}" for r in ranks]
    assert (
        list(bars.marker.color)
        == [figures.KEPT_COLOUR] * 2 + [figures.DROPPED_COLOUR] * 2 + [figures.NEGATIVE_COLOUR] * 2
    )
    np.testing.assert_allclose(kpca_line.y, 100 * np.cumsum(ratio))
    np.testing.assert_allclose(pca_line.y, [70.0, 100.0])


def test_spectrum_shows_leading_bars_and_every_negative_one():
    n = 100
    values = np.linspace(10, -1, n)
    negative = values < 0
    fig = kernel_figures.spectrum_figure(
        values,
        np.arange(1, n + 1),
        values / values.sum(),
        np.ones(1),
        n_components=3,
        negative=negative,
    )
    bars = fig.data[0]
    assert len(bars.y) == kernel_figures.SPECTRUM_SHOWN + negative.sum()
    assert bars.x[-1] == f"μ{n}"


def test_digit_mosaic_tiles_images_with_gaps():
    images = np.arange(3 * 4, dtype=float).reshape(3, 4)  # three 2×2 images
    fig = figures.digit_mosaic(
        images, (2, 2), columns=2, hover_labels=["a", "b", "c"], title="digits"
    )
    z = np.asarray(fig.data[0].z, dtype=float)
    assert z.shape == (2 * 3 - 1, 2 * 3 - 1)
    np.testing.assert_array_equal(z[0:2, 0:2], images[0].reshape(2, 2))
    np.testing.assert_array_equal(z[0:2, 3:5], images[1].reshape(2, 2))
    np.testing.assert_array_equal(z[3:5, 0:2], images[2].reshape(2, 2))
    assert np.isnan(z[2, :]).all() and np.isnan(z[3:5, 3:5]).all()
    # One hover label per image (on an invisible marker at its tile's centre), not per pixel.
    assert fig.data[0].text is None and fig.data[0].hoverinfo == "skip"
    labels = fig.data[1]
    assert list(labels.text) == ["a", "b", "c"]
    np.testing.assert_allclose(labels.x, [0.5, 3.5, 0.5])
    np.testing.assert_allclose(labels.y, [0.5, 0.5, 3.5])
    assert labels.marker.opacity == 0


def test_the_best_gamma_label_sits_away_from_your_gamma_line():
    from lessons.choosing_gamma.figures import separability_vs_value

    values = [0.1, 1.0, 3.0, 10.0]
    scores = np.array([0.5, 0.6, 1.0, 0.9])

    def label_side(current):
        fig = separability_vs_value(values, scores, scores, k=3, linear_two=None, param="gamma",
                                    best=2, current_value=current, reference_value=None, title="")
        star = next(t for t in fig.data if t.name.startswith("best"))
        assert star.cliponaxis is False  # above a star at 100 %: past the axes' top
        return star.textposition

    # Above the star (below it, the label sat by the curve rising to it), on the side
    # away from your line.
    assert label_side(5.0) == "top left"  # your line to the right of the best γ
    assert label_side(0.5) == "top right"


def test_your_gamma_is_drawn_on_top_of_the_other_spectra():
    # In the dark theme the red line of your γ was lost among a dozen close lines.
    from lessons.choosing_gamma.figures import HIGHLIGHT, spectra_lines

    shares = [np.full(5, 0.2 + 0.01 * i) for i in range(4)]
    fig = spectra_lines([0.1, 1.0, 10.0, 100.0], shares, flat_share=0.2, param="gamma",
                        current=1, title="")
    lines = [t for t in fig.data if t.mode and "lines" in t.mode]
    assert [t.name for t in lines] == ["γ = 0.1", "γ = 10", "γ = 100", "γ = 1"]
    mine = lines[-1]
    assert mine.line.color == HIGHLIGHT and "markers" in mine.mode
    np.testing.assert_allclose(mine.y, 100 * shares[1])  # its own shares, not another's


def test_heatmap_margins_stay_small_for_a_constant_matrix():
    # γ → 0 makes K all ones: no colour-bar step to read decimals from. The margin once
    # came out at 2,177 px for such a matrix, wider than any chart.
    from lessons.common.kernel_figures import heatmap_margins

    flat = kernel_figures.kernel_heatmap(
        np.ones((4, 4)), [2, 2], ["a", "b"], centered=False, title="K"
    )
    assert flat.layout.margin.r <= 130
    assert heatmap_margins(["a", "b"], slant=False, zmin=0.0, zmax=1.0)["r"] < flat.layout.margin.r
    # Longer class names and colour-bar labels get wider margins.
    short = heatmap_margins(["a", "b"], slant=False, zmin=0.0, zmax=1.0)
    long = heatmap_margins(["outer circle", "b"], slant=True, zmin=-0.005, zmax=0.005)
    assert long["l"] > short["l"] and long["b"] > short["b"] and long["r"] > short["r"]
