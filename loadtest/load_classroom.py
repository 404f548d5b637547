"""A classroom under load: N students open different links on one server at the same time.

    python loadtest/load_classroom.py                 # N = 12
    python loadtest/load_classroom.py --sessions 4 8 12 16

Each session is a real Chromium browser context (its own cookies, so its own Streamlit
session) on a link of its own: different pages, datasets and kernels, USPS with 2,000
digits among them. Every session then changes a setting (one more component, with the
keyboard on the sidebar slider), as a student would. Reported per N:

* errors: exception boxes, error messages, or a session that never finished drawing;
* mixed sessions: a session whose address bar or sidebar ends up holding another
  session's dataset or kernel, or lost its own change;
* time from navigation to fully drawn (script finished, no skeletons, every Plotly
  chart laid out), median and worst, for the first view and after the change;
* the server's peak resident memory (and its children), sampled every 20 ms, and its
  memory once the load has settled.

Why real browsers and not Streamlit's websocket protocol: a browser measures what a
student waits for (drawing included, most of a view's time) and exercises the real
session handling; Chromium's contexts share one browser process, so on this 2-core
machine N = 12–16 stays practical. Targets (issue "Hosted for a whole class"): no
errors, no mixing, peak RSS < 1 GB at N = 12 with USPS-2000 among the views.

All traffic goes to a server on 127.0.0.1 started by this script; every wait is bounded.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import threading
import time
from dataclasses import asdict, dataclass, field
from pathlib import Path
from urllib.parse import parse_qs, urlparse

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from loadtest.browser import (  # noqa: E402
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    DRAWN_JS,
    RssSampler,
    Server,
)
from shell.registry import LESSONS  # noqa: E402

USPS_2000 = "dataset=usps&split=train&n=2000&kernel=poly&gamma=0.00390625&degree=3&coef0=1"
# (dataset+kernel query, components) pairs; pages are cycled over these.
VIEWS = [
    ("dataset=circles&n=400&kernel=rbf&gamma=10", 3),
    (USPS_2000, 3),
    ("dataset=moons&n=300&kernel=poly&gamma=1&degree=3&coef0=1", 3),
    ("dataset=scholkopf_toy&kernel=rbf&gamma=10", 3),
    ("dataset=iris&kernel=rbf&gamma=0.2", 3),
    ("dataset=four_classes&kernel=laplacian&gamma=1", 3),
    ("dataset=parabola&kernel=poly&gamma=1&degree=2&coef0=0", 3),
    ("dataset=circles&n=300&kernel=sigmoid&gamma=2&coef0=-1", 3),
]
UNTHROTTLED = [
    "--disable-renderer-backgrounding",
    "--disable-background-timer-throttling",
    "--disable-backgrounding-occluded-windows",
]
TIMEOUT_MS = 300_000
PRESSES = 3
PRESS_TIMEOUT_MS = 20_000


@dataclass
class Session:
    number: int
    path: str
    query: str
    components: int
    first_drawn_s: float | None = None
    change_drawn_s: float | None = None
    errors: list[str] = field(default_factory=list)
    mixed: list[str] = field(default_factory=list)


def plan(n_sessions: int) -> list[Session]:
    """Session i gets page i mod pages and view i mod views, so neighbours differ in both."""
    paths = ["explorer"] + [lesson.url_path for lesson in LESSONS if lesson.url_path != "explorer"]
    sessions = []
    for i in range(n_sessions):
        query, components = VIEWS[i % len(VIEWS)]
        sessions.append(Session(i, paths[i % len(paths)], f"{query}&components={components}",
                                components))
    return sessions


async def _wait_drawn(page) -> None:
    await page.wait_for_timeout(300)  # let a just-triggered rerun start
    await page.wait_for_function(DRAWN_JS, timeout=TIMEOUT_MS, polling=50)


async def _problems(page) -> list[str]:
    boxes = page.locator('[data-testid="stException"], [data-testid="stAlertContentError"]')
    return [text[:200] for text in await boxes.all_inner_texts()]


def _expected(session: Session, components: int) -> dict[str, str]:
    wanted = {k: v[0] for k, v in parse_qs(session.query).items()}
    wanted["components"] = str(components)
    return {k: wanted[k] for k in ("dataset", "kernel", "components")}


def _check_url(session: Session, url: str, components: int, when: str) -> None:
    shown = {k: v[0] for k, v in parse_qs(urlparse(url).query).items()}
    for name, value in _expected(session, components).items():
        if shown.get(name) != value:
            session.mixed.append(f"{when}: {name}={shown.get(name)} (asked {value})")


async def run_session(context, base_url: str, session: Session, start: float) -> None:
    page = await context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    try:
        await page.goto(f"{base_url}/{session.path}?{session.query}", wait_until="commit")
        await _wait_drawn(page)
        session.first_drawn_s = time.perf_counter() - start
        session.errors += await _problems(page)
        _check_url(session, page.url, session.components, "first view")

        changed = time.perf_counter()
        await _one_more_component(page, session.components)
        await page.wait_for_function(
            "n => location.search.includes('components=' + n)",
            arg=session.components + 1, timeout=TIMEOUT_MS,
        )
        await _wait_drawn(page)
        session.change_drawn_s = time.perf_counter() - changed
        session.errors += await _problems(page)
        _check_url(session, page.url, session.components + 1, "after the change")
    except Exception as error:  # noqa: BLE001 - any failure is a reported error, not a crash
        session.errors.append(f"{type(error).__name__}: {str(error)[:200]}"
                              + await _what_the_page_shows(page, session))
    finally:
        await page.close()


async def _one_more_component(page, components: int) -> None:
    """Press → on the sidebar's components slider until it shows ``components + 1``.

    A key press that lands while the page is being redrawn (the slider replaced by its
    next copy) is lost, as it would be for a student, who would press again; the slider's
    own value says whether the press counted, so a slow rerun is never pressed twice.
    """
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(
        has_text="Number of components"
    ).get_by_role("slider")
    for _ in range(PRESSES):
        if await slider.input_value() == str(components + 1):
            return
        await slider.focus()
        await page.keyboard.press("ArrowRight")
        try:
            await page.wait_for_function(
                """n => { const s = document.querySelector('[data-testid="stSidebar"]');
                   return s && Array.from(s.querySelectorAll('[role="slider"], input')).some(
                       e => e.getAttribute('aria-label') === 'Number of components'
                            && e.value === String(n)); }""",
                arg=components + 1, timeout=PRESS_TIMEOUT_MS, polling=100,
            )
            return
        except Exception:  # noqa: BLE001 - not counted yet: look again, press again
            continue
    raise RuntimeError(f"the components slider never showed {components + 1} "
                       f"after {PRESSES} presses")


async def _what_the_page_shows(page, session: Session) -> str:
    """For a failure: where the page is, what it says, and a screenshot in tests/artifacts."""
    try:
        shot = ARTIFACTS / f"classroom-session-{session.number}.png"
        await page.screenshot(path=str(shot), full_page=True, timeout=10_000)
        text = " ".join((await page.inner_text("body", timeout=10_000)).split())
        return f" | at {page.url} | shows: {text[:400]} | screenshot: {shot.name}"
    except Exception as error:  # noqa: BLE001 - the page may be gone
        return f" | page unreadable ({type(error).__name__})"


async def _drive(base_url: str, sessions: list[Session]) -> None:
    from playwright.async_api import async_playwright

    async with async_playwright() as p:
        browser = await p.chromium.launch(
            executable_path=CHROMIUM, headless=True, args=CHROMIUM_ARGS + UNTHROTTLED
        )
        contexts = [
            await browser.new_context(viewport={"width": 1280, "height": 800}) for _ in sessions
        ]
        start = time.perf_counter()
        await asyncio.gather(
            *(run_session(c, base_url, s, start) for c, s in zip(contexts, sessions, strict=True))
        )
        # A last look, after everyone has changed a setting: nobody's view moved.
        for context in contexts:
            await context.close()
        await browser.close()


def _run_in_own_thread(coroutine) -> None:
    """Run the async driver on a fresh event loop in its own thread.

    The caller's thread may already run a loop (a sync Playwright session in the test
    suite does), and asyncio allows one running loop per thread.
    """
    failure: list[BaseException] = []

    def target() -> None:
        try:
            asyncio.run(coroutine)
        except BaseException as error:  # noqa: BLE001 - re-raised in the caller's thread
            failure.append(error)

    thread = threading.Thread(target=target, name="classroom-driver")
    thread.start()
    thread.join()
    if failure:
        raise failure[0]


def _summary(values: list[float | None]) -> dict[str, float | None]:
    done = [v for v in values if v is not None]
    if not done:
        return {"median_s": None, "worst_s": None}
    return {"median_s": statistics.median(done), "worst_s": max(done)}


def load_test(n_sessions: int, *, warm: bool = True) -> dict:
    """One classroom of ``n_sessions`` against a fresh local server; returns the report."""
    sessions = plan(n_sessions)
    server = Server(name=f"classroom-{n_sessions}")
    sampler = RssSampler(server.process.pid)
    try:
        idle = sampler.current()
        sampler.start()
        _run_in_own_thread(_drive(server.url, sessions))
        time.sleep(2.0)  # let the server settle (sessions closed, caches kept)
        settled = sampler.current()
    finally:
        sampler.running = False
        sampler.join()
        server.stop()
    return {
        "sessions": n_sessions,
        "errors": sum(bool(s.errors) for s in sessions),
        "mixed": sum(bool(s.mixed) for s in sessions),
        "first_view": _summary([s.first_drawn_s for s in sessions]),
        "after_change": _summary([s.change_drawn_s for s in sessions]),
        "idle_rss_mb": idle / 2**20,
        "peak_rss_mb": sampler.peak / 2**20,
        "settled_rss_mb": settled / 2**20,
        "details": [asdict(s) for s in sessions],
    }


def meets_targets(report: dict) -> bool:
    return report["errors"] == 0 and report["mixed"] == 0 and report["peak_rss_mb"] < 1024


def _fmt(value: float | None) -> str:
    return "   —  " if value is None else f"{value:6.1f}"


def main(argv: list[str] | None = None) -> list[dict]:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sessions", type=int, nargs="+", default=[12])
    parser.add_argument("--json", type=Path, help="also write the reports here")
    args = parser.parse_args(argv)
    reports = []
    print(" N  errors  mixed  first view median/worst (s)  after change median/worst (s)"
          "  idle/peak/settled RSS (MB)  targets")
    for n in args.sessions:
        report = load_test(n)
        reports.append(report)
        first, after = report["first_view"], report["after_change"]
        print(
            f"{n:2d}  {report['errors']:6d}  {report['mixed']:5d}"
            f"  {_fmt(first['median_s'])} / {_fmt(first['worst_s'])}             "
            f"  {_fmt(after['median_s'])} / {_fmt(after['worst_s'])}              "
            f"  {report['idle_rss_mb']:4.0f} / {report['peak_rss_mb']:4.0f} / "
            f"{report['settled_rss_mb']:4.0f}"
            f"        {'met' if meets_targets(report) else 'NOT met'}",
            flush=True,
        )
        for session in report["details"]:
            for problem in session["errors"] + session["mixed"]:
                print(f"    session {session['number']} ({session['path']}): {problem}")
    met = [r["sessions"] for r in reports if meets_targets(r)]
    print(f"largest N meeting the targets: {max(met) if met else 'none'}"
          " (no errors, no mixing, peak RSS < 1 GB)")
    if args.json:
        args.json.write_text(json.dumps(reports, indent=2) + "\n")
    return reports


if __name__ == "__main__":
    main()
