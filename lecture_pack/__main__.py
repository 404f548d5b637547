"""``python -m lecture_pack --out lecture.html``: build the offline lecture file."""

from __future__ import annotations

import argparse
import sys
import time

from lecture_pack.build import DEFAULT_BASE_URL, build_pack
from lecture_pack.html import write


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lecture_pack", description=__doc__)
    parser.add_argument("--out", default="lecture.html", help="the file to write")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                        help="the live app's address, for the links back to each step")
    parser.add_argument("--max-frames", type=int, default=None,
                        help="at most this many slider values per step (a quick build)")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    size = write(build_pack(max_frames=args.max_frames, base_url=args.base_url), args.out)
    print(f"{args.out}: {size / 1e6:.2f} MB, built in {time.perf_counter() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
