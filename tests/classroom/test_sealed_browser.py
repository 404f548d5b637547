"""The class keeps its secret on the wire (issue 49): a joined phone in Chromium, on a live
server, follows the QR code's link with ``questions=0``, moves with Next and Back, opens the
step's view and answers; until the lecturer reveals, nothing the server sent it over its
websocket holds the step's What to look for, an option's why, or a sentence the view
computes on screen (read off the lecturer's projector). After the reveal they all arrive:
the check sees them when they are there."""

from __future__ import annotations

import datasets
from classroom.questions import build
from classroom.tour import STEPS
from tests.support.browser import (
    assert_no_exception,
    new_page,
    open_from_menu,
    start_class,
    wait_for_text,
    wait_until_idle,
)

NUMBER = 2  # the kernel step on the Explorer: RBF γ = 5 on the circles
PROJECTOR = {"width": 1280, "height": 720}
PHONE = {"width": 390, "height": 844}
WRONG_TEXT = "Hardly (< 70 %)"


def whys(number: int) -> list[str]:
    step = STEPS[number - 1]
    settings = step.settings()
    data = datasets.load(settings.dataset, **dict(settings.dataset_options))
    return [option.why for option in build(step.check, data.X, data.y, settings).options]


def leaked(texts: list[str], frames: list[bytes]) -> list[str]:
    """Which of ``texts`` the frames hold (UTF-8 in Streamlit's protobuf messages)."""
    sent = b"".join(frames)
    return [text for text in texts if text.encode("utf-8") in sent]


def test_a_joined_phones_websocket_holds_no_answer_before_the_reveal(server, browser):
    lecturer = new_page(browser, viewport=PROJECTOR)
    phone = new_page(browser, viewport=PHONE, has_touch=True, is_mobile=True)
    received: list[bytes] = []  # every websocket frame the server sent the phone
    phone.on("websocket", lambda ws: ws.on("framereceived", lambda payload: received.append(
        payload if isinstance(payload, bytes) else payload.encode("utf-8"))))
    try:
        code = start_class(lecturer, server.url).split("class=")[1]
        # The lecturer opens step 2 on the projector and shows the view: what it computes
        # on screen is part of the answer.
        open_from_menu(lecturer, "Guided tour")
        lecturer.get_by_role("button", name="Next →").click()
        lecturer.get_by_role("heading", name=f"{NUMBER} · {STEPS[NUMBER - 1].title}").wait_for()
        lecturer.get_by_role("button", name="Open this view").click()
        prompt = lecturer.locator(".st-key-tour_prompt")
        prompt.get_by_role("button", name="Skip: show the view").click()
        prompt.get_by_text("What to look for").click()
        on_screen = prompt.locator("p", has_text="On this screen:").first
        on_screen.wait_for()
        sentences = [s for s in on_screen.inner_text().removeprefix("On this screen:")
                     .strip().split(". ") if len(s) > 20]
        assert any("Cross-validated accuracy" in s for s in sentences), sentences
        answer = [STEPS[NUMBER - 1].look_for, *whys(NUMBER), *sentences]

        # A phone joins by the link with questions=0, looks ahead and back, and answers.
        phone.goto(f"{server.url}/tour?class={code}&step={NUMBER}&questions=0")
        wait_until_idle(phone)
        phone_prompt = phone.locator(".st-key-tour_prompt")
        wait_for_text(phone_prompt, f"step {NUMBER} of")  # it follows the lecturer's step
        wait_until_idle(phone)
        phone_prompt.get_by_role("button", name="Next →").click()
        wait_for_text(phone_prompt, f"step {NUMBER + 1} of")
        wait_until_idle(phone)
        phone_prompt.get_by_role("button", name="← Back").click()
        wait_for_text(phone_prompt, f"step {NUMBER} of")
        wait_until_idle(phone)
        assert_no_exception(phone)
        assert leaked(answer, received) == []
        phone_prompt.get_by_test_id("stRadioGroup").get_by_text(WRONG_TEXT).tap()
        wait_for_text(phone_prompt, "Answer recorded")
        wait_until_idle(phone)
        assert_no_exception(phone)
        assert phone.locator(".js-plotly-plot").count() == 0
        assert len(b"".join(received)) > 10_000  # the pages did arrive
        assert leaked(answer, received) == []

        # The reveal: every part of the answer now reaches the phone.
        lecturer.locator(".st-key-tally_compact").get_by_role(
            "button", name="Reveal to the class").click()
        wait_for_text(phone_prompt, "(your answer)")
        phone.locator(".js-plotly-plot").first.wait_for()
        wait_until_idle(phone)
        assert leaked(answer, received) == answer
    finally:
        for page in (lecturer, phone):
            page.context.close()
