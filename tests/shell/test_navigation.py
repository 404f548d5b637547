"""The menu's pages (shell/navigation.py): made once per session and language, since
making a ``st.Page`` looks its script up on the disk and the router names every page on
every run; kept apart per session (``st.navigation`` marks the page it returns)."""

from __future__ import annotations

from shell.language import K_LANGUAGE
from shell.navigation import PAGES_KEY
from shell.registry import menu
from tests.support.apptest import assert_clean, open_app


def _titles(pages) -> list[str]:
    return [page.title for section in pages.values() for page in section]


def test_a_session_keeps_its_pages_until_its_language_changes():
    at = open_app("explorer")
    assert_clean(at)
    words, pages = at.session_state[PAGES_KEY]
    assert [len(section) for section in pages.values()] == [
        len(items) for items in menu().values()]
    assert "Explorer" in _titles(pages)
    at.slider(key="w_components").set_value(3).run()  # another run of the same session
    assert at.session_state[PAGES_KEY][1] is pages
    at.selectbox(key=K_LANGUAGE).set_value("zh-CN").run()
    assert_clean(at)
    zh_words, zh_pages = at.session_state[PAGES_KEY]
    assert zh_pages is not pages and zh_words != words
    assert "Explorer" not in _titles(zh_pages)
    assert [p.url_path for s in zh_pages.values() for p in s] == [
        p.url_path for s in pages.values() for p in s]


def test_two_sessions_never_share_a_page():
    first, second = open_app("explorer"), open_app("explorer")
    ours = {id(p) for s in first.session_state[PAGES_KEY][1].values() for p in s}
    theirs = {id(p) for s in second.session_state[PAGES_KEY][1].values() for p in s}
    assert not ours & theirs
