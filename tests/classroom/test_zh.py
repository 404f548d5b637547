"""The classroom wing in zh-CN and in the en-XA pseudo-locale: the questions (every text
translated, placeholders filled, the numbers and verdicts the English ones), the tour page
and the class tally page (AppTest: nothing left unwrapped; the numbers of the English page),
the tally's refusals in the reader's language."""

from __future__ import annotations

import re
from dataclasses import replace

import pytest
from babel.messages.pofile import read_po

from classroom import lecturer, questions
from classroom.store import STORE
from classroom.tally import (
    Limits,
    TallyRefused,
    TallyStore,
    UnknownClass,
    duration,
    new_token,
)
from classroom.tour import STEPS, differences, parse_step, tally_id
from shell.caches import inputs_of, load_data
from shell.state import default_settings
from tests.support.apptest import assert_clean, open_app
from words import i18n
from words.i18n import use_language

with i18n.catalog_path("zh-CN").open("rb") as _po:
    ZH = {message.id: message.string for message in read_po(_po, locale="zh_CN") if message.id}

CJK = re.compile(r"[\u4e00-\u9fff]")
# Names and symbols, not words: the same in every language.
NAMES = {"KPCA", "Lab", "PCA", "MDS", "Isomap", "SVM", "AUC", "ROC", "RBF", "USPS", "MB",
         "Plotly", "JavaScript", "HTML", "CSV", "QR", "Spearman", "Schölkopf", "Smola", "Müller",
         "Nyström", "Fourier", "Sigmoid", "scikit", "learn", "Rand", "L1", "tanh", "exp", "max",
         "k",
         "means", "xᵀy", "max|K|", "ACD3FG", "tour", "all", "questions", "step", "seat",
         "lang", "invalid", "http", "https", "localhost", "class", "material",
         # The γ page's panel marks, quoted as the chart writes them (lessons/choosing_gamma).
         "median", "reference"}


def numbers(text: str) -> list[str]:
    """The numbers of a text, in order (a trailing sentence's full stop aside)."""
    return re.findall(r"\d+(?:[.,]\d+)*(?:e[−+-]?\d+)?", text)


def english_left(text: str) -> list[str]:
    """English words of ``text`` outside the pseudo-locale's brackets (nested: a bracketed
    sentence holding a bracketed value), Streamlit's icons, links and formulas aside."""
    text = re.sub(r":material/\w+:|:\w+\[|https?://\S+|`[^`]*`|\$[^$]*\$", " ", text)
    while True:
        stripped = re.sub(r"\[[^\[\]]*\]", " ", text)
        if stripped == text:
            break
        text = stripped
    return [word for word in re.findall(r"[A-Za-zÀ-ÿ][A-Za-zÀ-ÿ'’-]{2,}", text)
            if word not in NAMES]


def texts_of(node, inside: str = ""):
    """Every text a page's main area shows: (kind, text), expanders and popovers too."""
    kind = getattr(node, "type", "")
    for attribute in ("label", "help", "placeholder", "text"):
        value = getattr(node, attribute, None)
        if isinstance(value, str) and value:
            yield kind, value
    if kind in ("markdown", "caption", "subheader", "title", "header", "alert", "warning",
                "info", "error", "success"):
        value = node.value
        if not value.lstrip().startswith(("<style", "<script")):
            yield kind, value
    if kind in ("selectbox", "multiselect", "radio", "segmented_control"):
        for option in getattr(node, "options", ()):
            yield kind, str(option)
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        yield from texts_of(child)


def page_texts(at) -> list[tuple[str, str]]:
    return [(kind, text) for kind, text in texts_of(at.main) if text.strip()]


# --------------------------------------------------------------------------- the questions


def _cases():
    """Every tour step's question at its settings and at γ's two ends, and every question
    on three data sets with the linear, degree-1, sigmoid, Laplacian and RBF kernels."""
    cases = []
    for step in STEPS:
        settings = step.settings()
        cases.append((step.check, settings))
        if "gamma" in settings.kernel_params():
            cases += [(step.check, replace(settings, gamma=1e-6)),
                      (step.check, replace(settings, gamma=1e4))]
    for dataset in ("moons", "iris"):
        for kernel, extra in (("linear", {}), ("poly", {"degree": 1}),
                              ("sigmoid", {"gamma": 50.0}), ("laplacian", {"gamma": 1e-4})):
            settings = replace(default_settings(dataset), kernel=kernel, **extra)
            cases += [(question_id, settings) for question_id in questions.CATALOGUE]
    return cases


def _built(question_id, settings, language):
    data = load_data(settings.dataset, settings.dataset_options)
    with use_language(language):
        return questions.build(question_id, inputs_of(settings).X, data.y, settings)


@pytest.mark.slow
def test_every_question_in_chinese_has_the_english_numbers_and_verdicts():
    asked = 0
    for question_id, settings in _cases():
        english = _built(question_id, settings, "en")
        chinese = _built(question_id, settings, "zh-CN")
        assert (english is None) == (chinese is None), (question_id, settings)
        if english is None:
            continue
        asked += 1
        assert chinese.right == english.right and chinese.id == english.id
        assert chinese.prompt == ZH[questions._TABLE[question_id][0]]
        for en, zh in zip(english.options, chinese.options, strict=True):
            for en_text, zh_text in ((en.text, zh.text), (en.why, zh.why)):
                assert "{" not in zh_text and "}" not in zh_text, zh_text  # all filled
                assert sorted(numbers(zh_text)) == sorted(numbers(en_text)), (en_text, zh_text)
            assert CJK.search(zh.why), zh.why
            assert zh.why.startswith("正确：" if zh.right else "错误："), zh.why
            assert CJK.search(zh.text) or not CJK.search(ZH.get(en.text, "")) or (
                zh.text == en.text)
            assert english_left(zh.why) == [], zh.why
    assert asked > 60


def test_the_fixed_option_texts_are_the_english_ones_and_translated_where_shown():
    for question_id, (prompt, texts) in questions.CATALOGUE.items():
        with use_language("zh-CN"):
            zh_prompt, zh_texts = questions.catalogue(question_id)
        assert zh_prompt == ZH[prompt] and CJK.search(zh_prompt)
        assert len(zh_texts) == len(texts)
        for en, zh in zip(texts, zh_texts, strict=True):
            assert zh == en if en.isdigit() else (CJK.search(zh) and sorted(numbers(zh)) ==
                                                   sorted(numbers(en))), (en, zh)
    with use_language("zh-CN"):
        assert questions.catalogue("components_needed")[1][2:] == ("3 到 10",
                                                                  "都不是：10 个也不够")
    with use_language("en-XA"):
        prompt, texts = questions.catalogue("separation")
        assert prompt.startswith("[How well") and all(t.startswith("[") for t in texts)


def test_the_pseudo_locale_brackets_every_sentence_of_a_question():
    settings = STEPS[4].settings()  # the γ question: panels, reasons, ties
    question = _built("best_gamma", replace(settings, gamma=1e4), "en-XA")
    assert english_left(question.prompt) == []
    for option in question.options:
        assert english_left(option.why) == [], option.why


def test_the_live_question_is_cached_per_language(monkeypatch):
    from classroom import predict

    calls = []
    real = predict.build
    monkeypatch.setattr(predict, "build", lambda *a: calls.append(1) or real(*a))
    settings = replace(STEPS[9].settings(), n_components=3)  # n × n memory: no eigenwork
    english = predict._question.__wrapped__("memory_doubling", settings, "en")
    chinese = predict._question.__wrapped__("memory_doubling", settings, "zh-CN")
    assert english.options[1].why.startswith("Right: K has n² entries")
    assert chinese.options[1].why.startswith("正确：K 有 n² 个元素")
    assert len(calls) == 2


# --------------------------------------------------------------------------- the tour's words


def test_the_tours_differences_and_link_problems_are_said_in_the_readers_language():
    step = STEPS[1].settings()
    changed = replace(step, gamma=300.0, n_components=4)
    english = differences(step, changed)
    with use_language("zh-CN"):
        chinese = differences(step, changed)
        problem = parse_step("99")[1]
        word = parse_step("x")[1]
    assert english == ["γ = 300 (the step's: 5)", "4 components (the step's: 2)"]
    assert chinese == ["γ = 300（本步的：5）", "4 个主成分（本步的：2）"]
    assert problem == f"导览的步骤为 1 到 {len(STEPS)}，而不是 99；从第 1 步开始。"
    assert word == "`step=`“x” 不是步骤编号；从第 1 步开始。"
    assert parse_step("99")[1] == (f"The tour has steps 1 to {len(STEPS)}, not 99; starting "
                                   "at step 1.")
    assert parse_step("x")[1] == "`step=`“x” is not a step number; starting at step 1."


def test_a_refusal_is_english_in_the_log_and_in_the_readers_language_on_screen():
    store = TallyStore(Limits(max_classes=1), clock=lambda: 0.0)
    store.join(store.open_class("lecturer-one")[0], "a student")  # joined: it stays
    with use_language("zh-CN"), pytest.raises(TallyRefused) as refused:
        store.open_class("lecturer-two")
    assert str(refused.value).startswith("This server already runs 1 classes, each with "
                                         "students, its limit")
    assert "a class ends 2 minutes after" in str(refused.value)
    with use_language("zh-CN"):
        said = refused.value.said()
        assert duration(7200) == "2 小时" and duration(90) == "90 秒"
    assert said == ("本服务器已在运行 1 个课堂，每个都有学生，已达上限；请在某个课堂结束后再试"
                    "（教师关闭页面 2 分钟后课堂结束）。")
    with pytest.raises(UnknownClass) as unknown:
        store.live("NOPE99")
    with use_language("en-XA"):
        assert english_left(unknown.value.said()) == []
    assert duration(120) == "2 minutes"


# --------------------------------------------------------------------------- the pages

TOUR_SETTINGS = ({}, {"step": "5"}, {"step": str(len(STEPS))}, {"step": "99"})


@pytest.fixture
def lecturers():
    """Session state for a lecturer running a class (the tour page then offers the offline
    lecture, whose words are checked too); the class is closed afterwards."""
    opened = STORE.open_class(new_token())
    yield {lecturer._CLASS: opened}
    STORE.close_class(*opened)


@pytest.mark.parametrize("query", TOUR_SETTINGS)
def test_the_tour_page_in_the_pseudo_locale_leaves_no_english(query, lecturers):
    at = open_app("tour", {**query, "lang": "en-XA"}, state=lecturers)
    assert not at.exception
    texts = page_texts(at)
    assert len(texts) > 15
    left = [(kind, text) for kind, text in texts if english_left(text)]
    assert left == []


@pytest.mark.parametrize("query", TOUR_SETTINGS)
def test_the_tour_page_in_chinese_has_the_english_pages_numbers(query, lecturers):
    english = open_app("tour", query, state=lecturers)
    chinese = open_app("tour", {**query, "lang": "zh-CN"}, state=lecturers)
    assert not english.exception and not chinese.exception
    en_texts, zh_texts = page_texts(english), page_texts(chinese)
    assert len(en_texts) == len(zh_texts)
    for (en_kind, en), (zh_kind, zh) in zip(en_texts, zh_texts, strict=True):
        assert en_kind == zh_kind
        assert sorted(numbers(zh)) == sorted(numbers(en)), (en, zh)
        assert english_left(zh) == [], zh
    number = parse_step(query.get("step", "1"))[0]
    assert chinese.header[0].value == f"{number} · {ZH[STEPS[number - 1].title]}"
    assert chinese.title[0].value == "课堂导览"


def _tally(language: str, reveal: bool):
    """The class tally page with a class, three answers to step 5's question (revealed or
    not) and one to a step 1 question."""
    at = open_app("class_tally", {"lang": language})
    at.button(key="tally_start").click().run()
    code, key = at.session_state[lecturer._CLASS]
    for i, option in enumerate((0, 1, 1)):
        STORE.answer(code, f"zh-test-{language}-{i}", tally_id(5), option, option == 1)
    STORE.answer(code, f"zh-test-{language}-3", tally_id(1), 0, True)
    if reveal:
        STORE.reveal(code, key, tally_id(5))
        STORE.open_second_round(code, key, tally_id(1))
    at.run()
    return at, (code, key)


@pytest.mark.parametrize("reveal", [False, True])
def test_the_tally_page_in_the_pseudo_locale_and_in_chinese(reveal, monkeypatch):
    monkeypatch.delenv(lecturer.PASSCODE_ENV, raising=False)
    english, en_class = _tally("en", reveal)
    pseudo, xa_class = _tally("en-XA", reveal)
    chinese, zh_class = _tally("zh-CN", reveal)
    try:
        for at in (english, pseudo, chinese):
            assert_clean(at)
        left = [(kind, text) for kind, text in page_texts(pseudo)
                if english_left(re.sub(r"\n# [A-Z0-9 ]+", "", text))]
        assert left == []
        assert chinese.title[0].value == "课堂统计"
        en_texts, zh_texts = page_texts(english), page_texts(chinese)
        assert len(en_texts) == len(zh_texts)
        for (_kind, en), (_zh_kind, zh) in zip(en_texts, zh_texts, strict=True):
            # The class codes differ (each session opens its own), as written and spaced.
            for code, which in ((en_class[0], "en"), (zh_class[0], "zh")):
                if which == "en":
                    en = en.replace(" ".join(code), "").replace(code, "")
                else:
                    zh = zh.replace(" ".join(code), "").replace(code, "")
            if "http" in en:
                continue  # the join link (its code)
            assert sorted(numbers(zh)) == sorted(numbers(en)), (en, zh)
            assert english_left(re.sub(r"\n# [A-Z0-9 ]+", "", zh)) == [], zh
        prompts = "\n".join(m.value for m in chinese.markdown)
        assert ZH[questions.CATALOGUE["best_gamma"][0]] in prompts
        if reveal:
            assert any("正确" in p.text for p in chinese.get("progress") if p.text)
    finally:
        for opened in (en_class, xa_class, zh_class):
            STORE.close_class(*opened)
