"""Real browser: the three lessons (how it works, the kernel trick, common mistakes).

Each page is reached through the page menu and by a cold deep link on a fresh server; the
kernel is changed in the sidebar and the page must follow. Screenshots go to
tests/artifacts/ (lesson-*.png) for a person to look at.
"""

from __future__ import annotations

from tests.support.browser import (
    CHART,
    Server,
    assert_no_exception,
    chart_titles,
    choose,
    new_page,
    open_from_menu,
    shot,
    wait_for_title,
    wait_until_idle,
)

SMALL = "dataset=circles&n=200&kernel=rbf&gamma=5"
# (menu title, address, heading, charts drawn once the page is complete)
PAGES = [
    ("How it works", "how_it_works", "How kernel PCA works", 4),
    ("The kernel trick", "kernel_trick", "The kernel trick, made explicit", 4),
    ("Common mistakes", "mistakes", "Common mistakes", 7),
]
SIZES = {"wide": {"width": 1280, "height": 800}, "narrow": {"width": 800, "height": 900}}


def visit_by_menu(page, menu: str, charts: int) -> None:
    open_from_menu(page, menu)
    wait_until_idle(page, min_charts=charts)
    assert_no_exception(page)


def checks_on_page(page) -> list[str]:
    return page.get_by_text("Check ·").all_inner_texts()


def test_lessons_through_the_menu_follow_a_kernel_change(server, page):
    page.goto(f"{server.url}/?{SMALL}")
    wait_until_idle(page)

    # How it works: every check passes, and the kernel follows the sidebar.
    visit_by_menu(page, "How it works", 4)
    page.get_by_role("heading", name="How kernel PCA works").first.wait_for()
    assert "kernel=rbf" in page.url and "dataset=circles" in page.url
    checks = checks_on_page(page)
    assert len(checks) == 14 and all("✓" in c for c in checks), checks
    page.get_by_text("the rbf (gaussian) kernel finds them").wait_for()
    shot(page, "lesson-how-it-works-rbf")
    choose(page, "Kernel", "Polynomial")
    wait_until_idle(page, min_charts=4)
    page.get_by_text("the polynomial kernel finds them").wait_for()
    assert "kernel=poly" in page.url
    assert all("✓" in c for c in checks_on_page(page))
    assert page.get_by_text("Check failed").count() == 0
    shot(page, "lesson-how-it-works-poly")

    # The kernel trick: the map is always degree-2 polynomial, and the page says so.
    visit_by_menu(page, "The kernel trick", 4)
    wait_for_title(page, "The data lifted into 3-D")  # WebGL: drawn after the others
    titles = chart_titles(page)
    assert any(t.startswith("The data lifted into 3-D") for t in titles), titles
    assert any(t.startswith("Truncated explicit RBF map") for t in titles), titles
    choose(page, "Kernel", "Sigmoid")
    wait_until_idle(page, min_charts=4)
    page.get_by_text("The sidebar's kernel is not used here").wait_for()
    assert "kernel=sigmoid" in page.url
    assert_no_exception(page)
    shot(page, "lesson-kernel-trick-sigmoid")

    # Mistakes: centring the inputs is harmless for RBF and harmful for a polynomial kernel.
    choose(page, "Kernel", "RBF (Gaussian)")
    wait_until_idle(page, min_charts=4)
    visit_by_menu(page, "Common mistakes", 7)
    wait_for_title(page, "Projections: raw inputs")
    # Centring the inputs does no harm with RBF (eig may add one more, when it is sorted).
    page.get_by_text("depends on x − y only").wait_for()
    harmless_rbf = page.get_by_text("No damage on these data").count()
    assert harmless_rbf >= 1
    shot(page, "lesson-mistakes-rbf")
    choose(page, "Kernel", "Polynomial")
    wait_until_idle(page, min_charts=7)
    wait_for_title(page, "Projections: raw inputs")
    page.get_by_text("is not translation-invariant").wait_for()
    assert page.get_by_text("No damage on these data").count() == harmless_rbf - 1
    assert "kernel=poly" in page.url
    assert_no_exception(page)
    shot(page, "lesson-mistakes-poly")


def test_lessons_by_cold_deep_link_at_two_window_sizes(browser):
    fresh = Server(name="cold-lessons")  # the first request this server sees is a deep link
    try:
        # Every page wide; the narrow window for the page with the widest content (the
        # two-panel figures and the side-by-side formulas of the mistakes).
        visits = [("wide", p) for p in PAGES] + [("narrow", PAGES[2])]
        for name, (_, path, heading, charts) in visits:
            viewport = SIZES[name]
            page = new_page(browser, viewport=viewport)
            context = page.context
            page.goto(f"{fresh.url}/{path}?dataset=moons&n=150&kernel=poly&gamma=0.5"
                      "&degree=2&coef0=1")
            wait_until_idle(page, min_charts=charts)
            assert_no_exception(page)
            page.get_by_role("heading", name=heading).first.wait_for()
            assert "dataset=moons" in page.url and "degree=2" in page.url
            assert page.locator(CHART).count() >= charts
            assert page.get_by_text("Check failed").count() == 0
            shot(page, f"lesson-cold-{path}-{name}")
            context.close()
    finally:
        fresh.stop()
