"""KPCA Lab's data sets, behind one registry: :func:`load` and :func:`available`.

This top-level package is named ``datasets`` and therefore shadows the unrelated
PyPI distribution of the same name (Hugging Face ``datasets``). KPCA Lab never
depends on that distribution; do not add it to the requirements.

Examples
--------
>>> import datasets
>>> list(datasets.available())[:2]
['circles', 'moons']
>>> data = datasets.load("circles", n=100, seed=1)
>>> data.X.shape
(100, 2)
"""

from __future__ import annotations

import functools
import math
import numbers
from collections.abc import Callable
from typing import Any

from ._types import Dataset, DatasetInfo, Option, SaidError
from .csv_loader import (
    BINARY_SIGNATURES,
    MAX_BYTES,
    MAX_COLUMNS,
    MAX_ROWS,
    CSVCheck,
    CSVError,
    check_csv,
    csv_digest,
    guess_label_column,
    load_csv,
)
from .csv_uploads import UploadReader
from .drawn import CLASS_NAMES as _DRAWN_CLASS_NAMES
from .iris import IRIS_INFO, load_iris
from .safe_text import spreadsheet_safe, spreadsheet_safe_row
from .synthetic import (
    CIRCLES_INFO,
    FOUR_CLASSES_INFO,
    MOONS_INFO,
    PARABOLA_INFO,
    S_CURVE_INFO,
    SCHOLKOPF_TOY_INFO,
    SWISS_ROLL_INFO,
    load_circles,
    load_four_classes,
    load_moons,
    load_parabola,
    load_s_curve,
    load_scholkopf_toy,
    load_swiss_roll,
)
from .synthetic import CLASS_NAMES as _SYNTHETIC_CLASS_NAMES
from .usps import (
    USPS_INFO,
    UspsUnavailableError,
    download_usps,
    ensure_usps,
    load_usps,
    usps_source_description,
    usps_split_sizes,
)

# The class names the app gives the data it makes (the drawing's "class A" too), by data
# set: shown in the session's language (shell.figures.class_name), English where they
# leave the app.
CLASS_NAMES: dict[str, tuple[str, ...]] = {**_SYNTHETIC_CLASS_NAMES,
                                           "drawn": _DRAWN_CLASS_NAMES}

__all__ = [
    "BINARY_SIGNATURES",
    "CLASS_NAMES",
    "MAX_BYTES",
    "MAX_COLUMNS",
    "MAX_ROWS",
    "CSVCheck",
    "CSVError",
    "Dataset",
    "DatasetInfo",
    "Option",
    "SaidError",
    "UploadReader",
    "UspsUnavailableError",
    "available",
    "check_csv",
    "clear_cache",
    "csv_digest",
    "download_usps",
    "guess_label_column",
    "ensure_usps",
    "load",
    "load_csv",
    "spreadsheet_safe",
    "spreadsheet_safe_row",
    "usps_source_description",
    "usps_split_sizes",
]

# In the order the sidebar lists them.
_REGISTRY: dict[str, tuple[DatasetInfo, Callable[..., Dataset]]] = {
    info.name: (info, loader)
    for info, loader in [
        (CIRCLES_INFO, load_circles),
        (MOONS_INFO, load_moons),
        (SWISS_ROLL_INFO, load_swiss_roll),
        (S_CURVE_INFO, load_s_curve),
        (SCHOLKOPF_TOY_INFO, load_scholkopf_toy),
        (PARABOLA_INFO, load_parabola),
        (FOUR_CLASSES_INFO, load_four_classes),
        (IRIS_INFO, load_iris),
        (USPS_INFO, load_usps),
    ]
}


def available() -> dict[str, DatasetInfo]:
    """The data sets :func:`load` knows, in sidebar order, with their options.

    Uploaded CSV files are not listed: they are loaded with :func:`load_csv`.
    """
    return {name: info for name, (info, _) in _REGISTRY.items()}


def load(name: str, **options: Any) -> Dataset:
    """Load a data set by name; repeated calls with the same options are cached.

    Parameters
    ----------
    name : str
        A key of :func:`available`.
    **options
        Values for the data set's options; the others take their defaults.

    Returns
    -------
    Dataset
        Read-only arrays shared between calls: copy before modifying.

    Raises
    ------
    ValueError
        For an unknown name or option, or a value of the wrong type or out of range;
        the message names the option and what it allows.
    UspsUnavailableError
        For ``"usps"`` when the digits are neither on disk nor downloadable.
    """
    if name not in _REGISTRY:
        hint = " Uploaded files are loaded with datasets.load_csv()." if name == "csv" else ""
        raise ValueError(
            f"Unknown data set {name!r}. Available: {', '.join(_REGISTRY)}.{hint}"
        )
    info, _ = _REGISTRY[name]
    values = _validated(info, options)
    return _load_cached(name, tuple(sorted(values.items())))


def clear_cache() -> None:
    """Forget every loaded data set and USPS download failure (for tests, or after
    replacing the USPS file)."""
    from .usps import _read_npz, forget_download_failures

    _load_cached.cache_clear()
    _read_npz.cache_clear()
    forget_download_failures()


# Bounded: the largest entry (all of USPS) is about 19 MB.
@functools.lru_cache(maxsize=16)
def _load_cached(name: str, options: tuple[tuple[str, Any], ...]) -> Dataset:
    _, loader = _REGISTRY[name]
    return loader(**dict(options))


def _validated(info: DatasetInfo, given: dict[str, Any]) -> dict[str, Any]:
    """Fill in defaults and check each given value against its :class:`Option`."""
    known = {option.name: option for option in info.options}
    unknown = sorted(set(given) - set(known))
    if unknown:
        allowed = ", ".join(known) if known else "none"
        raise ValueError(
            f"Data set {info.name!r} has no option {unknown[0]!r}. Its options are: {allowed}."
        )
    values = {}
    for option in info.options:
        values[option.name] = (
            _checked(info.name, option, given[option.name])
            if option.name in given
            else option.default
        )
    return values


def _checked(dataset: str, option: Option, value: Any) -> Any:
    where = f"Option {option.name!r} of {dataset!r}"
    if option.kind == "choice":
        if value not in option.choices:
            raise ValueError(
                f"{where} must be one of {', '.join(map(repr, option.choices))}; got {value!r}."
            )
        return value
    # bool is an Integral in Python, but True is never a meaningful sample count.
    if isinstance(value, bool) or not isinstance(
        value, numbers.Integral if option.kind == "int" else numbers.Real
    ):
        kind = "an integer" if option.kind == "int" else "a number"
        raise ValueError(f"{where} must be {kind}; got {value!r}.")
    # Compared before it is converted: float() of an integer past 1e308 overflows
    # (a link with a 400-digit n or noise must get this message, not a traceback).
    if not option.low <= value <= option.high:
        raise ValueError(
            f"{where} must be between {option.low} and {option.high}; got {_shown(value)}."
        )
    return int(value) if option.kind == "int" else float(value)


def _shown(value: numbers.Real) -> str:
    """The value for a message; a huge integer by its length (its digits may be 100 kB)."""
    if isinstance(value, numbers.Integral) and abs(value) >= 10**15:
        digits = int(int(abs(value)).bit_length() * math.log10(2)) + 1
        return f"{'a negative' if value < 0 else 'an'} integer of about {digits:,} digits"
    return str(value)
