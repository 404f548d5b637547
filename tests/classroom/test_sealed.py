"""The class keeps its secret (issue 49, classroom/seal.py), AppTest on what a joined phone's
page sends: before the lecturer shows a step's view, no What to look for, no verdict (the
right option's why) and none of the sentences the view computes on screen reach the phone,
whichever way it goes (the QR code's link, ``step=``, ``questions=0``, Next, Back, Skip, an
answer, a page of the menu); the view follows the lecturer's "Show the view to the phones",
which makes the answers final, and the words follow the reveal. The offline lecture (every
answer in one file) is offered to the lecturer only."""

from __future__ import annotations

import threading
from typing import NamedTuple

import pytest

import datasets
from classroom import follow, lecturer
from classroom.questions import build
from classroom.store import STORE
from classroom.tally import new_token
from classroom.tour import STEPS, tally_id
from tests.support.apptest import assert_clean, open_app, sent_text

NUMBER = 2  # the kernel step on the Explorer: RBF γ = 5 on the circles
TID = tally_id(NUMBER)
WIDGET = f"predict_{TID}"
ON_SCREEN = "**On this screen:** "


def whys(number: int) -> list[str]:
    """Why each option of step ``number``'s question is right or wrong, at its settings."""
    step = STEPS[number - 1]
    settings = step.settings()
    data = datasets.load(settings.dataset, **dict(settings.dataset_options))
    return [option.why for option in build(step.check, data.X, data.y, settings).options]


class Answer(NamedTuple):
    words: list[str]  # What to look for, and why each option is right or wrong
    numbers: list[str]  # the sentences the view computes on screen

    def all(self) -> list[str]:
        return self.words + self.numbers


@pytest.fixture(scope="module")
def answer() -> Answer:
    """What decides step 2's question, read from a session in no class: its What to look
    for, each option's why, and each sentence the view computes on screen."""
    at = open_app("tour", {"step": NUMBER})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    at.button(key=f"predict_skip_{TID}").click().run()
    assert_clean(at)
    found = next(m.value for m in at.markdown if m.value.startswith(ON_SCREEN))
    sentences = [s for s in found.removeprefix(ON_SCREEN).split(". ") if len(s) > 20]
    assert any("Cross-validated accuracy" in s for s in sentences), sentences
    return Answer([STEPS[NUMBER - 1].look_for, *whys(NUMBER)], sentences)


def leaked(at, texts: list[str]) -> list[str]:
    sent = sent_text(at)
    return [text for text in texts if text in sent]


@pytest.fixture
def room():
    """A class opened by a lecturer of its own: (code, key); closed afterwards."""
    code, key = STORE.open_class(new_token())
    yield code, key
    try:
        STORE.close_class(code, key)
    except Exception:  # noqa: BLE001 - already ended by the test
        pass


def skip_if_offered(at) -> None:
    """What a student who wants the view clicks, if the page offers it."""
    skip = [b for b in at.button if b.key == f"predict_skip_{TID}"]
    if skip:
        skip[0].click().run()


def charts(at) -> int:
    return len(at.get("plotly_chart"))


def test_the_tour_page_keeps_every_steps_answer_from_a_joined_phone(room):
    code, _key = room
    at = open_app("tour", {"class": code, "step": 5})  # the QR code's link, at step 5
    assert_clean(at)
    assert STEPS[4].look_for not in sent_text(at)
    assert any("once your lecturer reveals this step" in c.value for c in at.caption)
    at.button(key="tour_back").click().run()  # Back, Next: every other step's
    at.button(key="tour_back").click().run()
    at.button(key="tour_back").click().run()
    assert at.query_params["step"] == "2"
    assert STEPS[1].look_for not in sent_text(at)
    at.button(key="tour_next").click().run()
    assert STEPS[2].look_for not in sent_text(at)
    # The lecturer reveals step 3: its answer reaches the phone, the others' do not.
    STORE.reveal(code, _key, tally_id(3))
    at.run()
    assert STEPS[2].look_for in sent_text(at)
    at.button(key="tour_next").click().run()
    assert STEPS[3].look_for not in sent_text(at)


@pytest.mark.parametrize("link", [{}, {"questions": "0"}], ids=["link", "questions=0"])
def test_a_joined_phone_gets_the_question_and_no_answer_until_the_view_is_shown(
        room, answer, link):
    code, key = room
    at = open_app("tour", {"class": code, "step": NUMBER, **link})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    assert_clean(at)
    assert at.radio(key=WIDGET).options  # the question is asked, whatever the link says
    skip_if_offered(at)
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    options = at.radio(key=WIDGET).options
    at.radio(key=WIDGET).set_value(options[2]).run()  # an answer: still no view
    assert_clean(at)
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    assert any(m.value.startswith(f"**Answer recorded:** {options[2]}.") for m in at.markdown)
    at.button(key="tour_prompt_next").click().run()  # Next, and Back: the same
    at.switch_page(STEPS[NUMBER].page).run()
    assert charts(at) == 0 and STEPS[NUMBER].look_for not in sent_text(at)
    at.button(key="tour_prompt_back").click().run()
    at.switch_page(STEPS[NUMBER - 1].page).run()
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    # The lecturer shows the view to the phones: the picture and its numbers, the answer
    # final (the radio off, a change not counted), the words still waiting for the reveal.
    STORE.show_view(code, key, TID)
    at.run()
    assert_clean(at)
    assert charts(at) > 0
    assert at.radio(key=WIDGET).disabled
    assert any(m.value.startswith(f"**Your answer:** {options[2]}, final") for m in at.markdown)
    assert leaked(at, answer.words) == []
    assert [c.chosen for c in STORE.tally(code, key)[TID].rounds[0]][:3] == [
        i == 2 for i in range(3)]
    STORE.reveal(code, key, TID)
    at.run()
    assert leaked(at, answer.all()) == answer.all()  # every word of the answer, now


def test_skip_and_the_sidebars_questions_off_do_not_open_the_view_in_a_class(room, answer):
    code, key = room
    at = open_app("tour", {"class": code, "step": NUMBER})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[NUMBER - 1].page)
    at.run()
    assert not [b for b in at.button if b.key == f"predict_skip_{TID}"]
    # "Questions before views" waits with the view; set to Off before (on another page):
    assert not [group for group in at.button_group if group.key == "w_questions"]
    at.session_state["w_questions"] = "off"
    at.run()
    assert_clean(at)
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    assert at.radio(key=WIDGET).options
    assert STORE.live(code, TID).voting_open


def test_a_page_of_the_menu_waits_while_its_step_has_not_been_shown(room, answer):
    code, key = room
    at = open_app("tour", {"class": code})
    at.switch_page(STEPS[NUMBER - 1].page).run()  # the Explorer, from the menu
    assert_clean(at)
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    assert any(m.value.startswith("**Your class has not been shown steps 1 and 2 of the "
                                  "tour yet**") for m in at.markdown)
    STORE.show_view(code, key, tally_id(1))
    STORE.show_view(code, key, TID)
    at.run()  # (the phone's poll reruns the page when the lecturer shows the view)
    assert_clean(at)
    assert charts(at) > 0


def test_while_the_room_votes_no_page_of_kernel_pca_opens_outside_the_tour(room, answer):
    code, key = room
    STORE.set_step(code, key, NUMBER)  # the lecturer opened step 2: the room votes
    at = open_app("tour", {"class": code, "kernel": "rbf", "gamma": 5})
    at.switch_page("app_pages/new_points.py").run()  # the rings' projection, elsewhere
    assert_clean(at)
    assert charts(at) == 0 and leaked(at, answer.all()) == []
    assert any(m.value.startswith("**Your class has not been shown step 2 of the tour yet**")
               for m in at.markdown)
    STORE.show_view(code, key, TID)
    at.run()
    assert_clean(at)
    assert charts(at) > 0
    at.switch_page("app_pages/home.py").run()  # a page that computes nothing never waits
    assert not [m for m in at.markdown if "has not been shown" in m.value]


def test_the_offline_lecture_is_offered_to_the_lecturer_only(room):
    code, _key = room
    phone = open_app("tour", {"class": code})
    visitor = open_app("tour")
    lecturer_at = open_app("class_tally")
    lecturer_at.button(key="tally_start").click().run()
    lecturer_at.switch_page("app_pages/tour.py").run()
    offered = {"tour_prepare_lecture", "tour_download_lecture"}
    try:
        for at in (phone, visitor):
            assert_clean(at)
            assert not offered & {b.key for b in (*at.button, *at.get("download_button"))}
            assert "A lecture with no server" not in [s.value for s in at.subheader]
        assert any("while running a class" in c.value for c in visitor.caption)
        assert_clean(lecturer_at)
        assert "tour_prepare_lecture" in {b.key for b in lecturer_at.button}
    finally:
        STORE.close_class(*lecturer_at.session_state[lecturer._CLASS])


def _settings_controls(at) -> list[str]:
    """The keys of the sidebar's settings' controls drawn by the last run."""
    widgets = [*at.sidebar.selectbox, *at.sidebar.slider, *at.sidebar.select_slider,
               *at.sidebar.checkbox, *at.sidebar.button_group]
    return [w.key for w in widgets if w.key != "language_choice"]


def test_the_settings_wait_with_the_view_and_come_back_with_the_steps(room):
    """While a phone's view waits for the class, its sidebar draws no settings (nothing to
    set yet: a lighter run when the room moves at once), neither the questions' switch nor
    a focused link; when the lecturer shows the view they are back, at the step's
    settings. A page of the menu that waits for a step does the same."""
    code, key = room
    at = open_app("tour", {"class": code})
    at.button(key="tour_open").click().run()  # step 1: the data, no kernel yet
    at.switch_page(STEPS[0].page).run()
    at.button(key="tour_prompt_next").click().run()
    at.switch_page(STEPS[NUMBER - 1].page).run()
    assert_clean(at)
    assert at.radio(key=WIDGET).options and charts(at) == 0
    assert _settings_controls(at) == []
    assert "Focused link" not in sent_text(at)
    assert any("settings appear here with the view" in c.value for c in at.sidebar.caption)
    STORE.show_view(code, key, TID)
    at.run()  # (the phone's poll reruns the page when the lecturer shows the view)
    assert_clean(at)
    assert charts(at) > 0
    assert {"w_dataset", "w_kernel", "w_gamma", "w_questions"} <= set(_settings_controls(at))
    step = STEPS[NUMBER - 1].settings()
    assert at.session_state["_kpca_settings"] == step
    assert at.select_slider(key="w_gamma").value == step.gamma
    assert "Focused link" in sent_text(at)

    other = open_app("tour", {"class": code})
    other.switch_page(STEPS[0].page).run()  # the Explorer, from the menu: step 1 not shown
    assert_clean(other)
    assert any(m.value.startswith("**Your class has not been shown step 1 of the tour yet**")
               for m in other.markdown)
    assert _settings_controls(other) == []


def spy_on_reads(monkeypatch) -> list[tuple[str, str, str | None]]:
    """The run's looks at the class store: ("live" or "vote", class, question)."""
    reads = []

    def spy(name, question_at):
        real = getattr(STORE, name)

        def read(*args):
            if threading.current_thread().name != "nudge":  # (the server's own look, apart)
                question = args[question_at] if len(args) > question_at else None
                reads.append(("vote" if name == "vote" else "live", args[0], question))
            return real(*args)
        monkeypatch.setattr(STORE, name, read)

    spy("live", 1)
    spy("live_and_vote", 2)
    spy("vote", 2)
    return reads


def test_the_run_the_server_starts_for_the_lecturers_move_reads_the_class_once(
        room, monkeypatch):
    """The page the server runs on a phone when the lecturer moves (server.nudge's
    ``page_for``: the new step's page, its address naming the step) reads the new step's
    question in its one look, not the old step's first."""
    code, key = room
    STORE.set_step(code, key, 3)
    at = open_app("tour", {"class": code})
    assert at.radio(key=f"predict_{tally_id(3)}").options  # the phone follows to step 3
    STORE.set_step(code, key, 4)  # the lecturer's Next
    # The page and address the nudge asks the phone's session to run (follow._step_page).
    page, query = follow._step_page(STORE.live(code), followed=3, here=3)
    assert page == STEPS[3].page and query["tour"] == "4"
    reads = spy_on_reads(monkeypatch)
    at.switch_page(page)
    at.query_params.update(query)
    at.run()
    assert_clean(at)
    assert at.radio(key=f"predict_{tally_id(4)}").options
    assert reads == [("live", code, tally_id(4))], reads


def test_a_run_reads_the_class_once_per_question(room, monkeypatch):
    """A phone's run asks the store for the class once per question it reads (the sidebar,
    the question, the follow and its poll all agree on one reading), with the seat's vote
    in the same look, and the next run reads it afresh."""
    code, key = room
    at = open_app("tour", {"class": code})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[0].page).run()
    reads = spy_on_reads(monkeypatch)
    at.run()
    assert_clean(at)
    assert at.radio(key=f"predict_{tally_id(1)}").options
    assert ("live", code, tally_id(1)) in reads, reads
    assert len(reads) == len(set(reads)), reads
    assert not [r for r in reads if r[0] == "vote"], reads  # read with its question
    STORE.show_view(code, key, tally_id(1))
    reads.clear()
    at.run()
    assert charts(at) > 0 and len(reads) == len(set(reads)), reads
