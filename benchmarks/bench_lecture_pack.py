"""The offline lecture (issue 38): the file's size by part and its first step's time to
drawn in Chromium from disk, beside the budget.

    python benchmarks/bench_lecture_pack.py [--repeats 5] [--max-frames N] [--file lecture.html]

Builds the full file with ``python -m lecture_pack --json`` (in its own process: a
benchmark imports no view, and the builder runs the lessons' views' pure functions), then
opens it ``--repeats`` times from ``file://`` in a fresh Chromium context with every
request blocked and reports the median of **first drawn**: milliseconds from the
navigation to the first step's charts all drawn (``window.lecture.firstDrawnMs``, the
page's own ``performance.now()``). ``--file`` measures an existing file (its size by part
is then the library and the rest). Prints each step's slider values too. Results go to
benchmarks/results/bench_lecture_pack.json.

Budget (issue 38): the file ≤ 10 MB, Plotly's library included; first step drawn ≤ 2 s.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loadtest.browser import CHROMIUM, CHROMIUM_ARGS  # noqa: E402

BUDGET_BYTES = 10_000_000
BUDGET_FIRST_DRAWN_S = 2.0
RESULTS = ROOT / "benchmarks" / "results"


def build(out: Path, max_frames: int | None) -> dict:
    """Build the file in a process of its own; its JSON report."""
    command = [sys.executable, "-m", "lecture_pack", "--out", str(out), "--json"]
    if max_frames:
        command += ["--max-frames", str(max_frames)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True,
                          env={**os.environ, "PYTHONPATH": str(ROOT)})
    return json.loads(done.stdout.strip().splitlines()[-1])


def first_drawn(path: Path, repeats: int):
    """Seconds to the first step drawn (the page's own count) and the wall clock around it,
    per repeat; any request the page attempted (it should attempt none); and the page's
    marks (ms: its script started, after Plotly's library ran; its frames parsed)."""
    from playwright.sync_api import sync_playwright

    url = path.resolve().as_uri()
    page_s, wall_s, attempted, marks = [], [], [], []
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS)
        for _ in range(repeats):
            context = browser.new_context(viewport={"width": 1280, "height": 720})
            context.route("**/*", lambda route: route.continue_()
                          if route.request.url == url else (attempted.append(route.request.url),
                                                            route.abort()))
            page = context.new_page()
            started = time.perf_counter()
            page.goto(url, wait_until="commit")
            page.wait_for_function("() => window.lecture && window.lecture.firstDrawnMs",
                                   timeout=120_000)
            wall_s.append(time.perf_counter() - started)
            page_s.append(page.evaluate("() => window.lecture.firstDrawnMs") / 1000)
            marks.append(page.evaluate("() => window.lecture.marks"))
            context.close()
        browser.close()
    return page_s, wall_s, attempted, marks


LIBRARIES = {
    # The partial build the file carries when it covers the file (lecture_pack/html.py).
    "the file's partial Plotly.js": ROOT / "lecture_pack" / "assets" / "plotly-lecture.min.js",
    "Plotly's whole library": None,  # the installed plotly package's, found in plotly_floor
}


def library_path(name: str) -> Path:
    if LIBRARIES[name] is not None:
        return LIBRARIES[name]
    import plotly

    return Path(plotly.__file__).parent / "package_data" / "plotly.min.js"


def carried_library(path: Path) -> str:
    """Which of :data:`LIBRARIES` the file carries (its banner's first line is in it)."""
    with path.open(encoding="utf-8") as page:
        text = page.read()
    for name in LIBRARIES:
        with library_path(name).open(encoding="utf-8") as library:
            if library.readline().strip() in text:
                return name
    raise SystemExit(f"{path} carries neither of {', '.join(LIBRARIES)}")


def plotly_floor(folder: Path, library: Path) -> Path:
    """A page holding only ``library``, inlined the same way, that draws one empty chart:
    what any file carrying it costs on this machine now (the floor under the lecture's
    first draw, to read a busy machine's figure against)."""
    text = library.read_text(encoding="utf-8")
    path = folder / f"{library.stem}_only.html"
    path.write_text(
        "<!DOCTYPE html><html><body><div id='c' style='height:300px'></div><script>"
        + text.replace("</script", "<\\/script") + "</script><script>"
        "window.lecture = {};"
        "Plotly.newPlot('c', [{x: [1], y: [1]}]).then(() => {"
        " window.lecture.firstDrawnMs = performance.now();"
        " window.lecture.marks = {scriptStart: performance.now(), parsed: performance.now()}; });"
        "</script></body></html>", encoding="utf-8")
    return path


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=5)
    parser.add_argument("--max-frames", type=int, default=None,
                        help="a quick build (≥ 3 values a slider); the budget is the full one's")
    parser.add_argument("--file", type=Path, default=None, help="measure this file, no build")
    args = parser.parse_args()
    load = os.getloadavg()
    if args.file is None:
        folder = Path(tempfile.mkdtemp(prefix="lecture_pack_"))
        path = folder / "lecture.html"
        report = build(path, args.max_frames)
        parts = report["bytes"]
        kind = "full" if not args.max_frames else f"at most {args.max_frames} values a slider"
        print(f"Built {path} in {report['build_seconds']:.0f} s ({kind}).")
    else:
        path, report = args.file, {}
        library = library_path(carried_library(path)).stat().st_size
        total = path.stat().st_size
        parts = {"library": library, "figures": None, "text": None, "total": total}
    page_s, wall_s, attempted, marks = first_drawn(path, args.repeats)
    print(f"\nLoad average at the start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"({os.cpu_count()} cores)\n")
    print(f"{'part':<28} {'bytes':>12} {'MB':>7}")
    carried = carried_library(path)
    print(f"The file carries {carried}.")
    for name, label in (("library", "Plotly.js (inlined)"), ("figures", "figures' data"),
                        ("text", "words, settings, page code")):
        if parts[name] is not None:
            print(f"{label:<28} {parts[name]:>12,} {parts[name] / 1e6:>7.2f}")
    verdict = "within" if parts["total"] <= BUDGET_BYTES else "OVER"
    print(f"{'the file':<28} {parts['total']:>12,} {parts['total'] / 1e6:>7.2f}   budget "
          f"{BUDGET_BYTES / 1e6:.0f} MB: {verdict}")
    median = statistics.median(page_s)
    verdict = "within" if median <= BUDGET_FIRST_DRAWN_S else "OVER"
    print(f"\nFirst step drawn from file:// (median of {args.repeats}): {median:.2f} s "
          f"(wall clock around it {statistics.median(wall_s):.2f} s; each: "
          f"{', '.join(f'{s:.2f}' for s in page_s)})   budget {BUDGET_FIRST_DRAWN_S:.0f} s: "
          f"{verdict}")
    library_s = statistics.median(m["scriptStart"] for m in marks) / 1000
    parse_s = statistics.median(m["parsed"] - m["scriptStart"] for m in marks) / 1000
    print(f"  of which: navigation to Plotly's library run {library_s:.2f} s, frames parsed "
          f"{parse_s:.2f} s, the rest drawing the first step (medians)")
    floor_s = {}
    for name in LIBRARIES:
        page = plotly_floor(Path(tempfile.mkdtemp(prefix="plotly_")), library_path(name))
        floor_s[name] = first_drawn(page, args.repeats)[0]
        print(f"  the floor now, a page with {name} alone ({library_path(name).stat().st_size:,} "
              f"bytes) drawing one empty chart: {statistics.median(floor_s[name]):.2f} s "
              f"(median of {args.repeats})")
    print(f"Requests the page attempted: {len(attempted)}")
    if report.get("sliders"):
        print("\nSlider values per step:")
        for number, labels in report["sliders"].items():
            print(f"  step {number:>2}: {', '.join(labels) if labels[0] else '(no slider)'}")
    RESULTS.mkdir(parents=True, exist_ok=True)
    (RESULTS / "bench_lecture_pack.json").write_text(json.dumps({
        "load": load, "bytes": parts, "first_drawn_s": page_s, "wall_s": wall_s, "marks": marks,
        "carries": carried, "plotly_only_s": floor_s,
        "attempted": attempted, "build_seconds": report.get("build_seconds"),
        "sliders": report.get("sliders")}, indent=1, ensure_ascii=False))
    return 0 if not attempted else 1


if __name__ == "__main__":
    sys.exit(main())
