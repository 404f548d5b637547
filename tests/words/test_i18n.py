"""words/i18n.py: the language of a run, translating, the pseudo-locale, numbers, threads."""

from __future__ import annotations

import re
import string
import threading
from concurrent.futures import ThreadPoolExecutor

import plotly.graph_objects as go
import pytest
from babel.messages.pofile import read_po
from babel.numbers import format_decimal

from server.admission import Wait, wait_message
from server.budget import memory_problem
from server.worker import WORKER_WHAT
from shell.chart_text import describe
from words import i18n
from words.i18n import N_, _, ngettext


def zh_catalog():
    with i18n.catalog_path("zh-CN").open("rb") as po:
        return read_po(po, locale="zh_CN")


def zh(message: str) -> str:
    """The committed msgstr of ``message`` (read straight from the .po, not through gettext)."""
    return zh_catalog()[message].string


def fields(text: str) -> list[str]:
    return sorted(name for _, name, _, _ in string.Formatter().parse(text) if name is not None)


def test_english_by_default_and_the_source_strings_unchanged():
    assert i18n.current_language() == "en"
    message = "Number of components"
    assert _(message) is message  # English: the msgid itself, byte for byte
    assert ngettext("{n} point", "{n} points", 1) == "{n} point"
    assert ngettext("{n} point", "{n} points", 2) == "{n} points"
    assert N_("Dataset") == "Dataset"


def test_use_language_sets_and_restores_the_language_of_this_context():
    with i18n.use_language("zh-CN"):
        assert i18n.current_language() == "zh-CN"
        assert _("Number of components") == zh("Number of components") == "主成分个数"
        with i18n.use_language("en-XA"):
            assert _("Dataset").startswith("[Dataset ")
        assert i18n.current_language() == "zh-CN"
    assert i18n.current_language() == "en"
    with pytest.raises(ValueError, match="zh-CN"):
        i18n.use_language("fr")


def test_every_zh_cn_message_is_what_gettext_gives():
    """The catalog compiled in memory (read_po → write_mo → GNUTranslations) gives every
    committed msgstr for its msgid."""
    catalog = zh_catalog()
    with i18n.use_language("zh-CN"):
        for message in catalog:
            if isinstance(message.id, tuple):  # a plural: Chinese has its one form for any n
                for n in (0, 1, 2, 1000):
                    assert ngettext(*message.id, n) == message.string[0], message.id
            elif message.context:  # a word with two senses: pgettext's
                assert i18n.pgettext(message.context, message.id) == message.string
            elif message.id:
                assert _(message.id) == message.string, message.id


def test_the_empty_string_stays_empty_not_the_catalog_header():
    with i18n.use_language("zh-CN"):
        assert _("") == ""


def test_an_unknown_message_falls_back_to_english():
    with i18n.use_language("zh-CN"):
        assert _("A sentence no catalog holds {n}") == "A sentence no catalog holds {n}"


def test_chinese_has_one_plural_form():
    with i18n.use_language("zh-CN"):
        # Not in the catalog: gettext's fallback chooses by English rules...
        assert ngettext("{n} point", "{n} points", 2) == "{n} points"
    # ...and the catalog itself declares one form for every n.
    assert zh_catalog().num_plurals == 1


@pytest.mark.parametrize("message", [
    "Dataset",
    "{value} is outside the allowed range [{low}, {high}].",
    "Some settings in this link could not be used:\n\n",
    "A formula stays: $K_{ij} = k(x_i, x_j)$ and `lang`.",
])
def test_pseudo_locale_brackets_lengthens_and_keeps_placeholders(message):
    shown = i18n.pseudo(message)
    body = shown.rstrip("\n")
    assert body.startswith("[") and body.endswith("]")
    assert shown[len(body):] == message[len(message.rstrip("\n")):]  # trailing newlines kept
    assert len(body) >= 1.3 * len(message.rstrip("\n"))
    assert message.rstrip("\n") in shown  # placeholders, LaTeX, Markdown untouched
    assert fields(shown) == fields(message)
    with i18n.use_language("en-XA"):
        assert _(message) == shown
        assert ngettext(message, message + "s", 2) == i18n.pseudo(message + "s")


@pytest.mark.parametrize("raw, code", [
    ("zh-CN", "zh-CN"), ("zh_cn", "zh-CN"), (" ZH-cn ", "zh-CN"), ("en", "en"),
    ("en-xa", "en-XA"), ("EN_XA", "en-XA"),
])
def test_link_language_accepts_the_codes_in_any_case(raw, code):
    assert i18n.link_language(raw) == (code, None)


@pytest.mark.parametrize("raw", ["xx", "zh", "fr-FR", "", "[x](https://evil.example)"])
def test_link_language_names_the_accepted_values(raw):
    code, problem = i18n.link_language(raw)
    assert code is None
    assert "`en` (English)" in problem and "`zh-CN` (简体中文)" in problem
    assert "Showing the page in English." in problem
    assert "](https://" not in problem  # the value is shown as typed, never as a link


def test_link_language_problem_is_in_the_language_of_the_run():
    with i18n.use_language("zh-CN"):
        _code, problem = i18n.link_language("xx")
    assert problem.startswith("链接参数 `lang`") and problem.endswith("页面以 简体中文 显示。")


@pytest.mark.parametrize("locale, code", [
    ("zh", "zh-CN"), ("zh-CN", "zh-CN"), ("zh-Hans", "zh-CN"), ("zh-Hans-CN", "zh-CN"),
    ("zh-SG", "zh-CN"), ("zh_CN", "zh-CN"), ("ZH-cn", "zh-CN"),
    # Traditional characters are not what the zh-CN catalog writes.
    ("zh-TW", "en"), ("zh-HK", "en"), ("zh-Hant-TW", "en"),
    ("en-US", "en"), ("de-DE", "en"), ("", "en"), (None, "en"),
])
def test_browser_language(locale, code):
    assert i18n.browser_language(locale) == code


@pytest.mark.parametrize("value, spec", [
    (1234567.891, ","), (0.000123456, "g"), (1e-6, "g"), (12345.678, ",.2f"),
    (-3.5, ".3g"), (400, ""), (-1234.5, ",.1f"), (2.5e10, ".3g"),
])
def test_format_number_is_format_in_english_and_cldr_in_chinese(value, spec):
    assert i18n.format_number(value, spec) == format(value, spec)
    with i18n.use_language("en-XA"):
        assert i18n.format_number(value, spec) == format(value, spec)
    with i18n.use_language("zh-CN"):
        # CLDR's Chinese has English's decimal point, separator and minus sign.
        assert i18n.format_number(value, spec) == format(value, spec)


def test_format_number_uses_the_locale_symbols():
    """Against Babel's own formatter: Chinese, and a locale whose symbols differ (German,
    set directly: it is no language of the app) to show the symbols really are swapped."""
    with i18n.use_language("zh-CN"):
        assert i18n.format_number(-1234567.891, ",") == format_decimal(-1234567.891,
                                                                       locale="zh_Hans_CN")
    token = i18n._language.set("de")
    try:
        assert i18n.format_number(-1234567.891, ",") == format_decimal(-1234567.891,
                                                                       locale="de")
        assert i18n.format_number(-1234567.891, ",") == "-1.234.567,891"
    finally:
        i18n._language.reset(token)


def test_translations_are_built_once_per_language():
    assert i18n.translations("zh-CN") is i18n.translations("zh-CN")
    assert i18n.translations.cache_info().maxsize == len(i18n.ACCEPTED)


def test_two_threads_translate_in_their_own_language_at_the_same_time():
    """A session's language is its thread's (a ContextVar): two threads interleaving
    translations never see each other's."""
    barrier = threading.Barrier(2)
    rounds = 200

    def session(code: str) -> set[str]:
        i18n.use_language(code)
        seen = set()
        for _round in range(rounds):
            barrier.wait()  # both threads translate in the same instant, every round
            seen.add(_("Number of components"))
        return seen

    with ThreadPoolExecutor(2) as pool:
        chinese = pool.submit(session, "zh-CN")
        english = pool.submit(session, "en")
        assert chinese.result(timeout=60) == {"主成分个数"}
        assert english.result(timeout=60) == {"Number of components"}


def test_a_thread_started_by_a_session_begins_in_english():
    """Background work (server/ahead.py, server/worker.py) never inherits the language of the
    session that started it: a new thread starts from the default context."""
    seen = []
    with i18n.use_language("zh-CN"):
        thread = threading.Thread(target=lambda: seen.append(i18n.current_language()))
        thread.start()
        thread.join()
    assert seen == ["en"]


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:[.,]\d+)*", text)


def test_the_queues_wait_in_english_as_before_and_in_chinese_with_its_numbers():
    wait = Wait(place=3, seconds=130, at_least=True, lane="heavy")
    english = wait_message(wait, N_("this kernel PCA"), 10**8)
    assert english == ("The server is busy with other students' large computations; you are "
                       "number 3 in the queue. Expected wait: at least 3 min. This kernel PCA "
                       "(100.0 MB) starts as soon as there is room.")
    own = Wait(place=1, seconds=4, at_least=False, lane="quick", own_session=True)
    with i18n.use_language("zh-CN"):
        chinese = wait_message(wait, N_("this computation"), 10**8)
        chinese_own = wait_message(own, N_("this computation"), 2500)
    assert chinese == ("服务器正忙于其他同学的大型计算；你排在队列的第 3 位。"
                       "预计等待：至少 3 分钟。一旦有空位，这项计算（100.0 MB）就会开始。")
    english_own = wait_message(own, N_("this computation"), 2500)
    assert sorted(numbers(chinese_own)) == sorted(numbers(english_own))
    assert "约 4 秒" in chinese_own


def test_the_memory_guards_refusal_in_chinese_has_the_english_numbers():
    english = memory_problem(50_000, copies=2, budget=10**9, extra=(10**8, WORKER_WHAT))
    assert english.startswith("n = 50,000 needs 40.0 GB for the kernel matrix K (2 copies at "
                              "once), plus 100.0 MB for the worker process that times it; ")
    with i18n.use_language("zh-CN"):
        chinese = memory_problem(50_000, copies=2, budget=10**9, extra=(10**8, WORKER_WHAT))
        rectangle = memory_problem(50_000, 40_000, budget=10**9)
    assert chinese.startswith(
        "对于 n = 50,000，需要 40.0 GB 用于核矩阵 K（同时 2 份），另需 100.0 MB")
    assert sorted(numbers(chinese)) == sorted(numbers(english))  # the order is Chinese
    assert rectangle.startswith("对于 50,000 × 40,000 的矩阵，")
    assert "请使用更少的数据点" in rectangle


def test_join_list_is_the_apps_english_and_cldrs_chinese():
    items = ["the kernel", "γ", "the number of components"]
    assert i18n.join_list(items) == ", ".join(items)
    with i18n.use_language("en-XA"):
        assert i18n.join_list(items) == ", ".join(items)
    with i18n.use_language("zh-CN"):
        assert i18n.join_list(["核函数", "γ", "主成分个数"]) == "核函数、γ 和主成分个数"
        assert i18n.join_list(["核函数"]) == "核函数"
        # A space between the conjunction and a number or a Latin word, none between CJK.
        assert i18n.join_list(["0.1", "0.3"]) == "0.1 和 0.3"
        assert i18n.join_list(["γ = 1", "γ = 2", "γ = 3"]) == "γ = 1、γ = 2 和 γ = 3"
        assert i18n.join_list(["外圈", "RBF"]) == "外圈和 RBF"


def test_a_charts_text_alternative_in_chinese_has_the_english_numbers():
    fig = go.Figure([go.Scatter(x=[0.5, 1.5, 2.5], y=[-1.0, 0.25, 3.0], mode="markers",
                                name="class 0"),
                     go.Bar(x=["a", "b"], y=[1.0, 2.0])])
    fig.update_layout(title="Input space", xaxis_title="x₁", yaxis_title="x₂")
    english = describe(fig)
    assert english == ("Chart: Input space. class 0: 3 points, x (x₁) 0.5 to 2.5, y (x₂) −1 "
                       "to 3. bars (bars, y (x₂) against x (x₁)): a: 1, b: 2.")
    with i18n.use_language("zh-CN"):
        chinese = describe(fig)
    assert chinese == ("图表：Input space。class 0：3 个点，x (x₁) 0.5 至 2.5, y (x₂) −1 至 3。"
                       "柱状图（柱状图，y (x₂) 对 x (x₁)）：a: 1, b: 2。")
    assert sorted(numbers(chinese)) == sorted(numbers(english))


def test_a_thread_without_a_language_asks_the_resolver_for_its_sessions(monkeypatch):
    """A fragment's rerun runs in a new thread of its session: the registered resolver
    (shell.language: the session's choice) gives the language, asked at every call (a
    pool's thread runs several sessions' work in turn); a resolver's None (a thread of no
    session) or a bad code gives English."""
    seen = []

    def in_a_new_thread(resolver):
        monkeypatch.setattr(i18n, "_resolver", resolver)
        thread = threading.Thread(target=lambda: seen.append(
            (_("Number of components"), i18n.current_language())))
        thread.start()
        thread.join()

    calls = []
    in_a_new_thread(lambda: calls.append(1) or "zh-CN")
    in_a_new_thread(lambda: None)
    in_a_new_thread(lambda: "fr")
    assert seen == [("主成分个数", "zh-CN"), ("Number of components", "en"),
                    ("Number of components", "en")]
    assert calls == [1, 1]  # asked at each call: nothing kept for the thread

    # One thread, two sessions' work in turn: each gets its own session's language.
    sessions = iter(["zh-CN", "en"])
    session = {}
    monkeypatch.setattr(i18n, "_resolver", lambda: session.get("language"))
    turns = []

    def two_sessions_in_turn():
        for _turn in range(2):
            session["language"] = next(sessions)
            turns.append(_("Number of components"))

    thread = threading.Thread(target=two_sessions_in_turn)
    thread.start()
    thread.join()
    assert turns == ["主成分个数", "Number of components"]


def test_join_sentences_puts_a_space_between_english_sentences_and_none_between_chinese():
    sentences = ["The first holds 40 %.", "", "The second 10 %."]
    assert i18n.join_sentences(sentences) == "The first holds 40 %. The second 10 %."
    with i18n.use_language("en-XA"):
        assert i18n.join_sentences(sentences) == "The first holds 40 %. The second 10 %."
    with i18n.use_language("zh-CN"):
        assert i18n.join_sentences(["第一个占 40 %。 ", None, "第二个占 10 %。"]) == (
            "第一个占 40 %。第二个占 10 %。")


def test_join_and_is_a_b_and_c_in_english_and_the_languages_list_otherwise():
    assert i18n.join_and(["a"]) == "a"
    assert i18n.join_and(["a", "b"]) == "a and b"
    assert i18n.join_and(["a", "b", "c"]) == "a, b and c"
    with i18n.use_language("zh-CN"):
        assert i18n.join_and(["外圈", "内圈"]) == "外圈和内圈"
        assert i18n.join_and(["1", "2", "3"]) == "1、2 和 3"


def test_pgettext_tells_a_words_senses_apart():
    """One English word, two senses, two messages: the angle's "degrees" (度) is not the
    polynomial's degree (次数); the context is never shown."""
    assert i18n.pgettext("unit of an angle", "degrees") == "degrees"
    with i18n.use_language("en-XA"):
        assert i18n.pgettext("unit of an angle", "degrees") == i18n.pseudo("degrees")
    with i18n.use_language("zh-CN"):
        assert i18n.pgettext("unit of an angle", "degrees") == "度"
        assert i18n.pgettext("colour theme", "Dark") == "深色"
        assert _("Degree d") == "次数 d"
        # Without its context the word is another message (here none: English).
        assert _("degrees") == "degrees"
        assert i18n.pgettext("", "") == ""


def test_clauses_full_stops_and_a_lists_separator_in_each_language():
    assert i18n.join_clauses(["γ = 7: 60 %", "", "seed 3: 70 %"]) == "γ = 7: 60 %; seed 3: 70 %"
    assert i18n.end_sentence("Input space") == "Input space."
    assert i18n.list_separator() == ", "
    with i18n.use_language("en-XA"):
        assert i18n.list_separator() == ", " and i18n.end_sentence("a") == "a."
    with i18n.use_language("zh-CN"):
        assert i18n.join_clauses(["γ = 7：60 %", "随机种子 3：70 %"]) == (
            "γ = 7：60 %；随机种子 3：70 %")
        assert i18n.end_sentence("输入空间 ") == "输入空间。"
        assert i18n.list_separator() == "、"
