"""KPCA Lab: the router. Pages live in app_pages/ (see the README for why not pages/).

Every run: the navigation, the shell's sidebar, the classroom's hooks around the page,
the page. Adding a page = one file in app_pages/ plus one ``Lesson`` line in
``shell/registry.py``.
"""

import streamlit as st

from server import cpu, memory, warmup, widget_messages

# Once per process, before the app's modules load SciPy and scikit-learn (the shell's
# below): BLAS's and OpenMP's threads to the CPUs a container's quota really gives it, not
# the cores it sees (server/cpu.py); a thread count set in the environment is kept.
cpu.limit_threads_to_usable_cores()

from shell import accessibility, findings, uploads  # noqa: E402

# Once per process, before the session threads allocate much: two malloc arenas, so that
# the memory a closed session frees can go back to the system (server/memory.py).
memory.tune_allocator()
# Before any widget is drawn: a made-up selection or component message is read as
# unreadable instead of failing in Streamlit's own parse (server/widget_messages.py).
widget_messages.read_widget_messages_safely()
# First, before any session imports a page's modules concurrently (see server/warmup.py).
warmup.import_app_modules()

from classroom import hooks as classroom  # noqa: E402
from lessons.explorer.prepare import start_lab  # noqa: E402
from shell.display import apply_css, initial_sidebar_state  # noqa: E402
from shell.language import choose_language  # noqa: E402
from shell.navigation import menu_pages  # noqa: E402
from shell.sidebar import settings_sidebar  # noqa: E402

# The session's language, for everything this run draws (the link, the sidebar's choice or
# the browser's): first, before any text is made.
choose_language()
st.set_page_config(page_title="KPCA Lab", page_icon=":material/blur_on:", layout="wide",
                   initial_sidebar_state=initial_sidebar_state())

# The menu sits in the header, grouped in sections, so that the sidebar holds only the
# settings: γ and the components stay on the first screen next to the charts they change.
page = st.navigation(menu_pages(), position="top")
# Once per process, in the background after every student's work: every built-in
# dataset × kernel × γ of the grid into the machine's shared cache (a lab's first views
# become reads; nothing without a shared cache or with KPCA_PREPARE_AHEAD=0).
lab_plan = start_lab()  # assigned: a bare call would be drawn by Streamlit's magic
# Once per process: only a page with an uploader keeps a file sent to it, within a ceiling
# on what all sessions hold; what ended sessions held goes (shell/uploads.py).
uploads.guard_uploads()
accessibility.apply_css()  # first, so that its rules are in the page before any widget
# A class code or questions=… in the link, the lecturer's step: before the sidebar shows them.
classroom.start_run(page.url_path)
# The shared sidebar is drawn here, once per run, for whichever page runs below; the
# classroom's box sits at its foot.
settings = settings_sidebar(page.url_path, classroom.WING)
apply_css()  # projector mode, when the sidebar's toggle is on
accessibility.add_skip_link()  # the keyboard reaches the page menu before the sidebar
findings.start_run(page.url_path)
# A view opened from the guided tour shows the step's prompt above it, and the page's own
# findings in its answer (classroom/banner.py); else the page's own question, if pages ask.
findings_slot = classroom.before_page(page.url_path, settings)
# Predict, then reveal: the view waits for an answer or a skip (classroom/predict.py).
if not classroom.holding():
    page.run()
    classroom.after_page(page.url_path, findings_slot)
