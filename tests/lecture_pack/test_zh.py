"""The offline lecture in the language of the session that asks for it (issue 38): built in
a child process with the session's language passed in (``--lang``), kept by language, its own
words (lecture.html's and lecture.js's) from the pack, ``<html lang>`` set; the numbers and
verdicts those of the English file."""

from __future__ import annotations

import json
import re
import threading

import pytest

from classroom.tour import STEPS
from lecture_pack import build, download, html
from lecture_pack.__main__ import main as command_line
from words.i18n import _, current_language, use_language

CJK = re.compile(r"[\u4e00-\u9fff]")
URL = "http://zh-test.invalid"


def numbers(text: str) -> list[str]:
    return sorted(re.findall(r"\d+(?:[.,]\d+)*", text))


def in_thread(function, *args):
    """``function(*args)`` in a new thread (as server.ahead runs a build): no language of its
    own, so only what is passed in counts."""
    result = {}

    def run():
        result["language"] = current_language()
        result["value"] = function(*args)

    thread = threading.Thread(target=run)
    thread.start()
    thread.join()
    assert result["language"] == "en"
    return result["value"]


def kpca_traces(step: dict, frame: dict) -> list[dict]:
    return build.figure_data(step, next(f for f in frame["figures"] if f["id"] == "kpca"))


def legend(step: dict) -> list[str]:
    return [trace["name"] for trace in kpca_traces(step, step["frames"][0])]


def points(step: dict, frame: dict) -> list:
    return [(trace["x"], trace["y"]) for trace in kpca_traces(step, frame)]


def built_step(language: str) -> dict:
    """Step 1 of the file in ``language``, as the build's child process makes it."""
    with use_language(language):
        return build.build_tour_step(1, STEPS[0], base_url=URL)


def test_a_step_built_in_another_language_has_the_same_numbers():
    english = built_step("en")
    chinese = built_step("zh-CN")
    step = STEPS[0]
    assert english["title"] == step.title and english["look_for"] == step.look_for
    for key in ("title", "question", "check", "look_for", "settings"):
        assert CJK.search(chinese[key]), (key, chinese[key])
        assert numbers(chinese[key]) == numbers(english[key]), key
    assert chinese["kernel"] == "线性核"
    # The data named by their title in the sidebar, in each language (not by their key).
    assert english["settings"].startswith("Two circles, n = ")
    assert chinese["settings"].startswith("两个同心圆，")
    # The app's names of the circles' classes, in the legend's language.
    assert legend(english) == ["outer circle", "inner circle"]
    assert legend(chinese) == ["外圈", "内圈"]
    assert len(chinese["frames"]) == len(english["frames"])
    for en, zh in zip(english["frames"], chinese["frames"], strict=True):
        assert zh["numbers"] == en["numbers"] and points(chinese, zh) == points(english, en)
        assert zh["question"]["right"] == en["question"]["right"]
        for en_why, zh_why in zip(en["question"]["why"], zh["question"]["why"], strict=True):
            assert CJK.search(zh_why) and numbers(zh_why) == numbers(en_why)
        assert [numbers(s) for s in zh["sentences"]] == [numbers(s) for s in en["sentences"]]
        assert "得分：" in zh["sentences"][0] and "Score: 5-fold" in en["sentences"][0]


def test_the_file_says_its_own_words_in_the_pack_language():
    steps = {code: [built_step(code)] for code in ("en", "zh-CN")}
    with use_language("zh-CN"):
        chinese = html.render(build.assemble(steps["zh-CN"]))
    english = html.render(build.assemble(steps["en"]))
    assert '<html lang="zh-CN">' in chinese and '<html lang="en">' in english
    assert "__W:" not in chinese and "__W:" not in english
    # The English file's words as it always wrote them.
    for text in ('<span class="brand">KPCA Lab · guided tour <span id="version">',
                 '<button id="reveal" type="button" class="reveal">Reveal the answer</button>',
                 '<p class="note">Live: <a id="view-link" href="#">this view in KPCA Lab</a> · '
                 '<a id="tour-link" href="#">this step of the tour</a> (when a server is '
                 'there).</p>',
                 '<button id="back" type="button">← Back</button>'):
        assert text in english, text
    for text in ('<span class="brand">KPCA Lab · 课堂导览 <span id="version">',
                 '<button id="reveal" type="button" class="reveal">公布答案</button>',
                 '<a id="view-link" href="#">KPCA Lab 中的此视图</a>',
                 '<button id="back" type="button">← 上一步</button>',
                 "<title>KPCA Lab · 课堂导览离线版（"):
        assert text in chinese, text
    with use_language("zh-CN"):
        words = html.words_of_the_file()
    assert all(CJK.search(word) for name, word in words.items()
               if isinstance(word, str) and name not in ("spectrum_hover",)), words
    assert words["page_names"]["how_it_works"] == "原理详解"
    # Every word lecture.js reads is in the pack.
    script = (html._ASSETS / "lecture.js").read_text(encoding="utf-8")
    assert set(re.findall(r"\bW\.(\w+)", script)) <= set(words)


def test_the_file_is_built_and_kept_per_language(monkeypatch):
    for name, fresh in (("_files", {}), ("_plans", {})):
        monkeypatch.setattr(download, name, fresh)
    built = []
    monkeypatch.setattr(download, "lecture_steps", lambda: STEPS[:1])
    child = download.child_command
    monkeypatch.setattr(download, "child_command", lambda language, *args: built.append(
        language) or [*child(language, *args), "--max-frames", "3"])
    for language in ("zh-CN", "en"):  # work ahead is off in the tests: built in the thread
        in_thread(lambda language=language: download.request(language, is_lecturer=True))
    assert b'<html lang="zh-CN">' in download.lecture_file("zh-CN")
    assert b'<html lang="en">' in download.lecture_file("en")
    assert built == ["zh-CN", "en"]
    assert download.progress("zh-CN") is not download.progress("en")
    in_thread(lambda: download.request("zh-CN", is_lecturer=True))  # kept: not built again
    assert built == ["zh-CN", "en"]


def test_the_command_line_builds_the_file_in_the_language_asked_for(monkeypatch, tmp_path):
    """Issue 48: ``python -m lecture_pack`` built English only."""
    monkeypatch.setattr(build, "offline_steps", lambda: STEPS[:1])  # one step: quick
    out = tmp_path / "lecture.html"
    assert command_line(["--out", str(out), "--lang", "zh-CN", "--max-frames", "3"]) == 0
    assert current_language() == "en"  # the command leaves this thread's language alone
    text = out.read_text(encoding="utf-8")
    with use_language("zh-CN"):
        reveal, title = _("Reveal the answer"), _(STEPS[0].title)
    assert '<html lang="zh-CN">' in text and CJK.search(reveal)
    assert f'<button id="reveal" type="button" class="reveal">{reveal}</button>' in text
    pack = json.loads(re.search(r'<script type="application/json" id="pack">(.*?)</script>',
                                text, re.S).group(1).replace("<\\/", "</"))
    assert pack["language"] == "zh-CN" and pack["steps"][0]["title"] == title
    assert CJK.search(pack["left_out"]["text"])
    with pytest.raises(SystemExit):  # a language the app does not speak: argparse says so
        command_line(["--out", str(out), "--lang", "fr"])
