"""Bytes over the websocket and time to fully drawn, for every page, in Chromium.

    python benchmarks/bench_views.py [--repeats 3] [--only explorer] [--pages-only]

Starts one ``streamlit run app.py`` (the browser tests' harness), warms it with one load
of each view (so caches are filled, as on a server students already use), then opens
each view ``--repeats`` times in a fresh Chromium context and reports the median of:

* **bytes**: websocket frames received by the browser for one load;
* **drawn**: seconds from navigation to fully drawn — the script has stopped running,
  no skeleton placeholders are left, and every Plotly chart has been laid out
  (``_fullLayout``). The same wait as the screenshot tool.

Views: the home page and every page of ``shell.registry.LESSONS`` at default settings, plus
the Explorer on the circles (n = 400) and on 2,000 USPS digits (issue 16's targets), and
links that open its other step-by-step tabs (``section=2``: K and K̃; ``3``: the spectrum).
Prints a table with the targets next to the figures. Needs Debian's Chromium.

``--calibrate`` first times issue 16's reference pages on a bare Streamlit server (an
empty page, one 400-point scatter, four scatters and two 400 × 400 heatmaps: 1.2, 2.1
and 2.9 s when the issue measured them) and prints how much slower this machine is
right now, so a run on a busy machine can still be read against the targets.

``--cold`` measures what a student waits for on a view nobody has opened yet: each load
asks for a sample no one has drawn (``seed=`` 1001, 1002, …), so the analysis and every
cache behind the page are cold, and reports two times: **first chart** (navigation to
the first Plotly chart laid out: the Explorer's kernel PCA projection) and **drawn** (as
above, with everything the page computes after its first screen).
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loadtest.browser import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402
from shell.registry import LESSONS  # noqa: E402

# Issue 16: (bytes, seconds) targets; None = no target set, measured only.
TARGETS = {
    "explorer · circles n=400": (1_000_000, 3.0),
    "explorer · USPS-2000": (1_500_000, 3.5),
}
# Issue 16's figures before this work, same machine (Chromium, warm server).
BEFORE = {
    "explorer · circles n=400": (1_900_000, 5.2),
    "explorer · USPS-2000": (3_700_000, 6.7),
}
VIEWPORT = {"width": 1280, "height": 800}
# Issue 16's reference pages and their time to drawn when it was written (seconds).
REFERENCE = {"empty": 1.2, "scatter": 2.1, "busy": 2.9}
REFERENCE_APP = """
import numpy as np, plotly.graph_objects as go, streamlit as st
view = st.query_params.get("view", "empty")
st.title("Reference page")
rng = np.random.default_rng(0)
def scatter(i):
    X = rng.normal(size=(400, 2))
    return go.Figure(go.Scatter(x=X[:, 0], y=X[:, 1], mode="markers"))
if view == "scatter":
    st.plotly_chart(scatter(0), key="s0")
if view == "busy":
    for row in range(2):
        a, b = st.columns(2)
        a.plotly_chart(scatter(2 * row), key=f"s{2 * row}")
        b.plotly_chart(scatter(2 * row + 1), key=f"s{2 * row + 1}")
    a, b = st.columns(2)
    K = np.exp(-rng.random((400, 400)))
    a.plotly_chart(go.Figure(go.Heatmap(z=K)), key="h0")
    b.plotly_chart(go.Figure(go.Heatmap(z=K - K.mean())), key="h1")
"""
FIRST_CHART = (
    "Array.from(document.querySelectorAll('.js-plotly-plot')).some(p => p._fullLayout)"
)
DRAWN = (
    "document.querySelectorAll('[data-testid=\"stSkeleton\"]').length === 0"
    " && Array.from(document.querySelectorAll('.js-plotly-plot')).every(p => p._fullLayout)"
)


def views(only: str | None, pages_only: bool) -> list[tuple[str, str]]:
    """(name, url path) of every view measured."""
    listed = [("home", "/")] + [
        (lesson.url_path, f"/{lesson.url_path}") for lesson in LESSONS
    ]
    circles = "/explorer?dataset=circles&n=400&kernel=rbf&gamma=5"
    usps = "/explorer?dataset=usps&split=train&n=2000&kernel=rbf&gamma=0.004"
    extra = [
        ("explorer · circles n=400", circles),
        ("explorer · USPS-2000", usps),
        # A link straight to another step-by-step tab (only the open one is drawn).
        ("  tab 2 · K and K̃, circles", f"{circles}&section=2"),
        ("  tab 3 · spectrum, circles", f"{circles}&section=3"),
        ("  tab 2 · K and K̃, USPS", f"{usps}&section=2"),
    ]
    chosen = listed if pages_only else listed + extra
    if only:
        chosen = [(name, path) for name, path in chosen if only in name]
    return chosen


def load_once(browser, url: str, times: list | None = None) -> tuple[int, float, int]:
    """(websocket bytes received, seconds to drawn, exception boxes) for one fresh load.

    ``times``, when given, receives the seconds to the first chart laid out."""
    context = browser.new_context(viewport=VIEWPORT)
    page = context.new_page()
    received = [0]

    def on_socket(ws):
        ws.on("framereceived", lambda payload: received.__setitem__(0, received[0] + len(payload)))

    page.on("websocket", on_socket)
    start = time.perf_counter()
    page.goto(url)
    if times is not None:
        page.wait_for_function(FIRST_CHART, timeout=300_000, polling=20)
        times.append(time.perf_counter() - start)
    page.wait_for_selector(
        "[data-testid='stApp'][data-test-script-state='notRunning']", timeout=300_000
    )
    page.wait_for_function(DRAWN, timeout=300_000)
    drawn = time.perf_counter() - start
    page.wait_for_timeout(300)  # late frames (e.g. page-info) still belong to this load
    errors = page.locator("[data-testid='stException']").count()
    context.close()
    return received[0], drawn, errors


def calibrate(browser, repeats: int) -> float:
    """Time the reference pages on a bare server; returns now / then (median ratio)."""
    folder = Path(tempfile.mkdtemp(prefix="kpca-reference-"))
    (folder / "reference.py").write_text(REFERENCE_APP)
    server = Server(name="bench-reference", script="reference.py", cwd=folder)
    ratios = []
    try:
        for view, then in REFERENCE.items():
            url = f"{server.url}/?view={view}"
            load_once(browser, url)
            now = statistics.median(load_once(browser, url)[1] for _ in range(repeats))
            ratios.append(now / then)
            print(f"  reference {view}: {now:.2f} s (issue: {then:.1f} s, × {now / then:.2f})",
                  flush=True)
    finally:
        server.stop()
    return statistics.median(ratios)


def cold_loads(browser, server, chosen, repeats: int) -> None:
    """First chart and fully drawn, each load on a sample nobody has opened (cold caches)."""
    print(f"Cold loads (a new seed each time), median of {repeats}:")
    for name, path in chosen:
        firsts, drawns = [], []
        for i in range(repeats):
            sep = "&" if "?" in path else "?"
            _, drawn, errors = load_once(browser, f"{server.url}{path}{sep}seed={1001 + i}",
                                         firsts)
            drawns.append(drawn)
        print(f"  {name:28s} first chart {statistics.median(firsts):6.2f} s "
              f"(all: {', '.join(f'{t:.2f}' for t in firsts)}), drawn "
              f"{statistics.median(drawns):6.2f} s", flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeats", type=int, default=3, help="loads per view (median)")
    parser.add_argument("--only", help="measure only views whose name contains this")
    parser.add_argument("--pages-only", action="store_true", help="skip the extra queries")
    parser.add_argument("--cold", action="store_true",
                        help="time to first chart and to drawn on cold caches (new seeds)")
    parser.add_argument("--calibrate", action="store_true",
                        help="first time the issue's reference pages (machine speed now)")
    args = parser.parse_args()
    os.environ.setdefault("KPCA_USPS_PATH", str(Path("/work/shared/data/usps/usps.npz")))

    from playwright.sync_api import sync_playwright

    chosen = views(args.only, args.pages_only)
    server = Server(name="bench-views")
    rows, slowdown = [], None
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(
                executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS
            )
            slowdown = calibrate(browser, args.repeats) if args.calibrate else None
            if args.cold:
                cold_loads(browser, server, chosen, args.repeats)
                browser.close()
                return
            for name, path in chosen:
                url = server.url + path
                load_once(browser, url)  # warm: caches filled, as on a busy server
                loads = [load_once(browser, url) for _ in range(args.repeats)]
                size = statistics.median(b for b, _, _ in loads)
                drawn = statistics.median(t for _, t, _ in loads)
                errors = max(e for _, _, e in loads)
                rows.append((name, size, drawn, errors))
                print(f"  measured {name}: {size / 1e6:.2f} MB, {drawn:.2f} s", flush=True)
            browser.close()
    finally:
        server.stop()

    print()
    print(f"Median of {args.repeats} loads on a warm server, Chromium {VIEWPORT['width']}×"
          f"{VIEWPORT['height']}, {os.cpu_count()} CPU(s).")
    header = f"{'view':28s} {'MB':>6s} {'target':>7s} {'before':>7s} {'drawn s':>8s} " \
             f"{'target':>7s} {'before':>7s} {'exc':>4s}  ok"
    print(header)
    print("-" * len(header))
    for name, size, drawn, errors in rows:
        target = TARGETS.get(name)
        before = BEFORE.get(name)
        ok = "" if target is None else (
            "yes" if size <= target[0] and drawn <= target[1] and not errors else "NO"
        )

        def cell(pair, i, scale):
            return f"{pair[i] / scale:.2f}" if pair else "-"

        print(
            f"{name:28s} {size / 1e6:6.2f} {cell(target, 0, 1e6):>7s} {cell(before, 0, 1e6):>7s} "
            f"{drawn:8.2f} {cell(target, 1, 1):>7s} {cell(before, 1, 1):>7s} {errors:4d}  {ok}"
        )
    if slowdown is not None:
        print(f"\nThe reference pages took × {slowdown:.2f} their time in the issue: on a "
              "machine as fast as then, the times above would be about:")
        for name, _size, drawn, _errors in rows:
            target = TARGETS.get(name)
            met = target is not None and drawn / slowdown <= target[1]
            note = "" if target is None else (
                f"  (target {target[1]:.1f} s: {'met' if met else 'not met'})"
            )
            print(f"  {name:28s} {drawn / slowdown:6.2f} s{note}")


if __name__ == "__main__":
    main()
