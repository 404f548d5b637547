"""``python -m lecture_pack --out lecture.html``: build the offline lecture file.

``--lang zh-CN`` builds it in another of the app's languages (its own words, the steps'
sentences and questions; the numbers are the same). ``--json`` prints what was built as one
JSON object instead of a line of text: the file's bytes by part (Plotly's library, the
figures' data, the words and the page's own code), the build's seconds and each step's
slider values (``benchmarks/bench_lecture_pack.py`` reads it).
"""

from __future__ import annotations

import argparse
import json
import sys
import time

from lecture_pack.build import DEFAULT_BASE_URL, build_pack
from lecture_pack.html import sizes, write
from words.i18n import DEFAULT_LANGUAGE, LANGUAGES, use_language


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(prog="python -m lecture_pack",
                                     description="Build the guided tour as one offline HTML file.")
    parser.add_argument("--out", default="lecture.html", help="the file to write")
    parser.add_argument("--base-url", default=DEFAULT_BASE_URL,
                        help="the live app's address, for the links back to each step")
    parser.add_argument("--max-frames", type=int, default=None,
                        help="at most this many slider values per step (a quick build; ≥ 3)")
    parser.add_argument("--lang", choices=list(LANGUAGES), default=DEFAULT_LANGUAGE,
                        help="the file's language (default: %(default)s)")
    parser.add_argument("--json", action="store_true", help="report as JSON")
    args = parser.parse_args(argv)
    started = time.perf_counter()
    with use_language(args.lang):  # the steps and the file's own words, in one language
        pack = build_pack(max_frames=args.max_frames, base_url=args.base_url)
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
