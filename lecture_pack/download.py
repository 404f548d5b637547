"""The tour page's "Download this lecture": the file built once per live address, in the
server's queue (it is heavy: every step's kernel PCA at every slider value), and kept."""

from __future__ import annotations

from lecture_pack import build, html
from shell.admission import queued
from shell.caches import bounded_cache
from shell.costs import Estimate

# What the build costs: the Explorer's kernel PCAs (n ≤ 2,000) and the lessons' own first
# screens (Choosing γ's sweep, the component maps, the mistakes…) at every slider value,
# with their questions; 966 s of wall clock on a shared 2-core machine at load 10–17, 1,184 s
# at load 8–10 once steps 3–7 showed their own pages (benchmarks/bench_lecture_pack.py), a
# few minutes on a quiet one (not yet measured there). A lower bound: the queue learns the
# rest.
BUILD_SECONDS = 180.0


# Each entry is the file itself (~7.6 MB): one per address the app is reached at.
@bounded_cache(max_entries=2)
def lecture_file(base_url: str) -> bytes:
    """The offline lecture, its links pointing back to the app at ``base_url``."""
    with queued(build.largest_n(), copies=2, estimate=Estimate(BUILD_SECONDS, at_least=True),
                what="the offline lecture"):
        return html.render(build.build_pack(base_url=base_url)).encode("utf-8")
