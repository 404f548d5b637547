"""The lecturer's class tally: start a class, show its code and QR code, watch the answers.

Students who open the QR code's link (or type the code in the sidebar's "Classroom" box)
have their predictions counted anonymously (``classroom/join.py``, ``classroom/tally.py``);
this page redraws the counts every :data:`REFRESH_S` seconds without reloading
(``st.fragment(run_every=...)``), and reveals a question's right answer on click. The
tally lives in this server process's memory (see ``classroom/tally.py`` for replicas).
"""

from __future__ import annotations

from urllib.parse import urlencode

import segno
import streamlit as st

from classroom.banner import tally_id
from classroom.join import Q_CLASS, app_url
from classroom.predict import live_question
from classroom.questions import CATALOGUE
from classroom.tally import STORE, TallyRefused, UnknownClass
from classroom.tour import STEPS
from shell.registry import LESSONS
from shell.state import Settings

REFRESH_S = 2
# The counts at the size of the text (1 rem: projector mode enlarges it), not a caption's.
_COUNTS_CSS = ("<style>[class*='st-key-tally_'] [data-testid='stProgress'] p "
               "{font-size: 1rem;}</style>")
_CLASS = "_lecturer_class"  # (code, key) of the class this session opened
_PROBLEM = "_lecturer_problem"


def tally_questions() -> list[tuple[str, str, str, Settings | None]]:
    """Every question a class can answer, in the lecture's order: (tally id, where,
    question id, the settings its right answer is computed at: the step's own; None for
    a lesson page's, which is checked at the lecturer's sidebar settings)."""
    asked = [(tally_id(n), f"Tour step {n} · {step.title}", step.check, step.settings())
             for n, step in enumerate(STEPS, start=1) if step.check]
    asked += [(lesson.question, lesson.title, lesson.question, None)
              for lesson in LESSONS if lesson.question]
    return asked


def join_link(code: str) -> str:
    """The link a student's phone opens: the tour, in this class."""
    return f"{app_url()}/tour?{urlencode({Q_CLASS: code})}"


def qr_svg(text: str) -> str:
    """A QR code of ``text`` as SVG (segno), dark on white whatever the theme."""
    return segno.make(text, error="m").svg_inline(scale=8, border=2, dark="#000",
                                                  light="#fff")


def _start() -> None:
    try:
        st.session_state[_CLASS] = STORE.open_class()
        st.session_state.pop(_PROBLEM, None)
    except TallyRefused as refusal:
        st.session_state[_PROBLEM] = str(refusal)


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
        st.write("Start a class: students scan the QR code (or type the code in the "
                 "sidebar's Classroom box), answer each step's question on their phones, "
                 "and this page counts the answers live, anonymously.")
        st.button("Start a class", key="tally_start", type="primary", on_click=_start,
                  icon=":material/groups:")
        return None
    code, _ = opened
    link = join_link(code)
    code_col, qr_col = st.columns([3, 2], vertical_alignment="center")
    with code_col:
        st.markdown(f"Class code\n# {' '.join(code)}")
        st.code(link, language=None, wrap_lines=True)
        st.button("End the class", key="tally_end", on_click=_end, icon=":material/stop:")
    with qr_col:
        st.markdown("**Scan to join**")
        st.image(qr_svg(link), width=220, alt=f"QR code for {link}")
    return opened


@st.fragment(run_every=REFRESH_S)
def live_tally(code: str, key: str, settings: Settings) -> None:
    """The counts per question and option, redrawn every REFRESH_S seconds; a lesson
    page's right answer is checked at ``settings``, the lecturer's sidebar."""
    try:
        counts = STORE.tally(code, key)
        students = STORE.students(code, key)
    except UnknownClass:
        st.warning("This class has ended (3 hours without an answer, or ended here). "
                   "Start a new one.", icon=":material/timer_off:")
        st.session_state.pop(_CLASS, None)
        return
    st.markdown(f"**{students}** student{'s' if students != 1 else ''} joined · updated "
                f"every {REFRESH_S} s")
    st.html(_COUNTS_CSS)
    shown = [row for row in tally_questions() if row[0] in counts]
    if not shown:
        st.caption("No answers yet.")
    for tid, where, qid, at in shown:
        prompt, texts = CATALOGUE[qid]
        options = counts[tid][: len(texts)]
        total = sum(c.chosen for c in options)
        with st.container(border=True, key=f"tally_{tid}"):
            st.markdown(f"**{where}** · {prompt}")
            reveal = st.toggle("Reveal the right answer", key=f"tally_reveal_{tid}")
            asked = live_question(qid, at or settings) if reveal else None
            for i, (text, count) in enumerate(zip(texts, options, strict=True)):
                label = f"{text}: {count.chosen}"
                if asked is not None:
                    right = asked.options[i].right
                    label += " ✓ right" if right else " ✗"
                    if count.right != (count.chosen if right else 0):
                        # Students who moved γ or the data: checked at their own view.
                        label += f" (right for {count.right} at their own settings)"
                st.progress(count.chosen / total if total else 0.0, text=label)
            if reveal and asked is None:
                st.caption("Right answers, as each student's own view checked them: "
                           + ", ".join(f"{t}: {c.right}" for t, c in zip(texts, options,
                                                                       strict=True)))
            elif reveal:
                st.caption("Checked at " + ("the step's settings." if at else
                                            "your sidebar's settings."))
