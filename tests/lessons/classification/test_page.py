"""AppTest: the Classification page shows the right numbers, and its code is what ran."""

from __future__ import annotations

import json
import re

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

import datasets
from lessons.classification import experiment as cls
from lessons.classification import paper_table as pt
from lessons.classification import table1 as table1_view
from lessons.classification import view
from tests.support.apptest import assert_clean, needs_usps, open_app
from tests.support.plotly_json import decode, find_chart

CIRCLES = {"dataset": "circles", "n": 200, "kernel": "rbf", "gamma": 5}


def metric(at, prefix: str) -> float:
    """A metric's value in % (e.g. '4.35 %' → 4.35)."""
    matches = [m for m in at.metric if m.label.startswith(prefix)]
    assert len(matches) == 1, [m.label for m in at.metric]
    return float(matches[0].value.removesuffix(" %"))


def confusion_shown(at) -> np.ndarray:
    return decode(find_chart(at, "Confusion matrix")["data"][0]["z"]).astype(int)


def error_from_confusion(confusion: np.ndarray) -> float:
    return 100 * (1 - np.trace(confusion) / confusion.sum())


def test_circles_error_shown_is_the_confusion_matrix_error_and_the_computed_one(shared_page):
    at = shared_page("classification", CIRCLES)
    assert_clean(at)
    shown = metric(at, "Kernel PCA, k = 16")
    confusion = confusion_shown(at)
    assert shown == pytest.approx(error_from_confusion(confusion), abs=0.005)

    # The same numbers from the experiment module, on the split the page describes.
    data = datasets.load("circles", n=200, seed=0)
    X_train, X_test, y_train, y_test = train_test_split(
        data.X, data.y, test_size=view.TEST_FRACTION, stratify=data.y, random_state=0)
    assert confusion.sum() == len(y_test)
    expected = cls.run_experiment(X_train, y_train, X_test, y_test, kernel="rbf",
                                  kernel_params={"gamma": 5.0}, n_components=16,
                                  curve_max=view.CURVE_MAX)
    np.testing.assert_array_equal(confusion, expected.kernel.confusion)
    assert metric(at, "Linear PCA") == pytest.approx(100 * expected.pca.error, abs=0.005)
    assert metric(at, "Raw inputs") == pytest.approx(100 * expected.raw.error, abs=0.005)
    # Rings: kernel PCA separates them, a straight line on the raw inputs cannot.
    assert shown < 5 < metric(at, "Raw inputs")
    assert f"{len(y_train)} for training, {len(y_test)} for testing" in " ".join(
        m.value for m in at.markdown)
    checks = [m.value for m in at.markdown if "**Check**" in m.value]
    assert len(checks) == 2 and all(c.endswith("✓") for c in checks), checks


def test_curve_is_drawn_on_a_log_axis_for_both_methods(shared_page):
    at = shared_page("classification", CIRCLES)
    curve = find_chart(at, "Test error of a linear SVM")
    assert curve["layout"]["xaxis"]["type"] == "log"
    names = [trace["name"] for trace in curve["data"]]
    assert names == ["kernel PCA (rbf, γ = 5)", "linear PCA"]
    kernel_trace = curve["data"][0]
    ks = list(decode(kernel_trace["x"]))
    errors = decode(kernel_trace["y"])
    # The curve's point at the chosen k is the pipeline's error (to one test point).
    at_chosen = errors[ks.index(16)]
    assert at_chosen == pytest.approx(metric(at, "Kernel PCA, k = 16"), abs=100 / 60 + 1e-9)
    assert max(decode(curve["data"][1]["x"])) == 2  # linear PCA: 2 features, 2 components


def test_the_code_shown_runs_and_prints_the_error_shown(shared_page, capsys):
    at = shared_page("classification", CIRCLES)
    code = at.code[0].value
    assert "KernelPCA(n_components=16, kernel='rbf', gamma=5.0)" in code
    assert "train_test_split(" in code and "random_state=0" in code
    exec(code, {})  # noqa: S102 - the snippet a student would copy
    printed = capsys.readouterr().out.strip()
    assert printed == f"test error: {metric(at, 'Kernel PCA'):.2f} %"


def test_changing_classifier_and_components_updates_the_numbers():
    at = open_app("classification", CIRCLES)
    at.radio(key=view.K_CLASSIFIER).set_value("logistic").run()
    at.select_slider(key=view.K_COMPONENTS).set_value(4).run()
    assert_clean(at)
    shown = metric(at, "Kernel PCA, k = 4")
    assert any("**logistic regression** (C = 1)" in m.value for m in at.markdown)
    assert shown == pytest.approx(error_from_confusion(confusion_shown(at)), abs=0.005)
    assert "LogisticRegression(max_iter=5000)" in at.code[0].value
    assert "n_components=4" in at.code[0].value


def test_dataset_without_labels_says_so():
    at = open_app("classification", {"dataset": "parabola", "kernel": "rbf"})
    assert not at.exception
    assert any("needs class labels" in info.value for info in at.info)
    assert not at.metric


def upload_classes(at, per_class: int, n_classes: int = 5):
    rng = np.random.default_rng(5)
    rows = [f"{a:.4f},{b:.4f},c{i % n_classes}"
            for i, (a, b) in enumerate(rng.normal(size=(per_class * n_classes, 2)))]
    content = ("u,v,label\n" + "\n".join(rows) + "\n").encode()
    at.selectbox(key="w_dataset").set_value("csv").run()
    at.file_uploader(key="upload_csv").set_value(("few.csv", content, "text/csv")).run()
    return at


def test_too_few_points_for_a_test_point_of_every_class_says_how_many_are_needed():
    # 5 classes × 2 points: 30% of 10 is 3 test points, fewer than the 5 classes.
    at = upload_classes(open_app("classification", {"kernel": "rbf", "gamma": 1}), 2)
    assert not at.exception and not at.metric
    (error,) = [e.value for e in at.main.error]
    assert ("10 points give 7 for training and 3 for testing (30% held out), but each side "
            "needs at least one point of each of the 5 classes. Use at least 14 points: "
            "upload a file with more rows.") in error
    # 5 × 3 = 15 points: 5 test points, one per class; classified.
    at = upload_classes(at, 3)
    assert_clean(at)
    assert not at.main.error
    metric(at, "Kernel PCA")


def test_sigmoid_kernel_runs_with_its_warning_shown():
    at = open_app("classification", {**CIRCLES, "kernel": "sigmoid", "gamma": 1, "coef0": 1})
    assert not at.exception and not at.error
    metric(at, "Kernel PCA")  # a number is shown


def test_the_two_table_heatmaps_show_the_paper_and_the_results_file(shared_page):
    at = shared_page("classification", CIRCLES)
    paper = find_chart(at, "Paper (1998)")["data"][0]
    ours = find_chart(at, "Reproduced here")["data"][0]
    degrees, ks = [int(d) for d in paper["y"]], [int(k) for k in paper["x"]]
    paper_z, ours_z = decode(paper["z"]), decode(ours["z"])
    for i, d in enumerate(degrees):
        for j, k in enumerate(ks):
            quoted = pt.PAPER_ERRORS.get(d, {}).get(k)
            if quoted is None:
                assert np.isnan(paper_z[i][j])
            else:
                assert paper_z[i][j] == pytest.approx(quoted)
    store = json.loads(table1_view.TABLE_FILE.read_text())
    cells = {(c["degree"], c["n_components"]): c["error_pct"] for c in store["cells"]}
    for i, d in enumerate(degrees):
        for j, k in enumerate(ks):
            value = cells.get((d, k))
            if value is None:
                assert np.isnan(ours_z[i][j])
            else:
                assert ours_z[i][j] == pytest.approx(value)
    caption = next(c.value for c in at.caption if "cells reproduced" in c.value)
    assert re.search(rf"^{sum(v is not None for v in cells.values())} cells reproduced", caption)


@needs_usps
def test_usps_uses_its_own_test_set_and_shows_the_misclassified_digits():
    at = open_app("classification", {"dataset": "usps", "n": 300, "kernel": "poly",
                                     "gamma": 1, "degree": 3, "coef0": 0})
    assert_clean(at)
    confusion = confusion_shown(at)
    assert confusion.sum() == view.USPS_TEST_SIZE and confusion.shape == (10, 10)
    shown = metric(at, "Kernel PCA, k = 128")
    assert shown == pytest.approx(error_from_confusion(confusion), abs=0.005)
    wrong = int(confusion.sum() - np.trace(confusion))
    mosaic = find_chart(at, "Misclassified test digits")
    assert f"(first {min(wrong, view.MISCLASSIFIED_SHOWN)} of {wrong})" in (
        mosaic["layout"]["title"]["text"])
    labels = [a["text"] for a in mosaic["layout"]["annotations"]]
    assert len(labels) == min(wrong, view.MISCLASSIFIED_SHOWN)
    assert all(re.fullmatch(r"\d→\d", label) and label[0] != label[-1] for label in labels)
    assert 'datasets.load("usps", split="test", n=2007, seed=0)' in at.code[0].value


def test_linear_kernel_on_iris_uses_only_the_components_that_exist():
    at = open_app("classification", {"dataset": "iris", "kernel": "linear"})
    assert_clean(at)
    # Iris has 4 features: a linear kernel has at most 4 non-zero eigenvalues.
    assert any("gives only 4 with a non-zero eigenvalue" in info.value for info in at.info)
    metric(at, "Kernel PCA, k = 4")
    assert metric(at, "Kernel PCA, k = 4") == pytest.approx(metric(at, "Linear PCA, k = 4"),
                                                            abs=0.005)


def test_the_multiclass_comparison_quotes_both_results_files(shared_page):
    at = shared_page("classification", CIRCLES)
    text = next(m.value for m in at.markdown if "Which multi-class SVM?" in m.value)

    def within(path):
        store = json.loads(path.read_text())
        cells = {(c["degree"], c["n_components"]): c["error_pct"] for c in store["cells"]}
        diffs = [v - pt.PAPER_ERRORS[d][k] for (d, k), v in cells.items()
                 if v is not None and k in pt.PAPER_ERRORS.get(d, {})]
        return sum(abs(x) <= pt.TOLERANCE + 1e-9 for x in diffs), len(diffs), store

    ovo_in, ovo_n, ovo = within(table1_view.OVO_FILE)
    ovr_in, ovr_n, ovr = within(table1_view.TABLE_FILE)
    assert f"{ovo_in} of {ovo_n} cells" in text
    assert f"one-vs-rest: {ovr_in} of {ovr_n}" in text

    def mean_gap(store, keys):
        cells = {(c["degree"], c["n_components"]): c["error_pct"] for c in store["cells"]}
        gaps = [abs(cells[(d, k)] - pt.PAPER_ERRORS[d][k]) for d, k in keys]
        return sum(gaps) / len(gaps)

    few = [(d, k) for d in range(3, 8) for k in (32, 64)]
    assert (f"at 32–64 components for d ≥ 3 one-vs-one is off by {mean_gap(ovo, few):.1f} "
            f"points on average, one-vs-rest by {mean_gap(ovr, few):.1f}") in text
    raw_ovo, raw_ovr = ovo["raw_pixels"]["error_pct"], ovr["raw_pixels"]["error_pct"]
    assert f"{raw_ovo:.1f} % against {raw_ovr:.1f} %" in text
    assert ovo["settings"]["multiclass"] == "ovo" and ovr["settings"]["multiclass"] == "ovr"


# --------------------------------------------------------------------------- issue 23


def shown_caption(at) -> str:
    return next(c.value for c in at.caption if c.value.startswith(("Best here", "kernel PCA")))


def expected_comparison(X, y, settings_gamma: float, standardize: bool):
    """The page's experiment rebuilt on its split, and the disagreement counts."""
    X_train, X_test, y_train, y_test = train_test_split(
        X, y, test_size=view.TEST_FRACTION, stratify=y, random_state=0)
    result = cls.run_experiment(X_train, y_train, X_test, y_test, kernel="rbf",
                                kernel_params={"gamma": settings_gamma}, n_components=16,
                                standardize=standardize, curve_max=view.CURVE_MAX)
    kernel_right = result.kernel.predicted == y_test
    raw_right = result.raw.predicted == y_test
    return result, int(np.sum(kernel_right & ~raw_right)), int(np.sum(raw_right & ~kernel_right))


def test_circles_comparison_counts_the_points_and_claims_no_cause(shared_page):
    at = shared_page("classification", CIRCLES)
    assert_clean(at)
    data = datasets.load("circles", n=200, seed=0)
    result, only_kernel, only_raw = expected_comparison(data.X, data.y, 5.0, False)
    text = shown_caption(at)
    assert "more linearly separable" not in text
    assert (f"makes {only_kernel - only_raw} fewer errors than on the raw inputs, of "
            f"{round(view.TEST_FRACTION * len(data.y))} test points") in text
    assert (f"the two disagree on {only_kernel + only_raw} points and kernel PCA is right on "
            f"{only_kernel} of them, more one-sided than chance") in text
    assert not any("spreads differ" in i.value for i in at.info)


def wine_upload(at):
    from sklearn.datasets import load_wine

    from shell import state

    wine = load_wine()
    header = ",".join([*wine.feature_names, "class"])
    rows = [",".join([*(f"{v:g}" for v in row), str(label)])
            for row, label in zip(wine.data, wine.target, strict=True)]
    content = ("\n".join([header, *rows]) + "\n").encode()
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value(("wine.csv", content, "text/csv")).run()
    return at


def test_an_unscaled_upload_gets_the_standardise_hint_and_no_claimed_cause():
    # Issue 23: wine's raw columns (proline in the thousands): "the nonlinear components
    # make the classes more linearly separable" over 29.6 % against 33.3 %.
    from sklearn.datasets import load_wine

    at = wine_upload(open_app("classification"))
    assert_clean(at)
    assert at.selectbox(key="w_csv_label").value == "class"
    gamma = at.select_slider(key="w_gamma").value
    wine = load_wine()
    X = np.array([[float(f"{v:g}") for v in row] for row in wine.data])
    result, only_kernel, only_raw = expected_comparison(X, wine.target, gamma, False)
    assert metric(at, "Kernel PCA, k = 16") == pytest.approx(100 * result.kernel.error,
                                                            abs=0.005)
    hint = [i.value for i in at.info if "spreads differ by a factor of" in i.value]
    assert len(hint) == 1
    text = shown_caption(at)
    assert "more linearly separable" not in text
    assert f"kernel PCA right on {only_kernel}, the raw inputs on {only_raw})" in text
    assert "a difference chance could make on this test set" in text
    # One click standardises; the hint goes and the errors are those of the scaled inputs.
    at.button(key="cls_standardise").click().run()
    assert_clean(at)
    assert at.checkbox(key="w_standardize").value is True
    assert not any("spreads differ" in i.value for i in at.info)
    gamma = at.select_slider(key="w_gamma").value
    result, only_kernel, only_raw = expected_comparison(X, wine.target, gamma, True)
    assert metric(at, "Raw inputs") == pytest.approx(100 * result.raw.error, abs=0.005)
    assert metric(at, "Raw inputs") < 5
