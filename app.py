"""KPCA Lab: the router. Pages live in app_pages/ (see the README for why not pages/).

Adding a page = one file in app_pages/ plus one ``Lesson`` line in ``ui/lessons.py``.
"""

import streamlit as st

from ui.display import apply_css
from ui.lessons import HOME, LESSONS
from ui.sidebar import settings_sidebar

st.set_page_config(page_title="KPCA Lab", page_icon=":material/blur_on:", layout="wide")

page = st.navigation(
    [st.Page(HOME.path, title=HOME.title, icon=HOME.icon, default=True)]
    + [st.Page(lesson.path, title=lesson.title, icon=lesson.icon) for lesson in LESSONS]
)
# The shared sidebar is drawn here, once per run, for whichever page runs below.
settings_sidebar(page.url_path)
apply_css()  # projector mode, when the sidebar's toggle is on
page.run()
