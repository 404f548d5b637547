"""``python -m lecture_pack --out lecture.html``: build the offline lecture file.

``--lang zh-CN`` builds it in another of the app's languages (its own words, the steps'
sentences and questions; the numbers are the same). ``--json`` prints what was built as one
JSON object instead of a line of text: the file's bytes by part (Plotly's library, the
figures' data, the words and the page's own code), the build's seconds and each step's
slider values (``benchmarks/bench_lecture_pack.py`` reads it).

The tour page's "Prepare the offline lecture" runs this too, as a child process of the
server (:mod:`lecture_pack.download`), with options of its own: ``--progress`` prints
``step N`` as each step is built (the page's progress), ``--background`` puts the process
below everything else on the machine, ``--memory-mb`` bounds its memory (beyond it the
build fails instead of taking the students' memory) and ``--cpu-seconds`` its CPU time.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time

from words.i18n import ACCEPTED, DEFAULT_LANGUAGE, use_language

PROGRESS = "step {number}"  # the line --progress prints as each step is built
NICE = 19  # --background's priority: the lowest


def lower_priority() -> None:
    """Run below everything else on the machine: the lowest priority (nice 19) and, on
    Linux, the ``SCHED_IDLE`` policy, under which the process runs only on a core that no
    other process wants at that moment (a core that runs nothing else counts as free when
    the scheduler places a waking student's request: nice 19 alone still takes a share)."""
    os.nice(NICE - os.nice(0))
    if hasattr(os, "SCHED_IDLE"):
        try:
            os.sched_setscheduler(0, os.SCHED_IDLE, os.sched_param(0))
        except OSError:  # not allowed here (a container's seccomp policy): nice 19 stays
            pass


def bound(resource_name: str, limit: int) -> None:
    """Limit this process's use of a resource (``RLIMIT_DATA``: bytes of heap and anonymous
    mappings, past which an allocation fails; ``RLIMIT_CPU``: CPU seconds, past which the
    system ends the process)."""
    import resource

    kind = getattr(resource, resource_name)
    resource.setrlimit(kind, (limit, limit))


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lecture_pack",
                                     description="Build the guided tour as one offline HTML file.")
    parser.add_argument("--out", default="lecture.html", help="the file to write")
    parser.add_argument("--base-url", help="the live app's address, for the links back to "
                        "each step (default: a server on this machine's port 8501)")
    parser.add_argument("--max-frames", type=int, default=None,
                        help="at most this many slider values per step (a quick build; ≥ 3)")
    parser.add_argument("--lang", choices=list(ACCEPTED), default=DEFAULT_LANGUAGE,
                        help="the file's language (default: %(default)s)")
    parser.add_argument("--steps", type=int, nargs="+", metavar="N",
                        help="the tour's steps to hold (default: the lecture's)")
    parser.add_argument("--json", action="store_true", help="report as JSON")
    parser.add_argument("--progress", action="store_true",
                        help="print 'step N' as each step is built")
    parser.add_argument("--background", action="store_true",
                        help="run below everything else on the machine (nice 19, SCHED_IDLE)")
    parser.add_argument("--memory-mb", type=float, default=None,
                        help="fail rather than hold more than this many MiB of data")
    parser.add_argument("--cpu-seconds", type=int, default=None,
                        help="end rather than use more CPU seconds than this (a library "
                        "that fails to allocate may retry forever)")
    args = parser.parse_args(argv)
    if args.background:
        lower_priority()
    if args.memory_mb:
        bound("RLIMIT_DATA", int(args.memory_mb * 2**20))
    if args.cpu_seconds:
        bound("RLIMIT_CPU", args.cpu_seconds)
    # The app's code is imported only now, at the priority and within the memory asked
    # for: importing it is seconds of a core.
    from classroom.tour import STEPS
    from lecture_pack.build import build_pack
    from lecture_pack.html import sizes, write

    if args.steps and not all(1 <= n <= len(STEPS) for n in args.steps):
        parser.error(f"--steps: the tour's steps are 1 to {len(STEPS)}")

    def built(step: dict) -> None:
        if args.progress:
            print(PROGRESS.format(number=step["number"]), flush=True)

    steps = None if args.steps is None else tuple(STEPS[n - 1] for n in args.steps)
    address = {} if args.base_url is None else {"base_url": args.base_url}
    started = time.perf_counter()
    with use_language(args.lang):  # the steps and the file's own words, in one language
        pack = build_pack(steps=steps, max_frames=args.max_frames, built=built, **address)
        seconds = time.perf_counter() - started
        size = write(pack, args.out)
    if args.json:
        print(json.dumps({"out": args.out, "build_seconds": seconds, "bytes": sizes(pack),
                          "sliders": {str(step["number"]): step["labels"]
                                      for step in pack["steps"]}}, ensure_ascii=False))
    else:
        print(f"{args.out}: {size / 1e6:.2f} MB, built in {seconds:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
