"""The tour page's "Download this lecture": the file built once per live address, in the
server's queue (it is heavy: every step's kernel PCA at every slider value), and kept."""

from __future__ import annotations

from lecture_pack import build, html
from shell.admission import queued
from shell.caches import bounded_cache
from shell.costs import Estimate

# What the build costs: 91 kernel PCAs (n ≤ 2,000) with their questions; 966 s of wall
# clock on a shared 2-core machine at load 10–17 (benchmarks/bench_lecture_pack.py), a few
# minutes on a quiet one (not yet measured there). A lower bound: the queue learns the rest.
BUILD_SECONDS = 180.0


# Each entry is the file itself (~6.5 MB): one per address the app is reached at.
@bounded_cache(max_entries=2)
def lecture_file(base_url: str) -> bytes:
    """The offline lecture, its links pointing back to the app at ``base_url``."""
    with queued(build.largest_n(), copies=2, estimate=Estimate(BUILD_SECONDS, at_least=True),
                what="the offline lecture"):
        return html.render(build.build_pack(base_url=base_url)).encode("utf-8")
