"""Tour: a whole lecture on kernel PCA, one view at a time (steps: classroom/tour.py)."""

import streamlit as st

from classroom.banner import open_step
from classroom.join import joined
from classroom.lecturer import lecturer_role
from classroom.lecturer import running as runs_a_class
from classroom.seal import answer_sealed
from classroom.tour import BEYOND, STEPS, main_steps, parse_step, place_in_part, total_minutes
from lecture_pack import ahead, download
from lecture_pack.download import lecture_file
from words.i18n import _, current_language, format_number

STEP_PARAM = "step"

st.title(_("Guided tour"))
st.write(_(
    "A {minutes}-minute lecture in {steps} steps plus an optional {extra} ({part}). Ask the "
    "question, let the room guess, open the view, then reveal what to look for. The address "
    "bar holds the step, so a link can start the tour anywhere. Each view first asks every "
    "student for a prediction; on *Class tally* the room's answers are counted live."
).format(minutes=total_minutes(), steps=len(main_steps()),
         extra=len(STEPS) - len(main_steps()), part=_(BEYOND)))

if "tour_step" not in st.session_state:  # the first run of this page: the link decides
    number, problem = parse_step(st.query_params.get(STEP_PARAM, "1"))
    if problem:
        st.warning(problem, icon=":material/link_off:")
    st.session_state.tour_step = number
number = st.session_state.tour_step
st.query_params[STEP_PARAM] = str(number)
step = STEPS[number - 1]


def _go(delta: int) -> None:
    st.session_state.tour_step = min(max(st.session_state.tour_step + delta, 1), len(STEPS))


# Counted within its part: "Step 3 of 10" in the lecture, the optional part's steps apart.
position, count = place_in_part(number)
st.progress(position / count, text=(
    _("Step {number}, optional: {position} of {count} in {part} · about {minutes} min")
    if step.part else _("Step {number} of {count} · about {minutes} min")).format(
        number=number, position=position, count=count,
        part=_(step.part) if step.part else "", minutes=step.minutes))
st.header(f"{number} · {_(step.title)}")
st.subheader(_(step.question))
if answer_sealed(number):  # a phone in a class: the answer waits for the lecturer
    st.caption(_("What to look for appears here once your lecturer reveals this step."))
else:
    with st.expander(_("What to look for (reveal after showing the view)"),
                     icon=":material/visibility:"):
        st.write(_(step.look_for))
        st.caption(_("The view itself shows this step's question, this answer with what the "
                      "page computes on screen, and Back / Next."))

back, open_view, forward = st.columns([1, 2, 1])
back.button(_("← Back"), key="tour_back", on_click=_go, args=(-1,), disabled=number == 1,
            width="stretch")
forward.button(_("Next →"), key="tour_next", on_click=_go, args=(1,),
               disabled=number == len(STEPS), width="stretch")
if open_view.button(
    _("Open this view"), key="tour_open", type="primary", icon=":material/open_in_new:",
    on_click=open_step, args=(number,), width="stretch",
):
    st.switch_page(step.page, query_params=dict(step.page_query) or None)


@st.fragment(run_every=2)
def preparing() -> None:
    """The views' preparation, followed live until it ends (then the page draws it once)."""
    plan = ahead.start()
    if plan.finished:
        st.rerun()
    st.markdown(f":material/hourglass_top: {ahead.readiness(plan)}")


# The first visit starts computing every step's view in the background (once per server).
# Body text, not a caption: the lecturer reads it in projector mode too.
if (plan := ahead.start()) is not None:
    if plan.finished:
        icon = ":material/error:" if plan.failed else ":material/check_circle:"
        st.markdown(f"{icon} {ahead.readiness(plan)}")
    else:
        preparing()

st.divider()
st.caption(_("The whole lecture, then an optional second part, {part} (steps {first}–{last}, "
             "{minutes} min):").format(part=_(BEYOND), first=len(main_steps()) + 1,
                                       last=len(STEPS), minutes=total_minutes(BEYOND)))
st.markdown("\n".join(
    f"{i}. " + (_("**{title}** (this step) · _{question}_ ({minutes} min)") if i == number
                else _("{title} · _{question}_ ({minutes} min)")).format(
        title=_(item.title), question=_(item.question), minutes=item.minutes)
    for i, item in enumerate(STEPS, start=1)
))


@st.fragment(run_every=2)
def building(language: str) -> None:
    """The offline lecture's build, followed live until it ends (then the page offers it)."""
    plan = download.progress(language)
    if plan is None or plan.finished:
        st.rerun()
    st.markdown(f":material/hourglass_top: {download.status(plan)}")


def offline_lecture() -> None:
    """The whole lecture as one HTML file: prepared on request, then offered."""
    st.divider()
    st.subheader(_("A lecture with no server"))
    st.write(_(
        "One HTML file with the {steps} steps of the lecture: each question with its answer, the "
        "charts, numbers and sentences of its page, and a slider over γ (or the degree) on the "
        "steps whose view moves with it, every value computed now by the app's own code. It needs "
        "no server and no network: open it from a USB stick, or put it on any web space for the "
        "students' phones."
    ).format(steps=len(main_steps())))
    # The file is built in this session's language (its own words, the steps' sentences).
    language = current_language()
    if lecture_file(language) is None:
        plan = download.progress(language)
        if plan is not None and not plan.finished:
            building(language)
        else:
            if plan is not None and plan.failed:
                st.warning(download.status(plan), icon=":material/error:")
            st.caption(_("Preparing it computes every step at every slider value: a minute or "
                         "two, in the background."))
            if st.button(_("Prepare the offline lecture"), key="tour_prepare_lecture",
                         icon=":material/build:"):
                try:  # in the background; where work ahead is off, now
                    with st.spinner(_("Computing the {steps} steps at every slider value…").format(
                            steps=len(download.lecture_steps()))):
                        download.request(language, is_lecturer=runs_a_class())
                    st.rerun()
                except download.NotALecturer as refusal:
                    st.warning(str(refusal), icon=":material/lock:")
    if (prepared := lecture_file(language)) is not None:
        st.download_button(_("Download this lecture"), prepared, file_name="kpca-lab-lecture.html",
                           mime="text/html", key="tour_download_lecture", on_click="ignore",
                           icon=":material/download:", type="primary")
        st.caption(_("{size} MB, Plotly's JavaScript included; its links lead back to {address}.")
                   .format(size=format_number(len(prepared) / 1e6, ".1f"),
                           address=download.server_address()))


# The offline lecture holds every answer: the lecturer's only, never a phone's in a class.
if lecturer_role():
    offline_lecture()
elif joined() is None:
    st.divider()
    st.caption(_("A lecturer can download this lecture as one HTML file from here while "
                 "running a class (Class tally)."))
