"""Live checks: a formula's claim, measured on the current data, as a number.

Lesson pages show, next to each formula, the measured quantity that proves it holds
right now (e.g. "largest |row sum| of K̃: 2.2e-16 ✓"), never a bare tick. A check
that fails is shown in red with its value, so a wrong number can never hide.

:class:`Check`, :func:`check_text` and :func:`format_value` are plain Python, so a
lesson's experiment can state its claims and tests can compare them with what
``kpca_core`` computes; :func:`shell.checks.show_check` draws one.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

from words.i18n import N_, _

PASS, FAIL = "✓", "✗"


@dataclass(frozen=True)
class Check:
    """A measured value that should stay within ``tolerance`` of ``target``.

    Attributes
    ----------
    label : str
        What was measured, in words ("largest |row sum| of K̃").
    value : float
        The measurement.
    tolerance : float
        Largest allowed |value − target|.
    target : float
        What the formula says the value is (0 for "A equals B" checks written as
        max |A − B|).
    """

    label: str
    value: float
    tolerance: float
    target: float = 0.0

    @property
    def passed(self) -> bool:
        return math.isfinite(self.value) and abs(self.value - self.target) <= self.tolerance


def format_value(value: float) -> str:
    """Small and large magnitudes in scientific notation, the rest with 4 significant
    digits; a true minus sign (−), never a hyphen."""
    if value == 0:
        return "0"
    if not math.isfinite(value):
        return str(value)
    magnitude = abs(value)
    text = f"{value:.1e}" if magnitude < 1e-3 or magnitude >= 1e5 else f"{value:.4g}"
    return text.replace("-", "−")  # a true minus sign, as every page writes one


# One whole sentence for each case, keyed by (a target other than 0, passed): Chinese
# puts "expected" and "off" elsewhere than English does.
_CHECK_TEXTS = {
    (False, True): N_("{label}: {value} {mark}"),
    (True, True): N_("{label}: {value} (expected {target}) {mark}"),
    (False, False): N_("{label}: {value} {mark} — more than {tolerance} off"),
    (True, False): N_("{label}: {value} (expected {target}) {mark} — more than {tolerance} off"),
}


def check_text(check: Check) -> str:
    """'label: value ✓' (or ✗ with the tolerance it missed), in this run's language."""
    return _(_CHECK_TEXTS[check.target != 0, check.passed]).format(
        label=check.label, value=format_value(check.value), target=format_value(check.target),
        tolerance=format_value(check.tolerance), mark=PASS if check.passed else FAIL)
