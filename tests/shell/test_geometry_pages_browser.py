"""Real browser: the three geometry lessons, reached from the page menu and by cold deep link.

Each test changes a widget and checks what is drawn; screenshots go to tests/artifacts/.
"""

from __future__ import annotations

import re

import pytest

from tests.support.browser import (
    assert_no_exception,
    chart_titles,
    open_from_menu,
    shot,
    wait_for_title,
    wait_until_idle,
)

SMALL = "dataset=circles&n=150&kernel=rbf&gamma=10"


def nav(page, title: str) -> None:
    open_from_menu(page, title)


def wait_for_panel(page, *lines: str) -> None:
    """Wait for a subplot title holding ``lines`` (Plotly draws those as annotations, not
    .gtitle, one text span per line)."""
    page.wait_for_function(
        "lines => [...document.querySelectorAll('.annotation-text')]"
        ".some(t => lines.every(line => t.textContent.includes(line)))",
        arg=list(lines),
    )


def checks_passed(page) -> list[str]:
    """The text of every live check on the page ('Check · … ✓')."""
    return page.get_by_text(re.compile(r"^Check · .* ✓$")).all_inner_texts()


def test_geometry_pages_from_the_menu(server, page):
    page.goto(f"{server.url}/?{SMALL}")
    wait_until_idle(page)

    nav(page, "Component maps")
    wait_for_title(page, "First 8 components over the plane")
    wait_until_idle(page, min_charts=1)
    assert_no_exception(page)
    assert any("map value at a data point" in c for c in checks_passed(page))
    page.get_by_role("button", name=re.compile("Load Fig. 4")).click()
    wait_for_panel(page, "μ = 1.53", "2.3 %")  # the paper's toy, n = 90, γ = 10
    wait_until_idle(page, min_charts=1)
    assert "dataset=scholkopf_toy" in page.url and "gamma=10" in page.url
    page.get_by_text("Components 1 and 2 separate the classes").wait_for()
    shot(page, "geometry-maps-fig4")

    nav(page, "New points")
    wait_for_title(page, "RBF (Gaussian), γ = 10")
    wait_until_idle(page, min_charts=3)
    assert_no_exception(page)
    box = page.get_by_label("x1")
    box.fill("0.123")
    box.press("Enter")
    wait_until_idle(page, min_charts=3)
    page.get_by_text(re.compile(r"Sum over all \*?\*?\d+")).first.wait_for()
    assert float(page.get_by_label("x1").input_value()) == pytest.approx(0.123)
    assert any("KernelPCA.transform(x)" in c for c in checks_passed(page))
    shot(page, "geometry-new-points")

    nav(page, "Choosing γ")
    wait_for_title(page, "How well a straight line separates the classes")
    wait_until_idle(page, min_charts=3)
    assert_no_exception(page)
    assert any("γ = 10 ◀ yours" in t for t in _subplot_titles(page))
    slider = page.locator('[data-testid="stSidebar"] [data-testid="stSlider"]').filter(
        has_text="γ (log scale)"
    )
    slider.get_by_role("slider").focus()
    page.keyboard.press("ArrowLeft")  # γ 10 → 5 on the sidebar's 1-2-3-5 grid
    wait_for_panel(page, "γ = 3 ◀ nearest yours")
    wait_until_idle(page, min_charts=3)
    assert "gamma=5" in page.url
    page.get_by_text("the panel nearest your γ = 5").wait_for()
    shot(page, "geometry-choosing-gamma")


def _subplot_titles(page) -> list[str]:
    return page.locator(".annotation-text").evaluate_all("els => els.map(e => e.textContent)")


@pytest.mark.parametrize(
    ("path", "title"),
    [
        ("component_maps?dataset=parabola&n=100&kernel=poly&gamma=1&degree=2&coef0=0",
         "Polynomial kernel (x·y)ᵈ: degrees 1–4"),
        ("new_points?dataset=moons&n=150&kernel=rbf&gamma=2", "Linear PCA"),
        ("choosing_gamma?dataset=moons&n=150&kernel=poly&gamma=1&degree=2&coef0=1",
         "How well a straight line separates the classes, against d"),
    ],
    ids=["component_maps", "new_points", "choosing_gamma"],
)
def test_cold_deep_link_to_each_geometry_page(server, page, path, title):
    page.goto(f"{server.url}/{path}")
    wait_for_title(page, title)
    wait_until_idle(page, min_charts=2)
    assert_no_exception(page)
    assert all(part in page.url for part in path.split("?")[1].split("&"))
    titles = chart_titles(page)
    assert any(t.startswith(title) for t in titles)
    if path.startswith("new_points"):  # the kernel and γ from the link, in the KPCA title
        assert any(t.startswith("Kernel PCA") and "RBF (Gaussian), γ = 2" in t for t in titles)
    shot(page, f"geometry-deep-link-{path.split('?')[0]}")
