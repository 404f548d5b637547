"""Deployment smoke test: the app as Streamlit Community Cloud runs it.

Cloud builds a fresh environment from requirements.txt alone and runs `streamlit run
app.py` from the repository root, in a container with an empty home directory. This
module does the same on this machine: a fresh venv outside the repository with
requirements.txt only, a fresh $HOME (so an empty USPS cache), no KPCA_USPS_PATH, and the
USPS download site given the way a Cloud app is configured, as a root-level secret
(Streamlit copies those into the environment). Chromium then opens the home page and
every page of ``shell.registry.LESSONS`` (read at run time: pages are added in parallel).

The USPS site is a local port: closed at first, as when the internet is blocked, then
serving ESL files written from the shared copy of the digits, as the real site would.
"""

from __future__ import annotations

import functools
import http.server
import json
import os
import threading
import time
from pathlib import Path
from urllib.parse import urlsplit

import numpy as np
import pytest

from datasets.usps import write_esl_gz
from loadtest.browser import free_port
from shell.registry import LESSONS
from tests.packaging.tools import ROOT, clean_env, make_venv, pip_install
from tests.support.browser import (
    ARTIFACTS,
    CHART,
    HAS_CHROMIUM,
    Server,
    active_page_title,
    assert_no_exception,
    new_page,
    shot,
    wait_until_idle,
)

pytestmark = [
    pytest.mark.slow,
    pytest.mark.browser,
    pytest.mark.skipif(not HAS_CHROMIUM, reason="needs Debian's chromium"),
]

SHARED_USPS = ROOT.parent.parent / "shared" / "data" / "usps" / "usps.npz"
VIEWPORT = {"width": 1280, "height": 800}  # a laptop or a projector, not the harness's tall page
ALERT = '[data-testid="stAlert"]'


class _QuietHandler(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:
        pass


@pytest.fixture(scope="module")
def cloud(tmp_path_factory):
    """A fresh venv from requirements.txt, a fresh home and a running server."""
    base = tmp_path_factory.mktemp("cloud")
    start = time.perf_counter()
    python = make_venv(base / "venv")
    pip_install(python, "-r", ROOT / "requirements.txt", cwd=base)
    install_seconds = time.perf_counter() - start

    home = base / "home"
    (home / ".streamlit").mkdir(parents=True)
    site_port = free_port()  # nothing listens here until the download test starts a site
    # What a Cloud user would paste into "Advanced settings → Secrets".
    (home / ".streamlit" / "secrets.toml").write_text(
        f'KPCA_USPS_URL = "http://127.0.0.1:{site_port}/"\n'
    )
    ARTIFACTS.mkdir(parents=True, exist_ok=True)
    # `streamlit run app.py` from the fresh venv, with the fresh home directory.
    server = Server("cloud-like", python=python, env=clean_env(HOME=str(home)),
                    start_timeout_s=120)
    server.install_seconds = install_seconds
    server.home, server.site_port, server.base = home, site_port, base
    yield server
    server.stop()
    log = server.log.read_text()
    assert "Traceback" not in log, log[-3000:]


@pytest.fixture
def tab(browser):
    page = new_page(browser, viewport=VIEWPORT)
    yield page
    page.context.close()


def test_home_and_every_lesson_open_without_exceptions(cloud, tab):
    # The cold start: server process started -> first page fully drawn in Chromium.
    tab.goto(cloud.url)
    wait_until_idle(tab)
    tab.get_by_role("heading", name="KPCA Lab").first.wait_for()
    cold_start = time.perf_counter() - cloud.started
    assert_no_exception(tab)
    shot(tab, "deploy-home")

    opened = []
    for lesson in LESSONS:
        tab.goto(f"{cloud.url}/{lesson.url_path}")
        wait_until_idle(tab)
        # The page itself ran: an unknown page would fall back to home ("Page not found").
        active = active_page_title(tab)
        assert lesson.title == active and urlsplit(tab.url).path == f"/{lesson.url_path}"
        assert_no_exception(tab)
        shot(tab, f"deploy-{lesson.url_path}")
        opened.append(lesson.url_path)

    timings = {
        "requirements_install_s": round(cloud.install_seconds, 1),
        "server_healthy_s": round(cloud.healthy_after, 1),
        "cold_start_to_home_drawn_s": round(cold_start, 1),
        "pages": ["home", *opened],
    }
    (ARTIFACTS / "deploy-timings.json").write_text(json.dumps(timings, indent=2))
    print(f"deployment smoke test: {timings}")


def test_without_the_usps_file_a_blocked_download_says_what_to_do(cloud, tab):
    tab.goto(f"{cloud.url}/explorer?dataset=usps")
    wait_until_idle(tab)
    alert = tab.locator(ALERT).filter(has_text="The USPS digits are not available")
    alert.first.wait_for()
    text = alert.first.inner_text()
    assert f"127.0.0.1:{cloud.site_port}" in text and "KPCA_USPS_PATH" in text
    assert "Pick another dataset" in text
    assert_no_exception(tab)
    assert not (cloud.home / ".cache" / "kpca-lab" / "usps.npz").exists()
    shot(tab, "deploy-usps-blocked")


@pytest.mark.skipif(
    not (os.environ.get("KPCA_USPS_PATH") or SHARED_USPS.is_file()),
    reason="needs the real USPS digits to stand in for the download site",
)
def test_a_fresh_container_downloads_validates_and_caches_the_digits(cloud, tab):
    shared = Path(os.environ.get("KPCA_USPS_PATH") or SHARED_USPS)
    site = cloud.base / "site"
    site.mkdir()
    with np.load(shared) as z:
        arrays = {key: z[key] for key in z.files}
    for split in ("train", "test"):
        X = arrays[f"X_{split}"] / arrays["divisor"]
        write_esl_gz(site / f"zip.{split}.gz", X, arrays[f"y_{split}"])
    handler = functools.partial(_QuietHandler, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", cloud.site_port), handler)
    threading.Thread(target=httpd.serve_forever, daemon=True).start()
    try:
        tab.goto(f"{cloud.url}/explorer?dataset=usps&n=500")
        wait_until_idle(tab, min_charts=6)
        assert_no_exception(tab)
        assert tab.locator(ALERT).filter(has_text="not available").count() == 0
        # Every chart of the first load arrives: the two projections and the sample digits
        # of the open "1 · The data" tab (wait_until_idle counts SVG layers, not charts).
        tab.wait_for_function(f"document.querySelectorAll('{CHART}').length >= 3")
        shot(tab, "deploy-usps-downloaded")
    finally:
        httpd.shutdown()
        httpd.server_close()
    cached = cloud.home / ".cache" / "kpca-lab" / "usps.npz"
    with np.load(cached) as z:
        for key in ("X_train", "y_train", "X_test", "y_test"):
            np.testing.assert_array_equal(z[key], arrays[key])
