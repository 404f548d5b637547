"""Helpers for the data set tests: fake USPS files and the invariants of a Dataset."""

from __future__ import annotations

import gzip
import re
import socket
from pathlib import Path

import numpy as np

from datasets import Dataset, SaidError
from datasets.usps import esl_rows
from words.i18n import _, said_text, use_language

CJK = re.compile(r"[\u4e00-\u9fff]")


def closed_port() -> int:
    """A local port with nothing listening on it."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def said_in_chinese(error: SaidError) -> str:
    """A refusal (the USPS digits missing, an upload refused) as a Chinese page shows it,
    after checking it: every sentence translated (none left in English), the same numbers
    as the English, which is ``str(error)`` (logs, scripts) word for word."""
    assert said_text(error.sentences) == str(error)  # English: the message as raised
    with use_language("zh-CN"):
        untranslated = [message for message, _values in error.sentences if _(message) == message]
        chinese = said_text(error.sentences)
    assert not untranslated, untranslated
    assert CJK.search(chinese), chinese
    assert sorted(re.findall(r"\d+", chinese)) == sorted(re.findall(r"\d+", str(error)))
    return chinese


def write_esl_gz(
    path: Path, X: np.ndarray, y: np.ndarray, extra_number_on_row: int | None = None
) -> None:
    """``datasets.usps.write_esl_gz``, with one extra trailing number on row
    ``extra_number_on_row`` (as one published copy of the test file has)."""
    lines = esl_rows(X, y)
    if extra_number_on_row is not None:
        lines[extra_number_on_row] = lines[extra_number_on_row].rstrip("\n") + " -0.796\n"
    with gzip.open(path, "wt", encoding="ascii", compresslevel=1) as out:
        out.writelines(lines)


def small_usps(per_digit: int, seed: int) -> tuple[np.ndarray, np.ndarray]:
    """A few random 256-pixel images per digit, values multiples of 0.001 in [-1, 1]."""
    rng = np.random.default_rng(seed)
    y = np.repeat(np.arange(10), per_digit)
    rng.shuffle(y)
    X = rng.integers(-1000, 1001, size=(len(y), 256)) / 1000
    return X, y


def check_invariants(data: Dataset, name: str) -> None:
    """What every loaded data set promises the app."""
    assert data.name == name
    assert data.X.dtype == np.float64 and data.X.ndim == 2 and data.X.flags.c_contiguous
    assert np.isfinite(data.X).all()
    assert len(data.feature_names) == data.X.shape[1]
    assert not data.X.flags.writeable
    if data.y is not None:
        assert data.y.shape == (data.X.shape[0],) and np.issubdtype(data.y.dtype, np.integer)
        assert not data.y.flags.writeable
        # Every class named is present in the default sample.
        assert set(np.unique(data.y)) == set(range(len(data.target_names)))
    if data.image_shape is not None:
        assert np.prod(data.image_shape) == data.X.shape[1]
    assert len(data.description) > 100 and "\n" not in data.description
    # A dataset's description is sentences a page can translate.
    assert data.description_sentences
    assert data.description == " ".join(message.format(**dict(values))
                                        for message, values in data.description_sentences)
    assert data.citation
