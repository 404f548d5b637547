"""Answer → view, step by step through the guided tour, as a lecturer meets it.

    python benchmarks/bench_tour_steps.py [--cold] [--steps 1-10]

Starts one ``streamlit run app.py``, opens the tour in projector mode at 1280 × 720 in
Chromium and, for each step, opens its view from the tour page, answers its question (the
first option) and times, from the click:

* **first chart**: the view's first Plotly chart laid out (what the lecturer waits for);
* **drawn**: the run finished, no skeleton left, every chart laid out.

By default the lecturer opens the tour first and waits until the tour page says every
step's view is ready (``lecture_pack/ahead.py`` computes them in the background when the tour is
opened or a class starts): the lecture as it should go. ``--cold`` skips that wait and
prepares nothing (``KPCA_PREPARE_AHEAD=0``): every step computes when it is reached, the
dead air issue 35 measured (36–52 s on step 9). Prints the per-step table and how long the
preparation took. Issue 35's aim: no dead air, i.e. each view ready when it is reached.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from classroom.tour import STEPS, main_steps  # noqa: E402
from loadtest.browser import CHROMIUM, CHROMIUM_ARGS, Server  # noqa: E402

VIEWPORT = {"width": 1280, "height": 720}
TIMEOUT_MS = 600_000
IDLE = "document.querySelector('[data-testid=\"stApp\"]')" \
       "?.getAttribute('data-test-script-state') === 'notRunning'"
# A chart of the view (the sidebar has none), laid out.
FIRST_CHART = ("Array.from(document.querySelectorAll('[data-testid=\"stMain\"] .js-plotly-plot'))"
               ".some(p => p._fullLayout)")
DRAWN = (IDLE + " && document.querySelectorAll('[data-testid=\"stSkeleton\"]').length === 0"
         " && Array.from(document.querySelectorAll('.js-plotly-plot')).every(p => p._fullLayout)")
READY_TEXT = "views ready"  # the tour page's line while and after it prepares


def step_range(text: str) -> list[int]:
    low, _, high = text.partition("-")
    return list(range(int(low), int(high or low) + 1))


def settle(page) -> None:
    page.wait_for_timeout(300)  # a click's rerun starts after the click returns
    page.wait_for_function(IDLE, timeout=TIMEOUT_MS, polling=50)


def answer_first_option(page) -> None:
    """Answer the step's question with its first option (skip when it has none)."""
    box = page.locator("[class*='st-key-predict_box_']")
    options = box.locator("[role='radiogroup'] label, [data-testid='stButtonGroup'] button")
    if options.count():
        options.first.click()
    else:
        page.get_by_role("button", name="Skip: show the view").click()


def wait_until_prepared(page, started: float) -> float:
    """Seconds until the tour page says every view is ready."""
    total = len(STEPS)
    page.wait_for_function(
        f"document.body.innerText.includes('{total} of {total} {READY_TEXT}')",
        timeout=TIMEOUT_MS, polling=500)
    return time.perf_counter() - started


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--cold", action="store_true", help="prepare nothing ahead")
    parser.add_argument("--steps", default=f"1-{len(main_steps())}")
    args = parser.parse_args()
    from playwright.sync_api import sync_playwright

    env = dict(os.environ, KPCA_PREPARE_AHEAD="0" if args.cold else "1")
    server = Server("bench-tour-steps", env=env, start_timeout_s=120)
    rows = []
    try:
        with sync_playwright() as p:
            browser = p.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
            page = browser.new_context(viewport=VIEWPORT).new_page()
            page.set_default_timeout(TIMEOUT_MS)
            opened = time.perf_counter()
            page.goto(f"{server.url}/tour?projector=1&step=1")
            settle(page)
            prepared = None if args.cold else wait_until_prepared(page, opened)
            for number in step_range(args.steps):
                page.goto(f"{server.url}/tour?projector=1&step={number}")
                settle(page)
                page.get_by_role("button", name="Open this view").click()
                settle(page)
                start = time.perf_counter()
                answer_first_option(page)
                page.wait_for_function(FIRST_CHART, timeout=TIMEOUT_MS, polling=20)
                first = time.perf_counter() - start
                page.wait_for_timeout(300)
                page.wait_for_function(DRAWN, timeout=TIMEOUT_MS, polling=50)
                drawn = time.perf_counter() - start
                rows.append((number, STEPS[number - 1].title, first, drawn))
                print(f"step {number:2d}  {first:6.1f} s  {drawn:6.1f} s  "
                      f"{STEPS[number - 1].title}", flush=True)
            browser.close()
    finally:
        server.stop()
    mode = "cold (nothing prepared)" if args.cold else "prepared ahead"
    print(f"\nAnswer → view per step, {mode}; load {os.getloadavg()[0]:.2f}")
    if prepared is not None:
        print(f"The tour's views were prepared {prepared:.0f} s after the tour page opened.")
    print(f"{'step':>4}  {'first chart':>11}  {'drawn':>7}  title")
    for number, title, first, drawn in rows:
        print(f"{number:>4}  {first:>9.1f} s  {drawn:>5.1f} s  {title}")
    worst = max(rows, key=lambda row: row[3])
    print(f"worst: step {worst[0]}, {worst[3]:.1f} s to drawn")


if __name__ == "__main__":
    main()
