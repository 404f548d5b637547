"""The shared sentences experiments/ gives the pages (issue 37), each one whole sentence:
a check's line, the separability method, why μ/trace(K̃) is no share of variance. English
as it was, Chinese with the same numbers."""

from __future__ import annotations

import pytest

from experiments import checks
from experiments.kpca_steps import variance_share_problem
from experiments.separability import METHOD
from tests.support.page_language import numbers
from words import i18n


def _glued(check: checks.Check) -> str:
    """check_text as it was written before: fragments glued in English."""
    text = f"{check.label}: {checks.format_value(check.value)}"
    if check.target != 0:
        text += f" (expected {checks.format_value(check.target)})"
    if check.passed:
        return f"{text} {checks.PASS}"
    return f"{text} {checks.FAIL} — more than {checks.format_value(check.tolerance)} off"


CASES = [
    checks.Check("largest |row sum| of K̃", 2.2e-16, tolerance=1e-9),
    checks.Check("max |A − B|", 0.034, tolerance=1e-9),
    checks.Check("αᵀK̃α", 1.0 + 1e-14, tolerance=1e-9, target=1.0),
    checks.Check("αᵀK̃α", 0.75, tolerance=1e-9, target=1.0),
    checks.Check("max |A − B|", float("nan"), tolerance=1.0),
]


@pytest.mark.parametrize("check", CASES, ids=lambda c: f"{c.label}={c.value}")
def test_a_checks_line_is_as_before_in_english_and_whole_in_chinese(check):
    english = checks.check_text(check)
    assert english == _glued(check)
    with i18n.use_language("zh-CN"):
        chinese = checks.check_text(check)
    assert chinese.startswith(f"{check.label}：")
    assert numbers(chinese) == numbers(english)
    assert (checks.PASS in chinese) == check.passed and (checks.FAIL in chinese) != check.passed
    assert ("应为" in chinese) == (check.target != 0)
    assert ("偏差超过" in chinese) == (not check.passed)
    assert "expected" not in chinese and "more than" not in chinese


def test_the_separability_method_is_english_and_shown_in_chinese():
    assert METHOD == "5-fold cross-validated accuracy of a logistic regression (scikit-learn)"
    with i18n.use_language("zh-CN"):
        assert i18n._(METHOD) == "逻辑回归的 5 折交叉验证准确率（scikit-learn）"


@pytest.mark.parametrize("trace, floor, chinese_words", [
    (0.0, 0.0, "舍入误差"), (1e-18, 1e-15, "舍入误差"), (-0.5, 0.0, "为负")])
def test_why_there_is_no_share_of_variance_stays_english_and_is_shown_in_chinese(
        trace, floor, chinese_words):
    with i18n.use_language("zh-CN"):  # the sentence is English whatever the run's language:
        sentence = variance_share_problem(trace, floor)  # pages compare it
    assert sentence.startswith(("trace(K̃) is 0", "trace(K̃) is negative"))
    with i18n.use_language("zh-CN"):
        shown = i18n._(sentence)
    assert shown != sentence and chinese_words in shown and "“方差占比”" in shown
    assert variance_share_problem(2.5, 1e-15) is None
