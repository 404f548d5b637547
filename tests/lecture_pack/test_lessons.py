"""The offline lecture's steps whose page is a lesson's own: each frame holds that page's
figures and sentences, and its numbers are those computed independently at the same
settings (scikit-learn's KernelPCA on a kernel built here); the step's question speaks only
of what the file shows."""

from __future__ import annotations

import re
from dataclasses import replace
from urllib.parse import parse_qsl, urlsplit

import numpy as np
import pytest
from scipy.linalg import subspace_angles
from scipy.spatial.distance import cdist, pdist
from sklearn.decomposition import KernelPCA
from sklearn.metrics.pairwise import polynomial_kernel, rbf_kernel

from classroom.tour import STEPS
from experiments.sampling import sample_rows, stratified_rows
from experiments.separability import linear_separability
from lecture_pack.build import build_lesson_step, figure_data
from lecture_pack.pages import PAGES
from shell.caches import inputs_of
from shell.registry import MISTAKES_MAX_N
from shell.state import format_gamma, settings_from_query


def step_on(page: str) -> int:
    return next(i for i, step in enumerate(STEPS, start=1)
                if step.page == f"app_pages/{page}.py" and not step.part)


CHOOSING_GAMMA = step_on("choosing_gamma")


@pytest.fixture(scope="module")
def choosing_gamma():
    step = STEPS[CHOOSING_GAMMA - 1]
    return build_lesson_step(CHOOSING_GAMMA, step, PAGES[step.lesson].pack, max_frames=3)


def plain(text: str) -> str:
    return re.sub(r"<[^>]+>", "", text)


def panel_titles(frame: dict) -> list[str]:
    panels = next(f for f in frame["figures"] if f["id"] == "panels")
    return [plain(a["text"]) for a in panels["layout"]["annotations"]]


def test_choosing_gamma_frames_score_each_panel_as_computed_independently(choosing_gamma):
    settings = STEPS[CHOOSING_GAMMA - 1].settings()
    inputs = inputs_of(settings)
    X, y = np.asarray(inputs.X, dtype=float), inputs.y
    rows = stratified_rows(len(X), y, 600)  # the page's sample (all 400 points here)
    Xs, ys = X[rows], y[rows]
    # The panels: the page's grid around the median heuristic 1 / median ‖xᵢ − xⱼ‖².
    reference = 1.0 / np.median(pdist(Xs, "sqeuclidean"))
    frame = choosing_gamma["frames"][choosing_gamma["anchor"]]
    values = np.array(frame["numbers"]["values"])
    marked = int(np.argmin(np.abs(np.log(values / reference))))
    assert panel_titles(frame)[marked].endswith("· median")
    assert values.min() < reference / 50 and values.max() > reference * 50
    # Each panel's score: a linear classifier on scikit-learn's components 1–2 (one point
    # of n at most apart: solvers differ in the last digits).
    independent = []
    for gamma in values:
        Z = KernelPCA(2, kernel="precomputed").fit_transform(rbf_kernel(Xs, gamma=gamma))
        independent.append(linear_separability(Z, ys))
    for frame in choosing_gamma["frames"]:
        np.testing.assert_allclose(frame["numbers"]["score_two"], independent,
                                   atol=1.0 / len(Xs))
        best = frame["numbers"]["best"]
        assert frame["numbers"]["score_two"][best] == max(frame["numbers"]["score_two"])
        assert f"Best γ = {format_gamma(values[best])} " in frame["sentences"][1]


def test_choosing_gamma_slider_moves_the_red_frame_to_the_nearest_panel(choosing_gamma):
    assert choosing_gamma["param"] == "gamma"
    own = STEPS[CHOOSING_GAMMA - 1].settings().gamma
    assert choosing_gamma["values"][choosing_gamma["anchor"]] == own
    for value, frame in zip(choosing_gamma["values"], choosing_gamma["frames"], strict=True):
        values = np.array(frame["numbers"]["values"])
        nearest = int(np.argmin(np.abs(np.log(values / value))))
        titles = panel_titles(frame)
        marked = [i for i, title in enumerate(titles) if "◀" in title]
        assert marked == [nearest] == [frame["numbers"]["current"]]
        exact = bool(np.isclose(values[nearest], value))
        assert ("◀ yours" in titles[nearest]) == exact
        assert f"your γ = {format_gamma(value)}" in frame["sentences"][0]
        # The link back opens the page at this γ.
        link = urlsplit(frame["links"]["view"])
        assert link.path == "/choosing_gamma"
        opened, problems = settings_from_query(dict(parse_qsl(link.query)))
        assert not problems
        assert opened == replace(STEPS[CHOOSING_GAMMA - 1].settings(), gamma=value)


def test_choosing_gamma_question_names_only_panels_the_file_draws(choosing_gamma):
    for frame in choosing_gamma["frames"]:
        titles = panel_titles(frame)
        named = [t for t in frame["question"]["texts"] if t.startswith("γ = ")]
        assert len(named) == 3
        for text in named:  # each option's γ is a panel's title
            assert any(title == text or title.startswith(text + " ") for title in titles), text
        assert sum(frame["question"]["right"]) >= 1


HOW_IT_WORKS = step_on("how_it_works")


@pytest.fixture(scope="module")
def how_it_works():
    step = STEPS[HOW_IT_WORKS - 1]
    return build_lesson_step(HOW_IT_WORKS, step, PAGES[step.lesson].pack, max_frames=3)


def test_how_it_works_frames_hold_the_centred_kernels_numbers(how_it_works):
    assert how_it_works["param"] == "gamma"
    for value, frame in zip(how_it_works["values"], how_it_works["frames"], strict=True):
        settings = replace(STEPS[HOW_IT_WORKS - 1].settings(), gamma=value)
        X = np.asarray(inputs_of(settings).X, dtype=float)
        n = len(X)
        H = np.eye(n) - 1.0 / n
        Kc = H @ rbf_kernel(X, gamma=value) @ H
        mu = np.linalg.eigvalsh(Kc)[::-1]
        numbers = frame["numbers"]
        np.testing.assert_allclose(numbers["mu"], mu[:len(numbers["mu"])], rtol=1e-8)
        assert numbers["trace"] == pytest.approx(np.trace(Kc), rel=1e-10)
        scale = np.abs(rbf_kernel(X, gamma=value)).max()
        assert numbers["row_sum"] <= 1e-9 * n * scale and numbers["checks_passed"]
        # The sentences quote them, and the figures are K, K̃ (binned) and μ.
        assert f"trace(K̃) = Σ of all n eigenvalues μ = {np.trace(Kc):.5g}" in " ".join(
            frame["sentences"])
        assert any(s.startswith("largest |row sum| of K̃: ") and s.endswith("✓")
                   for s in frame["sentences"])
        ids = [f["id"] for f in frame["figures"]]
        assert ids == ["K", "Kc", "eigenvalues"]
        K = next(f for f in frame["figures"] if f["id"] == "K")
        assert len(figure_data(how_it_works, K)[0]["z"]) <= 50
        # The question (K̃ of the first 3 points) is the app's at these settings.
        assert frame["question"]["texts"] == ["0", "1", "2", "3"]
        assert frame["question"]["right"] == [False, True, False, False]


KERNEL_TRICK = step_on("kernel_trick")


def test_kernel_trick_frame_lifts_the_points_and_scores_the_plane_as_computed_here():
    step = STEPS[KERNEL_TRICK - 1]
    built = build_lesson_step(KERNEL_TRICK, step, PAGES[step.lesson].pack)
    assert built["param"] is None and len(built["frames"]) == 1
    assert built["slider_note"].startswith("No slider")
    frame = built["frames"][0]
    settings = step.settings()
    inputs = inputs_of(settings)
    X, y = np.asarray(inputs.X, dtype=float), inputs.y
    lift = np.column_stack([X[:, 0] ** 2, np.sqrt(2) * X[:, 0] * X[:, 1], X[:, 1] ** 2])
    assert frame["numbers"]["lifted_score"] == linear_separability(lift, y)
    assert frame["numbers"]["raw_score"] == linear_separability(X, y)
    text = frame["sentences"][1]
    assert f"gets {100 * linear_separability(lift, y):.0f}% right on the lifted points" in text
    # The figure: every point at γ × its lift (to the file's 4 digits), in 3-D.
    points = [t for t in figure_data(built, frame["figures"][0]) if t["type"] == "scatter3d"]
    drawn = np.array([[x, yy, z] for t in points for x, yy, z in zip(t["x"], t["y"], t["z"],
                                                                       strict=True)])
    expected = settings.gamma * lift
    assert len(drawn) == len(expected)
    gaps = cdist(expected, drawn)  # each point drawn where its lift is (in class order)
    assert gaps.min(axis=1).max() <= 1e-3 * np.abs(expected).max()
    assert gaps.min(axis=0).max() <= 1e-3 * np.abs(expected).max()
    # The question ("can a plane separate them?") is answered by the score on screen.
    assert frame["question"]["right"] == [linear_separability(lift, y) >= 0.95,
                                          linear_separability(lift, y) < 0.95]


MISTAKES = step_on("mistakes")


def test_mistakes_frames_measure_the_centring_mistakes_as_computed_here():
    step = STEPS[MISTAKES - 1]
    built = build_lesson_step(MISTAKES, step, PAGES[step.lesson].pack, max_frames=3)
    assert built["param"] == "degree"
    for value, frame in zip(built["values"], built["frames"], strict=True):
        settings = replace(step.settings(), degree=int(value))
        X = np.asarray(inputs_of(settings).X, dtype=float)
        rows = sample_rows(len(X), MISTAKES_MAX_N)  # the page's sample, said on screen
        assert f"a fixed random sample of {len(rows):,} of the {len(X):,} points" in \
            frame["sentences"][0]
        K = polynomial_kernel(X[rows], degree=settings.degree, gamma=settings.gamma,
                              coef0=settings.coef0)
        m = len(rows)
        # −1ₙK1ₙ for +1ₙK1ₙ: every row of the wrong K̃ sums to −2m·mean(K).
        assert frame["numbers"]["last_sign"][0] == pytest.approx(2 * m * K.mean(), rel=1e-9)
        # No centring: components 1–2 of K against those of K̃, at an angle measured here.
        H = np.eye(m) - 1.0 / m
        top = lambda A: np.linalg.eigh(A)[1][:, ::-1][:, :2]  # noqa: E731
        angle = np.degrees(subspace_angles(top(K), top(H @ K @ H)).max())
        assert f"the wrong 2-D subspaces is {angle:.1f}°" in " ".join(frame["sentences"])
        assert [f["id"] for f in frame["figures"]] == ["no_centering", "last_sign"]
        # The question's verdict ("do the first two components change?") on screen.
        assert frame["question"]["texts"] == ["Yes, visibly", "No, hardly"]


COMPONENT_MAPS = step_on("component_maps")


def test_component_maps_frames_share_of_variance_and_between_classes_computed_here():
    step = STEPS[COMPONENT_MAPS - 1]
    built = build_lesson_step(COMPONENT_MAPS, step, PAGES[step.lesson].pack, max_frames=3)
    assert built["param"] == "gamma"
    for value, frame in zip(built["values"], built["frames"], strict=True):
        settings = replace(step.settings(), gamma=value)
        inputs = inputs_of(settings)
        X, y = np.asarray(inputs.X, dtype=float), inputs.y
        n = len(X)
        H = np.eye(n) - 1.0 / n
        mu, V = np.linalg.eigh(H @ rbf_kernel(X, gamma=value) @ H)
        mu, V = mu[::-1], V[:, ::-1]
        shares = frame["numbers"]["explained"]
        np.testing.assert_allclose(shares, mu[:len(shares)] / mu.sum(), rtol=1e-6, atol=1e-9)
        # Between classes: the share of each component's variance between the class means.
        Z = V[:, :len(shares)] * np.sqrt(np.clip(mu[:len(shares)], 0, None))
        between = [sum((y == c).sum() * (Z[y == c, j].mean() - Z[:, j].mean()) ** 2
                       for c in np.unique(y)) / (n * Z[:, j].var())
                   for j in range(len(shares))]
        np.testing.assert_allclose(frame["numbers"]["between"], between, atol=1e-6)
        assert "at each of 24 × 24 grid points" in frame["sentences"][0]
        assert len(frame["figures"]) == 1 and frame["figures"][0]["id"] == "maps"
        # On a wide screen the same eight maps in one row: the same traces' numbers, every
        # panel on one level, each to scale as the grid's.
        grid, row = frame["figures"][0], frame["figures"][0]["wide"]
        strip = [[{k: v for k, v in trace.items() if k not in ("xaxis", "yaxis")}
                  for trace in figure_data(built, figure)] for figure in (grid, row)]
        assert strip[0] == strip[1]
        layout = row["layout"]
        y_domains = {tuple(layout[f"yaxis{i if i > 1 else ''}"]["domain"]) for i in range(1, 9)}
        x_domains = [layout[f"xaxis{i if i > 1 else ''}"]["domain"] for i in range(1, 9)]
        assert len(y_domains) == 1 and len(x_domains) == 8
        assert all(a[1] < b[0] for a, b in zip(x_domains[:-1], x_domains[1:], strict=True))
        assert layout["yaxis"]["scaleanchor"] == "x" and "yaxis9" not in layout


def test_a_frames_numbers_travel_as_json_with_no_share_as_none():
    from lecture_pack.build import _finite_tree
    assert _finite_tree({"a": [1.5, float("nan")], "b": np.float64(np.inf), "c": None,
                         "d": (2, True)}) == {"a": [1.5, None], "b": None, "c": None,
                                              "d": [2, True]}


SCALE = step_on("scale")


def test_scale_frame_answers_the_doubling_with_k_bytes_and_draws_the_pages_memory_chart():
    step = STEPS[SCALE - 1]
    built = build_lesson_step(SCALE, step, PAGES[step.lesson].pack)
    assert built["param"] is None and len(built["frames"]) == 1
    assert built["slider_note"].startswith("No slider")
    frame = built["frames"][0]
    numbers = frame["numbers"]
    n = len(inputs_of(step.settings()).X)
    # K is n² float64: 8 n² bytes, and 4 × that at 2n (exact integers).
    assert numbers["n"] == n
    assert numbers["K_bytes"] == 8 * n * n and numbers["K_bytes_doubled"] == 8 * (2 * n) ** 2
    assert numbers["ratio"] == 4
    assert f"{numbers['ratio']:g} × as much" in frame["sentences"][0]
    # The question's right option is the ratio on screen.
    right = [t for t, r in zip(frame["question"]["texts"], frame["question"]["right"],
                               strict=True) if r]
    assert right == [f"{numbers['ratio']:g} ×"]
    # Section 1's limits: the largest n whose one (two) float64 n × n matrices fit.
    budget = numbers["budget"]
    for copies, key in ((1, "largest_alone"), (2, "largest_measured")):
        largest = numbers[key]
        assert 8 * copies * largest**2 <= budget < 8 * copies * (largest + 1) ** 2
        assert f"{largest:,}" in frame["sentences"][1]
    # The chart: K's modelled bytes (n² + n + NumPy's 8,192-double buffer) on its grid.
    assert [f["id"] for f in frame["figures"]] == ["memory"]
    traces = figure_data(built, frame["figures"][0])
    k_line = next(t for t in traces if t["name"].startswith("K (build"))
    grid = np.array(k_line["x"], dtype=float)
    assert grid[0] == 100 and grid[-1] >= 3 * numbers["largest_measured"]
    np.testing.assert_allclose(k_line["y"], 8 * (grid**2 + grid + 8192), rtol=1e-3)
    # From the smallest n to the largest the page times live (2,000 here: circles go to 5,000).
    assert numbers["chart_top_n"] == 2000
    assert "At n = 2,000: K takes 32.1 MB" in frame["sentences"][2]


DENOISING = step_on("denoising")


def test_denoising_frame_measures_the_pages_digits_as_computed_here():
    import datasets
    from lessons.denoising import experiment as dn
    from lessons.denoising.pack import PAGE

    step = STEPS[DENOISING - 1]
    built = build_lesson_step(DENOISING, step, PAGES[step.lesson].pack)
    assert built["param"] is None and len(built["frames"]) == 1
    assert built["slider_note"].startswith("No slider: this page has its own settings")
    frame = built["frames"][0]
    numbers = frame["numbers"]
    # The page's data at its defaults: training digits, and 5 test digits of each class.
    X_train = datasets.load("usps", split="train", n=PAGE.n_train, seed=PAGE.seed).X
    test = datasets.load("usps", split="test", n=2007, seed=PAGE.seed)
    picked = dn.per_class_indices(test.y, PAGE.test_per_class, PAGE.seed)
    assert np.bincount(test.y[picked]).tolist() == [PAGE.test_per_class] * 10
    clean = test.X[picked]
    noisy = clean + np.random.default_rng(PAGE.seed).normal(0, PAGE.level, clean.shape)
    assert numbers["noisy_mse"] == pytest.approx(((noisy - clean) ** 2).mean(), rel=1e-12)
    # Linear PCA: the training digits' top m principal axes (an SVD here), every m.
    mean = X_train.mean(axis=0)
    axes = np.linalg.svd(X_train - mean, full_matrices=False)[2]
    pca = []
    for m in numbers["m_values"]:
        W = axes[:min(m, 256)]
        pca.append((((noisy - mean) @ W.T @ W + mean - clean) ** 2).mean())
    np.testing.assert_allclose(numbers["pca_mse"], pca, rtol=1e-8)
    # Kernel PCA's fixed point at m = 128 (Mika et al.): scikit-learn's kernel PCA for the
    # coordinates β, then z ← Σ cᵢ k(z, xᵢ) xᵢ / Σ cᵢ k(z, xᵢ) from the noisy digit.
    m, gamma = numbers["m"], PAGE.gamma
    kpca = KernelPCA(m, kernel="rbf", gamma=gamma, eigen_solver="dense").fit(X_train)
    alphas = kpca.eigenvectors_ / np.sqrt(kpca.eigenvalues_)
    c = kpca.transform(noisy) @ alphas.T
    c += ((1 - c.sum(axis=1)) / len(X_train))[:, None]
    Z = noisy.copy()
    for _ in range(200):
        w = c * rbf_kernel(Z, X_train, gamma=gamma)
        Z = (w @ X_train) / w.sum(axis=1, keepdims=True)
    kpca_mse = ((Z - clean) ** 2).mean()
    assert numbers["kpca_at_m"] == pytest.approx(kpca_mse, rel=1e-4)
    assert numbers["kpca_mse"][numbers["m_values"].index(m)] == numbers["kpca_at_m"]
    # The sentence quotes each method's best over every m, and which de-noises better.
    best_pca, best_kpca = min(pca), min(numbers["kpca_mse"])
    sentence = frame["sentences"][-1]
    assert f"linear PCA reaches MSE {best_pca:.4f}" in sentence
    assert f"(Mika) {best_kpca:.4f}" in sentence
    assert (f"kernel PCA de-noises **{best_pca / best_kpca:.2f}× better**" in sentence) == (
        best_pca / best_kpca > 1.005)
    assert frame["sentences"][0].startswith(f"Fixed point at m = {m}: ")
    assert [f["id"] for f in frame["figures"]] == ["digits"]
    title = plain(frame["figures"][0]["layout"]["title"]["text"])
    assert f"m = {m}" in title
    # The question (is a projection always φ of an image?): no, for the RBF kernel.
    assert frame["question"]["right"] == [False, True]


CLASSIFICATION = step_on("classification")


def test_classification_frame_holds_the_pages_errors_as_computed_here():
    from sklearn.svm import LinearSVC

    import datasets
    from lessons.classification.experiment import MAX_ITER

    step = STEPS[CLASSIFICATION - 1]
    built = build_lesson_step(CLASSIFICATION, step, PAGES[step.lesson].pack)
    assert built["param"] is None and len(built["frames"]) == 1
    assert built["slider_note"].startswith("No slider")
    frame = built["frames"][0]
    numbers = frame["numbers"]
    settings = step.settings()
    # USPS's own split: 2,000 training digits, all 2,007 test digits.
    train = datasets.load("usps", split="train", n=2000, seed=0)
    test = datasets.load("usps", split="test", n=2007, seed=0)
    # Kernel PCA (scikit-learn's, dense), every component divided by one RMS, a linear SVM.
    kpca = KernelPCA(128, kernel="poly", degree=settings.degree, gamma=settings.gamma,
                     coef0=settings.coef0, eigen_solver="dense").fit(train.X)
    Z_train, Z_test = kpca.transform(train.X), kpca.transform(test.X)
    rms = np.sqrt((Z_train**2).sum(axis=1).mean())
    svm = LinearSVC(C=1.0, max_iter=MAX_ITER, random_state=0).fit(Z_train / rms, train.y)
    predicted = svm.predict(Z_test / rms)
    wrong = int((predicted != test.y).sum())
    # Solvers differ in the last digits: a few test points at most apart.
    assert abs(numbers["kernel_error"] * len(test.y) - wrong) <= 5
    confusion = np.array(numbers["confusion"])
    assert confusion.sum(axis=1).tolist() == np.bincount(test.y).tolist()
    off = int(confusion.sum() - np.trace(confusion))
    assert off == round(numbers["kernel_error"] * len(test.y))
    assert f"Off the diagonal: {off} of {len(test.y)} test points" in frame["sentences"][2]
    # The sentences quote the frame's numbers, and name the best of the three.
    assert f"kernel PCA, k = 128: {100 * numbers['kernel_error']:.2f} %" in \
        frame["sentences"][0]
    best = min(numbers["kernel_error"], numbers["pca_error"], numbers["raw_error"])
    assert f"{100 * best:.2f} % test error" in frame["sentences"][1]
    curve = {int(k): v for k, v in numbers["kernel_curve"].items()}
    best_k = min(curve, key=lambda k: (curve[k], k))
    assert f"Kernel PCA is best here at k = {best_k} ({100 * curve[best_k]:.2f} %)" in \
        frame["sentences"][4]
    assert abs(curve[128] - numbers["kernel_error"]) * len(test.y) <= 1
    assert [f["id"] for f in frame["figures"]] == ["confusion", "curve"]
    # The question: a cubic kernel's components are curved functions of the pixels.
    assert frame["question"]["right"] == [False, True]
    assert "at the midpoint of two points" in frame["question"]["why"][1]
