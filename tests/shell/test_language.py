"""The session's language in the app (AppTest): the link's ``lang``, the sidebar's selector,
the browser's locale; the shared sidebar and the home page in zh-CN and in the en-XA
pseudo-locale. Two sessions at once are tested on a live server in Chromium
(``test_language_browser.py``): AppTest's harness is not thread-safe."""

from __future__ import annotations

import re

from babel.messages.pofile import read_po
from streamlit.testing.v1 import AppTest

from shell.language import K_LANGUAGE
from shell.registry import LESSONS
from tests.support.apptest import APP, TIMEOUT, assert_clean, needs_usps, open_app
from words import i18n

with i18n.catalog_path("zh-CN").open("rb") as _po:
    ZH = {message.id: message.string for message in read_po(_po, locale="zh_CN") if message.id}

# The shared sidebar's labels as the English app has always shown them.
ENGLISH_LABELS = {
    "w_dataset": "Dataset", "w_kernel": "Kernel", "w_standardize": "Standardise inputs",
    "w_gamma": "γ (log scale)", "w_keep_gamma": "Keep γ when the data change",
    "w_components": "Number of components", "w_projector": "Projector mode",
}
HOME_INTRO = (
    "Principal component analysis finds the directions along which data varies most, "
    "but only straight directions in the space the data lives in. ")
# Names, not words: the same in every language.
NAMES = {"KPCA Lab", "English", "简体中文", "en-XA"}


def _label(at: AppTest, key: str) -> str:
    for kind in ("selectbox", "checkbox", "select_slider", "slider", "toggle"):
        for widget in at.sidebar.get(kind):
            if getattr(widget, "key", None) == key:
                return widget.label
    raise AssertionError(f"no widget {key} in the sidebar")


def shell_texts(node):
    """Every text the shell's sidebar or a page's main area shows: (kind, text), the
    classroom's box (an expander the wing draws) left out: it is translated in the sweep."""
    kind = getattr(node, "type", "")
    if kind == "expander":
        return
    for attribute in ("label", "help", "placeholder"):
        value = getattr(node, attribute, None)
        if isinstance(value, str) and value:
            yield kind, attribute, value
    if kind in ("markdown", "caption", "subheader", "title", "header", "alert", "warning",
                "info", "error", "success"):
        value = node.value
        if not value.startswith("<style"):  # the accessibility CSS, not text
            yield kind, "value", value
    if kind in ("selectbox", "multiselect", "radio"):
        for option in node.options:
            yield kind, "option", option
    children = getattr(node, "children", None)
    for child in (children.values() if isinstance(children, dict) else ()):
        yield from shell_texts(child)


def numbers(text: str) -> list[str]:
    return re.findall(r"\d+(?:[.,]\d+)*", text)


def test_no_lang_is_english_with_the_labels_as_before():
    at = open_app("home")
    assert_clean(at)
    assert {key: _label(at, key) for key in ENGLISH_LABELS} == ENGLISH_LABELS
    assert at.markdown[1].value.startswith(HOME_INTRO)
    assert [s.value for s in at.subheader][:2] == ["Start with a classroom preset",
                                                   "The lessons"]
    assert "lang" not in at.query_params
    assert at.selectbox(key=K_LANGUAGE).value == "en"
    assert at.selectbox(key=K_LANGUAGE).options == ["English", "简体中文"]


def test_lang_zh_cn_shows_the_sidebar_and_home_in_chinese_and_keeps_it_in_the_link():
    at = open_app("home", {"lang": "zh-CN", "gamma": 2})
    assert_clean(at)
    assert {key: _label(at, key) for key in ENGLISH_LABELS} == {
        key: ZH[label] for key, label in ENGLISH_LABELS.items()}
    assert _label(at, "w_components") == "主成分个数"
    intro = at.markdown[1].value
    assert intro == ZH[next(m for m in ZH if isinstance(m, str) and m.startswith(HOME_INTRO))]
    assert [s.value for s in at.subheader][:2] == [ZH["Start with a classroom preset"],
                                                   ZH["The lessons"]]
    teaches = {m.value for m in at.markdown}
    assert {ZH[lesson.teaches] for lesson in LESSONS} <= teaches
    assert at.selectbox(key="w_kernel").options[:3] == ["线性核", "多项式核", "RBF（高斯）核"]
    # The link keeps the language and the settings, as the address bar always does.
    assert at.query_params["lang"] == "zh-CN" and at.query_params["gamma"] == "2"
    assert at.selectbox(key=K_LANGUAGE).value == "zh-CN"


def test_the_pseudo_locale_leaves_no_unwrapped_english_in_the_sidebar_or_home():
    at = open_app("home", {"lang": "en-XA"})
    assert_clean(at)
    texts = list(shell_texts(at.sidebar)) + list(shell_texts(at.main))
    assert len(texts) > 60  # labels, helps, captions, options, the home page's words
    unwrapped = [(kind, attribute, text) for kind, attribute, text in texts
                 if not (text.startswith("[") and text.rstrip().endswith("]"))
                 and text not in NAMES and not re.fullmatch(r"[\d.e+-]+", text)]
    assert unwrapped == []
    assert at.query_params["lang"] == "en-XA"


def test_an_unknown_lang_warns_naming_the_accepted_values_and_shows_english():
    at = open_app("home", {"lang": "xx"})
    assert not at.exception
    assert len(at.warning) == 1
    warning = at.warning[0].value
    assert warning.startswith("Some settings in this link could not be used:")
    assert ("Link parameter `lang`: “xx” is not a language of this app; accepted values are "
            "`en` (English), `zh-CN` (简体中文). Showing the page in English.") in warning
    assert {key: _label(at, key) for key in ENGLISH_LABELS} == ENGLISH_LABELS
    assert "lang" not in at.query_params


def test_a_bad_link_warns_in_chinese_with_the_english_numbers():
    query = {"components": 99, "gamma": "1e9"} | {name: 1 for name in "abcdefg"}
    english, chinese = open_app("home", query), open_app("home", {**query, "lang": "zh-CN"})
    english_lines = english.warning[0].value.split("\n")
    chinese_lines = chinese.warning[0].value.split("\n")
    assert chinese_lines[0] == ZH["Some settings in this link could not be used:"]
    assert len(chinese_lines) == len(english_lines) == 5
    for en_line, zh_line in zip(english_lines[2:], chinese_lines[2:], strict=True):
        assert zh_line.startswith("- 链接参数") or zh_line.startswith("- 已忽略")
        assert numbers(zh_line) == numbers(en_line) and numbers(en_line)
    # The sidebar's γ caption: the same multiple and reference in both.
    en_caption = next(c.value for c in english.sidebar.caption if c.value.startswith("= "))
    zh_caption = next(c.value for c in chinese.sidebar.caption if c.value.startswith("= "))
    assert numbers(zh_caption) == numbers(en_caption) and "中位数启发式" in zh_caption


def test_the_browser_locale_chooses_when_the_link_does_not():
    for locale, dataset_label in (("zh-Hans-CN", "数据集"), ("zh-TW", "Dataset"),
                                  ("de-DE", "Dataset")):
        at = AppTest.from_file(APP, default_timeout=TIMEOUT)
        at.context = {"locale": locale}
        at.run()
        assert _label(at, "w_dataset") == dataset_label, locale
        assert "lang" not in at.query_params  # the reader's own language: nothing to keep
    # The link wins over the browser.
    at = AppTest.from_file(APP, default_timeout=TIMEOUT)
    at.context = {"locale": "zh-CN"}
    at.query_params = {"lang": "en"}
    at.run()
    assert _label(at, "w_dataset") == "Dataset" and at.query_params["lang"] == "en"


def test_the_selector_switches_the_language_and_keeps_the_settings():
    at = open_app("home", {"dataset": "moons", "kernel": "rbf", "gamma": 2, "components": 4})
    before = dict(at.query_params)
    at.selectbox(key=K_LANGUAGE).set_value("zh-CN").run()
    assert_clean(at)
    assert _label(at, "w_components") == "主成分个数"
    assert at.subheader[0].value == ZH["Start with a classroom preset"]
    assert at.select_slider(key="w_gamma").value == 2
    assert at.slider(key="w_components").value == 4
    assert at.selectbox(key="w_dataset").value == "moons"
    assert dict(at.query_params) == before | {"lang": "zh-CN"}
    # A change of a setting afterwards stays in Chinese (the choice is the session's).
    at.slider(key="w_components").set_value(5).run()
    assert _label(at, "w_components") == "主成分个数" and at.query_params["components"] == "5"
    at.selectbox(key=K_LANGUAGE).set_value("en").run()
    assert _label(at, "w_components") == "Number of components"
    assert dict(at.query_params) == before | {"components": "5"}


def test_the_gamma_note_follows_a_language_switch():
    """The note saying why γ moved is kept as numbers and written in the run's language."""
    at = open_app("home", {"dataset": "circles", "kernel": "rbf", "gamma": 10})
    at.selectbox(key="w_dataset").set_value("swiss_roll").run()
    english = next(i.value for i in at.sidebar.info if i.value.startswith("γ changed from 10"))
    at.selectbox(key=K_LANGUAGE).set_value("zh-CN").run()
    chinese = [i.value for i in at.sidebar.info]
    assert len(chinese) == 1 and "γ 从 10 改为" in chinese[0]
    assert numbers(chinese[0]) == numbers(english)
    assert ZH["Keep γ when the data change"] in chinese[0]


def test_a_locked_link_says_what_is_locked_in_chinese():
    at = open_app("home", {"lock": "gamma,components", "lang": "zh-CN", "note": "Try γ = 2"})
    assert_clean(at)
    notice = next(m.value for m in at.markdown if m.value.startswith("**本练习锁定了：**"))
    assert notice == "**本练习锁定了：** γ 和主成分个数。教师的说明：“Try γ \\= 2”"
    assert any(b.label == "解锁控件" for b in at.button) is False  # not unlockable: no button
    english = open_app("home", {"lock": "gamma,components", "note": "Try γ = 2"})
    assert any(m.value == "**Locked for this exercise:** γ, the number of components. Your "
               "lecturer's note: “Try γ \\= 2”" for m in english.markdown)


@needs_usps
def test_the_usps_split_is_offered_in_chinese_and_kept_in_english_in_the_link():
    chinese = open_app("explorer", {"dataset": "usps", "n": 200, "lang": "zh-CN"})
    assert_clean(chinese)
    split = chinese.sidebar.selectbox(key="w_opt_usps_split")
    assert split.options == ["训练集", "测试集", "全部"] and split.value == "train"
    shown = " ".join(m.value for m in chinese.markdown)
    assert "USPS 手写数字训练集 7291 幅图像中的 200 幅" in shown and "'train'" not in shown
    chinese = split.set_value("test").run()
    assert chinese.query_params.get("split") in (["test"], "test")
    shown = " ".join(m.value for m in chinese.markdown)
    assert "USPS 手写数字测试集 2007 幅图像中的 200 幅" in shown
    english = open_app("explorer", {"dataset": "usps", "n": 200, "split": "test"})
    assert english.sidebar.selectbox(key="w_opt_usps_split").options == ["train", "test", "all"]
