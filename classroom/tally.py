"""A live class tally: which option each anonymous student picked, per question, per class.

Plain Python (no Streamlit), so every rule is unit-tested with an injected clock. The app
holds one :class:`TallyStore` per server process (:data:`STORE`); a lecturer opens a class
and gets a short code for the projector and a private key that alone reads the tally;
students who join with the code answer questions, each under an anonymous token of their
browser session (``secrets``), never a name.

What it promises:

* **Anonymous, in memory, bounded.** A class holds at most ``max_students`` tokens,
  ``max_questions`` question ids and, per student and question, one small option number
  and whether it was right for that student's settings. Nothing is written to disk; the
  store holds at most ``max_classes`` classes. Full to every default bound (20 classes of
  400 students answering 40 questions each) it holds 11.7 MB (tracemalloc).
* **Once per question.** A student may change an answer; it is counted once, as the
  latest choice.
* **Isolation.** Every call names a class by its code; one class's answers and tally are
  reachable only through its own code (answers) and key (tally).
* **Expiry.** A class idle for ``idle_expiry_s`` (default 3 h: after the lecture), or older
  than ``max_age_s``, is forgotten at the next call.
* **Thread-safe.** Streamlit runs each session in its own thread; one lock guards all.

**One process.** The tally lives in the memory of the server process that runs the
lecturer's session. Behind several replicas (``deploy/haproxy.cfg``) each replica has its
own store and the affinity cookie pins each *browser*, not each class, to a replica: a
student pinned to another replica gets "no class with this code". Run a class on a single
replica (docs/deploy.md, "A class on one replica").
"""

from __future__ import annotations

import os
import secrets
import threading
import time
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field, replace

# Letters and digits that cannot be mistaken for each other on a projector (no 0/O,
# 1/I/L, 5/S, 2/Z, 8/B): 25 symbols, so 6 of them make 244 million codes.
ALPHABET = "ACDEFGHJKMNPQRTUVWXY34679"
CODE_LENGTH = 6


class TallyRefused(Exception):
    """A request the store will not serve; the message says why, for the student."""


class UnknownClass(TallyRefused):
    """No class with this code runs here (wrong, expired or on another replica)."""


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

    @classmethod
    def from_env(cls, environ: Mapping[str, str] = os.environ) -> Limits:
        """The defaults, or ``KPCA_TALLY_MAX_CLASSES`` / ``KPCA_TALLY_MAX_STUDENTS`` (a
        server's operator; the tests start a server with small limits)."""
        limits = cls()
        for name, field_name in (("CLASSES", "max_classes"), ("STUDENTS", "max_students")):
            raw = environ.get(f"KPCA_TALLY_MAX_{name}", "")
            if raw.isdigit() and int(raw) > 0:
                limits = replace(limits, **{field_name: int(raw)})
        return limits


@dataclass(frozen=True)
class OptionCount:
    """How many students picked an option, and for how many of them it was right."""

    chosen: int
    right: int


@dataclass
class _Class:
    key: str
    opened: float
    touched: float
    students: set[str] = field(default_factory=set)
    # question id → student token → 2 × option + (right for that student's settings):
    # a small int, which Python never allocates (the bound on memory below).
    answers: dict[str, dict[str, int]] = field(default_factory=dict)


def normalise_code(text: object) -> str:
    """A code as typed ("ac d-e3f", "acde3f") → "ACDE3F"; spaces and dashes dropped."""
    return "".join(c for c in str(text).upper() if c.isalnum())[:4 * CODE_LENGTH]


def new_token() -> str:
    """An anonymous student token: random, says nothing about who holds it."""
    return secrets.token_urlsafe(16)


class TallyStore:
    """Classes by code, in memory; see the module's docstring for the rules.

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

    # -- the lecturer ---------------------------------------------------------------
    def open_class(self) -> tuple[str, str]:
        """A new class: (code for the projector, key that reads its tally)."""
        with self._lock:
            now = self._expire()
            if len(self._classes) >= self.limits.max_classes:
                raise TallyRefused(
                    f"This server already runs {self.limits.max_classes} classes, its limit; "
                    "try again after one ends (classes end 3 hours after their last answer).")
            code = self._fresh_code()
            key = secrets.token_urlsafe(16)
            self._classes[code] = _Class(key=key, opened=now, touched=now)
            return code, key

    def tally(self, code: str, key: str) -> dict[str, list[OptionCount]]:
        """Per question id, the count of each option (lecturer only: needs the key)."""
        with self._lock:
            now = self._expire()
            room = self._owned(code, key)
            room.touched = now
            result = {}
            for question, by_student in room.answers.items():
                counts = [[0, 0] for _ in range(self.limits.max_options)]
                for packed in by_student.values():
                    option, right = divmod(packed, 2)
                    counts[option][0] += 1
                    counts[option][1] += right
                result[question] = [OptionCount(c, r) for c, r in counts]
            return result

    def students(self, code: str, key: str) -> int:
        """How many students have joined (lecturer only)."""
        with self._lock:
            self._expire()
            return len(self._owned(code, key).students)

    def close_class(self, code: str, key: str) -> None:
        """Forget the class now (lecturer only)."""
        with self._lock:
            self._owned(code, key)
            del self._classes[normalise_code(code)]

    # -- the students ---------------------------------------------------------------
    def join(self, code: str, token: str) -> str:
        """Join the class ``code`` with ``token``; returns the normalised code."""
        with self._lock:
            now = self._expire()
            code = normalise_code(code)
            room = self._room(code)
            self._admit(room, token)
            room.touched = now
            return code

    def answer(self, code: str, token: str, question: str, option: int, right: bool) -> None:
        """Record (or change) ``token``'s answer to ``question``."""
        limits = self.limits
        if not (isinstance(question, str) and 0 < len(question) <= limits.max_question_id):
            raise TallyRefused(f"A question id has 1 to {limits.max_question_id} characters.")
        if not (isinstance(option, int) and 0 <= option < limits.max_options):
            raise TallyRefused(f"An answer is one of at most {limits.max_options} options.")
        with self._lock:
            now = self._expire()
            room = self._room(normalise_code(code))
            self._admit(room, token)
            if question not in room.answers and len(room.answers) >= limits.max_questions:
                raise TallyRefused(
                    f"This class has answers to {limits.max_questions} questions, its limit; "
                    "your answer still counts for you, not in the class tally.")
            room.answers.setdefault(question, {})[token] = 2 * option + int(bool(right))
            room.touched = now

    def classes(self) -> int:
        """How many classes are open (after expiry)."""
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
            raise UnknownClass(
                "No class with this code is running here. Check the code on the projector "
                f"({CODE_LENGTH} letters and digits); a class ends 3 hours after its last "
                "answer.")
        return room

    def _owned(self, code: str, key: str) -> _Class:
        room = self._room(normalise_code(code))
        if not secrets.compare_digest(room.key, str(key)):
            raise UnknownClass("Only the lecturer who opened this class can read its tally.")
        return room

    def _admit(self, room: _Class, token: str) -> None:
        if not (isinstance(token, str) and 0 < len(token) <= 64):
            raise TallyRefused("This session has no valid anonymous token.")
        if token not in room.students:
            if len(room.students) >= self.limits.max_students:
                raise TallyRefused(
                    f"This class is full ({self.limits.max_students} students); your answers "
                    "still show you the view, they are just not counted.")
            room.students.add(token)

    def _expire(self) -> float:
        now = self._clock()
        limits = self.limits
        for code in [code for code, room in self._classes.items()
                     if now - room.touched > limits.idle_expiry_s
                     or now - room.opened > limits.max_age_s]:
            del self._classes[code]
        return now


STORE = TallyStore(Limits.from_env())  # the server process's classes (one per process: see above)
