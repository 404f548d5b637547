"""What the room learned: the first vote's share right with what to do next, and, after the
class, a summary per question (pure: no Streamlit; the lecturer's page shows them,
``classroom/lecturer.py``).

Peer instruction reads the first vote (Crouch & Mazur 2001, "Peer Instruction: Ten years of
experience and results", Am. J. Phys. 69, 970): with fewer than about 30 % right the idea
needs revisiting before a vote means anything; between 30 and 70 % the students convince
their neighbours and vote again; above about 70 % a brief explanation is enough. The same
paper measures learning by who moves from a wrong answer to a right one between the votes.

A share is said as the whole percent shown, and the advice reads that same number, so that
the sentence never contradicts the figure beside it.
"""

from __future__ import annotations

import csv
import io
from collections.abc import Sequence

from classroom.tally import QuestionSummary
from words.i18n import _, format_number

REVISIT_BELOW = 30  # percent right in round 1: revisit the idea
MOVE_ON_ABOVE = 70  # percent right in round 1: explain briefly and go on


def percent(right: int, votes: int) -> int | None:
    """``right`` of ``votes`` as a whole percent, halves rounded up; None without votes."""
    if votes <= 0:
        return None
    return (200 * right + votes) // (2 * votes)


def advice(right: int, votes: int) -> str | None:
    """Round 1's share right and what to do next, one sentence in this run's language
    (None before the first vote)."""
    share = percent(right, votes)
    if share is None:
        return None
    if share < REVISIT_BELOW:
        message = _("**Round 1: {share} % of the votes are right** ({right} of {votes}). Under "
                    "about {low} %: revisit the idea before the class votes again.")
    elif share > MOVE_ON_ABOVE:
        message = _("**Round 1: {share} % of the votes are right** ({right} of {votes}). Above "
                    "about {high} %: explain briefly and go on.")
    else:
        message = _("**Round 1: {share} % of the votes are right** ({right} of {votes}). "
                    "Between {low} and {high} %: let the students convince their neighbours, "
                    "then vote again (Second round).")
    return message.format(share=format_number(share), right=format_number(right),
                          votes=format_number(votes), low=REVISIT_BELOW, high=MOVE_ON_ABOVE)


SUMMARY_COLUMNS = (
    "question_id", "where", "question", "revealed",
    "round_1_votes", "round_1_right", "round_1_percent_right",
    "round_2_votes", "round_2_right", "round_2_percent_right",
    "wrong_to_right", "right_to_wrong",
)


def summary_rows(questions: Sequence[tuple[str, str, str, QuestionSummary]]
                 ) -> list[dict[str, object]]:
    """One row per question, keyed by :data:`SUMMARY_COLUMNS`, from (tally id, where,
    question, its summary); round 2's cells and the moves are None without a second
    round."""
    rows = []
    for tid, where, prompt, summary in questions:
        row: dict[str, object] = {"question_id": tid, "where": where, "question": prompt,
                                  "revealed": summary.revealed}
        for number in (1, 2):
            voted = number <= len(summary.votes)
            votes, right = ((summary.votes[number - 1], summary.right[number - 1]) if voted
                            else (None, None))
            row[f"round_{number}_votes"], row[f"round_{number}_right"] = votes, right
            row[f"round_{number}_percent_right"] = percent(right, votes) if voted else None
        two = len(summary.votes) > 1
        row["wrong_to_right"] = summary.wrong_to_right if two else None
        row["right_to_wrong"] = summary.right_to_wrong if two else None
        rows.append(row)
    return rows


def summary_csv(rows: Sequence[dict[str, object]]) -> str:
    """The rows of :func:`summary_rows` as CSV (English headers; empty cells for None)."""
    buffer = io.StringIO()
    writer = csv.writer(buffer, lineterminator="\r\n")
    writer.writerow(SUMMARY_COLUMNS)
    writer.writerows([_cell(row[column]) for column in SUMMARY_COLUMNS] for row in rows)
    return buffer.getvalue()


def _cell(value: object) -> object:
    if value is None:
        return ""
    return str(value).lower() if isinstance(value, bool) else value
