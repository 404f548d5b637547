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
    """

    path: str
    title: str
    icon: str
    teaches: str

    @property
    def url_path(self) -> str:
        """The page's address (Streamlit derives it from the file name)."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".py")


HOME = Lesson("app_pages/home.py", "Home", ":material/home:", "Start here: presets and the map.")

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "app_pages/explorer.py",
        "Explorer",
        ":material/scatter_plot:",
        "Any dataset, any kernel: K, K̃, the eigen-spectrum and the projections next to "
        "linear PCA.",
    ),
    Lesson(
        "app_pages/classification.py",
        "Classification",
        ":material/category:",
        "A linear classifier on kernel principal components beats it on raw pixels; the "
        "USPS table of Schölkopf, Smola & Müller (1998) reproduced.",
    ),
)
