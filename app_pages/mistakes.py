"""Common mistakes: seven errors (six published), each next to the right result on the data."""

import streamlit as st

from lessons.mistakes import lucky_view, view
from server.memory import guard_memory
from shell.page import kernel_errors, page_data
from shell.sidebar import current_settings
from words.i18n import N_, _, format_number

st.title(_("Common mistakes"))
st.write(_(
    "Kernel PCA is short, and easy to copy wrongly: six of the errors below appear in "
    "public lecture notes and code (each says where), the seventh is an easy slip with "
    "NumPy. Each is run on the sidebar's data next to the right computation, with a number "
    "for the damage it does — and, where it does none, a number showing that too."
))

settings = current_settings()
data, inputs = page_data(settings)
n = len(data.X)
rows = view.sample_rows(n)
if len(rows) < 8:
    st.warning(_("These comparisons need at least 8 points (a quarter are held out as new "
                 "points). Add points in the sidebar."))
    st.stop()
# K, K̃, the wrong K̃ and a solver's copy coexist.
guard_memory(len(rows), copies=view.MISTAKES_COPIES,
             what=N_("K, K̃, a wrong K̃ and the eigensolver's copy"))

with kernel_errors(), st.spinner(_("Making every mistake…")):
    results = view.cached_mistakes(inputs, settings.kernel_key)
if len(rows) < n:
    st.info(_("Each mistake needs its own eigendecomposition: this page uses a fixed random "
              "sample of {sample} of the {n} points.").format(
        sample=format_number(len(rows), ","), n=format_number(n, ",")),
        icon=":material/filter_alt:")

view.mistake_sections(results, data, rows)
lucky_view.card(number=len(results) + 1)
