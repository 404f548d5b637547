"""Class tally: a lecturer's live count of the class's predictions (classroom/lecturer.py)."""

import streamlit as st

from classroom.lecturer import how_long, live_tally, start_or_show
from classroom.store import shares_classes
from lecture_pack import ahead
from shell.sidebar import current_settings
from words.i18n import _

st.title(_("Class tally"))
opened = start_or_show()
if opened is not None:
    ahead.start()  # a class is on: every tour step's view is computed before it is reached
    live_tally(*opened, current_settings())
if shares_classes():
    privacy = _(
        "Anonymous: each browser session answers under a random token, counted once per "
        "question and round (a changed answer replaces the old one until the round closes); no "
        "names. The tally lives in the Redis store this server's replicas share, and is deleted "
        "there when the class ends {when}.")
else:
    privacy = _(
        "Anonymous: each browser session answers under a random token, counted once per "
        "question and round (a changed answer replaces the old one until the round closes); no "
        "names, nothing written to disk. The tally lives in this server's memory; the class "
        "ends {when}.")
st.caption(privacy.format(when=how_long()))
