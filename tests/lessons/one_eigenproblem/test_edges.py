"""One eigenproblem at the edges (AppTest): every method opens without a traceback or an
error box (a failed check is one) on a few points, on copied points, on one class, on a
drawing and an upload, with k from 1 to past n, at both ends of γ and on the digits; where
there is nothing to compute, the page says why in words."""

from __future__ import annotations

import numpy as np
import pytest

from datasets import drawn
from experiments.graph_kernels import METHODS
from shell import state
from tests.support.apptest import assert_clean, needs_usps, open_app

PAGE = "one_eigenproblem"

_X, _Y = drawn.preset("moons", 30, seed=0)


def drawing(X: np.ndarray, y: np.ndarray) -> dict:
    return {"dataset": "drawn", "points": drawn.encode(X, y)}


DRAWINGS = {
    "five points": drawing(_X[:5], _Y[:5]),
    # the first six points drawn three times: edges of length 0, ties at distance 0
    "copied points": drawing(np.vstack([_X, _X[:6], _X[:6]]),
                             np.concatenate([_Y, _Y[:6], _Y[:6]])),
    "one class": drawing(_X, np.zeros(len(_X), dtype=int)),
}


def shown_text(at) -> str:
    return " ".join([m.value for m in at.markdown] + [c.value for c in at.caption]
                    + [w.value for w in at.warning] + [i.value for i in at.info])


def assert_computed_or_said_why(at) -> None:
    """The page drew its comparison table, or stopped with a warning that says why."""
    assert_clean(at)
    if not at.dataframe:
        assert at.warning, "the page stopped without saying why"


# Four components of five points: as many as K̃ can have; one: a single column drawn.
SMALL = [(case, k, 4) for case in DRAWINGS for k in (1, 100)] + [("copied points", 2, 1)]


@pytest.mark.sweep
@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize(("drawn_case", "k", "components"), SMALL)
def test_every_method_on_a_small_drawing(method, drawn_case, k, components):
    at = open_app(PAGE, {**DRAWINGS[drawn_case], "method": method, "neighbours": k,
                         "components": components})
    assert_computed_or_said_why(at)
    n = len(drawn.decode(DRAWINGS[drawn_case]["points"])[0])
    assert int(at.query_params["neighbours"]) == min(k, n - 1)  # k < n, always


def test_two_drawn_points_are_too_few_and_the_page_says_so():
    at = open_app(PAGE, {**drawing(_X[:2], _Y[:2]), "method": "isomap"})
    assert not at.exception and not at.error
    assert "2 points drawn: kernel PCA needs at least 3" in shown_text(at)


def test_four_points_are_too_few_for_this_page_and_it_says_so():
    at = open_app(PAGE, {**drawing(_X[:4], _Y[:4]), "method": "spectral"})
    assert not at.exception and not at.error
    assert "Use at least 5 points" in shown_text(at)


def upload(at, rows: list[str]):
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    content = ("u,v\n" + "\n".join(rows)).encode()
    return at.file_uploader(key="upload_csv").set_value(("mine.csv", content,
                                                         "text/csv")).run()


@pytest.mark.sweep
@pytest.mark.parametrize("method", list(METHODS))
def test_every_method_on_an_upload_of_copied_rows_without_labels(method):
    # Six rows, three of them one point: no classes, ties at distance 0.
    rows = ["0,0", "0,0", "0,0", "1,0", "0,2", "3,1"]
    at = upload(open_app(PAGE, {"method": method, "neighbours": 1}), rows)
    assert_computed_or_said_why(at)
    for k in (2, 5):
        at.session_state["w_eigen_k"] = k
        at.run()
        assert_computed_or_said_why(at)


def test_uploads_of_two_and_four_rows_are_too_small_and_the_page_says_so():
    at = upload(open_app(PAGE, {"method": "laplacian"}), ["0,0", "1,1"])
    assert not at.exception  # the upload's own refusal, in words
    assert [e.value for e in at.error] == [
        "**mine\\.csv** cannot be used: The file has 2 rows of data\\; KPCA needs at least 3\\."]
    at = upload(open_app(PAGE, {"method": "laplacian"}), ["0,0", "1,1", "2,0", "0,3"])
    assert not at.exception and not at.error
    assert "Use at least 5 points" in shown_text(at)


KERNELS = [
    {"kernel": "rbf", "gamma": "1e-06"}, {"kernel": "rbf", "gamma": "10000"},
    {"kernel": "laplacian", "gamma": "1e-06"}, {"kernel": "laplacian", "gamma": "10000"},
    {"kernel": "sigmoid", "gamma": "1e-06", "coef0": "0"},
    {"kernel": "sigmoid", "gamma": "10000", "coef0": "1"},
    {"kernel": "poly", "gamma": "1", "degree": "1", "coef0": "0"},
    {"kernel": "poly", "gamma": "10000", "degree": "5", "coef0": "1"},
]


@pytest.mark.sweep
@pytest.mark.parametrize("kernel", KERNELS, ids=lambda q: "-".join(q.values()))
@pytest.mark.parametrize("dataset", ["moons", "iris"])
def test_kernel_pca_at_the_ends_of_its_kernels(kernel, dataset):
    query = {"dataset": dataset, "method": "kpca", "components": 4, **kernel}
    if dataset == "moons":
        query["n"] = 60
    at = open_app(PAGE, query)
    assert_computed_or_said_why(at)


def test_a_saturated_kernel_says_there_is_no_direction():
    # Iris' raw measurements in tanh(γ xᵀy + 1): K is all ones to rounding.
    at = open_app(PAGE, {"dataset": "iris", "method": "kpca", "kernel": "sigmoid",
                         "gamma": "1", "coef0": "1"})
    assert_clean(at)
    warned = " ".join(w.value for w in at.warning)
    assert "kernel PCA finds no direction" in warned and "Move γ" in warned
    assert not at.dataframe  # nothing to compare


@needs_usps
@pytest.mark.sweep
@pytest.mark.parametrize("method", list(METHODS))
@pytest.mark.parametrize(("n", "k"), [(10, 1), (300, 1)])
def test_every_method_on_the_digits(method, n, k):
    # Ten images, one per digit: as many classes as points (spectral clustering's ten
    # clusters); 300 at k = 1: the graph in dozens of pieces, drawn on our components.
    at = open_app(PAGE, {"dataset": "usps", "n": n, "method": method, "neighbours": k,
                         "components": 4})
    assert_computed_or_said_why(at)
