"""The classification experiment: the pipeline, the one-decomposition curve, the code shown."""

from __future__ import annotations

import numpy as np
import pytest
from sklearn.model_selection import train_test_split

import datasets
from kpca_core import KernelPCA
from lessons.classification import experiment as cls
from tests.support.apptest import needs_usps


@pytest.fixture(scope="module")
def circles():
    data = datasets.load("circles", n=200, seed=3)
    return train_test_split(data.X, data.y, test_size=0.3, stratify=data.y, random_state=0)


@needs_usps
def test_poly_kernel_pipeline_beats_the_raw_pixel_baseline_on_usps():
    train = datasets.load("usps", split="train", n=600, seed=0)
    test = datasets.load("usps", split="test", n=400, seed=0)
    params = {"gamma": 1.0, "coef0": 0.0, "degree": 3}
    kernel = cls.evaluate(cls.make_pipeline("poly", params, 128), train.X, train.y,
                          test.X, test.y)
    raw = cls.evaluate(cls.baseline_pipeline("raw", None, "linear_svm"), train.X, train.y,
                       test.X, test.y)
    assert kernel.error < raw.error - 0.01, (kernel.error, raw.error)
    # The error is the confusion matrix's off-diagonal share, and equals the predictions'.
    assert kernel.error == pytest.approx(np.mean(kernel.predicted != test.y))
    assert kernel.confusion.sum() == len(test.y)


def test_first_columns_of_one_fit_are_the_smaller_fit(circles):
    X_train, X_test, _, _ = circles
    big = KernelPCA(n_components=40, kernel="rbf", gamma=5.0, eigen_solver="dense").fit(X_train)
    small = KernelPCA(n_components=7, kernel="rbf", gamma=5.0, eigen_solver="dense").fit(X_train)
    np.testing.assert_allclose(cls.first_columns(big.transform(X_test), 7),
                               small.transform(X_test), atol=1e-8)
    with pytest.raises(ValueError, match="k must lie"):
        cls.first_columns(big.transform(X_test), 41)


def test_error_curve_point_equals_the_refitted_pipeline(circles):
    X_train, X_test, y_train, y_test = circles
    params = {"gamma": 2.0}
    extract = cls.make_kpca("rbf", params, 32).fit(X_train)
    curve = cls.error_curve(extract.transform(X_train), y_train, extract.transform(X_test),
                            y_test, [2, 8, 32], lambda: cls.head_pipeline("logistic"))
    assert sorted(curve) == [2, 8, 32]
    for k, error in curve.items():
        refit = cls.evaluate(cls.make_pipeline("rbf", params, k, "logistic"),
                             X_train, y_train, X_test, y_test)
        assert error == pytest.approx(refit.error, abs=1.5 / len(y_test)), k


def test_run_experiment_on_circles_kernel_wins_and_pca_cannot(circles):
    X_train, X_test, y_train, y_test = circles
    result = cls.run_experiment(X_train, y_train, X_test, y_test, kernel="rbf",
                                kernel_params={"gamma": 5.0}, n_components=16, curve_max=64)
    assert result.kernel.error < 0.05
    assert result.raw.error > 0.3 and result.pca.error > 0.3  # no straight line for rings
    assert result.pca_components == 2 and max(result.pca_curve) == 2
    assert max(result.kernel_curve) == 64 and 16 in result.kernel_curve
    assert result.kernel_curve[16] == pytest.approx(result.kernel.error, abs=1.5 / len(y_test))


def test_linear_kernel_is_clipped_to_its_rank(circles):
    X_train, X_test, y_train, y_test = circles
    result = cls.run_experiment(X_train, y_train, X_test, y_test, kernel="linear",
                                kernel_params={}, n_components=16, curve_max=32)
    assert result.usable == 2 and result.n_components == 2
    assert max(result.kernel_curve) == 2


def test_sigmoid_kernel_fits_with_a_warning_instead_of_failing(circles):
    X_train, X_test, y_train, y_test = circles
    result = cls.run_experiment(X_train, y_train, X_test, y_test, kernel="sigmoid",
                                kernel_params={"gamma": 1.0, "coef0": 1.0}, n_components=8,
                                curve_max=16)
    assert 0.0 <= result.kernel.error <= 1.0
    assert result.pipeline.named_steps["kpca"].negative_eigenvalues == "warn"


def test_usable_components_ignores_rounding_noise():
    assert cls.usable_components(np.array([5.0, 1.0, 1e-14, 0.0])) == 2
    assert cls.usable_components(np.array([0.0, 0.0])) == 0
    assert cls.usable_components(np.array([])) == 0


def test_rms_scaler_gives_unit_mean_squared_norm_and_keeps_ratios():
    Z = np.random.default_rng(0).standard_normal((50, 3)) * [100.0, 10.0, 1.0]
    scaled = cls.RmsScaler().fit_transform(Z)
    assert np.mean(np.sum(scaled**2, axis=1)) == pytest.approx(1.0)
    np.testing.assert_allclose(scaled * (Z[0, 0] / scaled[0, 0]), Z)
    assert cls.RmsScaler().fit(np.zeros((3, 2))).scale_ == 1.0


@pytest.mark.parametrize("standardize", [False, True])
def test_pipeline_code_rebuilds_the_same_pipeline(standardize):
    pipeline = cls.make_pipeline("poly", {"gamma": 1.0, "degree": 5, "coef0": 0.0}, 64,
                                 "logistic", C=10.0, standardize=standardize)
    namespace: dict = {}
    exec(cls.pipeline_code(pipeline), namespace)  # noqa: S102 - our own generated code
    rebuilt = namespace["pipeline"]
    assert [name for name, _ in rebuilt.steps] == [name for name, _ in pipeline.steps]
    for (_, ours), (_, theirs) in zip(rebuilt.steps, pipeline.steps, strict=True):
        assert type(ours) is type(theirs)
        assert ours.get_params() == theirs.get_params()


def test_pipeline_code_with_data_lines_runs_and_prints_the_same_error(circles, capsys):
    X_train, X_test, y_train, y_test = circles
    pipeline = cls.make_pipeline("rbf", {"gamma": 5.0}, 8)
    error = cls.evaluate(pipeline, X_train, y_train, X_test, y_test).error
    namespace = {"X_train": X_train, "X_test": X_test, "y_train": y_train, "y_test": y_test}
    exec(cls.pipeline_code(pipeline, data_lines=["# data given"]), namespace)  # noqa: S102
    assert capsys.readouterr().out.strip() == f"test error: {100 * error:.2f} %"


def test_select_C_uses_only_the_training_data(circles):
    X_train, _, y_train, _ = circles
    best, errors = cls.select_C(X_train, y_train, "linear_svm", grid=(0.1, 1.0))
    assert set(errors) == {0.1, 1.0} and best in errors
    assert errors[best] == min(errors.values())


def test_curve_components_are_powers_of_two_plus_limit_and_choice():
    assert cls.curve_components(100, 48) == [1, 2, 4, 8, 16, 32, 48, 64, 100]
    assert cls.curve_components(2, 5) == [1, 2]


def test_unknown_classifier_is_refused():
    with pytest.raises(ValueError, match="classifier must be one of"):
        cls.make_classifier("knn")
