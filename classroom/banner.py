"""The tour's prompt on a view: when a page is opened from the tour, the step's question,
each student's prediction (``classroom/predict.py``: the view and what to look for wait for
it), what to look for (revealed on click) and Back / Next sit on the view itself.

The lecturer then never leaves the view to read the answer. The answer ends with the
sentences the page computed from the numbers on screen (:mod:`shell.findings`), so what
the tour says about a view is that view's own live reading.

The router (``app.py``) calls :func:`start` before the page runs, which draws the prompt at
the top of the page, and :func:`finish` after it, which adds the page's findings.
"""

from __future__ import annotations

import streamlit as st

from classroom import focus, lecturer, predict
from classroom.tour import STEPS, differences, parse_step, place_in_part, tally_id
from shell import findings
from shell.display import number_caption, pin_beside, projector_on
from shell.registry import LESSONS
from shell.sidebar import apply_settings
from shell.state import Settings
from words.i18n import _, join_sentences

TOUR_VIEW = "tour_view"  # the step whose view is open, while the tour drives the views
TOUR_STEP = "tour_step"  # the tour page's own step (app_pages/tour.py)
TOUR_PAGE = "tour"
# Where a click on the prompt's buttons goes, for the next run to switch to. Not the
# button's return value: st.switch_page interrupts the run before Streamlit clears the
# click, so the button would still read True on the page it opens and move on again.
_GO = "_tour_go"
_FOCUS = "_tour_focus"  # the view was opened from the tour: focus its question
_SHOWS = "_tour_shows"  # the findings the open step's answer quotes (empty: all)
Q_TOUR = "tour"  # the link parameter: the open step (a reload keeps the prompt)
_READ = "_tour_link_read"
SEALED = "sealed"  # start's place for the findings while the answer waits for a reveal
# Pages whose view does not follow the sidebar (De-noising): their step's own settings.
OWN_SETTINGS = {lesson.url_path for lesson in LESSONS if lesson.own_settings}
# On a projector, once the question is answered, the prompt is pinned as a column at the
# screen's left and the view fills the rest, brought on screen at its first chart: the
# question, its verdicts and the picture on one 1280 × 720 screen (the page's title and
# its text above the picture scroll away; the prompt stays). 17 rem leaves the view
# room for a pair of charts side by side (shell.display.pair_fits: 2 × 22 + 1 rem).
# While the question waits for its answer the prompt spans the page (the view is not
# drawn yet), large for the room to read.
PINNED_REM = 17
PINNED_CSS = f"""<style>
/* A projector's width (a phone in projector mode keeps the prompt above the view). */
@media (min-width: 960px) {{
    .st-key-tour_prompt {{
        position: fixed; z-index: 100; top: 4.25rem; bottom: 0.75rem;
        left: 1rem; width: {PINNED_REM}rem; overflow-y: auto; padding: 0.75rem;
        background-color: var(--background-color, inherit);
    }}
    /* With the sidebar open the column starts beside it. */
    [data-testid="stSidebar"][aria-expanded="true"] ~ [data-testid="stMain"] .st-key-tour_prompt {{
        left: calc(var(--sidebar-width, 300px) + 1rem);
    }}
    [data-testid="stMainBlockContainer"] {{ padding-left: {PINNED_REM + 2}rem; }}
    /* Tight enough for the verdicts to stay on screen under the question and its options. */
    .st-key-tour_prompt p, .st-key-tour_prompt li, .st-key-tour_prompt button p {{
        font-size: 0.85rem; line-height: 1.35;
    }}
    .st-key-tour_prompt [class*='st-key-predict_box_'] [data-testid='stRadio'] label p {{
        font-size: 0.85rem;
    }}
    .st-key-tour_prompt button {{ min-height: 1.9rem; padding: 0.1rem 0.5rem; }}
    .st-key-tour_prompt [data-testid="stVerticalBlock"],
    .st-key-tour_prompt [data-testid="stHorizontalBlock"] {{ gap: 0.45rem; }}
    .st-key-tour_prompt [data-testid="stRadio"] label {{
        min-height: 0; padding-top: 0; padding-bottom: 0;
    }}
    /* The lecturer's counts go under the question: no room beside it in the column. */
    .st-key-tour_prompt [data-testid="stHorizontalBlock"] {{ flex-wrap: wrap; }}
    .st-key-tour_prompt [data-testid="stColumn"] {{
        flex: 1 1 100% !important; width: 100% !important;
    }}
}}
</style>"""


def open_step(number: int) -> None:
    """Callback: the sidebar takes step ``number``'s settings, and its view will show the
    prompt (call before ``st.switch_page(STEPS[number - 1].page, ...)``)."""
    apply_settings(STEPS[number - 1].settings())
    st.session_state[_FOCUS] = True
    st.session_state[TOUR_VIEW] = number
    st.session_state[TOUR_STEP] = number
    # A lecturer with a class: the phones start for the step now, not once this session's
    # runs (the switch, the sidebar) reach the prompt, which says it again (:func:`start`).
    lecturer.publish_step(number)


def link_problem(raw: str) -> str | None:
    """What is wrong with a link's ``tour=`` (warned about with its other parameters)."""
    return parse_step(raw)[1]


def read_link_once() -> None:
    """First run of a session: ``tour=N`` (a reloaded view of the tour) reopens step N's
    prompt on its view; the link itself holds the view's settings."""
    ss = st.session_state
    if _READ in ss:
        return
    ss[_READ] = True
    if (number := step_in_address()) is not None and TOUR_VIEW not in ss:
        ss[TOUR_VIEW] = ss[TOUR_STEP] = number


def step_in_address() -> int | None:
    """The step the address's ``tour=`` names; None without one, or when it names none
    (the link's warning says why, :func:`link_problem`)."""
    if (raw := st.query_params.get(Q_TOUR)) is None:
        return None
    number, problem = parse_step(raw)
    return number if problem is None else None


def link_params() -> dict[str, str]:
    """The open step, for the address bar, while the tour drives the views."""
    number = st.session_state.get(TOUR_VIEW)
    return {Q_TOUR: str(number)} if isinstance(number, int) else {}


def _leave() -> None:
    st.session_state.pop(TOUR_VIEW, None)


def go_to_step(number: int) -> None:
    """Step ``number``'s settings, and its view next (a callback of Back / Next, or before
    the sidebar)."""
    open_step(number)
    page, query = step_page(number)
    st.session_state[_GO] = (page, query or None, STEPS[number - 1].url_path)


def step_page(number: int) -> tuple[str, dict[str, str]]:
    """Step ``number``'s page (its script, as ``st.switch_page`` takes it) and the query
    its view opens with."""
    step = STEPS[number - 1]
    return step.page, dict(step.page_query)


def switch_if_asked(url_path: str | None = None) -> None:
    """Open the page a click (or the lecturer's move) asked for, if any: ends this run —
    unless this run is already that page's (``url_path``) with its query in the address
    (the server ran it for the lecturer's move, :mod:`classroom.follow`)."""
    if (target := st.session_state.pop(_GO, None)) is not None:
        page, query, target_path = target
        here = st.query_params.to_dict()
        if target_path == url_path and all(here.get(k) == v for k, v in (query or {}).items()):
            return
        st.switch_page(page, query_params=query)


def _go_to_tour() -> None:
    _leave()
    st.session_state[_GO] = (f"app_pages/{TOUR_PAGE}.py", None, TOUR_PAGE)


def open_on(url_path: str) -> int | None:
    """The tour step whose view is the page at ``url_path``, when the tour opened it; else
    None."""
    number = st.session_state.get(TOUR_VIEW)
    if url_path == TOUR_PAGE or not (isinstance(number, int) and 1 <= number <= len(STEPS)):
        return None
    return number if STEPS[number - 1].url_path == url_path else None


def step_on(url_path: str) -> int | None:
    """As :func:`open_on`; where the tour's open step is not this page's, the tour lets go
    of the views (the lecturer went elsewhere)."""
    number = open_on(url_path)
    if number is None and url_path != TOUR_PAGE:
        _leave()  # the tour page: "Open this view" has just set the step, keep it
    return number


def start(url_path: str, settings: Settings):
    """Draw the prompt of the step open on this page, if the tour opened it; returns the
    place for the page's findings (for :func:`finish`; :data:`SEALED` while the answer
    waits for the lecturer's reveal), or None. ``settings`` are this run's, for the
    step's question (on a page with its own settings, the step's are the view's)."""
    switch_if_asked()
    number = step_on(url_path)
    if number is None:
        return None
    step = STEPS[number - 1]
    if url_path in OWN_SETTINGS:  # the sidebar's settings are not this view's
        settings = step.settings()
    st.session_state[_SHOWS] = step.shows
    lecturer.publish_step(number)  # a lecturer with a class: the class's step
    projector = projector_on()
    # Counted within its part, as on the tour page: the lecture's steps, the optional apart.
    position, count = place_in_part(number)
    part = _(step.part) if step.part else ""
    where = dict(number=number, position=position, count=count, part=part,
                 title=_(step.title))
    with st.container(border=True, key="tour_prompt"):
        if projector:  # one row: where the lecture is (visible from the back), and the moves
            with st.container(horizontal=True, vertical_alignment="center"):
                number_caption((_("**Step {number}, optional: {position} of {count}** · {title}")
                                if step.part else _("**Step {number} of {count}** · {title}"))
                               .format(**where))
                _nav(number, width="content")
                look_place = st.empty()  # "What to look for", once it may be shown
        else:
            st.caption((_("Guided tour · step {number}, optional: {position} of {count} in "
                          "{part} · {title}") if step.part else
                        _("Guided tour · step {number} of {count} · {title}")).format(**where))
        # The lecturer's counts beside the question (one column on a phone).
        ask, counts = (st.columns([3, 2]) if lecturer.running() and step.check
                       else (st.container(), None))
        with ask:
            st.markdown(f"**{_(step.question)}**")
            if step.check:  # each student's prediction first (the view waits for it)
                predict.ask(step.check, settings, tally_id=tally_id(number))
        if counts is not None:
            with counts:
                lecturer.compact_tally(number, settings)
        if predict.holding():  # the answer after the prediction, not before
            slot = st.empty()
        elif predict.sealed():  # in a class: the answer waits for the lecturer's reveal
            slot = SEALED
        else:
            # On a projector a button in the top row opens it over the page (no row of its own).
            look = (look_place.popover(_("What to look for"), icon=":material/visibility:")
                    if projector else
                    st.expander(_("What to look for"), icon=":material/visibility:"))
            with look:
                changed = differences(step.settings(), settings)
                if changed:
                    # The step's fixed words describe its own setting, not this view.
                    st.markdown(_("*At the step's own setting:* {look_for}").format(
                        look_for=_(step.look_for)))
                    st.caption(_("Your view differs from the step's: {changes}. The sentence "
                                 "above describes the step's setting; 'On this screen' below "
                                 "reads yours.").format(changes="; ".join(changed)))
                    st.button(_("Back to the step's setting"), key="tour_prompt_reset",
                              on_click=go_to_step, args=(number,),
                              icon=":material/undo:")
                else:
                    st.write(_(step.look_for))
                slot = st.empty()
        if not projector:
            _nav(number)
    opened = st.session_state.pop(_FOCUS, False)
    if projector and not predict.holding():
        st.html(PINNED_CSS)
        pin_beside(PINNED_REM)
        if opened or predict.just_answered():
            focus.bring_first_chart_on_screen(".st-key-tour_prompt")
    if opened:
        # The keyboard starts at the question (its box, not an option: an arrow key on a
        # focused option would answer), or at the prompt when the step asks none.
        focus.focus(".st-key-tour_prompt [class*='st-key-predict_box_']", ".st-key-tour_prompt")
    return slot


def _nav(number: int, width: str = "stretch") -> None:
    """Back, the tour, Next: one row on a phone too (columns would stack three buttons)."""
    row = st.container(horizontal=True, width=width)
    row.button(_("← Back"), key="tour_prompt_back", disabled=number == 1,
               on_click=go_to_step, args=(number - 1,), width=width)
    row.button(_("The tour"), key="tour_prompt_tour", on_click=_go_to_tour,
               icon=":material/co_present:", width=width)
    row.button(_("Next →"), key="tour_prompt_next", disabled=number == len(STEPS),
               on_click=go_to_step, args=(number + 1,), width=width)


def finish(url_path: str, slot) -> None:
    """Add what the page at ``url_path`` found to the open step's answer (after it ran)."""
    said = findings.published(url_path)
    if shows := st.session_state.get(_SHOWS):
        said = {name: text for name, text in said.items() if name in shows}
    if slot is not None and slot is not SEALED and said:
        with slot.container():
            st.markdown(_("**On this screen:** {findings}").format(
                findings=join_sentences(said.values())))
