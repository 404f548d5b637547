"""The small frozen dataclasses that describe and carry a data set."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

import numpy as np

OptionKind = Literal["int", "float", "choice"]


@dataclass(frozen=True)
class Option:
    """One user-settable option of a data set, as the sidebar should offer it.

    Parameters
    ----------
    name : str
        Keyword accepted by :func:`datasets.load`.
    default : int, float or str
        Value used when the option is not given.
    kind : {"int", "float", "choice"}
        How the value is validated and which widget fits it.
    low, high : int or float, optional
        Inclusive bounds for ``"int"`` and ``"float"`` options.
    choices : tuple
        Allowed values of a ``"choice"`` option.
    help : str
        One sentence for the widget's tooltip.
    """

    name: str
    default: Any
    kind: OptionKind
    low: int | float | None = None
    high: int | float | None = None
    choices: tuple = ()
    help: str = ""


@dataclass(frozen=True)
class DatasetInfo:
    """What the sidebar needs to list a data set before loading it.

    Parameters
    ----------
    name : str
        Registry key passed to :func:`datasets.load`.
    title : str
        Human-readable name.
    summary : str
        One line saying what the data set shows.
    options : tuple of Option
        Options accepted by :func:`datasets.load`, with their defaults.
    suggested_kernel : dict
        Keyword arguments for a kernel that shows the data set at its best,
        e.g. ``{"kernel": "rbf", "gamma": 10.0}``.
    """

    name: str
    title: str
    summary: str
    options: tuple[Option, ...]
    suggested_kernel: dict


@dataclass(frozen=True, eq=False)
class Dataset:
    """A loaded data set: samples, optional labels and what a student should know.

    The arrays are read-only because loaded data sets are cached and shared
    between reruns of the app; copy them before changing them.
    ``eq=False`` because element-wise array comparison has no single truth value.

    Parameters
    ----------
    name : str
        Registry key, or ``"csv"`` for uploaded data.
    X : ndarray of shape (n_samples, n_features)
        Samples as float64, C-contiguous.
    y : ndarray of shape (n_samples,) or None
        Integer labels in ``0 .. len(target_names) - 1``, or None when the data
        set has no classes.
    target_names : tuple of str
        Name of each label value.
    feature_names : tuple of str
        Name of each column of ``X``.
    description : str
        One plain-language paragraph for students, in English.
    description_sentences : tuple of (message, ((name, value), ...)) pairs
        The same paragraph as its sentences, each an English message with its named values
        (``description`` is their English, side by side), for a page that says it in
        another language: the ground layer imports nothing of the app and cannot translate.
        Made with :func:`described` and :func:`said`.
    citation : str
        Where the data comes from.
    image_shape : tuple of int, optional
        ``(height, width)`` when each row of ``X`` is an image in row-major order.
    unrolled : ndarray of shape (n_samples, 2), optional
        For points rolled up from a flat sheet (the swiss roll, the S-curve): each point's
        coordinates on that sheet (distance along the roll, height), so that a page can
        measure whether an embedding unrolls it. None for other data.
    """

    name: str
    X: np.ndarray
    y: np.ndarray | None
    target_names: tuple[str, ...]
    feature_names: tuple[str, ...]
    description: str
    citation: str
    image_shape: tuple[int, int] | None = field(default=None)
    unrolled: np.ndarray | None = field(default=None)
    description_sentences: tuple[tuple[str, tuple[tuple[str, object], ...]], ...] = ()

    def __post_init__(self) -> None:
        if self.description_sentences and self.description != english(
                self.description_sentences):
            raise ValueError("description must be the English of description_sentences.")
        # `.view()` so that freezing never changes the flags of the caller's array.
        X = np.ascontiguousarray(self.X, dtype=np.float64).view()
        if X.ndim != 2:
            raise ValueError(f"X must be 2-D (n_samples, n_features); got shape {X.shape}.")
        if len(self.feature_names) != X.shape[1]:
            raise ValueError(
                f"{len(self.feature_names)} feature names for {X.shape[1]} columns of X."
            )
        if self.image_shape is not None and int(np.prod(self.image_shape)) != X.shape[1]:
            raise ValueError(f"image_shape {self.image_shape} does not match {X.shape[1]} columns.")
        X.flags.writeable = False
        object.__setattr__(self, "X", X)

        if self.y is not None:
            y = np.ascontiguousarray(self.y, dtype=np.int64).view()
            if y.shape != (X.shape[0],):
                raise ValueError(f"y has shape {y.shape}; expected ({X.shape[0]},).")
            if y.size and (y.min() < 0 or y.max() >= len(self.target_names)):
                raise ValueError(
                    f"labels must lie in 0..{len(self.target_names) - 1} "
                    f"(one per target name); got {y.min()}..{y.max()}."
                )
            y.flags.writeable = False
            object.__setattr__(self, "y", y)

        if self.unrolled is not None:
            unrolled = np.ascontiguousarray(self.unrolled, dtype=np.float64).view()
            if unrolled.shape != (X.shape[0], 2):
                raise ValueError(
                    f"unrolled has shape {unrolled.shape}; expected ({X.shape[0]}, 2)."
                )
            unrolled.flags.writeable = False
            object.__setattr__(self, "unrolled", unrolled)

    @property
    def n_samples(self) -> int:
        """Number of rows of ``X``."""
        return self.X.shape[0]


Sentence = tuple[str, tuple[tuple[str, object], ...]]


def said(message: str, **values: object) -> Sentence:
    """One sentence of a dataset's description: its English message with named
    placeholders, and their values. ``scripts/i18n.py`` extracts the message of every
    ``said(...)`` call for the translators."""
    return message, tuple(values.items())


def english(sentences: tuple[Sentence, ...]) -> str:
    """The sentences in English, side by side (a message without values is as written:
    a plain string, braces and all)."""
    return " ".join(message.format(**dict(values)) if values else message
                    for message, values in sentences)


class SaidError(Exception):
    """A refusal the ground layer says in sentences (:func:`said`), which the app shows in
    the reader's language (this layer cannot translate); ``str()`` is the English, for logs
    and scripts. A plain string is a sentence as written (a stand-in in a test).

    Mixed in before the built-in error it is: ``class CSVError(SaidError, ValueError)``.
    """

    def __init__(self, *sentences: Sentence | str) -> None:
        self.sentences: tuple[Sentence, ...] = tuple(
            (sentence, ()) if isinstance(sentence, str) else sentence for sentence in sentences)
        super().__init__(english(self.sentences))

    def __reduce__(self):  # pickled with its sentences, not only their English
        return type(self), self.sentences


def described(*sentences: Sentence) -> dict:
    """A dataset's description as ``Dataset``'s keyword arguments: the English paragraph
    and the sentences (:func:`said`) it was made from."""
    return {"description": english(sentences), "description_sentences": sentences}
