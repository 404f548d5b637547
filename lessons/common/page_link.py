"""A page's own link parameters, followed whenever a link changes them.

A page that keeps widget values in its link (One eigenproblem's ``method``, Novelty
detection's ``normal``) reads the link on its first run. A later link must win too: the
guided tour's "Next →" opens the same page with another ``method``, and a lecturer may paste
a link into a tab that has been on the page before. So the page remembers what it last wrote
to the address bar; a value there that differs from it came from a link, and is read again.
Values absent from the link keep the student's last choice.
"""

from __future__ import annotations

from collections.abc import Mapping

import streamlit as st


def asked_by_link(names: tuple[str, ...], memory: str, *, first: bool) -> dict[str, str]:
    """The parameters among ``names`` a link asks for now: all those in the address bar on
    the page's ``first`` run, then only those that differ from what it last wrote
    (:func:`written`)."""
    query = {name: str(st.query_params[name]) for name in names if name in st.query_params}
    if first:
        return query
    last = st.session_state.get(memory, {})
    return {name: value for name, value in query.items() if last.get(name) != value}


def written(values: Mapping[str, str], memory: str) -> None:
    """Put ``values`` in the address bar (only those that changed) and remember them."""
    for name, value in values.items():
        if st.query_params.get(name) != value:
            st.query_params[name] = value
    st.session_state[memory] = dict(values)
