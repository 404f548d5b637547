"""Predict, then reveal (classroom/predict.py): the tour's views wait for an answer, the
verdict follows the settings on screen, skip and questions-off show the view, and a link's
unknown questions= value warns; lesson links lock controls (shell/locks.py), and the
lecturer's focused link (classroom/focused_link.py) opens locked with this run's settings;
a wrong class code is refused."""

from __future__ import annotations

from urllib.parse import parse_qsl, urlsplit

import pytest
from streamlit.testing.v1.errors import AppTestError

from classroom.predict import RIGHT, WRONG
from classroom.tour import STEPS
from tests.support.apptest import assert_clean, open_app, usps_available

PLACE = {"separation": 2, "best_gamma": 5}  # tour steps whose view tests use


def open_step(number: int, **query):
    at = open_app("tour", {"step": number, **query})
    at.button(key="tour_open").click().run()
    at.switch_page(STEPS[number - 1].page)  # as in test_banner.py: AppTest follows
    return at.run()


def verdicts(at) -> list[str]:
    """The revealed options, one line each, starting with the right or wrong icon."""
    box = next(m.value for m in at.markdown if m.value.startswith((f"- {RIGHT}", f"- {WRONG}")))
    return box.split("\n")


def right_options(at) -> list[str]:
    return [line.split("**")[1] for line in verdicts(at) if line.startswith(f"- {RIGHT}")]


def charts(at) -> int:
    return len(at.get("plotly_chart"))


def test_the_view_waits_for_a_prediction_then_says_why_each_option_is_right_or_wrong():
    at = open_step(PLACE["separation"])
    assert_clean(at)
    radio = at.radio(key="predict_tour2")
    assert radio.value is None and charts(at) == 0  # nothing drawn before the guess
    assert not [e for e in at.expander if e.label == "What to look for"]  # nor the answer
    radio.set_value("Hardly (< 70 %)").run()
    assert_clean(at)
    assert charts(at) > 0 and [e for e in at.expander if e.label == "What to look for"]
    # RBF at γ = 5 on the circles: components 1–2 separate them; the Explorer agrees.
    assert right_options(at) == ["Almost perfectly (≥ 95 %)"]
    assert "(your answer)" in next(line for line in verdicts(at) if "Hardly" in line)
    accuracy = next(c.value for c in at.caption if "Cross-validated accuracy" in c.value)
    assert "100" in accuracy, accuracy


def test_the_verdict_follows_gamma_and_the_dataset():
    at = open_step(PLACE["separation"])
    at.radio(key="predict_tour2").set_value("Partly (70–95 %)").run()
    assert right_options(at) == ["Almost perfectly (≥ 95 %)"]
    at.select_slider(key="w_gamma").set_value(0.05).run()  # nearly linear: rings nested
    assert_clean(at)
    assert right_options(at) == ["Hardly (< 70 %)"]
    # The answer stays; its verdict is the new view's.
    assert at.radio(key="predict_tour2").value == "Partly (70–95 %)"

    at = open_app("kernel_trick", {"questions": "all"})  # a lesson page's own question
    assert_clean(at)
    at.radio(key="predict_lift_plane").set_value("No, not that well").run()
    assert right_options(at) == ["Yes, almost perfectly (≥ 95 %)"]  # the circles
    at.selectbox(key="w_dataset").set_value("moons").run()
    assert_clean(at)
    assert right_options(at) == ["No, not that well"]  # a plane cannot split the moons


def test_on_de_noising_the_pre_image_question_is_asked_of_its_rbf_kernel():
    """Issue 48: with a linear kernel in the sidebar the step said "Yes, exactly" beside
    the page's RBF de-noising; the page never follows the sidebar (shell/registry.py)."""
    if not usps_available():
        pytest.skip("USPS digits not available")
    from lessons.denoising import view

    number = next(i for i, s in enumerate(STEPS, start=1) if s.page.endswith("denoising.py"))
    assert STEPS[number - 1].dataset == "usps" and STEPS[number - 1].kernel == "rbf"
    at = open_step(number)
    at.selectbox(key="w_kernel").set_value("linear").run()  # the sidebar, not this page
    assert_clean(at)
    for key, value in {view.K_N: 300, view.K_TEST: 2, view.K_M: 16}.items():
        at.session_state[key] = value  # the page small, once it draws after the answer
    at.radio(key=f"predict_tour{number}").set_value("Yes, exactly").run()
    assert_clean(at)
    assert right_options(at) == ["No, in general no image maps there"]
    # The view is the step's own: the step's words are not said to describe another.
    assert not [c for c in at.caption if c.value.startswith("Your view differs")]


def test_skip_shows_the_view_and_questions_can_be_turned_off():
    at = open_step(PLACE["best_gamma"])
    assert charts(at) == 0
    at.button(key="predict_skip_tour5").click().run()
    assert_clean(at)
    assert charts(at) > 0 and any("Skipped" in c.value for c in at.caption)

    at = open_step(PLACE["best_gamma"], questions="0")  # the lecturer's link
    assert not at.radio and charts(at) > 0
    assert at.query_params["questions"] == "off"

    at = open_step(PLACE["best_gamma"])  # the sidebar's switch
    at.segmented_control(key="w_questions").set_value("off").run()
    assert_clean(at)
    assert not [r for r in at.radio if r.key == "predict_tour5"] and charts(at) > 0

    at = open_app("kernel_trick", {})  # lesson pages ask only when pages ask
    assert not at.radio and charts(at) > 0


def test_a_locked_link_keeps_its_values_and_shows_the_note_as_text():
    note = "Move only γ [answers](http://evil.example)"
    at = open_app("explorer", {"dataset": "moons", "gamma": 2, "lock": "dataset,kernel",
                               "note": note, "unlock": "1"})
    assert_clean(at)
    assert at.selectbox(key="w_dataset").disabled and at.selectbox(key="w_kernel").disabled
    assert not at.select_slider(key="w_gamma").disabled
    notice = next(m.value for m in at.markdown if m.value.startswith("**Locked"))
    assert "the dataset and its sample, the kernel" in notice
    assert "\\[answers\\]" in notice and "](http" not in notice  # inert: no link
    # A disabled widget cannot be moved (AppTest refuses, as a browser does); a value
    # written into its state, as a preset's or a hint's button does, is written back.
    with pytest.raises(AppTestError, match="disabled"):
        at.selectbox(key="w_dataset").set_value("circles")
    at.session_state["w_dataset"], at.session_state["w_kernel"] = "circles", "linear"
    at.run()
    assert_clean(at)
    assert at.query_params["dataset"] == "moons" and at.query_params["kernel"] == "rbf"
    assert at.query_params["gamma"] == "2"  # the link's γ, honoured
    at.select_slider(key="w_gamma").set_value(5.0).run()  # γ is free
    assert at.query_params["gamma"] == "5" and at.query_params["lock"] == "dataset,kernel"

    at.button(key="lock_unlock").click().run()
    assert_clean(at)
    assert not at.selectbox(key="w_dataset").disabled and "lock" not in at.query_params
    at.selectbox(key="w_dataset").set_value("circles").run()
    assert at.query_params["dataset"] == "circles"


def test_a_wrong_class_code_is_refused_with_a_message():
    at = open_app("tour", {"class": "zzzzzz"})
    assert_clean(at)
    said = [w.value for w in at.warning]
    # Above the page (a phone's sidebar is closed) and in the sidebar's Classroom box.
    assert len([w for w in said if "Class code ZZZZZZ: No class with this code" in w]) == 2
    at.run()  # above the page once; the sidebar keeps it
    assert len([w for w in at.warning if "No class with this code" in w.value]) == 1


def test_the_lecturer_makes_a_focused_link_that_opens_locked():
    at = open_app("explorer", {"dataset": "moons", "gamma": 2})
    at.multiselect(key="lock_make_names").set_value(["gamma", "dataset"]).run()
    at.text_input(key="lock_make_note").set_value("Only the components").run()
    link = next(c.value for c in at.code if "lock=" in c.value)
    assert link.startswith("http://localhost:8501/explorer?")  # the app's address + page
    query = dict(parse_qsl(urlsplit(link).query))
    assert query["lock"] == "dataset,gamma" and query["unlock"] == "1"

    student = open_app("explorer", query)
    assert_clean(student)
    assert student.select_slider(key="w_gamma").disabled
    assert student.select_slider(key="w_gamma").value == 2.0
    assert not student.slider(key="w_components").disabled
    assert any("Only the components" in m.value for m in student.markdown)


def test_the_focused_link_holds_the_settings_of_this_run_not_the_last():
    # γ changed in this very run: the link must carry the new γ, not the address bar's
    # value from before the change.
    at = open_app("explorer", {"dataset": "moons", "gamma": 2})
    at.multiselect(key="lock_make_names").set_value(["dataset"]).run()
    gamma = at.select_slider(key="w_gamma")
    new = next(v for v in gamma.options if float(v) > 2.0)
    gamma.set_value(float(new)).run()
    assert_clean(at)
    link = next(c.value for c in at.code if "lock=" in c.value)
    assert dict(parse_qsl(urlsplit(link).query))["gamma"] == dict(at.query_params)["gamma"][0]
    assert float(dict(parse_qsl(urlsplit(link).query))["gamma"]) == float(new)


def test_a_link_with_an_unknown_questions_value_warns_and_asks_on_the_tour():
    at = open_app("explorer", {"dataset": "moons", "questions": "`x`](http://evil)"})
    assert_clean(at)
    said = " ".join(w.value for w in at.warning)
    assert "Link parameter `questions` should be tour, all or 0" in said
    assert "](http" not in said.replace("\\](http", "")  # shown inert, not as a link
    assert at.session_state["w_questions"] == "tour"
