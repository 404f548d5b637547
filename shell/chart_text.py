"""A chart's text alternative, written from the figure's own data.

A screen reader cannot read a Plotly chart (an SVG or a WebGL canvas without labels), so
:func:`shell.charts.show_chart` puts this text, visually hidden, in front of every chart:
its title, each axis's title and the range its data cover, and for each series what it
holds — the number of points of a scatter and where they lie, the values of a short line
or bar series, the size and value range of a heatmap. Pure: a function of the figure, so
it follows whatever the chart draws at any setting.
"""

from __future__ import annotations

import html
import re

import numpy as np
import plotly.graph_objects as go

from words.i18n import _, end_sentence, format_number, join_clauses, join_sentences, ngettext

# A series of at most this many values is read out in full (a spectrum's first
# eigenvalues, a row of errors); a longer one by its range and its ends.
LISTED_VALUES = 12
# Series described one by one; the rest are counted (a 10-class scatter stays readable).
LISTED_SERIES = 12
_TAG = re.compile(r"<[^>]+>")
_BREAK = re.compile(r"<br\s*/?>", re.IGNORECASE)


def plain(text: object) -> str:
    """Plotly's rich text as plain text: each line break ends a sentence ('. ' in English,
    '。' in Chinese), tags dropped, entities read."""
    if text is None:
        return ""
    lines = [html.unescape(_TAG.sub("", part)).strip() for part in _BREAK.split(str(text))]
    lines = [line.rstrip(".。") for line in lines if line]
    return join_sentences([end_sentence(line) for line in lines[:-1]] + lines[-1:])


def number(value: float) -> str:
    """Three significant figures, with a true minus sign (as the charts' ticks show)."""
    if not np.isfinite(value):
        return _("not a number") if np.isnan(value) else ("∞" if value > 0 else "−∞")
    text = f"{value + 0.0:.3g}"  # + 0.0: no "−0"
    if "e" in text:
        mantissa, exponent = text.split("e")
        text = f"{mantissa} × 10^{int(exponent)}"
    return text.replace("-", "−")


def _numbers(values) -> np.ndarray | None:
    """``values`` as finite floats, or None when they are not numbers (categories)."""
    if values is None:
        return None
    try:
        array = np.asarray(values, dtype=float).ravel()
    except (TypeError, ValueError):
        return None
    return array[np.isfinite(array)]


def _span(values: np.ndarray) -> str:
    low, high = values.min(), values.max()
    return number(low) if low == high else _("{low} to {high}").format(low=number(low),
                                                                          high=number(high))


def _axis_title(fig: go.Figure, axis: str, trace_axis: str | None) -> str:
    """The title of the axis a trace is drawn on ('x', 'x2', …), as plain text."""
    name = (trace_axis or axis).replace(axis, f"{axis}axis", 1)
    layout_axis = getattr(fig.layout, name, None) if name else None
    return plain(layout_axis.title.text) if layout_axis is not None else ""


def _labelled(title: str, axis: str) -> str:
    return f"{axis} ({title})" if title else axis


def _listed(labels, values: np.ndarray) -> str:
    """'a: 1, b: 2' for a short series, its range and ends for a long one."""
    if len(values) <= LISTED_VALUES:
        if labels is not None and len(labels) == len(values):
            pairs = zip(labels, values, strict=True)
            return ", ".join(f"{plain(label)}: {number(v)}" for label, v in pairs)
        return ", ".join(number(v) for v in values)
    return _("{count} values from {span}, first {first}, last {last}").format(
        count=format_number(len(values)), span=_span(values), first=number(values[0]),
        last=number(values[-1]))


def _series(fig: go.Figure, trace) -> str:
    """One sentence about one trace."""
    name = plain(getattr(trace, "name", None))
    kind = trace.type
    if kind in ("scatter", "scattergl", "bar"):
        x, y = _numbers(trace.x), _numbers(trace.y)
        x_title = _axis_title(fig, "x", trace.xaxis)
        y_title = _axis_title(fig, "y", trace.yaxis)
        lines = kind == "bar" or "lines" in (trace.mode or "") and "markers" not in (
            trace.mode or "")
        if y is None or not len(y):
            return _("{name}: no values").format(name=name or kind)
        if lines:
            labels = trace.x if x is None or len(x) != len(y) else [number(v) for v in x]
            sentence = (_("{name} (bars, {y} against {x}): {values}") if kind == "bar"
                        else _("{name} (line, {y} against {x}): {values}"))
            return sentence.format(
                name=name or (_("bars") if kind == "bar" else _("line")),
                y=_labelled(y_title, "y"), x=_labelled(x_title, "x"),
                values=_listed(labels, y))
        where = f"{_labelled(x_title, 'x')} {_span(x)}, " if x is not None and len(x) else ""
        return ngettext("{name}: {n} point, {where}{y} {span}",
                        "{name}: {n} points, {where}{y} {span}", len(y)).format(
            name=name or _("points"), n=format_number(len(y)), where=where,
            y=_labelled(y_title, "y"), span=_span(y))
    if kind == "scatter3d":
        axes = [(a, _numbers(getattr(trace, a))) for a in ("x", "y", "z")]
        count = max((len(v) for _, v in axes if v is not None), default=0)
        spans = ", ".join(f"{a} {_span(v)}" for a, v in axes if v is not None and len(v))
        return _("{name}: {count} points in 3-D, {spans}").format(
            name=name or _("points"), count=format_number(count), spans=spans)
    if kind == "heatmap":
        z = np.asarray(trace.z, dtype=float) if trace.z is not None else np.empty((0, 0))
        finite = z[np.isfinite(z)]
        shape = " × ".join(str(s) for s in z.shape) if z.ndim == 2 else str(z.size)
        if finite.size:
            return _("{name}: a {shape} grid, values from {span}").format(
                name=name or _("heatmap"), shape=shape, span=_span(finite))
        return _("{name}: a {shape} grid").format(name=name or _("heatmap"), shape=shape)
    if kind == "image":
        return _("{name}: an image").format(name=name or _("image"))
    if kind == "surface":
        z = _numbers(trace.z)
        if z is not None and len(z):
            return _("{name}: a surface, height {span}").format(name=name or _("surface"),
                                                                span=_span(z))
        return _("{name}: a surface").format(name=name or _("surface"))
    return _("{name}: a {kind} series").format(name=name or kind, kind=kind)


def describe(fig: go.Figure) -> str:
    """The chart's text alternative: title, then one sentence per series (see the module)."""
    title = plain(fig.layout.title.text)
    shown = [t for t in fig.data if t.visible is not False and t.visible != "legendonly"]
    parts = [_("Chart: {title}.").format(title=title) if title else _("Chart.")]
    labels = [plain(a.text) for a in fig.layout.annotations if a.text]  # subplot titles, notes
    if labels:
        parts.append(_("Labels on the chart: {labels}.").format(labels=join_clauses(labels)))
    parts += [end_sentence(_series(fig, trace)) for trace in shown[:LISTED_SERIES]]
    if len(shown) > LISTED_SERIES:
        parts.append(_("And {n} more series.").format(
            n=format_number(len(shown) - LISTED_SERIES)))
    return join_sentences(parts)
