"""A damaged USPS file, named by KPCA_USPS_PATH or in the per-user cache, gives the "not a
USPS .npz file ... fix it" message (UspsUnavailableError, which every page shows as a
message), never a traceback; bad values are refused before they reach a kernel."""

from __future__ import annotations

import warnings
from pathlib import Path

import numpy as np
import pytest

import datasets
from datasets.usps import CACHE_FILENAME

from .helpers import said_in_chinese, small_usps


def arrays(**replace) -> dict[str, np.ndarray]:
    """A small valid file's arrays (20 training and 10 test digits), with replacements."""
    (X_train, y_train), (X_test, y_test) = small_usps(2, seed=1), small_usps(1, seed=2)
    good = {
        "X_train": np.rint(X_train * 1000).astype(np.int16), "y_train": y_train.astype(np.uint8),
        "X_test": np.rint(X_test * 1000).astype(np.int16), "y_test": y_test.astype(np.uint8),
        "divisor": np.int16(1000),
    }
    return good | replace


def with_nan(name: str) -> np.ndarray:
    array = arrays()[name].astype(float)
    array[3] = np.nan
    return array


def write_npz(path: Path, **replace) -> None:
    save(path, np.savez, **arrays(**replace))


def save(path: Path, writer, *args, **kwargs) -> None:
    # A file object, because given a name np.save and np.savez append a suffix to it.
    with path.open("wb") as out:
        writer(out, *args, **kwargs)


def truncated(path: Path) -> None:
    write_npz(path)
    path.write_bytes(path.read_bytes()[:-200])


def corrupt_member(path: Path) -> None:
    write_npz(path)
    data = bytearray(path.read_bytes())
    data[300:340] = bytes(40)  # inside X_train's bytes: the zip's checksum fails
    path.write_bytes(bytes(data))


DAMAGED = {
    "truncated": (truncated, "cannot be read (BadZipFile"),
    "corrupt member": (corrupt_member, "Bad CRC-32"),
    "empty": (lambda path: path.write_bytes(b""), "it is empty"),
    "an .npy": (lambda path: save(path, np.save, np.zeros((3, 256))), "a .npy file"),
    "text": (lambda path: path.write_text("X_train = ..."), "not an .npz archive"),
    "missing key": (lambda path: save(path, np.savez, X_train=np.zeros((3, 256))),
                    "it has no y_train, X_test, y_test, divisor"),
    "2-vector divisor": (lambda path: write_npz(path, divisor=np.array([1000, 1000])),
                         "its divisor is [1000 1000]"),
    "zero divisor": (lambda path: write_npz(path, divisor=np.int16(0)), "its divisor is 0"),
    "NaN divisor": (lambda path: write_npz(path, divisor=np.float64("nan")),
                    "its divisor is nan"),
    "string pixels": (lambda path: write_npz(path, X_train=arrays()["X_train"].astype(str)),
                      "X_train holds <U"),
    "NaN pixels": (lambda path: write_npz(path, X_test=with_nan("X_test")),
                   "X_test[3, 0] is nan"),
    "pixels out of range": (lambda path: write_npz(path, X_train=arrays()["X_train"] * 2),
                            "not a grey value in [-1, 1]"),
    "NaN labels": (lambda path: write_npz(path, y_train=with_nan("y_train")),
                   "y_train[3] is nan"),
    "label 10": (lambda path: write_npz(path, y_test=arrays()["y_test"] + 1),
                 "is 10; every label must be a digit 0..9"),
    "fractional labels": (lambda path: write_npz(path, y_test=arrays()["y_test"] + 0.5),
                          "every label must be a digit"),
    "no test images": (lambda path: write_npz(path, X_test=np.zeros((0, 256), np.int16),
                                              y_test=np.zeros(0, np.uint8)),
                       "X_test has shape (0, 256)"),
}


@pytest.fixture
def env_file(no_usps, monkeypatch, tmp_path) -> Path:
    path = tmp_path / "usps.npz"
    monkeypatch.setenv("KPCA_USPS_PATH", str(path))
    return path


def refused(**options) -> datasets.UspsUnavailableError:
    with warnings.catch_warnings():
        warnings.simplefilter("error")  # no RuntimeWarning from dividing by zero or NaN
        with pytest.raises(datasets.UspsUnavailableError) as error:
            datasets.load("usps", **options)
    return error.value


def refusal(**options) -> str:
    return str(refused(**options))


def test_the_small_file_itself_loads(env_file):
    write_npz(env_file)
    data = datasets.load("usps", split="all", n=30)
    assert data.X.shape == (30, 256) and np.isfinite(data.X).all()
    assert np.abs(data.X).max() <= 1 and np.bincount(data.y).tolist() == [3] * 10


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_kpca_usps_path_file_says_what_and_how_to_fix_it(env_file, damage):
    make, fragment = DAMAGED[damage]
    make(env_file)
    message = refusal(split="all", n=30)
    assert message.startswith(f"{env_file} is not a USPS .npz file: ")
    assert fragment in message
    assert "fix or replace it, or unset KPCA_USPS_PATH" in message


@pytest.mark.parametrize("damage", list(DAMAGED))
def test_a_damaged_file_is_said_in_chinese_too(env_file, damage):
    DAMAGED[damage][0](env_file)
    chinese = said_in_chinese(refused(split="all", n=30))
    assert chinese.startswith(f"{env_file} 不是 USPS .npz 文件：")
    assert "请修复或替换它，或取消设置 KPCA_USPS_PATH" in chinese


@pytest.mark.parametrize("damage", ["truncated", "an .npy", "zero divisor", "NaN labels"])
def test_a_damaged_cache_file_says_to_delete_it(no_usps, damage):
    no_usps.mkdir(parents=True)
    cached = no_usps / CACHE_FILENAME
    DAMAGED[damage][0](cached)
    error = refused()
    message = str(error)
    assert message.startswith(f"{cached} is not a USPS .npz file")
    assert "delete it, and KPCA Lab downloads the digits again" in message
    assert "删除它，KPCA Lab 会重新下载这些数字" in said_in_chinese(error)


def test_a_replaced_file_is_read_again(env_file):
    write_npz(env_file, divisor=np.int16(0))
    refusal()
    write_npz(env_file)
    datasets.clear_cache()  # the app keeps loaded subsets; the file itself is re-checked
    assert datasets.load("usps", n=20).X.shape == (20, 256)
