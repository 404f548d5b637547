"""Every step of the guided tour, computed at each value of its slider: pure functions.

A step's frames are what the app shows at that setting, computed by the app's own code.
How a step is drawn is declared with the step (``classroom.tour.TourStep.offline``): a step
of the file (``Offline.PAGE``) gets its page's own first screen from its lesson's ``pack``
module (:data:`lecture_pack.pages.PAGES`, :mod:`lessons.common.pack`), the Explorer's too
(:mod:`lessons.explorer.pack`): its Plotly figures as JSON (:func:`figure_json`: numbers to
:data:`SIGNIFICANT` digits, no template; each distinct trace stored once a step), its
sentences and its numbers, with the step's question and its verdicts
(:func:`classroom.questions.build`). ``lecture.js`` draws these figures and computes
nothing. Nothing here is written for the file alone except its sampling: a pack draws at
most :data:`lessons.common.pack.SHOWN_POINTS` points and matrices binned to at most
:data:`lessons.common.pack.HEATMAP_SIDE` cells a side, and says so on screen.
"""

from __future__ import annotations

import base64
import json
import math
from collections.abc import Callable
from dataclasses import replace
from urllib.parse import urlencode

import numpy as np

from classroom import questions
from classroom.questions import catalogue
from classroom.tour import STEPS, Offline, TourStep, differences, offline_steps, total_minutes
from kpca_core import KERNELS, __version__
from lecture_pack import html
from lecture_pack.pages import PAGES
from lessons.common.pack import PackFrame, Slider
from shell.caches import inputs_of, load_data
from shell.state import Settings, dataset_title, format_gamma, params_text, settings_to_query
from words.i18n import _, current_language, format_number
from words.kernel_params import DEGREE, GAMMA_GRID, KERNEL_PARAMS

DECADES = 1.5  # the γ slider spans this many decades either side of the step's γ
DEGREES_ABOVE = 3  # the degree slider runs from 1 to the step's degree plus this
SIGNIFICANT = 4  # digits kept of every number sent to the browser's charts
TOUR_PAGE = "tour"
STEP_PARAM = "step"  # the tour page's link parameter (app_pages/tour.py)
DEFAULT_BASE_URL = "http://localhost:8501"


def slider(step: TourStep) -> tuple[str | None, tuple[float, ...], int]:
    """The step's slider: the parameter it moves ("gamma", "degree" or None), its values
    and the index of the step's own value among them.

    γ moves over the app's 1-2-3-5 grid (``GAMMA_GRID``, the sidebar's steps) across
    about three decades around the step's γ; for the polynomial kernel the degree moves
    instead (with c₀ = 0, γ only rescales K), from 1 to a few above the step's; the
    linear kernel has nothing to move.
    """
    settings = step.settings()
    params = settings.kernel_params()
    if settings.kernel == "poly":
        top = min(int(DEGREE.high), settings.degree + DEGREES_ABOVE)
        values = tuple(float(d) for d in range(int(DEGREE.low), top + 1))
        return "degree", values, values.index(float(settings.degree))
    if "gamma" not in params:
        return None, (), 0
    gamma = float(settings.gamma)
    low, high = gamma / 10**DECADES, gamma * 10**DECADES
    values = tuple(sorted({g for g in GAMMA_GRID if low <= g <= high} | {gamma}))
    return "gamma", values, values.index(gamma)


def at_value(settings: Settings, param: str | None, value: float) -> Settings:
    """``settings`` with the slider's parameter at ``value``."""
    if param is None:
        return settings
    return replace(settings, **{param: int(value) if KERNEL_PARAMS[param].integer else value})


def value_label(param: str | None, value: float) -> str:
    if param is None:
        return ""
    symbol = KERNEL_PARAMS[param].symbol
    return f"{symbol} = {format_gamma(value) if param == 'gamma' else f'{value:g}'}"


def live_links(number: int, step: TourStep, settings: Settings,
               base_url: str = DEFAULT_BASE_URL) -> dict[str, str]:
    """Links back to the live app for when a server is there: the tour at this step
    (``/tour?step=N``) and the step's page at ``settings`` with the page's own parameters."""
    base = base_url.rstrip("/")
    view = {**settings_to_query(settings), **dict(step.page_query)}
    return {"tour": f"{base}/{TOUR_PAGE}?{urlencode({STEP_PARAM: number})}",
            "view": f"{base}/{step.url_path}?{urlencode(view)}"}


def rounded(values) -> list:
    """Numbers for the browser: :data:`SIGNIFICANT` significant digits (NaN → None)."""
    array = np.asarray(values, dtype=float)
    if array.ndim > 1:
        return [rounded(row) for row in array]
    return [None if not math.isfinite(v) else float(f"{v:.{SIGNIFICANT}g}") for v in array]


def _question(step: TourStep, X, y, settings: Settings) -> dict | None:
    question = questions.build(step.check, X, y, settings) if step.check else None
    if question is None:
        return None
    return {"texts": [option.text for option in question.options],
            "right": [option.right for option in question.options],
            "why": [option.why for option in question.options]}


def kept_frames(count: int, anchor: int, most: int) -> list[int]:
    """Which of ``count`` slider values a quick build keeps: both ends and the step's own
    (``anchor``) always, then evenly spaced ones up to ``most`` (at least 3)."""
    if most < 3:
        raise ValueError("a quick build keeps at least 3 values: both ends and the step's own")
    keep = {0, anchor, count - 1}
    for i in np.linspace(0, count - 1, most).round().astype(int):
        if len(keep) < most:
            keep.add(int(i))
    return sorted(keep)


def step_header(number: int, step: TourStep, settings: Settings, n: int,
                param: str | None, values, anchor: int) -> dict:
    """What the file says of a step whatever its page draws: its words, its settings and
    its slider."""
    prompt = catalogue(step.check)[0] if step.check else ""
    kernel = _(KERNELS[settings.kernel].title)
    params = params_text(settings)
    said = {"dataset": dataset_title(settings.dataset), "n": format_number(n, ","),
            "kernel": kernel, "params": params, "components": settings.n_components}
    return {
        "number": number, "title": _(step.title), "question": _(step.question),
        "check": prompt, "look_for": _(step.look_for), "minutes": step.minutes,
        "page": step.url_path,
        "dataset": settings.dataset, "kernel": kernel,
        "settings": (_("{dataset}, n = {n}, {kernel} kernel, {params}, {components} "
                       "components") if params else
                     _("{dataset}, n = {n}, {kernel} kernel, {components} components")
                     ).format(**said),
        "param": param,
        "symbol": KERNEL_PARAMS[param].symbol if param else "",
        "values": list(values),
        "labels": [value_label(param, v) for v in values] if param else [""],
        "anchor": anchor,
    }


def figure_json(figure) -> dict:
    """A page's Plotly figure for the file: its data and layout, numbers to
    :data:`SIGNIFICANT` digits, without its template (the file styles every chart alike)."""
    spec = figure.to_plotly_json()
    layout = dict(spec["layout"])
    layout.pop("template", None)
    return {"data": _rounded_tree(spec["data"]), "layout": _rounded_tree(layout)}


def _rounded_tree(value):
    if isinstance(value, dict) and set(value) <= {"dtype", "bdata", "shape"} and "bdata" in value:
        # Plotly's typed array (base64): back to numbers, rounded like the rest.
        array = np.frombuffer(base64.b64decode(value["bdata"]), dtype=value["dtype"])
        if "shape" in value:
            array = array.reshape([int(n) for n in str(value["shape"]).split(",")])
        return _rounded_tree(array)
    if isinstance(value, dict):
        return {k: _rounded_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        if value and all(isinstance(v, (int, float, np.number)) and not isinstance(v, bool)
                         for v in value):
            return rounded(value)
        return [_rounded_tree(v) for v in value]
    if isinstance(value, np.ndarray):
        return rounded(value) if value.dtype.kind in "fiu" else _rounded_tree(value.tolist())
    if isinstance(value, (float, np.floating)):
        return rounded([value])[0]
    if isinstance(value, np.integer):
        return int(value)
    if isinstance(value, np.bool_):
        return bool(value)
    return value


def _finite_tree(value):
    """Numbers as they are, NaN or ±∞ as None (JSON has neither; the page shows "—")."""
    if isinstance(value, dict):
        return {k: _finite_tree(v) for k, v in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite_tree(v) for v in value]
    if isinstance(value, (float, np.floating)):
        return float(value) if math.isfinite(value) else None
    return value


def lesson_slider(step: TourStep, module, X, y, settings: Settings) -> Slider:
    """The step's slider: the lesson's own choice, or the γ/degree grid of :func:`slider`."""
    if hasattr(module, "slider"):
        return module.slider(X, y, settings)
    param, values, _anchor = slider(step)
    name = KERNEL_PARAMS[param].symbol if param else ""
    return Slider(param, values, _("The slider moves {name}: every chart and sentence on this "
                                   "step was computed at each of its values.").format(name=name)
                  if param else
                  _("No slider: the {kernel} kernel has nothing to move.").format(
                      kernel=_(KERNELS[settings.kernel].title)))


def build_lesson_step(number: int, step: TourStep, module, *, max_frames: int | None = None,
                      base_url: str = DEFAULT_BASE_URL) -> dict:
    """A step whose page is a lesson's own: the lesson's first screen (its pack module's
    figures and sentences) at each value of the step's slider."""
    settings = step.settings()
    inputs = inputs_of(settings)
    data = load_data(settings.dataset, settings.dataset_options)
    X, y = np.asarray(inputs.X, dtype=float), inputs.y
    chosen = lesson_slider(step, module, X, y, settings)
    param, values = chosen.param, chosen.values
    own = getattr(settings, param) if param else None
    anchor = values.index(float(own)) if param else 0
    if max_frames is not None and len(values) > max_frames:
        keep = kept_frames(len(values), anchor, max_frames)
        anchor, values = keep.index(anchor), tuple(values[i] for i in keep)
    at_values = [at_value(settings, param, v) for v in values] if param else [settings]
    made: list[PackFrame] = module.frames(X, y, data, at_values, **dict(step.page_query))
    traces: list[dict] = []  # every trace once: frames share what does not change
    seen: dict[str, int] = {}

    def shared(trace: dict) -> int:
        key = json.dumps(trace, sort_keys=True, separators=(",", ":"))
        if key not in seen:
            seen[key] = len(traces)
            traces.append(trace)
        return seen[key]

    def figure_entry(name: str, figure, wide=None) -> dict:
        spec = figure_json(figure)
        entry = {"id": name, "data": [shared(trace) for trace in spec["data"]],
                 "layout": spec["layout"]}
        if wide is not None:  # drawn instead on a wide screen (lecture.js)
            entry["wide"] = {k: v for k, v in figure_entry(name, wide).items() if k != "id"}
        return entry

    frames = [{
        "figures": [figure_entry(name, figure, frame.wide.get(name))
                    for name, figure in frame.figures],
        "sentences": list(frame.sentences),
        "numbers": _finite_tree(frame.numbers),  # unrounded: the tests compare them
        "question": _question(step, X, y, at),
        "differs": differences(settings, at),
        "links": live_links(number, step, at, base_url),
    } for frame, at in zip(made, at_values, strict=True)]
    return {
        **step_header(number, step, settings, len(X), param, values, anchor),
        "slider_note": chosen.note,
        "n": len(X),
        "traces": traces,
        "frames": frames,
    }


def figure_data(step: dict, figure: dict) -> list[dict]:
    """A lesson figure's traces (its ``data`` holds indices into the step's ``traces``)."""
    return [step["traces"][i] for i in figure["data"]]


def largest_n(steps: tuple[TourStep, ...] | None = None) -> int:
    """The most points of any step's data: the side of the largest n × n matrix a build
    holds (for the server's queue)."""
    chosen = offline_steps() if steps is None else steps
    return max(len(inputs_of(step.settings()).X) for step in chosen)


def build_tour_step(number: int, step: TourStep, **options) -> dict:
    """Step ``number`` of the file, drawn as the step declares (``step.offline``): its
    page's own first screen, from the lesson's pack module (``options``:
    :func:`build_lesson_step`'s)."""
    if step.offline is Offline.PAGE:
        return build_lesson_step(number, step, PAGES[step.lesson].pack, **options)
    raise ValueError(f"step {number} ({step.title!r}) is not in the offline lecture")


def not_in_the_file(numbers: list[int], base_url: str = DEFAULT_BASE_URL) -> dict | None:
    """What the file says after its last step of the tour's optional part when it does not
    hold it (its steps are the lecture's: the optional part's pages have no offline form
    yet), with a link to its first step in the live app; None when nothing is left out."""
    left_out = [n for n, step in enumerate(STEPS, start=1) if step.part and n not in numbers]
    if not left_out:
        return None
    first, last = left_out[0], left_out[-1]
    part = STEPS[first - 1].part
    return {
        "text": _("The tour goes on, in the live app only, with an optional second part: "
                  "{part}, steps {first}–{last}, about {minutes} min. This file does not "
                  "hold it.").format(part=_(part), first=first, last=last,
                                     minutes=total_minutes(part)),
        "link": _("Step {number} in KPCA Lab").format(number=first),
        "href": f"{base_url.rstrip('/')}/{TOUR_PAGE}?{urlencode({STEP_PARAM: first})}",
    }


def assemble(steps: list[dict], base_url: str = DEFAULT_BASE_URL) -> dict:
    """The lecture made of built ``steps``, ready for :func:`lecture_pack.html.write`, in the
    language of this run (the steps were built in it): its code, the file's own fixed
    words (:func:`lecture_pack.html.words_of_the_file`), and what it leaves out of the tour
    (:func:`not_in_the_file`, its link to the app at ``base_url``)."""
    return {
        "version": __version__,
        "language": current_language(),
        "words": html.words_of_the_file(),
        "steps": steps,
        "left_out": not_in_the_file([step["number"] for step in steps], base_url),
    }


def build_pack(*, steps: tuple[TourStep, ...] | None = None, max_frames: int | None = None,
               base_url: str = DEFAULT_BASE_URL,
               built: Callable[[dict], object] = lambda step: None) -> dict:
    """The whole lecture (the steps the tour draws offline unless ``steps`` are given),
    ready for :func:`lecture_pack.html.write`; ``built`` is told each step as it is built
    (the server's build reports its progress with it)."""
    chosen = offline_steps() if steps is None else steps
    done = []
    for step in chosen:
        done.append(build_tour_step(STEPS.index(step) + 1, step, max_frames=max_frames,
                                    base_url=base_url))
        built(done[-1])
    return assemble(done, base_url)
