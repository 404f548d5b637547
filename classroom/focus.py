"""After a move that redraws the page (a tour step's view opened, a class started), the
keyboard's focus goes to what the person acts on next, not back to the page's body; and on
a projector, the view's picture is brought on screen once it is drawn."""

from __future__ import annotations

import json

import streamlit as st

_RUNS = "_kpca_focus_runs"
# Streamlit draws the page after the script runs: look for the element for up to 3 s. A
# heading gets tabindex −1 so it can hold the focus (a screen reader reads it).
_SCRIPT = """<script>
// Focus number {run}.
(() => {{
  const selectors = {selectors};
  const started = performance.now();
  const attempt = () => {{
    for (const selector of selectors) {{
      const element = document.querySelector(selector);
      if (element) {{
        if (element.tabIndex < 0 && !element.hasAttribute("tabindex")) element.tabIndex = -1;
        element.focus({{preventScroll: false}});
        return;
      }}
    }}
    if (performance.now() - started < 3000) setTimeout(attempt, 100);
  }};
  attempt();
}})();
</script>"""


def focus(*selectors: str) -> None:
    """Move the focus to the first element that matches one of ``selectors`` (CSS), once
    it is drawn. Each call's script differs (a counter), so the browser runs it again."""
    run = st.session_state[_RUNS] = st.session_state.get(_RUNS, 0) + 1
    st.html(_SCRIPT.format(run=run, selectors=json.dumps(list(selectors))),
            unsafe_allow_javascript=True)


_BRING = "_kpca_bring_runs"
# The first chart of the page (not in the tour's prompt), once the run is over and Plotly
# has laid it out (a heavy view may take a while: look for up to 2 minutes), scrolled whole onto the
# screen with as much as fits above it (its heading), or its top under Streamlit's
# header if it is taller than the screen. Plotly names its layout before the chart has
# its final size: the chart is brought once its box has kept its size for one look, and
# again if its size or place changes within the next 5 s (a legend laid out anew). A
# wheel, a touch or a key first wins: the person is scrolling themselves (and, for the
# 5 s, a press: a scroll bar dragged).
_BRING_SCRIPT = """<script>
// Bring number {run}.
(() => {{
  const started = performance.now();
  let moved = false;
  const stop = () => {{ moved = true; }};
  for (const type of ["wheel", "touchmove", "keydown"]) {{
    window.addEventListener(type, stop, {{once: true, passive: true}});
  }}
  const scroller = (element) => {{
    for (let e = element.parentElement; e; e = e.parentElement) {{
      const style = getComputedStyle(e);
      if (/(auto|scroll)/.test(style.overflowY) && e.scrollHeight > e.clientHeight) return e;
    }}
    return document.scrollingElement;
  }};
  const bring = (chart) => {{
    const header = document.querySelector('[data-testid="stHeader"]');
    const top = (header ? header.getBoundingClientRect().bottom : 0) + 8;
    const box = chart.getBoundingClientRect();
    const wanted = Math.max(top, window.innerHeight - box.height - 8);
    if (Math.abs(box.top - wanted) > 1) scroller(chart).scrollBy({{top: box.top - wanted}});
  }};
  let height = -1;
  const attempt = () => {{
    if (moved) return;
    // The page's first chart in its order, once the run is over (a chart further down can
    // be drawn before one above it).
    const app = document.querySelector('[data-testid="stApp"]');
    const running = app && app.getAttribute("data-test-script-state") === "running";
    const chart = Array.from(document.querySelectorAll(
        '[data-testid="stMain"] .js-plotly-plot')).find((p) => !p.closest("{outside}"));
    const size = chart ? chart.getBoundingClientRect().height : 0;
    const settled = !running && chart && chart._fullLayout && size > 0 && size === height;
    height = running ? -1 : size;
    if (!settled) {{
      if (performance.now() - started < 120000) setTimeout(attempt, 200);
      return;
    }}
    bring(chart);
    // Then watched: a press anywhere (a scroll bar dragged, a click) ends the watch too.
    let pressed = false;
    const press = () => {{ pressed = true; }};
    window.addEventListener("pointerdown", press, {{passive: true}});
    let look = 0;
    const watch = () => {{
      if (moved || pressed || !chart.isConnected || ++look > 25) {{
        window.removeEventListener("pointerdown", press);
        return;
      }}
      bring(chart);
      setTimeout(watch, 200);
    }};
    setTimeout(watch, 200);
  }};
  attempt();
}})();
</script>"""


def bring_first_chart_on_screen(outside: str) -> None:
    """Scroll the page so that its first chart not inside ``outside`` (a CSS selector) is
    on screen whole, once drawn. Each call's script differs (a counter): it runs again."""
    run = st.session_state[_BRING] = st.session_state.get(_BRING, 0) + 1
    st.html(_BRING_SCRIPT.format(run=run, outside=outside), unsafe_allow_javascript=True)
