"""An upload belongs to its session: kept while it lives, released when it ends, and
invisible to every other session (AppTest: each AppTest is one browser session)."""

from __future__ import annotations

import gc
import weakref

import numpy as np
import pytest

from lessons.common.analysis import explorer_analysis
from shell import caches as compute
from shell import csv_controls, state, uploads
from shell.registry import LESSONS
from tests.support.apptest import ROOT, assert_clean, open_app
from tests.support.markdown import as_read
from tests.support.plotly_json import find_chart
from tests.support.plotly_json import title as plotly_title

# Pages that read the sidebar's data (the tour has none; de-noising uses USPS only).
DATA_PAGES = [lesson.url_path for lesson in LESSONS if lesson.url_path not in
              ("tour", "denoising")]


def csv_bytes(n: int, seed: int) -> bytes:
    """Two labelled blobs in the plane: every page can use them (maps need 2 features)."""
    rng = np.random.default_rng(seed)
    rows = [f"{a:.5f},{b:.5f},{'ab'[i % 2]}"
            for i, (a, b) in enumerate(rng.normal(size=(n, 2)) + [[0, 0], [3, 3]] * (n // 2))]
    return ("u,v,label\n" + "\n".join(rows)).encode()


def upload(at, content: bytes, name: str = "mine.csv"):
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    at.file_uploader(key="upload_csv").set_value((name, content, "text/csv")).run()
    return at


def input_points(at) -> int:
    return int(plotly_title(find_chart(at, "Input space")).split("Input space: ")[1].split()[0])


def test_the_upload_is_released_with_its_session_after_every_page_used_it():
    at = upload(open_app("explorer"), csv_bytes(40, seed=11))
    assert at.selectbox(key="w_csv_label").value == "label"
    at.checkbox(key="w_standardize").check().run()  # the standardised copy lives there too
    assert_clean(at)
    held = at.session_state[uploads.FILES_KEY].upload
    assert input_points(at) == len(held.data.X) == 40
    for page in DATA_PAGES:  # every page's caches have seen the upload
        at.switch_page(f"app_pages/{page}.py").run()
        assert not at.exception, (page, [e.value for e in at.exception])
    assert held.results, "no page kept a result with the upload"
    arrays = [held.data.X, held.data.X.base, held.data.y, held.standardized_X]
    refs = [weakref.ref(a) for a in arrays if a is not None] + [weakref.ref(held)]
    assert len(refs) == 5
    del held, arrays
    del at  # the session ends: Streamlit drops its session state
    gc.collect()
    alive = [ref() for ref in refs if ref() is not None]
    assert not alive, [type(o).__name__ for o in gc.get_referrers(*alive)]


def test_sessions_never_see_each_others_upload():
    first = csv_bytes(30, seed=1)
    alice = upload(open_app("explorer"), first, "alice.csv")
    assert_clean(alice)
    assert input_points(alice) == 30
    alice_options = alice.session_state[uploads.FILES_KEY].upload.options

    # Bob forges Alice's upload key (the fingerprint of her bytes): his session has no
    # such upload, so he is asked for his own file and sees none of her points.
    bob = open_app("explorer")
    bob.selectbox(key="w_dataset").set_value(state.CSV).run()
    bob.session_state[csv_controls._CSV_LAST_GOOD] = alice_options
    bob.run()
    assert not bob.exception
    assert any("holds no uploaded file" in i.value for i in bob.info)
    assert not bob.get("plotly_chart")

    bob = upload(bob, csv_bytes(24, seed=2), "bob.csv")
    assert_clean(bob)
    assert input_points(bob) == 24
    alice.run()
    assert input_points(alice) == 30  # hers, untouched by Bob's upload


def test_a_new_file_replaces_the_previous_one_and_its_results():
    at = upload(open_app("explorer"), csv_bytes(30, seed=5))
    previous = at.session_state[uploads.FILES_KEY].upload
    assert previous.results  # the Explorer's analysis is kept with the upload
    gone = weakref.ref(previous)
    del previous
    at = upload(at, csv_bytes(36, seed=6), "other.csv")
    assert_clean(at)
    assert input_points(at) == 36
    # Streamlit keeps the previous run's state values until the next run starts.
    at.run()
    gc.collect()
    assert gone() is None  # one upload per session: the old file and its results left


def test_results_of_an_upload_stay_in_the_session_bounded():
    # Many γ on one upload: the session keeps the last few analyses, the server none.
    at = upload(open_app("explorer"), csv_bytes(20, seed=7))
    server_before = len(explorer_analysis.server_store)
    for gamma in (0.1, 0.3, 1.0, 3.0, 10.0):
        at.select_slider(key="w_gamma").set_value(gamma).run()
        assert_clean(at)
    held = at.session_state[uploads.FILES_KEY].upload
    # The analysis (one per γ) keeps the last few; every other store the page fills for
    # this upload is bounded the same way.
    analyses = held.results[id(explorer_analysis.server_store)]
    assert len(analyses) == compute.SESSION_RESULTS_MAX
    assert all(len(store) <= compute.SESSION_RESULTS_MAX for store in held.results.values())
    assert len(explorer_analysis.server_store) == server_before


def test_each_uploaded_file_is_parsed_once_and_a_refused_one_costs_nothing_more(monkeypatch):
    from collections import Counter

    from datasets import csv_uploads

    parses: Counter = Counter()

    def counted(name, function):
        def call(*args, **kwargs):
            parses[name] += 1
            return function(*args, **kwargs)
        return call

    monkeypatch.setattr(csv_uploads, "check_csv", counted("check", csv_uploads.check_csv))
    monkeypatch.setattr(csv_uploads, "load_csv", counted("load", csv_uploads.load_csv))
    at = upload(open_app("explorer"), csv_bytes(40, seed=3))
    assert_clean(at)
    assert parses == {"check": 1, "load": 1}  # was 3-4 parses, then 1 on every rerun
    for _ in range(2):  # reruns: widget clicks, another page
        at.checkbox(key="w_standardize").check().run()
        at.checkbox(key="w_standardize").uncheck().run()
    at.switch_page("app_pages/how_it_works.py").run()
    at.switch_page("app_pages/explorer.py").run()
    assert_clean(at)
    assert parses == {"check": 1, "load": 1}
    at.selectbox(key="w_csv_label").set_value(csv_controls.NO_LABEL).run()  # another reading
    assert parses == {"check": 1, "load": 2}
    assert input_points(at) == 40

    # Refused by the loader (text in a numeric column): once, then from memory.
    at = upload(at, b"a,b\n1,2\nthree,4\n5,6\n", "typo.csv")
    assert parses == {"check": 2, "load": 3}
    # Refused whatever its label (a workbook): the check alone, once.
    at = upload(at, b"PK\x03\x04" + bytes(200), "book.csv")
    for _ in range(3):
        at.checkbox(key="w_standardize").check().run()
        at.checkbox(key="w_standardize").uncheck().run()
        assert "book.csv" in as_read(at.sidebar.error[0].value)
        assert input_points(at) == 40  # the last good upload stays on screen
    assert parses == {"check": 3, "load": 3}
    assert not at.exception


def test_the_upload_limit_is_one_number_in_one_unit_everywhere():
    import tomllib

    import datasets

    config = tomllib.loads((ROOT / ".streamlit" / "config.toml").read_text())
    limit_mb = config["server"]["maxUploadSize"]  # Streamlit: "in megabytes"
    assert datasets.MAX_BYTES == limit_mb * 10**6 == csv_controls.UPLOAD_LIMIT_MB * 10**6
    at = open_app("explorer")
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    uploader = at.sidebar.get("file_uploader")[0]
    assert uploader.proto.max_upload_size_mb == limit_mb
    assert f"{limit_mb} MB" in uploader.proto.help
    with pytest.raises(datasets.CSVError, match=rf"20\.0 MB; the app's limit is {limit_mb} MB"):
        datasets.load_csv(b"1" * (datasets.MAX_BYTES + 1))


def test_the_janitor_lets_an_ended_session_go_after_the_reconnect_time_only():
    active = {"alice": True, "bob": True}
    forgotten, released = [], []
    janitor = uploads.UploadJanitor(
        is_active=active.__getitem__, ttl=120, forget_files=forgotten.append,
        on_release=lambda: released.append(True), interval=30)
    alice, bob = uploads.SessionFiles(), uploads.SessionFiles()
    alice.upload = bob.upload = uploads.SessionUpload((("file", "x"),), data=None)
    janitor.watch("alice", alice)
    janitor.watch("bob", bob)
    assert janitor.sweep(now=0) == 0
    active["alice"] = active["bob"] = False  # both tabs close
    assert janitor.sweep(now=10) == 0  # gone since 10 s: may still reconnect
    active["bob"] = True  # Bob's network came back at 100 s
    assert janitor.sweep(now=100) == 0
    active["bob"] = False  # ... and went again at 125 s
    assert janitor.sweep(now=125) == 0
    assert janitor.sweep(now=131) == 1  # Alice: 121 s away, past the TTL
    assert alice.released and alice.upload is None and forgotten == ["alice"]
    assert not bob.released and bob.upload is not None and released == [True]
    assert janitor.sweep(now=246) == 1 and bob.released  # Bob: 121 s after he left
    assert forgotten == ["alice", "bob"] and janitor.watching() == 0


def test_the_janitor_forgets_a_session_streamlit_already_collected():
    forgotten, released = [], []
    janitor = uploads.UploadJanitor(
        is_active=lambda _: True, ttl=120, forget_files=forgotten.append,
        on_release=lambda: released.append(True), interval=30)
    files = uploads.SessionFiles()
    janitor.watch("carol", files)
    del files
    gc.collect()
    assert janitor.sweep(now=1) == 1 and forgotten == ["carol"] and released == [True]


def test_a_released_session_is_asked_for_its_file_again_not_shown_a_traceback():
    at = upload(open_app("explorer"), csv_bytes(30, seed=8))
    assert input_points(at) == 30
    at.session_state[uploads.FILES_KEY].release()
    at.run()  # the uploader still holds the file: read again
    assert_clean(at)
    assert input_points(at) == 30
    at.session_state[uploads.FILES_KEY].release()
    # The janitor also drops Streamlit's copy of the file: the uploader comes back empty.
    at.file_uploader(key="upload_csv").set_value(None).run()
    assert not at.exception
    assert any("Upload the file again" in i.value for i in at.info)


def test_bytes_parked_in_a_session_that_never_reads_them_go_with_it():
    # Issue 34: a script sent 12 files of 19 MB to the upload address of a session that
    # has no uploader; Streamlit kept them 210 s after the session closed.
    active = {"script": True, "student": True, "quiet": True}
    holding = {"script", "student"}
    forgotten, released = [], []
    janitor = uploads.UploadJanitor(
        is_active=active.__getitem__, ttl=120, forget_files=forgotten.append,
        on_release=lambda: released.append(True), interval=30,
        sessions_with_files=lambda: sorted(holding), parked_s=60)
    student = uploads.SessionFiles()  # read its upload at the next rerun
    janitor.watch("student", student)
    assert janitor.sweep(now=0) == 0 and janitor.watching() == 2
    assert janitor.sweep(now=59) == 0
    # A minute of bytes never read: dropped, though the script's tab is still open.
    assert janitor.sweep(now=61) == 1 and forgotten == ["script"] and released == [True]
    holding.discard("script")
    assert janitor.sweep(now=200) == 0 and not student.released  # the student's stay
    assert janitor.watching() == 1


def test_parked_bytes_of_a_closed_session_go_after_the_reconnect_time():
    active = {"script": True}
    holding = {"script"}
    forgotten = []
    janitor = uploads.UploadJanitor(
        is_active=active.__getitem__, ttl=120, forget_files=forgotten.append,
        on_release=lambda: None, interval=30, sessions_with_files=lambda: sorted(holding),
        parked_s=10**6)
    assert janitor.sweep(now=0) == 0
    active["script"] = False  # the tab closes
    assert janitor.sweep(now=10) == 0
    assert janitor.sweep(now=131) == 1 and forgotten == ["script"]
    holding.clear()  # Streamlit's manager no longer lists it
    assert janitor.sweep(now=200) == 0 and janitor.watching() == 0


def test_the_bytes_of_a_connected_session_whose_page_shows_no_uploader_go_at_once():
    # Issue 51: the student chose another dataset (or a script never showed the uploader).
    holding = {"student", "switched"}
    showing = {"student"}
    forgotten, released = [], []
    janitor = uploads.UploadJanitor(
        is_active=lambda _: True, ttl=120, forget_files=forgotten.append,
        on_release=lambda: released.append(True), interval=5,
        sessions_with_files=lambda: sorted(holding), shows_uploader=showing.__contains__)
    switched = uploads.SessionFiles()
    switched.upload = uploads.SessionUpload((("file", "x"),), data=None)
    janitor.watch("switched", switched)
    assert janitor.sweep(now=0) == 1 and forgotten == ["switched"] and released == [True]
    # Streamlit's copy of the bytes went; the parsed upload stays for "Your own CSV" again.
    assert not switched.released and switched.upload is not None


class _Record:
    def __init__(self, file_id: str, size: int) -> None:
        self.file_id, self.data = file_id, b"x" * size


def test_the_gate_keeps_a_file_only_where_an_uploader_is_shown_one_a_session_within_the_ceiling():
    from starlette.exceptions import HTTPException
    from streamlit.runtime.memory_uploaded_file_manager import MemoryUploadedFileManager

    manager = MemoryUploadedFileManager("/_stcore/upload_file")
    gate = uploads.UploadGate(ceiling=100)
    uploads.guard_manager(manager, gate)
    uploads.guard_manager(manager, gate)  # once: a second call adds nothing

    def put(session: str, file_id: str, size: int) -> int:
        try:
            manager.add_file(session, _Record(file_id, size))
        except HTTPException as refused:
            return refused.status_code
        return 204

    def held() -> dict:
        return {session: sorted(files) for session, files in manager.file_storage.items()}

    assert put("script", "a", 10) == 403  # its page shows no uploader
    assert held() == {} and gate.take_refusal("script") == uploads.NO_UPLOADER
    gate.note("alice", True)
    gate.note("bob", True)
    assert put("alice", "a1", 60) == 204
    assert put("alice", "a2", 60) == 204  # replaces a1: one uploader, one file
    assert held() == {"alice": ["a2"]}
    assert put("bob", "b1", 50) == 503  # 60 + 50 > 100
    assert gate.take_refusal("bob") == uploads.FULL and gate.take_refusal("bob") is None
    assert put("bob", "b1", 40) == 204 and held() == {"alice": ["a2"], "bob": ["b1"]}
    gate.note("bob", False)  # Bob chose another dataset
    assert put("bob", "b2", 1) == 403
    gate.forget(keep=lambda session: session != "alice")  # Alice's session ended
    assert put("alice", "a3", 1) == 403
    # Streamlit's own count of what it holds stays right (replaced files leave it).
    [stat] = manager.get_stats()["cache_memory_bytes"]
    assert stat.byte_length == 60 + 40


def test_the_sidebar_tells_a_student_whose_file_the_full_server_refused(monkeypatch):
    monkeypatch.setattr(uploads, "_GATE", uploads.UploadGate(ceiling=100))
    at = open_app("explorer")
    assert not uploads.gate()._showing  # no uploader on the page yet
    at.selectbox(key="w_dataset").set_value(state.CSV).run()
    [session_id] = uploads.gate()._showing  # the sidebar noted the uploader
    assert uploads.gate().refusal(session_id, 10**12, 0) == uploads.FULL
    at.run()
    [warning] = at.sidebar.warning
    assert warning.value.startswith("The server holds as many uploaded files as it can right")
    at.run()
    assert not at.sidebar.warning  # said once


def test_a_refused_file_is_refused_in_the_readers_language():
    """Refused at the check (a PNG) and at loading (identical rows, after a good file): the
    Chinese sidebar says why in Chinese, numbers and names as the English says them."""
    corpus = ROOT / "tests" / "data" / "csv"
    english = upload(open_app("explorer"), (corpus / "identical_rows.csv").read_bytes(),
                     "same.csv")
    assert [as_read(e.value) for e in english.sidebar.error] == [
        "**same.csv** cannot be used: All 4 rows have the same values; KPCA needs at least two "
        "different rows."]
    chinese = upload(open_app("explorer", {"lang": "zh-CN"}), csv_bytes(40, seed=5))
    assert not chinese.sidebar.error
    chinese.file_uploader(key="upload_csv").set_value(
        ("same.csv", (corpus / "identical_rows.csv").read_bytes(), "text/csv")).run()
    assert [as_read(e.value) for e in chinese.sidebar.error] == [
        "无法使用 **same.csv**：全部 4 行的值都相同；核 PCA 至少需要两行不同的数据。"
        "仍在显示之前上传的文件 **mine.csv**。"]
    chinese.file_uploader(key="upload_csv").set_value(
        ("picture.csv", (corpus / "image_png.csv").read_bytes(), "text/csv")).run()
    assert [as_read(e.value) for e in chinese.sidebar.error] == [
        "无法使用 **picture.csv**：这是一张 PNG 图片，而不是 CSV 文本文件。请把数据导出为 CSV"
        "（逗号分隔值）文件，再上传那个文件。仍在显示之前上传的文件 **mine.csv**。"]
