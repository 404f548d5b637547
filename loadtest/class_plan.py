"""The class a load test plays: who opens which link, what they change, what they check.

Plain Python (no Locust, no gevent), so the checks are unit-tested on their own
(``tests/loadtest/test_class_plan.py``); ``load_students.py`` turns each
:class:`Link` into a Locust user.

* :data:`CLASS`: the links and the share of the class on each; :func:`assign` hands N
  students their links.
* :class:`Habits`: what a student changes next (γ one step on the sidebar's log slider,
  one component more or fewer, Next/Back on the tour).
* :class:`Expectation`: what the student asked for, and :meth:`Expectation.check`, which
  sorts what came back into errors and mixing.

The client is a black box on purpose: it knows the app only through what the server
sends (labels, the address bar, the page's own statement of γ), not through its code.
"""

from __future__ import annotations

import math
import random
import re
from collections.abc import Callable
from dataclasses import dataclass
from urllib.parse import parse_qsl, urlencode

from loadtest.st_client import Run, StreamlitSession

GAMMA, COMPONENTS, DATASET = "γ (log scale)", "Number of components", "Dataset"
NEXT, BACK = "Next →", "← Back"
USPS_2000 = "dataset=usps&split=train&n=2000"


@dataclass(frozen=True)
class Link:
    """A link a lecturer shares (or a student ends up on) and the share of the class on it."""

    name: str
    page: str
    query: str
    share: float


# The lecture is at tour step 2 ("A kernel changes the geometry"): most of the room has
# its view open, some are on the tour page itself, some are a step behind or ahead, a
# few explore other data (USPS-2000 among them) or the lessons further on.
CLASS: tuple[Link, ...] = (
    Link("step 2 view", "explorer",
         "dataset=circles&n=400&kernel=rbf&gamma=5&components=2&section=2", 0.45),
    Link("tour", "tour", "step=2", 0.09),
    Link("step 1 view", "explorer", "dataset=circles&n=400&kernel=linear&components=2", 0.03),
    Link("step 3 how it works", "how_it_works",
         "dataset=circles&n=100&kernel=rbf&gamma=5&components=2", 0.08),
    Link("step 4 kernel trick", "kernel_trick",
         "dataset=circles&kernel=poly&gamma=1&degree=2&coef0=0", 0.05),
    Link("step 5 choosing γ", "choosing_gamma", "dataset=circles&kernel=rbf&gamma=5", 0.04),
    Link("explorer moons", "explorer",
         "dataset=moons&n=300&kernel=poly&gamma=1&degree=3&coef0=1&components=3", 0.04),
    Link("explorer toy", "explorer", "dataset=scholkopf_toy&kernel=rbf&gamma=10", 0.03),
    Link("explorer iris", "explorer", "dataset=iris&kernel=rbf&gamma=0.2", 0.02),
    Link("explorer rings", "explorer", "dataset=four_classes&kernel=laplacian&gamma=1", 0.02),
    Link("explorer USPS-2000", "explorer",
         f"{USPS_2000}&kernel=poly&gamma=0.00390625&degree=3&coef0=1&components=3", 0.04),
    Link("step 6 component maps", "component_maps",
         "dataset=scholkopf_toy&kernel=rbf&gamma=10&components=8", 0.03),
    Link("step 7 mistakes", "mistakes", "dataset=moons&kernel=poly&gamma=1&degree=3&coef0=1",
         0.02),
    Link("new points", "new_points", "dataset=moons&kernel=rbf&gamma=2", 0.02),
    Link("step 8 denoising", "denoising", "dataset=usps&kernel=rbf&gamma=0.0078125", 0.015),
    Link("step 9 classification", "classification",
         f"{USPS_2000}&kernel=poly&gamma=1&degree=3&coef0=0", 0.015),
    Link("step 10 scale", "scale", "dataset=circles&kernel=rbf&gamma=5", 0.01),
)
# Where a page states the γ it used (chart titles, captions): every such statement must
# be the student's own γ, and it must be there.
GAMMA_SHOWN = {
    "explorer": re.compile(r"Kernel PCA<br>.*?γ = ([^,<\s]+)"),
    "new_points": re.compile(r"Kernel PCA<br>.*?γ = ([^,<\s]+)"),
    "component_maps": re.compile(r"over the plane<br><sup>.*?γ = ([^,<\s]+)"),
    "choosing_gamma": re.compile(r"your γ = (\S+) \(red frame\)"),
    "kernel_trick": re.compile(r"the sidebar's γ = ([^\s]+) and"),
}
GAMMA_KERNELS = {"rbf", "poly", "sigmoid", "laplacian"}
# The sidebar writes these to the address bar on every run (the tour adds its step).
ALWAYS_IN_LINK = ("dataset", "kernel", "gamma", "components", "step")


def format_gamma(gamma: float) -> str:
    """γ as the sidebar and the pages print it: 3 significant digits as people write them
    (1000, 0.00781, 1.26e-5; a power of ten only below 1e-4 or from 1e5 on). The client
    knows the app only from outside, so it spells the rule out rather than import it."""
    value = float(f"{gamma:.3g}")
    if value == 0 or 1e-4 <= abs(value) < 1e5:
        return f"{value:f}".rstrip("0").rstrip(".")
    mantissa, exponent = f"{value:.2e}".split("e")
    return f"{mantissa.rstrip('0').rstrip('.')}e{int(exponent)}"


def assign(n: int, links: tuple[Link, ...] = CLASS, seed: int = 0) -> list[Link]:
    """N links in the class's proportions (largest remainder), in a random arrival order."""
    total = sum(link.share for link in links)
    exact = [n * link.share / total for link in links]
    counts = [math.floor(x) for x in exact]
    by_remainder = sorted(range(len(links)), key=lambda i: exact[i] - counts[i], reverse=True)
    for i in by_remainder[: n - sum(counts)]:
        counts[i] += 1
    plan = [link for link, count in zip(links, counts, strict=True) for _ in range(count)]
    random.Random(seed).shuffle(plan)
    return plan


# -- what one student expects and checks ----------------------------------------------
def _same(a: str, b: str) -> bool:
    try:
        return math.isclose(float(a), float(b), rel_tol=1e-9)
    except ValueError:
        return a == b


def _close(text: str, value: float) -> bool:
    try:
        return math.isclose(float(text), value, rel_tol=5e-3)
    except ValueError:
        return False


@dataclass
class Expectation:
    """The view this student asked for: page and query parameters."""

    page: str
    params: dict[str, str]
    session_id: str = ""

    def check(self, run: Run, foreign: list[str]) -> tuple[list[str], list[str]]:
        """(errors, mixing) found in ``run``."""
        errors = [f"exception: {e}" for e in run.exceptions]
        errors += [f"error box: {e}" for e in run.error_boxes]
        if run.problem:
            errors.append(run.problem)
        if not run.finished:
            return errors, []
        mixed = []
        if run.page != self.page:
            mixed.append(f"page {run.page!r} (asked {self.page!r})")
        shown = dict(parse_qsl(run.query_string))
        for name, value in self.params.items():
            if name in shown:
                if not _same(shown[name], value):
                    mixed.append(f"link {name}={shown[name]} (asked {value})")
            elif name in ALWAYS_IN_LINK and (name != "gamma"
                                             or self.params.get("kernel") in GAMMA_KERNELS):
                mixed.append(f"link lacks {name} (asked {value})")
        widgets = run.widgets
        if "gamma" in self.params and GAMMA in widgets:
            if widgets[GAMMA].value != [format_gamma(float(self.params["gamma"]))]:
                mixed.append(f"γ slider {widgets[GAMMA].value} (asked {self.params['gamma']})")
        if "components" in self.params and COMPONENTS in widgets:
            if widgets[COMPONENTS].value != [float(self.params["components"])]:
                mixed.append(f"components slider {widgets[COMPONENTS].value} "
                             f"(asked {self.params['components']})")
        pattern = GAMMA_SHOWN.get(self.page)
        if pattern and self.params.get("kernel") in GAMMA_KERNELS and "gamma" in self.params:
            said = pattern.findall(run.all_text())
            wanted = float(self.params["gamma"])
            if not said:
                mixed.append(f"the page does not state γ (asked {format_gamma(wanted)})")
            # Pages print γ to 3 significant digits (or more): equal to that precision.
            mixed += [f"page says γ = {g} (asked {format_gamma(wanted)})" for g in said
                      if not _close(g, wanted)]
        if self.session_id and run.session_id != self.session_id:
            mixed.append(f"session id changed to {run.session_id[:8]}")
        text = run.all_text()
        mixed += [f"received another student's upload {name!r}" for name in foreign
                  if name in text]
        return errors, mixed


class Habits:
    """What a student changes next: γ one step (70 %), else one component; Next/Back on
    the tour. Seeded per student, so a run can be repeated."""

    def __init__(self, page: str, seed: int) -> None:
        self.page = page
        self.random = random.Random(seed)
        self.direction = 1

    def next_change(self, widgets: dict, params: dict) -> tuple[str, object, dict] | None:
        """(widget label, new value, the parameters expected after the change)."""
        if self.page == "tour":
            step = int(params.get("step", "1"))
            if not 1 <= step + self.direction <= 10:
                self.direction *= -1
            button = NEXT if self.direction > 0 else BACK
            return button, None, {**params, "step": str(step + self.direction)}
        if GAMMA in widgets and self.random.random() < 0.7:
            slider = widgets[GAMMA]
            index = slider.options.index(slider.value[0]) + self.random.choice((-1, 1))
            label = slider.options[min(max(index, 0), len(slider.options) - 1)]
            return GAMMA, [label], {**params, "gamma": label}
        if COMPONENTS in widgets:
            current = int(widgets[COMPONENTS].value[0])
            new = current + 1 if current < 3 or self.random.random() < 0.5 else current - 1
            return COMPONENTS, [min(new, 10)], {**params, "components": str(min(new, 10))}
        return None


def make_change(session: StreamlitSession, change: tuple[str, object, dict]) -> Run:
    name, value, _ = change
    if name in (NEXT, BACK):
        return session.click(name)
    return session.set_widget(name, value)


# -- the lab: every student exploring on their own (issue 36) --------------------------
# The lecturer hands out one link and every student explores on the Explorer alone: one
# of 8 dataset × kernel choices (10 % on USPS-2000), each starting at a γ of their own on
# the sidebar's 1-2-3-5 grid, then moving γ one to three grid steps every 10–20 s. Almost
# every request is new work for the server (the lecture's mix is mostly cache reads).
LAB: tuple[Link, ...] = (
    Link("lab circles RBF", "explorer", "dataset=circles&kernel=rbf&gamma=5", 0.15),
    Link("lab circles sigmoid", "explorer", "dataset=circles&kernel=sigmoid&gamma=0.5", 0.10),
    Link("lab moons RBF", "explorer", "dataset=moons&kernel=rbf&gamma=20", 0.15),
    Link("lab moons Laplacian", "explorer", "dataset=moons&kernel=laplacian&gamma=2", 0.10),
    Link("lab iris RBF", "explorer", "dataset=iris&kernel=rbf&gamma=0.2", 0.15),
    Link("lab rings RBF", "explorer", "dataset=four_classes&kernel=rbf&gamma=2", 0.10),
    Link("lab toy polynomial", "explorer",
         "dataset=scholkopf_toy&kernel=poly&gamma=1&degree=3&coef0=1", 0.15),
    Link("lab USPS-2000 RBF", "explorer", f"{USPS_2000}&kernel=rbf&gamma=0.005", 0.10),
)
# Where a lab student's γ starts: the link's γ moved this many grid steps either way
# (seeded per student), so that the class's first views are not one shared view.
LAB_START_SPREAD = 3
# The sidebar's γ grid, spelled out (the client knows the app from outside): 1-2-3-5 per
# decade from 1e-6 to 1e4 (tests/loadtest checks it against words.kernel_params).
GAMMA_GRID = tuple(float(f"{m}e{e}") for e in range(-6, 4) for m in (1, 2, 3, 5)) + (1e4,)
# A γ change moves this many steps of the slider's grid, up or down.
LAB_STEPS = (1, 2, 3)


def grid_step(gamma: float, steps: int, grid: tuple[float, ...]) -> float:
    """``gamma`` moved ``steps`` steps along ``grid`` (from its nearest grid value),
    reflected at the ends so that a move is never lost."""
    index = min(range(len(grid)), key=lambda i: abs(math.log(grid[i] / gamma)))
    target = index + steps
    if not 0 <= target < len(grid):
        target = index - steps
    return grid[min(max(target, 0), len(grid) - 1)]


def lab_plan(n: int, seed: int = 0) -> list[Link]:
    """N lab students: links in :data:`LAB`'s proportions (as :func:`assign`), each with
    its own starting γ on the grid (up to :data:`LAB_START_SPREAD` steps from the link's)."""
    rng = random.Random(seed + 1)
    plan = []
    for link in assign(n, LAB, seed):
        params = dict(parse_qsl(link.query))
        gamma = grid_step(float(params["gamma"]),
                          rng.randint(-LAB_START_SPREAD, LAB_START_SPREAD), GAMMA_GRID)
        params["gamma"] = format_gamma(gamma)
        plan.append(Link(link.name, link.page, urlencode(params), link.share))
    return plan


class LabHabits(Habits):
    """A lab student: γ one to three steps of the slider's grid, up or down, every time."""

    def next_change(self, widgets: dict, params: dict) -> tuple[str, object, dict] | None:
        if GAMMA not in widgets:
            return None
        slider = widgets[GAMMA]
        index = slider.options.index(slider.value[0])
        steps = self.random.choice(LAB_STEPS) * self.random.choice((-1, 1))
        if not 0 <= index + steps < len(slider.options):
            steps = -steps
        label = slider.options[min(max(index + steps, 0), len(slider.options) - 1)]
        return GAMMA, [label], {**params, "gamma": label}


@dataclass(frozen=True)
class Mix:
    """How a class uses the app: who opens what (``plan(n)``) and what they change."""

    name: str
    plan: Callable[[int], list[Link]]
    habits: type[Habits]
    links: tuple[Link, ...]


MIXES: dict[str, Mix] = {
    "lecture": Mix("lecture", assign, Habits, CLASS),
    "lab": Mix("lab", lab_plan, LabHabits, LAB),
}
