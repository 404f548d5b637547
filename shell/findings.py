"""Sentences a page computes from the numbers it shows, published under a name.

A lesson that interprets its picture (the K blocks, the best γ, what the components do)
publishes that sentence here; whoever frames the page may quote it (the guided tour shows
a step's published sentences as its answer, so the answer on the projector is the page's
own live reading, never a stored claim). Each page names its own sentences; the tour's
step table says which of them a step quotes.

They are kept for the page that ran last: the router starts each run of a page with none
(:func:`start_run`), whatever else is plugged in.
"""

from __future__ import annotations

import streamlit as st

_KEY = "_kpca_findings"  # (the page's URL path, {name: sentence})


def start_run(page_path: str) -> None:
    """Forget the previous run's sentences (the router, before ``page_path`` runs)."""
    st.session_state[_KEY] = (page_path, {})


def publish(name: str, text: str) -> None:
    """Keep ``text``, a sentence the page computed from its numbers, under ``name``."""
    st.session_state.setdefault(_KEY, ("", {}))[1][name] = text


def published(page_path: str) -> dict[str, str]:
    """The sentences this run's page published, by name (none if another page ran)."""
    page, said = st.session_state.get(_KEY, ("", {}))
    return dict(said) if page == page_path else {}
