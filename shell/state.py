"""The app's settings: one frozen value, its URL form and its validation.

Everything here is plain Python (no Streamlit calls) so it can be unit-tested: the
sidebar (``shell.sidebar``) turns widgets into a :class:`Settings` and back, and this
module turns a :class:`Settings` into query parameters and back.

A link is untrusted input. :func:`settings_from_query` never raises: every bad or stale
parameter falls back to its default and yields one plain-English warning saying what
was wrong and what was used instead. The warnings are Markdown: whatever they repeat
from the link is :func:`words.text.quoted` (shortened, and shown as typed: never a link,
an image or formatting).
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, replace
from typing import Any, NamedTuple

import datasets
from datasets import drawn
from experiments.kernel_diagnostics import format_gamma, format_ratio
from kpca_core import KERNELS
from shell.registry import LESSONS
from words.i18n import N_, _, format_number, link_language
from words.kernel_params import COEF0, DEGREE, GAMMA, GAMMA_GRID, KERNEL_PARAMS
from words.text import quoted

DEFAULT_DATASET = "circles"
# An uploaded file: not in datasets.available(), cannot travel in a link.
CSV = "csv"
CSV_TITLE = N_("Your own CSV")
# Points drawn on the Draw page: they travel in the link as one option, their code
# (datasets.drawn), so the settings (every cache key) hold the drawn data themselves.
DRAWN, DRAWN_TITLE, Q_POINTS = "drawn", N_("Drawn on the Draw page"), "points"
# The sources of data that are not built-in datasets, by their titles (translated where shown).
SOURCE_TITLES = {CSV: CSV_TITLE, DRAWN: DRAWN_TITLE}
DEFAULT_KERNEL = "rbf"

# The kernel parameters' ranges, as offered by the sidebar and accepted from a link
# (declared once, with their symbols and labels, in words.kernel_params).
GAMMA_MIN, GAMMA_MAX = GAMMA.low, GAMMA.high
DEGREE_MIN, DEGREE_MAX = int(DEGREE.low), int(DEGREE.high)
COEF0_MIN, COEF0_MAX = COEF0.low, COEF0.high
COMPONENTS_MIN, COMPONENTS_MAX = 2, 20

# Query-parameter names for the settings that are not dataset options.
Q_DATASET, Q_KERNEL, Q_COMPONENTS, Q_STANDARDIZE = "dataset", "kernel", "components", "std"
Q_PARAMS = tuple(KERNEL_PARAMS)
# App-wide display setting (shell.display): bigger text for a lecture hall.
Q_PROJECTOR = "projector"
# The session's language (shell.language; its values in words.i18n).
Q_LANG = "lang"
# A lesson link's locked controls, the lecturer's note and whether a student may unlock
# (shell/locks.py).
Q_LOCK, Q_NOTE, Q_UNLOCK = "lock", "note", "unlock"
# Parameters a single page owns, by the page's URL path, as its registry entry declares
# them: the sidebar keeps them in the address bar on that page only (the tour's step, the
# Explorer's open section), so a link can open step 5.
PAGE_PARAMS: dict[str, tuple[str, ...]] = {
    lesson.url_path: lesson.link_params for lesson in LESSONS if lesson.link_params
}
_TRUE, _FALSE = ("1", "true", "yes", "on"), ("0", "false", "no", "off")
# A link with thousands of made-up parameters gets a warning that names a few.
MAX_NAMED_UNKNOWN = 5


class DataKey(NamedTuple):
    """What the inputs a kernel sees are made from: the dataset with all its options (an
    upload's fingerprint, drawn points' code) and whether they are standardised."""

    dataset: str
    options: tuple[tuple[str, Any], ...]
    standardize: bool


class KernelKey(NamedTuple):
    """The kernel and the parameters it uses (the others never split a cache)."""

    kernel: str
    params: tuple[tuple[str, Any], ...]

    def kernel_params(self) -> dict[str, Any]:
        return dict(self.params)


@dataclass(frozen=True)
class Settings:
    """Everything the pages need to know about the current data and kernel.

    Small and hashable on purpose: it is the cache key of every computation.
    ``dataset_options`` holds *all* options of the dataset (defaults filled in),
    sorted by name, so two equal views always have equal keys.
    """

    dataset: str = DEFAULT_DATASET
    dataset_options: tuple[tuple[str, Any], ...] = ()
    kernel: str = DEFAULT_KERNEL
    # The circles' own suggestion: component 1 alone separates the rings at γ = 5.
    gamma: float = 5.0
    degree: int = 3
    coef0: float = 1.0
    n_components: int = 3
    standardize: bool = False

    @property
    def options(self) -> dict[str, Any]:
        return dict(self.dataset_options)

    def kernel_params(self) -> dict[str, Any]:
        """The parameters the chosen kernel actually uses (the others are ignored)."""
        return {name: getattr(self, name) for name in KERNELS[self.kernel].params}

    @property
    def data_key(self) -> DataKey:
        """What a result computed from the inputs alone is keyed by."""
        return DataKey(self.dataset, self.dataset_options, self.standardize)

    @property
    def kernel_key(self) -> KernelKey:
        """What a result computed from the kernel is keyed by, beside the data's key."""
        return KernelKey(self.kernel, tuple(self.kernel_params().items()))


def dataset_title(name: str) -> str:
    """A dataset's title in this run's language, as the sidebar lists it: a built-in
    dataset's, or an upload's or a drawing's."""
    info = datasets.available().get(name)
    return _(info.title if info is not None else SOURCE_TITLES[name])


def params_text(settings: Settings) -> str:
    """The kernel's parameters as figures and sentences write them: "γ = 5, d = 3" (empty
    for a kernel without any)."""
    return ", ".join(
        f"{KERNEL_PARAMS[name].symbol} = "
        + (format_gamma(value) if KERNEL_PARAMS[name].log_scale else f"{value}")
        for name, value in settings.kernel_params().items()
    )


def default_options(dataset: str) -> tuple[tuple[str, Any], ...]:
    if dataset == CSV:
        return ()
    if dataset == DRAWN:
        return ((Q_POINTS, drawn.default_code()),)
    info = datasets.available()[dataset]
    return tuple(sorted((opt.name, _typed(opt, opt.default)) for opt in info.options))


def _typed(opt: datasets.Option, value: Any) -> Any:
    """Widgets insist on one type per option: ints stay ints, floats become floats."""
    if opt.kind == "int":
        return int(value)
    if opt.kind == "float":
        return float(value)
    return value


def default_settings(dataset: str = DEFAULT_DATASET) -> Settings:
    """The dataset with its default options and its own suggested kernel and parameters
    (``datasets``' metadata), so that a plain link opens the view its description talks
    about: the noisy parabola with the polynomial kernel of the paper's Fig. 3, every
    other built-in dataset with the RBF kernel at its γ."""
    base = Settings(dataset=dataset, dataset_options=default_options(dataset))
    return with_suggested_kernel(base)


def dataset_gamma(dataset: str, kernel: str, options: Mapping[str, Any] | None = None
                  ) -> float | None:
    """The γ a built-in dataset suggests for ``kernel`` (None: no suggestion for it); for
    drawn points (their ``options``), the γ of the preset they still are, if any."""
    if dataset == DRAWN:
        code = (options or {}).get(Q_POINTS)
        return drawn.preset_gamma(code) if kernel == "rbf" and code else None
    info = datasets.available().get(dataset)
    if info is None:
        return None
    suggested = info.suggested_kernel
    if suggested.get("kernel") != kernel or suggested.get("gamma") is None:
        return None
    return float(suggested["gamma"])


def with_suggested_kernel(settings: Settings) -> Settings:
    """The dataset's suggested kernel (from ``datasets``), other settings kept."""
    if settings.dataset not in datasets.available():
        return settings
    suggested = dict(datasets.available()[settings.dataset].suggested_kernel)
    kernel = suggested.pop("kernel", settings.kernel)
    if kernel not in KERNELS:
        return settings
    params = {k: v for k, v in suggested.items() if k in Q_PARAMS and v is not None}
    return replace(settings, kernel=kernel, **params)


def format_multiple(ratio: float) -> str:
    """A multiple for "γ = 2.3 × median heuristic" (``kernel_diagnostics.format_ratio``)."""
    return format_ratio(ratio)


def gamma_choices(current: float) -> list[float]:
    """The log grid plus the current value, so a value from a link or preset is kept."""
    return sorted(set(GAMMA_GRID) | {float(current)})


# --------------------------------------------------------------------------- URL form


def settings_to_query(settings: Settings) -> dict[str, str]:
    """Query parameters for a shareable link: only what differs from nothing, in order."""
    query = {Q_DATASET: settings.dataset}
    for name, value in settings.dataset_options:
        if settings.dataset != CSV:  # an upload's fingerprint means nothing elsewhere
            query[name] = _format_value(value)
    query[Q_KERNEL] = settings.kernel
    for name, value in settings.kernel_params().items():
        query[name] = _format_value(value)
    query[Q_COMPONENTS] = str(settings.n_components)
    if settings.standardize:
        query[Q_STANDARDIZE] = "1"
    return query


# A check of a link parameter that a wing plugged in at the router owns (the classroom's
# ``class``, ``questions``): its value → what is wrong with it, or None.
LinkCheck = Callable[[str], "str | None"]


def settings_from_query(query: Mapping[str, Any], owned_elsewhere: Mapping[str, LinkCheck]
                        | None = None) -> tuple[Settings, list[str]]:
    """Parse query parameters; every problem becomes a warning and a default.

    Values may be strings or (for repeated parameters) lists of strings; the last
    value wins, as in ``st.query_params``. ``owned_elsewhere`` names the parameters that
    are not settings, each with its check: they are not unknown, and a bad value warns
    here with the others.
    """
    owned_elsewhere = owned_elsewhere or {}
    query = {str(k): (v[-1] if isinstance(v, list | tuple) and v else v) for k, v in query.items()}
    warnings: list[str] = []
    catalogue = datasets.available()

    # A drawing's points name their dataset (a link typed by hand may leave it out).
    dataset = query.get(Q_DATASET, DRAWN if Q_POINTS in query else DEFAULT_DATASET)
    if dataset == CSV:
        warnings.append(_(
            "This link was made with an uploaded CSV file, which links cannot carry; showing "
            "`{default}` instead. Choose '{csv}' in the sidebar and upload it."
        ).format(default=DEFAULT_DATASET, csv=_(CSV_TITLE)))
        dataset = DEFAULT_DATASET
    elif dataset not in catalogue and dataset != DRAWN:
        warnings.append(_(
            "The link asks for dataset {value}, which does not exist; showing `{default}` "
            "instead. Known datasets: {known}."
        ).format(value=quoted(dataset), default=DEFAULT_DATASET, known=", ".join(catalogue)))
        dataset = DEFAULT_DATASET
    settings = default_settings(dataset)

    options = dict(settings.dataset_options)
    if dataset == DRAWN and Q_POINTS in query:
        points, problem = parse_points(query[Q_POINTS])
        if problem:
            warnings.append(_("Link parameter `{name}`: {problem}").format(
                name=Q_POINTS, problem=problem))
        else:
            options[Q_POINTS] = points
    for opt in catalogue[dataset].options if dataset in catalogue else ():
        if opt.name in query:
            value, problem = parse_option(opt, query[opt.name])
            if problem:
                warnings.append(_("Link parameter `{name}`: {problem} Using {default}.").format(
                    name=opt.name, problem=problem, default=opt.default))
            else:
                options[opt.name] = value

    kernel = query.get(Q_KERNEL, settings.kernel)
    if kernel not in KERNELS:
        warnings.append(_(
            "The link asks for kernel {value}, which does not exist; using `{default}`. "
            "Known kernels: {known}."
        ).format(value=quoted(kernel), default=settings.kernel, known=", ".join(KERNELS)))
        kernel = settings.kernel

    params: dict[str, Any] = {}
    for name in Q_PARAMS:
        if name in query:
            value, problem = parse_kernel_param(name, query[name])
            if problem:
                default = getattr(settings, name)
                warnings.append(_("Link parameter `{name}`: {problem} Using {default}.").format(
                    name=name, problem=problem, default=default))
            else:
                params[name] = value

    n_components = settings.n_components
    if Q_COMPONENTS in query:
        value, problem = _parse_int(query[Q_COMPONENTS], COMPONENTS_MIN, COMPONENTS_MAX)
        if problem:
            warnings.append(_("Link parameter `{name}`: {problem} Using {default}.").format(
                name=Q_COMPONENTS, problem=problem, default=n_components))
        else:
            n_components = value

    standardize = settings.standardize
    if Q_STANDARDIZE in query:
        raw = str(query[Q_STANDARDIZE]).strip().lower()
        if raw in _TRUE or raw in _FALSE:
            standardize = raw in _TRUE
        else:
            warnings.append(_("Link parameter `{name}` should be 1 or 0, not {value}.").format(
                name=Q_STANDARDIZE, value=quoted(raw)))

    for name, check in owned_elsewhere.items():
        if name in query and (problem := check(str(query[name]))):
            warnings.append(problem)
    if Q_LANG in query:
        _code, problem = link_language(query[Q_LANG])
        if problem:
            warnings.append(problem)

    known = {Q_DATASET, Q_KERNEL, Q_COMPONENTS, Q_STANDARDIZE, Q_PROJECTOR, Q_LANG, Q_POINTS,
             *Q_PARAMS}
    known |= {Q_LOCK, Q_NOTE, Q_UNLOCK, *owned_elsewhere}
    known |= {name for names in PAGE_PARAMS.values() for name in names}
    known |= {opt.name for info in catalogue.values() for opt in info.options}
    unknown = sorted(set(query) - known)
    if unknown:
        named = ", ".join(quoted(name) for name in unknown[:MAX_NAMED_UNKNOWN])
        more = len(unknown) - MAX_NAMED_UNKNOWN
        if more > 0:
            warnings.append(_("Ignored unknown link parameter(s): {named} and {more} more.")
                            .format(named=named, more=format_number(more, ",")))
        else:
            warnings.append(_("Ignored unknown link parameter(s): {named}.").format(
                named=named))

    settings = replace(
        settings,
        dataset_options=tuple(sorted(options.items())),
        kernel=kernel,
        n_components=n_components,
        standardize=standardize,
        **params,
    )
    return settings, warnings


def parse_option(opt: datasets.Option, raw: Any) -> tuple[Any, str | None]:
    """Parse one dataset option from a string; returns (value, problem or None)."""
    text = str(raw).strip()
    if opt.kind == "choice":
        by_text = {str(choice): choice for choice in opt.choices}
        if text in by_text:
            return by_text[text], None
        return None, _("{value} is not one of {choices}.").format(
            value=quoted(text), choices=", ".join(by_text))
    if opt.kind == "int":
        return _parse_int(text, opt.low, opt.high)
    value, problem = _parse_float(text, opt.low, opt.high)
    return (None, problem) if problem else (float(value), None)


def parse_points(raw: Any) -> tuple[str | None, str | None]:
    """Drawn points from a link: their canonical code, or (None, what was wrong and what is
    shown instead). Nothing of the code is repeated: it is long, and made of random letters."""
    try:
        X, y = drawn.decode(raw)
    except drawn.DrawnError as error:
        return None, _("{error} Showing the {preset} preset instead; draw your own on the "
                       "Draw page.").format(error=error, preset=drawn.DEFAULT_PRESET)
    return drawn.encode(X, y), None


def parse_kernel_param(name: str, raw: Any) -> tuple[float | int | None, str | None]:
    """A kernel parameter (a key of ``KERNEL_PARAMS``) from a link: (value, None), or
    (None, what is wrong) when it is not a number in the parameter's range."""
    param = KERNEL_PARAMS[name]
    if param.integer:
        return _parse_int(raw, int(param.low), int(param.high))
    if not param.log_scale:
        return _parse_float(raw, param.low, param.high)
    value, problem = _parse_float(raw, None, None)
    if problem:
        return None, problem
    if not param.low <= value <= param.high:
        return None, _("{symbol} must be between {low} and {high} ({symbol} > 0), got "
                       "{value}.").format(symbol=param.symbol, low=format_gamma(param.low),
                                          high=format_gamma(param.high),
                                          value=format_gamma(value))
    return value, None


def _parse_int(raw: Any, low: Any, high: Any) -> tuple[int | None, str | None]:
    text = str(raw).strip()
    try:
        value = int(text)
    except ValueError:  # also past Python's 4,300 digits for int(str)
        return None, _("{value} is not a whole number.").format(value=quoted(text))
    return _check_range(value, low, high)


def _parse_float(raw: Any, low: Any, high: Any) -> tuple[float | None, str | None]:
    text = str(raw).strip()
    try:
        value = float(text)
    except ValueError:
        return None, _("{value} is not a number.").format(value=quoted(text))
    if math.isinf(value) and "inf" not in text.lower():  # a number past ±1.8e308
        return None, _("{value} is outside the allowed range [{low}, {high}].").format(
            value=quoted(text), low=_shown_number(low), high=_shown_number(high))
    if not math.isfinite(value):
        return None, _("{value} is not a finite number.").format(value=quoted(text))
    return _check_range(value, low, high)


def _check_range(value, low, high):
    # Compared as they are: float() of an integer past 1e308 overflows (a link with a
    # 400-digit n, seed, degree or components gets this message, not a traceback).
    if (low is not None and value < low) or (high is not None and value > high):
        return None, _("{value} is outside the allowed range [{low}, {high}].").format(
            value=_shown_number(value), low=_shown_number(low), high=_shown_number(high))
    return value, None


def _shown_number(value) -> str:
    """A number for a message: ``:g``, or a huge integer by its length (never its digits)."""
    if value is None:
        return _("no limit")
    if isinstance(value, int) and abs(value) >= 10**15:
        # Exact where str() may spell it (Python stops at 4,300 digits), else estimated.
        digits = (len(str(abs(value))) if value.bit_length() < 14_000
                  else int(value.bit_length() * math.log10(2)) + 1)
        if value < 0:
            return _("a negative integer of about {digits} digits").format(
                digits=format_number(digits, ","))
        return _("an integer of about {digits} digits").format(digits=format_number(digits, ","))
    return f"{value:g}"


def _format_value(value: Any) -> str:
    if isinstance(value, bool):
        return "1" if value else "0"
    if isinstance(value, float):
        return f"{value:.10g}"
    return str(value)


def parse_flag(raw: Any) -> bool | None:
    """'1'/'true'/'yes'/'on' → True, '0'/'false'/'no'/'off' → False, anything else → None."""
    text = str(raw).strip().lower()
    if text in _TRUE:
        return True
    if text in _FALSE:
        return False
    return None


def page_query(page_path: str, query: Mapping[str, Any]) -> dict[str, str]:
    """The parameters of ``query`` that the page at ``page_path`` owns (see PAGE_PARAMS)."""
    return {name: str(query[name]) for name in PAGE_PARAMS.get(page_path, ()) if name in query}


def parse_page_number(raw: Any, *, count: int, not_a_number: str,
                      out_of_range: str) -> tuple[int, str | None]:
    """A page's 1-based number from its link (the tour's step, the Explorer's section).

    Returns (1, problem) when ``raw`` is not a whole number in 1..``count``: ``problem``
    says what was wrong and what the page does instead, in this run's language, from the
    page's two whole sentences, English and marked with ``N_``: ``not_a_number`` with
    ``{value}`` (what the link holds) and ``out_of_range`` with ``{count}`` and ``{value}``.
    """
    text = str(raw).strip()
    try:
        number = int(text)
    except ValueError:
        return 1, _(not_a_number).format(value=quoted(text))
    if not 1 <= number <= count:
        return 1, _(out_of_range).format(count=format_number(count),
                                         value=_shown_number(number))
    return number, None
