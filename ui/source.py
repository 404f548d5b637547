"""Show the ``kpca_core`` code a page demonstrates (after Streamlit's hello ``show_code``)."""

from __future__ import annotations

import inspect
from collections.abc import Callable

import streamlit as st


def show_source(*functions: Callable, label: str = "The code behind this page") -> None:
    """An expander with the source of each function, so students can read the maths as code."""
    with st.expander(label, icon=":material/code:"):
        for function in functions:
            try:
                source = inspect.getsource(function)
            except (OSError, TypeError):  # e.g. a C extension: nothing to show
                continue
            st.markdown(f"`{function.__module__}.{function.__qualname__}`")
            st.code(source, language="python")
