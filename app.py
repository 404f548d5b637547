"""KPCA Lab: the router. Pages live in app_pages/ (see the README for why not pages/).

Adding a page = one file in app_pages/ plus one ``st.Page`` line below.
"""

import streamlit as st

from ui.sidebar import settings_sidebar

st.set_page_config(page_title="KPCA Lab", page_icon=":material/blur_on:", layout="wide")

page = st.navigation(
    [
        st.Page("app_pages/home.py", title="Home", icon=":material/home:", default=True),
        st.Page("app_pages/explorer.py", title="Explorer", icon=":material/scatter_plot:"),
    ]
)
# The shared sidebar is drawn here, once per run, for whichever page runs below.
settings_sidebar()
page.run()
