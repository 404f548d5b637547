"""The lecturer's browser keeps its class, and everyone hears the truth when a server on
one process restarts (issue 49), in Chromium on a real server: the class's code and key
live in a same-site cookie (never in the address), a second tab of the same browser (a
new session, as after a reload or a websocket reconnected to another replica) shows the
same class; then the server process restarts on the same port, its classes gone with its
memory, and the pages, reconnecting by themselves, say so: the lecturer's that the class
was lost, a phone's that its class is not running on this server any more."""

from __future__ import annotations

import re

from tests.support.browser import (
    Server,
    assert_no_exception,
    new_page,
    shot,
    start_class,
    wait_for_text,
    wait_until_idle,
)

DESKTOP = {"width": 1280, "height": 800}
PHONE = {"width": 390, "height": 844}
RESTARTED_MS = 120_000  # a new server process, then the pages' own reconnection


def test_the_lecturers_browser_keeps_its_class_and_a_restart_is_said(browser):
    server = Server("lecturer-restart")
    lecturer = new_page(browser, viewport=DESKTOP)
    phone = new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    try:
        url = start_class(lecturer, server.url)
        code = url.split("class=")[1][:6]
        wait_until_idle(lecturer)
        kept = {c["name"]: c for c in lecturer.context.cookies()}["kpca_lecturer"]
        assert kept["value"].startswith(f"{code}.") and len(kept["value"]) > 20
        assert (kept["sameSite"], kept["path"]) == ("Strict", "/")
        assert kept["expires"] > 0  # it outlives the tab, as long as a class may live
        key = kept["value"].split(".")[1]
        assert key not in lecturer.url and code not in lecturer.url

        # A second tab of this browser: a new session, the same class, no passcode asked.
        second = lecturer.context.new_page()
        second.goto(f"{server.url}/class_tally")
        wait_until_idle(second)
        wait_for_text(second.locator('[data-testid="stMain"]'), "Class code")
        assert_no_exception(second)
        shown = second.locator(".st-key-tally_code h1").inner_text()
        assert shown.replace(" ", "") == code
        second.close()

        # A phone joins by the QR code's link; its address bar then holds its seat.
        phone.goto(url)
        wait_until_idle(phone)
        phone.wait_for_url(re.compile(r"seat="))
        assert "kpca_lecturer" not in {c["name"] for c in phone.context.cookies()}

        # The server restarts: one process, the class was in its memory.
        port = server.port
        server.stop()
        server = Server("lecturer-restart", port=port)
        main = lecturer.locator('[data-testid="stMain"]')
        wait_for_text(main, f"Your class {code} was lost", RESTARTED_MS)
        wait_until_idle(lecturer)
        assert_no_exception(lecturer)
        assert lecturer.get_by_role("button", name="Start a class").count() == 1
        wait_for_text(phone.locator('[data-testid="stMain"]'),
                      f"Class {code} is not running on this server any more", RESTARTED_MS)
        wait_until_idle(phone)
        assert_no_exception(phone)
        shot(lecturer, "lecturer-class-lost-1280")
        shot(phone, "phone-class-gone-390")
        # Said once: the browser forgot the class (a reload is a plain start).
        lecturer.wait_for_function(
            "() => !document.cookie.split('; ').some(c => c.startsWith('kpca_lecturer='))")
    finally:
        for page in (lecturer, phone):
            page.context.close()
        server.stop()
