"""The machine's shared cache on disk (server/shared_cache.py): a second level under the
in-process stores, for built-in data only, bounded, shared by processes."""

from __future__ import annotations

import dataclasses
import os
import pickle
import subprocess
import sys
import textwrap
from pathlib import Path
from types import SimpleNamespace

import numpy as np
import pytest

from experiments.analysis import analyse
from lessons.common import analysis as common_analysis
from lessons.common import gamma_hint
from lessons.explorer import projections
from server import shared_cache
from shell import caches, drawn, uploads
from shell.state import CSV, DRAWN, DataKey, default_settings

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def disk(tmp_path, monkeypatch):
    """A shared cache of its own in ``tmp_path``, and empty in-process stores."""
    monkeypatch.setenv(shared_cache.ENV, str(tmp_path / "shared"))
    monkeypatch.setattr(shared_cache, "_caches", {})
    for fn in (common_analysis.explorer_analysis, gamma_hint._search, gamma_hint._guidance,
               projections._separability):
        monkeypatch.setattr(fn.server_store, "_values", type(fn.server_store._values)())
    yield tmp_path / "shared"
    for cache in shared_cache._caches.values():
        if cache is not None:
            cache.close()


def _entries() -> int:
    return len(shared_cache.shared_cache())


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
    monkeypatch.setenv(shared_cache.SIZE_ENV, "4")  # MiB
    monkeypatch.setattr(shared_cache, "_caches", {})
    block = np.arange(25_000, dtype=float)  # 200 kB an entry
    for i in range(60):  # 12 MB written in all
        shared_cache.put(f"entry {i}", block + i)
        assert shared_cache.shared_cache().volume() <= 4 * 2**20
    assert shared_cache.get("entry 0") is shared_cache.MISSING  # the oldest went
    assert np.array_equal(shared_cache.get("entry 59"), block + 59)
    assert 0 < shared_cache.fullness() <= 1


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


def test_two_claims_of_the_same_work_one_wins(disk):
    assert shared_cache.claim("circles rbf γ=5")
    assert not shared_cache.claim("circles rbf γ=5")
    assert shared_cache.claim("circles rbf γ=10")
