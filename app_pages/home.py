"""Home: what kernel PCA is, in three sentences, then the classroom presets."""

import streamlit as st

from lessons.home.presets import presets
from shell.registry import LESSONS
from shell.sidebar import apply_settings
from words.i18n import _

st.title("KPCA Lab")
st.write(_(
    "Principal component analysis finds the directions along which data varies most, "
    "but only straight directions in the space the data lives in. "
    "Kernel PCA first compares every pair of points with a kernel function, which amounts to "
    "mapping the data into a much larger feature space, and then does PCA there, so curved "
    "structure such as rings or spirals can become straight. "
    "This app shows each step on real data: the kernel matrix, its eigenvalues and the new "
    "coordinates, next to plain PCA for comparison."
))

st.subheader(_("Start with a classroom preset"))
for preset in presets():
    with st.container(border=True):
        title_col, lesson_col = st.columns([2, 5], vertical_alignment="center")
        clicked = title_col.button(
            _(preset.title),
            key=f"preset_{preset.key}",
            on_click=apply_settings,  # runs before the sidebar is drawn again
            args=(preset.settings,),
            width="stretch",
        )
        lesson_col.write(_(preset.lesson))
        if clicked:
            st.switch_page("app_pages/explorer.py")

st.subheader(_("The lessons"))
for lesson in LESSONS:
    link_col, teaches_col = st.columns([2, 5], vertical_alignment="center")
    link_col.page_link(lesson.path, label=_(lesson.title), icon=lesson.icon)
    teaches_col.write(_(lesson.teaches))

st.caption(_(
    "Or choose any dataset and kernel in the sidebar and open any page. "
    "The address bar always holds the current settings: copy it to share a view."
))
