"""Reading the Markdown the app sends: what a person sees of text made inert by
``words.text.inert`` (backslash escapes), and what markup could still start from."""

from __future__ import annotations

import re

from words.text import WORD_JOINER

_ESCAPE = re.compile(r"\\([!-/:-@\[-`{-~])")


def as_read(markdown: str) -> str:
    """The text as shown: each backslash escape of an ASCII punctuation character shows
    that character (CommonMark); the word joiners that break autolinks show nothing."""
    return _ESCAPE.sub(r"\1", markdown).replace(WORD_JOINER, "")


def unescaped(markdown: str) -> str:
    """The Markdown without its escaped characters: what links, images, emphasis or code
    spans could open from."""
    return _ESCAPE.sub("", markdown)
