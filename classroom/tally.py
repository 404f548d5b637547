"""A live class tally: which option each anonymous student picked, per question, per class.

Plain Python (no Streamlit), so every rule is unit-tested with an injected clock. The app
holds one store per server process (:data:`classroom.store.STORE`); a lecturer opens a class
and gets a short code for the projector and a private key that alone reads the tally;
students who join with the code answer questions, each under an anonymous token of their
browser session (``secrets``), never a name.

What it promises:

* **Anonymous, in memory, bounded.** A class holds at most ``max_students`` tokens,
  ``max_questions`` question ids and, per student and question, one small option number
  and whether it was right for that student's settings. Nothing is written to disk (nor by
  the Redis that ``deploy/replicas.py`` starts); the store holds at most ``max_classes``
  classes. Full to every default bound (20 classes of
  400 students answering 40 questions each, in one round) it holds 11.7 MB (tracemalloc);
  a second round of every question doubles the answers' part.
* **Once per question and round, final when the round closes.** A student may change an
  answer while its round is open; it is counted once, as the latest choice. A round closes
  when the lecturer opens the second (peer instruction: discuss, vote again; counted apart,
  :meth:`ClassStore.open_second_round`), shows the view to the phones
  (:meth:`ClassStore.show_view`: the view decides the answer, so the vote ends there) or
  reveals the question (:meth:`ClassStore.reveal`). Students read the class's step (the
  lecturer's, :meth:`ClassStore.set_step`) and, per question, its round, whether it takes
  answers, whether the phones show its view and whether it is revealed, with
  :meth:`ClassStore.live`. After the class, :meth:`ClassStore.summary` says per question
  how many were right in each round and how many moved from a wrong answer to a right one.
* **Isolation.** Every call names a class by its code; one class's answers and tally are
  reachable only through its own code (answers) and key (tally).
* **A class lives while its lecturer does.** One class per lecturer (a random token of
  the lecturer's browser session: opening again returns the same class). Every call with
  the class's key is a sign of life (the lecturer's pages send one every few seconds,
  ``classroom/lecturer.py``); a class whose lecturer has not been seen for
  ``lecturer_grace_s`` (default 2 minutes: the tab was closed) ends, so one script that
  opens classes from tabs it then closes cannot keep other lecturers out.
* **No one locks a lecturer out.** Without the lecturer passcode one address holds at most
  ``classes_per_address`` classes, and a full server makes room for a new lecturer by
  ending its oldest class that nobody joined (it refuses only when every class has
  students). A host can also require a lecturer passcode (:meth:`ClassStore.check_passcode`:
  compared in constant time, :func:`passcode_matches`, never kept), with a refusal window
  per session and per address that doubles after each wrong guess past the first few.
* **The lecturer holds the door.** Joining can be closed (:meth:`ClassStore.set_joining`);
  the lecturer sees how many joined in the last minute and can remove the students who
  joined within the last ``seconds`` with their answers (:meth:`ClassStore.remove_joined`:
  a script's late seats and votes); a removed session cannot come back. A class lets at
  most ``join_burst`` students in at once and then ``joins_per_minute`` (per class, not per
  address: a whole class may share one), so that a script cannot fill every seat before
  the lecturer sees it.
* **Expiry.** A class idle for ``idle_expiry_s`` (default 3 h: after the lecture), or older
  than ``max_age_s``, is forgotten at the next call.
* **Atomic.** Streamlit runs each session in its own thread, and replicas are processes:
  every call is one atomic update (here one lock guards all; in Redis one script each).

Each student is one anonymous token (one per browser and class: ``classroom/join.py``
keeps it across reloads), joined at a time the store keeps; answers are kept per question
id and round.

**One interface, two stores.** :class:`ClassStore` is the interface the pages use (through
:data:`classroom.store.STORE`); :class:`TallyStore` keeps the classes in this process's
memory (one process: the default, and Streamlit Community Cloud), and
:class:`classroom.tally_redis.RedisStore` in a Redis server every replica shares
(``KPCA_CLASS_STORE=redis://…``; ``deploy/replicas.py`` starts one for two or more
replicas), under the same rules and messages.
"""

from __future__ import annotations

import hmac
import math
import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace
from typing import Protocol

from words.i18n import DEFAULT_LANGUAGE, N_, _, format_number, use_language

# Letters and digits that cannot be mistaken for each other on a projector (no 0/O,
# 1/I/L, 5/S, 2/Z, 8/B): 25 symbols, so 6 of them make 244 million codes.
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


class TallyRefused(Exception):
    """A request the store will not serve; the message says why, for the student.

    ``message`` is an English sentence with named placeholders (marked with ``N_``),
    ``values`` fill them: ``str()`` is the English (logs, tests), :meth:`said` the
    sentence in the language of the run that shows it (the store serves every session)."""

    def __init__(self, message: str, **values: object) -> None:
        self.message, self.values = message, values
        with use_language(DEFAULT_LANGUAGE):
            super().__init__(message.format(**{k: str(v) for k, v in values.items()}))

    def said(self) -> str:
        """The message in the language of this run."""
        return _(self.message).format(**{k: str(v) for k, v in self.values.items()})


class UnknownClass(TallyRefused):
    """No class with this code runs here (wrong, expired or on another replica)."""


class VoteClosed(TallyRefused):
    """The question's round takes no more answers: the answer already counted is final."""


class StoreUnavailable(TallyRefused):
    """The store shared by the replicas (Redis) did not answer in time: nothing was read or
    changed; the page says so instead of a traceback, and the next run tries again."""


def store_unavailable() -> StoreUnavailable:
    return StoreUnavailable(N_("The class's store is not answering, so this page cannot reach "
                               "the class right now; try again in a moment."))


# What a caller sends, checked before any store reads it (the same in every store).
def check_lecturer(lecturer: object) -> None:
    if not (isinstance(lecturer, str) and 0 < len(lecturer) <= 64):
        raise TallyRefused(N_("This session has no valid lecturer token."))


def check_student(token: object) -> None:
    if not (isinstance(token, str) and 0 < len(token) <= 64):
        raise TallyRefused(N_("This session has no valid anonymous token."))


def check_step(step: object) -> None:
    if not (isinstance(step, int) and 1 <= step <= 999):
        raise TallyRefused(N_("A tour step is a whole number from 1."))


def check_option(option: object, limits: Limits) -> None:
    if not (isinstance(option, int) and 0 <= option < limits.max_options):
        raise TallyRefused(N_("An answer is one of at most {count} options."),
                           count=limits.max_options)


def check_question(question: object, limits: Limits) -> None:
    if not (isinstance(question, str) and 0 < len(question) <= limits.max_question_id):
        raise TallyRefused(N_("A question id has 1 to {count} characters."),
                           count=limits.max_question_id)


def refusal(why: str, limits: Limits, **values: object) -> TallyRefused:
    """The refusal named ``why``, in the words every store says it with (the in-process and
    the Redis one alike); ``values`` fill what the limits do not."""
    if why == "unknown":
        return UnknownClass(
            N_("No class with this code is running here. Check the code on the projector "
               "({length} letters and digits); a class ends when its lecturer's tab is "
               "closed."), length=CODE_LENGTH)
    if why == "not_lecturer":
        return UnknownClass(N_("Only the lecturer who opened this class can read its tally."))
    if why == "revealed":
        return VoteClosed(N_("The lecturer has revealed this question: the vote is closed, "
                             "your answer counts for you, not in the tally."))
    if why == "closed":
        return VoteClosed(N_("This round's vote is closed: the answer the class tally holds "
                             "for you is final."))
    sentences = {
        "removed": (N_("The lecturer removed this session from the class: your answers are "
                       "not counted."), {}),
        "door_closed": (N_("The lecturer has closed this class to new students; your answers "
                           "still show you the view, they are not counted."), {}),
        "full": (N_("This class is full ({count} students); your answers still show you the "
                    "view, they are just not counted."), {"count": limits.max_students}),
        "too_fast": (N_("Students are joining this class faster than it lets them in ({rate} "
                        "a minute): join again in {wait} s."),
                     {"rate": f"{limits.joins_per_minute:g}"}),
        "questions": (N_("This class has answers to {count} questions, its limit; your answer "
                         "still counts for you, not in the class tally."),
                      {"count": limits.max_questions}),
        "rounds": (N_("A question has at most {count} rounds."), {"count": MAX_ROUNDS}),
        "server_full": (N_("This server already runs {count} classes, each with students, its "
                           "limit; try again after one ends (a class ends {grace} after its "
                           "lecturer closes the page)."),
                        {"count": limits.max_classes,
                         "grace": Duration(limits.lecturer_grace_s)}),
        "address": (N_("This address already runs {count} classes, the most one address may "
                       "run without the lecturer passcode; end one of them first (End the "
                       "class, on its Class tally)."), {"count": limits.classes_per_address}),
        "passcode_wait": (N_("Too many wrong passcodes from here: try again in {wait}."), {}),
        "passcode_wrong": (N_("That is not this server's lecturer passcode: ask whoever runs "
                              "the server for it."), {}),
    }
    message, known = sentences[why]
    return TallyRefused(message, **known, **values)


@dataclass(frozen=True)
class Limits:
    """What one server holds at most (each refused cleanly beyond)."""

    max_classes: int = 20
    max_students: int = 400  # per class
    max_questions: int = 40  # distinct question ids per class
    max_options: int = 8  # option numbers 0 … max_options − 1
    max_question_id: int = 40  # characters
    idle_expiry_s: float = 3 * 3600
    max_age_s: float = 12 * 3600
    # The lecturer's pages say they are alive every second on Class tally and every 20 s on
    # the other pages; a browser slows the timers of a hidden tab to one a minute.
    lecturer_grace_s: float = 120.0
    # A lecture hall's room scans the QR code within half a minute: 300 students in 30 s
    # join (150 at once, then 10 a second), a script still cannot fill 400 seats unseen.
    join_burst: int = 150  # students let in at once, then joins_per_minute
    joins_per_minute: float = 600.0
    # Classes one address may hold without the lecturer passcode (a script's many tabs).
    classes_per_address: int = 2
    # Wrong passcodes let through before a refusal window, its first length and its cap
    # (the window doubles after each further wrong guess).
    passcode_free_tries: int = 3
    passcode_first_wait_s: float = 2.0
    passcode_max_wait_s: float = 300.0

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """The defaults, or a server operator's (the tests start servers with small ones):
        ``KPCA_TALLY_MAX_CLASSES``, ``KPCA_TALLY_MAX_STUDENTS``, ``KPCA_TALLY_JOIN_BURST``,
        ``KPCA_TALLY_CLASSES_PER_ADDRESS`` (whole numbers), ``KPCA_TALLY_JOINS_PER_MINUTE``,
        ``KPCA_TALLY_LECTURER_GRACE_S``."""
        limits = cls()
        for name, field_name, kind in (("MAX_CLASSES", "max_classes", int),
                                       ("MAX_STUDENTS", "max_students", int),
                                       ("JOIN_BURST", "join_burst", int),
                                       ("CLASSES_PER_ADDRESS", "classes_per_address", int),
                                       ("JOINS_PER_MINUTE", "joins_per_minute", float),
                                       ("LECTURER_GRACE_S", "lecturer_grace_s", float)):
            try:
                value = kind(environ.get(f"KPCA_TALLY_{name}", ""))
            except ValueError:
                continue
            if math.isfinite(value) and value > 0:
                limits = replace(limits, **{field_name: value})
        return limits


@dataclass(frozen=True)
class OptionCount:
    """How many students picked an option, and for how many of them it was right."""

    chosen: int
    right: int


@dataclass(frozen=True)
class QuestionTally:
    """One question's counts: per round (round 1 first), per option; whether the lecturer
    has revealed it, whether the phones show its view, and whether its last round takes
    answers."""

    rounds: tuple[tuple[OptionCount, ...], ...]
    revealed: bool
    shown: bool = False
    voting_open: bool = True


@dataclass(frozen=True)
class Live:
    """What a student's phone polls: the class's step (the lecturer's; None before they
    open one) and, for one question, its current round, whether that round takes answers,
    whether the phones show the question's view, and whether it is revealed."""

    step: int | None
    round: int
    revealed: bool
    shown: bool
    voting_open: bool


@dataclass(frozen=True)
class QuestionSummary:
    """What the room learned on one question (Crouch & Mazur 2001's measures): per round,
    how many voted and how many were right (for each student's own settings); of the
    students who voted in both rounds, how many moved from a wrong answer to a right one
    and from right to wrong; and whether it is revealed."""

    votes: tuple[int, ...]
    right: tuple[int, ...]
    wrong_to_right: int
    right_to_wrong: int
    revealed: bool


MAX_ROUNDS = 2  # a vote, and one more after discussion


@dataclass
class _Votes:
    """One question's votes: per round (only the last may take answers, until ``closed``),
    student token → 2 × option + (right for that student's settings): a small int, which
    Python never allocates (the bound on memory above). ``shown``: the phones show the
    view (the lecturer's choice, or the reveal)."""

    rounds: list[dict[str, int]] = field(default_factory=lambda: [{}])
    closed: bool = False
    shown: bool = False
    revealed: bool = False


def _summarise(votes: _Votes) -> QuestionSummary:
    """The question's :class:`QuestionSummary`, from its packed votes (2 × option + right)."""
    rounds = votes.rounds
    first, last = rounds[0], rounds[-1]
    both = first.keys() & last.keys() if len(rounds) > 1 else set()
    return QuestionSummary(
        votes=tuple(len(by_student) for by_student in rounds),
        right=tuple(sum(packed % 2 for packed in by_student.values()) for by_student in rounds),
        wrong_to_right=sum(1 for token in both if first[token] % 2 < last[token] % 2),
        right_to_wrong=sum(1 for token in both if first[token] % 2 > last[token] % 2),
        revealed=votes.revealed)


def question_tally(votes: _Votes, limits: Limits) -> QuestionTally:
    """The question's :class:`QuestionTally`, from its packed votes (2 × option + right)."""
    def counts(by_student: dict[str, int]) -> tuple[OptionCount, ...]:
        chosen_right = [[0, 0] for _ in range(limits.max_options)]
        for packed in by_student.values():
            option, right = divmod(packed, 2)
            chosen_right[option][0] += 1
            chosen_right[option][1] += right
        return tuple(OptionCount(c, r) for c, r in chosen_right)

    return QuestionTally(tuple(counts(by_student) for by_student in votes.rounds),
                         votes.revealed, votes.shown, not votes.closed)


@dataclass(frozen=True)
class ClassStatus:
    """What the lecturer's page shows about the room."""

    students: int
    joined_last_minute: int
    joining_open: bool


@dataclass
class _Class:
    key: str
    lecturer: str
    address: str | None  # where the lecturer opened it from (None: not known)
    with_passcode: bool  # opened with the server's lecturer passcode
    opened: float
    touched: float  # the last answer or join
    lecturer_seen: float
    allowance: float  # joins it may let in now (refilled at joins_per_minute)
    allowance_at: float
    joining_open: bool = True
    # student token → when it joined (in joining order)
    students: dict[str, float] = field(default_factory=dict)
    removed: dict[str, None] = field(default_factory=dict)  # tokens that may not come back
    # question id → its votes, in the order the questions were first answered
    answers: dict[str, _Votes] = field(default_factory=dict)
    step: int | None = None  # the lecturer's tour step: the class's


def normalise_code(text: object) -> str:
    """A code as typed ("ac d-e3f", "acde3f") → "ACDE3F"; spaces and dashes dropped."""
    return "".join(c for c in str(text).upper() if c.isalnum())[:4 * CODE_LENGTH]


def new_token() -> str:
    """An anonymous token (a student's, a lecturer's): random, says nothing about who holds it."""
    return secrets.token_urlsafe(16)


def passcode_matches(typed: object, required: str) -> bool:
    """Whether ``typed`` is the lecturer passcode ``required`` (compared in constant time)."""
    return hmac.compare_digest(str(typed).encode("utf-8"), required.encode("utf-8"))


@dataclass
class _Failures:
    """Wrong passcodes from one session or one address: how many in a row, the last one's
    time, and until when the next attempt is refused unheard."""

    count: int = 0
    last: float = 0.0
    until: float = 0.0


class ClassStore(Protocol):
    """What the pages ask of the store that holds the classes; the module's docstring says
    the rules. Two stores keep them: :class:`TallyStore` in this process's memory and
    :class:`classroom.tally_redis.RedisStore` in a Redis server the replicas share. Besides
    the refusals below, a shared store that does not answer raises
    :class:`StoreUnavailable`."""

    limits: Limits

    def check_passcode(self, typed: object, required: str, *, session: str,
                       address: str | None = None) -> None:
        """Let a lecturer through with the passcode ``required``, or refuse.

        ``session`` is the token of the browser session that types, ``address`` its
        network address (None where not known). After ``passcode_free_tries`` wrong
        passcodes in a row from the session or from the address, each attempt is refused
        unheard for a window that starts at ``passcode_first_wait_s`` and doubles with each
        further wrong one, up to ``passcode_max_wait_s``; the right passcode clears both.
        The passcode is compared in constant time and never kept.
        """
        ...

    def open_class(self, lecturer: str, *, address: str | None = None,
                   with_passcode: bool = False) -> tuple[str, str]:
        """The class of ``lecturer`` (a token of their session): (code for the projector, key
        that reads its tally). A lecturer has one class: asking again returns it.

        ``address`` is where the request comes from (None: not known); without the
        passcode (``with_passcode``) one address holds at most ``classes_per_address``
        classes. A full server ends its oldest class that nobody joined to make room, and
        refuses only when every class has students.
        """
        ...

    def status(self, code: str, key: str) -> ClassStatus:
        """How many joined, how many of them in the last minute, and whether joining is open."""
        ...

    def set_joining(self, code: str, key: str, open_: bool) -> None:
        """Open or close the door: while closed, no new student joins (those in stay)."""
        ...

    def joined_within(self, code: str, key: str, seconds: float) -> int:
        """How many of the students joined within the last ``seconds``."""
        ...

    def remove_joined(self, code: str, key: str, seconds: float) -> int:
        """Remove the students who joined within the last ``seconds``, with their answers;
        they cannot join again. Returns how many were removed."""
        ...

    def tally(self, code: str, key: str) -> dict[str, QuestionTally]:
        """Per question id (in the order first answered or revealed), the count of each
        option in each round, and whether it is revealed (lecturer only: needs the key)."""
        ...

    def summary(self, code: str, key: str) -> dict[str, QuestionSummary]:
        """Per question id (in the order first answered or revealed), what the room learned
        (lecturer only). Anonymous: counts, never a token; kept as long as the class."""
        ...

    def reveal(self, code: str, key: str, question: str) -> None:
        """Reveal ``question`` to the class: its voting closes, the phones show the view and
        why each option is right or wrong."""
        ...

    def show_view(self, code: str, key: str, question: str) -> None:
        """Show ``question``'s view to the phones: the view decides the answer, so the open
        round closes (its answers are final); the verdicts still wait for the reveal."""
        ...

    def open_second_round(self, code: str, key: str, question: str) -> None:
        """Close ``question``'s first round and open a second, counted apart (peer
        instruction: the class discusses, then votes again); hidden again until revealed
        (a view already shown stays shown)."""
        ...

    def set_step(self, code: str, key: str, step: int) -> None:
        """The lecturer opened tour step ``step``: the class's step, which phones follow."""
        ...

    def students(self, code: str, key: str) -> int:
        """How many students have joined (lecturer only)."""
        ...

    def close_class(self, code: str, key: str) -> None:
        """Forget the class now (lecturer only)."""
        ...

    def join(self, code: str, token: str) -> str:
        """Join the class ``code`` with ``token``; returns the normalised code."""
        ...

    def answer(self, code: str, token: str, question: str, option: int, right: bool) -> int:
        """Record (or change) ``token``'s answer to ``question`` in its open round;
        returns the round (1 or 2). Refused (:class:`VoteClosed`) once the round is closed:
        the lecturer revealed the question, showed its view or opened the next round."""
        ...

    def live(self, code: str, question: str | None = None) -> Live:
        """The class's step, and ``question``'s round, vote, view and reveal (what a phone
        polls: one short look under the lock). A question nobody has answered yet is in
        its open first round, its view not shown."""
        ...

    def vote(self, code: str, token: str, question: str) -> int | None:
        """``token``'s option in ``question``'s latest round (a reloaded phone shows it),
        or None."""
        ...

    def live_and_vote(self, code: str, token: str, question: str) -> tuple[Live, int | None]:
        """:meth:`live` and :meth:`vote` in one look (a phone's run reads both)."""
        ...

    def classes(self) -> int:
        """How many classes are open (after expiry)."""
        ...


# Wrong-passcode records kept at most (the oldest forgotten first: a script that makes a
# new session per guess makes a record per guess, its address's record stays the newest),
# and how long a quiet one is kept.
MAX_FAILURE_RECORDS = 10_000
FAILURES_FORGOTTEN_AFTER_S = 3600.0


class TallyStore:
    """Classes by code, in this process's memory: a :class:`ClassStore` (see there and the
    module's docstring for the rules).

    Parameters
    ----------
    limits : Limits
        The bounds.
    clock : callable
        Seconds, monotonic (tests inject their own).
    """

    def __init__(self, limits: Limits = Limits(), clock: Callable[[], float] = time.monotonic):
        self.limits = limits
        self._clock = clock
        self._lock = threading.Lock()
        self._classes: dict[str, _Class] = {}
        # ("session", token) or ("address", ip) → its wrong passcodes
        self._failures: dict[tuple[str, str], _Failures] = {}

    # -- the lecturer (every call with the key is a sign of the lecturer's life) ---------
    def check_passcode(self, typed: object, required: str, *, session: str,
                       address: str | None = None) -> None:
        limits = self.limits
        whom = [("session", str(session))] + ([("address", address)] if address else [])
        with self._lock:
            now = self._clock()
            self._forget_failures(now)
            wait = max((self._failures[w].until - now for w in whom if w in self._failures),
                       default=0.0)
            if wait > 0:
                raise refusal("passcode_wait", limits, wait=Duration(math.ceil(wait)))
            if passcode_matches(typed, required):
                for w in whom:
                    self._failures.pop(w, None)
                return
            for w in whom:
                failures = self._failures.pop(w, None) or _Failures()
                self._failures[w] = failures  # re-inserted: the newest record
                failures.count += 1
                failures.last = now
                beyond = failures.count - limits.passcode_free_tries
                if beyond >= 0:
                    failures.until = now + min(limits.passcode_first_wait_s * 2.0 ** beyond,
                                               limits.passcode_max_wait_s)
        raise refusal("passcode_wrong", limits)

    def open_class(self, lecturer: str, *, address: str | None = None,
                   with_passcode: bool = False) -> tuple[str, str]:
        check_lecturer(lecturer)
        limits = self.limits
        with self._lock:
            now = self._expire()
            for code, room in self._classes.items():
                if secrets.compare_digest(room.lecturer, lecturer):
                    room.lecturer_seen = now
                    return code, room.key
            if not with_passcode and address is not None and sum(
                    1 for room in self._classes.values()
                    if room.address == address and not room.with_passcode
            ) >= limits.classes_per_address:
                raise refusal("address", limits)
            if len(self._classes) >= limits.max_classes:
                unjoined = [code for code, room in self._classes.items() if not room.students]
                if not unjoined:
                    raise refusal("server_full", limits)
                del self._classes[min(unjoined, key=lambda code: self._classes[code].opened)]
            code = self._fresh_code()
            key = secrets.token_urlsafe(16)
            self._classes[code] = _Class(
                key=key, lecturer=lecturer, address=address, with_passcode=with_passcode,
                opened=now, touched=now, lecturer_seen=now,
                allowance=float(limits.join_burst), allowance_at=now)
            return code, key

    def status(self, code: str, key: str) -> ClassStatus:
        with self._lock:
            now = self._expire()
            room = self._owned(code, key, now)
            recent = sum(1 for joined in room.students.values() if now - joined <= 60)
            return ClassStatus(len(room.students), recent, room.joining_open)

    def set_joining(self, code: str, key: str, open_: bool) -> None:
        with self._lock:
            self._owned(code, key, self._expire()).joining_open = bool(open_)

    def joined_within(self, code: str, key: str, seconds: float) -> int:
        with self._lock:
            now = self._expire()
            room = self._owned(code, key, now)
            return sum(1 for joined in room.students.values() if now - joined <= seconds)

    def remove_joined(self, code: str, key: str, seconds: float) -> int:
        with self._lock:
            now = self._expire()
            room = self._owned(code, key, now)
            late = [token for token, joined in room.students.items() if now - joined <= seconds]
            for token in late:
                del room.students[token]
                room.removed[token] = None
                for votes in room.answers.values():
                    for by_student in votes.rounds:
                        by_student.pop(token, None)
            # Bounded: the oldest removals go first (a script makes new tokens anyway).
            for token in list(room.removed)[: max(len(room.removed) - 4 * self.limits.max_students,
                                                  0)]:
                del room.removed[token]
            return len(late)

    def tally(self, code: str, key: str) -> dict[str, QuestionTally]:
        with self._lock:
            now = self._expire()
            room = self._owned(code, key, now)
            return {question: question_tally(votes, self.limits)
                    for question, votes in room.answers.items()}

    def summary(self, code: str, key: str) -> dict[str, QuestionSummary]:
        with self._lock:
            now = self._expire()
            room = self._owned(code, key, now)
            return {question: _summarise(votes) for question, votes in room.answers.items()}

    def reveal(self, code: str, key: str, question: str) -> None:
        with self._lock:
            now = self._expire()
            votes = self._votes(self._owned(code, key, now), question)
            votes.closed = votes.shown = votes.revealed = True

    def show_view(self, code: str, key: str, question: str) -> None:
        with self._lock:
            now = self._expire()
            votes = self._votes(self._owned(code, key, now), question)
            votes.closed = votes.shown = True

    def open_second_round(self, code: str, key: str, question: str) -> None:
        with self._lock:
            now = self._expire()
            votes = self._votes(self._owned(code, key, now), question)
            if len(votes.rounds) >= MAX_ROUNDS:
                raise refusal("rounds", self.limits)
            votes.rounds.append({})
            votes.closed = votes.revealed = False

    def set_step(self, code: str, key: str, step: int) -> None:
        check_step(step)
        with self._lock:
            self._owned(code, key, self._expire()).step = step

    def students(self, code: str, key: str) -> int:
        with self._lock:
            now = self._expire()
            return len(self._owned(code, key, now).students)

    def close_class(self, code: str, key: str) -> None:
        with self._lock:
            self._owned(code, key, self._expire())
            del self._classes[normalise_code(code)]

    # -- the students ---------------------------------------------------------------
    def join(self, code: str, token: str) -> str:
        with self._lock:
            now = self._expire()
            code = normalise_code(code)
            room = self._room(code)
            self._admit(room, token, now)
            room.touched = now
            return code

    def answer(self, code: str, token: str, question: str, option: int, right: bool) -> int:
        limits = self.limits
        check_option(option, limits)
        with self._lock:
            now = self._expire()
            room = self._room(normalise_code(code))
            self._admit(room, token, now)
            votes = self._votes(room, question)
            if votes.revealed or votes.closed:
                raise refusal("revealed" if votes.revealed else "closed", limits)
            votes.rounds[-1][token] = 2 * option + int(bool(right))
            room.touched = now
            return len(votes.rounds)

    def live(self, code: str, question: str | None = None) -> Live:
        return self._live(code, question, None)[0]

    def vote(self, code: str, token: str, question: str) -> int | None:
        return self._live(code, question, token)[1]

    def live_and_vote(self, code: str, token: str, question: str) -> tuple[Live, int | None]:
        return self._live(code, question, token)

    def _live(self, code: str, question: str | None,
              token: str | None) -> tuple[Live, int | None]:
        with self._lock:
            self._expire()
            room = self._room(normalise_code(code))
            votes = room.answers.get(question) if question is not None else None
            if votes is None:
                return Live(room.step, 1, revealed=False, shown=False, voting_open=True), None
            packed = votes.rounds[-1].get(token) if token is not None else None
            return (Live(room.step, len(votes.rounds), revealed=votes.revealed,
                         shown=votes.shown, voting_open=not votes.closed),
                    None if packed is None else packed // 2)

    def classes(self) -> int:
        with self._lock:
            self._expire()
            return len(self._classes)

    # -- internals ------------------------------------------------------------------
    def _fresh_code(self) -> str:
        while True:  # 244 million codes, at most max_classes taken: one draw, nearly always
            code = "".join(secrets.choice(ALPHABET) for _ in range(CODE_LENGTH))
            if code not in self._classes:
                return code

    def _room(self, code: str) -> _Class:
        room = self._classes.get(code)
        if room is None:
            raise refusal("unknown", self.limits)
        return room

    def _votes(self, room: _Class, question: str) -> _Votes:
        """``question``'s votes, new if it has none yet (within the class's bounds)."""
        limits = self.limits
        check_question(question, limits)
        if question not in room.answers:
            if len(room.answers) >= limits.max_questions:
                raise refusal("questions", limits)
            room.answers[question] = _Votes()
        return room.answers[question]

    def _owned(self, code: str, key: str, now: float) -> _Class:
        """The class, if ``key`` is its lecturer's; the lecturer is seen alive now."""
        room = self._room(normalise_code(code))
        if not secrets.compare_digest(room.key, str(key)):
            raise refusal("not_lecturer", self.limits)
        room.lecturer_seen = now
        return room

    def _admit(self, room: _Class, token: str, now: float) -> None:
        check_student(token)
        if token in room.students:
            return
        limits = self.limits
        if token in room.removed:
            raise refusal("removed", limits)
        if not room.joining_open:
            raise refusal("door_closed", limits)
        if len(room.students) >= limits.max_students:
            raise refusal("full", limits)
        rate = limits.joins_per_minute / 60
        room.allowance = min(float(limits.join_burst),
                             room.allowance + (now - room.allowance_at) * rate)
        room.allowance_at = now
        if room.allowance < 1:
            raise refusal("too_fast", limits,
                          wait=math.ceil((1 - room.allowance) / rate) if rate > 0 else 60)
        room.allowance -= 1
        room.students[token] = now

    def _forget_failures(self, now: float) -> None:
        """Drop the wrong-passcode records quiet for long, then the oldest beyond the cap."""
        for who in [who for who, failures in self._failures.items()
                    if now - failures.last > FAILURES_FORGOTTEN_AFTER_S and now >= failures.until]:
            del self._failures[who]
        for who in list(self._failures)[: max(len(self._failures) - MAX_FAILURE_RECORDS, 0)]:
            del self._failures[who]

    def _expire(self) -> float:
        now = self._clock()
        limits = self.limits
        for code in [code for code, room in self._classes.items()
                     if now - room.touched > limits.idle_expiry_s
                     or now - room.opened > limits.max_age_s
                     or now - room.lecturer_seen > limits.lecturer_grace_s]:
            del self._classes[code]
        return now


# A duration in whole units of at least two: "{n} hours", "{n} minutes", else seconds.
_UNITS = ((N_("{n} hours"), 3600), (N_("{n} minutes"), 60))


def duration(seconds: float) -> str:
    """120 → '2 minutes', 10,800 → '3 hours', 90 → '90 s' (in the language of this run)."""
    for unit, size in _UNITS:
        if seconds >= 2 * size and seconds % size == 0:
            return _(unit).format(n=format_number(seconds / size, "g"))
    return _("{n} s").format(n=format_number(seconds, "g"))


@dataclass(frozen=True)
class Duration:
    """Seconds in a refusal's message, said as :func:`duration` in the reader's language."""

    seconds: float

    def __str__(self) -> str:
        return duration(self.seconds)

