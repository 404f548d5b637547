"""A link is untrusted input: whatever it holds ends as a warning and a default, shown as
inert text (never a link, an image or formatting), shortened, and never as a traceback.

Function level: a few hundred generated links through every parser of link parameters;
AppTest: the issue's links on the Explorer and the tour, read off the warnings' Markdown.
The browser test (test_link_safety_browser.py) checks the rendered page itself.
"""

from __future__ import annotations

import random
import re

import pytest

import datasets
from classroom.tour import parse_step
from lessons.explorer.steps import parse_section
from lessons.explorer.view_link import view_from_query
from shell import state
from tests.support.apptest import assert_clean, open_app
from tests.support.markdown import as_read, unescaped
from words.text import SHOWN_CHARS, inert, quoted, shorten

PHISH = "[Exam answers](https://evil.example/phish)"
PIXEL = "x`![t](http://host/pixel.png)`"
HUGE = "9" * 400  # past float's 1e308
HUGER = "7" * 5000  # past Python's 4,300 digits for int(str)
PAYLOADS = [
    PHISH, PIXEL, "<img src=x onerror=alert(1)>", "**bold**", "=1+1", "-cmd", "@SUM(A1)",
    ":red[alarm]", "$x^2$", "www.evil.example", "https://evil.example", "a@evil.example",
    "line\n\n# heading", "tab\there", "\u202eevil", "x" * 100_000, HUGE, "-" + HUGE, HUGER,
    "1e400", "-1e400", "nan", "inf", "", " ", "0x10", "1_000", "١٢", "3.0", "1e-400",
]
ASCII_PUNCTUATION = re.compile(r"[!-/:-@\[-`{-~]")


# ------------------------------------------------------------------ words.text


@pytest.mark.parametrize("payload", PAYLOADS)
def test_inert_text_leaves_markdown_nothing_to_start_from(payload):
    shown = inert(payload)
    # Every ASCII punctuation character is escaped (CommonMark shows an escaped one as
    # itself): no link, image, emphasis, code span, HTML, autolink or directive can open.
    assert not ASCII_PUNCTUATION.search(unescaped(shown))
    # ... and what remains, read back, is the (shortened) text on one line.
    assert as_read(shown) == shorten(payload)
    assert "\n" not in shown and "\u202e" not in shown


# GFM's literal autolinks (remark-gfm, which Streamlit uses), matched on the text after
# escapes are resolved: a scheme, "www." or an e-mail address.
GFM_AUTOLINKS = re.compile(r"(https?://|www(?=\.))[-.\w]+|[-.\w+]+@[-\w]+(\.[-\w]+)+",
                           re.IGNORECASE | re.ASCII)


@pytest.mark.parametrize("text", [
    PHISH, PIXEL, "www.evil.example", "WWW.EVIL.EXAMPLE/x", "https://evil.example",
    "HTTP://evil.example", "a@evil.example", "mailto:a@evil.example", "x http://a.b y www.c.d",
])
def test_inert_text_breaks_every_literal_autolink(text):
    assert GFM_AUTOLINKS.search(text)  # each would be a link as typed
    resolved = re.sub(r"\\(.)", r"\1", inert(text))  # what remark-gfm searches
    assert not GFM_AUTOLINKS.search(resolved), resolved
    assert as_read(inert(text)) == text


def test_shorten_keeps_the_start_and_says_how_long_the_text_was():
    assert shorten("x" * 100_000) == "x" * SHOWN_CHARS + "… (100,000 characters)"
    assert shorten("setosa") == "setosa"
    assert len(quoted("y" * 100_000)) < 2 * SHOWN_CHARS + 60


# ------------------------------------------------------------------ function level


def _random_link(rng: random.Random) -> dict[str, object]:
    names = ["dataset", "kernel", "gamma", "degree", "coef0", "components", "std", "n",
             "noise", "seed", "factor", "split", "projector", "step", "section", "view",
             "axes", PHISH, "x`y", "<b>"]
    values = [*PAYLOADS, "1", "2", "5", "0", "-1", "20", "usps", "poly", "circles", "3d",
              "1,2", "2,3,4", "0.3", "1e-6", "10000"]
    query: dict[str, object] = {}
    for _ in range(rng.randint(1, 6)):
        name = rng.choice(names)
        value = rng.choice(values)
        query[name] = [value, rng.choice(values)] if rng.random() < 0.1 else value
    return query


def _assert_safe_warning(warning: str) -> None:
    assert len(warning) < 1000, warning[:200]  # shortened: never a 100 kB value in full
    assert HUGE[:SHOWN_CHARS + 1] not in warning
    # Markup can only start from unescaped punctuation; the templates' own hold none of these.
    for markup in ("](", "![", "<", "**", "://", "www.", "$", ":red"):
        assert markup not in unescaped(warning), (markup, warning)


def test_three_hundred_generated_links_end_in_settings_and_inert_warnings():
    rng = random.Random(27)
    catalogue = datasets.available()
    for _ in range(300):
        query = _random_link(rng)
        settings, warnings = state.settings_from_query(query)
        for warning in warnings:
            _assert_safe_warning(warning)
        # The settings are always usable: each option within its range.
        assert settings.dataset in catalogue
        for opt in catalogue[settings.dataset].options:
            value = settings.options[opt.name]
            if opt.kind == "choice":
                assert value in opt.choices
            else:
                assert opt.low <= value <= opt.high, (opt.name, value)
        assert state.COMPONENTS_MIN <= settings.n_components <= state.COMPONENTS_MAX
        assert state.DEGREE_MIN <= settings.degree <= state.DEGREE_MAX
        assert state.GAMMA_MIN <= settings.gamma <= state.GAMMA_MAX
        _, view_warnings = view_from_query(query)
        for raw in (query.get("step", "1"), query.get("section", "1")):
            raw = raw[-1] if isinstance(raw, list) else raw
            for parse in (parse_step, parse_section):
                number, problem = parse(raw)
                assert number >= 1
                if problem:
                    view_warnings.append(problem)
        for warning in view_warnings:
            _assert_safe_warning(warning)


NUMERIC_PARAMETERS = ["n", "seed", "degree", "components", "gamma", "coef0", "noise",
                      "factor"]


@pytest.mark.parametrize("raw", [HUGE, "-" + HUGE, HUGER, "1e400", "-1e400", "1e-400"])
@pytest.mark.parametrize("name", NUMERIC_PARAMETERS)
def test_every_numeric_parameter_takes_any_number_without_a_traceback(name, raw):
    query = {"dataset": "circles", "kernel": "poly", name: raw}
    settings, warnings = state.settings_from_query(query)
    for warning in warnings:
        _assert_safe_warning(warning)
    if raw != "1e-400":  # 1e-400 is 0.0: a valid noise, for instance
        assert warnings and name in warnings[0], warnings
    if raw.lstrip("-") == HUGE:
        said = ("integer of about 400 digits" if name in ("n", "seed", "degree", "components")
                else "outside the allowed range")
        assert said in warnings[0], warnings


@pytest.mark.parametrize("dataset", list(datasets.available()))
def test_every_dataset_option_takes_a_huge_integer_with_a_range_message(dataset):
    for opt in datasets.available()[dataset].options:
        if opt.kind == "choice":
            continue
        value, problem = state.parse_option(opt, HUGE)
        assert value is None and "outside the allowed range" in problem
        assert "integer of about 400 digits" in problem or opt.kind == "float"


def test_unknown_parameters_are_named_in_quotes_a_few_at_a_time():
    query = {PHISH: "1", **{f"p{i}": "1" for i in range(20)}}
    _, warnings = state.settings_from_query(query)
    (warning,) = warnings
    assert inert(PHISH) in warning and "and 16 more" in warning


# ------------------------------------------------------------------ AppTest


def _warnings(at) -> list[str]:
    return [w.value for w in at.warning]


def test_a_phishing_parameter_name_is_shown_as_text_on_the_explorer():
    at = open_app("explorer", {PHISH: "1", "kernel": PIXEL, "n": HUGE})
    assert_clean(at)
    text = "\n".join(_warnings(at))
    assert inert(PHISH) in text and inert(PIXEL) in text
    assert "integer of about 400 digits" in text
    for markup in ("](", "![", "http://", "https://"):
        assert markup not in unescaped(text), markup
    circles_n = next(o.default for o in datasets.available()["circles"].options if o.name == "n")
    assert at.query_params["n"] == str(circles_n)  # the default, not the link's


def test_a_tour_step_from_a_link_is_shown_as_text():
    at = open_app("tour", {"step": PIXEL})
    assert_clean(at)
    (warning,) = _warnings(at)
    assert inert(PIXEL) in warning and "![" not in unescaped(warning)
    at = open_app("tour", {"step": HUGE})
    assert_clean(at)
    assert "integer of about 400 digits" in _warnings(at)[0]


def test_explorer_view_parameters_from_a_link_are_shown_as_text():
    at = open_app("explorer", {"view": PHISH, "axes": "x" * 100_000, "section": HUGE})
    assert_clean(at)
    text = "\n".join(_warnings(at))
    assert inert(PHISH.lower()) in text and "100,000 characters" in as_read(text)
    assert len(text) < 3000
    assert "](" not in unescaped(text)
