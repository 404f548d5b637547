"""The lecture's flow in a class (issue 35), AppTest on the values shown: a joined phone's
answer is a prediction (recorded; the view waits until the lecturer shows it, the verdicts
until the reveal: issue 49), a switch replaces the vote while the round is open, a second
round counts apart, a reload keeps the seat and the step, the phones follow the lecturer's
step, and the tally lists the newest question first."""

from __future__ import annotations

import pytest

from classroom import join, lecturer
from classroom.banner import PINNED_CSS
from classroom.predict import RIGHT, WRONG
from classroom.questions import CATALOGUE
from classroom.store import STORE
from classroom.tally import new_token
from classroom.tour import STEPS, main_steps, tally_id
from tests.support.apptest import assert_clean, open_app

NUMBER = 2  # the kernel step on the Explorer: RBF γ = 5 on the circles
TID = tally_id(NUMBER)
WIDGET = f"predict_{TID}"
RIGHT_TEXT, WRONG_TEXT = "Almost perfectly (≥ 95 %)", "Hardly (< 70 %)"
OPTION_TEXTS = list(CATALOGUE[STEPS[NUMBER - 1].check][1])


@pytest.fixture
def room():
    """A class opened by a lecturer of its own: (code, key); closed afterwards."""
    code, key = STORE.open_class(new_token())
    yield code, key
    try:
        STORE.close_class(code, key)
    except Exception:  # noqa: BLE001 - already ended by the test
        pass


def phone(code: str, number: int = NUMBER):
    """A student's session: the QR code's link, then the step's view from the tour."""
    at = open_app("tour", {"step": number, "class": code})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[number - 1].page)
    return at.run()


def verdict_lines(at) -> list[str]:
    return [m.value for m in at.markdown if m.value.startswith((f"- {RIGHT}", f"- {WRONG}"))]


def recorded(at) -> str:
    return next((m.value for m in at.markdown if m.value.startswith("**Answer recorded")), "")


def counts(code, key, round_=1) -> list[int]:
    votes = STORE.tally(code, key)[TID]
    return [c.chosen for c in votes.rounds[round_ - 1]][:3]


def charts(at) -> int:
    return len(at.get("plotly_chart"))


def test_in_a_class_an_answer_is_a_prediction_until_the_lecturer_reveals(room):
    code, key = room
    at = phone(code)
    assert_clean(at)
    options = at.radio(key=WIDGET).options
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    assert_clean(at)
    # Neither the view (its numbers answer the question) nor the verdicts: the lecturer's.
    assert charts(at) == 0
    assert verdict_lines(at) == []
    assert f"**Answer recorded:** {WRONG_TEXT}." in recorded(at)
    assert "until the lecturer closes the vote" in recorded(at)
    assert not [e for e in at.expander if e.label == "What to look for"]
    assert counts(code, key) == [options.index(WRONG_TEXT) == i for i in range(3)]
    # A switch while the round is open replaces the vote: one vote per student.
    at.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    assert verdict_lines(at) == [] and RIGHT_TEXT in recorded(at)
    assert counts(code, key) == [options.index(RIGHT_TEXT) == i for i in range(3)]
    assert STORE.students(code, key) == 1
    # The lecturer shows the view: the picture, the answer final, still no verdict.
    STORE.show_view(code, key, TID)
    at.run()
    assert charts(at) > 0 and verdict_lines(at) == []
    # The lecturer reveals; the phone's next run (its poll) shows every verdict.
    STORE.reveal(code, key, TID)
    at.run()
    assert_clean(at)
    lines = verdict_lines(at)[0].split("\n")
    assert len(lines) == 3
    mine = next(line for line in lines if "(your answer)" in line)
    assert mine.startswith(f"- {RIGHT} **{RIGHT_TEXT}**")
    assert [e for e in at.expander if e.label == "What to look for"]


def test_outside_a_class_the_verdicts_follow_the_answer_at_once():
    at = open_app("tour", {"step": NUMBER})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    assert recorded(at) == "" and len(verdict_lines(at)[0].split("\n")) == 3


def test_a_second_round_is_counted_apart_and_asks_the_phone_again(room):
    code, key = room
    at = phone(code)
    options = at.radio(key=WIDGET).options
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    STORE.open_second_round(code, key, TID)
    at.run()
    assert_clean(at)
    assert at.radio(key=WIDGET).value is None  # asked anew
    assert any(m.value.startswith("**Round 2: vote again**") and WRONG_TEXT in m.value
               for m in at.markdown)
    assert charts(at) == 0 and verdict_lines(at) == []
    at.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    assert f"{RIGHT_TEXT} (round 2)" in recorded(at)
    assert counts(code, key, 1) == [options.index(WRONG_TEXT) == i for i in range(3)]
    assert counts(code, key, 2) == [options.index(RIGHT_TEXT) == i for i in range(3)]
    STORE.reveal(code, key, TID)
    at.run()
    assert "(your answer)" in next(line for line in verdict_lines(at)[0].split("\n")
                                   if RIGHT_TEXT in line)


def reload(at, page: str):
    """The same browser reloading ``page``: a new session with the address bar's link."""
    return open_app(page, dict(at.query_params))


def test_a_reload_is_the_same_student_on_the_same_step_with_their_answer(room):
    code, key = room
    at = phone(code)
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    seat = at.query_params[join.Q_SEAT]
    assert at.query_params[join.Q_CLASS] == code and at.query_params["tour"] == str(NUMBER)
    assert STORE.students(code, key) == 1
    again = reload(at, "explorer")
    assert_clean(again)
    assert not again.warning, [w.value for w in again.warning]
    assert again.query_params[join.Q_SEAT] == seat  # the same seat, in the same class
    assert STORE.students(code, key) == 1  # not counted again
    assert f"Guided tour · step {NUMBER} of {len(main_steps())} · {STEPS[NUMBER - 1].title}" in [
        c.value for c in again.caption]
    assert again.radio(key=WIDGET).value == WRONG_TEXT  # the recorded answer
    assert WRONG_TEXT in recorded(again) and charts(again) == 0  # the view waits
    # Changing it after the reload still replaces the one vote.
    again.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    assert sum(counts(code, key)) == 1


GONE = ("Class {code} is not running on this server any more: it has ended, or the server "
        "restarted (a class kept in the server's memory does not survive a restart). The "
        "lecturer must start a new class: join it with its new code.")


def test_a_phone_whose_class_the_server_lost_is_told_so_honestly(room):
    # Issue 49: after a restart (one process: the classes were in its memory) a reloaded
    # phone read "No class with this code ... a class ends when its lecturer's tab is closed".
    code, key = room
    at = phone(code)
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    STORE.close_class(code, key)  # what a restart does to a store kept in memory
    again = reload(at, "explorer")
    assert_clean(again)
    said = [w.value for w in again.warning]
    # Above the page (a phone's sidebar is closed) and in the sidebar's Classroom box.
    assert said == [GONE.format(code=code)] * 2, said
    assert join.Q_SEAT not in again.query_params  # the phone has left the class


def test_a_phone_in_a_class_that_ends_under_it_is_told_so_honestly(room):
    code, key = room
    at = phone(code)
    STORE.close_class(code, key)
    at.run()  # the poll finds the class gone; the next run's sidebar says it
    at.run()
    assert_clean(at)
    assert [w.value for w in at.sidebar.warning] == [GONE.format(code=code)]
    assert join.Q_CLASS not in at.query_params


def test_a_seat_in_a_link_is_checked_and_never_in_a_focused_link(room):
    code, key = room
    at = open_app("tour", {"class": code, "seat": "<script>"})
    assert_clean(at)
    assert any("`seat` is not a seat this app makes" in w.value for w in at.warning)
    assert at.query_params[join.Q_SEAT] != "<script>"
    at.multiselect(key="lock_make_names").set_value(["kernel"]).run()
    link = next(c.value for c in at.sidebar.code if "lock=" in c.value)
    assert "seat=" not in link and f"class={code}" in link


def test_phones_follow_the_lecturers_step_and_may_look_back(room):
    code, key = room
    at = open_app("tour", {"step": 1, "class": code})  # the QR code's link
    assert_clean(at)
    lecturer_at = open_app("class_tally")
    lecturer_at.session_state[lecturer._CLASS] = (code, key)
    lecturer_at.session_state[lecturer._LECTURER] = "unused"
    lecturer_at.switch_page("app_pages/tour.py").run()
    lecturer_at.button(key="tour_open").click().run()  # the lecturer opens step 1...
    lecturer_at.switch_page(STEPS[0].page).run()
    lecturer_at.button(key="tour_prompt_next").click().run()  # ...and moves to step 2
    assert STORE.live(code).step == 2
    # Beside the question on the projected view: the class's counts and the reveal.
    assert f"Class {code} · 1 joined · step 2 is the class's step: the phones follow" in [
        c.value for c in lecturer_at.caption]
    assert "**Round 1** · 0 votes (open)" in [m.value for m in lecturer_at.markdown]
    assert lecturer_at.button(key=f"tally_reveal_{TID}").label == "Reveal to the class"
    # The phone's next run (its poll) opens step 2's view, with the step's prompt.
    at.run()
    assert_clean(at)
    assert at.session_state["tour_view"] == 2
    assert at.query_params["kernel"] == "rbf" and at.query_params["gamma"] == "5"
    at.switch_page(STEPS[1].page).run()  # (AppTest: the address bar's page)
    assert any(c.value.startswith("Following the lecturer") for c in at.caption)
    at.radio(key=WIDGET).set_value(RIGHT_TEXT).run()
    # The student looks back: the phone stays there, and offers to follow again.
    at.button(key="tour_prompt_back").click().run()
    at.switch_page(STEPS[0].page).run()
    assert at.session_state["tour_view"] == 1
    assert at.button(key="follow_lecturer").label == "Follow the lecturer (step 2)"
    at.button(key="follow_lecturer").click().run()
    assert at.session_state["tour_view"] == 2


def test_an_answer_tapped_as_the_lecturer_moves_counts_for_its_question_and_the_phone_moves(
        room):
    # The lecturer's Next reaches the store before the phone's tap on step 2's question
    # reaches the server: the tap counts, once, for the question it was made on (its round
    # is still open), and the same run takes the phone to step 3's question, sealed.
    code, key = room
    at = phone(code)
    options = at.radio(key=WIDGET).options
    STORE.set_step(code, key, NUMBER + 1)
    at.radio(key=WIDGET).set_value(WRONG_TEXT).run()
    assert_clean(at)
    assert counts(code, key) == [options.index(WRONG_TEXT) == i for i in range(3)]
    assert STORE.students(code, key) == 1
    assert at.session_state["tour_view"] == NUMBER + 1
    at.switch_page(STEPS[NUMBER].page).run()  # (AppTest: the address bar's page)
    assert_clean(at)
    assert [r.key for r in at.radio] == [f"predict_{tally_id(NUMBER + 1)}"]
    assert at.radio(key=f"predict_{tally_id(NUMBER + 1)}").value is None
    assert charts(at) == 0 and verdict_lines(at) == []
    assert f"Following the lecturer · class {code} · step {NUMBER + 1}" in [
        c.value for c in at.caption]
    assert sum(sum(c.chosen for c in tally.rounds[0])
               for tally in STORE.tally(code, key).values()) == 1  # nothing else counted


def test_the_lecturer_sees_the_rounds_beside_the_question_and_newest_first(room):
    code, key = room
    for token, option in (("s1", 2), ("s2", 0), ("s3", 0)):  # 0: almost perfectly
        STORE.answer(code, token, TID, option, option == 0)
    STORE.open_second_round(code, key, TID)
    for token in ("s1", "s2", "s3"):
        STORE.answer(code, token, TID, 0, True)
    STORE.answer(code, "s1", tally_id(5), 1, True)  # a later question
    at = open_app("class_tally")
    at.session_state[lecturer._CLASS] = (code, key)
    at.run()
    assert_clean(at)
    texts = [m.value for m in at.markdown]
    first, second = (next(i for i, t in enumerate(texts) if t.startswith(f"**Tour step {n} "))
                     for n in (5, NUMBER))
    assert first < second  # newest question first
    assert "**Round 1** · 3 votes" in texts and "**Round 2** · 3 votes (open)" in texts
    bars = [p.text for p in at.get("progress") if "Almost perfectly" in str(p.text)]
    assert bars[:2] == [f"{RIGHT_TEXT}: 2", f"{RIGHT_TEXT}: 3"]  # round 1, round 2
    at.button(key=f"tally_show_{TID}").click().run()  # the view to the phones: vote over
    live = STORE.live(code, TID)
    assert live.shown and not live.voting_open and not live.revealed
    assert "**Round 2** · 3 votes" in [m.value for m in at.markdown]
    assert at.button(key=f"tally_show_{TID}").label == "View shown"
    at.button(key=f"tally_reveal_{TID}").click().run()
    assert STORE.tally(code, key)[TID].revealed
    assert any(f"{RIGHT_TEXT}: 3 ✓ right" == p.text for p in at.get("progress"))


def test_in_projector_mode_the_step_shows_and_the_question_takes_few_rows():
    at = open_app("tour", {"step": NUMBER, "projector": "1"})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    # The step number as body text (projector mode hides prose captions).
    assert f"**Step {NUMBER} of {len(main_steps())}** · {STEPS[NUMBER - 1].title}" in [
        m.value for m in at.markdown]
    radio = at.radio(key=WIDGET)
    assert radio.horizontal  # the options in one row while the question spans the page
    assert PINNED_CSS not in scripts(at)  # the view waits for the answer: nothing to pin
    radio.set_value(WRONG_TEXT).run()
    assert_clean(at)
    # Answered: the prompt is pinned beside the view, which is brought on screen.
    assert PINNED_CSS in scripts(at) and "Bring number" in scripts(at)
    # The answer given, then the right option with its why; the wrong ones' whys a click
    # away (the answer given first among them).
    shown = next(m.value for m in at.markdown if m.value.startswith((RIGHT, WRONG)))
    first, second = shown.split("  \n")
    assert first == f"{WRONG} **{WRONG_TEXT}** (your answer)"
    assert second.startswith(f"{RIGHT} **{RIGHT_TEXT}**: Right")
    # (AppTest has no Popover element: its proto says what it is.)
    popovers = {p.proto.popover.label: p for p in at.get("popover")}
    assert set(popovers) == {"What to look for", "Why the others are wrong"}
    others = popovers["Why the others are wrong"].markdown[0].value.split("  \n")
    assert [line.split("**")[1] for line in others] == [
        o for o in OPTION_TEXTS if o != RIGHT_TEXT]
    assert all(": No" in line for line in others)
    assert others[OPTION_TEXTS.index(WRONG_TEXT) - 1].startswith(
        f"{WRONG} **{WRONG_TEXT}** (your answer): No")
    # A later run (γ moved, a tally refresh) does not scroll the view again.
    at.run()
    assert "Bring number" not in scripts(at)


def scripts(at) -> str:
    return "\n".join(h.proto.body for h in at.get("html"))


def test_a_typed_code_joins_on_enter_and_closes_the_drawer(room):
    code, key = room
    at = open_app("explorer")
    at.text_input(key="class_join_code").input(code.lower()).run()  # Enter, no button
    assert_clean(at)
    assert at.query_params[join.Q_CLASS] == code and STORE.students(code, key) == 1
    assert "close the sidebar if it is a drawer" in scripts(at)
    at.run()
    assert "close the sidebar if it is a drawer" not in scripts(at)  # once


def test_the_focus_goes_to_the_question_and_to_the_class_code():
    at = open_app("tour", {"step": NUMBER})
    at.button(key="tour_open").click().run()  # (AppTest draws the view st.switch_page opens)
    assert """[".st-key-tour_prompt [class*='st-key-predict_box_']", ".st-key-tour_prompt"]""" in (
        scripts(at))  # the question's box, not an option (an arrow key would answer)
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    assert "Focus number" not in scripts(at)  # only after opening the step
    at = open_app("class_tally")
    at.button(key="tally_start").click().run()
    assert ".st-key-tally_code h1" in scripts(at)
    STORE.close_class(*at.session_state[lecturer._CLASS])
