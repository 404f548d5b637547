"""The app's words in the student's language: one language per script run, never per process.

Pure (no Streamlit): the lessons' pure ``sections`` modules and ``classroom/questions.py``
call it. English is the source language: its strings (the msgids) sit in the code, wrapped
in :func:`_`; ``locale/<ll_CC>/LC_MESSAGES/messages.po`` holds the translations, compiled
in memory the first time a language is used (no binary ``.mo`` in git).

Streamlit runs each session's script in its own thread, so the language lives in a
:class:`contextvars.ContextVar` that ``shell.language`` sets at the top of every run (a
fragment's rerun, in a new thread, asks ``shell.language``'s resolver instead):
``gettext.install()`` would put one ``_`` into the builtins of the whole server process,
and one student's choice would reach every other. A thread started by the app begins with
the default (English), never with the language of the session that started it: work
done in the background or cached for every session holds numbers, and the sentences are
formatted where they are shown (CONTRIBUTING.md, "Translating").

The pseudo-locale ``en-XA`` (from a link, ``?lang=en-XA``; not offered in the sidebar)
shows every translated string bracketed and about 30 % longer, so an English sentence
that was never wrapped stands out at a glance, as does a label that cannot grow.
"""

from __future__ import annotations

import gettext
import io
import math
import re
from collections.abc import Callable
from contextvars import ContextVar, Token
from functools import lru_cache
from pathlib import Path

from words.text import quoted

# The languages a student can choose, each by its own name (the sidebar's selector).
LANGUAGES: dict[str, str] = {"en": "English", "zh-CN": "简体中文"}
DEFAULT_LANGUAGE = "en"
# The pseudo-locale: accepted from a link, for developers and tests; no catalog file.
PSEUDO = "en-XA"
ACCEPTED: tuple[str, ...] = (*LANGUAGES, PSEUDO)
LOCALE_DIR = Path(__file__).resolve().parents[1] / "locale"
DOMAIN = "messages"

# No default: a thread that never set it asks the resolver (see current_language).
_language: ContextVar[str] = ContextVar("kpca_language")
# Where a thread that never set the language finds it: shell.language registers the
# session's (a fragment's rerun runs in a new thread of the session, without the full
# run's top); None, or a resolver returning None (a thread of no session): English.
_resolver: Callable[[], str | None] | None = None


def catalog_path(code: str) -> Path:
    """The ``.po`` file of a language (``zh-CN`` → ``locale/zh_CN/LC_MESSAGES/messages.po``)."""
    return LOCALE_DIR / code.replace("-", "_") / "LC_MESSAGES" / f"{DOMAIN}.po"


# --------------------------------------------------------------------------- the language


class _Using:
    """The language set by :func:`use_language`; as a context manager it restores the
    previous one on exit (tests, a helper thread)."""

    def __init__(self, token: Token) -> None:
        self.token = token

    def __enter__(self) -> _Using:
        return self

    def __exit__(self, *exc) -> None:
        _language.reset(self.token)


def use_language(code: str) -> _Using:
    """Set the language of this run (this thread's context) to ``code``, one of
    :data:`ACCEPTED`; anything else raises ``ValueError`` (a link's value is checked by
    :func:`link_language` first)."""
    if code not in ACCEPTED:
        raise ValueError(f"unknown language {code!r}; accepted: {', '.join(ACCEPTED)}")
    return _Using(_language.set(code))


def current_language() -> str:
    """The language of this run: a code of :data:`ACCEPTED`.

    Set by :func:`use_language` in this thread's context; else the registered resolver's
    (:func:`set_resolver`: the session of a fragment's rerun), asked each time and never
    kept: a thread that runs several sessions' work in turn (a pool's) must not carry one
    session's language into the next's; else English (a thread the app started for no
    session: background work).
    """
    try:
        return _language.get()
    except LookupError:
        code = _resolver() if _resolver is not None else None
        return code if code in ACCEPTED else DEFAULT_LANGUAGE


def set_resolver(resolver: Callable[[], str | None] | None) -> None:
    """Register where a thread without a language of its own finds its session's (once,
    by ``shell.language``); the resolver returns None outside a session."""
    global _resolver
    _resolver = resolver


def link_language(raw: object) -> tuple[str | None, str | None]:
    """A link's ``lang=`` value: (its code, None), or (None, what is wrong with it).

    Matched without regard to case or ``_``/``-`` (``zh_cn`` is ``zh-CN``); the message
    names the accepted values and is in the language of this run.
    """
    text = str(raw).strip()
    by_spelling = {code.lower(): code for code in ACCEPTED}
    code = by_spelling.get(text.replace("_", "-").lower())
    if code is not None:
        return code, None
    accepted = ", ".join(f"`{code}` ({name})" for code, name in LANGUAGES.items())
    return None, _("Link parameter `lang`: {value} is not a language of this app; accepted "
                   "values are {accepted}. Showing the page in {language}.").format(
        value=quoted(text), accepted=accepted, language=LANGUAGES.get(current_language(),
                                                                        current_language()))


def browser_language(locale: str | None) -> str:
    """The language for a browser's ``navigator.language`` (``st.context.locale``):
    Chinese written in simplified characters (``zh``, ``zh-CN``, ``zh-Hans*``, ``zh-SG``)
    → ``zh-CN``; anything else, or nothing, → English."""
    tag = (locale or "").replace("_", "-").lower()
    if tag in ("zh", "zh-cn", "zh-sg") or tag.startswith("zh-hans"):
        return "zh-CN"
    return DEFAULT_LANGUAGE


# --------------------------------------------------------------------------- translating


class _Pseudo(gettext.NullTranslations):
    """``en-XA``: the English string, bracketed and padded to ~130 % of its length."""

    def gettext(self, message: str) -> str:
        return pseudo(message)

    def ngettext(self, msgid1: str, msgid2: str, n: int) -> str:
        return pseudo(msgid1 if n == 1 else msgid2)

    def pgettext(self, context: str, message: str) -> str:
        return pseudo(message)


_PAD = "·"


def pseudo(message: str) -> str:
    """The pseudo-locale's form of ``message``: ``[`` + message + padding + ``]``.

    The padding (about 30 % of the length, at least one) comes before the closing bracket
    and after any trailing newlines are set aside, so ``{placeholders}``, Markdown and
    LaTeX inside the message stay exactly as they are.
    """
    body = message.rstrip("\n")
    tail = message[len(body):]
    return f"[{body} {_PAD * max(1, math.ceil(0.3 * len(body)))}]{tail}"


@lru_cache(maxsize=len(ACCEPTED))
def translations(code: str) -> gettext.NullTranslations:
    """The translations of ``code``, built once per process (bounded: one per language).

    English is the source (no catalog); ``en-XA`` is computed; a language of
    :data:`LANGUAGES` has its ``.po`` compiled in memory with Babel (fuzzy entries left
    out: they fall back to English, as a missing one does).
    """
    if code == DEFAULT_LANGUAGE:
        return gettext.NullTranslations()
    if code == PSEUDO:
        return _Pseudo()
    # Babel only where it is needed: a process that never translates (the server's worker,
    # which imports the Scale lesson's experiment) never imports it.
    from babel.messages.mofile import write_mo
    from babel.messages.pofile import read_po

    with catalog_path(code).open("rb") as po:
        catalog = read_po(po, locale=code.replace("-", "_"))
    buffer = io.BytesIO()
    write_mo(buffer, catalog)
    buffer.seek(0)
    return gettext.GNUTranslations(buffer)


def _(message: str) -> str:
    """``message`` (an English string literal) in the language of this run.

    Whole sentences with named placeholders, filled after translating:
    ``_("{n} points").format(n=n)``, never ``_(f"...")`` nor glued fragments. The empty
    string stays empty (gettext would give the catalog's header).
    """
    return translations(current_language()).gettext(message) if message else message


def ngettext(singular: str, plural: str, n: int) -> str:
    """The form of a sentence for the count ``n`` in the language of this run (Chinese has
    one form; English two); ``n`` is still passed to ``.format`` by the caller."""
    return translations(current_language()).ngettext(singular, plural, n)


def pgettext(context: str, message: str) -> str:
    """``message`` in the language of this run, in the sense ``context`` names: one English
    word with two senses is two messages, told apart by their context (the catalog's
    ``msgctxt``), so each is translated on its own: ``pgettext("angle", "degrees")`` (度)
    is not the polynomial's degree (次数). The context is English for translators and
    never shown."""
    return translations(current_language()).pgettext(context, message) if message else message


def N_(message: str) -> str:
    """Marks a string for extraction without translating it (a module-level constant,
    a table's title): translate it where it is shown, with ``_(constant)``."""
    return message


# --------------------------------------------------------------------------- numbers

_BABEL_LOCALE = {"zh-CN": "zh_Hans_CN"}


def format_number(value: float | int, spec: str = "") -> str:
    """``value`` as ``format(value, spec)`` writes it, in the symbols of this run's language.

    The precision is the English code's own (``spec``: ``"g"``, ``".3g"``, ``","``…), so an
    English page is byte-identical to ``f"{value:{spec}}"``; another language swaps the
    decimal point, the thousands separator and the minus sign for its own (Babel's CLDR
    data: Chinese uses the same ".", "," and "-", so its numbers equal the English ones).
    """
    text = format(value, spec)
    code = current_language()
    if code in (DEFAULT_LANGUAGE, PSEUDO):
        return text
    from babel import Locale  # only here: see translations()

    symbols = Locale.parse(_BABEL_LOCALE.get(code, code.replace("-", "_"))).number_symbols[
        "latn"]
    swap = {".": symbols["decimal"], ",": symbols["group"], "-": symbols["minusSign"]}
    # Only inside the number: an exponent's "e-05" keeps its minus as the locale writes it.
    return re.sub(r"[.,-]", lambda m: swap[m.group()], text)


# Languages whose sentences end in a full-width stop and sit side by side without a space.
_NO_SPACE_BETWEEN_SENTENCES = {"zh-CN"}
_LATIN_EDGE = re.compile(r"[A-Za-z0-9γ.%)\]]")


def join_and(items: list[str]) -> str:
    """Items of a sentence's list with a conjunction: ``"a, b and c"`` in English; in
    another language, its own way, as :func:`join_list` writes it."""
    if current_language() not in (DEFAULT_LANGUAGE, PSEUDO):
        return join_list(items)
    return items[0] if len(items) == 1 else f"{', '.join(items[:-1])} and {items[-1]}"


def join_list(items: list[str]) -> str:
    """Items of a sentence's list: ``"a, b, c"`` in English, as the app has always written
    them; in another language, its own way (Babel's CLDR lists: Chinese ``"a、b和c"``)."""
    code = current_language()
    if code in (DEFAULT_LANGUAGE, PSEUDO):
        return ", ".join(items)
    from babel.lists import format_list  # only here: see translations()

    joined = format_list(list(items), locale=_BABEL_LOCALE.get(code, code.replace("-", "_")))
    if code in _NO_SPACE_BETWEEN_SENTENCES and len(items) > 1:
        # CLDR's "a和b" reads run together when an item ends or starts in Latin letters or
        # digits ("0.1和0.3"): a space there, as the course writes "核 PCA".
        head, last = joined[:-len(items[-1]) - 1], items[-1]
        joined = (head + (" " if _LATIN_EDGE.match(head[-1:]) else "") + joined[len(head)]
                  + (" " if _LATIN_EDGE.match(last[:1]) else "") + last)
    return joined


def list_separator() -> str:
    """What stands between two items of a list, as :func:`join_list` writes it: ", " in
    English, "、" in Chinese. For a list the browser joins as it changes (the drawing
    editor's counts per class)."""
    code = current_language()
    if code in (DEFAULT_LANGUAGE, PSEUDO):
        return ", "
    from babel import Locale  # only here: see translations()

    middle = Locale.parse(_BABEL_LOCALE.get(code, code.replace("-", "_"))).list_patterns[
        "standard"]["middle"]
    return middle.replace("{0}", "").replace("{1}", "")


def join_clauses(clauses) -> str:
    """Clauses of one sentence that hold commas of their own, as one (empty ones left out):
    ``"a; b; c"`` in English, ``"a；b；c"`` in Chinese."""
    parts = [clause for clause in clauses if clause]
    if current_language() in _NO_SPACE_BETWEEN_SENTENCES:
        return "；".join(part.strip() for part in parts)
    return "; ".join(parts)


def end_sentence(text: str) -> str:
    """``text``, a sentence made without its full stop (a line of a chart's title, a
    series described), ended with the language's: "." in English, "。" in Chinese."""
    if current_language() in _NO_SPACE_BETWEEN_SENTENCES:
        return text.rstrip() + "。"
    return text + "."


def said_text(sentences) -> str:
    """Sentences the ground layer said (``datasets``' ``said()``: an English message and its
    values, e.g. a dataset's description, why the USPS digits are missing) as one paragraph
    in this run's language; a message without values is shown as written."""
    return join_sentences([_(message).format(**dict(values)) if values else _(message)
                           for message, values in sentences])


def join_sentences(sentences) -> str:
    """Sentences as one paragraph (empty ones left out): a space between them in English,
    none in Chinese, where a sentence ends in 。 and a space after it reads as a gap."""
    parts = [sentence for sentence in sentences if sentence]
    if current_language() in _NO_SPACE_BETWEEN_SENTENCES:
        return "".join(part.strip() for part in parts)
    return " ".join(parts)
