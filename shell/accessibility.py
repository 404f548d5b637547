"""Page-wide CSS for accessibility that Streamlit's theme options cannot express.

Checked by axe-core on every page (``tests/shell/test_accessibility_browser.py``).
"""

from __future__ import annotations

import json

import streamlit as st

from words.i18n import N_, _

# KaTeX ends every stacked sub/superscript with a 2-px strut (``.vlist-s``, a Safari
# workaround) that sticks out of the formula's box; Streamlit gives display formulas
# ``overflow-x: auto``, so each such formula became a scrollable region a keyboard cannot
# reach (WCAG 2.1.1, axe's scrollable-region-focusable) with nothing to scroll. A little
# inline padding holds the strut. A formula wider than a phone still scrolls, as it must.
#
# A slider's value above its thumb and a selected segment's label are drawn in the accent
# colour, which cannot suit every place it appears: in the dark theme #cf4250 is 3.9:1 on
# the page, 3.5:1 on the sidebar (#21201d) and 3.6:1 on a selected segment, and any red
# light enough for 4.5:1 there leaves white on a primary button below 4.5:1 (in the light
# theme the segment is 4.47:1). These labels take the text colour; the thumb, and the
# selected segment's tint and border, keep the accent.
#
# Streamlit colours st.code's syntax from a fixed palette, not from the theme (blue #1c83e1
# keywords on its code background: 3.8:1 in the light theme, and similar in the dark):
# tokens take the text colour; bold functions and italic comments keep them apart.
# (``!important``: Streamlit's own rules are more specific.)
#
# Streamlit draws captions at 60 % opacity: over white its light theme's text (#2f2d2b)
# gives 3.9:1, short of WCAG's 4.5:1. At 80 % they read 7:1 there and stay grey; the dark
# theme's light text gains as well. (Not a ``[theme.light] textColor``: that reached a
# server started in the dark theme too.)
#
# A disabled widget's label (e.g. One eigenproblem's k while the method uses no graph)
# is drawn at 40 % alpha: 2.3:1 over white, 3.4:1 in the dark theme. WCAG exempts inactive
# controls, but the label still names what the student may switch on: at 70 % it reads
# 5.6:1 over white and still looks inactive beside the others.
#
# A chart's text alternative (shell.charts.show_chart) is for screen readers only: its
# element is taken out of the page's flow (no gap above the chart) and clipped to nothing.
#
# The skip link (:func:`add_skip_link`) is out of sight until it has the keyboard's focus,
# then shows at the top left, above the header.
#
# The rules must hold from the first paint, before the sidebar's sliders show their values
# (see :func:`apply_css`); the element that carries them takes no room in the page.
CSS_ID = "kpca-accessibility-css"
_RULES = """
.kpca-skip-link {
  position: fixed; top: 0.5rem; left: 0.5rem; z-index: 1000100; padding: 0.5rem 1rem;
  background: #ffffff; color: #141312; border: 2px solid #141312; border-radius: 0.5rem;
  transform: translateY(-200%);
}
.kpca-skip-link:focus { transform: none; }
.stElementContainer:has(.kpca-chart-text) {
  position: absolute; width: 1px; min-width: 0; height: 1px; margin: -1px; padding: 0;
  overflow: hidden; clip-path: inset(50%); white-space: nowrap; border: 0;
}
.katex-display { padding-inline: 0.2em; }
[data-testid="stCaptionContainer"] { opacity: 0.8 !important; }
.stElementContainer:has(input:disabled) [data-testid="stWidgetLabel"] {
  color: inherit !important; opacity: 0.7;
}
[data-testid="stSliderThumbValue"],
button[data-variant="segmented_control"][data-selected="true"],
button[data-variant="segmented_control"][data-selected="true"] *,
[data-testid="stCode"] .token { color: inherit !important; }
"""
# The element holding the rules is hidden: it leaves no gap at the top of the page.
_CSS = (f'<style id="{CSS_ID}">\n.stElementContainer:has(#{CSS_ID}) {{ display: none; }}'
        f"{_RULES}</style>")


def apply_css() -> None:
    """Add the page-wide accessibility CSS (call once per run, from the router, before the
    sidebar).

    As Markdown, not ``st.html``: Streamlit's browser code draws Markdown at once, while it
    fetches the code that draws an ``st.html`` element (and a slider) only when one first
    arrives. With ``st.html``, a slider could show its value in the accent colour until
    that code came, for as long as a loaded machine or a slow phone took (axe measured
    #cf4250 on #21201d, 3.5:1, on a page opened first). Sent before the sidebar, the rules
    are in the page before any slider.
    """
    st.markdown(_CSS, unsafe_allow_html=True)


# Streamlit puts the sidebar (about 21 tab stops of settings) before the header's page
# menu in the page, and its own first tab stop skips to the main content only. This link
# comes first of all and takes the keyboard to the page menu: the header's on a wide
# screen, the sidebar's on a narrow one (where Streamlit moves the menu into the drawer,
# opened for it). Added once per page load; later runs find it there and give it the words
# of the session's language (SKIP_LINK_TEXT, a JSON string).
SKIP_LINK_TEXT = N_("Skip to the page menu")
_SKIP_LINK = """<script>
(() => {
  const existing = document.getElementById("kpca-skip-to-menu");
  if (existing) { existing.textContent = SKIP_LINK_TEXT; return; }
  const link = document.createElement("a");
  link.id = "kpca-skip-to-menu";
  link.href = "#";
  link.className = "kpca-skip-link";
  link.textContent = SKIP_LINK_TEXT;
  const menu = () => [...document.querySelectorAll(
      '[data-testid="stTopNavLink"], [data-testid="stTopNavSection"], '
      + '[data-testid="stSidebarNavLink"]')].find((item) => item.getClientRects().length
      && item.getBoundingClientRect().right > 0);
  link.addEventListener("click", (event) => {
    event.preventDefault();
    const item = menu();
    if (item) { item.focus(); return; }
    document.querySelector('[data-testid="stExpandSidebarButton"]')?.click();
    setTimeout(() => menu()?.focus(), 400);
  });
  document.body.prepend(link);
})();
</script>"""


def add_skip_link() -> None:
    """Add the "Skip to the page menu" link, the page's first tab stop (once per run, from
    the router; inside the sidebar, whose foot hides the element's empty box)."""
    with st.sidebar:
        st.html(_SKIP_LINK.replace("SKIP_LINK_TEXT", json.dumps(_(SKIP_LINK_TEXT))),
                unsafe_allow_javascript=True)
