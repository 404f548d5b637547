"""Class tally: a lecturer's live count of the class's predictions (classroom/lecturer.py)."""

import streamlit as st

from classroom.lecturer import how_long, live_tally, start_or_show
from lecture_pack import ahead
from shell.sidebar import current_settings
from words.i18n import _

st.title(_("Class tally"))
opened = start_or_show()
if opened is not None:
    ahead.start()  # a class is on: every tour step's view is computed before it is reached
    live_tally(*opened, current_settings())
st.caption(_(
    "Anonymous: each browser session answers under a random token, counted once per question "
    "and round (a changed answer replaces the old one until the round closes); no names, "
    "nothing written to disk. The tally lives in this server's memory; the class ends {when}."
).format(when=how_long()))
