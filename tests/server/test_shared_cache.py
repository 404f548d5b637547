"""The machine's shared cache on disk (server/shared_cache.py): a second level under the
in-process stores, for built-in data only, bounded, shared by processes."""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
import textwrap
import threading
import time
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from experiments.analysis import analyse
from lessons.common import analysis as common_analysis
from lessons.common import gamma_hint
from lessons.explorer import prepare as lab
from lessons.explorer import projections
from server import shared_cache
from shell import caches, drawn, uploads
from shell.state import CSV, DRAWN, DataKey, default_settings

ROOT = Path(__file__).resolve().parents[2]


def fresh_handles(monkeypatch) -> None:
    """This process's handles on the stores forgotten: the next call opens them anew, as a
    new process would."""
    monkeypatch.setattr(shared_cache, "_opening", {})
    monkeypatch.setattr(shared_cache, "_locked_until", {})


def close_handles() -> None:
    for handle, _started in shared_cache._opening.values():
        if handle.done() and handle.result() is not None:
            handle.result().close()


@pytest.fixture
def disk(tmp_path, monkeypatch):
    """A shared cache of its own in ``tmp_path``, and empty in-process stores."""
    monkeypatch.setenv(shared_cache.ENV, str(tmp_path / "shared"))
    fresh_handles(monkeypatch)
    for fn in (common_analysis.explorer_analysis, gamma_hint._search, gamma_hint._guidance,
               projections._separability):
        monkeypatch.setattr(fn.server_store, "_values", type(fn.server_store._values)())
    yield tmp_path / "shared"
    close_handles()


def _entries() -> int:
    return sum(len(cache) for cache in (shared_cache.prefill_cache(),
                                        shared_cache.on_demand_cache()))


def _circles(gamma=5.0, seed=0):
    settings = default_settings("circles")
    options = tuple((k, seed if k == "seed" else v) for k, v in settings.dataset_options)
    settings = dataclasses.replace(settings, gamma=gamma, dataset_options=options)
    return settings, caches.inputs_of(settings)


def _never(*args, **kwargs):
    raise AssertionError("computed, not read from the shared cache")


def test_off_unless_set(monkeypatch):
    monkeypatch.setenv(shared_cache.ENV, "off")
    assert shared_cache.directory() is None
    monkeypatch.delenv(shared_cache.ENV)
    assert shared_cache.directory().parts[-2:] == ("kpca-lab", "shared")


def test_a_view_read_from_disk_is_the_view_computed_live(disk, monkeypatch):
    settings, inputs = _circles()
    fit = (inputs, settings.kernel_key, settings.n_components)
    stored = common_analysis.explorer_analysis(*fit)
    assert _entries() == 1
    # Another process: an empty store in memory, and no computing allowed.
    monkeypatch.setattr(common_analysis.explorer_analysis.server_store, "_values",
                        type(common_analysis.explorer_analysis.server_store._values)())
    monkeypatch.setattr(common_analysis, "analyse", _never)
    assert common_analysis.analysis_is_cached(*fit)
    read = common_analysis.explorer_analysis(*fit)
    live = analyse(inputs.X, inputs.y, kernel="rbf", kernel_params={"gamma": 5.0},
                   n_components=settings.n_components)
    for field in dataclasses.fields(live):
        want, got = getattr(live, field.name), getattr(read, field.name)
        if isinstance(want, np.ndarray):
            assert got.dtype == want.dtype and got.shape == want.shape, field.name
            assert got.tobytes() == want.tobytes(), field.name  # byte for byte
            assert not got.flags.writeable, field.name  # read-only, as in memory
        else:
            assert got == want, field.name
    assert read is not stored  # it did come back from the disk


def test_the_hint_and_scores_are_read_from_disk_too(disk, monkeypatch):
    # Another seed than the default's: nothing shipped with the code (experiments/shipped.py).
    settings, inputs = _circles(gamma=2.0, seed=1)
    result = common_analysis.explorer_analysis(inputs, settings.kernel_key, 3)
    data = caches.load_data(settings.dataset, settings.dataset_options)
    score = projections.shown_score(result, data, settings)
    verdict = gamma_hint.guidance(inputs, settings.kernel_key, score)
    assert _entries() >= 3  # the analysis, the search, the score (the verdict: the search's)
    for fn in (gamma_hint._search, gamma_hint._guidance, projections._separability):
        monkeypatch.setattr(fn.server_store, "_values", type(fn.server_store._values)())
    monkeypatch.setattr(gamma_hint.gamma_guidance, "search", _never)
    monkeypatch.setattr(gamma_hint.gamma_guidance, "advise", _never)
    monkeypatch.setattr(projections, "linear_separability", _never)
    assert projections.shown_score(result, data, settings) == score
    again = gamma_hint.guidance(inputs, settings.kernel_key, score)
    assert again is not verdict and pickle.dumps(again) == pickle.dumps(verdict)


def test_two_processes_share_it(disk, monkeypatch):
    code = textwrap.dedent("""
        import dataclasses
        from lessons.common.analysis import explorer_analysis
        from shell import caches
        from shell.state import default_settings
        settings = dataclasses.replace(default_settings("moons"), gamma=3.0)
        explorer_analysis(caches.inputs_of(settings), settings.kernel_key, 3)
    """)
    env = {**os.environ, shared_cache.ENV: str(disk), "PYTHONPATH": str(ROOT)}
    done = subprocess.run([sys.executable, "-c", code], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr[-2000:]
    monkeypatch.setattr(common_analysis, "analyse", _never)
    settings = dataclasses.replace(default_settings("moons"), gamma=3.0)
    result = common_analysis.explorer_analysis(caches.inputs_of(settings),
                                               settings.kernel_key, 3)
    assert result.projection.shape == (400, 3)


def test_the_size_bound_holds(disk, monkeypatch):
    monkeypatch.setenv(shared_cache.ON_DEMAND_SIZE_ENV, "4")  # MiB
    fresh_handles(monkeypatch)
    block = np.arange(25_000, dtype=float)  # 200 kB an entry
    for i in range(60):  # 12 MB written in all
        shared_cache.put(f"entry {i}", block + i)
        assert shared_cache.on_demand_cache().volume() <= 4 * 2**20
    assert shared_cache.get("entry 0") is shared_cache.MISSING  # the oldest went
    assert np.array_equal(shared_cache.get("entry 59"), block + 59)


def test_only_plain_settings_make_a_key():
    assert shared_cache.disk_key(analyse, (("n", 3), ("gamma", 0.5), ("name", None)))
    assert shared_cache.disk_key(analyse, (("X", np.zeros(3)),)) is None
    assert shared_cache.disk_key(analyse, (("f", object()),)) is None


@pytest.mark.parametrize("dataset", [CSV, DRAWN])
def test_uploads_and_drawings_never_enter_it(disk, monkeypatch, dataset):
    session = {}  # the student's own stores
    monkeypatch.setattr(drawn, "session_results", lambda: session)
    monkeypatch.setattr(uploads, "session_upload",
                        lambda options: SimpleNamespace(results=session))
    calls = []

    @caches.bounded_cache(max_entries=4, shared=True)
    def score(data: DataKey, gamma: float) -> float:
        calls.append(data.dataset)
        return gamma * 2

    own = DataKey(dataset, (("fingerprint", "abc"),), False)
    assert score(own, 1.0) == 2.0
    assert _entries() == 0 and session  # kept in the session, not on disk
    built_in = DataKey("moons", (("n", 400), ("noise", 0.1), ("seed", 0)), False)
    assert score(built_in, 1.0) == 2.0
    assert _entries() == 1


def test_a_value_the_process_holds_is_read_without_spelling_out_its_disk_key(disk,
                                                                           monkeypatch):
    # A hit (every run of every page) is a dictionary look-up; the disk's key, the
    # arguments spelled out, is worked out only when the process's store misses.
    spelled = []
    disk_key = shared_cache.disk_key
    monkeypatch.setattr(shared_cache, "disk_key",
                        lambda *args: spelled.append(args) or disk_key(*args))

    @caches.bounded_cache(max_entries=4, shared=True)
    def score(data: DataKey, gamma: float) -> float:
        return gamma * 2

    moons = DataKey("moons", (("n", 400), ("noise", 0.1), ("seed", 0)), False)
    assert score(moons, 1.0) == 2.0 and len(spelled) == 1 and _entries() == 1
    assert [score(moons, 1.0) for _ in range(3)] == [2.0] * 3
    assert len(spelled) == 1


def test_the_code_version_covers_the_questions_and_their_words():
    # The classroom's questions are shared on disk with their sentences: a new wording or
    # translation must be a new version, never yesterday's question read back.
    files = {str(path.relative_to(shared_cache.ROOT)) for path in shared_cache.versioned_files()}
    assert {"classroom/questions.py", "classroom/predict.py", "words/i18n.py",
            "locale/zh_CN/LC_MESSAGES/messages.po", "kpca_core/kernels.py"} <= files
    assert all(Path(shared_cache.ROOT, name).exists() for name in shared_cache.VERSIONED)


def test_two_claims_of_the_same_work_one_wins(disk):
    assert shared_cache.claim("circles rbf γ=5")
    assert not shared_cache.claim("circles rbf γ=5")
    assert shared_cache.claim("circles rbf γ=10")


# -- what one student does costs the class nothing (issue 51) -----------------------------


def _crafted_link(seed: int) -> None:
    """What ``/explorer?dataset=moons&n=500&seed=<seed>&gamma=1.7`` computes first: a
    setting in range that nobody prefilled (~0.46 MB on disk)."""
    base = default_settings("moons")
    options = tuple(sorted((dict(base.dataset_options) | {"n": 500, "seed": seed}).items()))
    settings = dataclasses.replace(base, dataset_options=options, gamma=1.7)
    common_analysis.explorer_analysis(caches.inputs_of(settings), settings.kernel_key,
                                      settings.n_components)


def test_crafted_links_evict_nothing_of_the_prefill(disk, monkeypatch):
    # A bound of 1 MiB, which four crafted links overflow twice (before: one store for
    # everything, least-recently-used first out: they evicted the whole prefill).
    monkeypatch.setenv(shared_cache.SIZE_ENV, "1")
    monkeypatch.setenv(shared_cache.ON_DEMAND_SIZE_ENV, "1")
    fresh_handles(monkeypatch)
    toy = dataclasses.replace(default_settings("scholkopf_toy"), gamma=10.0)
    assert lab.fill_one(toy)  # the lab's prefill, as a server fills it at start
    prefilled = [key for key in shared_cache.prefill_cache() if not key.startswith("claim|")]
    # The analysis at least (the γ search, the verdict and the scores of a built-in data
    # set at its defaults ship with the code, experiments/shipped.py: nothing to fill).
    assert any(key.startswith("lessons.common.analysis.explorer_analysis|") for key in prefilled)
    assert 0 < shared_cache.fullness() < 1
    for seed in range(1, 5):
        _crafted_link(seed)
    demand = shared_cache.on_demand_cache()
    assert 0 < demand.volume() <= 2**20 and len(demand) < 4  # bounded, its own evicted
    assert all(shared_cache.get(key) is not shared_cache.MISSING for key in prefilled)
    # The page's first view at the prefilled setting, in a fresh process: nothing computed.
    for fn in (common_analysis.explorer_analysis, gamma_hint._search, gamma_hint._guidance,
               projections._separability):
        monkeypatch.setattr(fn.server_store, "_values", type(fn.server_store._values)())
    for module, name in ((common_analysis, "analyse"), (projections, "linear_separability"),
                         (gamma_hint.gamma_guidance, "search"),
                         (gamma_hint.gamma_guidance, "advise")):
        monkeypatch.setattr(module, name, _never)
    lab.prepare(toy)


def test_what_the_prefill_needs_is_copied_from_on_demand_not_computed(disk, monkeypatch):
    key = shared_cache.disk_key(analyse, (("seed", 1),))
    shared_cache.put(key, 1.5)  # a student's view, on demand
    with shared_cache.prefilling():
        assert shared_cache.read_through(key, _never) == 1.5
    assert shared_cache.prefill_cache().get(key) == 1.5


def test_another_versions_prefill_is_removed_when_a_fill_starts(disk):
    shared_cache.put("x", 1.0)
    stale = disk / f"{shared_cache.PREFILL_PREFIX}0123456789abcdef"
    (stale / "00").mkdir(parents=True)
    assert shared_cache.drop_stale_prefills() == [stale]
    assert not stale.exists()
    assert Path(shared_cache.prefill_cache().directory).is_dir()
    assert shared_cache.get("x") == 1.0  # the on-demand store is not a prefill


def _returns_within(seconds: float, call):
    """``call()``'s value, asserting it came back within ``seconds`` (run on a thread of its
    own, so that a call that never returns fails the test instead of hanging it)."""
    outcome = {}
    thread = threading.Thread(target=lambda: outcome.setdefault("value", call()), daemon=True)
    started = time.monotonic()
    thread.start()
    thread.join(seconds)
    assert not thread.is_alive(), f"still waiting after {seconds} s"
    assert time.monotonic() - started <= seconds
    return outcome["value"]


# A process (a replica) stopped inside a write transaction on both stores: it holds their
# write locks until it is killed.
STOPPED_WRITER = """
import os, signal
from server import shared_cache
with shared_cache.prefill_cache().transact(), shared_cache.on_demand_cache().transact():
    print("locked", flush=True)
    os.kill(os.getpid(), signal.SIGSTOP)
"""


def test_a_store_locked_by_a_stopped_process_is_a_miss_within_a_second(disk, monkeypatch):
    shared_cache.put("stored", 2.5)
    env = {**os.environ, shared_cache.ENV: str(disk), "PYTHONPATH": str(ROOT)}
    child = subprocess.Popen([sys.executable, "-c", STOPPED_WRITER], cwd=ROOT, env=env,
                             stdout=subprocess.PIPE, text=True)
    try:
        assert child.stdout.readline().strip() == "locked"
        # This process's open handles: reads take no lock (the stored value comes back);
        # a write cannot take it, and is dropped instead of waited for.
        assert _returns_within(1.0, lambda: shared_cache.get("stored")) == 2.5
        _returns_within(1.0, lambda: shared_cache.put("new", 1.0))
        assert _returns_within(1.0, lambda: shared_cache.read_through("new", lambda: 3.0)) == 3.0
        # A process that opens the stores now (diskcache's opening writes): a miss, computed.
        fresh_handles(monkeypatch)
        found = _returns_within(1.0, lambda: shared_cache.get("stored"))
        assert found is shared_cache.MISSING
        assert _returns_within(1.0, lambda: shared_cache.read_through("x", lambda: 4.0)) == 4.0
    finally:
        child.kill()
        child.wait()
