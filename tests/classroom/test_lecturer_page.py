"""The lecturer's page (classroom/lecturer.py, AppTest): one class per session, the
lecturer passcode (environment variable or Streamlit secret), the door (close joining,
remove late joiners) and the sign of life the lecturer's pages give the class."""

from __future__ import annotations

import re
import time
from urllib.parse import parse_qsl, urlsplit

import pytest

from classroom import join, lecturer
from classroom.store import STORE
from shell.language import K_LANGUAGE
from tests.support.apptest import assert_clean, open_app, sent_text
from words.i18n import _, use_language


def code_shown(at) -> str:
    text = "\n".join(m.value for m in at.markdown)
    return re.search(r"Class code\n# ((?:\w ){5}\w)", text).group(1).replace(" ", "")


def start(at):
    return at.button(key="tally_start").click().run()


@pytest.fixture(autouse=True)
def no_passcode(monkeypatch):
    monkeypatch.delenv(lecturer.PASSCODE_ENV, raising=False)


def test_a_session_runs_one_class_and_its_sidebar_keeps_it_alive():
    at = open_app("class_tally")
    assert_clean(at)
    code = code_shown(start(at))
    # A second click (a double click, a script) gives the same class, not a second one.
    key = at.session_state[lecturer._CLASS][1]
    assert STORE.open_class(at.session_state[lecturer._LECTURER]) == (code, key)
    # On another page the sidebar says which class runs: each redraw is a sign of life.
    at.switch_page("app_pages/explorer.py").run()
    assert_clean(at)
    assert any(f"You run class **{code}**: 0 joined." in m.value for m in at.sidebar.markdown)
    STORE.close_class(code, key)


def test_the_lecturer_closes_the_door_and_removes_the_late_joiners():
    at = open_app("class_tally")
    code = code_shown(start(at))
    key = at.session_state[lecturer._CLASS][1]
    for i in range(3):
        STORE.answer(code, f"script{i}", lecturer.tally_questions()[0][0], 0, False)
    at.run()
    assert any("**3** students joined (3 in the last minute)" in m.value for m in at.markdown)
    assert at.button(key="tally_remove").label == "Remove the 3 who joined in the last minute"
    at.button(key="tally_remove").click().run()
    assert_clean(at)
    assert any("Removed 3 students who joined in the last minute" in s.value
               for s in at.success)
    assert STORE.students(code, key) == 0
    at.toggle(key="tally_joining").set_value(False).run()
    assert STORE.status(code, key).joining_open is False
    assert any("joining is closed" in m.value for m in at.markdown)
    STORE.close_class(code, key)


def test_with_a_passcode_only_lecturers_start_classes(monkeypatch):
    monkeypatch.setenv(lecturer.PASSCODE_ENV, "four long random words")
    at = open_app("class_tally")
    at.text_input(key="tally_passcode").input("four long random")
    start(at)
    assert any("not this server's lecturer passcode" in w.value for w in at.warning)
    assert lecturer._CLASS not in at.session_state
    at.text_input(key="tally_passcode").input("four long random words")
    code = code_shown(start(at))
    assert STORE.status(code, at.session_state[lecturer._CLASS][1]).students == 0
    STORE.close_class(*at.session_state[lecturer._CLASS])


def test_the_passcode_can_be_a_streamlit_secret():
    from streamlit.testing.v1 import AppTest

    from tests.support.apptest import APP, TIMEOUT

    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.secrets[lecturer.PASSCODE_SECRET] = "from the secrets"
    at.switch_page("app_pages/class_tally.py")
    at.run()
    at.text_input(key="tally_passcode").input("a guess")
    start(at)
    assert any("not this server's lecturer passcode" in w.value for w in at.warning)
    at.text_input(key="tally_passcode").input("from the secrets")
    code_shown(start(at))
    STORE.close_class(*at.session_state[lecturer._CLASS])


def test_the_join_link_opens_the_phones_in_the_lecturers_language():
    """Issue 48: the QR code's link carried no language, so a Chinese lecture's phones
    opened in their browser's (English); the student may still choose another."""
    at = open_app("class_tally", {"lang": "zh-CN"})
    start(at)
    assert_clean(at)
    code, key = at.session_state[lecturer._CLASS]
    link = next(c.value for c in at.code if "/tour?" in c.value)
    assert link.endswith(f"/tour?class={code}&lang=zh-CN")
    phone = open_app("tour", dict(parse_qsl(urlsplit(link).query)))
    assert_clean(phone)
    with use_language("zh-CN"):
        chinese = _("Guided tour")
    assert chinese != "Guided tour" and phone.title[0].value == chinese
    assert phone.session_state[join._CODE] == code  # in the class
    phone.selectbox(key=K_LANGUAGE).set_value("en").run()  # the student's own choice
    assert phone.title[0].value == "Guided tour"
    STORE.close_class(code, key)


# ------------------------------------------------ nobody locks a lecturer out (issue 49)


def test_wrong_passcodes_are_refused_for_a_growing_while_and_never_echoed(monkeypatch):
    monkeypatch.setenv(lecturer.PASSCODE_ENV, "four long random words")
    now = time.monotonic()
    monkeypatch.setattr(STORE, "_clock", lambda: now)  # the attempts at one moment
    at = open_app("class_tally")
    for guess in ("guess one", "guess two", "guess three"):
        at.text_input(key="tally_passcode").input(guess)
        start(at)
        assert any("not this server's lecturer passcode" in w.value for w in at.warning)
        assert at.text_input(key="tally_passcode").value == ""  # the field is emptied
        assert guess not in sent_text(at)
    # The fourth attempt within the window is not heard, even with the right passcode.
    at.text_input(key="tally_passcode").input("four long random words")
    start(at)
    assert [w.value for w in at.warning] == [
        "Too many wrong passcodes from here: try again in 2 s."]
    assert lecturer._CLASS not in at.session_state
    assert "four long random words" not in sent_text(at)
    # Another lecturer's session (here, on this machine: no address known) is not held up.
    other = open_app("class_tally")
    other.text_input(key="tally_passcode").input("four long random words")
    code_shown(start(other))
    STORE.close_class(*other.session_state[lecturer._CLASS])


def test_one_address_without_the_passcode_runs_two_classes(monkeypatch):
    monkeypatch.setattr(lecturer, "client_address", lambda: "203.0.113.9", raising=False)
    opened = []
    try:
        for _ in range(2):  # a script's tabs, each a session of its own
            at = start(open_app("class_tally"))
            code_shown(at)
            opened.append(at.session_state[lecturer._CLASS])
        third = start(open_app("class_tally"))
        assert_clean(third)
        assert [w.value for w in third.warning] == [
            "This address already runs 2 classes, the most one address may run without the "
            "lecturer passcode; end one of them first (End the class, on its Class tally)."]
        assert lecturer._CLASS not in third.session_state
    finally:
        for code, key in opened:
            STORE.close_class(code, key)


# ------------------------------------------- the class in the browser's cookie (issue 49)
def cookie_written(at) -> str | None:
    """What the last run's script put in the lecturer cookie (None: no script sent)."""
    found = re.search(r'"kpca_lecturer=([^;]*); Path=/; Max-Age=(\d+); SameSite=Strict"',
                      sent_text(at))
    return None if found is None else found[1] if found[2] != "0" else ""


def new_session(monkeypatch, cookie: str, page: str = "class_tally", query=None):
    """A new session of a browser that holds the lecturer cookie ``cookie`` (a reload, a
    websocket reconnected to another replica or to a restarted server)."""
    monkeypatch.setattr(lecturer, "browser_cookie", lambda: cookie)
    return open_app(page, query)


def test_a_new_session_of_the_lecturers_browser_gets_its_class_back(monkeypatch):
    monkeypatch.setenv(lecturer.PASSCODE_ENV, "four long random words")
    at = open_app("class_tally")
    at.text_input(key="tally_passcode").input("four long random words")
    code = code_shown(start(at))
    key = at.session_state[lecturer._CLASS][1]
    assert cookie_written(at) == f"{code}.{key}"  # kept by the browser, not in the address
    assert key not in str(at.query_params)
    # A reload: the same class, without the passcode, and no second class opened.
    again = new_session(monkeypatch, f"{code}.{key}")
    assert_clean(again)
    assert code_shown(again) == code
    assert cookie_written(again) is None  # the browser already holds it
    assert not again.warning
    # On any page (a tour step reconnected elsewhere): the sidebar says the class runs.
    elsewhere = new_session(monkeypatch, f"{code}.{key}", "explorer")
    assert any(f"You run class **{code}**: 0 joined." in m.value
               for m in elsewhere.sidebar.markdown)
    # Ending it clears the cookie.
    again.button(key="tally_end").click().run()
    assert cookie_written(again) == ""
    assert again.button(key="tally_start").label == "Start a class"


def test_a_lecturer_whose_class_is_gone_is_told_it_was_lost(monkeypatch):
    monkeypatch.setenv(lecturer.PASSCODE_ENV, "four long random words")
    code, key = STORE.open_class(lecturer.new_token())
    STORE.close_class(code, key)  # as a restart of a server that kept it in memory would
    at = new_session(monkeypatch, f"{code}.{key}")
    assert_clean(at)
    assert [w.value for w in at.warning] == [
        f"Your class {code} was lost: it has ended, or the server restarted (a class kept in "
        "the server's memory does not survive a restart). Start a new class: the students "
        "join it with its new code."]
    assert cookie_written(at) == ""  # said once: the browser forgets it
    # A new class still needs the passcode.
    assert at.text_input(key="tally_passcode") is not None
    start(at)
    assert lecturer._CLASS not in at.session_state
    at.text_input(key="tally_passcode").input("four long random words")
    new = code_shown(start(at))
    assert new != code and not at.warning
    STORE.close_class(*at.session_state[lecturer._CLASS])
    # On another page, the sidebar's Classroom box says it.
    other = new_session(monkeypatch, f"{code}.{key}", "explorer")
    assert any(f"Your class {code} was lost" in c.value for c in other.sidebar.caption)


@pytest.mark.parametrize("cookie", ["", "ACDEFG", "ACDEFG.short", "ACDEFG.<script>alert(1)",
                                    "acdefg." + "x" * 22, "ACDEFG." + "x" * 22 + ";a=b"])
def test_a_cookie_that_names_no_class_this_page_writes_is_ignored(monkeypatch, cookie):
    at = new_session(monkeypatch, cookie)
    assert_clean(at)
    assert not at.warning and lecturer._CLASS not in at.session_state
    assert cookie_written(at) is None


def test_a_phone_in_the_lecturers_browser_never_becomes_the_lecturer(monkeypatch):
    code, key = STORE.open_class(lecturer.new_token())
    at = new_session(monkeypatch, f"{code}.{key}", "tour", {"class": code})
    assert_clean(at)
    assert at.session_state[join._CODE] == code  # a student in the class
    assert lecturer._CLASS not in at.session_state  # not its lecturer
    assert cookie_written(at) is None  # and the lecturer's cookie is left alone
    STORE.close_class(code, key)


def test_the_tally_page_says_where_the_tally_lives_for_the_store_in_use(monkeypatch,
                                                                        make_store):
    store = make_store()
    for module in ("classroom.store", "classroom.lecturer", "classroom.join"):
        monkeypatch.setattr(f"{module}.STORE", store)
    at = open_app("class_tally")
    assert_clean(at)
    code = code_shown(start(at))
    caption = "\n".join(c.value for c in at.caption)
    if make_store.kind == "redis":
        assert "Redis store this server's replicas share" in caption
        assert "this server's memory" not in caption
    else:
        assert "The tally lives in this server's memory" in caption
        assert "Redis" not in caption
    store.close_class(code, at.session_state[lecturer._CLASS][1])
