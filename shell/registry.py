"""The app's pages, in menu order: one table read by the router (``app.py``) and the
home page, so a page is added in one place with one line on what it teaches."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Lesson:
    """One page of the app.

    Attributes
    ----------
    path : str
        The page file, relative to the app's root (``app_pages/<name>.py``).
    title : str
        Menu and home-page title.
    icon : str
        A Material icon (``:material/<name>:``).
    teaches : str
        One line for the home page: what a student learns there.
    section : str
        The menu group it sits in ("" for the top level).
    """

    path: str
    title: str
    icon: str
    teaches: str
    section: str = ""

    @property
    def url_path(self) -> str:
        """The page's address (Streamlit derives it from the file name)."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".py")


HOME = Lesson("app_pages/home.py", "Home", ":material/home:", "Start here: presets and the map.")

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "app_pages/tour.py",
        "Guided tour",
        ":material/co_present:",
        "A 45-minute lecture in ten steps over the other pages: a question for the room, the "
        "view, then what to look for. For lecturers.",
    ),
    Lesson(
        "app_pages/explorer.py",
        "Explorer",
        ":material/scatter_plot:",
        "Any dataset, any kernel: K, K̃, the eigen-spectrum and the projections next to "
        "linear PCA.",
    ),
    Lesson(
        "app_pages/how_it_works.py",
        "How it works",
        ":material/format_list_numbered:",
        "The algorithm step by step on your data: K, centring, the eigenproblem, normalisation "
        "and projection, each formula checked live, and what each step costs.",
        section="How it works",
    ),
    Lesson(
        "app_pages/kernel_trick.py",
        "The kernel trick",
        ":material/3d_rotation:",
        "The feature map written out: a polynomial kernel as an explicit φ, circles lifted into "
        "3-D, and why the RBF kernel's φ has infinitely many coordinates.",
        section="How it works",
    ),
    Lesson(
        "app_pages/mistakes.py",
        "Common mistakes",
        ":material/report:",
        "Seven errors copied from published notes, each next to the right answer with a "
        "number for the damage it does (and when it does none).",
        section="How it works",
    ),
    Lesson(
        "app_pages/component_maps.py",
        "Component maps",
        ":material/gradient:",
        "Each component as a function over the plane, with the paper's Figs. 3 and 4 one "
        "click away.",
        section="Geometry",
    ),
    Lesson(
        "app_pages/new_points.py",
        "New points",
        ":material/add_location:",
        "Fit on some points, place new ones: every coordinate is a sum of kernel terms "
        "centred with the training statistics.",
        section="Geometry",
    ),
    Lesson(
        "app_pages/choosing_gamma.py",
        "Choosing γ",
        ":material/tune:",
        "One projection across a range of γ and degrees: which separates the classes, and "
        "why too small or too large fails.",
        section="Geometry",
    ),
    Lesson(
        "app_pages/denoising.py",
        "De-noising",
        ":material/auto_fix_high:",
        "Clean noisy USPS digits with kernel PCA and a pre-image (learned, fixed point, "
        "Kwok–Tsang) against linear PCA, and Mika et al.'s (1999) result.",
        section="Applications",
    ),
    Lesson(
        "app_pages/classification.py",
        "Classification",
        ":material/category:",
        "A linear classifier on kernel principal components beats it on raw pixels; the "
        "USPS table of Schölkopf, Smola & Müller (1998) reproduced.",
        section="Applications",
    ),
    Lesson(
        "app_pages/scale.py",
        "Scale",
        ":material/speed:",
        "How time and memory grow with n, measured live, and the Nyström and random-feature "
        "approximations that keep kernel PCA usable.",
        section="Applications",
    ),
)


def menu() -> dict[str, list[Lesson]]:
    """The pages grouped by section, in order ("" = the top level: home, tour, Explorer)."""
    groups: dict[str, list[Lesson]] = {"": [HOME]}
    for lesson in LESSONS:
        groups.setdefault(lesson.section, []).append(lesson)
    return groups
