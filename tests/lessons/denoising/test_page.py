"""AppTest of the de-noising page: the numbers shown are the numbers of the images shown.

Small settings (300 training digits, 2 test digits per class, so the grid shows every
test digit) keep each run to a few seconds. The digit grid is read back from the
Plotly JSON, cut into its 16 × 16 tiles, and checked against independent computations
(scikit-learn's PCA, kpca_core's KernelPCA with each pre-image) and against the MSE
curve and the title on screen.
"""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sklearn.decomposition import PCA
from streamlit.testing.v1 import AppTest

import datasets
from kpca_core import KernelPCA
from lessons.denoising import caches as compute
from lessons.denoising import experiment as dn
from lessons.denoising import view
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import decode

pytestmark = needs_usps

N_TRAIN, PER_CLASS, M, SEED = 300, 2, 16, 0


# The widgets seeded before the first run (never the default size).
SMALL = {view.K_N: N_TRAIN, view.K_TEST: PER_CLASS, view.K_M: M, view.K_SEED: SEED}


def open_denoising(**state) -> AppTest:
    """The page with its widgets seeded before the first run, ``state`` over SMALL."""
    return open_app("denoising", state={**SMALL, **state})


def chart(at: AppTest, key: str) -> dict:
    element = at.get("plotly_chart")
    specs = {e.proto.id: json.loads(e.proto.spec) for e in element}
    found = [spec for eid, spec in specs.items() if key in eid]
    assert len(found) == 1, list(specs)
    return found[0]


def grid_rows(spec: dict) -> list[np.ndarray]:
    """The mosaic's four rows (original, noisy, PCA, KPCA) as arrays of flat digits."""
    canvas = decode(spec["data"][0]["z"])
    n_rows, n_cols = (canvas.shape[0] + 1) // 17, (canvas.shape[1] + 1) // 17
    assert n_rows == 4
    return [
        np.array([canvas[r * 17 : r * 17 + 16, c * 17 : c * 17 + 16].ravel()
                  for c in range(n_cols)])
        for r in range(n_rows)
    ]


def curve_values(spec: dict, method: str) -> dict[int, float]:
    trace = next(t for t in spec["data"] if t.get("meta") == method)
    return dict(zip(decode(trace["x"]).astype(int).tolist(), decode(trace["y"]), strict=True))


def expected_digits(noise: str, level: float):
    train = datasets.load("usps", split="train", n=N_TRAIN, seed=SEED).X
    test = datasets.load("usps", split="test", n=2007, seed=SEED)
    rows = dn.per_class_indices(test.y, PER_CLASS, SEED)
    clean = np.array(test.X[rows])
    return train, clean, dn.add_noise(clean, noise, level, seed=SEED)


def independent_kpca(method: str, train, noisy, m: int) -> np.ndarray:
    """kpca_core's estimator, refitted for this m (the page reuses one fit for all m)."""
    kpca = KernelPCA(m, kernel="rbf", gamma=dn.PAPER_GAMMA, preimage=method,
                     fit_inverse_transform=method == "learned", alpha=dn.DEFAULT_ALPHA,
                     preimage_params={"n_neighbors": dn.DEFAULT_NEIGHBORS}).fit(train)
    projections = kpca.transform(noisy)
    if method == "fixed_point":
        return kpca.inverse_transform(projections, init=noisy)
    return kpca.inverse_transform(projections)


@pytest.mark.parametrize("noise", dn.NOISE_KINDS)
def test_every_method_shows_the_error_of_the_images_it_shows(noise):
    level = dn.PAPER_SIGMA if noise == "gaussian" else dn.PAPER_SPECKLE_P
    at = open_denoising(**{view.K_NOISE: noise})
    train, clean, noisy = expected_digits(noise, level)
    pca = PCA(M).fit(train)
    expected_pca = pca.inverse_transform(pca.transform(noisy))
    for method in dn.PREIMAGE_METHODS:
        at.session_state[view.K_METHOD] = method
        at.run()
        assert_clean(at)
        original, shown_noisy, shown_pca, shown_kpca = grid_rows(chart(at, "denoising_grid"))
        # The images are the right ones (the chart carries float32: ~7 digits) ...
        assert np.allclose(original, clean, atol=1e-6)
        assert np.allclose(shown_noisy, noisy, atol=1e-6)
        assert np.allclose(shown_pca, expected_pca, atol=1e-6)
        assert np.allclose(shown_kpca, independent_kpca(method, train, noisy, M), atol=1e-6)
        # ... and every MSE on screen is theirs: the curve at m and the grid's title.
        curves = chart(at, "denoising_mse")
        assert curve_values(curves, "pca")[M] == pytest.approx(dn.mse(shown_pca, original),
                                                               rel=1e-5)
        assert curve_values(curves, method)[M] == pytest.approx(dn.mse(shown_kpca, original),
                                                                rel=1e-5)
        title = chart(at, "denoising_grid")["layout"]["title"]["text"]
        numbers = [float(x) for x in re.findall(r"\d\.\d{4}", title)]
        assert numbers == [round(dn.mse(shown_noisy, original), 4),
                           round(dn.mse(shown_pca, original), 4),
                           round(dn.mse(shown_kpca, original), 4)]
        # The best m is starred where the curve is lowest.
        star = next(t for t in curves["data"] if t.get("meta") == f"best:{method}")
        assert decode(star["y"])[0] == min(curve_values(curves, method).values())
        assert any("Check" in md.value and "✓" in md.value for md in at.markdown)


@needs_usps
def test_fixed_point_steps_and_failures_are_reported():
    at = open_denoising(**{view.K_ITER: 10})
    assert_clean(at)
    caption = next(c.value for c in at.caption if c.value.startswith("Fixed point at m"))
    assert "budget 10 per start" in caption
    assert re.search(r"\d+ of 20 digits converged", caption)


def test_the_stored_paper_run_is_shown_beside_the_live_one():
    stored = compute.stored_result()
    assert stored is not None, f"{compute.STORE} is missing"
    for width in ("paper", "variance"):
        at = open_denoising(**{view.K_NOISE: "speckle", view.K_WIDTH: width})
        assert_clean(at)
        spec = chart(at, "denoising_stored")
        for method in dn.METHODS:
            shown = curve_values(spec, method)
            assert list(shown.values()) == stored["runs"][width]["results"]["speckle"]["mse"][
                method]
    assert any("about 1.2× with the fixed point, best m = 256" in md.value
               for md in at.markdown)
    # Both noises × both widths, each ratio computed within the stored grid.
    table = next(d.value for d in at.dataframe if "noise" in d.value.columns)
    assert len(table) == 4
    for _, row in table.iterrows():
        width = "paper" if "paper" in row["γ"] else "variance"
        noise = "gaussian" if row["noise"] == "Gaussian" else "speckle"
        r = stored["runs"][width]["results"][noise]
        best_pca = min(r["mse"]["pca"])
        assert row["fixed: PCA/KPCA"] == round(best_pca / min(r["mse"]["fixed_point"]), 2)
        assert row["fixed: best m"] == r["m_values"][int(np.argmin(r["mse"]["fixed_point"]))]
        assert row["paper: PCA/KPCA (best m)"] == f"{dn.PAPER_RATIO[noise]} " \
            f"({dn.PAPER_BEST_M[noise]})"


def test_m_covers_every_component_and_the_best_m_is_said_as_it_is(shared_page):
    # Issue 22, item 2: the grid runs to n − 1 = 299, and the text names the best m over
    # all of it (or says the error is still falling where m runs out).
    at = shared_page("denoising", state=SMALL)
    assert_clean(at)
    curves = chart(at, "denoising_mse")
    m_values = list(curve_values(curves, "pca"))
    assert m_values[-1] == N_TRAIN - 1 and m_values == list(dn.m_grid(N_TRAIN - 1))
    # The axis names the last m (all the components), clear of the power of 4 before it.
    ticks = list(decode(curves["layout"]["xaxis"]["tickvals"]))
    assert ticks[-1] == N_TRAIN - 1 and 2 * ticks[-2] <= ticks[-1]
    text = next(md.value for md in at.markdown if md.value.startswith("At their best m"))
    for method in ("pca", "fixed_point"):
        errors = curve_values(curves, method)
        best = min(errors, key=errors.get)
        if best == m_values[-1]:
            assert f"m = {best:,}, all the components: still" in text
        else:
            assert f"(m = {best:,})" in text
        assert f"{errors[best]:.4f}" in text
    assert "about 1.6× with the fixed point, best m = 512" in text


def test_twice_the_average_variance_is_measured_on_the_training_digits():
    at = open_denoising(**{view.K_WIDTH: "variance"})
    assert_clean(at)
    X = datasets.load("usps", split="train", n=N_TRAIN, seed=SEED).X
    gamma = 1 / (2 * 256 * X.var(axis=0).mean())
    assert dn.twice_variance_gamma(X) == pytest.approx(gamma)
    label = view.width_label("variance", gamma)
    assert at.radio(key=view.K_WIDTH).value == "variance" and f"1/{1 / gamma:.0f}" in label
    assert 200 < 1 / gamma < 280  # ≈ 1/240 on these digits, not the paper's 1/128


def test_clean_versus_noisy_text_follows_the_numbers(shared_page):
    at = shared_page("denoising", state=SMALL)
    assert_clean(at)
    text = next(md.value for md in at.markdown if "reconstructing the **clean**" in md.value)
    clean_pca, clean_kpca, noisy_pca, noisy_kpca = (
        float(x) for x in re.findall(r"\d\.\d{4}", text)
    )
    expected = "kernel PCA is worse" if clean_kpca > clean_pca * 1.005 else None
    if expected:
        assert text.split("—")[1].strip().startswith(expected)
    curves = chart(at, "denoising_mse")
    assert noisy_pca == round(curve_values(curves, "pca")[M], 4)
    assert noisy_kpca == round(curve_values(curves, "fixed_point")[M], 4)


def test_too_many_training_digits_for_the_memory_budget_is_refused(monkeypatch):
    monkeypatch.setenv("KPCA_MEMORY_BUDGET_MB", "100")
    at = open_denoising(**{view.K_N: 3000})
    assert not at.exception
    assert "needs" in at.error[0].value and "Use at most" in at.error[0].value
    assert not at.get("plotly_chart")


def test_kwok_tsang_with_many_neighbours_warns_with_the_measured_pixel_range():
    at = open_denoising(**{view.K_K: 50})
    assert not at.exception
    curves = compute.curve(compute.curve_settings(
        compute.DenoisingSettings(n_train=N_TRAIN, test_per_class=PER_CLASS, seed=SEED,
                                  params=dn.PreimageParams(n_neighbors=50)), "kwok_tsang"),
        "kwok_tsang")
    worst = max(float(np.abs(Z).max()) for Z in curves.reconstructions.values())
    warnings = [w.value for w in at.warning if "Kwok–Tsang" in w.value]
    assert bool(warnings) == (worst > view.KWOK_TSANG_LIMIT)
    if warnings:
        assert f"{worst:.3g}" in warnings[0]


# ------------------------------------------------- pure pieces: figures and captions


def test_curves_figure_stars_each_methods_minimum_on_a_log_axis():
    from lessons.denoising.figures import mse_curves

    data = {"pca": ([1, 2, 4], [0.3, 0.1, 0.2], 0.5),
            "fixed_point": ([1, 2, 4], [0.4, 0.3, 0.05], None)}
    fig = mse_curves(data, noisy_mse=0.25, title="t", current_m=2)
    assert fig.layout.xaxis.type == "log"
    for method, (m_values, errors, _) in data.items():
        star = next(t for t in fig.data if t.meta == f"best:{method}")
        assert (star.x[0], star.y[0]) == (m_values[int(np.argmin(errors))], min(errors))
    assert [s.y0 for s in fig.layout.shapes if s.type == "line" and s.y0 == s.y1] == [0.25]


def test_clean_text_follows_the_numbers_in_every_case():
    both = view.clean_text(64, "KPCA", 0.01, 0.09, 0.14, 0.11)
    assert "kernel PCA is worse" in both and "kernel PCA is better" in both
    assert "exactly the effect" in both
    loses = view.clean_text(16, "KPCA", 0.1, 0.2, 0.15, 0.2)
    assert "loses on both" in loses and "exactly the effect" not in loses
    wins = view.clean_text(16, "KPCA", 0.2, 0.1, 0.2, 0.1)
    assert "loses" not in wins and "exactly the effect" not in wins


def test_fixed_point_caption_names_restarts_and_failures():
    report = dn.FixedPointReport(iterations=np.array([3, 100, 200]), converged_first=1,
                                 restarted=2, converged_after_restart=1,
                                 failed=np.array([False, False, True]), max_iter=100)
    text = view.fixed_point_text(report, 8, 3)
    assert "1 of 3 digits converged" in text and "max 200" in text
    assert "2 restarted" in text and "1 of them converged" in text
    assert "**1 failed**" in text


def test_each_preimage_method_takes_a_turn_per_m_with_its_own_estimate(monkeypatch):
    # The curves are CPU-heavy at large settings: every m of every pre-image method asks
    # the server's queue for its own turn, with its own work; the fixed point's number of
    # steps is not known in advance, so its estimate is a lower bound ("at least").
    import server.admission as admission

    tickets: list[tuple[int, float, bool]] = []
    real = admission.AdmissionControl.admit

    def recorded(self, n_bytes, *, estimate, **kwargs):
        tickets.append((n_bytes, estimate.seconds, estimate.at_least))
        return real(self, n_bytes, estimate=estimate, **kwargs)

    monkeypatch.setattr(admission.AdmissionControl, "admit", recorded)
    whats: list[tuple[str, object]] = []
    real_turn = compute.taking_turn

    def turn(n_bytes, *, estimate, what, **kwargs):
        whats.append((what, estimate))
        return real_turn(n_bytes, estimate=estimate, what=what, **kwargs)

    monkeypatch.setattr(compute, "taking_turn", turn)
    at = open_denoising(**{view.K_SEED: 7})
    assert_clean(at)
    settings = compute.DenoisingSettings(n_train=N_TRAIN, test_per_class=PER_CLASS, seed=7)
    grid = [int(m) for m in dn.m_grid(settings.max_components)]
    for method in dn.PREIMAGE_METHODS:
        mine = [(w, e) for w, e in whats if w.startswith(dn.METHOD_TITLES[method] + " at m =")]
        assert set(grid) <= {int(w.rsplit("= ", 1)[1]) for w, _ in mine}, method
        assert all(e.at_least == (method == "fixed_point") for _, e in mine), method
        assert all(e.seconds > 0 for _, e in mine)
    assert len(tickets) >= len(whats)  # each turn reached the server's queue


def test_without_the_usps_digits_the_page_says_so_instead_of_a_traceback(monkeypatch):
    # The page reads the training digits before its first chart (the RBF width's choices
    # come from their variance): found with no KPCA_USPS_PATH, no cache and no network.
    import streamlit as st



    def unavailable(name, **options):
        raise datasets.UspsUnavailableError("The USPS digits are not available (test).")

    monkeypatch.setattr(datasets, "load", unavailable)
    st.cache_resource.clear()  # no digits left from an earlier test
    try:
        at = open_app("denoising")
        assert not at.exception
        assert "not available (test)" in at.error[0].value
        assert "other pages work without the USPS digits" in at.error[0].value
    finally:
        st.cache_resource.clear()  # nor a refusal for a later one


def test_the_page_says_why_the_kernel_curve_is_best_where_it_is(shared_page):
    """Issue 33: the kernel curve was best with all components (m = n − 1) under a premise
    that 'the noise lives in the components you drop'; the page now says from its numbers
    which of the two removes the noise, and points to the width with an interior optimum."""
    at = shared_page("denoising", state=SMALL)
    assert_clean(at)
    errors = curve_values(chart(at, "denoising_mse"), "fixed_point")
    best = min(errors, key=errors.get)
    text = next(md.value for md in at.markdown if "lies outside the span" in md.value)
    if best == max(errors):
        assert text.startswith("**Why KPCA · fixed point (Mika) is best with all the "
                               "components here:**"), text
        assert "removes more digit than noise" in text and "m = 1,024" in text
    else:
        assert text.startswith("**Why an interior m:**"), text
    intro = next(m.value for m in at.markdown if m.value.startswith("Keep only"))
    assert "for linear PCA the noise lives mostly in the components you drop" in intro
    assert "the span of the training digits" in intro  # kernel PCA's second way
