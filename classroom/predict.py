"""Predict, then reveal: a question before the view, the view once answered or skipped.

The router (``app.py``) asks, before a page runs, the tour step's question when the tour
opened the view (``classroom/banner.py``) or else the page's own (its registry entry's
``question``); while it is unanswered the page is not drawn (:func:`holding`). Once the
student answers, the view appears and every option says why it is right or wrong, from
the numbers of this view (:mod:`classroom.questions`, computed for the current settings: move
γ and the verdict follows). "Skip" shows the view at once.

Where questions are asked is the sidebar's "Questions before views" (:data:`MODES`): on
the tour's views by default (the lecture), on every page that has one, or nowhere (a
straight lecture). A link sets it too: ``?questions=all``, ``?questions=0``. Lesson pages
do not ask by default, so a link to a view shows that view.

In a class (:mod:`classroom.join`) an answer is a prediction, and nothing that decides it
reaches the phone before the lecturer says so: the question is asked whatever the link or
the sidebar says about questions, there is no Skip, the answer is counted anonymously in
the class tally and may change while its round is open ("Answer recorded": an answer
reruns the question's box alone, not the page with its view, :func:`_class_box`), the view
waits until the lecturer shows it to the phones (which closes the round:
:meth:`classroom.tally.TallyStore.show_view`) or reveals the question
(:meth:`classroom.tally.TallyStore.reveal`), and every option's verdict waits for the
reveal (the phone polls for both, ``classroom/follow.py``). A second round asks again,
counted apart. Outside a class the verdicts follow the answer at once.
"""

from __future__ import annotations

import streamlit as st

from classroom import join
from classroom.questions import MAX_N, Question, build
from classroom.tally import Live
from server.admission import queued
from shell.caches import bounded_cache, inputs, load_data
from shell.display import projector_on
from shell.registry import LESSONS
from shell.state import Settings
from words.i18n import N_, _, current_language, use_language
from words.text import quoted

QUESTIONS_KEY = "w_questions"  # w_: the sidebar keeps it across pages
TOUR, ALL, OFF = "tour", "all", "off"
MODES = {TOUR: N_("Tour"), ALL: N_("Every page"), OFF: N_("Off")}  # titles: _() where shown
Q_QUESTIONS = "questions"  # the link parameter
# ``questions=`` in a link → where questions are asked.
QUESTIONS_FROM_LINK = {"tour": TOUR, "all": ALL, "1": ALL, "on": ALL, "0": OFF, "off": OFF}
SKIPPED = -1
# Streamlit's own icons: an emoji font is not on every projector's machine.
RIGHT, WRONG = ":green[:material/check_circle:]", ":red[:material/cancel:]"
# The options at the size of the text around them (1 rem: projector mode enlarges it).
_OPTIONS_CSS = ("<style>[class*='st-key-predict_box_'] [data-testid='stRadio'] label p "
                "{font-size: 1rem;}</style>")
# A radio button group checks the option an arrow key moves to: on a prediction that is
# an answer sent to the class by a key meant to look at the options. Here the arrows only
# move the focus among the options; Space (or a click, a tap) answers. Installed once per
# page (the browser keeps the listener across Streamlit's reruns).
_ARROWS_SCRIPT = """<script>
(() => {
  if (window.__kpcaPredictArrows) return;
  window.__kpcaPredictArrows = true;
  const step = {ArrowDown: 1, ArrowRight: 1, ArrowUp: -1, ArrowLeft: -1};
  document.addEventListener("keydown", (event) => {
    const input = event.target;
    if (!(event.key in step) || !(input instanceof HTMLInputElement)
        || input.type !== "radio" || !input.closest("[class*='st-key-predict_box_']")) return;
    event.preventDefault();
    event.stopPropagation();
    const group = input.closest("[role='radiogroup']");
    const inputs = [...group.querySelectorAll("input[type='radio']")];
    inputs[(inputs.indexOf(input) + step[event.key] + inputs.length) % inputs.length].focus();
  }, true);
})();
</script>"""
_ANSWERS = "_kpca_answers"  # question id → option number, or SKIPPED
_HOLD = "_kpca_hold"  # this run's page waits for an answer
_STARTED = "_kpca_questions_started"
_SEALED = "_kpca_sealed"  # this run's question waits for the lecturer's reveal
_ASKED = "_kpca_asked"  # this run's question id (what the phone polls for its reveal)
_CLEARED = "_kpca_cleared"  # question ids whose radio was emptied for a second round
_ANSWER_CAME = "_kpca_answer_came"  # set by an answer's (or a skip's) callback
_JUST_ANSWERED = "_kpca_just_answered"  # this run follows an answer or a skip
PAGE_QUESTIONS = {lesson.url_path: lesson.question for lesson in LESSONS if lesson.question}


def start_run() -> None:
    """Before each run (the router): the link's ``questions=0`` once, no hold yet."""
    ss = st.session_state
    join.read_link_once()
    if _STARTED not in ss:
        ss[_STARTED] = True
        raw = str(st.query_params.get(Q_QUESTIONS, TOUR)).strip().lower()
        ss[QUESTIONS_KEY] = QUESTIONS_FROM_LINK.get(raw, TOUR)  # else the link warns
    if ss.get(QUESTIONS_KEY) not in MODES:  # the segmented control was cleared
        ss[QUESTIONS_KEY] = TOUR
    ss[_HOLD] = ss[_SEALED] = False
    ss[_ASKED] = None
    ss[_JUST_ANSWERED] = ss.pop(_ANSWER_CAME, False)  # a callback runs before the run


def link_problem(raw: str) -> str | None:
    """What is wrong with a link's ``questions=`` value (warned about with the link's other
    parameters), or None."""
    text = raw.strip().lower()
    if text in QUESTIONS_FROM_LINK:
        return None
    return _("Link parameter `questions` should be tour, all or 0, not {value}; questions "
             "are asked on the tour's views.").format(value=quoted(text))


def mode() -> str:
    return st.session_state.get(QUESTIONS_KEY, TOUR)


def holding() -> bool:
    """True while this run's view waits for an answer (the router skips the page)."""
    return bool(st.session_state.get(_HOLD))


def sealed() -> bool:
    """True while this run's question waits for the lecturer's reveal (in a class): the
    answer's words wait too."""
    return bool(st.session_state.get(_SEALED))


def asked() -> str | None:
    """The id this run's question is counted under (None: none asked)."""
    return st.session_state.get(_ASKED)


def link_params() -> dict[str, str]:
    """``questions=`` in the address bar unless at the default (a lecturer's bookmark)."""
    return {} if mode() == TOUR else {Q_QUESTIONS: mode()}


# A Question holds its sentences: the language is part of the key (a background thread,
# lecture_pack.ahead, passes the one it prepares for). Shared through the machine's disk:
# the replica that prepares the tour computes each step's question once for all of them,
# and a replica whose phones follow the lecturer reads it instead of computing it while
# its phones wait their turn to move (server.nudge moves them one at a time).
@bounded_cache(max_entries=64, shared=True)
def _question(question_id: str, settings: Settings, language: str) -> Question | None:
    data = load_data(settings.dataset, settings.dataset_options)
    X = inputs(settings)
    # Up to 1,000 points' kernel matrices: a turn in the server's queue like every
    # computation (server.admission).
    with queued(min(len(X), MAX_N), copies=2, what=N_("the question's numbers")), \
            use_language(language):
        return build(question_id, X, data.y, settings)


def live_question(question_id: str, settings: Settings,
                  language: str | None = None) -> Question | None:
    """The question as asked for ``settings`` (cached) in ``language`` (None: this run's),
    or None where it does not apply."""
    try:
        return _question(question_id, settings, language or current_language())
    except Exception:  # noqa: BLE001 - no data (an upload missing): the page says why
        return None


def answers() -> dict[str, int]:
    return st.session_state.setdefault(_ANSWERS, {})


def _chosen(question: Question, widget: str) -> None:
    texts = [option.text for option in question.options]
    choice = st.session_state.get(widget)
    if choice not in texts:
        return
    number = texts.index(choice)
    if not join.record(question.id, number, question.options[number].right):
        # The round closed after the radio was drawn: the answer counted before stays.
        before = answers().get(question.id)
        st.session_state[widget] = texts[before] if before is not None and before >= 0 else None
        return
    answers()[question.id] = number
    st.session_state[_ANSWER_CAME] = True


def _skip(question_id: str) -> None:
    answers()[question_id] = SKIPPED
    st.session_state[_ANSWER_CAME] = True


def just_answered() -> bool:
    """Whether this run follows an answer or a skip."""
    return bool(st.session_state.get(_JUST_ANSWERED))


def hold_view(watching: str) -> None:
    """Hold this run's view (the router does not run the page) and let the phone's poll
    watch the question ``watching`` (its view shown, its reveal)."""
    st.session_state[_HOLD] = True
    st.session_state[_ASKED] = watching


def ask_for_page(url_path: str, settings: Settings) -> None:
    """The page's own question (registry), when it has one and pages ask."""
    if mode() == ALL and url_path in PAGE_QUESTIONS:
        ask(PAGE_QUESTIONS[url_path], settings)


def ask(question_id: str, settings: Settings, *, tally_id: str | None = None) -> None:
    """Ask ``question_id`` for ``settings``; hold the view until it is answered or skipped
    (in a class: until the lecturer shows the view; the verdicts until the reveal).

    ``tally_id`` names the question in the class tally (a tour step asks a catalogue
    question under its own id, so the lecturer sees step 5's answers apart).
    """
    counted_as = tally_id or question_id
    live = join.live(counted_as)  # None outside a class
    if live is not None and not live.revealed:  # whatever is drawn below, nothing decides it
        st.session_state[_SEALED] = True
        st.session_state[_HOLD] = not live.shown
        st.session_state[_ASKED] = counted_as
    if mode() == OFF and live is None:  # in a class, the lecturer's questions are asked
        return
    question = live_question(question_id, settings)
    if question is None:
        if live is not None and not live.shown:
            st.caption(_("The view appears when the lecturer shows it to the class."))
        return
    if tally_id is not None:
        question = Question(tally_id, question.prompt, question.options)
    widget = f"predict_{question.id}"
    texts = [option.text for option in question.options]
    st.session_state[_ASKED] = question.id
    if live is not None and answers().get(question.id) in (None, SKIPPED):
        # A reload: the class keeps the answer. A skip from before joining is no answer.
        answers()[question.id] = join.vote(question.id)
    chosen = answers().get(question.id)
    # A second round the student has not voted in yet: the first answer stays in round 1's
    # count, the radio asks anew (emptied once, not on every run).
    second = _second_round(question.id, live, chosen)
    cleared = st.session_state.setdefault(_CLEARED, set())
    if second and question.id not in cleared:
        cleared.add(question.id)
        st.session_state[widget] = None
    elif not second and chosen is not None and chosen >= 0 and (
            st.session_state.get(widget) not in texts):
        # The radio forgot it on another page, or its texts name another view's numbers
        # (the γ question's panels follow the data): the answer is kept by its number.
        st.session_state[widget] = texts[chosen]
    if live is None:
        _box(question, live, second)
    else:
        _class_box(question, (live.revealed, live.shown), second)


def _second_round(question_id: str, live: Live | None, chosen: int | None) -> bool:
    """A second round this seat has not voted in yet (its first answer was ``chosen``)."""
    return (live is not None and live.round > 1 and live.voting_open
            and chosen is not None and chosen >= 0 and join.vote(question_id) is None)


@st.fragment
def _class_box(question: Question, page_saw: tuple[bool, bool], second: bool) -> None:
    """The question's box on a phone in a class: an answer reruns this box only. What the
    answer changes is in it (the answer recorded, whether it may still change); the page
    around it, its view held or shown, follows the lecturer, not the answer: a room's
    answers are not each a run of the page (or of its view, in a second round).
    ``page_saw``: the question's (revealed, shown) when the page was drawn; ``second``:
    whether it asked for a second round's vote (both the page's, as of its run)."""
    own_run = join.fragment_rerun("predict_box")  # after an answer: the class as it is now
    live = join.live(question.id)
    if own_run:
        st.session_state.pop(_ANSWER_CAME, None)  # (no view to bring on screen)
        if live is None or (live.revealed, live.shown) != page_saw:
            st.rerun(scope="app")  # ended, shown or revealed meanwhile: the page follows
        second = _second_round(question.id, live, answers().get(question.id))
    _box(question, live, second)


def _box(question: Question, live: Live | None, second: bool) -> None:
    """The question, its options and, as far as they may be shown, their verdicts
    (``second``: a second round this seat has not voted in yet)."""
    widget = f"predict_{question.id}"
    texts = [option.text for option in question.options]
    chosen = answers().get(question.id)
    # On a projector the question, its options and verdicts take as few rows as they can:
    # the view's first chart belongs on the first screen.
    compact = projector_on()
    with st.container(border=not compact, key=f"predict_box_{question.id}"):
        # The question in the text's own size (a radio's label is small on a projector);
        # the radio keeps it as its label for screen readers.
        st.markdown(f"**{question.prompt}**")
        st.radio(question.prompt, texts, index=None, key=widget, on_change=_chosen,
                 args=(question, widget), label_visibility="collapsed", horizontal=compact,
                 disabled=live is not None and not live.voting_open)
        st.html(_OPTIONS_CSS)
        st.html(_ARROWS_SCRIPT, unsafe_allow_javascript=True)
        if live is not None and not live.revealed:
            _sealed(live, texts[chosen] if chosen is not None and chosen >= 0 else None,
                    second)
            return
        if chosen is None and live is None:
            st.session_state[_HOLD] = True
            st.button(_("Skip: show the view"), key=f"predict_skip_{question.id}",
                      on_click=_skip, args=(question.id,), icon=":material/skip_next:")
            st.caption(_("Predict first: the view appears once you answer (or skip)."))
            return
        if chosen == SKIPPED:
            st.caption(_("Skipped: you can still answer above."))
            return
        lines = [
            (_("{mark} **{answer}** (your answer): {why}") if i == chosen else
             _("{mark} **{answer}**: {why}")).format(
                mark=RIGHT if option.right else WRONG, answer=option.text, why=option.why)
            for i, option in enumerate(question.options)
        ]
        if not compact:
            st.markdown("\n".join(f"- {line}" for line in lines))
        else:  # the right option's why and the answer given; the others a click away
            right = [i for i, option in enumerate(question.options) if option.right]
            shown = [lines[i] for i in right]
            if chosen is not None and chosen not in right:  # its why is with the others
                shown.insert(0, _("{mark} **{answer}** (your answer)").format(
                    mark=WRONG, answer=texts[chosen]))
            with st.container(horizontal=True, vertical_alignment="center"):
                st.markdown("  \n".join(shown))
                if others := [line for i, line in enumerate(lines) if i not in right]:
                    with st.popover(_("Why the others are wrong"), icon=":material/list:"):
                        st.markdown("  \n".join(others))
        join.tally_note()


def _sealed(live: Live, answer: str | None, second: bool) -> None:
    """A phone in a class, before the reveal: the answer it gave (or that it should give),
    whether it may still change, and where the view is. No verdict."""
    if second:
        st.markdown(_("**Round {round}: vote again** after the discussion (your first answer "
                      "was *{answer}*).").format(round=live.round, answer=answer))
    elif answer is None:
        st.caption(_("Predict first: the view appears when the lecturer shows it to the "
                     "class.") if not live.shown else
                   _("The view is below; your answer counts in the class tally until the "
                     "lecturer closes the vote.") if live.voting_open else
                   _("The vote is closed; the lecturer reveals why each option is right or "
                     "wrong."))
        return
    elif not live.voting_open:
        st.markdown(_("**Your answer:** {answer}, final: the vote is closed. The lecturer "
                      "reveals why each option is right or wrong.").format(answer=answer))
    elif live.round > 1:
        st.markdown((_("**Answer recorded:** {answer} (round {round}). You can change it "
                       "until the lecturer closes the vote; the view is below.") if live.shown
                     else _("**Answer recorded:** {answer} (round {round}). You can change it "
                            "until the lecturer closes the vote; the view appears when the "
                            "lecturer shows it.")).format(answer=answer, round=live.round))
    else:  # round 1 closes when the view is shown: it is not shown yet
        st.markdown(_("**Answer recorded:** {answer}. You can change it until the lecturer "
                      "closes the vote; the view appears when the lecturer shows it.")
                    .format(answer=answer))
    join.tally_note()
