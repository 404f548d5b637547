"""The CPUs this process may really use, and BLAS's and OpenMP's threads set to them.

OpenBLAS and OpenMP start one thread per core they see (the process's CPU affinity), but a
container's CPU is often limited by a cgroup quota instead (Streamlit Community Cloud, a
``docker run --cpus=1``), which they do not read: on a container allowed one CPU of a
two-core host their two threads share one CPU's time, and the one that waits spins. USPS-2000's
first-screen analysis cost 0.50 CPU s on two threads against 0.14 s on one (issue 50,
docs/load.md). So at start-up the app sets their threads to the CPUs it may use:
the cores of its affinity, at most the quota rounded up (a quota of 1.5 CPUs lets two
threads run), at least 1 (:func:`usable_cores`) — unless whoever started the server set
them (:data:`THREAD_ENV`), which is respected.

The quota is read from cgroup v2's ``cpu.max`` ("150000 100000": 1.5 CPUs; "max 100000":
none) or cgroup v1's ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` (-1: none), in the
process's own cgroup (``/proc/self/cgroup``) and each of its parents up to the mount's root
(a parent's quota limits its children; inside a container the mount's root is the
container's own cgroup). Reading files is all it does: everything but
:func:`limit_threads_to_usable_cores` is a function of its arguments.

Scale's worker process (:mod:`server.worker`) runs BLAS on one thread, which this rule never
goes below: it keeps its own environment.
"""

from __future__ import annotations

import math
import os
from collections.abc import Iterator, Mapping, MutableMapping
from pathlib import Path, PurePosixPath

CGROUP_ROOT = Path("/sys/fs/cgroup")
PROC_CGROUP = Path("/proc/self/cgroup")
# Thread counts a user may set for the libraries; any of them set: the app sets none.
THREAD_ENV = ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS")
_applied: int | None = None
_decided = False


def cores_from_cpu_max(text: str) -> int | None:
    """Whole CPUs a cgroup v2 ``cpu.max`` ("quota period") allows, rounded up; None for no
    quota ("max ...") or an unreadable line."""
    fields = text.split()
    if len(fields) != 2 or fields[0] == "max":
        return None
    return _quota_cores(fields[0], fields[1])


def cores_from_cfs(quota_text: str, period_text: str) -> int | None:
    """Whole CPUs cgroup v1's ``cpu.cfs_quota_us`` over ``cpu.cfs_period_us`` allow, rounded
    up; None for no quota (-1) or unreadable numbers."""
    return _quota_cores(quota_text.strip(), period_text.strip())


def _quota_cores(quota: str, period: str) -> int | None:
    try:
        quota_us, period_us = int(quota), int(period)
    except ValueError:
        return None
    if quota_us <= 0 or period_us <= 0:
        return None
    return max(1, math.ceil(quota_us / period_us))


def _read(path: Path) -> str | None:
    try:
        return path.read_text()
    except OSError:  # missing (no such controller, no cgroup file system) or unreadable
        return None


def _own_and_parents(mount: Path, cgroup_path: str) -> Iterator[Path]:
    """The cgroup's directory under ``mount`` and each parent's, up to the mount itself."""
    path = PurePosixPath("/") / cgroup_path
    for directory in (path, *path.parents):
        yield mount / str(directory).lstrip("/")


def quota_cores(proc_cgroup: str, root: Path = CGROUP_ROOT) -> int | None:
    """The fewest whole CPUs any cgroup quota on this process allows, or None for none.

    ``proc_cgroup``: the text of ``/proc/self/cgroup`` ("0::/path" for cgroup v2,
    "4:cpu,cpuacct:/path" for v1's cpu controller); ``root``: where the cgroup file systems
    are mounted (v2 at the root itself or at ``unified/``, v1's cpu controller at
    ``cpu,cpuacct/`` or ``cpu/``). Missing files are no quota.
    """
    found: list[int] = []
    for line in proc_cgroup.splitlines():
        parts = line.strip().split(":", 2)
        if len(parts) != 3:
            continue
        _hierarchy, controllers, path = parts
        if controllers == "":  # cgroup v2
            for mount in (root, root / "unified"):
                for directory in _own_and_parents(mount, path):
                    text = _read(directory / "cpu.max")
                    cores = None if text is None else cores_from_cpu_max(text)
                    if cores is not None:
                        found.append(cores)
        elif "cpu" in controllers.split(","):  # cgroup v1's cpu controller
            for mount in {root / controllers, root / "cpu"}:
                for directory in _own_and_parents(mount, path):
                    quota = _read(directory / "cpu.cfs_quota_us")
                    period = _read(directory / "cpu.cfs_period_us")
                    cores = (None if quota is None or period is None
                             else cores_from_cfs(quota, period))
                    if cores is not None:
                        found.append(cores)
    return min(found) if found else None


def usable_cores(affinity: int, quota: int | None) -> int:
    """The cores of the process's affinity, at most the quota's whole CPUs, at least 1."""
    return max(1, min(affinity, quota) if quota is not None else affinity)


def threads_set_by_user(environ: Mapping[str, str]) -> bool:
    """Whether whoever started the server set a thread count for the libraries."""
    return any(environ.get(name, "").strip() for name in THREAD_ENV)


def process_cores() -> int:
    """The cores this process may really use (its affinity and its cgroups' quotas)."""
    affinity = (len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity")
                else os.cpu_count() or 1)
    text = _read(PROC_CGROUP)
    return usable_cores(affinity, None if text is None else quota_cores(text))


def limit_threads_to_usable_cores(environ: MutableMapping[str, str] = os.environ,
                                  cores: int | None = None) -> int | None:
    """Set BLAS's and OpenMP's threads to ``cores`` (default :func:`process_cores`), once
    per process; returns the count set, or None when the user's environment sets one.

    Call it before the app's modules are imported: the libraries loaded later (SciPy's
    OpenBLAS, scikit-learn's OpenMP) read the environment when they load, and OpenMP's
    default for threads started later (each Streamlit session's) is only that; those
    already loaded (NumPy's OpenBLAS, whose count is process-wide) are set through
    threadpoolctl.
    """
    global _applied, _decided
    if _decided:
        return _applied
    _decided = True
    if threads_set_by_user(environ):
        return None
    count = process_cores() if cores is None else cores
    for name in THREAD_ENV:
        environ[name] = str(count)
    from threadpoolctl import threadpool_limits

    threadpool_limits(limits=count)  # not a block: it holds for the process's life
    _applied = count
    return count
