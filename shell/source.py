"""Show the ``kpca_core`` code a page demonstrates (after Streamlit's hello ``show_code``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import streamlit as st

from words.i18n import N_, _


def show_source(*functions: Callable, label: str = N_("The code behind this page")) -> None:
    """An expander with the source of each function, so students can read the maths as code.

    Lazy: the code is sent only once the expander is opened (opening it reruns the page,
    from its caches). Highlighting long code blocks is one of the costliest things a
    browser does on these pages, and most visitors never open them.
    """
    # The key is the English label's: the expander stays open when the language changes.
    with st.expander(_(label), icon=":material/code:", key=source_key(label),
                     on_change="rerun") as expander:
        if not expander.open:
            return
        for function in functions:
            try:
                source = inspect.getsource(function)
            except (OSError, TypeError):  # e.g. a C extension: nothing to show
                continue
            st.markdown(f"`{function.__module__}.{function.__qualname__}`")
            st.code(source, language="python")


def source_key(label: str) -> str:
    """The widget key of the source expander labelled ``label`` (one per label on a page)."""
    return f"source_open_{label}"
