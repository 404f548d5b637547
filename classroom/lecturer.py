"""The lecturer's class tally: start a class, show its code and QR code, watch the answers.

Students who open the QR code's link (or type the code in the sidebar's "Classroom" box)
have their predictions counted anonymously (``classroom/join.py``, ``classroom/tally.py``);
this page redraws the counts every :data:`REFRESH_S` seconds without reloading
(``st.fragment(run_every=...)``), newest question first. Per question the lecturer shows
the view to the phones (which closes the vote), reveals the answer to the class (the phones
then show every option's verdict) and may first open a second round after a discussion,
counted apart and shown beside the first. Beside the counts, round 1's share right with
peer instruction's advice (``classroom/learned.py``: in a popover until the reveal, since
the room sees this screen and the share would point at the right bar); under the tally,
what the room learned per question, with a CSV. The tour's
views show the same compact tally beside their question (:func:`compact_tally`), and
the step a lecturer with a class opens is the class's step, which the phones follow
(:func:`publish_step`). The tally lives in the class store (``classroom/store.py``: this
process's memory, or a Redis server the replicas share).

The browser keeps its lecturer's class (code and key) in a same-site cookie
(:data:`COOKIE`, written by a script of the page: Streamlit only reads cookies), never in
the address bar the room sees: a new session of that browser (a reload, a second tab, a
websocket reconnected to another replica or to a restarted server) gets the class back
(:func:`read_cookie_once`) or, if the store no longer has it, says it was lost
(:func:`lost_class`). A session opened from a class's link is a student's and leaves the
cookie alone.

The doors: a session runs one class; the class lives while the lecturer's session does
(each redraw of the tally, and on other pages the sidebar's note every
:data:`NOTE_REFRESH_S` seconds, tell the store the lecturer is still there: closing the tab
ends the class after the store's grace period). A host may require a lecturer passcode
(:func:`required_passcode`: ``$KPCA_LECTURER_PASSCODE`` or the Streamlit secret
``lecturer_passcode``), which the store checks with a growing refusal window per session and
per address (:meth:`classroom.tally.TallyStore.check_passcode`); without it one address runs
at most a couple of classes. The lecturer can close joining, sees how many joined in the
last minute, and can remove those who joined in the last few minutes.
"""

from __future__ import annotations

import json
import os
import re
from urllib.parse import urlencode

import segno
import streamlit as st

from classroom.focus import focus
from classroom.join import Q_CLASS, TOKEN_SHAPE, app_url, joined
from classroom.learned import advice, percent, summary_csv, summary_rows
from classroom.predict import live_question
from classroom.questions import CATALOGUE, catalogue
from classroom.store import STORE
from classroom.tally import (
    ALPHABET,
    CODE_LENGTH,
    MAX_ROUNDS,
    OptionCount,
    QuestionTally,
    TallyRefused,
    UnknownClass,
    duration,
    new_token,
)
from classroom.tour import STEPS, tally_id
from shell.registry import LESSONS
from shell.state import Q_LANG, Settings
from words.i18n import (
    DEFAULT_LANGUAGE,
    N_,
    _,
    current_language,
    format_number,
    join_list,
    ngettext,
    use_language,
)

REFRESH_S = 1  # an answer reaches the projected count within about a second
NOTE_REFRESH_S = 20  # the sidebar's note of the class on other pages (a sign of life)
PASSCODE_ENV = "KPCA_LECTURER_PASSCODE"
PASSCODE_SECRET = "lecturer_passcode"
# "Remove the late joiners": the windows offered, in minutes.
REMOVE_WINDOWS = (1, 2, 5, 10)
# The counts at the size of the text (1 rem: projector mode enlarges it), not a caption's.
_COUNTS_CSS = ("<style>[class*='st-key-tally_'] [data-testid='stProgress'] p "
               "{font-size: 1rem;}</style>")
_CLASS = "_lecturer_class"  # (code, key) of the class this session opened
_PROBLEM = "_lecturer_problem"
_LECTURER = "_lecturer_token"  # this session's lecturer token: one class per session
_PASSCODE_KEY = "tally_passcode"
_REMOVED = "_lecturer_removed"  # what the last removal did, said once
_STARTED = "_lecturer_started"  # a class has just started: focus its code
# The browser keeps its lecturer's class (code and key) in a cookie, so that a new session
# of the same browser (a reload, a websocket that reconnects to another replica or to a
# restarted server) gets the class back without anything secret in the address bar.
# Written by a script of the page (Streamlit reads cookies, it does not set them):
# same-site only, for the whole app, as long as a class may live.
COOKIE = "kpca_lecturer"
_KEPT_SHAPE = re.compile(rf"([{ALPHABET}]{{{CODE_LENGTH}}})\.({TOKEN_SHAPE.pattern})")
_KEPT = "_lecturer_kept"  # the cookie's class as this session knows it ("": none)
_READ = "_lecturer_read"  # the cookie was read (once, at the session's first run)
_LOST = "_lecturer_lost"  # the code of the cookie's class, which the store no longer has
_COOKIE_SCRIPT = """<script>
// The lecturer's class, kept by this browser: {state}.
document.cookie = {cookie} + (location.protocol === "https:" ? "; Secure" : "");
</script>"""


def tally_questions() -> list[tuple[str, str, str, Settings | None]]:
    """Every question a class can answer, in the lecture's order: (tally id, where,
    question id, the settings its right answer is computed at: the step's own; None for
    a lesson page's, which is checked at the lecturer's sidebar settings)."""
    asked = [(tally_id(n), _("Tour step {number} · {title}").format(number=n,
                                                                     title=_(step.title)),
              step.check, step.settings())
             for n, step in enumerate(STEPS, start=1) if step.check]
    asked += [(lesson.question, _(lesson.title), lesson.question, None)
              for lesson in LESSONS if lesson.question]
    return asked


def join_link(code: str) -> str:
    """The link a student's phone opens: the tour, in this class, in the lecturer's language
    (a phone would otherwise take its browser's: a Chinese lecture's phones opened in
    English); each student can still choose their own in the sidebar."""
    return f"{app_url()}/tour?{urlencode({Q_CLASS: code, Q_LANG: current_language()})}"


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as SVG (segno), dark on white whatever the theme."""
    return segno.make(text, error="m").svg_inline(scale=8, border=2, dark="#000",
                                                  light="#fff")


def how_long() -> str:
    """When a class ends, in the store's own numbers."""
    limits = STORE.limits
    return _("{grace} after its lecturer's tab is closed, {idle} after the last answer, or, "
             "while nobody has joined it, when the server is full and another lecturer "
             "starts a class").format(grace=duration(limits.lecturer_grace_s),
                                      idle=duration(limits.idle_expiry_s))


def required_passcode() -> str:
    """The passcode a lecturer must give to start a class ("" when none is required):
    ``$KPCA_LECTURER_PASSCODE`` if set, else the Streamlit secret ``lecturer_passcode``
    (``.streamlit/secrets.toml``, or the app's Secrets on Community Cloud)."""
    from_env = os.environ.get(PASSCODE_ENV, "")
    if from_env:
        return from_env
    if st.secrets.load_if_toml_exists():
        return str(st.secrets.get(PASSCODE_SECRET, "") or "")
    return ""


def client_address() -> str | None:
    """The address this session's browser connects from; None where it is not known (a
    browser on this machine, or a proxy that does not say whom it forwards). Behind a
    proxy that appends the client's address to X-Forwarded-For (deploy/haproxy.cfg), the
    server (uvicorn, under Streamlit) has already put the header's right-most hop it does
    not trust in its place, when the proxy is one it trusts: ``FORWARDED_ALLOW_IPS``,
    by default this machine (127.0.0.1, ::1); from any other peer the header is ignored
    (tests/classroom/test_tally_server.py, tests/deploy/test_haproxy_address.py). Anything
    but text (a harness's stand-in) is not an address: the store keeps only strings."""
    address = st.context.ip_address
    return address if isinstance(address, str) else None


def kept_class(value: object) -> tuple[str, str] | None:
    """The class a cookie's ``value`` names, (code, key), if it has the shape this page
    writes (``CODE.KEY``); None for anything else."""
    match = _KEPT_SHAPE.fullmatch(value) if isinstance(value, str) else None
    return (match[1], match[2]) if match else None


def browser_cookie() -> object:
    """The value of this browser's lecturer cookie when the session started (None: none)."""
    return st.context.cookies.get(COOKIE)


def read_cookie_once() -> None:
    """First run of a session: the class this browser's cookie names comes back, if the
    store still runs it (its key is the proof: no passcode asked, no class opened); if not,
    the lecturer is told it was lost. A session that opened a class's link (``?class=``) is
    a student's: it leaves the cookie alone, so a phone never becomes a lecturer."""
    ss = st.session_state
    if _READ in ss:
        return
    ss[_READ] = True
    if Q_CLASS in st.query_params or _CLASS in ss:
        return
    value = browser_cookie()
    kept = kept_class(value)
    ss[_KEPT] = value if kept else ""  # (anything else stays as it is, unread)
    if kept is None:
        return
    try:
        STORE.status(*kept)
    except UnknownClass:
        ss[_LOST] = kept[0]
        return
    ss[_CLASS] = kept


def keep_in_browser() -> None:
    """Put this session's class in the browser's cookie, or clear it once the class has
    gone (an empty element, at the sidebar's foot: call once per run). A student's session
    (which never read the cookie) writes it only if it starts a class itself."""
    ss = st.session_state
    opened = ss.get(_CLASS)
    wanted = f"{opened[0]}.{opened[1]}" if opened else ""
    if wanted == ss.get(_KEPT, ""):
        return
    ss[_KEPT] = wanted
    lifetime = int(STORE.limits.max_age_s) if wanted else 0  # 0: the browser drops it
    cookie = f"{COOKIE}={wanted}; Path=/; Max-Age={lifetime}; SameSite=Strict"
    st.html(_COOKIE_SCRIPT.format(state="a class" if wanted else "none",
                                  cookie=json.dumps(cookie)), unsafe_allow_javascript=True)


def lost_class() -> str | None:
    """What the lecturer is told when the cookie's class is gone, or None."""
    if (code := st.session_state.get(_LOST)) is None:
        return None
    return _("Your class {code} was lost: it has ended, or the server restarted (a class "
             "kept in the server's memory does not survive a restart). Start a new class: "
             "the students join it with its new code.").format(code=code)


def _start() -> None:
    ss = st.session_state
    required = required_passcode()
    session, address = ss.setdefault(_LECTURER, new_token()), client_address()
    try:
        if required:
            STORE.check_passcode(ss.get(_PASSCODE_KEY, ""), required, session=session,
                                 address=address)
        ss[_CLASS] = STORE.open_class(session, address=address, with_passcode=bool(required))
        ss[_STARTED] = True
        ss.pop(_PROBLEM, None)
        ss.pop(_LOST, None)
    except TallyRefused as refusal:
        ss[_PROBLEM] = refusal.said()
    ss.pop(_PASSCODE_KEY, None)  # never kept, never shown again


def _end() -> None:
    code, key = st.session_state.pop(_CLASS)
    try:
        STORE.close_class(code, key)
    except UnknownClass:
        pass  # already expired


def start_or_show() -> tuple[str, str] | None:
    """The class this session runs, or a button to start one."""
    if problem := st.session_state.get(_PROBLEM):
        st.warning(problem, icon=":material/groups:")
    opened = st.session_state.get(_CLASS)
    if opened is None:
        if lost := lost_class():
            st.warning(lost, icon=":material/cloud_off:")
        st.write(_("Start a class: students scan the QR code (or type the code in the "
                   "sidebar's Classroom box), answer each step's question on their phones, "
                   "and this page counts the answers live, anonymously."))
        if required_passcode():
            st.text_input(_("Lecturer passcode"), key=_PASSCODE_KEY, type="password",
                          help=_("This server lets only lecturers start classes: ask whoever "
                                 "runs it for the passcode."))
        st.button(_("Start a class"), key="tally_start", type="primary", on_click=_start,
                  icon=":material/groups:")
        return None
    code, _key = opened
    link = join_link(code)
    code_col, qr_col = st.columns([3, 2], vertical_alignment="center")
    with code_col.container(key="tally_code"):
        st.markdown(_("Class code") + f"\n# {' '.join(code)}")
        st.code(link, language=None, wrap_lines=True)
        st.button(_("End the class"), key="tally_end", on_click=_end, icon=":material/stop:")
    with qr_col:
        st.markdown(_("**Scan to join**"))
        st.image(qr_svg(link), width=220, alt=_("QR code for {link}").format(link=link))
    if st.session_state.pop(_STARTED, False):  # the keyboard (and a screen reader): the code
        focus(".st-key-tally_code h1")
    return opened


def _set_joining(code: str, key: str) -> None:
    try:
        STORE.set_joining(code, key, bool(st.session_state.get("tally_joining", True)))
    except UnknownClass:
        pass  # the fragment says the class has ended


def _remove_late(code: str, key: str, minutes: int) -> None:
    try:
        removed = STORE.remove_joined(code, key, 60 * minutes)
    except UnknownClass:
        return
    st.session_state[_REMOVED] = ngettext(
        "Removed {count} student who joined in the last {minutes}, with their answers; they "
        "cannot join this class again.",
        "Removed {count} students who joined in the last {minutes}, with their answers; they "
        "cannot join this class again.", removed).format(count=removed,
                                                         minutes=_minutes(minutes))


def _minutes(minutes: int) -> str:
    return _("minute") if minutes == 1 else _("{n} minutes").format(n=minutes)


def the_door(code: str, key: str, joining_open: bool) -> None:
    """Close or open joining; remove the students who joined in the last few minutes."""
    st.session_state["tally_joining"] = joining_open
    with st.expander(_("The door: close joining, remove late joiners"),
                     icon=":material/door_open:"):
        st.toggle(_("Students may join"), key="tally_joining", on_change=_set_joining,
                  args=(code, key), help=_("Close the door once the room is in: nobody new "
                                           "joins (those in stay)."))
        windows = {window: _minutes(window) for window in REMOVE_WINDOWS}
        minutes = st.segmented_control(
            _("Remove the students who joined in the last"), REMOVE_WINDOWS, default=1,
            key="tally_window", format_func=windows.__getitem__) or 1
        count = STORE.joined_within(code, key, 60 * minutes)
        st.button(_("Remove the {count} who joined in the last {minutes}").format(
                      count=count, minutes=_minutes(minutes)),
                  key="tally_remove", on_click=_remove_late, args=(code, key, minutes),
                  disabled=count == 0, icon=":material/person_remove:",
                  help=_("A script filling seats or stuffing votes: its sessions and their "
                         "answers go, and cannot join again."))
        if said := st.session_state.pop(_REMOVED, None):
            st.success(said, icon=":material/person_remove:")


def running() -> bool:
    """Whether this session runs a class."""
    return st.session_state.get(_CLASS) is not None


def lecturer_role() -> bool:
    """Whether this session is a lecturer's: it runs a class (started with the server's
    passcode where one is required) and sits in no class as a student. What holds every
    answer (the offline lecture) is offered to this role only."""
    return running() and joined() is None


def lecturer_note() -> None:
    """The sidebar's line for a lecturer with a class, on every page: the code and how
    many joined; redrawn every NOTE_REFRESH_S seconds, each time a sign of life for the
    class (a lecture on the tour's pages keeps it open)."""
    if running():
        _note()
    elif lost := lost_class():
        st.caption(lost)


@st.fragment(run_every=NOTE_REFRESH_S)
def _note() -> None:
    opened = st.session_state.get(_CLASS)
    if opened is None:
        return
    try:
        status = STORE.status(*opened)
    except UnknownClass:
        st.caption(_("Your class has ended."))
        return
    st.markdown((_("You run class **{code}**: {count} joined.") if status.joining_open else
                 _("You run class **{code}**: {count} joined (joining closed).")).format(
        code=opened[0], count=status.students))


def publish_step(number: int) -> None:
    """This lecturer opened tour step ``number``: the class's step, which phones follow."""
    if (opened := st.session_state.get(_CLASS)) is None:
        return
    try:
        STORE.set_step(*opened, number)
    except UnknownClass:
        st.session_state.pop(_CLASS, None)


def _reveal(code: str, key: str, tid: str) -> None:
    try:
        STORE.reveal(code, key, tid)
    except TallyRefused as refusal:
        st.session_state[_PROBLEM] = refusal.said()


def _show_view(code: str, key: str, tid: str) -> None:
    try:
        STORE.show_view(code, key, tid)
    except TallyRefused as refusal:
        st.session_state[_PROBLEM] = refusal.said()


def _second_round(code: str, key: str, tid: str) -> None:
    try:
        STORE.open_second_round(code, key, tid)
    except TallyRefused as refusal:
        st.session_state[_PROBLEM] = refusal.said()


# An option's bar: (is it right? None before the reveal) → its label.
_BAR = {None: N_("{option}: {count}"), True: N_("{option}: {count} ✓ right"),
        False: N_("{option}: {count} ✗")}


def _bars(texts: list[str], counts: tuple[OptionCount, ...],
          marks: list[bool | None]) -> None:
    total = sum(c.chosen for c in counts[: len(texts)])
    for text, count, mark in zip(texts, counts, marks, strict=False):
        st.progress(count.chosen / total if total else 0.0,
                    text=_(_BAR[mark]).format(option=text, count=count.chosen))


def _rounds(tid: str, texts: list[str], votes: QuestionTally | None,
            marks: list[bool | None],
            code: str, key: str) -> None:
    """The bars of each round (side by side once there are two) and the buttons that
    reveal the question to the class or open its second round."""
    rounds = votes.rounds if votes is not None else (tuple(OptionCount(0, 0) for _ in texts),)
    columns = st.columns(len(rounds)) if len(rounds) > 1 else [st.container()]
    for number, (column, counts) in enumerate(zip(columns, rounds, strict=True), start=1):
        with column:
            voted = sum(c.chosen for c in counts)
            still_open = number == len(rounds) and (votes is None or votes.voting_open)
            st.markdown((ngettext("**Round {round}** · {count} vote (open)",
                                  "**Round {round}** · {count} votes (open)", voted)
                         if still_open else
                         ngettext("**Round {round}** · {count} vote",
                                  "**Round {round}** · {count} votes", voted)).format(
                round=number, count=voted))
            _bars(texts, counts, marks)
    revealed = votes is not None and votes.revealed
    shown = votes is not None and votes.shown
    row = st.container(horizontal=True)
    row.button(_("View shown") if shown else _("Show the view to the phones"),
               key=f"tally_show_{tid}", on_click=_show_view, args=(code, key, tid),
               disabled=shown, icon=":material/smartphone:",
               help=_("Closes the vote (the answers are final) and shows the view on every "
                      "phone; why each option is right or wrong waits for the reveal."))
    row.button(_("Revealed") if revealed else _("Reveal to the class"),
               key=f"tally_reveal_{tid}", on_click=_reveal, args=(code, key, tid),
               disabled=revealed, icon=":material/visibility:",
               help=_("Closes the vote; every phone shows the view and why each option is "
                      "right or wrong."))
    if len(rounds) < MAX_ROUNDS:
        row.button(_("Second round"), key=f"tally_round2_{tid}", on_click=_second_round,
                   args=(code, key, tid), disabled=votes is None,
                   icon=":material/replay:", help=_("After a discussion: the class votes "
                   "again, counted apart from round 1 (and the answer is hidden again)."))
    _round_1_advice(tid, votes)


def _round_1_advice(tid: str, votes: QuestionTally | None) -> None:
    """Round 1's share right and what to do next. Before the reveal it waits in a popover:
    the room reads this screen, and the share beside the bars would point at the right one."""
    first = votes.rounds[0] if votes is not None else ()
    said = advice(sum(c.right for c in first), sum(c.chosen for c in first))
    if said is None:
        return
    if votes.revealed:
        st.markdown(said)
        return
    with st.popover(_("Round 1: how many were right"), icon=":material/insights:",
                    key=f"tally_advice_{tid}"):
        st.markdown(said)
        st.caption(_("For your eyes: the room sees this screen, and the share would point "
                     "at the right option."))


def _marks(votes: QuestionTally | None, texts: list[str], qid: str,
           at: Settings) -> list[bool | None]:
    """After the reveal, which option is right for the view at ``at`` (None for each before
    it, or when the view's question cannot be asked)."""
    asked = live_question(qid, at) if votes is not None and votes.revealed else None
    if asked is None:
        return [None] * len(texts)
    return [option.right for option in asked.options]


def compact_tally(number: int, settings: Settings) -> None:
    """Beside a tour step's question on the lecturer's view: the class's counts per option
    and round, with the reveal and the second round (redrawn every REFRESH_S seconds)."""
    if running() and STEPS[number - 1].check:
        _compact(number, settings)


@st.fragment(run_every=REFRESH_S)
def _compact(number: int, settings: Settings) -> None:
    opened = st.session_state.get(_CLASS)
    if opened is None:
        return
    tid, qid = tally_id(number), STEPS[number - 1].check
    try:
        status = STORE.status(*opened)
        votes = STORE.tally(*opened).get(tid)
    except UnknownClass:
        st.caption(_("Your class has ended."))
        return
    texts = catalogue(qid)[1]
    with st.container(border=True, key="tally_compact"):
        st.caption(_("Class {code} · {count} joined · step {number} is the class's step: "
                     "the phones follow").format(code=opened[0], count=status.students,
                                                 number=number))
        _rounds(tid, list(texts), votes, _marks(votes, list(texts), qid, settings), *opened)


@st.fragment(run_every=REFRESH_S)
def live_tally(code: str, key: str, settings: Settings) -> None:
    """The counts per question, round and option, newest question first, redrawn every
    REFRESH_S seconds; a lesson page's right answer is checked at ``settings``, the
    lecturer's sidebar."""
    try:
        status = STORE.status(code, key)
        counts = STORE.tally(code, key)
    except UnknownClass:
        st.warning(_("This class has ended (a class ends {when}, or when it is ended here). "
                     "Start a new one.").format(when=how_long()), icon=":material/timer_off:")
        st.session_state.pop(_CLASS, None)
        return
    students = status.students
    st.markdown((ngettext("**{count}** student joined ({recent} in the last minute) · "
                          "updated every {seconds} s",
                          "**{count}** students joined ({recent} in the last minute) · "
                          "updated every {seconds} s", students)
                 if status.joining_open else
                 ngettext("**{count}** student joined ({recent} in the last minute; joining "
                          "is closed) · updated every {seconds} s",
                          "**{count}** students joined ({recent} in the last minute; joining "
                          "is closed) · updated every {seconds} s", students)).format(
        count=students, recent=status.joined_last_minute, seconds=REFRESH_S))
    the_door(code, key, status.joining_open)
    st.html(_COUNTS_CSS)
    if problem := st.session_state.pop(_PROBLEM, None):
        st.warning(problem, icon=":material/groups:")
    rows = {row[0]: row for row in tally_questions()}
    shown = [rows[tid] for tid in reversed(counts) if tid in rows]  # newest first
    if not shown:
        st.caption(_("No answers yet."))
    for tid, where, qid, at in shown:
        prompt, texts = catalogue(qid)
        votes = counts[tid]
        with st.container(border=True, key=f"tally_{tid}"):
            st.markdown(f"**{where}** · {prompt}")
            marks = _marks(votes, list(texts), qid, at or settings)
            _rounds(tid, list(texts), votes, marks, code, key)
            if votes.revealed:
                last = votes.rounds[-1]
                if all(mark is None for mark in marks):
                    st.caption(_("Right answers, as each student's own view checked them: "
                                 "{counts}").format(counts=join_list([
                                     _("{option}: {count}").format(option=t, count=c.right)
                                     for t, c in zip(texts, last, strict=False)])))
                else:
                    rights = ", ".join(f"{c.right}" for c in last[: len(texts)])
                    st.caption((_("Checked at the step's settings. Students who moved γ or "
                                  "the data are checked at their own view: right for "
                                  "{counts} per option in the last round.") if at else
                                _("Checked at your sidebar's settings. Students who moved γ "
                                  "or the data are checked at their own view: right for "
                                  "{counts} per option in the last round.")).format(
                        counts=rights))
    if shown:
        room_learned(code, key)


def _share(votes: object, right: object) -> str:
    """A table's cell: "45 % (9 of 20)", or a dash for a round nobody voted in."""
    share = percent(right, votes) if isinstance(votes, int) and isinstance(right, int) else None
    if share is None:
        return "—"
    return _("{share} % ({right} of {votes})").format(
        share=format_number(share), right=format_number(right), votes=format_number(votes))


def _count(value: object) -> str:
    return "—" if value is None else format_number(value)


def room_learned(code: str, key: str) -> None:
    """What the room learned, per question in the order asked: each round's share right
    and how many students moved from a wrong answer to a right one (and back); a CSV of
    it. Anonymous counts, kept as long as the class's answers. The table lists the revealed
    questions only (the room may see this screen: a share right points at the answer); the
    CSV every question, with whether it was revealed."""
    try:
        summary = STORE.summary(code, key)
    except UnknownClass:
        return
    asked = {tid: (where, qid) for tid, where, qid, _at in tally_questions()}
    with use_language(DEFAULT_LANGUAGE):  # what leaves the app stays English
        english = {tid: where for tid, where, _qid, _at in tally_questions()}
    rows = summary_rows([(tid, english[tid], CATALOGUE[asked[tid][1]][0], summary[tid])
                         for tid in summary if tid in asked])
    revealed = [row for row in rows if row["revealed"]]
    table = {
        _("Question"): [asked[row["question_id"]][0] for row in revealed],
        _("Round 1 right"): [_share(row["round_1_votes"], row["round_1_right"])
                             for row in revealed],
        _("Round 2 right"): [_share(row["round_2_votes"], row["round_2_right"])
                             for row in revealed],
        _("Wrong → right"): [_count(row["wrong_to_right"]) for row in revealed],
        _("Right → wrong"): [_count(row["right_to_wrong"]) for row in revealed],
    }
    with st.container(border=True, key="tally_learned"):
        st.markdown(_("**What the room learned**"))
        if revealed:
            st.table(table)
        st.caption(_("A question is listed here once revealed (the room may see this screen); "
                     "the CSV holds every question. Right for each student's own view; wrong "
                     "→ right counts the students who voted in both rounds. Anonymous counts, "
                     "kept as long as the class's answers: ending the class forgets them, so "
                     "download them first."))
        st.download_button(_("Download the summary (CSV)"), summary_csv(rows),
                           file_name=f"kpca-lab-class-{code}.csv", mime="text/csv",
                           key="tally_learned_csv", on_click="ignore",
                           icon=":material/download:")
