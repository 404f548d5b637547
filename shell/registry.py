"""The app's pages, in menu order: one table read by the router (``app.py``), the home
page, the shared sidebar and the tests, so a page is added in one place.

Each entry also states the facts the shell and the tests need about a lesson without
importing it (the shell imports no lesson): the link parameters it owns, and the n × n
work it does, as the memory guard and the server's queue see it. A size that bounds that
work is imported here where the layers allow (``experiments``, ``datasets``) and otherwise
stated here once, for the lesson to import. The tests hold every lesson to these facts at
sizes above its caps (``tests/server/test_memory_guard.py``, ``tests/server/test_admission.py``,
``tests/shell/test_registry.py``).
"""

from __future__ import annotations

import math
from collections.abc import Callable
from dataclasses import dataclass

from datasets.drawn import MAX_POINTS as DRAWN_MAX_POINTS
from experiments.feature_maps import EXPLICIT_MAX_N
from experiments.novelty import HELD_OUT as NOVELTY_HELD_OUT
from experiments.novelty import off_shape_search_bytes
from server.budget import matrix_bytes
from words.i18n import N_

# The sizes that bound lessons' n × n work, stated once (the lessons import them).
MISTAKES_MAX_N = 300  # Common mistakes: each mistake costs its own eigendecomposition
NEW_POINTS_HELD_OUT = 0.25  # New points: the share held out as new points
TEST_FRACTION = 0.3  # Classification: the test split
DENOISING_N_TRAIN = 1000  # De-noising: its training digits at the page's default
# One eigenproblem: each method's n × n matrix (geodesic distances too) and scikit-learn's
# own method beside it, on at most this many points (a stratified sample).
EIGENPROBLEM_MAX_N = 1000
# Novelty detection: the normal points kernel PCA is fitted on, at most (a share of the
# normal points, NOVELTY_HELD_OUT, is held out first: experiments.novelty states it).
NOVELTY_MAX_TRAIN = 1000
NOVELTY_CAP = math.ceil(NOVELTY_MAX_TRAIN / (1 - NOVELTY_HELD_OUT))  # n where it is reached


def novelty_training(n: int) -> int:
    """Novelty detection fits on the normal points not held out (all n at its default for
    two-dimensional data), at most NOVELTY_MAX_TRAIN."""
    return min(n - math.ceil(NOVELTY_HELD_OUT * n), NOVELTY_MAX_TRAIN)


def new_points_training(n: int) -> int:
    """New points fits on the rest of the ``n`` points (KernelPCA.fit's n × n);
    ``train_test_split`` rounds the held-out share up."""
    return n - math.ceil(NEW_POINTS_HELD_OUT * n)


def classification_training(n: int) -> int:
    """Classification fits on the training split of ``n`` points (the test split's share
    rounded up, as ``train_test_split`` does)."""
    return n - math.ceil(TEST_FRACTION * n)


@dataclass(frozen=True)
class KernelWork:
    """A lesson's n × n work, as the memory guard and the server's queue see it.

    Attributes
    ----------
    side : callable or int
        The side of its n × n kernel matrix for a data set of ``n`` points (the whole set,
        a training split, a capped sample); an int when the lesson's own settings, not the
        sidebar's data set, fix it (De-noising's training digits at their default).
    copies : int
        n × n matrices it holds at once, as it tells ``queued(...)`` (at small n: the
        Explorer holds one fewer past its dense limit).
    cap : int or None
        The data size past which its work stops growing (it samples; for a training
        split of a sample, the size where the split reaches its most); the tests run the
        lesson above it.
    first : callable or None
        Bytes held at the peak of work the page does before its n × n work, in a turn of
        its own, for ``n`` points of ``d`` features (Novelty's search for outliers off the
        shape); over when the n × n work starts, so the page's peak is the larger of the
        two (:meth:`peak_bytes`). No cap bounds it.

    All of it takes its turn in the server-wide queue, capped samples too: many small
    computations add up (``server.admission``), and ``tests/server/test_admission.py`` fails
    for any page that builds a kernel matrix outside a turn.
    """

    side: Callable[[int], int] | int
    copies: int = 2
    cap: int | None = None
    first: Callable[[int, int], int] | None = None

    def side_for(self, n: int) -> int:
        return self.side if isinstance(self.side, int) else self.side(n)

    def peak_bytes(self, n: int, d: int) -> int:
        """Bytes the page holds at its peak for ``n`` points of ``d`` features: its n × n
        matrices, or the work before them when that holds more."""
        matrices = matrix_bytes(self.side_for(n), copies=self.copies)
        return max(matrices, self.first(n, d)) if self.first is not None else matrices


def _whole(n: int) -> int:
    return n


@dataclass(frozen=True)
class Lesson:
    """One page of the app.

    Attributes
    ----------
    path : str
        The page file, relative to the app's root (``app_pages/<name>.py``).
    title : str
        Menu and home-page title. Like ``teaches`` and ``section``: English, marked with
        ``N_`` for the catalog and shown with ``_()`` (the router, the home page).
    icon : str
        A Material icon (``:material/<name>:``).
    teaches : str
        One line for the home page: what a student learns there.
    section : str
        The menu group it sits in ("" for the top level).
    work : KernelWork or None
        Its n × n work (None: it computes no kernel, like the tour).
    link_params : tuple of str
        Link parameters the page owns besides the shared settings (the tour's ``step``):
        the sidebar keeps them in the address bar on that page and does not warn about them.
    question : str
        The question asked before the page's view (an id of ``classroom.questions``), "" for
        none: predict, then reveal (``classroom/predict.py``).
    own_settings : bool
        The page's view does not follow the sidebar's settings (De-noising: always the USPS
        digits through the RBF kernel, with controls of its own). A tour step on it asks its
        question, and compares the view with the step, at the step's own settings, which
        are the page's; whatever the sidebar says would be another view's. It asks no
        question of its own (no settings to ask it at).
    """

    path: str
    title: str
    icon: str
    teaches: str
    section: str = ""
    work: KernelWork | None = None
    link_params: tuple[str, ...] = ()
    question: str = ""
    own_settings: bool = False

    @property
    def url_path(self) -> str:
        """The page's address (Streamlit derives it from the file name)."""
        return self.path.rsplit("/", 1)[-1].removesuffix(".py")


HOME = Lesson("app_pages/home.py", N_("Home"), ":material/home:",
              N_("Start here: presets and the map."))

LESSONS: tuple[Lesson, ...] = (
    Lesson(
        "app_pages/tour.py",
        N_("Guided tour"),
        ":material/co_present:",
        N_("A 45-minute lecture in ten steps plus an optional four over the other pages: a "
           "question for the room, the view, then what to look for. For lecturers."),
        link_params=("step",),
    ),
    Lesson("app_pages/class_tally.py", N_("Class tally"), ":material/how_to_vote:",
           N_("For lecturers: a class code and QR code for the room, and the students' "
              "predictions counted live.")),
    Lesson(
        "app_pages/explorer.py",
        N_("Explorer"),
        ":material/scatter_plot:",
        N_("Any dataset, any kernel: K, K̃, the eigen-spectrum and the projections next to "
           "linear PCA."),
        work=KernelWork(_whole),
        link_params=("section", "view", "axes"),
        question="separation",
    ),
    Lesson(
        "app_pages/how_it_works.py",
        N_("How it works"),
        ":material/format_list_numbered:",
        N_("The algorithm step by step on your data: K, centring, the eigenproblem, normalisation "
           "and projection, each formula checked live, and what each step costs."),
        section=N_("How it works"),
        work=KernelWork(_whole),  # the Explorer's fit, then its steps on ≤ STEP_MAX_N
        question="zero_eigenvalues",
    ),
    Lesson(
        "app_pages/kernel_trick.py",
        N_("The kernel trick"),
        ":material/3d_rotation:",
        N_("The feature map written out: a polynomial kernel as an explicit φ, circles lifted into "
           "3-D, and why the RBF kernel's φ has infinitely many coordinates."),
        section=N_("How it works"),
        # A sample of at most EXPLICIT_MAX_N points; φ(X) of high-dimensional inputs adds
        # more (lessons/kernel_trick/view.py explicit_bytes).
        work=KernelWork(lambda n: min(n, EXPLICIT_MAX_N), copies=3, cap=EXPLICIT_MAX_N),
        question="lift_plane",
    ),
    Lesson(
        "app_pages/mistakes.py",
        N_("Common mistakes"),
        ":material/report:",
        N_("Seven errors, six of them found in published notes and code, each next to the right "
           "answer with a number for the damage it does (and when it does none)."),
        section=N_("How it works"),
        work=KernelWork(lambda n: min(n, MISTAKES_MAX_N), copies=4, cap=MISTAKES_MAX_N),
        question="forget_centring",
    ),
    Lesson(
        "app_pages/component_maps.py",
        N_("Component maps"),
        ":material/gradient:",
        N_("Each component as a function over the plane, with the paper's Figs. 3 and 4 one "
           "click away."),
        section=N_("Geometry"),
        work=KernelWork(_whole),
        question="components_needed",
    ),
    Lesson(
        "app_pages/new_points.py",
        N_("New points"),
        ":material/add_location:",
        N_("Fit on some points, place new ones: every coordinate is a sum of kernel terms "
           "centred with the training statistics."),
        section=N_("Geometry"),
        work=KernelWork(new_points_training),
    ),
    Lesson(
        "app_pages/draw.py",
        N_("Draw your own data"),
        ":material/draw:",
        N_("Click points of two or three classes onto a plane (or start from circles, moons, "
           "a spiral) and watch K, K̃, the spectrum and the projections follow every edit."),
        section=N_("Geometry"),
        work=KernelWork(DRAWN_MAX_POINTS),  # its own points, at most this many
    ),
    Lesson(
        "app_pages/choosing_gamma.py",
        N_("Choosing γ"),
        ":material/tune:",
        N_("One projection across a range of γ and degrees: which separates the classes, and "
           "why too small or too large fails."),
        section=N_("Geometry"),
        work=KernelWork(_whole),
        question="best_gamma",
    ),
    Lesson(
        "app_pages/denoising.py",
        N_("De-noising"),
        ":material/auto_fix_high:",
        N_("Clean noisy USPS digits with kernel PCA and a pre-image (learned, fixed point, "
           "Kwok–Tsang) against linear PCA, and Mika et al.'s (1999) result."),
        section=N_("Applications"),
        # Its own training digits at their default; the fit keeps three n × (n − 1)
        # arrays (eigenvectors, α, the training coordinates: lessons/denoising/caches.py).
        work=KernelWork(DENOISING_N_TRAIN, copies=3),
        own_settings=True,
    ),
    Lesson(
        "app_pages/classification.py",
        N_("Classification"),
        ":material/category:",
        N_("A linear classifier on kernel principal components beats it on raw pixels; the "
           "USPS table of Schölkopf, Smola & Müller (1998) reproduced."),
        section=N_("Applications"),
        work=KernelWork(classification_training),
    ),
    Lesson(
        "app_pages/scale.py",
        N_("Scale"),
        ":material/speed:",
        N_("How time and memory grow with n, measured live, and the Nyström and random-feature "
           "approximations that keep kernel PCA usable."),
        section=N_("Applications"),
        work=KernelWork(_whole),  # exact kernel PCA next to the approximations
    ),
    Lesson(
        "app_pages/one_eigenproblem.py",
        N_("One eigenproblem"),
        ":material/hub:",
        N_("Classical MDS, Isomap, Laplacian eigenmaps and spectral clustering are kernel PCA "
           "on a matrix each builds: switch the method and only K changes, checked against "
           "scikit-learn's own."),
        section=N_("Beyond kernel PCA"),
        # K (the geodesic distances, L⁺...), KernelPCA's copy, then scikit-learn's own.
        work=KernelWork(lambda n: min(n, EIGENPROBLEM_MAX_N), copies=4,
                        cap=EIGENPROBLEM_MAX_N),
        link_params=("method", "neighbours"),
    ),
    Lesson(
        "app_pages/novelty.py",
        N_("Novelty detection"),
        ":material/crisis_alert:",
        N_("Fit kernel PCA on normal data and flag new points by their reconstruction error in "
           "feature space; ROC curves beside the one-class SVM and the isolation forest."),
        section=N_("Beyond kernel PCA"),
        # Its training points: K, the solver's copy, the test kernels in n × n blocks
        # (lessons/novelty/view.py COPIES; a small fit asks for its explicit check's more);
        # first, with all points normal, the search for outliers off the shape among all n.
        work=KernelWork(novelty_training, copies=3, cap=NOVELTY_CAP,
                        first=off_shape_search_bytes),
        link_params=("normal", "threshold"),
    ),
)


def menu() -> dict[str, list[Lesson]]:
    """The pages grouped by section, in order ("" = the top level: home, tour, Explorer)."""
    groups: dict[str, list[Lesson]] = {"": [HOME]}
    for lesson in LESSONS:
        groups.setdefault(lesson.section, []).append(lesson)
    return groups


def page_named(name: str) -> Lesson:
    """The page at address ``name`` ("explorer"): how another table (the tour's steps)
    names a page of this one, checked where it is named."""
    for lesson in (HOME, *LESSONS):
        if lesson.url_path == name:
            return lesson
    raise KeyError(f"no page {name!r} in shell.registry.LESSONS")
