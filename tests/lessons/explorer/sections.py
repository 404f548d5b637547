"""Open one of the Explorer's step-by-step tabs in an AppTest session.

Only the open tab is drawn (lessons/explorer/steps.py).
"""

from __future__ import annotations

from lessons.explorer.steps import SECTION_KEY, SECTIONS

DATA_TAB, KERNEL_TAB, SPECTRUM_TAB, TAKE_HOME_TAB = range(1, len(SECTIONS) + 1)


def open_section(at, number: int):
    """Switch the tabs to section ``number`` (1-based), as a click does, and rerun."""
    at.session_state[SECTION_KEY] = SECTIONS[number - 1]
    return at.run()
