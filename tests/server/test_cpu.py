"""The CPUs the server may use (server/cpu.py): cgroup quotas read from fake cgroup file
systems, the affinity capped by them, and the libraries' threads set once (issue 50: two
OpenBLAS threads on one CPU's time cost USPS-2000's analysis 0.50 CPU s against 0.14 s)."""

from __future__ import annotations

import pytest
from threadpoolctl import threadpool_info, threadpool_limits

from server import cpu

V2 = "0::/kubepods/pod1/app\n"
V1 = "5:memory:/app\n4:cpu,cpuacct:/app\n0::/app\n"


def write(path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)


@pytest.mark.parametrize(("text", "cores"), [
    ("max 100000\n", None), ("150000 100000\n", 2), ("50000 100000\n", 1),
    ("100000 100000\n", 1), ("200000 100000\n", 2), ("", None), ("oops 100000", None),
])
def test_cgroup_v2_cpu_max_gives_whole_cpus_rounded_up(text, cores):
    assert cpu.cores_from_cpu_max(text) == cores


@pytest.mark.parametrize(("quota", "period", "cores"), [
    ("-1\n", "100000\n", None), ("150000\n", "100000\n", 2), ("50000\n", "100000\n", 1),
    ("300000", "100000", 3), ("x", "100000", None), ("100000", "0", None),
])
def test_cgroup_v1_cfs_quota_over_period_gives_whole_cpus_rounded_up(quota, period, cores):
    assert cpu.cores_from_cfs(quota, period) == cores


def test_a_v2_quota_is_read_in_the_process_cgroup(tmp_path):
    write(tmp_path / "kubepods/pod1/app/cpu.max", "150000 100000\n")
    assert cpu.quota_cores(V2, tmp_path) == 2


def test_a_parents_smaller_quota_limits_its_child(tmp_path):
    write(tmp_path / "kubepods/pod1/app/cpu.max", "max 100000\n")
    write(tmp_path / "kubepods/pod1/cpu.max", "50000 100000\n")
    write(tmp_path / "cpu.max", "max 100000\n")
    assert cpu.quota_cores(V2, tmp_path) == 1


def test_inside_a_container_the_mounts_root_is_its_own_cgroup(tmp_path):
    # Without a cgroup namespace the path names the host's hierarchy, absent here.
    write(tmp_path / "cpu.max", "50000 100000\n")
    assert cpu.quota_cores("0::/docker/0123abc\n", tmp_path) == 1


def test_no_quota_set_or_no_files_is_no_quota(tmp_path):
    write(tmp_path / "kubepods/pod1/app/cpu.max", "max 100000\n")
    assert cpu.quota_cores(V2, tmp_path) is None
    assert cpu.quota_cores(V2, tmp_path / "absent") is None
    assert cpu.quota_cores(V1, tmp_path / "absent") is None
    assert cpu.quota_cores("", tmp_path) is None


def test_a_v1_quota_is_read_from_the_cpu_controller(tmp_path):
    write(tmp_path / "cpu,cpuacct/app/cpu.cfs_quota_us", "150000\n")
    write(tmp_path / "cpu,cpuacct/app/cpu.cfs_period_us", "100000\n")
    assert cpu.quota_cores(V1, tmp_path) == 2
    write(tmp_path / "cpu,cpuacct/app/cpu.cfs_quota_us", "-1\n")
    assert cpu.quota_cores(V1, tmp_path) is None
    (tmp_path / "cpu,cpuacct/app/cpu.cfs_period_us").unlink()  # half a pair: no quota
    write(tmp_path / "cpu,cpuacct/app/cpu.cfs_quota_us", "50000\n")
    assert cpu.quota_cores(V1, tmp_path) is None


def test_a_hybrid_hosts_v2_mount_is_read_as_well(tmp_path):
    write(tmp_path / "unified/app/cpu.max", "50000 100000\n")
    assert cpu.quota_cores("0::/app\n", tmp_path) == 1


@pytest.mark.parametrize(("affinity", "quota", "cores"), [
    (2, None, 2), (2, 1, 1), (1, 2, 1), (8, 2, 2), (2, 2, 2), (0, None, 1),
])
def test_usable_cores_are_the_affinity_capped_by_the_quota(affinity, quota, cores):
    assert cpu.usable_cores(affinity, quota) == cores


def test_this_process_may_use_at_least_one_core_and_no_more_than_it_sees():
    import os

    assert 1 <= cpu.process_cores() <= len(os.sched_getaffinity(0))


def blas_threads() -> set[int]:
    return {pool["num_threads"] for pool in threadpool_info() if pool["user_api"] == "blas"}


@pytest.fixture
def undecided(monkeypatch):
    """A process that has not yet set its threads (the rule runs once per process); the
    test's limits are undone afterwards."""
    monkeypatch.setattr(cpu, "_decided", False)
    monkeypatch.setattr(cpu, "_applied", None)
    with threadpool_limits(limits=None):  # restores this process's limits on leaving
        yield


def test_the_rule_sets_blas_threads_and_the_environment_once(undecided):
    assert blas_threads()  # NumPy's BLAS is loaded (else the check is vacuous)
    environ: dict[str, str] = {}
    assert cpu.limit_threads_to_usable_cores(environ, cores=1) == 1
    assert blas_threads() == {1}
    assert environ == dict.fromkeys(cpu.THREAD_ENV, "1")  # for libraries loaded later
    assert cpu.limit_threads_to_usable_cores({}, cores=2) == 1  # once per process
    assert blas_threads() == {1}


@pytest.mark.parametrize("name", cpu.THREAD_ENV)
def test_a_thread_count_the_user_set_is_respected(undecided, name):
    before = blas_threads()
    environ = {name: "3"}
    assert cpu.limit_threads_to_usable_cores(environ, cores=1) is None
    assert environ == {name: "3"}
    assert blas_threads() == before
