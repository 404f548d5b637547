"""The real-browser harness: `streamlit run app.py` on a free port, driven by Chromium.

Shared by the load tests, the benchmarks and the browser tests (``tests/support/browser.py``
adds the tests' own helpers). Server logs and screenshots go to tests/artifacts/
(gitignored) for a person to look at.
"""

from __future__ import annotations

import json
import socket
import subprocess
import sys
import threading
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
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
TIMEOUT_MS = 90_000
# Tall, so a screenshot shows the whole page (Streamlit scrolls inside its own container).
VIEWPORT = {"width": 1600, "height": 3000}
HAS_CHROMIUM = Path(CHROMIUM).exists()  # CI shares 2 cores with the rest of the suite


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Server:
    """`streamlit run app.py` on a free local port; stopped by its own handle."""

    def __init__(self, name: str = "server", *, script: str = "app.py", cwd: Path = ROOT,
                 python: str | Path = sys.executable, env: dict | None = None,
                 start_timeout_s: float = 60, port: int | None = None) -> None:
        """``streamlit run <script>`` from ``cwd`` (the app by default) with ``python``
        (this one by default) in ``env`` (this process's by default), on ``port`` (a free
        one by default; a stopped server's, to restart it where its pages reconnect); the
        log of the last run of each ``name`` stays in tests/artifacts, for debugging."""
        self.port = port or free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.log = ARTIFACTS / f"streamlit-{name}.log"
        ARTIFACTS.mkdir(parents=True, exist_ok=True)
        command = [
            python, "-m", "streamlit", "run", script,
            "--server.port", str(self.port),
            "--server.address", "127.0.0.1",
            "--server.headless", "true",
            "--browser.gatherUsageStats", "false",
            "--server.fileWatcherType", "none",
        ]  # fmt: skip
        self._log_file = open(self.log, "w")  # noqa: SIM115 - closed in stop()
        self.started = time.perf_counter()  # for cold-start timings
        self.process = subprocess.Popen(
            command, cwd=cwd, env=env, stdout=self._log_file, stderr=subprocess.STDOUT
        )
        deadline = self.started + start_timeout_s
        while time.perf_counter() < deadline:
            if self.process.poll() is not None:
                raise RuntimeError(f"streamlit exited early:\n{self.log.read_text()[-3000:]}")
            try:
                with urllib.request.urlopen(f"{self.url}/_stcore/health", timeout=2) as reply:
                    if reply.status == 200:
                        self.healthy_after = time.perf_counter() - self.started
                        return
            except OSError:
                time.sleep(0.1)
        self.stop()
        raise RuntimeError(f"streamlit did not answer within {start_timeout_s:g} s:\n"
                           f"{self.log.read_text()[-3000:]}")

    def stop(self) -> None:
        self.process.terminate()
        try:
            self.process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            self.process.kill()
        self._log_file.close()


# Installed in every page before Streamlit's own scripts (``new_page``): remembers when
# the page last asked the server to rerun the script, when a run last ended, and when the
# test last clicked or pressed a key, so that a wait can tell a finished run from one
# that an action has asked for and the server has not started yet.
RUN_TRACKER = r"""
(() => {
  const runs = window.__kpcaRuns = {requested: 0, finished: 0, action: 0, received: 0};
  const send = WebSocket.prototype.send;
  // When the server last sent anything: a run so quick that its start and end reach the
  // page together never shows 'running' (React draws the two states as one), so the
  // script state's attribute does not change; the server answering and then going quiet
  // tells that such a run is over.
  const NativeWebSocket = window.WebSocket;
  window.WebSocket = class extends NativeWebSocket {
    constructor(...args) {
      super(...args);
      this.addEventListener("message", () => { runs.received = performance.now(); });
    }
  };
  WebSocket.prototype.send = function (data) {
    // A BackMsg asking for a rerun starts with field 11 (rerun_script), length-delimited:
    // the byte 11 << 3 | 2 (Streamlit's proto/BackMsg.proto).
    const bytes = data instanceof ArrayBuffer ? new Uint8Array(data)
      : ArrayBuffer.isView(data) ? new Uint8Array(data.buffer, data.byteOffset, data.byteLength)
      : null;
    if (bytes && bytes[0] === (11 << 3 | 2)) runs.requested = performance.now();
    return send.call(this, data);
  };
  for (const type of ["pointerdown", "keydown"]) {
    addEventListener(type, () => { runs.action = performance.now(); }, true);
  }
  new MutationObserver(() => {
    const app = document.querySelector('[data-testid="stApp"]');
    if (app && app.dataset.testScriptState === "notRunning") runs.finished = performance.now();
  }).observe(document, {subtree: true, attributes: true,
                        attributeFilter: ["data-test-script-state"]});
})();
"""
# A widget sends its rerun request from its event handler; this covers one that sends a
# moment later, and actions that ask for no rerun at all (a tab, an open drop-down).
ACTION_SETTLE_MS = 150
# After its last message the server has been silent this long, with the script not running:
# the run it was asked for is over (see RUN_TRACKER).
SERVER_QUIET_MS = 400
IDLE = """({minCharts, settleMs, quietMs}) => {
  const runs = window.__kpcaRuns;
  if (!runs) throw new Error("no run tracker: open the page with tests.support.browser.new_page");
  const app = document.querySelector('[data-testid="stApp"]');
  return Boolean(app)
    && app.dataset.testConnectionState === "CONNECTED"
    && app.dataset.testScriptState === "notRunning"
    && ((runs.finished > 0 && runs.finished >= runs.requested)
        || (runs.received > runs.requested && performance.now() - runs.received >= quietMs))
    && performance.now() - runs.action >= settleMs
    && document.querySelectorAll('.js-plotly-plot .main-svg').length >= minCharts;
}"""
# Charts and page keep their sizes for this many animation frames in a row, and no
# transition (a rerun's faded elements coming back, a resized chart) is running.
STABLE_FRAMES = 5
SETTLED = """(frames) => new Promise(resolve => {
  const size = () => [...document.querySelectorAll('.js-plotly-plot .main-svg')]
    .map(svg => svg.getAttribute("width") + "x" + svg.getAttribute("height")).join()
    + "|" + document.querySelector('[data-testid="stApp"]')?.getBoundingClientRect().height;
  const moving = () => document.getAnimations().some(
    a => a.playState === "running" && a.effect?.getComputedTiming().iterations !== Infinity);
  let last = size(), same = 0;
  const tick = () => {
    const now = size();
    same = now === last && !moving() ? same + 1 : 0;
    last = now;
    if (same >= frames) resolve(true); else requestAnimationFrame(tick);
  };
  requestAnimationFrame(tick);
})"""


def new_page(browser, *, viewport: dict = VIEWPORT, **context_options):
    """A page in a context of its own, with the run tracker that ``wait_until_idle`` reads;
    close it with ``page.context.close()``."""
    context = browser.new_context(viewport=viewport, **context_options)
    context.add_init_script(RUN_TRACKER)
    page = context.new_page()
    page.set_default_timeout(TIMEOUT_MS)
    return page


# The sidebar drawn: its sliders (their code loaded, not a placeholder), or the line a
# phone's sidebar shows in their place while its view waits (shell/sidebar.py).
SIDEBAR_DRAWN = ('[data-testid="stSidebar"] [data-testid="stSlider"], '
                 '[data-testid="stSidebar"] .st-key-settings_wait')


def wait_until_idle(page, min_charts: int = 0) -> None:
    """Wait until the script has run to the end since the last rerun the page asked for (a
    load, a widget changed, a page opened) and at least ``min_charts`` charts are drawn."""
    page.wait_for_selector(SIDEBAR_DRAWN)
    page.wait_for_function(IDLE, arg={"minCharts": min_charts, "settleMs": ACTION_SETTLE_MS,
                                      "quietMs": SERVER_QUIET_MS})


def wait_for_layout(page) -> None:
    """Wait until the charts have their final sizes and nothing is fading or moving (after
    a rerun or a change of window size), so a screenshot shows what a person sees."""
    page.evaluate(SETTLED, STABLE_FRAMES)


# A page fully drawn, as the load benchmarks time it: the script finished, no skeletons,
# every Plotly chart laid out (they open pages with their own browsers, not new_page).
DRAWN_JS = """() => {
  const app = document.querySelector('[data-testid="stApp"]');
  if (!app || app.getAttribute('data-test-script-state') !== 'notRunning') return false;
  if (!document.querySelector(SIDEBAR_DRAWN)) return false;
  if (document.querySelectorAll('[data-testid="stSkeleton"]').length) return false;
  return Array.from(document.querySelectorAll('.js-plotly-plot')).every(p => p._fullLayout);
}""".replace("SIDEBAR_DRAWN", json.dumps(SIDEBAR_DRAWN))


class RssSampler(threading.Thread):
    """Peak resident memory of a process and its children, sampled every 20 ms."""

    def __init__(self, pid: int) -> None:
        super().__init__(daemon=True)
        import psutil

        self.process = psutil.Process(pid)
        self.peak = 0
        self.running = True

    def current(self) -> int:
        import psutil

        total = 0
        for process in (self.process, *self.process.children(recursive=True)):
            try:
                total += process.memory_info().rss
            except psutil.Error:  # a child that ended between the listing and the read
                pass
        return total

    def run(self) -> None:
        while self.running:
            self.peak = max(self.peak, self.current())
            time.sleep(0.02)

    def stop(self) -> int:
        """Stop sampling; the peak seen."""
        self.running = False
        self.join(timeout=2)
        return self.peak
