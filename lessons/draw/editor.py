"""The Draw page's editor: a Streamlit custom component (``st.components.v2``) around
``editor.js``, a plane to click, tap, drag or type points onto.

``st.components.v2`` (Streamlit ≥ 1.50) mounts inline JavaScript and CSS in the app's own
page, with no iframe and no build step; the JS file ships in this folder, nothing is
fetched from elsewhere. Data flows both ways:

* Python → browser: the session's points, with a revision number that changes only when
  Python replaces them (a preset, Clear);
* browser → Python: every edit sends all points as the trigger ``edit``. The callback
  (:func:`_on_edit`, run before the next rerun draws the sidebar) checks them
  (``experiment.read_edit``) and makes them the session's drawing, or keeps the drawing and
  says what was wrong. A message that is not even JSON Python can read (made up: an
  integer of thousands of digits, lists nested thousands deep) arrives as the trigger
  ``unreadable`` instead (``server.widget_messages``), and is refused the same way.

A link that locks the dataset (``shell.locks``) keeps its points: the editor then shows
them and takes no edit (``locked``), and the page says so (``lessons.draw.view``).
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
import streamlit as st

from datasets import drawn
from lessons.draw.experiment import read_edit
from shell import drawn as drawn_source
from shell import locks
from shell.figures import PALETTE
from words.i18n import N_, _, list_separator

HERE = Path(__file__).parent
K_EDITOR = "draw_editor"
_REVISION, _PROBLEM = "_kpca_draw_revision", "_kpca_draw_problem"

_mount = st.components.v2.component(
    "kpca_draw_editor",
    js=(HERE / "editor.js").read_text(encoding="utf-8"),
    css=(HERE / "editor.css").read_text(encoding="utf-8"),
)


# Why an edit was refused: kept as a message and its values (a callback runs before the
# page's run, and the language may change before the warning is shown), said in the run.
N_LOCKED = N_("That edit was not used: this link locks the dataset, so the drawing stays "
              "the link's.")
N_REFUSED = N_("That edit could not be used: {error}")
N_UNREADABLE = N_("That edit could not be read, so the drawing stays as it was.")


def words() -> dict:
    """Every word the editor's JavaScript shows, in the run's language: templates whose
    {placeholders} it fills in (editor.js ``say``)."""
    return {
        "tools": _("Drawing tools"),
        "help": _("Click or tap the plane to add a point of the chosen class; with Erase, "
                  "click or tap a point to remove it. Drag a point to move it: with a mouse in "
                  "any tool, with a finger after choosing Move (otherwise a swipe over the "
                  "plane scrolls the page). Keyboard: arrows move the cross (with Shift, "
                  "faster), Enter adds a point there (or erases), Delete removes the point "
                  "nearest the cross, 1 to 3 choose the class, E erases."),
        "buttons": [_("Class {letter}").format(letter=name.removeprefix("class "))
                    for name in drawn.CLASS_NAMES],
        # The classes inside a sentence ("60 in class A"): the data's names, said.
        "names": [_("class {letter}").format(letter=name.removeprefix("class "))
                  for name in drawn.CLASS_NAMES],
        "add": _("Add points of {name}"),
        "move": _("Move"),
        "move_help": _("Move points: drag a point (a finger's swipe then moves points instead "
                       "of scrolling)"),
        "erase": _("Erase"),
        "part": _("{count} in {name}"),
        "separator": list_separator(),
        "status": _("{n} of at most {max} points: {parts}."),
        "locked": _("{n} points ({parts}): locked by this link, edits are not taken."),
        "plane_points": _("Drawing plane, {n} points"),
        "full": _("At most {max} points: erase some first."),
        "move_keys": _("Move drags points: choose a class to add one with Enter."),
    }


def revision() -> int:
    return st.session_state.setdefault(_REVISION, 0)


def replace_points(X: np.ndarray, y: np.ndarray) -> None:
    """New points from Python (a callback): the editor reloads them (a new revision)."""
    drawn_source.set_points(X, y)
    st.session_state[_REVISION] = revision() + 1
    st.session_state.pop(_PROBLEM, None)


def _refuse(message: str, values: dict) -> None:
    """Keep the drawing the session holds, reload it into the editor, and say why."""
    st.session_state[_PROBLEM] = (message, values)
    st.session_state[_REVISION] = revision() + 1


def _on_edit() -> None:
    value = (st.session_state.get(K_EDITOR) or {}).get("edit")
    if locks.locked("dataset"):  # the link's points stay (the editor takes no edit then)
        _refuse(N_LOCKED, {})
        return
    try:
        points = read_edit(value, revision())
    except drawn.DrawnError as error:
        _refuse(N_REFUSED, {"error": str(error)})
        return
    if points is not None:
        drawn_source.set_points(*points)
        st.session_state.pop(_PROBLEM, None)


def _on_unreadable() -> None:
    _refuse(N_UNREADABLE, {})


def editor(X: np.ndarray, y: np.ndarray, *, locked: bool = False) -> None:
    """Draw the editor holding the points ``X``, ``y`` (the session's drawing); ``locked``:
    it shows them and takes no edit."""
    problem = st.session_state.get(_PROBLEM)
    if problem:
        message, values = problem
        st.warning(_(message).format(**values), icon=":material/draw:")
    _mount(
        key=K_EDITOR,
        data={
            "rev": revision(),
            "points": drawn.as_browser_points(X, y),
            "limit": drawn.LIMIT,
            "max": drawn.MAX_POINTS,
            "names": list(drawn.CLASS_NAMES),
            "colours": list(PALETTE[: len(drawn.CLASS_NAMES)]),
            "locked": locked,
            "words": words(),
        },
        on_edit_change=_on_edit,
        on_unreadable_change=_on_unreadable,  # the event server.widget_messages.UNREADABLE
    )
