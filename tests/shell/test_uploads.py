"""An upload belongs to its session: kept while it lives, released when it ends, and
invisible to every other session (AppTest: each AppTest is one browser session)."""

from __future__ import annotations

import gc
import weakref

import numpy as np

from shell import caches as compute
from shell import csv_controls, state, uploads
from shell.registry import LESSONS
from tests.support.apptest import assert_clean, open_app
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
    held = at.session_state[uploads.UPLOAD_KEY]
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
    alice_options = alice.session_state[uploads.UPLOAD_KEY].options

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
    previous = at.session_state[uploads.UPLOAD_KEY]
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
    server_before = len(compute.explorer_analysis.server_store)
    for gamma in (0.1, 0.3, 1.0, 3.0, 10.0):
        at.select_slider(key="w_gamma").set_value(gamma).run()
        assert_clean(at)
    held = at.session_state[uploads.UPLOAD_KEY]
    # The analysis (one per γ) keeps the last few; every other store the page fills for
    # this upload is bounded the same way.
    analyses = held.results[id(compute.explorer_analysis.server_store)]
    assert len(analyses) == compute.SESSION_RESULTS_MAX
    assert all(len(store) <= compute.SESSION_RESULTS_MAX for store in held.results.values())
    assert len(compute.explorer_analysis.server_store) == server_before

