"""After a move that redraws the page (a tour step's view opened, a class started), the
keyboard's focus goes to what the person acts on next, not back to the page's body."""

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
