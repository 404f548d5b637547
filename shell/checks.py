"""Draws a live check (:class:`experiments.checks.Check`): a green tick or a red cross, with
the measured value either way."""

from __future__ import annotations

import streamlit as st

from experiments.checks import Check, check_text
from words.i18n import _


def show_check(check: Check) -> bool:
    """Draw one check (green tick or red cross with its value); returns whether it passed."""
    text = check_text(check)
    if check.passed:
        st.markdown(_(":green[**Check**] · {text}").format(text=text))
    else:
        st.error(_("**Check failed** · {text}").format(text=text), icon=":material/error:")
    return check.passed
