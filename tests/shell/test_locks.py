"""A focused link's note (shell/locks.py): a long one is cut, and says how long it was."""

from __future__ import annotations

from shell.locks import NOTE_CHARS, note_text
from tests.support.apptest import assert_clean, open_app


def test_a_long_note_is_cut_and_reports_its_real_length_and_the_limit():
    # Issue 34: a note of 100,000 characters was reported as "(800 characters)".
    note = "Move only γ. " + "x" * (100_000 - 13)
    at = open_app("explorer", {"dataset": "moons", "lock": "dataset", "note": note})
    assert_clean(at)
    notice = next(m.value for m in at.markdown if m.value.startswith("**Locked"))
    assert "(the link's note has 100,000 characters; a note shows at most 200)" in notice
    assert "800" not in notice and len(notice) < 600
    assert at.query_params["note"] == note[:NOTE_CHARS]  # what is shown, kept in the link


def test_a_note_within_the_limit_is_shown_whole():
    assert note_text("Only γ", 6) == "“Only γ”"
    assert note_text("y" * NOTE_CHARS, NOTE_CHARS) == f"“{'y' * NOTE_CHARS}”"
    assert note_text("z" * NOTE_CHARS, NOTE_CHARS + 1).endswith(
        f"(the link's note has {NOTE_CHARS + 1:,} characters; a note shows at most 200)")
