"""Text the app did not write (a link, an uploaded file's name or cells), shown as text.

Streamlit renders every message, caption and alert as Markdown: a link parameter named
``[Exam answers](https://evil.example/phish)`` would become a clickable link inside the
app's own warning box, ``![t](http://host/pixel.png)`` an image every visitor's browser
loads, a bare ``https://...`` or ``www....`` a link (GitHub-flavoured autolinks),
``:red[...]`` a colour and ``$...$`` a formula. :func:`inert` backslash-escapes every
ASCII punctuation character (CommonMark lets any of them be escaped, and shows it as
itself), which leaves nothing for Markdown or Streamlit's own directives to start from.
Escapes do not stop GFM's literal autolinks, though: remark-gfm finds ``http://``,
``www.`` and ``name@host`` in the text *after* escapes are resolved (seen in Chromium:
``http\\:\\/\\/evil\\.example`` became a link), so :func:`inert` also puts an invisible
WORD JOINER (U+2060) inside each of these starts, which no autolink pattern crosses. It
also puts line breaks and other control characters out of play and shortens what is
long, so that a 100 kB parameter is not repeated in full.

Plain Python, no Streamlit: ``shell.state`` builds its link warnings with it.
Plotly's text (titles, legends, hover) is another language, a subset of HTML:
:func:`shell.figures.plot_text` is its counterpart.
"""

from __future__ import annotations

import re
import unicodedata

# Long enough for any real column, class or file name; a longer value is shortened.
SHOWN_CHARS = 60
_PUNCTUATION = re.compile(r"([!-/:-@\[-`{-~])")  # every ASCII punctuation character
# Where GFM's literal autolinks start (http://, https://, www., the @ of an address):
# a WORD JOINER (invisible, not a word character) at each breaks the pattern.
WORD_JOINER = "\u2060"
_AUTOLINK_STARTS = re.compile(r"(?i)(?<=https:)|(?<=http:)|(?<=www)(?=\.)|(?=@)")
# Bidirectional overrides and isolates: they can make text read backwards on screen.
_BIDI = dict.fromkeys(map(ord, "\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"))


def shorten(value: object, limit: int = SHOWN_CHARS) -> str:
    """``str(value)`` on one line, at most about ``limit`` characters.

    Control characters (line breaks, tabs, NUL) become spaces and bidirectional overrides
    are dropped; a longer text keeps its start and says how long it was.

    Examples
    --------
    >>> shorten("a\\nb")
    'a b'
    >>> shorten("x" * 1000, limit=5)
    'xxxxx… (1,000 characters)'
    """
    text = str(value).translate(_BIDI)
    if len(text) > limit:
        text = f"{text[:limit]}… ({len(text):,} characters)"
    return "".join(" " if unicodedata.category(c) == "Cc" else c for c in text)


def inert(value: object, limit: int = SHOWN_CHARS) -> str:
    """``value`` for Streamlit Markdown: shortened (:func:`shorten`) and shown as typed.

    Examples
    --------
    >>> inert("**x** [y](z)")
    '\\\\*\\\\*x\\\\*\\\\* \\\\[y\\\\]\\\\(z\\\\)'
    >>> inert("http://evil") == "http\\\\:" + WORD_JOINER + "\\\\/\\\\/evil"
    True
    """
    text = _AUTOLINK_STARTS.sub(WORD_JOINER, shorten(value, limit))
    return _PUNCTUATION.sub(r"\\\1", text)


def quoted(value: object, limit: int = SHOWN_CHARS) -> str:
    """:func:`inert` text in quotation marks, for a sentence: “value”."""
    return f"“{inert(value, limit)}”"
