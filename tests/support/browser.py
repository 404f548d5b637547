"""The real-browser harness: `streamlit run app.py` on a free port, driven by Chromium.

Shared by every browser test module (fixtures in ``conftest.py``). Screenshots go to
tests/artifacts/ (gitignored) for a person to look at.
"""

from __future__ import annotations

import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
ARTIFACTS = ROOT / "tests" / "artifacts"
CHROMIUM = "/usr/bin/chromium"
CHROMIUM_ARGS = [
    "--no-sandbox",
    "--disable-gpu",
    "--disable-quic",
    "--no-first-run",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]
EXCEPTION = '[data-testid="stException"]'
CHART = ".js-plotly-plot"
TIMEOUT_MS = 90_000
# Tall, so a screenshot shows the whole page (Streamlit scrolls inside its own container).
VIEWPORT = {"width": 1600, "height": 3000}
HAS_CHROMIUM = Path(CHROMIUM).exists()  # CI shares 2 cores with the rest of the suite


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`streamlit run app.py` on a free local port; stopped by its own handle."""

    def __init__(self, name: str = "server", *, script: str = "app.py",
                 cwd: Path = ROOT) -> None:
        """``streamlit run <script>`` from ``cwd`` (the app by default)."""
        self.port = _free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = ARTIFACTS / f"streamlit-{name}.log"  # the last run of each, for debugging
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        command = [
            sys.executable, "-m", "streamlit", "run", script,
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
        ]  # fmt: skip
        self._log_file = open(self.log, "w")  # noqa: SIM115 - closed in stop()
        self.process = subprocess.Popen(
            command, cwd=cwd, stdout=self._log_file, stderr=subprocess.STDOUT
        )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited early; see {self.log}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        return
            except OSError:
                time.sleep(0.3)
        self.stop()
        raise RuntimeError(f"streamlit did not start within 60 s; see {self.log}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log_file.close()


def wait_until_idle(page, min_charts: int = 0) -> None:
    """Wait for the script run to finish and the charts to be drawn."""
    page.wait_for_selector('[data-testid="stSidebar"] [data-testid="stSlider"]')
    page.wait_for_function(
        "() => { const s = document.querySelector('[data-testid=\"stStatusWidget\"]');"
        " return !s || !s.innerText.includes('Running'); }"
    )
    if min_charts:
        page.wait_for_function(
            f"() => document.querySelectorAll('{CHART} .main-svg').length >= {min_charts}"
        )
    page.wait_for_timeout(500)  # let Plotly finish its transitions before a screenshot


def shot(page, name: str) -> None:
    page.screenshot(path=str(ARTIFACTS / f"{name}.png"), full_page=True)


def chart_titles(page) -> list[str]:
    # SVG text has no innerText; textContent works.
    return page.locator(f"{CHART} .gtitle").evaluate_all("els => els.map(e => e.textContent)")


def wait_for_title(page, text: str) -> None:
    page.wait_for_function(
        "text => [...document.querySelectorAll('.gtitle')].some(t => t.textContent.includes(text))",
        arg=text,
    )


def assert_no_exception(page) -> None:
    assert page.locator(EXCEPTION).count() == 0, page.locator(EXCEPTION).first.inner_text()


def explorer_charts(page) -> int:
    return page.locator(f"{CHART}").count()


def choose(page, label: str, option: str) -> None:
    """Pick ``option`` in the sidebar selectbox labelled ``label``."""
    sidebar = page.locator('[data-testid="stSidebar"]')
    sidebar.get_by_role("combobox", name=label, exact=True).click()
    page.get_by_role("option", name=option, exact=True).click()


class RssSampler(threading.Thread):
    """Peak resident memory of a process and its children, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        import psutil

        self.process = psutil.Process(pid)
        self.peak = 0
        self.running = True

    def current(self) -> int:
        total = self.process.memory_info().rss
        for child in self.process.children(recursive=True):
            total += child.memory_info().rss
        return total

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, self.current())
            time.sleep(0.02)


# The menu is in the header (app.py: st.navigation(position="top")): top-level pages are
# links, the lessons sit in section drop-downs.
TOP_NAV = '[data-testid="stTopNav"]'


def _section_of(title: str) -> str:
    from shell.registry import HOME, LESSONS

    for item in (HOME, *LESSONS):
        if item.title == title:
            return item.section
    raise ValueError(f"no page titled {title!r} in shell.registry")


def open_from_menu(page, title: str) -> None:
    """Click the page titled ``title`` in the header menu, opening its section first."""
    section = _section_of(title)
    nav = page.locator(TOP_NAV)
    if not section:
        nav.locator('[data-testid="stTopNavLink"]').filter(has_text=title).first.click()
        return
    nav.locator('[data-testid="stTopNavSection"]').filter(has_text=section).first.click()
    page.locator('[data-testid="stTopNavDropdownLink"]').filter(has_text=title).first.click()


def active_page_title(page) -> str:
    """The title of the page the menu marks as current (opening its section if needed)."""
    current = page.locator(f'{TOP_NAV} [data-testid="stTopNavLink"][aria-current="page"]')
    if current.count():
        return current.first.inner_text().split("\n")[-1]
    for section in page.locator(f'{TOP_NAV} [data-testid="stTopNavSection"]').all():
        section.click()
        link = page.locator('[data-testid="stTopNavDropdownLink"][aria-current="page"]')
        if link.count():
            title = link.first.inner_text().split("\n")[-1]
            page.keyboard.press("Escape")
            return title
        page.keyboard.press("Escape")
    return ""
