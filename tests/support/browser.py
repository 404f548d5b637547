"""The browser tests' helpers on top of the harness they share with the load tests
(``loadtest/browser.py``: the server, Chromium, the waits): screenshots, chart titles,
the menu.
"""

from __future__ import annotations

from loadtest.browser import (  # noqa: F401  (the harness, for the test modules)
    ARTIFACTS,
    CHROMIUM,
    CHROMIUM_ARGS,
    HAS_CHROMIUM,
    ROOT,
    TIMEOUT_MS,
    VIEWPORT,
    Server,
    new_page,
    wait_for_layout,
    wait_until_idle,
)

EXCEPTION = '[data-testid="stException"]'
CHART = ".js-plotly-plot"


def shot(page, name: str) -> None:
    wait_for_layout(page)
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
