"""USPS digits: the shared file, stratified subsets, the download path against a local
HTTP server (good, corrupt and unreachable), and the offline message."""

from __future__ import annotations

import gzip
from pathlib import Path

import numpy as np
import pytest

import datasets
from datasets.usps import USPS_CLASS_COUNTS, download_usps, stratified_indices

from .helpers import check_invariants, small_usps, write_esl_gz

TRAIN_COUNTS = [1194, 1005, 731, 658, 652, 556, 664, 645, 542, 644]
TEST_COUNTS = [359, 264, 198, 166, 200, 160, 170, 147, 166, 177]


# --- the shared file (CI sets KPCA_USPS_PATH to it) ---------------------------------


@pytest.fixture
def shared_usps(usps_path, monkeypatch):
    monkeypatch.setenv("KPCA_USPS_PATH", str(usps_path))
    return usps_path


@pytest.mark.parametrize(
    ("split", "counts"),
    [("train", TRAIN_COUNTS), ("test", TEST_COUNTS),
     ("all", [a + b for a, b in zip(TRAIN_COUNTS, TEST_COUNTS, strict=True)])],
)
def test_full_splits_have_the_published_class_counts(shared_usps, split, counts):
    data = datasets.load("usps", split=split, n=9298)
    assert np.bincount(data.y).tolist() == counts
    assert data.X.shape == (sum(counts), 256)
    assert data.image_shape == (16, 16)
    assert data.X.min() == -1.0 and data.X.max() == 1.0
    assert data.target_names == tuple("0123456789")


def test_pixels_are_the_stored_values_over_the_divisor(shared_usps):
    data = datasets.load("usps", split="test", n=2007)
    with np.load(shared_usps) as z:
        order = np.argsort(z["y_test"], kind="stable")  # rows come sorted by label
        expected = z["X_test"][order] / z["divisor"]
    np.testing.assert_array_equal(data.X, expected)


def test_default_is_a_stratified_subset_of_2000_training_images(shared_usps):
    data = datasets.load("usps")
    check_invariants(data, "usps")
    counts = np.bincount(data.y)
    assert counts.sum() == 2000
    exact = np.array(TRAIN_COUNTS) * 2000 / sum(TRAIN_COUNTS)
    assert np.all(np.abs(counts - exact) < 1)


def test_subsets_are_deterministic_per_seed(shared_usps):
    first = datasets.load("usps", n=300, seed=5)
    datasets.clear_cache()
    again = datasets.load("usps", n=300, seed=5)
    other = datasets.load("usps", n=300, seed=6)
    np.testing.assert_array_equal(first.X, again.X)
    assert not np.array_equal(first.X, other.X)
    np.testing.assert_array_equal(first.y, other.y)  # same class counts, other images


def test_n_is_capped_at_the_split_size(shared_usps):
    assert datasets.load("usps", split="test", n=5000).X.shape == (2007, 256)


def test_usps_source_description_names_the_environment_path(shared_usps):
    assert str(shared_usps) in datasets.usps_source_description()
    assert "KPCA_USPS_PATH" in datasets.usps_source_description()


# --- stratified_indices on its own ---------------------------------------------------


@pytest.mark.parametrize("n", [10, 11, 57, 500, 999, 1000])
def test_stratified_indices_keep_class_shares_within_one(n):
    y = np.repeat(np.arange(4), [500, 300, 150, 50])
    np.random.default_rng(0).shuffle(y)
    rows = stratified_indices(y, n, seed=1)
    counts = np.bincount(y[rows], minlength=4)
    assert len(rows) == n == counts.sum()
    assert len(np.unique(rows)) == n
    assert np.all(np.abs(counts - np.bincount(y) * n / len(y)) < 1)
    # Sorted by label, then by original index.
    assert np.all(np.diff(y[rows]) >= 0)
    for label in range(4):
        assert np.all(np.diff(rows[y[rows] == label]) > 0)


# --- download from a local HTTP server -----------------------------------------------


def small_counts(y: np.ndarray) -> list[int]:
    return np.bincount(y, minlength=10).tolist()


@pytest.fixture
def small_site(http_root):
    """A local site with small, valid zip.train.gz / zip.test.gz files."""
    root, url = http_root
    train, test = small_usps(3, seed=1), small_usps(2, seed=2)
    write_esl_gz(root / "zip.train.gz", *train)
    # One published copy has an extra number on one test row; it must be tolerated.
    write_esl_gz(root / "zip.test.gz", *test, extra_number_on_row=5)
    expected = {"train": small_counts(train[1]), "test": small_counts(test[1])}
    return root, url, train, test, expected


def test_download_validates_and_caches_the_npz(small_site, tmp_path):
    _, url, train, test, expected = small_site
    cache = tmp_path / "cache"
    calls = []
    path = download_usps(url=url, cache=cache, expected_counts=expected,
                         progress=lambda fraction, message: calls.append((fraction, message)))
    assert path == cache / "usps.npz"
    assert sorted(p.name for p in cache.iterdir()) == ["usps.npz"]  # no temporary left
    with np.load(path) as z:
        np.testing.assert_array_equal(z["X_train"] / z["divisor"], train[0])
        np.testing.assert_array_equal(z["y_test"], test[1])
        assert z["X_train"].dtype == np.int16 and z["y_train"].dtype == np.uint8
    fractions = [fraction for fraction, _ in calls]
    assert fractions == sorted(fractions) and fractions[0] == 0.0 and fractions[-1] == 1.0
    assert all(isinstance(message, str) and message for _, message in calls)


def test_load_reads_the_cache_filled_by_a_download(small_site, no_usps):
    _, url, train, _, expected = small_site
    download_usps(url=url, cache=no_usps, expected_counts=expected)
    assert "per-user cache" in datasets.usps_source_description()
    data = datasets.load("usps", split="train", n=30)  # no second download: URL refuses
    assert np.bincount(data.y).tolist() == [3] * 10
    np.testing.assert_array_equal(np.sort(data.X, axis=0), np.sort(train[0], axis=0))


def test_ensure_usps_downloads_when_nothing_is_cached(small_site, no_usps, monkeypatch):
    _, url, *_ = small_site
    monkeypatch.setenv("KPCA_USPS_URL", url)
    # The small file cannot pass the published class counts: validation is real.
    with pytest.raises(datasets.UspsUnavailableError, match=r"not the published \[1194"):
        datasets.ensure_usps()
    assert not no_usps.exists() or not any(no_usps.iterdir())


def corrupt_truncated(root: Path) -> str:
    data = (root / "zip.train.gz").read_bytes()
    (root / "zip.train.gz").write_bytes(data[: len(data) // 2])
    return "zip.train.gz is corrupt"


def corrupt_row_length(root: Path) -> str:
    X, y = small_usps(3, seed=1)
    write_esl_gz(root / "zip.test.gz", X[:, :200], y)
    return "zip.test.gz line 1 has 201 numbers; expected 257"


def corrupt_label(root: Path) -> str:
    X, y = small_usps(3, seed=1)
    write_esl_gz(root / "zip.train.gz", X, np.where(y == 9, 11, y))
    return "has label 11; expected a digit 0..9"


def corrupt_not_gzip(root: Path) -> str:
    (root / "zip.test.gz").write_text("<html>Moved</html>")
    return "zip.test.gz is corrupt (Not a gzipped file"


def corrupt_text(root: Path) -> str:
    with gzip.open(root / "zip.train.gz", "wt") as out:
        out.write("1 " + "x " * 256 + "\n")
    return "zip.train.gz line 1: could not convert string to float: 'x'"


def missing_file(root: Path) -> str:
    (root / "zip.test.gz").unlink()
    return "HTTP 404"


def wrong_counts(root: Path) -> str:
    X, y = small_usps(2, seed=7)
    write_esl_gz(root / "zip.train.gz", X, y)
    return "digit counts [2, 2, 2, 2, 2, 2, 2, 2, 2, 2], not the published [3, 3"


@pytest.mark.parametrize(
    "corrupt",
    [corrupt_truncated, corrupt_row_length, corrupt_label, corrupt_not_gzip, corrupt_text,
     missing_file, wrong_counts],
)
def test_a_bad_download_raises_a_clear_error_and_caches_nothing(small_site, tmp_path, corrupt):
    root, url, _, _, expected = small_site
    fragment = corrupt(root)
    cache = tmp_path / "cache"
    with pytest.raises(datasets.UspsUnavailableError) as error:
        download_usps(url=url, cache=cache, expected_counts=expected)
    message = str(error.value)
    assert fragment in message
    assert "KPCA_USPS_PATH" in message and str(cache) in message
    assert list(cache.iterdir()) == []


def test_a_dropped_connection_is_reported_and_nothing_is_cached(small_site, tmp_path):
    _, url, _, _, expected = small_site
    cache = tmp_path / "cache"
    with pytest.raises(datasets.UspsUnavailableError, match="stopped after .* bytes"):
        download_usps(url=url + "cutoff/", cache=cache, expected_counts=expected)
    assert list(cache.iterdir()) == []


# --- offline -------------------------------------------------------------------------


def test_offline_without_a_file_says_what_to_set(no_usps):
    with pytest.raises(datasets.UspsUnavailableError) as error:
        datasets.load("usps")
    message = str(error.value)
    assert "set the environment variable KPCA_USPS_PATH to an .npz file" in message
    assert "connect to the internet" in message and str(no_usps) in message
    assert "Connection refused" in message
    assert "will be downloaded" in datasets.usps_source_description()
    # Everything else still works.
    assert datasets.load("circles").X.shape == (400, 2)
    assert datasets.load("iris").X.shape == (150, 4)


def test_a_wrong_kpca_usps_path_is_reported_not_bypassed(no_usps, monkeypatch, tmp_path):
    missing = tmp_path / "nowhere.npz"
    monkeypatch.setenv("KPCA_USPS_PATH", str(missing))
    with pytest.raises(datasets.UspsUnavailableError, match="no file there") as error:
        datasets.load("usps")
    assert str(missing) in str(error.value)


def test_a_broken_npz_file_is_reported(no_usps, monkeypatch, tmp_path):
    broken = tmp_path / "broken.npz"
    np.savez(broken, X_train=np.zeros((3, 10)))
    monkeypatch.setenv("KPCA_USPS_PATH", str(broken))
    with pytest.raises(datasets.UspsUnavailableError, match="is not a USPS .npz file"):
        datasets.load("usps")


# --- the whole real data set through the download path ------------------------------


@pytest.mark.slow
def test_real_data_round_trips_through_the_download_path(usps_path, http_root, no_usps):
    """ESL text files written from the shared .npz, served locally, downloaded with the
    published counts, give back exactly the shared arrays."""
    root, url = http_root
    with np.load(usps_path) as z:
        shared = {key: z[key] for key in z.files}
    for split, filename in [("train", "zip.train.gz"), ("test", "zip.test.gz")]:
        X = shared[f"X_{split}"] / shared["divisor"]
        extra = 2005 if split == "test" else None  # line 2006, as in the README's copy
        write_esl_gz(root / filename, X, shared[f"y_{split}"], extra_number_on_row=extra)
    path = download_usps(url=url, cache=no_usps)  # default: the published counts
    with np.load(path) as z:
        for key in ("X_train", "y_train", "X_test", "y_test"):
            np.testing.assert_array_equal(z[key], shared[key])
    assert dict(USPS_CLASS_COUNTS)["test"] == tuple(TEST_COUNTS)
