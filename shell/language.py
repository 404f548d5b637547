"""The session's language: chosen once per run, before anything is drawn (``app.py``).

In order: ``?lang=`` in the link (read on the session's first run, like every link
parameter; a bad value is warned about with the others by ``shell.state``), else what the
student chose in the sidebar's selector, else the browser's language
(``st.context.locale``, ``navigator.language``), else English. The choice is kept in the
session's state; :func:`choose_language` sets it for this run's thread
(``words.i18n.use_language``), so one session's language never reaches another's.
"""

from __future__ import annotations

import streamlit as st
from streamlit.runtime.scriptrunner import get_script_run_ctx

from shell.state import Q_LANG
from words import i18n
from words.i18n import _

# The language from the link or the selector (absent: the browser decides).
_CHOSEN = "_kpca_language"
_LINK_READ = "_kpca_language_link_read"
# The selector's widget key (not a "w_" settings key: it is not part of the view's cache key).
K_LANGUAGE = "language_choice"


def _browser_language() -> str:
    return i18n.browser_language(st.context.locale)


def _session_language() -> str | None:
    """The language of the session this thread runs for (None: a thread of no session).

    A fragment's rerun (``st.fragment``) starts in a new script thread without running the
    app's top, so ``choose_language`` has not set it there: ``words.i18n`` asks this."""
    if get_script_run_ctx(suppress_warning=True) is None:
        return None
    return st.session_state.get(_CHOSEN) or _browser_language()


i18n.set_resolver(_session_language)


def choose_language() -> str:
    """Decide this run's language and set it; returns its code (one of ``i18n.ACCEPTED``)."""
    ss = st.session_state
    if _LINK_READ not in ss:
        ss[_LINK_READ] = True
        if Q_LANG in st.query_params:
            code, _problem = i18n.link_language(st.query_params[Q_LANG])
            if code is not None:  # else: shell.state warns, and the browser decides
                ss[_CHOSEN] = code
    code = ss.get(_CHOSEN) or _browser_language()
    i18n.use_language(code)
    return code


def link_params() -> dict[str, str]:
    """``lang`` for the address bar, when the language is not the one the browser alone
    would give: a shared link opens in the language it was made in, and a plain link in
    the reader's own."""
    code = i18n.current_language()
    return {} if code == _browser_language() else {Q_LANG: code}


def _chosen() -> None:
    st.session_state[_CHOSEN] = st.session_state[K_LANGUAGE]


def language_selector() -> None:
    """The sidebar's language selector: each language by its own name (the pseudo-locale
    only while a link has chosen it)."""
    code = i18n.current_language()
    options = [*i18n.LANGUAGES] + ([code] if code not in i18n.LANGUAGES else [])
    st.session_state[K_LANGUAGE] = code  # before the widget: it shows this run's language
    st.selectbox(
        _("Language"),
        options,
        format_func=lambda option: i18n.LANGUAGES.get(option, option),
        key=K_LANGUAGE,
        on_change=_chosen,
        help=_("The language of every page, for you alone; a link you copy keeps it."),
        filter_mode=None,  # no typing: a tap on a phone opens the list, not the keyboard
    )
